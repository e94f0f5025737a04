package sru

import (
	"math"
	"runtime"
	"sync"
)

// The float32 recurrence of the fused stack. Unlike the float64 Forward and
// Backward it keeps the gates: the forward pass stores c, f and r (N×H
// each) and the backward pass reads them instead of recomputing, as
// PyTorch's autograd does. Work is split over hidden units, not
// utterances: every (utterance, unit) chain is independent, so a split by
// units balances for any batch size, and each parameter-gradient entry is
// summed by one worker in a fixed order (t descending, then b), so results
// are bitwise the same for any number of cores.

// unitChunks calls fn(j0, j1) for a split of the H units over the cores.
func (s Shape) unitChunks(fn func(j0, j1 int)) {
	w := runtime.GOMAXPROCS(0)
	if s.N()*s.H < 1<<14 {
		w = 1
	}
	chunk := (s.H + w - 1) / w
	chunk = (chunk + 15) &^ 15 // whole cache lines per worker
	if chunk >= s.H {
		fn(0, s.H)
		return
	}
	var wg sync.WaitGroup
	for j0 := 0; j0 < s.H; j0 += chunk {
		j1 := min(j0+chunk, s.H)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(j0, j1)
		}()
	}
	wg.Wait()
}

// forward32 runs the recurrence: u is N×(K·H), x is N×H (unused when K =
// 4), wc = [v_f | v_r] and bias = [b_f | b_r] are 2H, mask N values. It
// writes h, c, f and r (N×H); f and r are left as they were on padded rows.
func (s Shape) forward32(u, x, wc, bias []float32, mask []float64, h, c, f, r []float32) {
	H, K, B := s.H, s.K, s.B
	s.unitChunks(func(j0, j1 int) {
		n := j1 - j0
		vf, vr := wc[j0:j1], wc[H+j0:H+j1]
		bf, br := bias[j0:j1], bias[H+j0:H+j1]
		zero := make([]float32, n)
		for t := 0; t < s.T; t++ {
			for b := 0; b < B; b++ {
				row := t*B + b
				o := row*H + j0
				cp := zero
				if t > 0 {
					cp = c[o-B*H : o-B*H+n]
				}
				hr, cr := h[o:o+n], c[o:o+n]
				if mask[row] == 0 {
					clear(hr)
					copy(cr, cp)
					continue
				}
				fr, rr := f[o:o+n], r[o:o+n]
				ur := u[row*K*H:]
				u0, u1, u2 := ur[j0:j1], ur[H+j0:H+j1], ur[2*H+j0:2*H+j1]
				var xr []float32
				if K == 4 {
					xr = ur[3*H+j0 : 3*H+j1]
				} else {
					xr = x[o : o+n]
				}
				if s.Tanh {
					for j := range hr {
						fj := sigmoid32(u1[j] + vf[j]*cp[j] + bf[j])
						rj := sigmoid32(u2[j] + vr[j]*cp[j] + br[j])
						cj := fj*cp[j] + (1-fj)*u0[j]
						hr[j] = rj*float32(math.Tanh(float64(cj))) + (1-rj)*xr[j]
						cr[j], fr[j], rr[j] = cj, fj, rj
					}
					continue
				}
				// Gate pre-activations, σ over the whole row (vectorised),
				// then the cell and the highway.
				_, _, _, _, _, _, _, _, _, _ = cp[n-1], u0[n-1], u1[n-1], u2[n-1], xr[n-1], vf[n-1], vr[n-1], bf[n-1], br[n-1], fr[n-1]
				_, _ = rr[n-1], cr[n-1]
				for j := range fr {
					fr[j] = u1[j] + vf[j]*cp[j] + bf[j]
					rr[j] = u2[j] + vr[j]*cp[j] + br[j]
				}
				sigmoidInPlace(fr)
				sigmoidInPlace(rr)
				for j := range hr {
					fj, rj := fr[j], rr[j]
					cj := fj*cp[j] + (1-fj)*u0[j]
					hr[j] = rj*cj + (1-rj)*xr[j]
					cr[j] = cj
				}
			}
		}
	})
}

// backward32 is the reverse pass of forward32 given dh = ∂L/∂h (N×H): it
// writes du (N×K·H) and, when K = 3, dx (N×H: the highway's part of ∂L/∂x;
// with K = 4 that part is du's U3 block), and dwc, dbias (2H). c, f and r
// are forward32's.
func (s Shape) backward32(u, x, wc []float32, mask []float64, c, f, r, dh, du, dx []float32, dwc, dbias []float64) {
	H, K, B := s.H, s.K, s.B
	s.unitChunks(func(j0, j1 int) {
		n := j1 - j0
		vf, vr := wc[j0:j1], wc[H+j0:H+j1]
		dc := make([]float32, B*n) // ∂L/∂c_t from frame t+1, per utterance
		zero := make([]float32, n)
		// Parameter gradients accumulate in float64: sums over all frames.
		g := make([]float64, 4*n)
		gf, gr, gbf, gbr := g[:n], g[n:2*n], g[2*n:3*n], g[3*n:]
		for t := s.T - 1; t >= 0; t-- {
			for b := 0; b < B; b++ {
				row := t*B + b
				o := row*H + j0
				dur := du[row*K*H:]
				du0, du1, du2 := dur[j0:j1], dur[H+j0:H+j1], dur[2*H+j0:2*H+j1]
				var dxr []float32
				if K == 4 {
					dxr = dur[3*H+j0 : 3*H+j1]
				} else {
					dxr = dx[o : o+n]
				}
				if mask[row] == 0 {
					// c_t = c_{t−1}: the carried gradient passes through.
					clear(du0)
					clear(du1)
					clear(du2)
					clear(dxr)
					continue
				}
				ur := u[row*K*H:]
				u0 := ur[j0:j1]
				var xr []float32
				if K == 4 {
					xr = ur[3*H+j0 : 3*H+j1]
				} else {
					xr = x[o : o+n]
				}
				cp := zero
				if t > 0 {
					cp = c[o-B*H : o-B*H+n]
				}
				ct, fr, rr, dhr := c[o:o+n], f[o:o+n], r[o:o+n], dh[o:o+n]
				dcb := dc[b*n : (b+1)*n]
				_, _, _, _, _, _, _, _, _, _ = cp[n-1], ct[n-1], fr[n-1], rr[n-1], dhr[n-1], u0[n-1], xr[n-1], du0[n-1], du1[n-1], du2[n-1]
				_, _, _, _ = dxr[n-1], dcb[n-1], vf[n-1], vr[n-1]
				for j := range dcb {
					cpj, fj, rj, d := cp[j], fr[j], rr[j], dhr[j]
					gj, dg := ct[j], float32(1)
					if s.Tanh {
						gj = float32(math.Tanh(float64(ct[j])))
						dg = 1 - gj*gj
					}
					dcj := dcb[j] + d*rj*dg
					dxr[j] = d * (1 - rj)
					zr := d * (gj - xr[j]) * rj * (1 - rj)
					zf := dcj * (cpj - u0[j]) * fj * (1 - fj)
					du0[j] = dcj * (1 - fj)
					du1[j] = zf
					du2[j] = zr
					gf[j] += float64(zf * cpj)
					gr[j] += float64(zr * cpj)
					gbf[j] += float64(zf)
					gbr[j] += float64(zr)
					dcb[j] = dcj*fj + zf*vf[j] + zr*vr[j]
				}
			}
		}
		for j := 0; j < n; j++ {
			dwc[j0+j], dwc[H+j0+j] = gf[j], gr[j]
			dbias[j0+j], dbias[H+j0+j] = gbf[j], gbr[j]
		}
	})
}
