#include "textflag.h"

// func eulerStep8(dst, x, y *float32, a float32, n int)
//
// dst[j] = x[j] + a·y[j] for j < n, n a multiple of 8: a multiply and then
// an add (no FMA), eight lanes at a time, so every value is the scalar
// loop's (eulerStep).
TEXT ·eulerStep8(SB), NOSPLIT, $0-40
	MOVQ  dst+0(FP), DX
	MOVQ  x+8(FP), SI
	MOVQ  y+16(FP), DI
	VBROADCASTSS a+24(FP), Y0
	MOVQ  n+32(FP), CX
	SHRQ  $3, CX
	JZ    esdone
esloop:
	VMULPS (DI), Y0, Y1
	VADDPS (SI), Y1, Y1
	VMOVUPS Y1, (DX)
	ADDQ  $32, SI
	ADDQ  $32, DI
	ADDQ  $32, DX
	DECQ  CX
	JNZ   esloop
	VZEROUPPER
esdone:
	RET

// func scaleDot4(dst, x, y *float32, a float32, n int) float64
//
// dst[j] = a·x[j] and returns Σ x[j]·y[j] in float64 for n a multiple of
// 4: four double lanes, lane l summing the terms j ≡ l (mod 4) in order
// (the float32 products are exact in float64, so a fused multiply-add is
// the product and then the add), then (s0 + s1) + (s2 + s3) — dot64's
// sums, bit for bit.
TEXT ·scaleDot4(SB), NOSPLIT, $0-48
	MOVQ  dst+0(FP), DX
	MOVQ  x+8(FP), SI
	MOVQ  y+16(FP), DI
	VBROADCASTSS a+24(FP), X0
	MOVQ  n+32(FP), CX
	VXORPD Y4, Y4, Y4
	SHRQ  $2, CX
	JZ    sdsum
sdloop:
	VMOVUPS (SI), X1
	VMULPS  X1, X0, X2
	VMOVUPS X2, (DX)
	VCVTPS2PD X1, Y1
	VCVTPS2PD (DI), Y3
	VFMADD231PD Y1, Y3, Y4
	ADDQ  $16, SI
	ADDQ  $16, DI
	ADDQ  $16, DX
	DECQ  CX
	JNZ   sdloop
sdsum:
	VEXTRACTF128 $1, Y4, X5
	VHADDPD X5, X4, X6
	VHADDPD X6, X6, X6
	VZEROUPPER
	MOVSD X6, ret+40(FP)
	RET
