package seqvideo

import (
	"encoding/json"
	"fmt"

	"github.com/strode-asr/strode/acoustic/modelfile"
)

// normName is the prefix of a BatchNorm's tensors: its γ's name without
// ".weight" ("enc.1.bn").
func normName(n *Norm) string { return n.Gamma.Name[:len(n.Gamma.Name)-len(".weight")] }

// Save writes every parameter and every BatchNorm's running statistics
// (NAME.running_mean, NAME.running_var, NAME.num_batches_tracked) with the
// options (metadata "options", JSON) and meta to a safetensors file,
// atomically.
func (m *Model) Save(path string, meta map[string]string) error {
	md := map[string]string{}
	for k, v := range meta {
		md[k] = v
	}
	js, err := json.Marshal(m.Opts)
	if err != nil {
		return fmt.Errorf("seqvideo: %s: %w", path, err)
	}
	md["options"] = string(js)
	f := &modelfile.File{Metadata: md}
	for _, p := range m.Params.List {
		f.Tensors = append(f.Tensors, modelfile.Tensor{Name: p.Name, DType: modelfile.F64, Shape: []int{p.Rows, p.Cols}, Data: p.Data})
	}
	for _, n := range m.Norms() {
		mean, variance, count := n.State.Stats()
		c := len(mean)
		name := normName(n)
		f.Tensors = append(f.Tensors,
			modelfile.Tensor{Name: name + ".running_mean", DType: modelfile.F64, Shape: []int{1, c}, Data: mean},
			modelfile.Tensor{Name: name + ".running_var", DType: modelfile.F64, Shape: []int{1, c}, Data: variance},
			modelfile.Tensor{Name: name + ".num_batches_tracked", DType: modelfile.F64, Shape: []int{1, 1}, Data: []float64{float64(count)}})
	}
	return modelfile.WriteFile(path, f)
}

// Load reads a file written by Save into m, which must have been built with
// the same options; it returns the file's metadata.
func (m *Model) Load(path string) (map[string]string, error) {
	f, err := modelfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	get := func(name string, rows, cols int) ([]float64, error) {
		t, ok := f.Get(name)
		if !ok {
			return nil, fmt.Errorf("%s: no tensor %q", path, name)
		}
		if len(t.Shape) != 2 || t.Shape[0] != rows || t.Shape[1] != cols {
			return nil, fmt.Errorf("%s: tensor %q has shape %v, model wants [%d %d]", path, name, t.Shape, rows, cols)
		}
		return t.Data, nil
	}
	want := len(m.Params.List)
	for _, p := range m.Params.List {
		d, err := get(p.Name, p.Rows, p.Cols)
		if err != nil {
			return nil, err
		}
		copy(p.Data, d)
		if !p.InSignSet() {
			return nil, fmt.Errorf("%s: tensor %q leaves its sign set", path, p.Name)
		}
	}
	for _, n := range m.Norms() {
		name, c := normName(n), n.State.Channels
		mean, err := get(name+".running_mean", 1, c)
		if err != nil {
			return nil, err
		}
		variance, err := get(name+".running_var", 1, c)
		if err != nil {
			return nil, err
		}
		count, err := get(name+".num_batches_tracked", 1, 1)
		if err != nil {
			return nil, err
		}
		if err := n.State.SetStats(mean, variance, int64(count[0])); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, name, err)
		}
		want += 3
	}
	if len(f.Tensors) != want {
		return nil, fmt.Errorf("%s: %d tensors, model has %d", path, len(f.Tensors), want)
	}
	return f.Metadata, nil
}

// Snapshot is a copy of a model's parameters and BatchNorm statistics, to
// go back to the best epoch.
type Snapshot struct {
	params      [][]float64
	means, vars [][]float64
	counts      []int64
}

// Snapshot copies the model's current state.
func (m *Model) Snapshot() *Snapshot {
	s := &Snapshot{}
	for _, p := range m.Params.List {
		s.params = append(s.params, append([]float64(nil), p.Data...))
	}
	for _, n := range m.Norms() {
		mean, variance, count := n.State.Stats()
		s.means, s.vars, s.counts = append(s.means, mean), append(s.vars, variance), append(s.counts, count)
	}
	return s
}

// Restore puts a snapshot of this model back.
func (m *Model) Restore(s *Snapshot) {
	for i, p := range m.Params.List {
		copy(p.Data, s.params[i])
	}
	for i, n := range m.Norms() {
		_ = n.State.SetStats(s.means[i], s.vars[i], s.counts[i]) // same shapes: taken from this model
	}
}
