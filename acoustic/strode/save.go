package strode

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/modelfile"
)

// Save writes every parameter of the model (F64, shape [rows, cols], in the
// order of m.Params.List) and the metadata to a safetensors model file,
// atomically.
func (m *Sequential) Save(path string, meta map[string]string) error {
	f := &modelfile.File{Metadata: meta}
	for _, p := range m.Params.List {
		f.Tensors = append(f.Tensors, modelfile.Tensor{Name: p.Name, DType: modelfile.F64,
			Shape: []int{p.Rows, p.Cols}, Data: p.Data})
	}
	return modelfile.WriteFile(path, f)
}

// Load reads parameter values saved by Save into m (which must have been
// built with the same options) and returns the file's metadata. Every
// parameter must be present with its shape, and sign-constrained values
// must lie in their sign set.
func (m *Sequential) Load(path string) (map[string]string, error) {
	f, err := modelfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for _, p := range m.Params.List {
		t, ok := f.Get(p.Name)
		if !ok {
			return nil, fmt.Errorf("%s: no tensor %q", path, p.Name)
		}
		if len(t.Shape) != 2 || t.Shape[0] != p.Rows || t.Shape[1] != p.Cols {
			return nil, fmt.Errorf("%s: tensor %q has shape %v, model wants [%d %d]", path, p.Name, t.Shape, p.Rows, p.Cols)
		}
		copy(p.Data, t.Data)
		if !p.InSignSet() {
			return nil, fmt.Errorf("%s: tensor %q leaves its sign set", path, p.Name)
		}
	}
	if len(f.Tensors) != len(m.Params.List) {
		return nil, fmt.Errorf("%s: %d tensors, model has %d parameters", path, len(f.Tensors), len(m.Params.List))
	}
	return f.Metadata, nil
}
