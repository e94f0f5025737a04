package kaldiio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fm builds a binary float-matrix archive entry with the given header
// fields and payload.
func fm(key string, rows, cols uint32, data []float32) []byte {
	var b bytes.Buffer
	b.WriteString(key + " \x00BFM \x04")
	binary.Write(&b, binary.LittleEndian, rows)
	b.WriteByte(4)
	binary.Write(&b, binary.LittleEndian, cols)
	binary.Write(&b, binary.LittleEndian, data)
	return b.Bytes()
}

// readErr reads every entry of rspec and returns the error met.
func readErr[T any](c Codec[T], rspec string) error {
	r, err := OpenSequentialReader(rspec, c)
	if err != nil {
		return err
	}
	for r.Next() {
	}
	return r.Close()
}

// Every bad input is an error (never a panic) whose message names the file,
// the key and the byte offset or line.
func TestBadInputNamesThePlace(t *testing.T) {
	dir := t.TempDir()
	good := fm("utt1", 2, 3, []float32{1, 2, 3, 4, 5, 6})
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	twoEntries := append(fm("utt0", 1, 1, []float32{0}), good...)
	cm := readFile(t, golden(t, "fbank23_cm.ark"))
	ali := readFile(t, golden(t, "ali.ark"))
	goodArk := file("good.ark", good)

	type tc struct {
		name  string
		read  func() error
		is    error    // sentinel the error must wrap
		parts []string // substrings the message must hold
	}
	matrix := func(p string) func() error { return func() error { return readErr(MatrixCodec, "ark:"+p) } }
	cases := []tc{
		{"truncated matrix data", matrix(file("trunc.ark", twoEntries[:len(twoEntries)-5])),
			io.ErrUnexpectedEOF, []string{"trunc.ark", `key "utt1"`, "byte"}},
		{"truncated header", matrix(file("trunc2.ark", good[:12])),
			io.ErrUnexpectedEOF, []string{"trunc2.ark", `key "utt1"`, "byte 12"}},
		{"truncated compressed", func() error {
			return readErr(MatrixCodec, "ark:"+file("trunccm.ark", cm[:len(cm)/2]))
		}, io.ErrUnexpectedEOF, []string{"trunccm.ark", `key "s_utt`, "byte"}},
		{"truncated int vector", func() error {
			return readErr(IntVectorCodec, "ark:"+file("truncali.ark", ali[:30]))
		}, io.ErrUnexpectedEOF, []string{"truncali.ark", `key "s_utt1"`, "byte 14", "needs 55 bytes"}},
		{"wrong binary marker", matrix(file("marker.ark", []byte("utt1 \x00CFM \x04\x01\x00\x00\x00"))),
			ErrFormat, []string{"marker.ark", `key "utt1"`, "byte 5", "binary marker"}},
		{"unknown token", matrix(file("token.ark", []byte("utt1 \x00BXM \x04\x01\x00\x00\x00"))),
			ErrUnknownObject, []string{"token.ark", `key "utt1"`, "byte 7", `"XM"`}},
		{"negative rows", matrix(file("neg.ark", fm("utt1", 0x80000000, 3, nil))),
			ErrFormat, []string{"neg.ark", `key "utt1"`, "byte 10", "negative dimension -2147483648"}},
		{"absurd dimensions", matrix(file("huge.ark", fm("utt1", 0x7fffffff, 0x7fffffff, []float32{1}))),
			ErrFormat, []string{"huge.ark", `key "utt1"`, "byte", "2147483647 x 2147483647"}},
		{"int size byte 5", matrix(file("size.ark", []byte("utt1 \x00BFM \x05\x01\x00\x00\x00\x00"))),
			ErrFormat, []string{"size.ark", `key "utt1"`, "byte 10", "size byte is 5"}},
		{"int size byte 8 in int vector", func() error {
			return readErr(IntVectorCodec, "ark:"+file("alisize.ark", []byte("a \x00B\x04\x01\x00\x00\x00\x08\x01\x00\x00\x00\x00\x00\x00\x00")))
		}, ErrFormat, []string{"alisize.ark", `key "a"`, "byte 9", "size byte is 8"}},
		{"ragged text matrix", func() error {
			return readErr(MatrixCodec, "ark:"+file("ragged.txt", []byte("u1  [\n  1 2 3\n  4 5 6 ]\nu2  [\n  1 2\n  3 ]\n")))
		}, ErrFormat, []string{"ragged.txt", `key "u2"`, "line 6", "ragged"}},
		{"non-numeric text matrix", func() error {
			return readErr(MatrixCodec, "ark:"+file("nan.txt", []byte("u1  [\n  1 2 3\n  4 x5 6 ]\n")))
		}, ErrFormat, []string{"nan.txt", `key "u1"`, "line 3", `"x5"`}},
		{"text matrix without end", func() error {
			return readErr(MatrixCodec, "ark:"+file("noend.txt", []byte("u1  [\n  1 2 3\n")))
		}, io.ErrUnexpectedEOF, []string{"noend.txt", `key "u1"`, "line 3"}},
		{"non-numeric int vector", func() error {
			return readErr(IntVectorCodec, "ark:"+file("ali.txt", []byte("u1 1 2\nu2 3 four\n")))
		}, ErrFormat, []string{"ali.txt", `key "u2"`, "line 2", `"four"`}},
		{"key with no object", matrix(file("nokey.ark", append(append([]byte{}, good...), "utt2"...))),
			io.ErrUnexpectedEOF, []string{"nokey.ark", `key "utt2"`, "byte"}},
		{"key followed by a carriage return", matrix(file("cr.ark", []byte("utt1\r\x00BFM \x04\x00\x00\x00\x00\x04\x00\x00\x00\x00"))),
			ErrFormat, []string{"cr.ark", `key "utt1"`, "byte 4", "expected space after key"}},
		{"key with only a separator", matrix(file("nokey2.ark", append(append([]byte{}, good...), "utt2 "...))),
			io.ErrUnexpectedEOF, []string{"nokey2.ark", `key "utt2"`, "byte"}},
		{"scp line with no path", func() error {
			return readErr(MatrixCodec, "scp:"+file("nopath.scp", []byte("utt1 "+goodArk+":5\nutt2\n")))
		}, ErrSpecifier, []string{"nopath.scp", "line 2", "no file name"}},
		{"scp offset past the end", func() error {
			return readErr(MatrixCodec, "scp:"+file("off.scp", []byte("utt1 "+goodArk+":99999\n")))
		}, io.ErrUnexpectedEOF, []string{"good.ark", `key "utt1"`, "byte 99999", "past the end"}},
		{"scp offset not at an object", func() error {
			return readErr(MatrixCodec, "scp:"+file("off2.scp", []byte("utt1 "+goodArk+":2\n")))
		}, ErrFormat, []string{"good.ark", `key "utt1"`, "byte 2"}},
		{"bad scp range", func() error {
			return readErr(MatrixCodec, "scp:"+file("rng.scp", []byte("utt1 "+goodArk+":5[1:0]\n")))
		}, ErrFormat, []string{"rng.scp", "line 1", "good.ark", `key "utt1"`, "[1:0]"}},
		{"out-of-range scp columns", func() error {
			return readErr(MatrixCodec, "scp:"+file("rng2.scp", []byte("utt1 "+goodArk+":5[0:1,0:3]\n")))
		}, ErrFormat, []string{"rng2.scp", "line 1", `key "utt1"`, "0:1,0:3", "2 x 3"}},
		{"malformed scp range", func() error {
			return readErr(MatrixCodec, "scp:"+file("rng3.scp", []byte("utt1 "+goodArk+":5[a:b]\n")))
		}, ErrFormat, []string{"rng3.scp", "line 1", `key "utt1"`, "a:b"}},
		{"unterminated scp range", func() error {
			return readErr(MatrixCodec, "scp:"+file("rng4.scp", []byte("utt1 "+goodArk+":5[]\n")))
		}, ErrSpecifier, []string{"rng4.scp", "line 1", "bad range"}},
		{"missing file", matrix(filepath.Join(dir, "missing.ark")),
			os.ErrNotExist, []string{"missing.ark", "cannot open"}},
		{"missing file in scp", func() error {
			return readErr(MatrixCodec, "scp:"+file("miss.scp", []byte("utt1 "+filepath.Join(dir, "gone.ark")+":5\n")))
		}, os.ErrNotExist, []string{"gone.ark", `key "utt1"`, "cannot open"}},
		{"failing pipe", func() error { return readErr(MatrixCodec, "ark:cat "+goodArk+"; exit 7 |") },
			ErrPipe, []string{"exit 7 |", "exit status 7"}},
		{"malformed rspecifier", func() error { return readErr(MatrixCodec, "arc:"+goodArk) },
			ErrSpecifier, []string{"arc:", `unknown rspecifier option "arc"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.read()
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.is) {
				t.Errorf("error %q does not wrap %v", err, c.is)
			}
			for _, p := range c.parts {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("error %q does not name %q", err, p)
				}
			}
		})
	}
}

func TestMalformedSpecifiers(t *testing.T) {
	rbad := []string{"", "foo", "ark", "ark foo", "arc:x", "ark,scp:x", "scp,ark:x", "ark,ark:x", "ark, t:x", "ark:x ", "ark:| cmd", "ark: x", "t:x"}
	for _, s := range rbad {
		if _, err := ParseRspecifier(s); !errors.Is(err, ErrSpecifier) || (s != "" && !strings.Contains(err.Error(), s)) {
			t.Errorf("ParseRspecifier(%q) = %v", s, err)
		}
	}
	wbad := []string{"", "foo", "scp,ark:a,b", "ark,scp:a.ark", "ark:cmd |", "ark:x:12", "ark,ark:x", "ark,scp,scp:a,b", "ark,z:x", "ark:x\t", "ark,scp:,a.scp", "ark scp:,"}
	for _, s := range wbad {
		if _, err := ParseWspecifier(s); !errors.Is(err, ErrSpecifier) {
			t.Errorf("ParseWspecifier(%q) = %v", s, err)
		}
	}
	rgood := map[string]Rspecifier{
		"ark:-":             {Kind: Archive, Path: "-"},
		"scp,p:a.scp":       {Kind: Script, Path: "a.scp", Permissive: true},
		"t,o,s,cs,ark:x|":   {Kind: Archive, Path: "x|", Once: true, Sorted: true, CalledSort: true},
		"ark,s,ns,b,bg:x":   {Kind: Archive, Path: "x", Background: true},
		"ark:foo.ark:123":   {Kind: Archive, Path: "foo.ark:123"},
		"ark:gunzip -c x |": {Kind: Archive, Path: "gunzip -c x |"},
	}
	for s, want := range rgood {
		got, err := ParseRspecifier(s)
		if err != nil || got != want {
			t.Errorf("ParseRspecifier(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	wgood := map[string]Wspecifier{
		"ark:-":                   {Kind: Archive, ArkPath: "-", Binary: true},
		"ark,t:-":                 {Kind: Archive, ArkPath: "-"},
		"ark,scp:a.ark,a.scp":     {Kind: ArchiveAndScript, ArkPath: "a.ark", ScpPath: "a.scp", Binary: true},
		"ark,scp,t,f:a.ark,a.scp": {Kind: ArchiveAndScript, ArkPath: "a.ark", ScpPath: "a.scp", Flush: true},
		"b,ark,nf:| gzip -c > x":  {Kind: Archive, ArkPath: "| gzip -c > x", Binary: true},
		"scp,p:out.scp":           {Kind: Script, ScpPath: "out.scp", Binary: true, Permissive: true},
	}
	for s, want := range wgood {
		got, err := ParseWspecifier(s)
		if err != nil || got != want {
			t.Errorf("ParseWspecifier(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
}

// A corrupt header read from a pipe (size unknown) must not allocate what
// it asks for: reading grows with the bytes that actually arrive.
func TestCorruptHeaderDoesNotAllocate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.ark")
	os.WriteFile(p, fm("utt1", 0x7fffffff, 0x7fffffff, make([]float32, 1000)), 0o644)
	wide := filepath.Join(dir, "wide.ark")
	os.WriteFile(wide, fm("utt1", 0x7fffffff, 1000, make([]float32, 1000)), 0o644)
	huge := filepath.Join(dir, "huge_cm.ark")
	var b bytes.Buffer
	b.WriteString("u \x00BCM ")
	binary.Write(&b, binary.LittleEndian, []float32{0, 1})
	binary.Write(&b, binary.LittleEndian, []int32{math.MaxInt32, math.MaxInt32})
	b.Write(make([]byte, 100))
	os.WriteFile(huge, b.Bytes(), 0o644)
	ali := filepath.Join(dir, "huge_ali.ark")
	os.WriteFile(ali, []byte("u \x00B\x04\xff\xff\xff\x7f\x04\x01\x00\x00\x00"), 0o644)
	for _, tc := range []struct {
		spec string
		read func(string) error
	}{
		{"ark:cat " + p + " |", func(s string) error { return readErr(MatrixCodec, s) }},
		{"ark:cat " + wide + " |", func(s string) error { return readErr(MatrixCodec, s) }},
		{"ark:cat " + wide + " |", func(s string) error { return readErr(DoubleMatrixCodec, s) }},
		{"ark:cat " + huge + " |", func(s string) error { return readErr(MatrixCodec, s) }},
		{"ark:cat " + ali + " |", func(s string) error { return readErr(IntVectorCodec, s) }},
		{"ark:cat " + ali + " |", func(s string) error { return readErr(PosteriorCodec, s) }},
	} {
		if tc.read == nil {
			continue
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := tc.read(tc.spec)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", tc.spec, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
			t.Errorf("%s: allocated %d MB for a corrupt header", tc.spec, got>>20)
		}
	}
}

// Writers reject bad keys and never leave a half-written file.
func TestWriterErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.ark")
	w, err := OpenTableWriter("ark:"+out, MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"", "a b", "a\tb", "a\nb"} {
		if err := w.Write(k, NewMatrix(1, 1)); !errors.Is(err, ErrSpecifier) {
			t.Errorf("key %q: %v", k, err)
		}
	}
	w.Write("ok", NewMatrix(1, 1))
	if fileExists(out) {
		t.Error("output visible before Close")
	}
	w.Abort()
	if fileExists(out) {
		t.Error("aborted output left behind")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
	if _, err := OpenTableWriter("ark:"+filepath.Join(dir, "nodir", "x.ark"), MatrixCodec); err == nil || !strings.Contains(err.Error(), "nodir") {
		t.Errorf("missing directory: %v", err)
	}
	if _, err := OpenTableWriter("ark,scp:| gzip,"+filepath.Join(dir, "a.scp"), MatrixCodec); !errors.Is(err, ErrSpecifier) {
		t.Errorf("ark,scp: to a pipe: %v", err)
	}
	// Writing to a script requires the key to be there (unless "p").
	scp := writeFile(t, dir, "targets.scp", "a "+filepath.Join(dir, "a.mat")+"\n")
	sw, err := OpenTableWriter("scp:"+scp, MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.Write("a", NewMatrix(2, 2)); err != nil {
		t.Fatal(err)
	}
	if err := sw.Write("b", NewMatrix(2, 2)); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("missing key: %v", err)
	}
	sw.Close()
	var m Matrix
	if err := ReadObject(filepath.Join(dir, "a.mat"), MatrixCodec, &m); err != nil || m.Rows != 2 {
		t.Errorf("scp: target: %v %v", m, err)
	}
}
