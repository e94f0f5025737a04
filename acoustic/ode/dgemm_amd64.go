package ode

import "golang.org/x/sys/cpu"

// haveFMA selects the AVX2+FMA micro-kernel (x/sys/cpu reports AVX only when
// the OS saves the YMM registers).
var haveFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dgemm4x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)

//go:noescape
func dgemm4x4(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)

//go:noescape
func dgemm6x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)

//go:noescape
func tanh64x4(x *float64, n int)

//go:noescape
func sgemm6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int)

//go:noescape
func tanh32x8(x *float32, n int)

//go:noescape
func sgemm6x8(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int)

//go:noescape
func tanhGrad32x8(du, u *float32, n int)

//go:noescape
func eulerStep8(dst, x, y *float32, a float32, n int)

//go:noescape
func scaleDot4(dst, x, y *float32, a float32, n int) float64
