//go:build !amd64 || purego

package features

var useAVX = false

func srButterfly(a, b []float32)            { srButterflyGo(a, b) }
func srStep2(r1, i1, r2, i2 []float32)      { srStep2Go(r1, i1, r2, i2) }
func srTwiddle(r, i, c, spc, smc []float32) { srTwiddleGo(r, i, c, spc, smc) }

// srTwiddleAVX is never called where useAVX is false.
func srTwiddleAVX(r, i, c, spc, smc *float32, n int) { panic("unreachable") }
