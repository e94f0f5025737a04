package am

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
// differs, and forward, postdiction and model-info follow it.

const fixedTTildeUsage = "strode: fix every frame's ODE interval to [0, C] frames instead of [0, t~_i = Phi(eps0, e_i)] " +
	"(the constant-t~ ablation); the KL term is then dropped from the loss (with a fixed boundary there is no posterior " +
	"over it to regularise against the prior phi), the Gaussian prior term on h~ stays; C = 0 gives h~ = P e (no ODE step). " +
	"Negative: off (Phi samples t~). Stored in the model"

// FixedBoundary is the fixed t̃ in frames and whether one is set.
func (o Options) FixedBoundary() (float64, bool) {
	if o.FixedTTilde == nil {
		return 0, false
	}
	return *o.FixedTTilde, true
}

func (o Options) validateFixedTTilde() error {
	c, ok := o.FixedBoundary()
	if !ok {
		return nil
	}
	if o.Kind != KindSTRODE {
		return fmt.Errorf("am: --fixed-t-tilde=%g is for --model=strode, this one is %q", c, o.Kind)
	}
	if c < 0 || math.IsNaN(c) || math.IsInf(c, 0) {
		return fmt.Errorf("am: fixed t~ %g must be a finite number of frames ≥ 0", c)
	}
	return nil
}

// fixedTTildeFlag is --fixed-t-tilde=C: C ≥ 0 sets the fixed boundary, a
// negative C clears it.
type fixedTTildeFlag struct{ p **float64 }

func (f fixedTTildeFlag) String() string {
	if f.p == nil || *f.p == nil {
		return "-1"
	}
	return strconv.FormatFloat(**f.p, 'g', -1, 64)
}

func (f fixedTTildeFlag) Set(s string) error {
	c, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number of frames: %w", err)
	}
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return fmt.Errorf("%s is not a finite number of frames", s)
	}
	if c < 0 {
		*f.p = nil
		return nil
	}
	*f.p = &c
	return nil
}

// unusedParams are the tensors a fixed t̃ leaves out of the graph, and so
// untrained: Φ's (phi.*) and φ's (prior.*), and with C = 0 f_o's (ode.0–2;
// ode.proj, P, stays). Empty without a fixed t̃.
func unusedParams(m *Model) map[string]bool {
	c, ok := m.Opts.FixedBoundary()
	if !ok {
		return nil
	}
	prefixes := []string{"phi.", "prior."}
	if c == 0 {
		prefixes = append(prefixes, "ode.0.", "ode.1.", "ode.2.")
	}
	out := map[string]bool{}
	for _, p := range m.Params.List {
		for _, pre := range prefixes {
			if strings.HasPrefix(p.Name, pre) {
				out[p.Name] = true
			}
		}
	}
	return out
}

// Get is the fixed t̃, or −1 when off (flag.Getter: usage shows a float).
func (f fixedTTildeFlag) Get() any {
	if f.p == nil || *f.p == nil {
		return -1.0
	}
	return **f.p
}
