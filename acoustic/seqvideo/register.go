package seqvideo

import (
	"math"
)

// Turn registration: the turn that best carries one frame onto the next.
// The data's frames show one digit turned about a point near the canvas
// centre (DATA.md), so the angle between two frames is the time between
// them times a constant speed; reading it needs no label and no learning.
// The registered variant's boundary network reads it (variant.go).

// Registration search: a coarse grid over the whole circle, then a fine
// grid around its best angle. At 8° the coarse grid's best is within a
// step of the true turn for MNIST strokes (a turn of 8° moves a pixel at
// the digit's edge by ≈ 2.8 px, about a stroke's width); the fine grid's
// 1° is below the data's own noise (exp: 5° per frame).
const (
	registerCoarseDeg = 4
	registerFineDeg   = 1
)

// FrameTurns returns, for a video of n frames of h×w 8-bit pixels one
// after the other, the signed turn in radians, in (−π, π], that best
// registers frame i−1 onto frame i (squared error after turning frame i−1
// bilinearly about the video's turning point), for i = 1 … n−1; turns[0]
// is 0. The turning point is the mean of the frames' intensity centroids:
// the digit's centroid circles it as the digit turns. A turn is
// counter-clockwise on screen for a positive angle, the data's sense
// (rotateFrames). Blank frames give 0.
func FrameTurns(video []uint8, n, h, w int) []float64 {
	turns := make([]float64, n)
	size := h * w
	cy, cx, ok := turningPoint(video, n, h, w)
	if !ok {
		return turns
	}
	// The disc that holds every frame's digit: outside it both the turned
	// frame and the next one are 0, so only its pixels count.
	r2 := 0.0
	for f := range n {
		for i, p := range video[f*size : (f+1)*size] {
			if p != 0 {
				dy, dx := float64(i/w)-cy, float64(i%w)-cx
				r2 = max(r2, dx*dx+dy*dy)
			}
		}
	}
	rad := math.Sqrt(r2) + 1.5
	var disc []discPixel
	for y := range h {
		for x := range w {
			dy, dx := float64(y)-cy, float64(x)-cx
			if dx*dx+dy*dy <= rad*rad {
				disc = append(disc, discPixel{int32(y*w + x), float32(dx), float32(dy)})
			}
		}
	}
	reg := registrar{h: h, w: w, cy: float32(cy), cx: float32(cx), disc: disc}
	for f := 1; f < n; f++ {
		reg.src, reg.dst = video[(f-1)*size:f*size], video[f*size:(f+1)*size]
		best, bestErr := 0.0, math.Inf(1)
		for deg := 0.0; deg < 360; deg += registerCoarseDeg {
			if e := reg.err(deg); e < bestErr {
				best, bestErr = deg, e
			}
		}
		c := best
		for deg := c - registerCoarseDeg + registerFineDeg; deg < c+registerCoarseDeg; deg += registerFineDeg {
			if deg == c {
				continue // the coarse grid's best, already scored
			}
			if e := reg.err(deg); e < bestErr {
				best, bestErr = deg, e
			}
		}
		best = math.Mod(best+360, 360)
		if best > 180 {
			best -= 360
		}
		turns[f] = best * math.Pi / 180
	}
	return turns
}

type discPixel struct {
	at     int32
	dx, dy float32
}

type registrar struct {
	h, w     int
	cy, cx   float32
	disc     []discPixel
	src, dst []uint8
}

// err is the squared error between src turned by deg degrees and dst over
// the disc (pixel units 0 … 255).
func (r *registrar) err(deg float64) float64 {
	s64, c64 := math.Sincos(deg * math.Pi / 180)
	sin, cos := float32(s64), float32(c64)
	h, w := r.h, r.w
	src := r.src
	at := func(y, x int) float32 {
		if uint(y) >= uint(h) || uint(x) >= uint(w) {
			return 0
		}
		return float32(src[y*w+x])
	}
	var e float32
	for _, p := range r.disc {
		sx := cos*p.dx - sin*p.dy + r.cx
		sy := sin*p.dx + cos*p.dy + r.cy
		// floor by truncation: every sample lies within a frame's width
		// of the canvas, so sx + w and sy + h are positive.
		x0, y0 := int(sx+float32(w))-w, int(sy+float32(h))-h
		fx, fy := sx-float32(x0), sy-float32(y0)
		v := (1-fx)*((1-fy)*at(y0, x0)+fy*at(y0+1, x0)) + fx*((1-fy)*at(y0, x0+1)+fy*at(y0+1, x0+1))
		d := v - float32(r.dst[p.at])
		e += d * d
	}
	return float64(e)
}

// turningPoint is the mean of the frames' intensity centroids (row,
// column); ok is false when every frame is blank.
func turningPoint(px []uint8, frames, h, w int) (cy, cx float64, ok bool) {
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
		return 0, 0, false
	}
	return cy / n, cx / n, true
}
