//go:build amd64 && !purego

#include "textflag.h"

// func copyRows16(dst, src *float32, ld, rows int)
//
// Copies rows runs of 16 floats, src advancing by ld floats and dst by 16:
// the full-panel case of packing B (and Aᵀ) for the 16-wide kernel. Go
// compiles a [16]float32 copy into a call to memmove, which costs more than
// the 64 bytes it moves.
TEXT ·copyRows16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), DX
	SHLQ $2, DX
	MOVQ rows+24(FP), CX
	TESTQ CX, CX
	JZ done16

loop16:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ DX, SI
	ADDQ $64, DI
	DECQ CX
	JNZ loop16

done16:
	VZEROUPPER
	RET

// func copyRows32(dst, src *float32, ld, rows int)
//
// As copyRows16 for runs of 32 floats (the AVX-512 kernel's panels; AVX
// moves, which every CPU with that kernel has).
TEXT ·copyRows32(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), DX
	SHLQ $2, DX
	MOVQ rows+24(FP), CX
	TESTQ CX, CX
	JZ done32

loop32:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ DX, SI
	ADDQ $128, DI
	DECQ CX
	JNZ loop32

done32:
	VZEROUPPER
	RET
