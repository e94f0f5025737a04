package tree

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/kaldiio"
)

func writeObj[T any](t *testing.T, c kaldiio.Codec[T], binary bool, v *T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	if binary {
		w.WriteBinaryHeader()
	}
	if err := c.Write(w, binary, v); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Tree round trips are byte-identical with Kaldi's files, binary and text.
func TestTreeRoundTripByteIdentical(t *testing.T) {
	for _, src := range []string{"testdata/mono.tree", "testdata/mono.tree.txt"} {
		tree := &ContextDependency{}
		if err := kaldiio.ReadObject(src, ContextDependencyCodec, tree); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"testdata/mono.tree", "testdata/mono.tree.txt"} {
			exp, _ := os.ReadFile(want)
			if got := writeObj(t, ContextDependencyCodec, !strings.HasSuffix(want, ".txt"), tree); !bytes.Equal(got, exp) {
				t.Errorf("tree read from %s, written like %s: differs\n%q\n%q", src, want, got, exp)
			}
		}
	}
}

// kaldi-mini's tree reads as Kaldi's tools read it.
func TestReadTreeKaldiMini(t *testing.T) {
	dir := shareddata.Dir(t, "kaldi-mini")
	tree, err := Read(filepath.Join(dir, "exp/mono/tree"))
	if err != nil {
		t.Fatal(err)
	}
	if tree.NumPdfs() != 62 || tree.ContextWidth != 1 {
		t.Errorf("tree: %d pdfs, width %d", tree.NumPdfs(), tree.ContextWidth)
	}
}

func TestTreeErrors(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tree")
	tree, _ := os.ReadFile("testdata/mono.tree")
	os.WriteFile(p, tree[:len(tree)-10], 0o644)
	if _, err := Read(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("truncated tree: %v", err)
	}
	var kerr *kaldiio.Error
	if _, err := Read(p); !errors.As(err, &kerr) {
		t.Errorf("tree error is not a *kaldiio.Error: %v", err)
	}
}

func FuzzContextDependency(f *testing.F) {
	for _, p := range []string{"testdata/mono.tree", "testdata/mono.tree.txt"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := kaldiio.NewReader(bytes.NewReader(data), "fuzz")
		binary, err := r.ReadBinaryHeader()
		if err != nil {
			return
		}
		var tree ContextDependency
		if ContextDependencyCodec.Read(r, binary, &tree) == nil {
			tree.NumPdfs()
			tree.Compute(make([]int32, tree.ContextWidth), 0)
		}
	})
}
