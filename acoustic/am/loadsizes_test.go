package am

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadRefusesOversizedOptions: every number in a saved model's header
// made 10⁴ times larger (the header length kept consistent) must give an
// error or a loadable model, never an allocation of the inflated size. A
// hidden size of 49999 in a 6 KB file used to run FuzzLoad out of memory.
func TestLoadRefusesOversizedOptions(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range []string{KindSRU, KindSTRODE, KindODERNN, KindDNN} {
		m, err := New(tinyOptions(kind), 1)
		if err != nil {
			t.Fatal(err)
		}
		good := filepath.Join(dir, "good.am")
		if err := (&File{Model: m, Pipeline: Pipeline{RawDim: 3, CMVN: CMVNNone}, History: []Epoch{{Epoch: 1}}}).Save(good); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(good)
		if err != nil {
			t.Fatal(err)
		}
		hl := int(binary.LittleEndian.Uint64(b))
		refused := 0
		for i := 8; i < 8+hl; i++ {
			if b[i] < '0' || b[i] > '9' {
				continue
			}
			c := append(append(append([]byte(nil), b[:i+1]...), "9999"...), b[i+1:]...)
			binary.LittleEndian.PutUint64(c, uint64(hl+4))
			p := filepath.Join(dir, "inflated.am")
			if err := os.WriteFile(p, c, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(p); err != nil && strings.Contains(err.Error(), "larger than every stored tensor") {
				refused++
			}
		}
		if refused == 0 {
			t.Errorf("%s: no inflated size was refused by the size check", kind)
		}
	}
}
