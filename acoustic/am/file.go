package am

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/strode-asr/strode/acoustic/modelfile"
)

// FormatVersion names the model-file layout in the metadata key "format".
const FormatVersion = "strode-am/1"

// Epoch is one line of the training history.
type Epoch struct {
	Epoch        int        `json:"epoch"`
	LearningRate float64    `json:"learning_rate"`
	TrainCE      float64    `json:"train_ce"`
	TrainAcc     float64    `json:"train_acc"`
	ValidCE      float64    `json:"valid_ce"`
	ValidAcc     float64    `json:"valid_acc"`
	TrainKL      float64    `json:"train_kl,omitempty"`
	TrainLogP    float64    `json:"train_logp,omitempty"`
	ValidTTilde  [4]float64 `json:"valid_t_tilde,omitempty"` // held-out t̃: mean, std, min, max (strode)
	FramesPerSec float64    `json:"frames_per_s"`
	Seconds      float64    `json:"seconds"`
	Accepted     bool       `json:"accepted"`
}

// File is a model with what was recorded about it. On disk it is a
// safetensors file: every parameter as an F64 tensor [rows, cols] under its
// name (sru.L.weight, sru.L.weight_c, sru.L.bias, out.weight, out.bias and,
// for "strode", the head's ode.*, phi.*, prior.*, gauss.* and
// out.ode.weight), and the metadata keys
//
//	format    "strode-am/1"
//	options   the Options as JSON (kind, sizes, weights of the loss terms)
//	pipeline  the Pipeline as JSON (raw feature dimension, CMVN, splicing)
//	num_pdfs  the output dimension
//	history   the training history as a JSON list of Epoch
//
// Checkpoints add tensors under "optim." and "best." and the key "trainer".
type File struct {
	Model    *Model
	Pipeline Pipeline
	History  []Epoch
	Extra    map[string]string  // other metadata (checkpoints)
	Tensors  []modelfile.Tensor // other tensors (checkpoints)
}

// Save writes f atomically.
func (f *File) Save(path string) error {
	m := f.Model
	hist, _ := json.Marshal(f.History)
	meta := map[string]string{
		"format":   FormatVersion,
		"options":  m.Opts.JSON(),
		"pipeline": f.Pipeline.JSON(),
		"num_pdfs": strconv.Itoa(m.Opts.NumPdfs),
		"history":  string(hist),
	}
	for k, v := range f.Extra {
		meta[k] = v
	}
	mf := &modelfile.File{Metadata: meta}
	for _, p := range m.Params.List {
		mf.Tensors = append(mf.Tensors, modelfile.Tensor{Name: p.Name, DType: modelfile.F64, Shape: []int{p.Rows, p.Cols}, Data: p.Data})
	}
	mf.Tensors = append(mf.Tensors, f.Tensors...)
	return modelfile.WriteFile(path, mf)
}

// Load reads a model file written by Save (extra tensors and metadata are
// kept in Tensors and Extra).
func Load(path string) (*File, error) {
	mf, err := modelfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	md := mf.Metadata
	if md["format"] != FormatVersion {
		return nil, fmt.Errorf("%s: not a strode acoustic model (format %q, want %q)", path, md["format"], FormatVersion)
	}
	var o Options
	if err := json.Unmarshal([]byte(md["options"]), &o); err != nil {
		return nil, fmt.Errorf("%s: options: %w", path, err)
	}
	f := &File{Extra: map[string]string{}}
	if err := json.Unmarshal([]byte(md["pipeline"]), &f.Pipeline); err != nil {
		return nil, fmt.Errorf("%s: pipeline: %w", path, err)
	}
	if h := md["history"]; h != "" && h != "null" {
		if err := json.Unmarshal([]byte(h), &f.History); err != nil {
			return nil, fmt.Errorf("%s: history: %w", path, err)
		}
	}
	if n, err := strconv.Atoi(md["num_pdfs"]); err != nil || n != o.NumPdfs {
		return nil, fmt.Errorf("%s: num_pdfs %q disagrees with the options (%d)", path, md["num_pdfs"], o.NumPdfs)
	}
	if f.Pipeline.InputDim() != o.InputDim {
		return nil, fmt.Errorf("%s: the feature pipeline gives dimension %d, the model takes %d", path, f.Pipeline.InputDim(), o.InputDim)
	}
	if err := checkSizes(o, mf.Tensors); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Model, err = New(o, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	known := map[string]bool{}
	for _, p := range f.Model.Params.List {
		known[p.Name] = true
		t, ok := mf.Get(p.Name)
		if !ok {
			return nil, fmt.Errorf("%s: no tensor %q", path, p.Name)
		}
		if len(t.Shape) != 2 || t.Shape[0] != p.Rows || t.Shape[1] != p.Cols {
			return nil, fmt.Errorf("%s: tensor %q has shape %v, the model wants [%d %d]", path, p.Name, t.Shape, p.Rows, p.Cols)
		}
		copy(p.Data, t.Data)
		if !p.InSignSet() {
			return nil, fmt.Errorf("%s: tensor %q leaves its sign set", path, p.Name)
		}
	}
	for _, t := range mf.Tensors {
		if !known[t.Name] {
			f.Tensors = append(f.Tensors, t)
		}
	}
	for k, v := range md {
		switch k {
		case "format", "options", "pipeline", "num_pdfs", "history":
		default:
			f.Extra[k] = v
		}
	}
	return f, nil
}

// Tensor returns the extra tensor with the given name.
func (f *File) Tensor(name string) (*modelfile.Tensor, bool) {
	for i := range f.Tensors {
		if f.Tensors[i].Name == name {
			return &f.Tensors[i], true
		}
	}
	return nil, false
}

// checkSizes refuses options whose sizes the stored tensors cannot hold,
// before New allocates them: every size of a saved model is at most some
// stored tensor's dimension, and every layer has tensors of its own. Without
// it a corrupt options string in a small file (hidden 49999, found by
// FuzzLoad) made Load allocate until the process ran out of memory.
func checkSizes(o Options, tensors []modelfile.Tensor) error {
	largest := 0
	for _, t := range tensors {
		for _, d := range t.Shape {
			largest = max(largest, d)
		}
	}
	a, err := archOf(o)
	if err != nil {
		return err
	}
	sizes, layers := a.limits(o)
	sizes = append([]namedSize{{"input_dim", o.InputDim}, {"num_pdfs", o.NumPdfs}}, sizes...)
	for _, s := range sizes {
		if s.v > largest {
			return fmt.Errorf("options: %s %d is larger than every stored tensor (largest dimension %d)", s.name, s.v, largest)
		}
	}
	for _, l := range layers {
		if l.v > len(tensors) {
			return fmt.Errorf("options: %d %s, but only %d tensors are stored", l.v, l.name, len(tensors))
		}
	}
	return nil
}
