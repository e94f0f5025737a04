package main

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/kaldiio"
)

// gmm-latgen-faster on kaldi-mini's five golden test utterances writes what
// gmm-compute-likes | latgen-faster-mapped writes, byte for byte, and
// Kaldi's 1-best words; undeterminized, then determinized by
// lattice-determinize-pruned, the same lattices again.
func TestGmmLatgenFasterMatchesKaldi(t *testing.T) {
	k := shareddata.Dir(t, "kaldi-mini")
	tmp := t.TempDir()
	p := func(n string) string { return filepath.Join(tmp, n) }
	mdl, graph := filepath.Join(k, "exp/mono/final.mdl"), filepath.Join(k, "exp/mono/graph/HCLG.fst")
	feats := "ark:" + filepath.Join(k, "golden/test5_feats.ark")
	opts := []string{"--max-active=7000", "--beam=13.0", "--lattice-beam=6.0", "--acoustic-scale=0.083333", "--allow-partial=true"}
	runDecoderCmd(t, append(append([]string{"gmm-latgen-faster"}, opts...), mdl, graph, feats, "ark,t:"+p("lat.txt"), "ark,t:"+p("words.txt"))...)
	runDecoderCmd(t, "gmm-compute-likes", mdl, feats, "ark:"+p("loglikes.ark"))
	runDecoderCmd(t, append(append([]string{"latgen-faster-mapped"}, opts...), mdl, graph, "ark:"+p("loglikes.ark"), "ark,t:"+p("mapped.txt"))...)
	got, _ := os.ReadFile(p("lat.txt"))
	want, err := os.ReadFile(p("mapped.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || string(got) != string(want) {
		t.Errorf("gmm-latgen-faster's lattices differ from gmm-compute-likes | latgen-faster-mapped's")
	}
	// The state-level lattices (--determinize-lattice=false) determinized by
	// lattice-determinize-pruned at the lattice beam are the same lattices.
	runDecoderCmd(t, append(append([]string{"gmm-latgen-faster"}, opts...), "--determinize-lattice=false", mdl, graph, feats, "ark:"+p("raw.ark"))...)
	runDecoderCmd(t, "lattice-determinize-pruned", "--acoustic-scale=0.083333", "--beam=6.0", "ark:"+p("raw.ark"), "ark,t:"+p("det.txt"))
	if det, _ := os.ReadFile(p("det.txt")); string(det) != string(got) {
		t.Errorf("gmm-latgen-faster --determinize-lattice=false | lattice-determinize-pruned differs from gmm-latgen-faster")
	}
	words, _ := os.ReadFile(p("words.txt"))
	wantWords, _ := os.ReadFile(filepath.Join(k, "golden/test5_1best.tra"))
	if string(words) != string(wantWords) {
		t.Errorf("words:\n%s\nKaldi's 1-best:\n%s", words, wantWords)
	}
	// A model of another feature dimension is an error naming both.
	_, errs, code := runScoringCmd(t, "", append(append([]string{"gmm-latgen-faster"}, opts...), mdl, graph,
		"ark:"+filepath.Join(k, "golden/test5_mfcc.ark"), "ark:/dev/null")...)
	if code == 0 || !strings.Contains(errs, "dimension 13") || !strings.Contains(errs, "has 39") {
		t.Errorf("13-dim features on a 39-dim model: exit %d\n%s", code, errs)
	}
}

// lattice-to-post on Kaldi's lattices: one posterior list per frame, each
// summing to one; lattice-determinize-pruned keeps the 1-best; rescoring
// with the decoding model on its own features keeps every arc's acoustic
// cost (to float rounding).
func TestSatLatticeToolsOnKaldiLattices(t *testing.T) {
	k := shareddata.Dir(t, "kaldi-mini")
	tmp := t.TempDir()
	p := func(n string) string { return filepath.Join(tmp, n) }
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	lats := "ark:" + filepath.Join(k, "golden/test5_lat_mapped.ark")
	feats := "ark:" + filepath.Join(k, "golden/test5_feats.ark")

	out, errs, code := runScoringCmd(t, "", "lattice-to-post", "--acoustic-scale=0.083333", lats, "ark,t:-", "ark,t:"+p("like.txt"))
	if code != 0 {
		t.Fatalf("lattice-to-post: exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "Done 5 lattices.") || !strings.Contains(errs, "Overall average log-like/frame is") {
		t.Errorf("lattice-to-post's log:\n%s", errs)
	}
	posts := readTextPosts(t, out)
	ali := readTextTable(readDecoderString(t, filepath.Join(k, "golden/test5_1best.ali")))
	if len(posts) != 5 {
		t.Fatalf("%d posteriors, want 5", len(posts))
	}
	for utt, frames := range posts {
		if n := len(strings.Fields(ali[utt])); n != len(frames) {
			t.Errorf("%s: %d frames of posteriors, the 1-best alignment has %d", utt, len(frames), n)
		}
		for f, sum := range frames {
			if math.Abs(sum-1) > 1e-4 {
				t.Errorf("%s frame %d: posteriors sum to %g", utt, f, sum)
			}
		}
	}

	runDecoderCmd(t, "lattice-determinize-pruned", "--acoustic-scale=0.083333", "--beam=4.0", lats, "ark:"+p("det.ark"))
	runDecoderCmd(t, "lattice-determinize-pruned", "--acoustic-scale=0.083333", "--beam=4.0", "--minimize=true", lats, "ark:"+p("min.ark"))
	want := readDecoderString(t, filepath.Join(k, "golden/test5_1best.tra"))
	for _, lat := range []string{p("det.ark"), p("min.ark")} {
		if got := runDecoderCmd(t, "lattice-best-path", "--acoustic-scale=0.083333", "ark:"+lat, "ark,t:-"); got != want {
			t.Errorf("%s 1-best:\n%s\nKaldi's:\n%s", lat, got, want)
		}
	}

	runDecoderCmd(t, "gmm-rescore-lattice", mdl, lats, feats, "ark:"+p("re.ark"))
	// Every path keeps its acoustic cost, so the lattices' total
	// log-likelihoods (lattice-to-post's third output) agree.
	runDecoderCmd(t, "lattice-to-post", lats, "ark:/dev/null", "ark,t:"+p("like0.txt"))
	runDecoderCmd(t, "lattice-to-post", "ark:"+p("re.ark"), "ark:/dev/null", "ark,t:"+p("like1.txt"))
	l0, l1 := readTextTable(readDecoderString(t, p("like0.txt"))), readTextTable(readDecoderString(t, p("like1.txt")))
	if len(l0) != 5 || len(l1) != 5 {
		t.Fatalf("%d and %d log-likelihoods, want 5", len(l0), len(l1))
	}
	for key, v := range l0 {
		a, _ := strconv.ParseFloat(v, 64)
		b, err := strconv.ParseFloat(l1[key], 64)
		if err != nil || math.Abs(a-b) > 1e-5*math.Abs(a) {
			t.Errorf("%s: lattice log-likelihood %g, after rescoring %s", key, a, l1[key])
		}
	}
	// Features of another length: the utterance is skipped with Kaldi's warning.
	_, errs, code = runScoringCmd(t, "", "gmm-rescore-lattice", mdl, lats, "ark:"+filepath.Join(k, "golden/test5_loglikes.ark"), "ark:/dev/null")
	if code == 0 {
		t.Errorf("62-dim features on a 39-dim model: exit 0\n%s", errs)
	}
}

// gmm-acc-stats-twofeats with the same features twice writes what
// gmm-acc-stats-ali writes from the alignment; with the second features the
// first 13 dimensions of the first, the first 13 columns of the statistics.
func TestGmmAccStatsTwofeats(t *testing.T) {
	k := shareddata.Dir(t, "kaldi-mini")
	tmp := t.TempDir()
	p := func(n string) string { return filepath.Join(tmp, n) }
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	feats := "ark:" + filepath.Join(k, "golden/test5_feats.ark")
	ali := "ark:" + filepath.Join(k, "golden/test5_gmm_align.ali")
	runDecoderCmd(t, "ali-to-post", ali, "ark:"+p("post.ark"))
	runDecoderCmd(t, "gmm-acc-stats-ali", "--binary=false", mdl, feats, ali, p("ali.acc"))
	_, errs, code := runScoringCmd(t, "", "gmm-acc-stats-twofeats", mdl, feats, feats, "ark:"+p("post.ark"), p("two.acc"))
	if code != 0 {
		t.Fatalf("gmm-acc-stats-twofeats: exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "Done 5 files, 0 with no posteriors, 0 with no second features, 0 with other errors.") {
		t.Errorf("log:\n%s", errs)
	}
	a, b := readDecoderString(t, p("ali.acc")), readDecoderString(t, p("two.acc"))
	if a != b {
		t.Errorf("gmm-acc-stats-twofeats with one feature set twice differs from gmm-acc-stats-ali")
	}
	// The first 13 dimensions as the second features.
	sel := "[\n"
	for r := 0; r < 13; r++ {
		for c := 0; c < 39; c++ {
			if c == r {
				sel += " 1"
			} else {
				sel += " 0"
			}
		}
		sel += "\n"
	}
	if err := os.WriteFile(p("sel.mat"), []byte(sel+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runDecoderCmd(t, "transform-feats", p("sel.mat"), feats, "ark:"+p("f13.ark"))
	runDecoderCmd(t, "gmm-acc-stats-twofeats", "--binary=true", mdl, feats, "ark:"+p("f13.ark"), "ark:"+p("post.ark"), p("13.acc"))
	runDecoderCmd(t, "gmm-acc-stats-ali", mdl, feats, ali, p("ali.bin.acc"))
	var full, part gmm.Accs
	if err := kaldiio.ReadObject(p("ali.bin.acc"), gmm.AccsCodec, &full); err != nil {
		t.Fatal(err)
	}
	if err := kaldiio.ReadObject(p("13.acc"), gmm.AccsCodec, &part); err != nil {
		t.Fatal(err)
	}
	for j := range full.GMM.Accs {
		f, q := &full.GMM.Accs[j], &part.GMM.Accs[j]
		if q.Dim != 13 || q.NumGauss != f.NumGauss {
			t.Fatalf("pdf %d: %d Gaussians of dimension %d", j, q.NumGauss, q.Dim)
		}
		for g := 0; g < f.NumGauss; g++ {
			if q.Occupancy[g] != f.Occupancy[g] {
				t.Errorf("pdf %d gauss %d: occupancy %g vs %g", j, g, q.Occupancy[g], f.Occupancy[g])
			}
			for d := 0; d < 13; d++ {
				if q.MeanAcc[g*13+d] != f.MeanAcc[g*39+d] || q.VarAcc[g*13+d] != f.VarAcc[g*39+d] {
					t.Errorf("pdf %d gauss %d dim %d: statistics differ", j, g, d)
				}
			}
		}
	}
}

// readTextPosts reads a text posterior archive: per utterance, each
// frame's sum of posteriors.
func readTextPosts(t *testing.T, s string) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		var frames []float64
		for i := 1; i < len(f); i++ {
			if f[i] == "[" {
				sum := 0.0
				for i++; f[i] != "]"; i += 2 {
					v, err := strconv.ParseFloat(f[i+1], 64)
					if err != nil {
						t.Fatal(err)
					}
					sum += v
				}
				frames = append(frames, sum)
			}
		}
		out[f[0]] = frames
	}
	return out
}
