package lattice

import (
	"errors"
	"flag"
)

// ScaleOptions are lattice-scale's options: the scales of the acoustic and
// graph (LM) costs and how much of each goes into the other.
type ScaleOptions struct {
	AcousticScale    float64 // --acoustic-scale
	InvAcousticScale float64 // --inv-acoustic-scale: the acoustic scale's inverse, another way to set it
	LMScale          float64 // --lm-scale
	Acoustic2LMScale float64 // --acoustic2lm-scale: added to the LM cost, times the acoustic cost
	LM2AcousticScale float64 // --lm2acoustic-scale: added to the acoustic cost, times the LM cost
}

// DefaultScaleOptions leave the costs as they are.
func DefaultScaleOptions() ScaleOptions {
	return ScaleOptions{AcousticScale: 1, InvAcousticScale: 1, LMScale: 1}
}

// Register adds the options to fs under Kaldi's names.
func (o *ScaleOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "Scaling factor for acoustic likelihoods")
	fs.Float64Var(&o.InvAcousticScale, "inv-acoustic-scale", o.InvAcousticScale, "An alternative way of setting the acoustic scale: you can set its inverse.")
	fs.Float64Var(&o.LMScale, "lm-scale", o.LMScale, "Scaling factor for graph/lm costs")
	fs.Float64Var(&o.Acoustic2LMScale, "acoustic2lm-scale", o.Acoustic2LMScale, "Add this times original acoustic costs to LM costs")
	fs.Float64Var(&o.LM2AcousticScale, "lm2acoustic-scale", o.LM2AcousticScale, "Add this times original LM costs to acoustic costs")
}

// Validate refuses an acoustic scale set both ways.
func (o *ScaleOptions) Validate() error {
	if o.AcousticScale != 1 && o.InvAcousticScale != 1 {
		return errors.New("Only one of --acoustic-scale and --inv-acoustic-scale may be set")
	}
	return nil
}

// Matrix is the scale matrix CompactLattice.Scale takes: rows graph and
// acoustic, columns the same. Kaldi's options are BaseFloat and its matrix
// double, so each scale is rounded to float32 first.
func (o *ScaleOptions) Matrix() [2][2]float64 {
	acoustic := float32(o.AcousticScale)
	if o.InvAcousticScale != 1 {
		acoustic = float32(1 / float32(o.InvAcousticScale))
	}
	return [2][2]float64{
		{float64(float32(o.LMScale)), float64(float32(o.Acoustic2LMScale))},
		{float64(float32(o.LM2AcousticScale)), float64(acoustic)},
	}
}
