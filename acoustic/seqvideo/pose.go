package seqvideo

import "math"

// PoseAngle is a label-free reading of a frame's absolute orientation, in
// radians in [0, 2π): the direction, counter-clockwise on screen from
// "up", of the principal axis of the frame's intensity about its centroid,
// with the axis' sign chosen so that the third moment along it is
// positive (the heavier tail points along it). Both moments turn with the
// digit, so a frame turned by α reads α more (mod 2π, up to resampling):
// it is the turn of the frame from a canonical pose that the pixels define,
// whatever the angle, including angles no training video shows. Blank
// frames read 0.
func PoseAngle(frame []uint8, h, w int) float64 {
	var sy, sx, m float64
	for i, p := range frame[:h*w] {
		v := float64(p)
		sy += v * float64(i/w)
		sx += v * float64(i%w)
		m += v
	}
	if m == 0 {
		return 0
	}
	cy, cx := sy/m, sx/m
	// Coordinates with y up, so that a counter-clockwise turn on screen
	// (the data's positive angle) is a positive angle here.
	var mxx, myy, mxy float64
	for i, p := range frame[:h*w] {
		if p == 0 {
			continue
		}
		v := float64(p)
		dx, dy := float64(i%w)-cx, cy-float64(i/w)
		mxx += v * dx * dx
		myy += v * dy * dy
		mxy += v * dx * dy
	}
	theta := 0.5 * math.Atan2(2*mxy, mxx-myy) // the axis, mod π
	ux, uy := math.Cos(theta), math.Sin(theta)
	skew := 0.0
	for i, p := range frame[:h*w] {
		if p == 0 {
			continue
		}
		d := (float64(i%w)-cx)*ux + (cy-float64(i/w))*uy
		skew += float64(p) * d * d * d
	}
	if skew < 0 {
		theta += math.Pi
	}
	// From "up" (the y axis), counter-clockwise.
	a := math.Mod(theta-math.Pi/2, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}
