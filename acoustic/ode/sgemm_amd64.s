#include "textflag.h"

// func sgemm6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int)
//
// C[0:6, 0:16] += A·B[0:k, 0:16] with A(i, p) = a[i·ars + p·acs] (a
// row-major A has ars = lda, acs = 1; a transposed one, stored k×m, has
// ars = 1, acs = lda), B and C row-major with leading dimensions ldb and ldc
// (all in elements). Twelve YMM accumulators hold the 6×16 block of C, summed
// from zero over p in order with one FMA per term and then added to C; each
// step over p loads one row of B (two YMM), broadcasts the six elements of
// A's column p and issues twelve FMAs.
TEXT ·sgemm6x16(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ ars+16(FP), R8
	SHLQ $2, R8
	MOVQ acs+24(FP), R12
	SHLQ $2, R12
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R13
	SHLQ $2, R13
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R14
	SHLQ $2, R14
	LEAQ (R8)(R8*2), R9
	LEAQ (R8)(R8*4), R10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	TESTQ CX, CX
	JE    store

loop:
	VMOVUPS      (DI), Y12
	VMOVUPS      32(DI), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R8*1), Y15
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (SI)(R8*2), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (SI)(R9*1), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (SI)(R8*4), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (SI)(R10*1), Y15
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         R12, SI
	ADDQ         R13, DI
	DECQ         CX
	JNZ          loop

store:
	VADDPS  (DX), Y0, Y0
	VMOVUPS Y0, (DX)
	VADDPS  32(DX), Y1, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y2, Y2
	VMOVUPS Y2, (DX)
	VADDPS  32(DX), Y3, Y3
	VMOVUPS Y3, 32(DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y4, Y4
	VMOVUPS Y4, (DX)
	VADDPS  32(DX), Y5, Y5
	VMOVUPS Y5, 32(DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y6, Y6
	VMOVUPS Y6, (DX)
	VADDPS  32(DX), Y7, Y7
	VMOVUPS Y7, 32(DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y8, Y8
	VMOVUPS Y8, (DX)
	VADDPS  32(DX), Y9, Y9
	VMOVUPS Y9, 32(DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y10, Y10
	VMOVUPS Y10, (DX)
	VADDPS  32(DX), Y11, Y11
	VMOVUPS Y11, 32(DX)
	VZEROUPPER
	RET

// func sgemm6x8(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int)
//
// sgemm6x16 for an 8-column block (one YMM of B per step, six accumulators).
TEXT ·sgemm6x8(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ ars+16(FP), R8
	SHLQ $2, R8
	MOVQ acs+24(FP), R12
	SHLQ $2, R12
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R13
	SHLQ $2, R13
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R14
	SHLQ $2, R14
	LEAQ (R8)(R8*2), R9
	LEAQ (R8)(R8*4), R10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	TESTQ CX, CX
	JE    store8

loop8:
	VMOVUPS      (DI), Y12
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VBROADCASTSS (SI)(R8*1), Y15
	VFMADD231PS  Y12, Y15, Y1
	VBROADCASTSS (SI)(R8*2), Y14
	VFMADD231PS  Y12, Y14, Y2
	VBROADCASTSS (SI)(R9*1), Y15
	VFMADD231PS  Y12, Y15, Y3
	VBROADCASTSS (SI)(R8*4), Y14
	VFMADD231PS  Y12, Y14, Y4
	VBROADCASTSS (SI)(R10*1), Y15
	VFMADD231PS  Y12, Y15, Y5
	ADDQ         R12, SI
	ADDQ         R13, DI
	DECQ         CX
	JNZ          loop8

store8:
	VADDPS  (DX), Y0, Y0
	VMOVUPS Y0, (DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y1, Y1
	VMOVUPS Y1, (DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y2, Y2
	VMOVUPS Y2, (DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y3, Y3
	VMOVUPS Y3, (DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y4, Y4
	VMOVUPS Y4, (DX)
	ADDQ    R14, DX
	VADDPS  (DX), Y5, Y5
	VMOVUPS Y5, (DX)
	VZEROUPPER
	RET
