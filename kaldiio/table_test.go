package kaldiio

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readAll[T any](t testing.TB, c Codec[T], rspec string, opts ...Option) ([]string, []T) {
	t.Helper()
	r, err := OpenSequentialReader(rspec, c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	var vals []T
	for r.Next() {
		keys = append(keys, r.Key())
		vals = append(vals, r.Value())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return keys, vals
}

func TestTokenVectorTable(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "text", "utt1 ONE TWO  three\nutt2\nutt3 x\n")
	keys, vals := readAll(t, TokenVectorCodec, "ark:"+p)
	if strings.Join(keys, ",") != "utt1,utt2,utt3" || len(vals[0]) != 3 || len(vals[1]) != 0 || vals[2][0] != "x" {
		t.Fatalf("got %v %v", keys, vals)
	}
	got := copyTable(t, TokenVectorCodec, "ark:"+p, "ark:-")
	if string(got) != "utt1 ONE TWO three \nutt2 \nutt3 x \n" {
		t.Errorf("got %q", got)
	}
}

// ark,scp: writes offsets pointing at "\0B"; the scp reads back the same
// matrices, also through ranges, sequentially and by key.
func TestArkScpOffsetsAndRanges(t *testing.T) {
	dir := t.TempDir()
	ark, scp := filepath.Join(dir, "a.ark"), filepath.Join(dir, "a.scp")
	_, mats := readAll(t, MatrixCodec, "ark:"+golden(t, "fbank23.ark"))
	keys, _ := readAll(t, MatrixCodec, "ark:"+golden(t, "fbank23.ark"))
	w, err := OpenTableWriter("ark,scp:"+ark+","+scp, MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		w.Write(k, mats[i])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// Same bytes as Kaldi's compute-fbank-feats ark, and the scp agrees with
	// Kaldi's (modulo the directory).
	if !bytes.Equal(readFile(t, ark), readFile(t, golden(t, "fbank23.ark"))) {
		t.Error("ark differs from Kaldi's")
	}
	wantScp := strings.ReplaceAll(string(readFile(t, golden(t, "fbank23.scp"))), "fbank23.ark", ark)
	if string(readFile(t, scp)) != wantScp {
		t.Errorf("scp:\n%s\nwant:\n%s", readFile(t, scp), wantScp)
	}
	k2, m2 := readAll(t, MatrixCodec, "scp:"+scp)
	if len(k2) != len(keys) {
		t.Fatalf("%d keys via scp", len(k2))
	}
	for i := range m2 {
		if !equalMatrix(m2[i], mats[i]) {
			t.Errorf("%s differs via scp", k2[i])
		}
	}
	// Ranges, end-inclusive, and a row end up to 2 past the end (truncated).
	lines := strings.Split(strings.TrimSpace(string(readFile(t, scp))), "\n")
	first := strings.Fields(lines[0])
	rscp := writeFile(t, dir, "r.scp", "r1 "+first[1]+"[0:9]\nr2 "+first[1]+"[2:3,5:7]\nr3 "+first[1]+"[:,22:22]\nr4 "+first[1]+"[120:130]\n")
	rk, rv := readAll(t, MatrixCodec, "scp:"+rscp)
	m := mats[0]
	check := func(name string, got Matrix, r0, r1, c0, c1 int) {
		if got.Rows != r1-r0+1 || got.Cols != c1-c0+1 {
			t.Fatalf("%s: %dx%d, want %dx%d", name, got.Rows, got.Cols, r1-r0+1, c1-c0+1)
		}
		for i := r0; i <= r1; i++ {
			for j := c0; j <= c1; j++ {
				if got.At(i-r0, j-c0) != m.At(i, j) {
					t.Fatalf("%s: (%d,%d) differs", name, i, j)
				}
			}
		}
	}
	check(rk[0], rv[0], 0, 9, 0, 22)
	check(rk[1], rv[1], 2, 3, 5, 7)
	check(rk[2], rv[2], 0, m.Rows-1, 22, 22)
	check(rk[3], rv[3], 120, m.Rows-1, 0, 22) // 129 rows: 130 is within Kaldi's tolerance
	// Random access by key, through the scp and through the archive.
	for _, spec := range []string{"scp:" + scp, "ark:" + ark, "ark,s,cs:" + ark} {
		ra, err := OpenRandomAccessReader(spec, MatrixCodec)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(keys) - 1; i >= 0; i-- {
			v, err := ra.Value(keys[i])
			if err != nil {
				t.Fatal(err)
			}
			if !equalMatrix(v, mats[i]) {
				t.Errorf("%s %s differs", spec, keys[i])
			}
		}
		if ok, err := ra.HasKey("nope"); ok || err != nil {
			t.Errorf("HasKey(nope) = %v, %v", ok, err)
		}
		if _, err := ra.Value("nope"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
			t.Errorf("Value(nope): %v", err)
		}
		if err := ra.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func equalMatrix(a, b Matrix) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return false
	}
	for i := range a.Data[:a.Rows*a.Cols] {
		if a.Data[i] != b.Data[i] && !(a.Data[i] != a.Data[i] && b.Data[i] != b.Data[i]) {
			return false
		}
	}
	return true
}

// Pipes: input pipes, output pipes, "-", and exit statuses.
func TestPipes(t *testing.T) {
	src := golden(t, "fbank23.ark")
	want := readFile(t, src)
	// Input pipe read to the end.
	got := copyTable(t, MatrixCodec, "ark:cat "+src+" |", "ark:-")
	if !bytes.Equal(got, want) {
		t.Error("ark:cat X | differs")
	}
	// Output pipe.
	dir := t.TempDir()
	out := filepath.Join(dir, "o.ark")
	copyTable(t, MatrixCodec, "ark:"+src, "ark:| cat > "+out)
	if !bytes.Equal(readFile(t, out), want) {
		t.Error("ark:| cat > X differs")
	}
	// A failing producer is an error naming the pipe.
	r, err := OpenSequentialReader("ark:cat "+src+"; exit 3 |", MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r.Next() {
		n++
	}
	if err := r.Close(); !errors.Is(err, ErrPipe) || !strings.Contains(err.Error(), "exit 3 |") || n != 4 {
		t.Errorf("failing pipe: n=%d err=%v", n, err)
	}
	// Closing early is not the producer's failure, even when the producer
	// would fail at the end.
	r, err = OpenSequentialReader("ark:cat "+src+" "+src+" "+src+"; exit 3 |", MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	r.Next()
	if err := r.Close(); err != nil {
		t.Errorf("early close: %v", err)
	}
	// A failing consumer is an error at Close.
	w, err := OpenTableWriter("ark:| cat > /dev/null; exit 4", MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	w.Write("a", NewMatrix(1, 1))
	if err := w.Close(); !errors.Is(err, ErrPipe) {
		t.Errorf("failing consumer: %v", err)
	}
	// Standard input.
	keys, _ := readAll(t, MatrixCodec, "ark:-", WithStdin(bytes.NewReader(want)))
	if len(keys) != 4 {
		t.Errorf("stdin: %d keys", len(keys))
	}
	// Random access on a pipe holds the objects.
	ra, err := OpenRandomAccessReader("ark:cat "+src+" |", MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"s_utt3", "s_utt1", "s_utt4"} {
		if _, err := ra.Value(k); err != nil {
			t.Error(err)
		}
	}
	ra.Close()
}

// A script entry may be a pipe; its output is the object.
func TestScpPipeEntry(t *testing.T) {
	dir := t.TempDir()
	src := golden(t, "mat_single.bin")
	scp := writeFile(t, dir, "p.scp", "m cat "+src+" |\nbad cat "+src+"; exit 2 |\n")
	r, err := OpenSequentialReader("scp:"+scp, MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Next() || r.Key() != "m" || r.Value().Rows != 2 {
		t.Fatalf("first entry: %v %v", r.Key(), r.Err())
	}
	if r.Next() {
		t.Fatal("failing pipe entry read")
	}
	if err := r.Err(); !errors.Is(err, ErrPipe) || !strings.Contains(err.Error(), "bad") {
		t.Errorf("err = %v", err)
	}
	// Permissive: skipped.
	keys, _ := readAll(t, MatrixCodec, "scp,p:"+scp)
	if len(keys) != 1 {
		t.Errorf("permissive: %v", keys)
	}
}

// A permissive reader says which key it skips and why, counts it, and
// without a handler warns on its stderr: a lost entry is never silent.
func TestPermissiveSkipIsReported(t *testing.T) {
	dir := t.TempDir()
	src := golden(t, "mat_single.bin")
	missing := filepath.Join(dir, "missing.bin")
	scp := writeFile(t, dir, "p.scp", "a "+src+"\nlost "+missing+"\nb "+src+"\n")
	var skips []Skip
	r, err := OpenSequentialReader("scp,p:"+scp, MatrixCodec, WithSkipHandler(func(s Skip) { skips = append(skips, s) }))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for r.Next() {
		keys = append(keys, r.Key())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, " ") != "a b" || r.Skipped() != 1 || len(skips) != 1 || skips[0].Key != "lost" || !errors.Is(skips[0].Err, fs.ErrNotExist) {
		t.Fatalf("keys %v, Skipped %d, skips %v", keys, r.Skipped(), skips)
	}
	if msg := skips[0].String(); !strings.Contains(msg, "skipping key lost, which cannot be read") || !strings.Contains(msg, "missing.bin") {
		t.Errorf("message %q", msg)
	}
	var stderr bytes.Buffer
	readAll(t, MatrixCodec, "scp,p:"+scp, WithStderr(&stderr))
	if !strings.HasPrefix(stderr.String(), "WARNING (kaldiio) reading scp,p:"+scp+": skipping key lost") {
		t.Errorf("stderr %q", stderr.String())
	}
	// A permissive archive ends at a damaged entry, naming it.
	data, _ := os.ReadFile(src)
	ark := writeFile(t, dir, "a.ark", "a "+string(data)+"broken \x00B")
	skips = nil
	keys, _ = readAll(t, MatrixCodec, "ark,p:"+ark, WithSkipHandler(func(s Skip) { skips = append(skips, s) }))
	if len(keys) != 1 || len(skips) != 1 || skips[0].Key != "broken" {
		t.Errorf("archive: keys %v, skips %v", keys, skips)
	}
}

func TestSingleObjects(t *testing.T) {
	var m Matrix
	if err := ReadObject(golden(t, "mat_single.txt"), MatrixCodec, &m); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "m.bin")
	if err := WriteObject(out, MatrixCodec, true, &m); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, out), readFile(t, golden(t, "mat_single.bin"))) {
		t.Error("copy-matrix --binary=true mat_single.txt differs")
	}
	var dv DoubleVector
	if err := ReadObject(golden(t, "pdf_counts.vec"), DoubleVectorCodec, &dv); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteObject("-", DoubleVectorCodec, false, &dv, WithStdout(&buf)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != string(readFile(t, golden(t, "pdf_counts.txt"))) {
		t.Errorf("text vector %q vs %q", buf.String(), readFile(t, golden(t, "pdf_counts.txt")))
	}
	var fv Vector
	if err := ReadObject(golden(t, "pdf_counts.vec"), VectorCodec, &fv); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "v.bin")
	WriteObject(out, VectorCodec, true, &fv)
	if !bytes.Equal(readFile(t, out), readFile(t, golden(t, "pdf_counts_asfloat.vec"))) {
		t.Error("copy-vector of a DV differs from Kaldi's FV")
	}
}

func TestPosteriorRoundTrip(t *testing.T) {
	p := Posterior{{{1, 0.5}, {7, 0.5}}, {}, {{3, 1}}}
	for _, spec := range []string{"ark:-", "ark,t:-"} {
		var buf bytes.Buffer
		w, _ := OpenTableWriter(spec, PosteriorCodec, WithStdout(&buf))
		w.Write("u", p)
		w.Close()
		if spec == "ark,t:-" && buf.String() != "u [ 1 0.5 7 0.5 ] [ ] [ 3 1 ] \n" {
			t.Errorf("text posterior %q", buf.String())
		}
		_, vals := readAll(t, PosteriorCodec, "ark:-", WithStdin(&buf))
		if len(vals) != 1 || len(vals[0]) != 3 || vals[0][0][1] != (PostEntry{7, 0.5}) || len(vals[0][1]) != 0 {
			t.Errorf("%s: %v", spec, vals)
		}
	}
}

// riffCodec is a minimal wave codec for tests: a RIFF chunk kept as bytes,
// with no "\0B" marker (a RawCodec, as features' wave codec).
type riffCodec struct{}

func (riffCodec) RawObject() {}

func (riffCodec) Read(r *Reader, _ bool, v *[]byte) error {
	hdr := make([]byte, 8)
	if err := r.ReadFull(hdr); err != nil {
		return err
	}
	if string(hdr[:4]) != "RIFF" {
		return r.Errorf("expected RIFF, got %q", hdr[:4])
	}
	n := int(le32(hdr[4:]))
	body := make([]byte, n)
	if err := r.ReadFull(body); err != nil {
		return err
	}
	*v = append(hdr, body...)
	return nil
}

func (riffCodec) Write(w *Writer, _ bool, v *[]byte) error {
	_, err := w.Write(*v)
	return err
}

// Waves in tables: keys followed directly by RIFF, scp offsets at "RIFF".
func TestRawCodecWaves(t *testing.T) {
	ark := golden(t, "wav.ark")
	var c Codec[[]byte] = riffCodec{}
	if got := copyTable(t, c, "ark:"+ark, "ark:-"); !bytes.Equal(got, readFile(t, ark)) {
		t.Fatal("wave archive copy differs from Kaldi's wav-copy output")
	}
	if seg := golden(t, "segments_wav.ark"); !bytes.Equal(copyTable(t, c, "ark:"+seg, "ark:-"), readFile(t, seg)) {
		t.Error("extract-segments archive copy differs")
	}
	dir := t.TempDir()
	out, scp := filepath.Join(dir, "wav.ark"), filepath.Join(dir, "wav_ark.scp")
	copyTable(t, c, "ark:"+ark, "ark,scp:"+out+","+scp)
	want := strings.ReplaceAll(string(readFile(t, golden(t, "wav_ark.scp"))), "wav.ark", out)
	if string(readFile(t, scp)) != want {
		t.Errorf("scp %q, want %q", readFile(t, scp), want)
	}
	// Kaldi's own scp (offsets at RIFF) read by key.
	kaldiScp := filepath.Join(dir, "kaldi.scp")
	os.WriteFile(kaldiScp, []byte(strings.ReplaceAll(string(readFile(t, golden(t, "wav_ark.scp"))), "wav.ark", ark)), 0o644)
	ra, err := OpenRandomAccessReader("scp:"+kaldiScp, c)
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Close()
	w, err := ra.Value("s_utt3")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w, readFile(t, golden(t, "wav/s_utt3.wav"))) {
		t.Error("s_utt3 via scp differs from wav/s_utt3.wav")
	}
}
