package am

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// TensorShape is one parameter tensor's name and size.
type TensorShape struct {
	Name       string
	Rows, Cols int
}

// Shapes lists the parameter tensors New(o, …) creates, in the same order,
// without allocating them: parameter counts of the paper's sizes (tens of
// millions of values) for `strode model-info --preset=paper` without a
// model. TestShapesMatchModel holds it to New for every kind.
func Shapes(o Options) ([]TensorShape, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	a, err := archOf(o)
	if err != nil {
		return nil, err
	}
	var s shapeList
	a.shapes(o, &s)
	return s.ts, nil
}

// Parts of a model for parameter counts (PartOf).
const (
	PartEncoder = "encoder" // the SRU encoder "sru.*", or the dnn's hidden layers "dnn.*"
	PartHead    = "head"    // strode: Φ, f_o and h(0) = P·e (ode.*, phi.*), and the training-only prior.* and gauss.*
	PartODERNN  = "ode-rnn" // odernn: the ODE-RNN layer (odernn.*, f_o ode.*)
	PartDecoder = "decoder" // odernn: the SRU decoder "dec.*"
	PartOutput  = "output"  // the affine output "out.*" (strode's includes h~ -> logits, out.ode.weight)
)

// PartOf is the part of a kind's model that the named tensor belongs to.
func PartOf(kind, name string) string {
	switch {
	case strings.HasPrefix(name, "sru."), strings.HasPrefix(name, "dnn."):
		return PartEncoder
	case strings.HasPrefix(name, "dec."):
		return PartDecoder
	case strings.HasPrefix(name, "out."):
		return PartOutput
	case kind == KindODERNN:
		return PartODERNN
	default:
		return PartHead
	}
}

// trainingOnly tells the tensors a strode model uses only for its training
// loss (the prior φ and the Gaussian prior's MLP): forward never reads them.
func trainingOnly(name string) bool {
	return strings.HasPrefix(name, "prior.") || strings.HasPrefix(name, "gauss.")
}

// PartCount is the number of parameters of one part of a model.
type PartCount struct {
	Part         string
	Params       int
	TrainingOnly int // of which only the training loss uses (strode's priors)
}

// CountParts sums the tensors' sizes per part, in the order encoder,
// ode-rnn, head, decoder, output (parts without tensors left out).
func CountParts(kind string, ts []TensorShape) []PartCount {
	var out []PartCount
	for _, part := range []string{PartEncoder, PartODERNN, PartHead, PartDecoder, PartOutput} {
		c := PartCount{Part: part}
		for _, t := range ts {
			if PartOf(kind, t.Name) == part {
				c.Params += t.Rows * t.Cols
				if trainingOnly(t.Name) {
					c.TrainingOnly += t.Rows * t.Cols
				}
			}
		}
		if c.Params > 0 {
			out = append(out, c)
		}
	}
	return out
}

// TensorShapes lists the model's parameter tensors.
func (m *Model) TensorShapes() []TensorShape {
	ts := make([]TensorShape, len(m.Params.List))
	for i, p := range m.Params.List {
		ts[i] = TensorShape{p.Name, p.Rows, p.Cols}
	}
	return ts
}

// WriteParts prints the parameter count per part and in total, for people
// (strode model-info).
func WriteParts(w io.Writer, kind string, ts []TensorShape) error {
	bw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	total := 0
	for _, c := range CountParts(kind, ts) {
		note := ""
		if c.TrainingOnly > 0 {
			note = fmt.Sprintf("  (%d of them only in training: prior.*, gauss.*)", c.TrainingOnly)
		}
		fmt.Fprintf(bw, "  %s\t%d\t%s\n", c.Part, c.Params, millions(c.Params)+note)
		total += c.Params
	}
	fmt.Fprintf(bw, "  total\t%d\t%s\n", total, millions(total))
	return bw.Flush()
}

func millions(n int) string { return fmt.Sprintf("%.2f M", float64(n)/1e6) }
