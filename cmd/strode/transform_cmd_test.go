package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/kaldiio"
)

// transformMini writes, in a temporary directory, kaldi-mini's five golden
// test utterances' features and posteriors (from Kaldi's own alignment),
// and returns the directory and a path maker for the files of a test.
func transformMini(t *testing.T) (k, tmp string, p func(string) string) {
	t.Helper()
	k = decoderKaldiMini(t)
	tmp = t.TempDir()
	p = func(name string) string { return filepath.Join(tmp, name) }
	return k, tmp, p
}

func readMat(t *testing.T, rx string) kaldiio.Matrix {
	t.Helper()
	var m kaldiio.Matrix
	if err := kaldiio.ReadObject(rx, kaldiio.MatrixCodec, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func readMatTable(t *testing.T, rspec string) map[string]kaldiio.Matrix {
	t.Helper()
	sr, err := kaldiio.OpenSequentialReader(rspec, kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	out := map[string]kaldiio.Matrix{}
	for sr.Next() {
		out[sr.Key()] = sr.Value()
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func maxAbsDiff(t *testing.T, what string, a, b kaldiio.Matrix) float64 {
	t.Helper()
	if a.Rows != b.Rows || a.Cols != b.Cols {
		t.Fatalf("%s: %dx%d vs %dx%d", what, a.Rows, a.Cols, b.Rows, b.Cols)
	}
	d := 0.0
	for i := range a.Data {
		d = math.Max(d, math.Abs(float64(a.Data[i]-b.Data[i])))
	}
	return d
}

// logNumber is the number after prefix in a log.
func logNumber(t *testing.T, stderr, prefix string) float64 {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(prefix) + `(-?[0-9.e+-]+|-?inf|nan)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no %q in\n%s", prefix, stderr)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, out, errs := runStrode(t, "", args...)
	if code != 0 {
		t.Fatalf("strode %s: exit %d\n%s", strings.Join(args, " "), code, errs)
	}
	return out, errs
}

// The tools of train_lda_mllt.sh and train_sat.sh on kaldi-mini's five
// golden test utterances with Kaldi's mono model and alignment:
// ali-to-post equals Kaldi's output byte for byte; LDA, MLLT and fMLLR run
// through their commands and their outputs are checked against the plain
// matrix products they stand for.
func TestTransformLadderOnKaldiMini(t *testing.T) {
	k, _, p := transformMini(t)
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	feats := "ark:" + filepath.Join(k, "golden/test5_feats.ark")
	ali := "ark:" + filepath.Join(k, "golden/test5_align_compiled_mapped.ali")

	mustRun(t, "ali-to-post", ali, "ark,t:"+p("post.txt"))
	got, _ := os.ReadFile(p("post.txt"))
	want, _ := os.ReadFile(filepath.Join(k, "golden/test5_ali_post.txt.ark"))
	if string(got) != string(want) {
		t.Errorf("ali-to-post differs from Kaldi's golden/test5_ali_post.txt.ark")
	}
	post := "ark:" + p("post.txt")
	silence := strings.TrimSpace(readFileString(t, filepath.Join(k, "data/lang/phones/silence.csl")))
	_, errs := mustRun(t, "weight-silence-post", "0.0", silence, mdl, post, "ark:"+p("nosil.post"))
	if !strings.Contains(errs, "Done 5 posteriors.") {
		t.Errorf("weight-silence-post log:\n%s", errs)
	}
	mustRun(t, "weight-silence-post", "--distribute=true", "0.5", silence, mdl, post, "ark:"+p("half.post"))

	// LDA on ±1 spliced features (117 dims) to 39, so that the MLLT
	// estimated below in the mono model's 39 dimensions composes with it.
	mustRun(t, "splice-feats", "--left-context=1", "--right-context=1", feats, "ark:"+p("spliced.ark"))
	spliced := "ark:" + p("spliced.ark")
	_, errs = mustRun(t, "acc-lda", "--rand-prune=4.0", mdl, spliced, "ark:"+p("nosil.post"), p("lda.acc"))
	if !strings.Contains(errs, "Done 5 files, failed for 0") {
		t.Errorf("acc-lda log:\n%s", errs)
	}
	_, errs = mustRun(t, "est-lda", "--dim=39", "--write-full-matrix="+p("full.mat"), p("0.mat"), p("lda.acc"))
	t.Logf("est-lda: data count %g, sum of selected singular values %g of %g", logNumber(t, errs, "Data count is "),
		logNumber(t, errs, "Sum of selected singular values is "), logNumber(t, errs, "Sum of all singular values is "))
	lda := readMat(t, p("0.mat"))
	if lda.Rows != 39 || lda.Cols != 117 {
		t.Fatalf("LDA matrix %dx%d, want 39x117", lda.Rows, lda.Cols)
	}
	mustRun(t, "est-lda", "--dim=39", "--binary=false", p("0.txt.mat"), p("lda.acc"))

	_, errs = mustRun(t, "transform-feats", p("0.mat"), spliced, "ark:"+p("lda.ark"))
	if !strings.Contains(errs, "Overall average [pseudo-]logdet is ") || !strings.Contains(errs, "Applied transform to 5 utterances; 0 had errors.") {
		t.Errorf("transform-feats log:\n%s", errs)
	}
	in, out := readMatTable(t, spliced), readMatTable(t, "ark:"+p("lda.ark"))
	for utt, x := range in {
		y, err := transform.Apply(&lda, &x)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(t, utt, y, out[utt]); d != 0 {
			t.Errorf("%s: transform-feats differs from T·x by %g", utt, d)
		}
	}

	// MLLT in the mono model's space, applied to its means, composed.
	_, errs = mustRun(t, "gmm-acc-mllt", "--rand-prune=0", mdl, feats, post, p("1.macc"))
	if !strings.Contains(errs, "Done 5 files, 0 with no posteriors, 0 with other errors.") {
		t.Errorf("gmm-acc-mllt log:\n%s", errs)
	}
	_, errs = mustRun(t, "est-mllt", p("mllt.mat"), p("1.macc"))
	impr := logNumber(t, errs, "Overall objective function improvement for MLLT is ")
	t.Logf("est-mllt: improvement %g per frame over %g frames, logdet %g", impr,
		logNumber(t, errs, "MLLT is "+strconv.FormatFloat(impr, 'g', 6, 64)+" over "), logNumber(t, errs, "logdet is "))
	if impr < 0 {
		t.Errorf("MLLT improvement %g < 0", impr)
	}
	mustRun(t, "est-mllt", "--binary=true", p("mllt.bin.mat"), p("1.macc"))
	mustRun(t, "gmm-transform-means", p("mllt.mat"), mdl, p("mllt.mdl"))
	mustRun(t, "compose-transforms", p("mllt.mat"), p("0.mat"), p("composed.mat"))
	mustRun(t, "compose-transforms", "--binary=false", p("mllt.mat"), p("0.mat"), p("composed.txt.mat"))
	if d := maxAbsDiff(t, "composed", readMat(t, p("composed.mat")), transformCompose(t, readMat(t, p("mllt.mat")), lda)); d != 0 {
		t.Errorf("compose-transforms differs from Compose by %g", d)
	}
	mllt := readMat(t, p("mllt.mat"))
	if mllt.Rows != 39 || mllt.Cols != 39 {
		t.Fatalf("MLLT matrix %dx%d", mllt.Rows, mllt.Cols)
	}

	// fMLLR per speaker: spk00 has 4 utterances, spk01 one, under 500
	// frames, so it keeps the identity with a warning.
	spk2utt := "ark:" + filepath.Join(k, "golden/test5.spk2utt")
	utt2spk := "ark:" + filepath.Join(k, "golden/test5.utt2spk")
	_, errs = mustRun(t, "gmm-est-fmllr", "--spk2utt="+spk2utt, mdl, feats, post, "ark:"+p("trans.ark"))
	t.Logf("gmm-est-fmllr: spk00 %g per frame over %g frames; overall %g", logNumber(t, errs, "For speaker spk00, auxf-impr from fMLLR is "),
		logNumber(t, errs, "fMLLR objf improvement is "+strconv.FormatFloat(logNumber(t, errs, "For speaker spk00, auxf-impr from fMLLR is "), 'g', 6, 64)+" per frame over "),
		logNumber(t, errs, "Overall fMLLR auxf impr per frame is "))
	if !strings.Contains(errs, "WARNING") || !strings.Contains(errs, "Not updating fMLLR since below min-count") {
		t.Errorf("gmm-est-fmllr: no min-count warning for spk01:\n%s", errs)
	}
	trans := readMatTable(t, "ark:"+p("trans.ark"))
	id := transform.FmllrMatrix(39, transform.Identity(39))
	if d := maxAbsDiff(t, "spk01", trans["spk01"], id); d != 0 {
		t.Errorf("spk01 (under --fmllr-min-count) is not [I|0]")
	}
	if d := maxAbsDiff(t, "spk00", trans["spk00"], id); d == 0 {
		t.Errorf("spk00's transform is the identity")
	}
	mustRun(t, "gmm-est-fmllr", "--spk2utt="+spk2utt, mdl, feats, post, "ark,t:"+p("trans.txt"))
	mustRun(t, "transform-feats", "--utt2spk="+utt2spk, "ark:"+p("trans.ark"), feats, "ark:"+p("fmllr.ark"))
	spk := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(readFileString(t, filepath.Join(k, "golden/test5.utt2spk"))), "\n") {
		f := strings.Fields(line)
		spk[f[0]] = f[1]
	}
	x0, y0 := readMatTable(t, feats), readMatTable(t, "ark:"+p("fmllr.ark"))
	for utt, x := range x0 {
		w := trans[spk[utt]]
		y, _ := transform.Apply(&w, &x)
		if d := maxAbsDiff(t, utt, y, y0[utt]); d != 0 {
			t.Errorf("%s: transform-feats --utt2spk differs from W·[x;1] by %g", utt, d)
		}
	}
	// Gaussian-level posteriors from the same model give the same
	// statistics, so the same transforms.
	mustRun(t, "gmm-post-to-gpost", mdl, feats, post, "ark:"+p("gpost.ark"))
	mustRun(t, "gmm-post-to-gpost", mdl, feats, post, "ark,t:"+p("gpost.txt"))
	mustRun(t, "gmm-est-fmllr-gpost", "--spk2utt="+spk2utt, mdl, feats, "ark:"+p("gpost.txt"), "ark:"+p("trans_g.ark"))
	transG := readMatTable(t, "ark:"+p("trans_g.ark"))
	if d := maxAbsDiff(t, "spk00", transG["spk00"], trans["spk00"]); d > 1e-3 {
		t.Errorf("gmm-est-fmllr-gpost differs from gmm-est-fmllr by %g", d)
	} else {
		t.Logf("gmm-est-fmllr-gpost vs gmm-est-fmllr: max difference %g", d)
	}

	// Every matrix written, binary and text, is read back by copy-matrix:
	// the text of the binary and of the text file are the same.
	for _, pair := range [][2]string{
		{p("0.mat"), p("0.txt.mat")},
		{p("mllt.bin.mat"), p("mllt.mat")},
		{p("composed.mat"), p("composed.txt.mat")},
		{"ark:" + p("trans.ark"), "ark:" + p("trans.txt")},
	} {
		text := func(in string) string {
			if strings.HasPrefix(in, "ark:") {
				out, _ := mustRun(t, "copy-matrix", in, "ark,t:-")
				return out
			}
			out, _ := mustRun(t, "copy-matrix", "--binary=false", in, "-")
			return out
		}
		a, b := text(pair[0]), text(pair[1])
		if a == "" || a != b {
			t.Errorf("copy-matrix of %s and of %s differ", pair[0], pair[1])
		}
	}
	for _, f := range []string{p("full.mat"), p("composed.mat")} {
		mustRun(t, "copy-matrix", f, p("copy.mat"))
		if d := maxAbsDiff(t, f, readMat(t, f), readMat(t, p("copy.mat"))); d != 0 {
			t.Errorf("copy-matrix changed %s", f)
		}
	}
}

func transformCompose(t *testing.T, a, b kaldiio.Matrix) kaldiio.Matrix {
	t.Helper()
	c, err := transform.Compose(&a, &b, false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compose-transforms and transform-feats against plain matrix products:
// linear∘linear, linear∘affine, affine∘linear and affine∘affine with
// --b-is-affine, as single files and as tables.
func TestComposeAndTransformFeatsAreMatrixProducts(t *testing.T) {
	tmp := t.TempDir()
	p := func(name string) string { return filepath.Join(tmp, name) }
	mk := func(rows, cols int, seed float32) kaldiio.Matrix {
		m := kaldiio.NewMatrix(rows, cols)
		for i := range m.Data {
			m.Data[i] = float32(math.Sin(float64(seed) + float64(i)*0.7))
			if i%(cols+1) == 0 {
				m.Data[i] += 2
			}
		}
		return m
	}
	write := func(name string, m kaldiio.Matrix, binary bool) string {
		if err := kaldiio.WriteObject(p(name), kaldiio.MatrixCodec, binary, &m); err != nil {
			t.Fatal(err)
		}
		return p(name)
	}
	x := mk(7, 3, 0.3)
	feats := kaldiio.NewMatrix(0, 0)
	_ = feats
	tw, _ := kaldiio.OpenTableWriter("ark:"+p("x.ark"), kaldiio.MatrixCodec)
	tw.Write("u1", x)
	tw.Close()
	// y = A·(B·x) or with offsets, by hand in double.
	apply := func(m kaldiio.Matrix, in [][]float64) [][]float64 {
		var out [][]float64
		for _, v := range in {
			y := make([]float64, m.Rows)
			for i := 0; i < m.Rows; i++ {
				for j := range v {
					y[i] += float64(m.At(i, j)) * v[j]
				}
				if m.Cols == len(v)+1 {
					y[i] += float64(m.At(i, len(v)))
				}
			}
			out = append(out, y)
		}
		return out
	}
	var rows [][]float64
	for i := 0; i < x.Rows; i++ {
		var r []float64
		for _, v := range x.Row(i) {
			r = append(r, float64(v))
		}
		rows = append(rows, r)
	}
	cases := []struct {
		name   string
		a, b   kaldiio.Matrix
		affine bool
	}{
		{"linear∘linear", mk(2, 3, 1), mk(3, 3, 2), false},
		{"linear∘affine", mk(2, 3, 3), mk(3, 4, 4), false},
		{"affine∘linear", mk(2, 4, 5), mk(3, 3, 6), false},
		{"affine∘affine --b-is-affine", mk(3, 4, 7), mk(3, 4, 8), true},
	}
	for i, c := range cases {
		a := write("a"+strconv.Itoa(i), c.a, i%2 == 0)
		b := write("b"+strconv.Itoa(i), c.b, i%2 == 1)
		args := []string{"compose-transforms", "--b-is-affine=" + strconv.FormatBool(c.affine), a, b, p("c")}
		mustRun(t, args...)
		mustRun(t, "transform-feats", p("c"), "ark:"+p("x.ark"), "ark:"+p("y.ark"))
		got := readMatTable(t, "ark:"+p("y.ark"))["u1"]
		want := apply(c.a, apply(c.b, rows))
		maxd := 0.0
		for n := range want {
			for j, v := range want[n] {
				maxd = math.Max(maxd, math.Abs(v-float64(got.At(n, j))))
			}
		}
		t.Logf("%s: transform-feats(compose-transforms(A, B)) vs A·(B·x): max difference %.3g", c.name, maxd)
		if maxd > 1e-5 {
			t.Errorf("%s: differs by %g", c.name, maxd)
		}
		// The same through tables.
		tw, _ := kaldiio.OpenTableWriter("ark:"+p("b.ark"), kaldiio.MatrixCodec)
		tw.Write("u1", c.b)
		tw.Close()
		mustRun(t, "compose-transforms", "--b-is-affine="+strconv.FormatBool(c.affine), a, "ark:"+p("b.ark"), "ark:"+p("c.ark"))
		// The files were written in text or binary, the table in binary:
		// to float text precision.
		if d := maxAbsDiff(t, c.name, readMatTable(t, "ark:"+p("c.ark"))["u1"], readMat(t, p("c"))); d > 1e-5 {
			t.Errorf("%s: the table composition differs by %g", c.name, d)
		}
	}
	// Two affine transforms without --b-is-affine: warned, and the result
	// does not fit the features (transform-feats says why).
	a, b := write("aa", mk(3, 4, 9), true), write("bb", mk(3, 4, 10), true)
	_, errs := mustRun(t, "compose-transforms", a, b, p("bad.mat"))
	if !strings.Contains(errs, "you omitted the --b-is-affine option") {
		t.Errorf("no --b-is-affine warning:\n%s", errs)
	}
	code, _, errs := runStrode(t, "", "transform-feats", p("bad.mat"), "ark:"+p("x.ark"), "ark:"+p("y.ark"))
	if code == 0 || !strings.Contains(errs, "--b-is-affine") {
		t.Errorf("transform-feats with a 3x5 matrix on 3-dim features: exit %d\n%s", code, errs)
	}
}

// A global transform whose dimension is not the features' is an error that
// names the file, the utterance and both dimensions; so is every other bad
// input, never a panic.
func TestTransformBadInputNamesFileAndKey(t *testing.T) {
	k, _, p := transformMini(t)
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	feats := "ark:" + filepath.Join(k, "golden/test5_feats.ark")
	m := kaldiio.NewMatrix(40, 118)
	if err := kaldiio.WriteObject(p("final.mat"), kaldiio.MatrixCodec, true, &m); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runStrode(t, "", "transform-feats", p("final.mat"), feats, "ark:"+p("out.ark"))
	t.Logf("transform-feats with a 40x118 final.mat on 39-dim features: exit %d: %s", code, strings.TrimSpace(errs))
	if code == 0 || !strings.Contains(errs, p("final.mat")) || !strings.Contains(errs, "spk00-test012") || !strings.Contains(errs, "dimension 39") {
		t.Errorf("want an error naming %s, the utterance and the dimensions:\n%s", p("final.mat"), errs)
	}

	// Kaldi's posteriors of the first utterance with one transition-id
	// the model does not have.
	first := strings.SplitN(readFileString(t, filepath.Join(k, "golden/test5_ali_post.txt.ark")), "\n", 2)[0]
	os.WriteFile(p("bad.post"), []byte(strings.Replace(first, "[ 80 1 ]", "[ 99999 1 ]", 1)+"\n"), 0o644)
	os.WriteFile(p("bad.acc"), []byte("<LDAACCS> <VECSIZE> 3 <NUMCLASSES> 2 <ZERO_ACCS> [ 1 2 ]\n<FIRST_ACCS> [ 1 2 ]\n"), 0o644)
	os.WriteFile(p("short.macc"), []byte("<MlltAccs>\n10 3 <G>\n[\n1\n2 3\n"), 0o644)
	os.WriteFile(p("a.mat"), []byte("[ 1 2\n 3 4 ]\n"), 0o644)
	os.WriteFile(p("b.mat"), []byte("[ 1 2 3\n 4 5 6\n 7 8 9 ]\n"), 0o644)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"weight-silence-post", "0.0", "1", mdl, "ark:" + p("bad.post"), "ark:" + p("o.post")}, []string{"spk00-test012", p("bad.post"), "99999"}},
		{[]string{"weight-silence-post", "zero", "1", mdl, "ark:" + p("bad.post"), "ark:" + p("o.post")}, []string{"silence-weight"}},
		{[]string{"weight-silence-post", "0", "1:x", mdl, "ark:" + p("bad.post"), "ark:" + p("o.post")}, []string{"silence-phones"}},
		{[]string{"gmm-acc-mllt", mdl, feats, "ark:" + p("bad.post"), p("o.macc")}, []string{"spk00-test012", p("bad.post"), "99999"}},
		{[]string{"gmm-est-fmllr", mdl, feats, "ark:" + p("bad.post"), "ark:" + p("o.trans")}, []string{"spk00-test012", p("bad.post")}},
		{[]string{"gmm-post-to-gpost", mdl, feats, "ark:" + p("bad.post"), "ark:" + p("o.gpost")}, []string{"spk00-test012", p("bad.post")}},
		{[]string{"acc-lda", mdl, feats, "ark:" + p("bad.post"), p("o.acc")}, []string{"spk00-test012", p("bad.post")}},
		{[]string{"est-lda", p("o.mat"), p("bad.acc")}, []string{p("bad.acc")}},
		{[]string{"est-mllt", p("o.mat"), p("short.macc")}, []string{p("short.macc")}},
		{[]string{"compose-transforms", p("a.mat"), p("b.mat"), p("c.mat")}, []string{p("a.mat"), p("b.mat"), "2 columns and b has 3 rows"}},
		{[]string{"gmm-transform-means", p("a.mat"), mdl, p("o.mdl")}, []string{p("a.mat"), "2 rows but model has dimension 39"}},
		{[]string{"gmm-est-fmllr", "--fmllr-update-type=bogus", mdl, feats, "ark:" + p("bad.post"), "ark:" + p("o.trans")}, []string{"bogus"}},
		{[]string{"transform-feats", p("missing.mat"), feats, "ark:" + p("o.ark")}, []string{p("missing.mat")}},
	} {
		code, _, errs := runStrode(t, "", c.args...)
		if code == 0 {
			t.Errorf("%s: exit 0", strings.Join(c.args, " "))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: error does not name %q:\n%s", c.args[0], w, errs)
			}
		}
	}
}
