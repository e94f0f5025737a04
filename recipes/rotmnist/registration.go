package rotmnist

import (
	"math"

	"github.com/strode-asr/strode/acoustic/strode"
)

// RegistrationTimes reads times off the frames with no model and no label,
// to show how much timing the data holds: for each pair of consecutive
// frames it turns frame i−1 (bilinear, about the video's turning point) by
// every angle on a grid of stepDeg degrees, keeps the angle whose turned
// frame is nearest frame i in squared error, takes the smaller turn (−180°
// to 180°: a frame may come before the one it follows, as some exp ones
// do), and sums the turns into times (degrees, the first frame at 0). The
// turning point is the mean of the frames' intensity centroids: the digit's
// centroid circles it as the digit turns. The direction (the sign of every
// time) is the one whose mean turn over the videos is positive. It reads
// the first videos of s, at most videos of them (≤ 0: all).
func RegistrationTimes(s *Split, videos int, stepDeg float64) [][]float64 {
	if videos <= 0 || videos > s.Videos {
		videos = s.Videos
	}
	h, w, nf := s.Height, s.Width, s.Frames
	size := h * w
	prev, next, turned := make([]float64, size), make([]float64, size), make([]float64, size)
	times := make([][]float64, videos)
	total := 0.0
	for v := range times {
		px := s.Video(v)
		cy, cx := turningPoint(px, nf, h, w)
		ts := make([]float64, nf)
		for f := 1; f < nf; f++ {
			for i := range size {
				prev[i] = float64(px[(f-1)*size+i])
				next[i] = float64(px[f*size+i])
			}
			best, bestErr := 0.0, math.Inf(1)
			for deg := 0.0; deg < 360; deg += stepDeg {
				turn(turned, prev, h, w, deg, cy, cx)
				e := 0.0
				for i, p := range turned {
					d := p - next[i]
					e += d * d
				}
				if e < bestErr {
					best, bestErr = deg, e
				}
			}
			if best > 180 {
				best -= 360
			}
			ts[f] = ts[f-1] + best
			total += best
		}
		times[v] = ts
	}
	if total < 0 {
		for _, ts := range times {
			for i := range ts {
				ts[i] = -ts[i]
			}
		}
	}
	return times
}

// RegistrationGapR is gap r of RegistrationTimes against the frames' true
// times.
func RegistrationGapR(s *Split, videos int, stepDeg float64) float64 {
	inferred := RegistrationTimes(s, videos, stepDeg)
	truth := make([][]float64, len(inferred))
	for v := range truth {
		truth[v] = s.Times[v*s.Frames : (v+1)*s.Frames]
	}
	return strode.GapCorrelation(inferred, truth)
}

// turningPoint is the mean of the frames' intensity centroids (row, column).
func turningPoint(px []uint8, frames, h, w int) (cy, cx float64) {
	n := 0.0
	for f := range frames {
		var sy, sx, m float64
		for i, p := range px[f*h*w : (f+1)*h*w] {
			sy += float64(p) * float64(i/w)
			sx += float64(p) * float64(i%w)
			m += float64(p)
		}
		if m > 0 {
			cy += sy / m
			cx += sx / m
			n++
		}
	}
	if n == 0 {
		return float64(h-1) / 2, float64(w-1) / 2
	}
	return cy / n, cx / n
}

// turn writes src (h×w) turned by deg degrees about (cy, cx) into dst,
// bilinear, zero outside.
func turn(dst, src []float64, h, w int, deg, cy, cx float64) {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	at := func(y, x int) float64 {
		if y < 0 || y >= h || x < 0 || x >= w {
			return 0
		}
		return src[y*w+x]
	}
	for y := range h {
		for x := range w {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cos*dx-sin*dy+cx, sin*dx+cos*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			dst[y*w+x] = (1-fx)*(1-fy)*at(y0, x0) + fx*(1-fy)*at(y0, x0+1) + (1-fx)*fy*at(y0+1, x0) + fx*fy*at(y0+1, x0+1)
		}
	}
}
