package sru

import (
	"math"
	"runtime"
	"sync"
)

// Activation names the cell activation g.
const (
	Identity = "identity"
	Tanh     = "tanh"
)

// Shape is the geometry of one fused recurrence: T frames × B utterances ×
// H hidden units, with K = 3 input products per unit (x′ = x) or K = 4 (x′ =
// the highway projection U3).
type Shape struct {
	T, B, H, K int
	Tanh       bool // g = tanh instead of the identity
}

// N is the number of rows, T·B.
func (s Shape) N() int { return s.T * s.B }

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Forward runs the recurrence. u is N×(K·H) laid out [U0 | U1 | U2 | (U3)]
// per row, x is N×H (ignored when K = 4), wc = [v_f | v_r] and bias =
// [b_f | b_r] are 1×2H, mask is N values (0: padded frame). It writes h
// (N×H) and, when c is not nil, the cell states c (N×H).
func (s Shape) Forward(u, x, wc, bias, mask, h, c []float64) {
	s.parallel(func(_, b0, b1 int) {
		for b := b0; b < b1; b++ {
			s.forwardOne(b, u, x, wc, bias, mask, h, c)
		}
	})
}

func (s Shape) forwardOne(b int, u, x, wc, bias, mask, h, c []float64) {
	H, K := s.H, s.K
	vf, vr := wc[:H], wc[H:2*H]
	bf, br := bias[:H], bias[H:2*H]
	cp := make([]float64, H) // c_{t−1}, starts at 0
	for t := 0; t < s.T; t++ {
		r := t*s.B + b
		hr := h[r*H : (r+1)*H]
		if mask[r] == 0 {
			clear(hr)
			if c != nil {
				copy(c[r*H:(r+1)*H], cp)
			}
			continue
		}
		ur := u[r*K*H : (r+1)*K*H]
		var xr []float64
		if K == 4 {
			xr = ur[3*H : 4*H]
		} else {
			xr = x[r*H : (r+1)*H]
		}
		for j := 0; j < H; j++ {
			f := sigmoid(ur[H+j] + vf[j]*cp[j] + bf[j])
			rr := sigmoid(ur[2*H+j] + vr[j]*cp[j] + br[j])
			cj := f*cp[j] + (1-f)*ur[j]
			g := cj
			if s.Tanh {
				g = math.Tanh(cj)
			}
			hr[j] = rr*g + (1-rr)*xr[j]
			cp[j] = cj
		}
		if c != nil {
			copy(c[r*H:(r+1)*H], cp)
		}
	}
}

// Backward is the reverse pass: given dh = ∂L/∂h (N×H) it writes du
// (N×K·H), dx (N×H, nil when K = 4: the gradient of x′ then goes into du's
// U3 block), and accumulates into dwc and dbias (1×2H, which it zeroes
// first). It recomputes the cell states from the inputs.
func (s Shape) Backward(u, x, wc, bias, mask, dh, du, dx, dwc, dbias []float64) {
	H := s.H
	clear(dwc)
	clear(dbias)
	// Per-utterance parameter gradients, summed in utterance order: the
	// result is bitwise the same for any number of cores.
	gwc := make([]float64, s.B*2*H)
	gb := make([]float64, s.B*2*H)
	s.parallel(func(_, b0, b1 int) {
		c := make([]float64, s.T*H)
		for b := b0; b < b1; b++ {
			s.backwardOne(b, u, x, wc, bias, mask, dh, du, dx, gwc[b*2*H:(b+1)*2*H], gb[b*2*H:(b+1)*2*H], c)
		}
	})
	for b := 0; b < s.B; b++ {
		for j := range dwc {
			dwc[j] += gwc[b*2*H+j]
			dbias[j] += gb[b*2*H+j]
		}
	}
}

// workers is the number of goroutines parallel uses: the utterances of
// the batch are split over the available cores.
func (s Shape) workers() int {
	w := runtime.GOMAXPROCS(0)
	if w > s.B {
		w = s.B
	}
	if w < 1 || s.N()*s.H < 1<<14 {
		w = 1
	}
	return w
}

// parallel calls fn(worker, b0, b1) for a split of the utterances; each
// utterance is computed by one worker, in a fixed order.
func (s Shape) parallel(fn func(i, b0, b1 int)) {
	w := s.workers()
	if w == 1 {
		fn(0, 0, s.B)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		b0, b1 := i*s.B/w, (i+1)*s.B/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i, b0, b1)
		}()
	}
	wg.Wait()
}

// backwardOne handles utterance b; c is T×H scratch for its cell states,
// gwc and gb its 2H parameter gradients.
func (s Shape) backwardOne(b int, u, x, wc, bias, mask, dh, du, dx, gwc, gb, c []float64) {
	H, K := s.H, s.K
	vf, vr := wc[:H], wc[H:2*H]
	bf, br := bias[:H], bias[H:2*H]
	// Recompute c_t for this utterance (row t of c).
	cp := make([]float64, H)
	for t := 0; t < s.T; t++ {
		r := t*s.B + b
		if mask[r] != 0 {
			ur := u[r*K*H : (r+1)*K*H]
			for j := 0; j < H; j++ {
				f := sigmoid(ur[H+j] + vf[j]*cp[j] + bf[j])
				cp[j] = f*cp[j] + (1-f)*ur[j]
			}
		}
		copy(c[t*H:(t+1)*H], cp)
	}
	dc := make([]float64, H) // ∂L/∂c_t flowing back from frame t+1
	zero := make([]float64, H)
	for t := s.T - 1; t >= 0; t-- {
		r := t*s.B + b
		dur := du[r*K*H : (r+1)*K*H]
		if mask[r] == 0 {
			// c_t = c_{t−1}: the carried gradient passes through unchanged.
			clear(dur)
			if dx != nil {
				clear(dx[r*H : (r+1)*H])
			}
			continue
		}
		ur := u[r*K*H : (r+1)*K*H]
		var xr, dxr []float64
		if K == 4 {
			xr, dxr = ur[3*H:4*H], dur[3*H:4*H]
		} else {
			xr, dxr = x[r*H:(r+1)*H], dx[r*H:(r+1)*H]
		}
		prev := zero
		if t > 0 {
			prev = c[(t-1)*H : t*H]
		}
		ct := c[t*H : (t+1)*H]
		dhr := dh[r*H : (r+1)*H]
		for j := 0; j < H; j++ {
			cpj := prev[j]
			f := sigmoid(ur[H+j] + vf[j]*cpj + bf[j])
			rr := sigmoid(ur[2*H+j] + vr[j]*cpj + br[j])
			g, dg := ct[j], 1.0
			if s.Tanh {
				g = math.Tanh(ct[j])
				dg = 1 - g*g
			}
			d := dhr[j]
			dcj := dc[j] + d*rr*dg
			dxr[j] = d * (1 - rr)
			zr := d * (g - xr[j]) * rr * (1 - rr)
			zf := dcj * (cpj - ur[j]) * f * (1 - f)
			dur[j] = dcj * (1 - f)
			dur[H+j] = zf
			dur[2*H+j] = zr
			gwc[j] += zf * cpj
			gwc[H+j] += zr * cpj
			gb[j] += zf
			gb[H+j] += zr
			dc[j] = dcj*f + zf*vf[j] + zr*vr[j]
		}
	}
}
