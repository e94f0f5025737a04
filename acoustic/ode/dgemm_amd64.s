#include "textflag.h"

// func dgemm4x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)
//
// C[0:4, 0:8] += A[0:4, 0:k] · B[0:k, 0:8], all row-major with leading
// dimensions lda, ldb, ldc (in elements). Eight YMM accumulators hold the
// 4×8 block of C; each step over k loads one row of B (two YMM), broadcasts
// one element of each of the four rows of A and issues eight FMAs.
TEXT ·dgemm4x8(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $3, R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R9
	SHLQ $3, R9
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R10
	SHLQ $3, R10
	LEAQ (SI)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ CX, CX
	JE    store

loop:
	VMOVUPD      (DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (R11), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (R12), Y12
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VBROADCASTSD (R13), Y13
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         $8, SI
	ADDQ         $8, R11
	ADDQ         $8, R12
	ADDQ         $8, R13
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop

store:
	VADDPD  (DX), Y0, Y0
	VMOVUPD Y0, (DX)
	VADDPD  32(DX), Y1, Y1
	VMOVUPD Y1, 32(DX)
	ADDQ    R10, DX
	VADDPD  (DX), Y2, Y2
	VMOVUPD Y2, (DX)
	VADDPD  32(DX), Y3, Y3
	VMOVUPD Y3, 32(DX)
	ADDQ    R10, DX
	VADDPD  (DX), Y4, Y4
	VMOVUPD Y4, (DX)
	VADDPD  32(DX), Y5, Y5
	VMOVUPD Y5, 32(DX)
	ADDQ    R10, DX
	VADDPD  (DX), Y6, Y6
	VMOVUPD Y6, (DX)
	VADDPD  32(DX), Y7, Y7
	VMOVUPD Y7, 32(DX)
	VZEROUPPER
	RET

// func dgemm4x4(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int)
//
// C[0:4, 0:4] += A[0:4, 0:k] · B[0:k, 0:4]: the 4-column edge of dgemm4x8.
TEXT ·dgemm4x4(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $3, R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R9
	SHLQ $3, R9
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R10
	SHLQ $3, R10
	LEAQ (SI)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	VXORPD Y0, Y0, Y0
	VXORPD Y2, Y2, Y2
	VXORPD Y4, Y4, Y4
	VXORPD Y6, Y6, Y6
	TESTQ CX, CX
	JE    store4

loop4:
	VMOVUPD      (DI), Y8
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VBROADCASTSD (R11), Y11
	VFMADD231PD  Y8, Y11, Y2
	VBROADCASTSD (R12), Y12
	VFMADD231PD  Y8, Y12, Y4
	VBROADCASTSD (R13), Y13
	VFMADD231PD  Y8, Y13, Y6
	ADDQ         $8, SI
	ADDQ         $8, R11
	ADDQ         $8, R12
	ADDQ         $8, R13
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop4

store4:
	VADDPD  (DX), Y0, Y0
	VMOVUPD Y0, (DX)
	ADDQ    R10, DX
	VADDPD  (DX), Y2, Y2
	VMOVUPD Y2, (DX)
	ADDQ    R10, DX
	VADDPD  (DX), Y4, Y4
	VMOVUPD Y4, (DX)
	ADDQ    R10, DX
	VADDPD  (DX), Y6, Y6
	VMOVUPD Y6, (DX)
	VZEROUPPER
	RET
