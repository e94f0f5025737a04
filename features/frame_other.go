//go:build !amd64 || purego

package features

// preemphWindow writes the DC-removed, pre-emphasised, windowed frame x
// into dst: dst[i] = ((x[i]−mean) − c·(x[i−1]−mean))·win[i], with x[−1] =
// x[0] (Kaldi's first sample), every value rounded as Kaldi's float code.
func preemphWindow(dst, x, win []float32, mean, c float32) {
	n := len(x)
	if n == 0 {
		return
	}
	dst, win = dst[:n], win[:n]
	y := x[0] - mean
	dst[0] = float32(y-float32(c*y)) * win[0]
	for i := 1; i < n; i++ {
		y := x[i] - mean
		dst[i] = float32(y-float32(c*(x[i-1]-mean))) * win[i]
	}
}

// pcm16ToFloat decodes little-endian 16-bit samples b (2·len(dst) bytes)
// into dst at Kaldi's scale (the integer values).
func pcm16ToFloat(dst []float32, b []byte) {
	b = b[:2*len(dst)]
	for i := range dst {
		dst[i] = float32(int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8))
	}
}

var useAVX2 = false

func logFloorVec(dst []float32, src []float64) int { return 0 }
