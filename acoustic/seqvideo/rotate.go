package seqvideo

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// rotateFrames turns every row of frames (R × 64·64, a frame each) by the
// angle in the same row of angles (R × 1, radians) about the canvas centre,
// as the data's frames are turned (DATA.md: output pixel (x, y) takes the
// value at c + R(φ)·((x, y) − c)), with bilinear interpolation and 0 outside
// the canvas: one fused node, differentiable in the frames and the angles.
func rotateFrames(n *nn.Net, frames, angles *autodiff.Node) *autodiff.Node {
	return n.Fused("rotate", rotateKernel{}, frames, angles)
}

type rotateKernel struct{}

func (rotateKernel) Shape(in [][2]int) (int, int, error) {
	if len(in) != 2 || in[0][1] != FramePixels || in[1] != [2]int{in[0][0], 1} {
		return 0, 0, fmt.Errorf("rotate: inputs %v, want R × %d frames and R × 1 angles", in, FramePixels)
	}
	return in[0][0], FramePixels, nil
}

// sample is the bilinear sample of frame f at (sx, sy) and its derivatives
// along x and y; corners outside the canvas count as 0.
func sample(f []float64, sx, sy float64) (v, dx, dy float64) {
	x0, y0 := math.Floor(sx), math.Floor(sy)
	fx, fy := sx-x0, sy-y0
	ix, iy := int(x0), int(y0)
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= ImageSize || y >= ImageSize {
			return 0
		}
		return f[y*ImageSize+x]
	}
	i00, i01, i10, i11 := at(ix, iy), at(ix+1, iy), at(ix, iy+1), at(ix+1, iy+1)
	v = (1-fy)*((1-fx)*i00+fx*i01) + fy*((1-fx)*i10+fx*i11)
	dx = (1-fy)*(i01-i00) + fy*(i11-i10)
	dy = (1-fx)*(i10-i00) + fx*(i11-i01)
	return v, dx, dy
}

const rotCentre = float64(ImageSize-1) / 2

func (rotateKernel) Forward(out []float64, in [][]float64) {
	img, ang := in[0], in[1]
	for r, phi := range ang {
		c, s := math.Cos(phi), math.Sin(phi)
		f, o := img[r*FramePixels:][:FramePixels], out[r*FramePixels:][:FramePixels]
		for y := 0; y < ImageSize; y++ {
			dy := float64(y) - rotCentre
			for x := 0; x < ImageSize; x++ {
				dx := float64(x) - rotCentre
				o[y*ImageSize+x], _, _ = sample(f, rotCentre+c*dx-s*dy, rotCentre+s*dx+c*dy)
			}
		}
	}
}

// Backward: d frame scatters d out with the bilinear weights; d φ = Σ d out ·
// (∂v/∂sx·∂sx/∂φ + ∂v/∂sy·∂sy/∂φ), ∂sx/∂φ = −s·dx − c·dy, ∂sy/∂φ = c·dx − s·dy.
func (rotateKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	img, ang := in[0], in[1]
	for r, phi := range ang {
		c, s := math.Cos(phi), math.Sin(phi)
		f, g, df := img[r*FramePixels:][:FramePixels], dout[r*FramePixels:][:FramePixels], din[0][r*FramePixels:][:FramePixels]
		add := func(x, y int, v float64) {
			if x >= 0 && y >= 0 && x < ImageSize && y < ImageSize {
				df[y*ImageSize+x] += v
			}
		}
		dphi := 0.0
		for y := 0; y < ImageSize; y++ {
			dy := float64(y) - rotCentre
			for x := 0; x < ImageSize; x++ {
				gv := g[y*ImageSize+x]
				if gv == 0 {
					continue
				}
				dx := float64(x) - rotCentre
				sx, sy := rotCentre+c*dx-s*dy, rotCentre+s*dx+c*dy
				_, vx, vy := sample(f, sx, sy)
				dphi += gv * (vx*(-s*dx-c*dy) + vy*(c*dx-s*dy))
				x0, y0 := math.Floor(sx), math.Floor(sy)
				fx, fy := sx-x0, sy-y0
				ix, iy := int(x0), int(y0)
				add(ix, iy, gv*(1-fx)*(1-fy))
				add(ix+1, iy, gv*fx*(1-fy))
				add(ix, iy+1, gv*(1-fx)*fy)
				add(ix+1, iy+1, gv*fx*fy)
			}
		}
		din[1][r] += dphi
	}
}
