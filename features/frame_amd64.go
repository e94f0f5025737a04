//go:build amd64 && !purego

package features

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
