//go:build !amd64

package ode

const haveFMA = false

func dgemm4x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int) {
	panic("ode: dgemm4x8 without amd64")
}

func dgemm4x4(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int) {
	panic("ode: dgemm4x4 without amd64")
}

func dgemm6x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int) {
	panic("ode: dgemm6x8 without amd64")
}

func tanh64x4(x *float64, n int) { panic("ode: tanh64x4 without amd64") }

func sgemm6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int) {
	panic("ode: sgemm6x16 without amd64")
}

func tanh32x8(x *float32, n int) { panic("ode: tanh32x8 without amd64") }

func sgemm6x8(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int) {
	panic("ode: sgemm6x8 without amd64")
}

func tanhGrad32x8(du, u *float32, n int) { panic("ode: tanhGrad32x8 without amd64") }

func eulerStep8(dst, x, y *float32, a float32, n int) { panic("ode: eulerStep8 without amd64") }

func scaleDot4(dst, x, y *float32, a float32, n int) float64 {
	panic("ode: scaleDot4 without amd64")
}
