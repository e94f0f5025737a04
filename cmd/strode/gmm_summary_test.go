package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// runWithLog runs a subcommand in-process, failing the test on a non-zero
// exit, and returns its stderr (the log).
func runWithLog(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != 0 {
		t.Fatalf("strode %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return errb.String()
}

// The GMM tools end their logs with Kaldi's summary lines, the ones a
// user (and steps/*.sh's diagnostics) read to see how much was done and
// how well: an utterance lost on the way shows there.
func TestGmmToolsSummaryLines(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	feats := "ark:" + filepath.Join(k, "golden/test5_feats.ark")
	words := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(readDecoderString(t, filepath.Join(k, "data/lang/words.txt"))), "\n") {
		f := strings.Fields(l)
		words[f[0]] = f[1]
	}
	var tra strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(readDecoderString(t, filepath.Join(k, "golden/test5.text"))), "\n") {
		f := strings.Fields(l)
		tra.WriteString(f[0])
		for _, w := range f[1:] {
			tra.WriteString(" " + words[w])
		}
		tra.WriteString("\n")
	}
	traFile := filepath.Join(tmp, "test5.tra")
	if err := os.WriteFile(traFile, []byte(tra.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	graphs := "ark:" + filepath.Join(tmp, "graphs.fsts")
	runDecoderCmd(t, "compile-train-graphs", "--read-disambig-syms="+filepath.Join(k, "data/lang/phones/disambig.int"),
		filepath.Join(k, "exp/mono/tree"), mdl, filepath.Join(k, "data/lang/L.fst"), "ark:"+traFile, graphs)
	ali := "ark:" + filepath.Join(tmp, "ali")
	n := strings.Count(tra.String(), "\n")
	num := `-?[0-9][-0-9.e+]*`
	for _, c := range []struct {
		args []string
		want []string // regular expressions, one per line
	}{
		{[]string{"gmm-align-compiled", "--beam=10", "--retry-beam=40", "--transition-scale=1.0", "--self-loop-scale=0.1", "--acoustic-scale=0.1", mdl, graphs, feats, ali},
			[]string{`Overall log-likelihood per frame is ` + num + ` over [0-9]+ frames\.`, `Retried 0 out of ` + strconv.Itoa(n) + ` utterances\.`, `Done ` + strconv.Itoa(n) + `, errors on 0\n`}},
		{[]string{"gmm-acc-stats-ali", mdl, feats, ali, filepath.Join(tmp, "acc")},
			[]string{`Done ` + strconv.Itoa(n) + ` files, 0 with no alignments, 0 with other errors\.`, `Overall avg like per frame \(Gaussian only\) = ` + num + ` over [0-9]+ frames\.`}},
		{[]string{"gmm-est", mdl, filepath.Join(tmp, "acc"), filepath.Join(tmp, "1.mdl")},
			[]string{`GMM update: Overall avg like per frame = ` + num + ` over ` + num + ` frames\.`, `Written model to `}},
		{[]string{"acc-tree-stats", "--ci-phones=1", mdl, feats, ali, filepath.Join(tmp, "treeacc")},
			[]string{`Accumulated stats for ` + strconv.Itoa(n) + ` files, 0 failed due to no alignment, 0 failed for other reasons\.`, `Number of separate stats \(context-dependent states\) is [0-9]+`}},
	} {
		log := runWithLog(t, c.args...)
		for _, w := range c.want {
			if !regexp.MustCompile(`LOG \(strode ` + c.args[0] + `\) ` + w).MatchString(log) {
				t.Errorf("%s: no line %q in its log:\n%s", c.args[0], w, log)
			}
		}
	}
	// A feature entry a permissive read skips is one more error in the
	// summaries, beside its WARNING.
	scp := filepath.Join(tmp, "feats.scp")
	runDecoderCmd(t, "copy-feats", feats, "ark,scp:"+filepath.Join(tmp, "feats.ark")+","+scp)
	b, _ := os.ReadFile(scp)
	if err := os.WriteFile(scp, append(b, "lost "+filepath.Join(tmp, "gone.ark")+":9\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"gmm-align-compiled", mdl, graphs, "scp,p:" + scp, "ark:/dev/null"}},
		{[]string{"gmm-acc-stats-ali", mdl, "scp,p:" + scp, ali, filepath.Join(tmp, "acc2")}},
		{[]string{"acc-tree-stats", "--ci-phones=1", mdl, "scp,p:" + scp, ali, filepath.Join(tmp, "treeacc2")}},
	} {
		log := runWithLog(t, c.args...)
		want := map[string]string{
			"gmm-align-compiled": "Done " + strconv.Itoa(n) + ", errors on 1\n",
			"gmm-acc-stats-ali":  "0 with no alignments, 1 with other errors.",
			"acc-tree-stats":     "0 failed due to no alignment, 1 failed for other reasons.",
		}[c.args[0]]
		if !strings.Contains(log, want) || !strings.Contains(log, "WARNING (strode "+c.args[0]+") reading scp,p:"+scp+": skipping key lost") {
			t.Errorf("%s: want %q and the skipped key in its log:\n%s", c.args[0], want, log)
		}
	}
}
