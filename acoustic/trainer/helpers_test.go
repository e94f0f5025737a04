package trainer

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/features"
)

func tinyOptions(kind string) am.Options {
	o, _ := am.PresetFor("small", kind)
	o.SRU = sru.Options{Hidden: 4, Layers: 2, Activation: sru.Identity}
	o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 3, 4, 4, 4
	o.InputDim, o.NumPdfs = 3, 5
	switch kind {
	case am.KindODERNN:
		o.SRU.Layers, o.DecoderLayers, o.ODE.Steps = 1, 2, 3
	case am.KindDNN:
		o.DNNLayers, o.DNNHidden = 2, 4
	}
	return o
}

func tinyBatch(rng *rand.Rand, o am.Options, lengths []int) []*am.Utterance {
	var us []*am.Utterance
	for i, l := range lengths {
		u := &am.Utterance{Key: string(rune('a' + i)), Rows: l, Feats: make([]float32, l*o.InputDim), Targets: make([]int32, l)}
		for j := range u.Feats {
			u.Feats[j] = float32(rng.NormFloat64())
		}
		for j := range u.Targets {
			u.Targets[j] = int32(rng.Intn(o.NumPdfs))
		}
		us = append(us, u)
	}
	return us
}

// unspliced returns copies of us with the raw frames of dimension raw and
// Context {left, right}, and the same utterances spliced as the feature
// pipeline splices them.
func unspliced(t *testing.T, rng *rand.Rand, lengths []int, raw, left, right, pdfs int) (rawUtts, splicedUtts []*am.Utterance) {
	t.Helper()
	for i, l := range lengths {
		u := &am.Utterance{Key: string(rune('a' + i)), Rows: l, Feats: make([]float32, l*raw), Targets: make([]int32, l), Context: [2]int{left, right}}
		for j := range u.Feats {
			u.Feats[j] = float32(rng.NormFloat64())
		}
		for j := range u.Targets {
			u.Targets[j] = int32(rng.Intn(pdfs))
		}
		f, err := features.SpliceFrames(u.Feats, l, raw, left, right)
		if err != nil {
			t.Fatal(err)
		}
		rawUtts = append(rawUtts, u)
		splicedUtts = append(splicedUtts, &am.Utterance{Key: u.Key, Rows: l, Feats: f, Targets: u.Targets})
	}
	return rawUtts, splicedUtts
}
