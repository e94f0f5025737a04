package seqvideo

import (
	"math"
	"testing"
)

// TestPoseAngle: an asymmetric pattern turned about the canvas centre by
// known angles over the whole circle, rounded to 8 bits as the data's
// frames are; PoseAngle reads each turn as the unturned frame's reading
// plus the turn (mod 2π), within 1.5°.
func TestPoseAngle(t *testing.T) {
	// A bar with a heavy end and a dot off its axis: its principal axis and
	// the sign of its third moment are both well defined.
	shape := func(dx, dy float64) float64 {
		switch {
		case math.Abs(dx) < 2 && dy > -12 && dy < 12:
			if dy > 4 {
				return 1
			}
			return 0.5
		case (dx-5)*(dx-5)+(dy+6)*(dy+6) < 5:
			return 0.4
		}
		return 0
	}
	c := float64(ImageSize-1) / 2
	base := make([]float64, FramePixels)
	for y := range ImageSize {
		for x := range ImageSize {
			base[y*ImageSize+x] = shape(float64(x)-c, float64(y)-c)
		}
	}
	out := make([]float64, FramePixels)
	frame := make([]uint8, FramePixels)
	read := func(deg float64) float64 {
		rotateKernel{}.Forward(out, [][]float64{base, {deg * math.Pi / 180}})
		for j, v := range out {
			frame[j] = uint8(math.Round(255 * max(0, min(1, v))))
		}
		return PoseAngle(frame, ImageSize, ImageSize) * 180 / math.Pi
	}
	p0 := read(0)
	for _, a := range []float64{17, 90, 160, 200, 275, 340} {
		got := read(a)
		d := math.Mod(got-p0-a+540, 360) - 180
		if math.Abs(d) > 1.5 {
			t.Errorf("turned by %g°: reads %.1f°, want %.1f° (+%g° from %.1f°)", a, got, math.Mod(p0+a, 360), a, p0)
		}
		if got < 0 || got >= 360 {
			t.Errorf("turned by %g°: reads %.1f°, outside [0°, 360°)", a, got)
		}
	}
	if p := PoseAngle(make([]uint8, FramePixels), ImageSize, ImageSize); p != 0 {
		t.Errorf("blank frame: %g, want 0", p)
	}
}

// TestPoseValidate: pose is strode's alone (index times have no first
// time to pin, and the SRU models do not decode turned frames).
func TestPoseValidate(t *testing.T) {
	for _, model := range Models {
		o := DefaultOptions()
		o.Model, o.Variant = model, VariantPose
		err := o.Validate()
		if (err == nil) != (model == STRODE) {
			t.Errorf("%s with pose: error %v", model, err)
		}
	}
}
