package local

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

// ctmWord is one CTM line: word, start and duration in seconds, confidence.
type ctmWord struct {
	word       string
	start, dur float64
	conf       float64
}

func readCTM(t *testing.T, path string) map[string][]ctmWord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]ctmWord{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		x := strings.Fields(sc.Text())
		if len(x) != 5 && len(x) != 6 {
			t.Fatalf("%s:%d: not a CTM line: %q", path, line, sc.Text())
		}
		w := ctmWord{word: x[4], conf: -1}
		w.start, _ = strconv.ParseFloat(x[2], 64)
		w.dur, _ = strconv.ParseFloat(x[3], 64)
		if len(x) == 6 {
			w.conf, _ = strconv.ParseFloat(x[5], 64)
		}
		out[x[0]] = append(out[x[0]], w)
	}
	return out
}

// alignWords pairs hypothesis and reference words by a Levenshtein
// alignment: pairs[i] is the reference index of hypothesis word i, or -1
// (inserted), and whether it matches. Among alignments with the fewest
// errors it takes the one whose paired words are closest in start time to
// the reference's (refStart, from the forced alignment), as sclite's
// time-mediated alignment does: when a word is repeated and one copy is
// inserted, the copy that is not where the reference word is is the error.
func alignWords(hyp []ctmWord, ref []string, refStart []float64) (pairs []int, correct []bool) {
	n, m := len(hyp), len(ref)
	d := make([][]float64, n+1)
	for i := range d {
		d[i] = make([]float64, m+1)
		d[i][0] = float64(i)
	}
	for j := 0; j <= m; j++ {
		d[0][j] = float64(j)
	}
	// An error costs 1; a pair costs its start time difference in units of
	// 1/1000 of an error per second, which orders alignments with as many
	// errors and never outweighs one.
	pair := func(i, j int) float64 {
		c := 1e-3 * math.Abs(hyp[i].start-refStart[j]) / (1 + math.Abs(hyp[i].start-refStart[j]))
		if hyp[i].word != ref[j] {
			c++
		}
		return c
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			d[i][j] = min(d[i-1][j-1]+pair(i-1, j-1), d[i-1][j]+1, d[i][j-1]+1)
		}
	}
	pairs, correct = make([]int, n), make([]bool, n)
	for i, j := n, m; i > 0; {
		switch {
		case j > 0 && d[i][j] == d[i-1][j-1]+pair(i-1, j-1):
			pairs[i-1], correct[i-1] = j-1, hyp[i-1].word == ref[j-1]
			i, j = i-1, j-1
		case d[i][j] == d[i-1][j]+1:
			pairs[i-1] = -1
			i--
		default:
			j--
		}
	}
	return pairs, correct
}

// TestGetCtmKaldiMini runs get_ctm.sh, lattice-to-ctm-conf and
// lattice-oracle on kaldi-mini's Kaldi lattices of the test set.
//
// Word times are checked against a forced alignment of the test set to its
// reference transcripts made with strode's own tools (MFCC, CMN, deltas,
// compile-train-graphs, gmm-align-compiled with Kaldi's align.sh options),
// whose phones are grouped into the reference words by the lexicon. That
// alignment owes nothing to the lattices, so it tests that the CTM's times
// are where the words are, which a comparison with the lattice's own 1-best
// alignment (the same transition-ids the CTM is cut from) could not.
func TestGetCtmKaldiMini(t *testing.T) {
	k, _ := filepath.Abs(shareddata.Dir(t, "kaldi-mini"))
	bin := testbin.Strode(t)
	dir := t.TempDir()
	run := func(script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-c", "set -euo pipefail; "+script)
		cmd.Dir = k // wav.scp's paths are relative to kaldi-mini
		cmd.Env = append(os.Environ(), "S="+bin, "T="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	dec := filepath.Join(dir, "exp", "mono", "decode_test")
	os.MkdirAll(dec, 0o755)
	for _, f := range []string{"exp/mono/final.mdl", "exp/mono/decode_test/lat.1.gz"} {
		b, err := os.ReadFile(filepath.Join(k, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}

	// The forced alignment's word start times.
	run(`$S compute-mfcc-feats --config=conf/mfcc.conf scp:data/test/wav.scp ark:$T/mfcc.ark
$S compute-cmvn-stats --spk2utt=ark:data/test/spk2utt ark:$T/mfcc.ark ark:$T/cmvn.ark
$S apply-cmvn --utt2spk=ark:data/test/utt2spk ark:$T/cmvn.ark ark:$T/mfcc.ark ark:- | $S add-deltas ark:- ark:$T/feats.ark
$S sym2int --field=2- data/lang/words.txt data/test/text > $T/text.int
$S compile-train-graphs --read-disambig-syms=data/lang/phones/disambig.int exp/mono/tree exp/mono/final.mdl data/lang/L.fst ark:$T/text.int ark:$T/graphs.fsts
$S gmm-align-compiled --beam=10 --retry-beam=40 --transition-scale=1.0 --self-loop-scale=0.1 --acoustic-scale=0.1 exp/mono/final.mdl ark:$T/graphs.fsts ark:$T/feats.ark ark:$T/ali.ark
$S ali-to-phones --ctm-output exp/mono/final.mdl ark:$T/ali.ark $T/phones.ctm`)
	phones := readCTM(t, filepath.Join(dir, "phones.ctm"))
	prons := map[string][]string{}
	lex, _ := os.ReadFile(filepath.Join(k, "data/lang/phones/align_lexicon.int"))
	for _, line := range strings.Split(strings.TrimSpace(string(lex)), "\n") {
		f := strings.Fields(line)
		prons[f[0]] = f[2:]
	}
	words := map[string]string{}
	wt, _ := os.ReadFile(filepath.Join(k, "data/lang/words.txt"))
	for _, line := range strings.Split(strings.TrimSpace(string(wt)), "\n") {
		f := strings.Fields(line)
		words[f[0]] = f[1]
	}
	refs := map[string][]string{}
	refStart := map[string][]float64{}
	text, _ := os.ReadFile(filepath.Join(k, "data/test/text"))
	for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		f := strings.Fields(line)
		utt := f[0]
		refs[utt] = f[1:]
		ph := phones[utt]
		i := 0
		for _, w := range f[1:] {
			for i < len(ph) && ph[i].word == "1" { // SIL between words
				i++
			}
			pron := prons[words[w]]
			if i+len(pron) > len(ph) {
				t.Fatalf("%s: forced alignment has too few phones for %q", utt, w)
			}
			for j, p := range pron {
				if ph[i+j].word != p {
					t.Fatalf("%s: forced alignment's phones do not spell %q", utt, w)
				}
			}
			refStart[utt] = append(refStart[utt], ph[i].start)
			i += len(pron)
		}
	}

	// Two decodes of the test set: Kaldi's lattices, and strode's own
	// latgen-faster-mapped on features with one global mean normalisation
	// instead of per-speaker CMN, a front-end mismatch that makes errors
	// (about 4% WER) and lattices with competing words, which Kaldi's
	// (one insertion, on every path of its lattice) do not have.
	glob := filepath.Join(dir, "exp", "mono", "decode_globalcmn")
	os.MkdirAll(glob, 0o755)
	run(`awk '{print $1, "all"}' data/test/utt2spk > $T/u2s_all
(printf all; awk '{printf " %s", $1}' data/test/utt2spk; echo) > $T/s2u_all
$S compute-cmvn-stats --spk2utt=ark:$T/s2u_all ark:$T/mfcc.ark ark:$T/cmvn_all.ark
$S apply-cmvn --utt2spk=ark:$T/u2s_all ark:$T/cmvn_all.ark ark:$T/mfcc.ark ark:- | $S add-deltas ark:- ark:- | $S gmm-compute-likes exp/mono/final.mdl ark:- ark:$T/likes_all.ark
$S latgen-faster-mapped --max-active=7000 --beam=13.0 --lattice-beam=6.0 --acoustic-scale=0.083333 --allow-partial=true exp/mono/final.mdl exp/mono/graph/HCLG.fst ark:$T/likes_all.ark "ark:|gzip -c > $T/exp/mono/decode_globalcmn/lat.1.gz"`)

	werRE := regexp.MustCompile(`%WER ([0-9.]+) \[`)
	var within, total, nC, nE int
	var sumC, sumE float64
	for _, d := range []string{dec, glob} {
		name := filepath.Base(d)
		// The CTM of LM weight 7 (Kaldi's best on its decode): start times
		// within one frame of the forced alignment's, for the words that
		// match the reference.
		run(`recipes=` + mustAbs(t, ".") + `; $recipes/get_ctm.sh --strode $S --min-lmwt 7 --max-lmwt 7 data/test exp/mono/graph ` + d)
		ctm := readCTM(t, filepath.Join(d, "score_7", "test.ctm"))
		w0, t0 := within, total
		for utt, ref := range refs {
			pairs, correct := alignWords(ctm[utt], ref, refStart[utt])
			for i, j := range pairs {
				if j < 0 || !correct[i] {
					continue
				}
				total++
				if math.Abs(ctm[utt][i].start-refStart[utt][j]) <= 0.01+1e-9 {
					within++
				}
			}
		}
		t.Logf("%s: CTM word starts within one frame of the forced alignment: %d / %d", name, within-w0, total-t0)

		// Confidences from MBR on the word-aligned lattices (the pipeline of
		// Kaldi's get_ctm_conf.sh), in [0, 1].
		run(`gunzip -c ` + d + `/lat.1.gz | $S lattice-align-words-lexicon data/lang/phones/align_lexicon.int exp/mono/final.mdl ark:- ark:- | $S lattice-to-ctm-conf --inv-acoustic-scale=7 ark:- - | $S int2sym --field=5 data/lang/words.txt > $T/conf.ctm`)
		conf := readCTM(t, filepath.Join(dir, "conf.ctm"))
		for utt, ref := range refs {
			_, correct := alignWords(conf[utt], ref, refStart[utt])
			for i, w := range conf[utt] {
				if w.conf < 0 || w.conf > 1 {
					t.Errorf("%s: %s: confidence %v outside [0, 1]", name, utt, w.conf)
				}
				if correct[i] {
					sumC, nC = sumC+w.conf, nC+1
				} else {
					sumE, nE = sumE+w.conf, nE+1
				}
			}
		}

		// Oracle WER against the 1-best WER at every LM weight score.sh tries.
		oracleLog := run(`gunzip -c ` + d + `/lat.1.gz | $S lattice-oracle ark:- ark:$T/text.int ark,t:$T/oracle.tra 2>&1`)
		om := regexp.MustCompile(`Overall %WER ([0-9.]+) \[`).FindStringSubmatch(oracleLog)
		if om == nil {
			t.Fatalf("%s: no Overall %%WER line from lattice-oracle:\n%s", name, oracleLog)
		}
		oracle, _ := strconv.ParseFloat(om[1], 64)
		for lmwt := 7; lmwt <= 17; lmwt++ {
			lw := strconv.Itoa(lmwt)
			wer := run(`gunzip -c ` + d + `/lat.1.gz | $S lattice-best-path --lm-scale=` + lw + ` ark:- ark,t:- 2>/dev/null | $S compute-wer --mode=present ark:$T/text.int ark:- 2>/dev/null`)
			m := werRE.FindStringSubmatch(wer)
			if m == nil {
				t.Fatalf("no %%WER from compute-wer: %s", wer)
			}
			best, _ := strconv.ParseFloat(m[1], 64)
			t.Logf("%s, LM weight %d: oracle %%WER %.2f, 1-best %%WER %.2f", name, lmwt, oracle, best)
			if oracle > best {
				t.Errorf("%s, LM weight %d: oracle %%WER %.2f above the 1-best's %.2f", name, lmwt, oracle, best)
			}
		}
	}
	frac := float64(within) / float64(total)
	t.Logf("CTM word starts within one frame of the forced alignment: %d / %d = %.3f", within, total, frac)
	if total < 200 || frac < 0.95 {
		t.Errorf("only %d of %d words start within one frame of the forced alignment (%.3f < 0.95)", within, total, frac)
	}
	t.Logf("mean confidence: correct words %.4f (%d), errors %.4f (%d)", sumC/float64(nC), nC, sumE/float64(max(nE, 1)), nE)
	if nE == 0 || sumC/float64(nC) <= sumE/float64(nE) {
		t.Errorf("mean confidence of correct words %.4f not above that of errors %.4f (%d errors)", sumC/float64(nC), sumE/float64(max(nE, 1)), nE)
	}
}
