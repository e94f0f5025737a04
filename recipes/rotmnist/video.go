package rotmnist

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/pointproc"
)

// Interpolation is how a rotated frame samples the digit between pixels.
type Interpolation int

const (
	// Bilinear weighs the four pixels around the sample point (ours, the default).
	Bilinear Interpolation = iota
	// Nearest takes the pixel containing the sample point, as the reference
	// code's torchvision rotate (PIL, resample NEAREST) does.
	Nearest
)

func (m Interpolation) String() string {
	if m == Nearest {
		return "nearest"
	}
	return "bilinear"
}

// ParseInterpolation reads "bilinear" or "nearest".
func ParseInterpolation(s string) (Interpolation, error) {
	switch s {
	case "bilinear":
		return Bilinear, nil
	case "nearest":
		return Nearest, nil
	}
	return 0, fmt.Errorf("rotmnist: interpolation %q: want bilinear or nearest", s)
}

// Digit is one 8-bit grey image, row-major: pixel (y, x) at y·Cols + x.
type Digit struct {
	Pixels     []uint8
	Rows, Cols int
}

// RenderFrame draws d rotated by angle degrees counter-clockwise (as seen
// with y pointing down, torchvision's and PIL's convention) into the zeroed
// canvas dst (row-major, width pixels a row), its top-left corner at
// column x0, row y0 (PIL's paste; parts off the canvas are clipped).
//
// As the reference code (rotate, then paste) the rotation happens inside the
// digit's own Rows×Cols box, about its centre c = ((Cols−1)/2, (Rows−1)/2)
// in pixel-index coordinates (PIL's (w/2, h/2) in its corner coordinates):
// output pixel (x, y) takes the digit's value at
//
//	sx = cx + cos θ·(x − cx) − sin θ·(y − cy)
//	sy = cy + sin θ·(x − cx) + cos θ·(y − cy)
//
// interpolated bilinearly (pixels outside the digit count as 0) or from the
// nearest pixel (floor(s + 0.5), PIL's rule), rounded to the nearest of
// 0…255 as the reference's 8-bit images are. So θ = 0 copies the digit and
// θ = 90° gives out(x, y) = d(Cols−1−y, x) for a square digit (d(column, row)).
func RenderFrame(dst []uint8, width int, d Digit, x0, y0 int, angle float64, interp Interpolation) {
	sin, cos := math.Sincos(angle * math.Pi / 180)
	sin, cos = snap(sin), snap(cos) // multiples of 90° exactly
	cx, cy := float64(d.Cols-1)/2, float64(d.Rows-1)/2
	height := len(dst) / width
	for y := 0; y < d.Rows; y++ {
		cy0 := y0 + y
		if cy0 < 0 || cy0 >= height {
			continue
		}
		row := dst[cy0*width : (cy0+1)*width]
		dy := float64(y) - cy
		for x := 0; x < d.Cols; x++ {
			cx0 := x0 + x
			if cx0 < 0 || cx0 >= width {
				continue
			}
			dx := float64(x) - cx
			sx := cx + cos*dx - sin*dy
			sy := cy + sin*dx + cos*dy
			var v float64
			if interp == Nearest {
				v = d.at(int(math.Floor(sx+0.5)), int(math.Floor(sy+0.5)))
			} else {
				fx, fy := math.Floor(sx), math.Floor(sy)
				ax, ay := sx-fx, sy-fy
				ix, iy := int(fx), int(fy)
				v = (1-ay)*((1-ax)*d.at(ix, iy)+ax*d.at(ix+1, iy)) +
					ay*((1-ax)*d.at(ix, iy+1)+ax*d.at(ix+1, iy+1))
			}
			row[cx0] = uint8(math.Min(255, math.Max(0, math.Round(v))))
		}
	}
}

// at is pixel (x, y), 0 outside the digit.
func (d Digit) at(x, y int) float64 {
	if x < 0 || y < 0 || x >= d.Cols || y >= d.Rows {
		return 0
	}
	return float64(d.Pixels[y*d.Cols+x])
}

// snap rounds sines and cosines within 1e-12 of 0 or ±1 to them.
func snap(v float64) float64 {
	for _, r := range []float64{-1, 0, 1} {
		if math.Abs(v-r) < 1e-12 {
			return r
		}
	}
	return v
}

// RenderVideo draws one frame per angle (degrees) into dst, which it
// zeroes and grows to len(angles)·height·width bytes; frame f is
// dst[f·height·width:]. The digit stays at (x0, y0): the reference code
// samples the position once per video.
func RenderVideo(dst []uint8, width, height int, d Digit, x0, y0 int, angles []float64, interp Interpolation) []uint8 {
	size := width * height
	if cap(dst) < len(angles)*size {
		dst = make([]uint8, len(angles)*size)
	}
	dst = dst[:len(angles)*size]
	clear(dst)
	for f, a := range angles {
		RenderFrame(dst[f*size:(f+1)*size], width, d, x0, y0, a, interp)
	}
	return dst
}

// HawkesWindowTimes returns the first n event times in the window (lo, hi)
// of the Hawkes process h started empty at time 0, and how many runs of the
// process it drew: as the reference code, a run with fewer than n events in
// the window is discarded and the process drawn afresh. Each run's events
// up to hi are exact (see hawkesUntil). It fails after maxRuns runs.
func HawkesWindowTimes(rng *rand.Rand, h pointproc.Hawkes, lo, hi float64, n, maxRuns int) ([]float64, int, error) {
	if err := h.Validate(); err != nil {
		return nil, 0, err
	}
	if !(lo >= 0 && hi > lo) || n < 1 {
		return nil, 0, fmt.Errorf("rotmnist: Hawkes window (%v, %v) with %d events: need 0 ≤ lo < hi, n ≥ 1", lo, hi, n)
	}
	for run := 1; run <= maxRuns; run++ {
		ev, err := hawkesUntil(rng.Int63(), h, hi)
		if err != nil {
			return nil, run, err
		}
		var out []float64
		for _, t := range ev {
			if t > lo && t < hi && len(out) < n {
				out = append(out, t)
			}
		}
		if len(out) == n {
			return out, run, nil
		}
	}
	return nil, maxRuns, fmt.Errorf("rotmnist: no run of Hawkes μ=%v α=%v β=%v in %d had %d events in (%v, %v)",
		h.Mu, h.Alpha, h.Beta, maxRuns, n, lo, hi)
}

// hawkesUntil returns one run's events up to the first at or after hi.
// pointproc's Events(rng, k) consumes the random stream identically for any
// k until its k-th event, so the first k events of a run seeded with seed do
// not depend on k: doubling k until an event passes hi yields an exact
// prefix of one infinite run, with no bias from where we stopped.
func hawkesUntil(seed int64, h pointproc.Hawkes, hi float64) ([]float64, error) {
	for k := 16; k <= 1<<20; k *= 2 {
		ev := h.Events(rand.New(rand.NewSource(seed)), k)
		if ev[k-1] >= hi {
			return ev, nil
		}
	}
	return nil, fmt.Errorf("rotmnist: Hawkes μ=%v α=%v β=%v has over %d events before %v", h.Mu, h.Alpha, h.Beta, 1<<20, hi)
}

// ExpTimes returns t_i = e^{interval·i} + std·ε_i, ε_i ~ N(0, 1), for
// i = 0 … n−1: the reference code's "exp" times (interval 0.57; its noise of
// 5° at 10° a unit of time is std 0.5). The noise is independent per frame,
// so neighbouring times can come out of order.
func ExpTimes(rng *rand.Rand, n int, interval, std float64) []float64 {
	t := make([]float64, n)
	for i := range t {
		t[i] = math.Exp(interval*float64(i)) + std*rng.NormFloat64()
	}
	return t
}
