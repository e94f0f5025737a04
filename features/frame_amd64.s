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

// func logFloorAVX2(dst *float32, src *float64, n int, tabs *logTables)
// dst[i] = log32(max(float64(float32(src[i])), FLT_EPSILON)) for i < n (a
// multiple of 4), for src below the float maximum: fastlog.go's log32 with
// the same double operations in the same order (no FMA), four at a time.
// tabs points at logTables {logTab, invTab, consts}.
TEXT ·logFloorAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tabs+24(FP), DX
	SHRQ $2, CX
	JZ   lgdone
	LEAQ 2048(DX), R8 // invTab
	LEAQ 4096(DX), R9 // consts
	VBROADCASTSD 0(R9), Y15  // FLT_EPSILON
	VPBROADCASTQ 8(R9), Y14  // mantissa mask 2^52−1
	VPBROADCASTQ 16(R9), Y13 // bits of 1.0 (exponent 1023)
	VPBROADCASTQ 24(R9), Y12 // 255
	VPBROADCASTQ 32(R9), Y11 // bits of 2^52
	VBROADCASTSD 40(R9), Y10 // 2^52 + 1023
lgloop:
	VMOVUPD  (SI), Y0
	VCVTPD2PSY Y0, X0      // float32(src)
	VCVTPS2PD X0, Y0
	VMAXPD   Y15, Y0, Y0   // max(x, FLT_EPSILON) (x is not NaN)
	// exponent: 2^52 + biased exponent, minus 2^52 + 1023 (exact)
	VPSRLQ   $52, Y0, Y1
	VPOR     Y11, Y1, Y1
	VSUBPD   Y10, Y1, Y1   // E = exp − 1023 as a double
	// m = mantissa with exponent 1023; j = top 8 mantissa bits
	VPAND    Y14, Y0, Y2
	VPOR     Y13, Y2, Y2   // m
	VPSRLQ   $44, Y0, Y3
	VPAND    Y12, Y3, Y3   // j
	VPCMPEQQ Y4, Y4, Y4
	VGATHERQPD Y4, (R8)(Y3*8), Y5 // invTab[j]
	VPCMPEQQ Y4, Y4, Y4
	VGATHERQPD Y4, (DX)(Y3*8), Y6 // logTab[j]
	VMULPD   Y5, Y2, Y2         // m·inv
	VBROADCASTSD 48(R9), Y7     // 1
	VSUBPD   Y7, Y2, Y2         // r
	VMULPD   Y2, Y2, Y3         // r2
	VBROADCASTSD 56(R9), Y8     // 0.5
	VMULPD   Y8, Y2, Y8         // 0.5·r
	VSUBPD   Y8, Y7, Y8         // 1 − 0.5r
	VMULPD   Y8, Y2, Y8         // a = r·(1 − 0.5r)
	VBROADCASTSD 64(R9), Y9     // 1/6
	VMULPD   Y9, Y2, Y9         // r·(1/6)
	VBROADCASTSD 72(R9), Y7     // 1/5
	VSUBPD   Y9, Y7, Y9         // 1/5 − r/6
	VMULPD   Y9, Y3, Y9         // c = r2·(1/5 − r/6)
	VBROADCASTSD 80(R9), Y7     // 0.25
	VMULPD   Y7, Y2, Y7         // 0.25·r
	VBROADCASTSD 88(R9), Y4     // 1/3
	VSUBPD   Y7, Y4, Y7         // 1/3 − 0.25r
	VADDPD   Y9, Y7, Y7         // (1/3 − 0.25r) + c
	VMULPD   Y2, Y3, Y3         // r2·r
	VMULPD   Y7, Y3, Y3         // q
	VADDPD   Y3, Y8, Y8         // a + q
	VBROADCASTSD 96(R9), Y7     // ln 2
	VMULPD   Y7, Y1, Y1         // E·ln2
	VADDPD   Y6, Y1, Y1         // + logTab[j]
	VADDPD   Y8, Y1, Y1         // + (a + q)
	VCVTPD2PSY Y1, X1
	VMOVUPS  X1, (DI)
	ADDQ     $32, SI
	ADDQ     $16, DI
	DECQ     CX
	JNZ      lgloop
lgdone:
	VZEROUPPER
	RET
