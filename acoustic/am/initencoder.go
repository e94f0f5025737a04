package am

import (
	"errors"
	"fmt"
	"strings"
)

// ErrEncoderMismatch is wrapped by InitEncoder's errors about a model whose
// encoder, input or outputs differ from the one being initialised.
var ErrEncoderMismatch = errors.New("encoder does not match")

// isEncoderParam tells the parameters InitEncoder copies: the SRU stack
// ("sru.*") and the affine output on the encoder ("out.weight",
// "out.bias"); the STRODE head's h̃ → logits weights ("out.ode.weight") are
// the head's own.
func isEncoderParam(name string) bool {
	return strings.HasPrefix(name, "sru.") || name == "out.weight" || name == "out.bias"
}

// InitEncoder copies the SRU encoder and its affine output (e → logits) from
// src, a trained model of either kind with the same encoder sizes, input
// size, pdf count and target delay, and zeroes a STRODE head's h̃ → logits
// weights. m then computes exactly src's logits at first, and training
// m adds the head to an encoder that already classifies: a warm start for
// the STRODE head (`strode train --init-encoder`). The head's other
// parameters keep their initialisation. The head variants start further
// from src: gated's W reads e through a gate σ(G·h̃ + g) that starts near
// ½ per unit (so about half of src's W·e, plus its bias), and where either
// model's head is htilde (whose W reads h̃) only the SRU stack is copied.
func (m *Model) InitEncoder(src *Model) error {
	so, mo := src.Opts, m.Opts
	switch {
	case !hasSRUEncoderOut(so.Kind) || !hasSRUEncoderOut(mo.Kind):
		return fmt.Errorf("%w: --init-encoder takes and starts sru or strode models (the output layer of %s and %s does not read the encoder)", ErrEncoderMismatch, so.Kind, mo.Kind)
	case so.InputDim != mo.InputDim:
		return fmt.Errorf("%w: input dimension %d, want %d", ErrEncoderMismatch, so.InputDim, mo.InputDim)
	case so.NumPdfs != mo.NumPdfs:
		return fmt.Errorf("%w: %d outputs, want %d", ErrEncoderMismatch, so.NumPdfs, mo.NumPdfs)
	case so.TargetDelay != mo.TargetDelay:
		return fmt.Errorf("%w: target delay %d, want %d", ErrEncoderMismatch, so.TargetDelay, mo.TargetDelay)
	}
	// An htilde head's output layer reads h̃, not the encoder: with one on
	// either side only the SRU stack is copied.
	sruOnly := so.HeadVariant == HeadHTilde || mo.HeadVariant == HeadHTilde
	copies := func(name string) bool {
		return isEncoderParam(name) && (!sruOnly || strings.HasPrefix(name, "sru."))
	}
	from := map[string]int{}
	for i, p := range src.Params.List {
		if copies(p.Name) {
			from[p.Name] = i
		}
	}
	copied := 0
	for _, p := range m.Params.List {
		if !copies(p.Name) {
			continue
		}
		i, ok := from[p.Name]
		if !ok {
			return fmt.Errorf("%w: it has no parameter %s (its SRU: %d layers of %d, bidirectional %v; want %d of %d, bidirectional %v)",
				ErrEncoderMismatch, p.Name, so.SRU.Layers, so.SRU.Hidden, so.SRU.Bidirectional, mo.SRU.Layers, mo.SRU.Hidden, mo.SRU.Bidirectional)
		}
		q := src.Params.List[i]
		if q.Rows != p.Rows || q.Cols != p.Cols {
			return fmt.Errorf("%w: parameter %s is %d×%d, want %d×%d", ErrEncoderMismatch, p.Name, q.Rows, q.Cols, p.Rows, p.Cols)
		}
		copy(p.Data, q.Data)
		copied++
	}
	if copied != len(from) {
		return fmt.Errorf("%w: it has %d encoder parameters, this model %d (its SRU: %d layers of %d; want %d of %d)",
			ErrEncoderMismatch, len(from), copied, so.SRU.Layers, so.SRU.Hidden, mo.SRU.Layers, mo.SRU.Hidden)
	}
	if a, ok := m.arch.(*strodeArch); ok && a.head.OutH != nil {
		clear(a.head.OutH.Data)
	}
	return nil
}

// hasSRUEncoderOut tells the kinds whose output layer "out" reads the SRU
// encoder "sru" (odernn's reads its decoder, dnn has no SRU).
func hasSRUEncoderOut(kind string) bool { return kind == KindSRU || kind == KindSTRODE }
