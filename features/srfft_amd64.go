//go:build amd64 && !purego

package features

import "golang.org/x/sys/cpu"

//go:noescape
func srButterflyAVX(a, b *float32, n int)

//go:noescape
func srStep2AVX(r1, i1, r2, i2 *float32, n int)

//go:noescape
func srTwiddleAVX(r, i, c, spc, smc *float32, n int)

// useAVX selects the AVX kernels (x/sys/cpu reports AVX only when the OS
// saves the YMM registers).
var useAVX = cpu.X86.HasAVX

func srButterfly(a, b []float32) {
	n := len(a) &^ 7
	if useAVX && n > 0 {
		srButterflyAVX(&a[0], &b[0], n)
	} else {
		n = 0
	}
	srButterflyGo(a[n:], b[n:len(a)])
}

func srStep2(r1, i1, r2, i2 []float32) {
	n := len(r1) &^ 7
	if useAVX && n > 0 {
		srStep2AVX(&r1[0], &i1[0], &r2[0], &i2[0], n)
	} else {
		n = 0
	}
	srStep2Go(r1[n:], i1[n:len(r1)], r2[n:len(r1)], i2[n:len(r1)])
}

func srTwiddle(r, i, c, spc, smc []float32) {
	n := len(r) &^ 7
	if useAVX && n > 0 {
		srTwiddleAVX(&r[0], &i[0], &c[0], &spc[0], &smc[0], n)
	} else {
		n = 0
	}
	srTwiddleGo(r[n:], i[n:len(r)], c[n:len(r)], spc[n:len(r)], smc[n:len(r)])
}
