package steps

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

// triWERBar is what tri1 and tri2 must reach on kaldi-mini's test set (110
// words of espeak digits; Kaldi's monophone system: 0.91 %). The ladder on
// 160 training utterances is no better than the monophone (measured with 8
// iterations: tri1 3.64 %, tri2 7.27 %, all insertions), so the
// bar checks that the features, model and graph fit together, not that
// LDA+MLLT helps on this tiny set (-short's 5 iterations: tri1 5.45 %, tri2
// 1.82 %).
const triWERBar = 15.0

// triKaldiMini is an s5 dir in a temporary folder: kaldi-mini's lang,
// lang_test (its G.fst) and exp/mono (one job), and data/train and data/test
// with MFCC (conf/mfcc.conf) and per-speaker CMVN stats, as Kaldi's
// make_mfcc.sh and compute_cmvn_stats.sh leave them (without feats, empty
// feats.scp and cmvn.scp, for the tests of bad input). It returns the dir and
// a function that runs a bash script there (STRODE and $P, the steps dir,
// set) and fails the test on an error.
func triKaldiMini(t *testing.T, feats bool) (string, func(string) string) {
	t.Helper()
	k, err := filepath.Abs(shareddata.Full(t, "kaldi-mini"))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	bin := testbin.Strode(t)
	dir := t.TempDir()
	sh := func(script string) string {
		t.Helper()
		out, err := triRun(dir, bin, steps, k, script)
		if err != nil {
			t.Fatalf("%v\n%s\n%s", err, script, out)
		}
		return out
	}
	sh(`mkdir -p data exp mfcc
cp -r $K/data/lang data/lang; cp -r $K/data/lang data/lang_test; cp $K/data/lang_test/G.fst data/lang_test/
cp -r $K/exp/mono exp/mono; rm -rf exp/mono/graph exp/mono/decode_test
for s in train test; do
  mkdir -p data/$s; cp $K/data/$s/text $K/data/$s/utt2spk $K/data/$s/spk2utt data/$s/
  [ ` + strconv.FormatBool(feats) + ` = true ] || { touch data/$s/feats.scp data/$s/cmvn.scp; continue; }
  awk -v k=$K '{print $1, k"/"$2}' $K/data/$s/wav.scp > data/$s/wav.scp
  $STRODE compute-mfcc-feats --config=$K/conf/mfcc.conf scp:data/$s/wav.scp ark,scp:$PWD/mfcc/raw_$s.ark,data/$s/feats.scp 2>/dev/null
  $STRODE compute-cmvn-stats --spk2utt=ark:data/$s/spk2utt scp:data/$s/feats.scp ark,scp:$PWD/mfcc/cmvn_$s.ark,data/$s/cmvn.scp 2>/dev/null
done`)
	return dir, sh
}

// triRun runs script with bash -euo pipefail in dir, with STRODE, P (this
// directory) and K (kaldi-mini) in its environment.
func triRun(dir, bin, steps, k, script string) (string, error) {
	cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "STRODE="+bin, "P="+steps, "K="+k)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// triWER reads DECODE/best_wer: the WER and the number of reference words.
func triWER(t *testing.T, decode string) (float64, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(decode, "best_wer"))
	if err != nil {
		t.Fatal(err)
	}
	// %WER 3.64 [ 4 / 110, 4 ins, 0 del, 0 sub ] exp/tri1/decode_test/wer_17_1.0
	f := strings.Fields(string(b))
	if len(f) < 6 || f[0] != "%WER" {
		t.Fatalf("%s/best_wer: %q is not a %%WER line", decode, b)
	}
	wer, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSuffix(f[5], ","))
	if err != nil {
		t.Fatal(err)
	}
	return wer, n
}

// triPdfs is the number of pdfs of a model (hmm-info).
func triPdfs(t *testing.T, sh func(string) string, mdl string) int {
	t.Helper()
	out := sh(`$STRODE hmm-info ` + mdl + ` 2>/dev/null | awk '/number of pdfs/ {print $NF}'`)
	n, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("hmm-info %s: %q", mdl, out)
	}
	return n
}

// The ladder as Kaldi's recipes climb it, from kaldi-mini's monophone
// alignments: train_deltas.sh, align_si.sh, train_lda_mllt.sh (splicing
// +-3), align_si.sh again, each system decoded with its own graph. Every
// directory has Kaldi's layout, the trees no more leaves than asked, the
// LDA+MLLT dir a 40 x 91 final.mat (13 MFCC x 7 frames), and the decodes
// are scored. -short runs 5 iterations instead of 35 (MLLT on 2, realignment on 3) and
// scores LM weights 9-11 with no penalty.
func TestTriLadderKaldiMini(t *testing.T) {
	dir, sh := triKaldiMini(t, true)
	iters, scoring := "", ""
	if testing.Short() {
		iters = `--num-iters 5 --max-iter-inc 3 --realign-iters "3"`
		scoring = `--scoring-opts "--min-lmwt 9 --max-lmwt 11 --word-ins-penalty 0.0"`
	}
	sh(`$P/train_deltas.sh ` + iters + ` --boost-silence 1.25 100 400 data/train data/lang exp/mono exp/tri1 > exp/tri1.out
$P/align_si.sh --nj 2 data/train data/lang exp/tri1 exp/tri1_ali > exp/tri1_ali.out
$P/train_lda_mllt.sh ` + strings.Replace(iters, `--realign-iters`, `--mllt-iters "2" --realign-iters`, 1) + ` --splice-opts "--left-context=3 --right-context=3" 120 500 data/train data/lang exp/tri1_ali exp/tri2 > exp/tri2.out
$P/align_si.sh --nj 2 data/train data/lang exp/tri2 exp/tri2_ali > exp/tri2_ali.out
for r in tri1 tri2; do
  $STRODE mkgraph data/lang_test exp/$r exp/$r/graph > exp/$r/mkgraph.log 2>&1
  $P/decode.sh --nj 2 ` + scoring + ` exp/$r/graph data/test exp/$r/decode_test > exp/$r/decode.out
done`)
	for _, c := range []struct {
		dir    string
		leaves int
		files  []string
	}{
		{"tri1", 100, []string{"final.mdl", "final.occs", "tree", "ali.1.gz", "fsts.1.gz", "num_jobs", "cmvn_opts", "phones.txt", "log/acc_tree.1.log"}},
		{"tri1_ali", 100, []string{"final.mdl", "tree", "ali.1.gz", "ali.2.gz", "num_jobs", "cmvn_opts", "log/align.2.log"}},
		{"tri2", 120, []string{"final.mdl", "final.mat", "full.mat", "0.mat", "tree", "ali.1.gz", "ali.2.gz", "num_jobs", "splice_opts", "cmvn_opts", "log/lda_acc.1.log", "log/mupdate.2.log"}},
		{"tri2_ali", 120, []string{"final.mdl", "final.mat", "tree", "ali.1.gz", "ali.2.gz", "splice_opts", "cmvn_opts"}},
	} {
		for _, f := range c.files {
			if _, err := os.Stat(filepath.Join(dir, "exp", c.dir, f)); err != nil {
				t.Errorf("%s: %v", c.dir, err)
			}
		}
		// More leaves than kaldi-mini's 20 tree roots, no more than asked.
		if n := triPdfs(t, sh, "exp/"+c.dir+"/final.mdl"); n <= 20 || n > c.leaves {
			t.Errorf("%s: %d pdfs, want 21-%d", c.dir, n, c.leaves)
		}
	}
	if got := strings.TrimSpace(sh(`cat exp/tri2/splice_opts`)); got != "--left-context=3 --right-context=3" {
		t.Errorf("tri2/splice_opts: %q", got)
	}
	if got := strings.Fields(sh(`$STRODE copy-matrix --binary=false exp/tri2/final.mat - 2>/dev/null | awk '{gsub(/[][]/, ""); if (NF) {n++; c = NF}} END {print n, c}'`)); len(got) != 2 || got[0] != "40" || got[1] != "91" {
		t.Errorf("tri2/final.mat is %v (rows, columns of the last row), want 40 x 91", got)
	}
	if out := sh(`cat exp/tri2.out exp/tri2/decode.out`); !strings.Contains(out, "LDA+MLLT features") || !strings.Contains(out, "feature type is lda") {
		t.Errorf("train_lda_mllt.sh / decode.sh output:\n%s", out)
	}
	for _, r := range []string{"tri1", "tri2"} {
		wer, n := triWER(t, filepath.Join(dir, "exp", r, "decode_test"))
		t.Logf("%s: %%WER %.2f of %d words", r, wer, n)
		if n != 110 || wer > triWERBar {
			t.Errorf("%s: %%WER %.2f of %d words; want 110 words and at most %.0f%%", r, wer, n, triWERBar)
		}
	}
}

// Wrong arguments and missing inputs stop each script with its usage or a
// message naming the file, before anything is written.
func TestTriBadInput(t *testing.T) {
	dir, sh := triKaldiMini(t, false)
	bin := strings.TrimSpace(sh(`echo $STRODE`))
	steps := strings.TrimSpace(sh(`echo $P`))
	for _, c := range []struct{ name, script, want string }{
		{"train_deltas args", `$P/train_deltas.sh 100 400 data/train data/lang exp/mono`, "Usage: recipes/steps/train_deltas.sh"},
		{"train_deltas no ali", `$P/train_deltas.sh 100 400 data/train data/lang exp/none exp/x`, "no such file exp/none/final.mdl"},
		{"train_deltas no cmvn", `rm -rf d; cp -r data/train d; rm d/cmvn.scp; $P/train_deltas.sh 100 400 d data/lang exp/mono exp/x`, "no such file d/cmvn.scp"},
		{"train_deltas careful", `$P/train_deltas.sh --careful true 100 400 data/train data/lang exp/mono exp/x`, "no --careful"},
		{"train_deltas bad option", `$P/train_deltas.sh --num-leaves 3 100 400 data/train data/lang exp/mono exp/x`, "num-leaves"},
		{"align_si no model", `$P/align_si.sh data/train data/lang exp/none exp/x`, "expected file exp/none/tree to exist"},
		{"train_lda_mllt args", `$P/train_lda_mllt.sh 100 data/train data/lang exp/mono exp/x`, "Usage: recipes/steps/train_lda_mllt.sh"},
		{"train_lda_mllt no feats", `$P/train_lda_mllt.sh 100 400 data/none data/lang exp/mono exp/x`, "no such file data/none/feats.scp"},
		{"decode no graph", `$P/decode.sh --nj 1 exp/mono/none data/test exp/mono/decode_x`, "no such file exp/mono/none/HCLG.fst"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := triRun(dir, bin, steps, "", c.script)
			if err == nil || !strings.Contains(out, c.want) {
				t.Errorf("%s: err %v, want a failure saying %q:\n%s", c.script, err, c.want, out)
			}
		})
	}
}

// --num-leaves and --tot-gauss below kaldi-mini's 20 tree roots (10 and 5):
// train_deltas.sh goes on as Kaldi's does. build-tree splits no phone and
// keeps the roots' 20 leaves, warning with --max-leaves and the roots file
// named (Kaldi's BuildTree is silent); gmm-est's mixing up to fewer
// Gaussians than the pdfs does nothing, one Gaussian per leaf (Kaldi's
// GetSplitTargets gives every pdf at least one).
func TestTriLeavesAndGaussBelowRoots(t *testing.T) {
	_, sh := triKaldiMini(t, true)
	sh(`$P/train_deltas.sh --num-iters 2 --max-iter-inc 1 --realign-iters "" 10 5 data/train data/lang exp/mono exp/tri1 > exp/tri1.out`)
	log := sh(`cat exp/tri1/log/build_tree.log`)
	if !strings.Contains(log, "WARNING") || !strings.Contains(log, "--max-leaves=10 is below the 20 leaves that the roots file data/lang/phones/roots.int gives") {
		t.Errorf("exp/tri1/log/build_tree.log does not warn that --max-leaves=10 is below the roots' 20 leaves:\n%s", log)
	}
	if n := triPdfs(t, sh, "exp/tri1/final.mdl"); n != 20 {
		t.Errorf("exp/tri1/final.mdl: %d pdfs, want the roots' 20", n)
	}
	g := strings.TrimSpace(sh(`$STRODE gmm-info exp/tri1/final.mdl 2>/dev/null | awk '/number of gaussians/ {print $NF}'`))
	if g != "20" {
		t.Errorf("exp/tri1/final.mdl: %s Gaussians, want one per pdf (20)", g)
	}
}
