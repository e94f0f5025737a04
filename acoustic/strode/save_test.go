package strode

import (
	"math/rand"
	"path/filepath"
	"testing"
)

func TestSaveLoad(t *testing.T) {
	o := DefaultSequentialOptions()
	a, _ := NewSequential(o, rand.New(rand.NewSource(1)))
	b, _ := NewSequential(o, rand.New(rand.NewSource(2)))
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := a.Save(path, map[string]string{"encoder": o.Encoder}); err != nil {
		t.Fatal(err)
	}
	meta, err := b.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if meta["encoder"] != o.Encoder {
		t.Errorf("metadata %v", meta)
	}
	for i, p := range a.Params.List {
		for j := range p.Data {
			if p.Data[j] != b.Params.List[i].Data[j] {
				t.Fatalf("%s[%d] differs after load", p.Name, j)
			}
		}
	}
	o.UnitGaps = true
	c, _ := NewSequential(o, rand.New(rand.NewSource(3)))
	if _, err := c.Load(path); err == nil {
		t.Error("loading into a model with other parameters succeeded")
	}
}
