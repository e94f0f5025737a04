package strodehead

import (
	"fmt"
	"math"
	"strconv"
)

// The constant-t̃ ablation asks whether the boundary Φ learns anything that
// a fixed ODE interval would not give: if strode with every t̃ fixed to a
// constant scores as well, the inferred timing adds nothing to the head
// (recipes/fsdd/RESULTS.md measures it). A strode model normally runs the ODE
// of frame i over [0, t̃_i] with t̃_i = Φ(ε0, e_i); with --fixed-t-tilde=C
// every frame's interval is [0, C] frames. Φ then decides nothing, so the
// KL term, which regularises Φ's boundary density against the prior φ, is
// dropped from the loss: with a fixed boundary there is no posterior over
// it. The Gaussian prior term on h̃ stays. C = 0 gives h̃ = P·e exactly (no
// ODE step is built). The model keeps Φ's and φ's tensors, untrained, so
// its file has the layout of every strode model (and C = 0 leaves f_o's
// untrained too): only Options.FixedTTilde, stored with the options,
// differs (Config.Fixed), and forward, postdiction and model-info follow it.

// FixedUsage is --fixed-t-tilde's help.
const FixedUsage = "strode: fix every frame's ODE interval to [0, C] frames instead of [0, t~_i = Phi(eps0, e_i)] " +
	"(the constant-t~ ablation); the KL term is then dropped from the loss (with a fixed boundary there is no posterior " +
	"over it to regularise against the prior phi), the Gaussian prior term on h~ stays; C = 0 gives h~ = P e (no ODE step). " +
	"Negative: off (Phi samples t~). Stored in the model"

// FixedFlag is the flag --fixed-t-tilde=C (Config.Fixed; FixedFlag{&c.Fixed}): C ≥ 0 sets the fixed boundary, a
// negative C clears it.
type FixedFlag struct{ P **float64 }

func (f FixedFlag) String() string {
	if f.P == nil || *f.P == nil {
		return "-1"
	}
	return strconv.FormatFloat(**f.P, 'g', -1, 64)
}

func (f FixedFlag) Set(s string) error {
	c, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number of frames: %w", err)
	}
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return fmt.Errorf("%s is not a finite number of frames", s)
	}
	if c < 0 {
		*f.P = nil
		return nil
	}
	*f.P = &c
	return nil
}

// Get is the fixed t̃, or −1 when off (flag.Getter: usage shows a float).
func (f FixedFlag) Get() any {
	if f.P == nil || *f.P == nil {
		return -1.0
	}
	return **f.P
}
