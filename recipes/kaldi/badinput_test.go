package kaldi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput runs stage 1 (the layout check) on damaged copies of
// kaldi-mini: each must stop with a message naming the file and the stage.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, dir string) []string // returns extra recipe options
		want   []string
	}{
		{"no alignments", func(t *testing.T, dir string) []string {
			must(t, os.Remove(filepath.Join(dir, "exp/mono/ali.1.gz")))
			return nil
		}, []string{"exp/mono/ali.*.gz (stage 3"}},
		{"no graph", func(t *testing.T, dir string) []string {
			must(t, os.Remove(filepath.Join(dir, "exp/mono/graph/HCLG.fst")))
			return nil
		}, []string{"exp/mono/graph/HCLG.fst (stage 6: decoding graph)"}},
		{"no test set", func(t *testing.T, dir string) []string {
			return []string{"--test", "data/eval"}
		}, []string{"data/eval/wav.scp (stage 2", "data/eval/text (stage 7"}},
		{"alignment model is not the graph's", func(t *testing.T, dir string) []string {
			// Another monophone system: the digits lexicon with its own phones.
			other := filepath.Join(dir, "other")
			out, err := exec.Command(strodeBin(t), "prepare-lang", "--mono-dir="+other, "builtin:digits-no-oh", "<SIL>",
				filepath.Join(dir, "other_local"), filepath.Join(dir, "other_lang")).CombinedOutput()
			if err != nil {
				t.Fatalf("prepare-lang: %v\n%s", err, out)
			}
			return []string{"--decode-mdl", "other/final.mdl"}
		}, []string{"exp/mono/final.mdl and the graph's other/final.mdl have different transition models"}},
		{"unsorted utt2spk", func(t *testing.T, dir string) []string {
			swapFirstLines(t, filepath.Join(dir, "data/test/utt2spk"))
			return nil
		}, []string{"data/test/utt2spk", "stage 1: data/test is not a valid data dir"}},
		{"utterance missing from utt2spk", func(t *testing.T, dir string) []string {
			dropLine(t, filepath.Join(dir, "data/train/utt2spk"), 3)
			return nil
		}, []string{"data/train", "stage 1: data/train is not a valid data dir"}},
		{"bad --nj", func(t *testing.T, dir string) []string { return []string{"--nj", "two"} },
			[]string{"--nj must be a positive whole number"}},
		{"unknown option", func(t *testing.T, dir string) []string { return []string{"--num-jobs", "2"} },
			[]string{"unknown option --num-jobs"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyExperiment(t)
			extra := c.damage(t, dir)
			args := append(append([]string{"--stop-stage", "1"}, kaldiMiniArgs...), extra...)
			out, err := recipe(t, dir, args...).CombinedOutput()
			checkFailure(t, out, err, c.want)
		})
	}
}

// checkFailure: the recipe failed (err), saying every one of want, without
// a panic.
func checkFailure(t *testing.T, out []byte, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("run.sh succeeded on bad input:\n%s", out)
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(string(out), "panic") {
		t.Errorf("a panic:\n%s", out)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return strings.SplitAfter(strings.TrimSuffix(string(b), "\n")+"\n", "\n")
}

func swapFirstLines(t *testing.T, path string) {
	l := lines(t, path)
	l[0], l[1] = l[1], l[0]
	must(t, os.WriteFile(path, []byte(strings.Join(l, "")), 0o644))
}

func dropLine(t *testing.T, path string, i int) {
	l := lines(t, path)
	must(t, os.WriteFile(path, []byte(strings.Join(append(l[:i:i], l[i+1:]...), "")), 0o644))
}

// TestBadDictInput: from scratch (--dict), bad input stops stage 0 with a
// message naming the file (and the line, for the lexicon).
func TestBadDictInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   []string
	}{
		{"lexicon phone in no phone list", func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, "data/local/dict/lexicon.txt"), os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			_, err = f.WriteString("nine N AY N ZZ\n")
			must(t, err)
			must(t, f.Close())
			must(t, os.Remove(filepath.Join(dir, "data/local/dict/lexiconp.txt")))
		}, []string{`data/local/dict/lexicon.txt:13: phone "ZZ" (word nine) is in neither silence_phones.txt nor nonsilence_phones.txt`,
			"data/local/dict is not a valid dict dir"}},
		{"training data dir without text", func(t *testing.T, dir string) {
			must(t, os.Remove(filepath.Join(dir, "data/train/text")))
		}, []string{"data/train/text (stage 0: the training transcripts"}},
		{"test data dir without text", func(t *testing.T, dir string) {
			must(t, os.Remove(filepath.Join(dir, "data/test/text")))
		}, []string{"data/test/text (stage 0: the transcripts of data/test"}},
		{"no dict dir", func(t *testing.T, dir string) {
			must(t, os.RemoveAll(filepath.Join(dir, "data/local/dict")))
		}, []string{"data/local/dict (stage 0: the dict dir (--dict))"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyExperiment(t)
			for _, d := range []string{"exp", "data/lang", "data/lang_test"} {
				must(t, os.RemoveAll(filepath.Join(dir, d)))
			}
			c.damage(t, dir)
			out, err := recipe(t, dir, "--dict", "data/local/dict", "--train", "data/train", "--dev", "",
				"--test", "data/test", "--oov", "<SIL>", "--stop-stage", "0").CombinedOutput()
			checkFailure(t, out, err, c.want)
		})
	}
}

// TestDictOOVsCounted: transcript words the lexicon lacks are counted per
// set and become the OOV word, as Kaldi's sym2int.pl --map-oov makes them.
func TestDictOOVsCounted(t *testing.T) {
	dir := copyExperiment(t)
	for _, d := range []string{"exp", "data/lang", "data/lang_test"} {
		must(t, os.RemoveAll(filepath.Join(dir, d)))
	}
	text := filepath.Join(dir, "data/train/text")
	ls := lines(t, text) // each with its newline
	ls[0] = strings.TrimSuffix(ls[0], "\n") + " zork\n"
	must(t, os.WriteFile(text, []byte(strings.Join(ls, "")), 0o644))
	out, err := recipe(t, dir, "--dict", "data/local/dict", "--train", "data/train", "--dev", "",
		"--test", "data/test", "--oov", "<SIL>", "--stop-stage", "0").CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --stop-stage 0: %v\n%s", err, out)
	}
	for _, w := range []string{"data/train/text: 1 of 607 words not in the lexicon (mapped to <SIL>)",
		"data/test/text: 0 of 110 words not in the lexicon"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestFmllrFeatsFinalMatDimension: --nnet-feats fmllr with a tri3 final.mat
// of other features (40 x 118 where the MFCC spliced +-3 have 91
// dimensions) stops before the jobs with transform-feats' error: the file
// and both dimensions. Stage 4 alone on a made-up finished run: kaldi-mini's
// MFCC as the recipe's MFCC and fbank data dirs, a tri3 dir with only what
// make_fmllr_feats reads.
func TestFmllrFeatsFinalMatDimension(t *testing.T) {
	dir := copyExperiment(t)
	c := exec.Command("bash", "-c", `set -euo pipefail
S=$0
mkdir -p data-mfcc/train data-fbank exp/strode_mono exp/strode_tri3 exp/strode_tri3_ali mfcc
d=data-mfcc/train; cp data/train/text data/train/utt2spk data/train/spk2utt data/train/wav.scp $d/
$S compute-mfcc-feats --config=conf/mfcc.conf scp:$d/wav.scp ark,scp:$PWD/mfcc/raw_train.ark,$d/feats.scp 2>/dev/null
$S compute-cmvn-stats --spk2utt=ark:$d/spk2utt scp:$d/feats.scp ark,scp:$PWD/mfcc/cmvn_train.ark,$d/cmvn.scp 2>/dev/null
touch $d/.done; cp -r $d data-fbank/train
cp exp/mono/final.mdl exp/strode_mono/
echo "--left-context=3 --right-context=3" > exp/strode_tri3/splice_opts; touch exp/strode_tri3/cmvn_opts
awk 'BEGIN { print "["; for (i = 0; i < 40; i++) { for (j = 0; j < 118; j++) printf " 0"; print (i == 39 ? " ]" : "") } }' > exp/strode_tri3/final.mat
touch exp/strode_tri3_ali/trans.1`, strodeBin(t))
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("making the run: %v\n%s", err, out)
	}
	args := append(append([]string{}, fromScratchArgs...), "--lang", "data/lang", "--gmm-ladder", "tri3", "--nnet-feats", "fmllr",
		"--stage", "4", "--stop-stage", "4")
	out, err := recipe(t, dir, args...).CombinedOutput()
	checkFailure(t, out, err, []string{"the fMLLR features of train: transform exp/strode_tri3/final.mat does not fit",
		"transform is 40x118, features have dimension 91"})
	if strings.Contains(string(out), "make_fmllr_feats.1.log") {
		t.Errorf("the jobs ran:\n%s", out)
	}
}
