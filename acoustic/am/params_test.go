package am

import (
	"fmt"
	"testing"
)

// TestShapesMatchModel: Shapes lists exactly the tensors New creates
// (names, order, sizes) for every kind and the options that change them,
// and CountParts puts every one of them in a part.
func TestShapesMatchModel(t *testing.T) {
	type edit func(*Options)
	cases := map[string]edit{
		"sru":               func(o *Options) { o.Kind = KindSRU },
		"sru-bidirectional": func(o *Options) { o.Kind, o.SRU.Bidirectional = KindSRU, true },
		"strode-nonpos":     func(o *Options) { o.Kind, o.PhiZ = KindSTRODE, PhiZNonPos },
		"strode-free":       func(o *Options) { o.Kind, o.PhiZ = KindSTRODE, PhiZFree },
		"strode-old-file":   func(o *Options) { o.Kind, o.PhiZ, o.HeadVariant = KindSTRODE, "", "" },
		"strode-htilde":     func(o *Options) { o.Kind, o.HeadVariant = KindSTRODE, HeadHTilde },
		"strode-gated":      func(o *Options) { o.Kind, o.HeadVariant, o.PhiZ = KindSTRODE, HeadGated, PhiZFree },
		"strode-bidir-k3":   func(o *Options) { o.Kind, o.SRU.Bidirectional, o.InputDim = KindSTRODE, true, 2*o.SRU.Hidden },
		"odernn":            func(o *Options) { o.Kind, o.SRU.Layers, o.DecoderLayers = KindODERNN, 2, 3 },
		"odernn-bidir":      func(o *Options) { o.Kind, o.SRU.Bidirectional, o.DecoderLayers = KindODERNN, true, 2 },
		"odernn-k3-input":   func(o *Options) { o.Kind, o.InputDim, o.DecoderLayers = KindODERNN, o.SRU.Hidden, 1 },
		"dnn-sigmoid":       func(o *Options) { o.Kind, o.DNNLayers, o.DNNHidden, o.DNNActivation = KindDNN, 3, 7, DNNSigmoid },
		"dnn-relu":          func(o *Options) { o.Kind, o.DNNLayers, o.DNNHidden, o.DNNActivation = KindDNN, 1, 9, DNNReLU },
		"dnn-logistic":      func(o *Options) { o.Kind, o.DNNLayers, o.DNNHidden, o.DNNActivation = KindDNN, 0, 9, DNNSigmoid },
	}
	for name, ed := range cases {
		t.Run(name, func(t *testing.T) {
			o := tinyOptions(KindSTRODE)
			o.DecoderLayers, o.DNNLayers, o.DNNHidden, o.DNNActivation = 1, 1, 4, DNNSigmoid
			o.InputDim, o.NumPdfs = 5, 6
			ed(&o)
			m, err := New(o, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Shapes(o)
			if err != nil {
				t.Fatal(err)
			}
			want := m.TensorShapes()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("Shapes:\n%v\nNew:\n%v", got, want)
			}
			sum := 0
			for _, c := range CountParts(o.Kind, got) {
				sum += c.Params
			}
			if sum != m.NumParams() {
				t.Errorf("parts sum to %d, the model has %d parameters", sum, m.NumParams())
			}
		})
	}
}
