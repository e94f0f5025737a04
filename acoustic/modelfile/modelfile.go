package modelfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// Data types of the stored values.
const (
	F64 = "F64"
	F32 = "F32"
)

// maxHeader bounds the JSON header (safetensors uses 100 MB).
const maxHeader = 100 << 20

// ErrFormat is wrapped by every error about malformed input.
var ErrFormat = errors.New("modelfile: malformed safetensors data")

// Tensor is one named array. Values are float64 in memory whatever the
// stored DType ("" means F64).
type Tensor struct {
	Name  string
	DType string
	Shape []int
	Data  []float64
}

// File is a set of tensors and string metadata.
type File struct {
	Metadata map[string]string
	Tensors  []Tensor
}

// Get returns the tensor with the given name.
func (f *File) Get(name string) (*Tensor, bool) {
	for i := range f.Tensors {
		if f.Tensors[i].Name == name {
			return &f.Tensors[i], true
		}
	}
	return nil, false
}

type entry struct {
	DType       string `json:"dtype"`
	Shape       []int  `json:"shape"`
	DataOffsets [2]int `json:"data_offsets"`
}

func size(dtype string) int {
	switch dtype {
	case F64:
		return 8
	case F32:
		return 4
	}
	return 0
}

func elems(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Write encodes f in the safetensors format.
func Write(w io.Writer, f *File) error {
	hdr := map[string]any{}
	if len(f.Metadata) > 0 {
		hdr["__metadata__"] = f.Metadata
	}
	var buf []byte
	seen := map[string]bool{}
	for _, t := range f.Tensors {
		if t.Name == "" || t.Name == "__metadata__" || seen[t.Name] {
			return fmt.Errorf("modelfile: bad or duplicate tensor name %q", t.Name)
		}
		seen[t.Name] = true
		dt := t.DType
		if dt == "" {
			dt = F64
		}
		if size(dt) == 0 {
			return fmt.Errorf("modelfile: tensor %s: unsupported dtype %q", t.Name, dt)
		}
		if elems(t.Shape) != len(t.Data) {
			return fmt.Errorf("modelfile: tensor %s: shape %v holds %d values, have %d", t.Name, t.Shape, elems(t.Shape), len(t.Data))
		}
		begin := len(buf)
		for _, v := range t.Data {
			if dt == F64 {
				buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
			} else {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v)))
			}
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		hdr[t.Name] = entry{DType: dt, Shape: shape, DataOffsets: [2]int{begin, len(buf)}}
	}
	js, err := json.Marshal(hdr)
	if err != nil {
		return fmt.Errorf("modelfile: %w", err)
	}
	for len(js)%8 != 0 {
		js = append(js, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	out = append(out, js...)
	out = append(out, buf...)
	_, err = w.Write(out)
	return err
}

// readHeader reads the length-prefixed JSON header; it returns its entries
// and its length in bytes.
func readHeader(r io.Reader) (map[string]json.RawMessage, uint64, error) {
	var lenb [8]byte
	if _, err := io.ReadFull(r, lenb[:]); err != nil {
		return nil, 0, fmt.Errorf("%w: at byte 0: header length: %v", ErrFormat, err)
	}
	n := binary.LittleEndian.Uint64(lenb[:])
	if n > maxHeader {
		return nil, 0, fmt.Errorf("%w: at byte 0: header length %d exceeds %d", ErrFormat, n, maxHeader)
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(r, js); err != nil {
		return nil, 0, fmt.Errorf("%w: at byte 8: header of %d bytes: %v", ErrFormat, n, err)
	}
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&raw); err != nil {
		return nil, 0, fmt.Errorf("%w: at byte %d: header JSON: %v", ErrFormat, 8+dec.InputOffset(), err)
	}
	return raw, n, nil
}

// ReadMetadataFile reads only the metadata of a model file (its header), not
// the tensors: what a report needs from a model of any size.
func ReadMetadataFile(path string) (map[string]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	defer fh.Close()
	raw, _, err := readHeader(bufio.NewReader(fh))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	md := map[string]string{}
	if v, ok := raw["__metadata__"]; ok {
		if err := json.Unmarshal(v, &md); err != nil {
			return nil, fmt.Errorf("%s: %w: at byte 8: __metadata__ is not a map of strings: %v", path, ErrFormat, err)
		}
	}
	return md, nil
}

// Read decodes a safetensors stream; tensors come back in data order.
func Read(r io.Reader) (*File, error) {
	raw, n, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("modelfile: data: %w", err)
	}
	base := 8 + int64(n)
	f := &File{}
	type named struct {
		name string
		e    entry
	}
	var list []named
	for k, v := range raw {
		if k == "__metadata__" {
			if err := json.Unmarshal(v, &f.Metadata); err != nil {
				return nil, fmt.Errorf("%w: at byte 8: __metadata__ is not a map of strings: %v", ErrFormat, err)
			}
			continue
		}
		if k == "" {
			return nil, fmt.Errorf("%w: at byte 8: empty tensor name", ErrFormat)
		}
		var e entry
		d := json.NewDecoder(bytes.NewReader(v))
		d.DisallowUnknownFields()
		if err := d.Decode(&e); err != nil {
			return nil, fmt.Errorf("%w: at byte 8: tensor %q: %v", ErrFormat, k, err)
		}
		list = append(list, named{k, e})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].e.DataOffsets[0] != list[j].e.DataOffsets[0] {
			return list[i].e.DataOffsets[0] < list[j].e.DataOffsets[0]
		}
		return list[i].name < list[j].name
	})
	pos := 0
	for _, t := range list {
		e := t.e
		sz := size(e.DType)
		if sz == 0 {
			return nil, fmt.Errorf("%w: at byte 8: tensor %q: unsupported dtype %q", ErrFormat, t.name, e.DType)
		}
		ne := 1
		for _, d := range e.Shape {
			if d < 0 || (d > 0 && ne > len(data)/d) {
				return nil, fmt.Errorf("%w: at byte 8: tensor %q: bad shape %v", ErrFormat, t.name, e.Shape)
			}
			ne *= d
		}
		b, en := e.DataOffsets[0], e.DataOffsets[1]
		if b != pos || en < b || en > len(data) {
			return nil, fmt.Errorf("%w: at byte %d: tensor %q: data_offsets [%d, %d] not contiguous within the %d-byte buffer",
				ErrFormat, base+int64(b), t.name, b, en, len(data))
		}
		if en-b != ne*sz {
			return nil, fmt.Errorf("%w: at byte %d: tensor %q: %d bytes for shape %v of %s", ErrFormat, base+int64(b), t.name, en-b, e.Shape, e.DType)
		}
		vals := make([]float64, ne)
		for i := range vals {
			if sz == 8 {
				vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[b+8*i:]))
			} else {
				vals[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(data[b+4*i:])))
			}
		}
		f.Tensors = append(f.Tensors, Tensor{Name: t.name, DType: e.DType, Shape: e.Shape, Data: vals})
		pos = en
	}
	if pos != len(data) {
		return nil, fmt.Errorf("%w: at byte %d: %d bytes after the last tensor", ErrFormat, base+int64(pos), len(data)-pos)
	}
	return f, nil
}

// WriteFile writes f to path atomically: a temporary file in the same
// directory, synced, then renamed over path.
func WriteFile(path string, f *File) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return Write(w, f) }); err != nil {
		return fmt.Errorf("modelfile: %w", err)
	}
	return nil
}

// ReadFile reads a model file; errors name the file.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	defer fh.Close()
	f, err := Read(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
