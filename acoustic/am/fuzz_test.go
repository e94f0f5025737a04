package am

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: arbitrary bytes as a model file never panic; errors only.
func FuzzLoad(f *testing.F) {
	dir := f.TempDir()
	for _, kind := range []string{KindSTRODE, KindODERNN, KindDNN} {
		m, err := New(tinyOptions(kind), 1)
		if err != nil {
			f.Fatal(err)
		}
		good := filepath.Join(dir, kind+".am")
		if err := (&File{Model: m, Pipeline: Pipeline{RawDim: 3, CMVN: CMVNNone}, History: []Epoch{{Epoch: 1}}}).Save(good); err != nil {
			f.Fatal(err)
		}
		b, _ := os.ReadFile(good)
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "m.am")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if f, err := Load(p); err == nil && f.Model == nil {
			t.Fatal("no model and no error")
		}
	})
}
