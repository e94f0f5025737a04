//go:build !amd64 || purego

package features

func haveBatchKernels() bool { return false }

// Never called without the kernels (newSplitRadixBatch returns nil).
func srHeadBatch(xr, xi []float32, m2, m4 int)   { panic("unreachable") }
func srFFT4Batch(xr, xi []float32)               { panic("unreachable") }
func srFFT2Batch(xr, xi []float32)               { panic("unreachable") }
func srFFT8Batch(xr, xi []float32)               { panic("unreachable") }
func srTwiddleBatch(r, i, c, spc, smc []float32) { panic("unreachable") }
func srEighthBatch(r1, i1, r2, i2 []float32)     { panic("unreachable") }
func srUntanglePowerBatch(re, im []float32, rev []int32, kN, pow []float32, n int) {
	panic("unreachable")
}
func srLoadBatch(frames *[batchLanes][]float32, re, im []float32, cn int) { panic("unreachable") }
func srStoreBatch(pow []float32, outs *[batchLanes][]float64, nk int)     { panic("unreachable") }
func melBatch(pow []float32, w []float64, out *[batchLanes]float64)       { panic("unreachable") }
