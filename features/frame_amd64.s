//go:build amd64 && !purego

#include "textflag.h"

// func preemphWindowAVX(dst, cur, prev, win *float32, n int, k *[2]float32)
// dst[j] = ((cur[j]−mean) − c·(prev[j]−mean))·win[j] for j < n (a multiple
// of 8), k = {mean, c}: DC removal, pre-emphasis and the window with the
// float operations of Kaldi's ProcessWindow (VSUBPS/VMULPS round as the
// scalar float operations; no FMA).
TEXT ·preemphWindowAVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ cur+8(FP), SI
	MOVQ prev+16(FP), DX
	MOVQ win+24(FP), BX
	MOVQ n+32(FP), CX
	MOVQ k+40(FP), AX
	VBROADCASTSS 0(AX), Y6 // mean
	VBROADCASTSS 4(AX), Y7 // c
	SHRQ $3, CX
	JZ   pdone
ploop:
	VMOVUPS (SI), Y0
	VMOVUPS (DX), Y1
	VSUBPS  Y6, Y0, Y0 // y = cur − mean
	VSUBPS  Y6, Y1, Y1 // yp = prev − mean
	VMULPS  Y7, Y1, Y1 // c·yp
	VSUBPS  Y1, Y0, Y0 // y − c·yp
	VMULPS  (BX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     ploop
pdone:
	VZEROUPPER
	RET

// func pcm16ToFloatAVX2(dst *float32, src *byte, n int)
// dst[i] = float32(int16 little-endian at src[2i]) for i < n (a multiple of
// 8); the int16 → int32 → float conversions are exact.
TEXT ·pcm16ToFloatAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   cdone
cloop:
	VPMOVSXWD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       cloop
cdone:
	VZEROUPPER
	RET
