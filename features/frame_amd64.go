//go:build amd64 && !purego

package features

import "golang.org/x/sys/cpu"

//go:noescape
func preemphWindowAVX(dst, cur, prev, win *float32, n int, k *[2]float32)

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
	done := 1
	if useAVX {
		v := (n - 1) &^ 7
		if v > 0 {
			k := [2]float32{mean, c}
			preemphWindowAVX(&dst[1], &x[1], &x[0], &win[1], v, &k)
		}
		done += v
	}
	for i := done; i < n; i++ {
		y := x[i] - mean
		dst[i] = float32(y-float32(c*(x[i-1]-mean))) * win[i]
	}
}

//go:noescape
func pcm16ToFloatAVX2(dst *float32, src *byte, n int)

var useAVX2 = cpu.X86.HasAVX2

// pcm16ToFloat decodes little-endian 16-bit samples b (2·len(dst) bytes)
// into dst at Kaldi's scale (the integer values).
func pcm16ToFloat(dst []float32, b []byte) {
	b = b[:2*len(dst)]
	done := 0
	if useAVX2 {
		done = len(dst) &^ 7
		if done > 0 {
			pcm16ToFloatAVX2(&dst[0], &b[0], done)
		}
	}
	for i := done; i < len(dst); i++ {
		dst[i] = float32(int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8))
	}
}

//go:noescape
func logFloorAVX2(dst *float32, src *float64, n int, tabs *logTables)

// logFloorVec runs logFloorAVX2 on the longest multiple of 4 of src and
// returns how many values it did.
func logFloorVec(dst []float32, src []float64) int {
	n := len(src) &^ 3
	if n > 0 {
		_ = dst[n-1]
		logFloorAVX2(&dst[0], &src[0], n, logTabs)
	}
	return n
}
