package seqvideo

import (
	"math"
	"testing"
)

// TestFrameTurns: frames of an asymmetric pattern turned about the canvas
// centre by known angles, rounded to 8 bits as the data's are; FrameTurns
// reads back every step, small or large, forward or back.
func TestFrameTurns(t *testing.T) {
	// An "L" of two bars and a dot: no turn of it looks like another. Its
	// centre of mass is moved to the canvas centre, the point it turns
	// about, as MNIST's digits are centred by their centres of mass.
	shape := func(dx, dy float64) float64 {
		switch {
		case math.Abs(dy) < 2 && dx > -10 && dx < 10:
			return 1
		case math.Abs(dx+9) < 2 && dy > -12 && dy < 0:
			return 0.8
		case (dx-6)*(dx-6)+(dy-6)*(dy-6) < 6:
			return 0.6
		}
		return 0
	}
	c := float64(ImageSize-1) / 2
	var mx, my, mass float64
	for y := range ImageSize {
		for x := range ImageSize {
			v := shape(float64(x)-c, float64(y)-c)
			mx, my, mass = mx+v*(float64(x)-c), my+v*(float64(y)-c), mass+v
		}
	}
	mx, my = mx/mass, my/mass
	base := make([]float64, FramePixels)
	for y := range ImageSize {
		for x := range ImageSize {
			base[y*ImageSize+x] = shape(float64(x)-c+mx, float64(y)-c+my)
		}
	}
	angles := []float64{0, 30, 41, 160, 150, 150, 5}
	want := make([]float64, len(angles))
	video := make([]uint8, len(angles)*FramePixels)
	out := make([]float64, FramePixels)
	for i, a := range angles {
		rotateKernel{}.Forward(out, [][]float64{base, {a * math.Pi / 180}})
		for j, v := range out {
			video[i*FramePixels+j] = uint8(math.Round(255 * max(0, min(1, v))))
		}
		if i > 0 {
			want[i] = angles[i] - angles[i-1]
		}
	}
	got := FrameTurns(video, len(angles), ImageSize, ImageSize)
	for i := range got {
		deg := got[i] * 180 / math.Pi
		if math.Abs(deg-want[i]) > 1.5 {
			t.Errorf("turn %d: %.1f°, want %.1f°", i, deg, want[i])
		}
	}
	if blank := FrameTurns(make([]uint8, 3*FramePixels), 3, ImageSize, ImageSize); blank[1] != 0 || blank[2] != 0 {
		t.Errorf("blank frames: turns %v, want 0", blank)
	}
}
