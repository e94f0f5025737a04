package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sample() *File {
	return &File{
		Metadata: map[string]string{"format": "strode", "opts": `{"a":1}`},
		Tensors: []Tensor{
			{Name: "w", Shape: []int{2, 3}, Data: []float64{1, -2, 3.5, 0, 1e-300, -7}},
			{Name: "b", DType: F32, Shape: []int{3}, Data: []float64{0.5, 0.25, -1}},
			{Name: "s", Shape: []int{}, Data: []float64{42}},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.safetensors")
	if err := WriteFile(path, sample()); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Metadata["opts"] != `{"a":1}` || len(got.Tensors) != 3 {
		t.Fatalf("got %+v", got)
	}
	for _, want := range sample().Tensors {
		g, ok := got.Get(want.Name)
		if !ok {
			t.Fatalf("missing %s", want.Name)
		}
		for i := range want.Data {
			if g.Data[i] != want.Data[i] {
				t.Errorf("%s[%d] = %v, want %v", want.Name, i, g.Data[i], want.Data[i])
			}
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	// Layout: header length is a multiple of 8 and the JSON names dtypes.
	raw, _ := os.ReadFile(path)
	n := binary.LittleEndian.Uint64(raw)
	if n%8 != 0 || !strings.Contains(string(raw[8:8+n]), `"dtype":"F32"`) {
		t.Errorf("header %q", raw[8:8+n])
	}
}

// TestSpecBytes reads bytes laid out by hand from the safetensors
// specification (no safetensors implementation is installed offline): the
// header without padding, tensors listed out of data order, F32 and F64.
func TestSpecBytes(t *testing.T) {
	js := `{"b":{"dtype":"F64","shape":[1],"data_offsets":[8,16]},"__metadata__":{"k":"v"},"a":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}}`
	raw := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	raw = append(raw, js...)
	raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(1))
	raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(2))
	raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(3))
	f, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.Get("a")
	b, _ := f.Get("b")
	if a == nil || b == nil || a.Data[1] != 2 || b.Data[0] != 3 || f.Metadata["k"] != "v" || f.Tensors[0].Name != "a" {
		t.Errorf("got %+v", f)
	}
}

func TestMalformed(t *testing.T) {
	var good bytes.Buffer
	if err := Write(&good, sample()); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	hdr := func(js string, data int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
		return append(append(b, js...), make([]byte, data)...)
	}
	cases := map[string][]byte{
		"empty":        nil,
		"short header": g[:20],
		"truncated":    g[:len(g)-3],
		"extra bytes":  append(append([]byte(nil), g...), 0),
		"huge header":  binary.LittleEndian.AppendUint64(nil, 1<<40),
		"bad json":     hdr("{nope", 0),
		"bad dtype":    hdr(`{"x":{"dtype":"I8","shape":[1],"data_offsets":[0,1]}}`, 1),
		"bad shape":    hdr(`{"x":{"dtype":"F64","shape":[2],"data_offsets":[0,8]}}`, 8),
		"neg shape":    hdr(`{"x":{"dtype":"F64","shape":[-1],"data_offsets":[0,8]}}`, 8),
		"gap":          hdr(`{"x":{"dtype":"F64","shape":[1],"data_offsets":[8,16]}}`, 16),
		"overlap":      hdr(`{"x":{"dtype":"F64","shape":[1],"data_offsets":[0,8]},"y":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}}`, 8),
		"bad metadata": hdr(`{"__metadata__":{"k":1}}`, 0),
		"unknown key":  hdr(`{"x":{"dtype":"F64","shape":[1],"data_offsets":[0,8],"z":1}}`, 8),
	}
	for name, b := range cases {
		_, err := Read(bytes.NewReader(b))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if name != "empty" && !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v does not wrap ErrFormat", name, err)
		}
		if !strings.Contains(err.Error(), "byte") {
			t.Errorf("%s: error without a byte offset: %v", name, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	var good bytes.Buffer
	Write(&good, sample())
	f.Add(good.Bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, m); err != nil {
			t.Fatalf("re-write of a parsed file failed: %v", err)
		}
		if _, err := Read(&out); err != nil {
			t.Fatalf("re-read failed: %v", err)
		}
	})
}
