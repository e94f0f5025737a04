package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "final.mdl")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the old content and no temporary file behind.
	boom := errors.New("disk full")
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("half-writ"))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v should wrap the cause and name %s", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("content after failed write = %q, want %q", b, "old")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
	if err := WriteBytes(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content = %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if err := WriteBytes(filepath.Join(dir, "no/such/dir/x"), nil); err == nil {
		t.Error("writing into a missing directory should fail")
	}
}
