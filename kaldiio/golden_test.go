package kaldiio

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// golden returns the path of a Kaldi golden file of kaldi-golden: the copy
// in this package's testdata if there is one, else the repository's
// testdata/kaldi-golden, else ../shared's (skipping the test when absent).
func golden(t testing.TB, name string) string {
	t.Helper()
	if p := filepath.Join("testdata", name); fileExists(p) {
		return p
	}
	return shareddata.File(t, "kaldi-golden", name)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyTable copies a table like copy-feats/copy-matrix and returns what was
// written to standard output.
func copyTable[T any](t testing.TB, c Codec[T], rspec, wspec string) []byte {
	t.Helper()
	var out bytes.Buffer
	r, err := OpenSequentialReader(rspec, c)
	if err != nil {
		t.Fatal(err)
	}
	w, err := OpenTableWriter(wspec, c, WithStdout(&out))
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		if err := w.Write(r.Key(), r.Value()); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// firstDiff describes where two byte slices first differ.
func firstDiff(got, want []byte) string {
	n := min(len(got), len(want))
	for i := 0; i < n; i++ {
		if got[i] != want[i] {
			lo, hi := max(0, i-40), min(n, i+40)
			return "at byte " + itoa(i) + ":\n got: " + string(got[lo:min(len(got), hi)]) + "\nwant: " + string(want[lo:min(len(want), hi)])
		}
	}
	return "lengths " + itoa(len(got)) + " vs " + itoa(len(want))
}

// Text output equals Kaldi's `copy-feats ark:X ark,t:-` byte for byte.
func TestGoldenTextMatrices(t *testing.T) {
	cases := []struct{ ark, txt string }{
		{"fbank23.ark", "fbank23.txt.ark"},
		{"fbank40.ark", "fbank40.txt.ark"},
		{"fbank40e.ark", "fbank40e.txt.ark"},
		{"fbank23_8k.ark", "fbank23_8k.txt.ark"},
		{"fbank23_cm.ark", "fbank23_cm_decoded.txt.ark"},
		{"fbank40_cm.ark", "fbank40_cm_decoded.txt.ark"},
		{"fbank40e_cm.ark", "fbank40e_cm_decoded.txt.ark"},
		{"fbank23_8k_cm.ark", "fbank23_8k_cm_decoded.txt.ark"},
		{"mat.ark", "mat_roundtrip.txt.ark"},
		{"mat_cm.ark", "mat_cm_decoded.txt.ark"},
		{"cmvn23.ark", "cmvn23.txt.ark"},
	}
	for m := 1; m <= 7; m++ {
		cases = append(cases, struct{ ark, txt string }{"fbank23_cm" + itoa(m) + ".ark", "fbank23_cm" + itoa(m) + "_decoded.txt.ark"})
	}
	for _, tc := range cases {
		t.Run(tc.ark, func(t *testing.T) {
			ark, txt := golden(t, tc.ark), golden(t, tc.txt)
			var got []byte
			if tc.ark == "cmvn23.ark" {
				got = copyTable(t, DoubleMatrixCodec, "ark:"+ark, "ark,t:-")
			} else {
				got = copyTable(t, MatrixCodec, "ark:"+ark, "ark,t:-")
			}
			if want := readFile(t, txt); !bytes.Equal(got, want) {
				t.Errorf("text differs from Kaldi's %s %s", tc.txt, firstDiff(got, want))
			}
		})
	}
}

// Binary copies are byte-identical; double-to-float conversion matches
// Kaldi's copy-matrix.
func TestGoldenBinaryRoundTrip(t *testing.T) {
	cases := []struct {
		in, want string
		kind     string
	}{
		{"fbank23.ark", "fbank23.ark", "float"},
		{"fbank40.ark", "fbank40.ark", "float"},
		{"mat.ark", "mat.ark", "float"},
		{"cmvn23.ark", "cmvn23.ark", "double"},
		{"cmvn23.ark", "cmvn23_asfloat.ark", "float"},
		{"vec.ark", "vec.ark", "vector"},
		{"ali.ark", "ali.ark", "int"},
		{"fbank23_cm.ark", "fbank23_cm.ark", "compressed"},
		{"fbank23_cm3.ark", "fbank23_cm3.ark", "compressed"},
		{"fbank23_cm7.ark", "fbank23_cm7.ark", "compressed"},
		{"mat_cm.ark", "mat_cm.ark", "compressed"},
	}
	for _, tc := range cases {
		t.Run(tc.in+"->"+tc.want, func(t *testing.T) {
			in := "ark:" + golden(t, tc.in)
			var got []byte
			switch tc.kind {
			case "float":
				got = copyTable(t, MatrixCodec, in, "ark:-")
			case "double":
				got = copyTable(t, DoubleMatrixCodec, in, "ark:-")
			case "vector":
				got = copyTable(t, VectorCodec, in, "ark:-")
			case "int":
				got = copyTable(t, IntVectorCodec, in, "ark:-")
			case "compressed":
				got = copyTable(t, CompressedMatrixCodec, in, "ark:-")
			}
			if want := readFile(t, golden(t, tc.want)); !bytes.Equal(got, want) {
				t.Errorf("binary copy differs from %s: %s", tc.want, firstDiff(got, want))
			}
		})
	}
}

// Text-in, text-out and text-in, binary-out agree with Kaldi's copy tools.
func TestGoldenTextInput(t *testing.T) {
	cases := []struct {
		in, wspec, want, kind string
	}{
		{"vec.txt.ark", "ark:-", "vec.ark", "vector"},
		{"vec.ark", "ark,t:-", "vec_roundtrip.txt.ark", "vector"},
		{"ali.txt.ark", "ark:-", "ali.ark", "int"},
		{"ali.ark", "ark,t:-", "ali_roundtrip.txt.ark", "int"},
		{"mat.txt.ark", "ark:-", "mat.ark", "float"},
		{"mat.txt.ark", "ark:-", "mat_cm.ark", "compressed"},
		{"cmvn23.txt.ark", "ark,t:-", "cmvn23.txt.ark", "double"},
	}
	for _, tc := range cases {
		t.Run(tc.in+"->"+tc.want, func(t *testing.T) {
			in := "ark:" + golden(t, tc.in)
			var got []byte
			switch tc.kind {
			case "float":
				got = copyTable(t, MatrixCodec, in, tc.wspec)
			case "double":
				got = copyTable(t, DoubleMatrixCodec, in, tc.wspec)
			case "vector":
				got = copyTable(t, VectorCodec, in, tc.wspec)
			case "int":
				got = copyTable(t, IntVectorCodec, in, tc.wspec)
			case "compressed":
				got = copyTable(t, CompressedMatrixCodec, in, tc.wspec)
			}
			if want := readFile(t, golden(t, tc.want)); !bytes.Equal(got, want) {
				t.Errorf("differs from %s: %s", tc.want, firstDiff(got, want))
			}
		})
	}
}

// `copy-feats --compress=true --compression-method=N` is byte-identical.
func TestGoldenCompressionMethods(t *testing.T) {
	src := "ark:" + golden(t, "fbank23.ark")
	for m := 1; m <= 7; m++ {
		t.Run("method"+itoa(m), func(t *testing.T) {
			want := readFile(t, golden(t, "fbank23_cm"+itoa(m)+".ark"))
			r, err := OpenSequentialReader(src, MatrixCodec)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var out bytes.Buffer
			w, err := OpenTableWriter("ark:-", CompressedMatrixCodec, WithStdout(&out))
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				m0 := r.Value()
				c, err := Compress(&m0, CompressionMethod(m))
				if err != nil {
					t.Fatal(err)
				}
				w.Write(r.Key(), c)
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("compressed archive differs from Kaldi's: %s", firstDiff(out.Bytes(), want))
			}
		})
	}
}

// Decoded values of every method stay within the matrix's global range
// (a sanity bound; exactness is TestGoldenTextMatrices together with
// TestCMDecodeArithmeticIsObservable).
func TestDecompressedWithinRange(t *testing.T) {
	for m := 1; m <= 7; m++ {
		r, err := OpenSequentialReader("ark:"+golden(t, "fbank23_cm"+itoa(m)+".ark"), CompressedMatrixCodec)
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			c := r.Value()
			var mat Matrix
			c.DecompressTo(&mat)
			lo, hi := float64(c.MinValue), float64(c.MinValue)+float64(c.Range)
			for _, v := range mat.Data {
				if math.IsNaN(float64(v)) || float64(v) < lo-1e-3*math.Abs(lo)-1e-3 || float64(v) > hi+1e-3*math.Abs(hi)+1e-3 {
					t.Fatalf("method %d key %s: value %v outside [%v, %v]", m, r.Key(), v, lo, hi)
				}
			}
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// mini returns the path of a file of kaldi-mini (a monophone system built
// by Kaldi's scripts): the repository's testdata/kaldi-mini copy, else
// ../shared's (skipping the test when absent).
func mini(t testing.TB, name string) string {
	t.Helper()
	return shareddata.File(t, "kaldi-mini", name)
}

// Tables from a real Kaldi system: features, log-likelihoods, CMVN stats,
// posteriors, alignments, transcripts, and a gzip'd alignment archive read
// through a pipe.
func TestGoldenKaldiMini(t *testing.T) {
	text := func(name string, c func(in string) []byte, in, want string) {
		t.Run(name, func(t *testing.T) {
			got := c("ark:" + mini(t, in))
			if w := readFile(t, mini(t, want)); !bytes.Equal(got, w) {
				t.Errorf("%s differs from %s: %s", in, want, firstDiff(got, w))
			}
		})
	}
	mat := func(in string) []byte { return copyTable(t, MatrixCodec, in, "ark,t:-") }
	text("feats", mat, "golden/test5_feats.ark", "golden/test5_feats.txt.ark")
	text("mfcc", mat, "golden/test5_mfcc.ark", "golden/test5_mfcc.txt.ark")
	text("loglikes", mat, "golden/test5_loglikes.ark", "golden/test5_loglikes.txt.ark")
	same := func(name string, c func(in, out string) []byte, in, out string) {
		t.Run(name, func(t *testing.T) {
			p := mini(t, in)
			if got, w := c("ark:"+p, out), readFile(t, p); !bytes.Equal(got, w) {
				t.Errorf("copy of %s differs: %s", in, firstDiff(got, w))
			}
		})
	}
	same("posterior text", func(in, out string) []byte { return copyTable(t, PosteriorCodec, in, out) }, "golden/test5_ali_post.txt.ark", "ark,t:-")
	same("pdf alignment text", func(in, out string) []byte { return copyTable(t, IntVectorCodec, in, out) }, "golden/test5_ali_pdf.txt.ark", "ark,t:-")
	same("1best transcript", func(in, out string) []byte { return copyTable(t, TokenVectorCodec, in, out) }, "golden/test5_1best.txt", "ark,t:-")
	same("feats binary", func(in, out string) []byte { return copyTable(t, MatrixCodec, in, out) }, "golden/test5_feats.ark", "ark:-")
	same("cmvn binary", func(in, out string) []byte { return copyTable(t, DoubleMatrixCodec, in, out) }, "golden/test5_cmvn.ark", "ark:-")
	t.Run("gzip alignments through a pipe", func(t *testing.T) {
		keys, vals := readAll(t, IntVectorCodec, "ark:gunzip -c "+mini(t, "exp/mono/ali.1.gz")+" |")
		if len(keys) == 0 || len(vals[0]) == 0 {
			t.Fatalf("%d alignments", len(keys))
		}
	})
}

// The text goldens pin down CM decompression to Kaldi's exact mix of float
// and double arithmetic: the same formula evaluated all in float (a
// plausible port) prints differently from Kaldi somewhere, ours never does
// (TestGoldenTextMatrices). This guards the evidence that the decoded
// values are Kaldi's to the last bit, not merely to 7 digits.
func TestCMDecodeArithmeticIsObservable(t *testing.T) {
	allFloat := func(p0, p25, p75, p100 float32, v uint8) float32 {
		switch {
		case v <= 64:
			return p0 + (p25-p0)*float32(v)*(1/64.0)
		case v <= 192:
			return p25 + (p75-p25)*float32(int(v)-64)*(1/128.0)
		}
		return p75 + (p100-p75)*float32(int(v)-192)*float32(1/63.0)
	}
	r, err := OpenSequentialReader("ark:"+golden(t, "fbank23_cm.ark"), CompressedMatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	differ := 0
	for r.Next() {
		c := r.Value()
		for j := 0; j < c.Cols; j++ {
			h := c.Data[8*j:]
			p := [4]float32{}
			for k := range p {
				p[k] = uint16ToFloat(c.MinValue, c.Range, uint16(h[2*k])|uint16(h[2*k+1])<<8)
			}
			for _, b := range c.Data[8*c.Cols+j*c.Rows:][:c.Rows] {
				ours, alt := charToFloat(p[0], p[1], p[2], p[3], b), allFloat(p[0], p[1], p[2], p[3], b)
				if string(AppendFloat(nil, float64(ours))) != string(AppendFloat(nil, float64(alt))) {
					differ++
				}
			}
		}
	}
	if differ == 0 {
		t.Error("all-float decoding prints like Kaldi's: the text goldens would not detect arithmetic differences")
	}
	t.Logf("%d values print differently with all-float arithmetic", differ)
}

// Every text matrix archive in the goldens (features of all kinds) reads
// and prints back byte for byte; every script reads the same matrices as
// its archive; the dimension and length files agree. On the repository's
// subset of kaldi-golden that is a dozen archives; on ../shared's, all.
func TestGoldenAllTextArchivesAndScripts(t *testing.T) {
	dir, want := shareddata.Dir(t, "kaldi-golden"), 10
	if root := shareddata.Root(); root != "" && dir == filepath.Join(root, "kaldi-golden") {
		want = 40
	}
	txts, _ := filepath.Glob(filepath.Join(dir, "*.txt.ark"))
	n := 0
	for _, p := range txts {
		b := readFile(t, p)
		if !bytes.Contains(b[:min(len(b), 200)], []byte("[")) {
			continue // int vectors
		}
		n++
		name := filepath.Base(p)
		var got []byte
		if bytes.HasPrefix(b, []byte("vec")) {
			got = copyTable(t, VectorCodec, "ark:"+p, "ark,t:-")
		} else {
			got = copyTable(t, MatrixCodec, "ark:"+p, "ark,t:-")
		}
		if !bytes.Equal(got, b) && !bytes.HasPrefix(b, []byte("m1 ")) && !bytes.HasPrefix(b, []byte("vec1 ")) {
			t.Errorf("%s: text round trip differs %s", name, firstDiff(got, b))
		}
	}
	if n < want {
		t.Errorf("only %d text matrix archives found in %s, want %d", n, dir, want)
	}
	scps, _ := filepath.Glob(filepath.Join(dir, "fbank*.scp"))
	for _, p := range scps {
		ark := strings.TrimSuffix(p, ".scp") + ".ark"
		k1, v1 := readAll(t, MatrixCodec, "scp:"+absScp(t, p))
		k2, v2 := readAll(t, MatrixCodec, "ark:"+ark)
		if strings.Join(k1, " ") != strings.Join(k2, " ") {
			t.Errorf("%s: keys %v vs %v", p, k1, k2)
			continue
		}
		for i := range v1 {
			if !equalMatrix(v1[i], v2[i]) {
				t.Errorf("%s: %s differs from the archive", p, k1[i])
			}
		}
	}
	for _, dim := range []string{"fbank23", "fbank40e"} {
		if !fileExists(filepath.Join(dir, dim+".scp")) {
			continue // fbank40e is not in the repository's subset
		}
		var buf bytes.Buffer
		if err := FeatToDim("scp:"+absScp(t, filepath.Join(dir, dim+".scp")), "-", WithStdout(&buf)); err != nil {
			t.Fatal(err)
		}
		if want := readFile(t, filepath.Join(dir, dim+".dim")); buf.String() != string(want) {
			t.Errorf("feat-to-dim %s: %q, want %q", dim, buf.String(), want)
		}
	}
}

// absScp copies a golden script with its archive paths made absolute (the
// goldens name them relative to their folder).
func absScp(t testing.TB, scp string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, scp))), "\n") {
		key, rx, _ := strings.Cut(line, " ")
		out = append(out, key+" "+filepath.Join(filepath.Dir(scp), rx))
	}
	return writeFile(t, t.TempDir(), filepath.Base(scp), strings.Join(out, "\n")+"\n")
}
