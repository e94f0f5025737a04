//go:build amd64 && !purego

#include "textflag.h"

// Kernels of the 8-frame split-radix FFT (srfft_batch.go). Data are laid out
// element-major, eight frames per element: lane l of the 32 bytes at element
// e belongs to frame l. Every lane sees exactly the scalar float operations
// of Kaldi's code (VADDPS, VSUBPS, VMULPS round as scalar float ops; no
// FMA), so each frame's result is bit-identical to the one-frame code.

// func srTwiddleBatchAVX(r, i, c, spc, smc *float32, n int)
// For n elements: t2 = c*(r+i); r, i = smc*i + t2, spc*r + t2, with the
// table values c, spc, smc (one float per element) broadcast to the lanes.
TEXT ·srTwiddleBatchAVX(SB), NOSPLIT, $0-48
	MOVQ r+0(FP), AX
	MOVQ i+8(FP), BX
	MOVQ c+16(FP), DX
	MOVQ spc+24(FP), SI
	MOVQ smc+32(FP), DI
	MOVQ n+40(FP), CX
	TESTQ CX, CX
	JZ   tdone
tloop:
	VBROADCASTSS (DX), Y4
	VBROADCASTSS (SI), Y5
	VBROADCASTSS (DI), Y6
	VMOVUPS (AX), Y0   // r
	VMOVUPS (BX), Y1   // i
	VADDPS  Y1, Y0, Y2 // r+i
	VMULPS  Y4, Y2, Y2 // t2 = c*(r+i)
	VMULPS  Y5, Y0, Y3 // spc*r
	VADDPS  Y2, Y3, Y3 // spc*r + t2
	VMULPS  Y6, Y1, Y7 // smc*i
	VADDPS  Y2, Y7, Y7 // smc*i + t2
	VMOVUPS Y7, (AX)
	VMOVUPS Y3, (BX)
	ADDQ    $32, AX
	ADDQ    $32, BX
	ADDQ    $4, DX
	ADDQ    $4, SI
	ADDQ    $4, DI
	DECQ    CX
	JNZ     tloop
tdone:
	VZEROUPPER
	RET

// func srEighthBatchAVX(r1, i1, r2, i2 *float32, k *[2]float32)
// The n = m/8 element of steps 3 and 4, k = {√½, −√½}:
// r1, i1 = √½·(r1+i1), √½·(i1−r1); r2, i2 = √½·(i2−r2), −√½·(r2+i2).
TEXT ·srEighthBatchAVX(SB), NOSPLIT, $0-40
	MOVQ r1+0(FP), AX
	MOVQ i1+8(FP), BX
	MOVQ r2+16(FP), DX
	MOVQ i2+24(FP), SI
	MOVQ k+32(FP), DI
	VBROADCASTSS (DI), Y6  // √½
	VBROADCASTSS 4(DI), Y7 // −√½
	VMOVUPS (AX), Y0
	VMOVUPS (BX), Y1
	VADDPS  Y1, Y0, Y2 // a+b
	VSUBPS  Y0, Y1, Y3 // b−a
	VMULPS  Y6, Y2, Y2
	VMULPS  Y6, Y3, Y3
	VMOVUPS Y2, (AX)
	VMOVUPS Y3, (BX)
	VMOVUPS (DX), Y0
	VMOVUPS (SI), Y1
	VSUBPS  Y0, Y1, Y2 // b−a
	VADDPS  Y1, Y0, Y3 // a+b
	VMULPS  Y6, Y2, Y2
	VMULPS  Y7, Y3, Y3
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, (SI)
	VZEROUPPER
	RET

// func srUntanglePowerBatchAVX(re, im *float32, rev *int32, kN *float32, out *float32, n2 int, half *[2]float32)
// For k = 1 … n2/2 (half = {0.5, −0.5}): a = Z[rev k], b = Z[rev (n2−k)],
// C = (½(aRe+bRe), ½(aIm−bIm)), D = (½(aIm+bIm), −½(aRe−bRe)),
// t = kRe·DRe − kIm·DIm, u = kRe·DIm + kIm·DRe;
// out[k] = (CRe+t)² + (CIm+u)², out[n2−k] = (CRe−t)² + (u−CIm)² — the
// operations of srfft.go's untanglePower, lane by lane.
TEXT ·srUntanglePowerBatchAVX(SB), NOSPLIT, $0-56
	MOVQ re+0(FP), AX
	MOVQ im+8(FP), BX
	MOVQ rev+16(FP), SI
	MOVQ kN+24(FP), DX
	MOVQ out+32(FP), DI
	MOVQ n2+40(FP), CX
	MOVQ half+48(FP), R13
	VBROADCASTSS (R13), Y14  // 0.5
	VBROADCASTSS 4(R13), Y15 // −0.5
	MOVQ $1, R8
uloop:
	MOVQ R8, R12
	SHLQ $1, R12
	CMPQ R12, CX
	JGT  udone
	MOVQ CX, R9
	SUBQ R8, R9 // kd = n2−k
	MOVLQSX (SI)(R8*4), R10
	MOVLQSX (SI)(R9*4), R11
	SHLQ $5, R10
	SHLQ $5, R11
	VMOVUPS (AX)(R10*1), Y0 // aRe
	VMOVUPS (BX)(R10*1), Y1 // aIm
	VMOVUPS (AX)(R11*1), Y2 // bRe
	VMOVUPS (BX)(R11*1), Y3 // bIm
	VBROADCASTSS (DX)(R8*8), Y4  // kRe
	VBROADCASTSS 4(DX)(R8*8), Y5 // kIm
	VADDPS  Y2, Y0, Y6
	VMULPS  Y14, Y6, Y6 // CRe
	VSUBPS  Y3, Y1, Y7
	VMULPS  Y14, Y7, Y7 // CIm
	VADDPS  Y3, Y1, Y8
	VMULPS  Y14, Y8, Y8 // DRe
	VSUBPS  Y2, Y0, Y9
	VMULPS  Y15, Y9, Y9 // DIm
	VMULPS  Y8, Y4, Y10
	VMULPS  Y9, Y5, Y11
	VSUBPS  Y11, Y10, Y10 // t
	VMULPS  Y9, Y4, Y11
	VMULPS  Y8, Y5, Y12
	VADDPS  Y12, Y11, Y11 // u
	VADDPS  Y10, Y6, Y12 // xr
	VADDPS  Y11, Y7, Y13 // xi
	VMULPS  Y12, Y12, Y12
	VMULPS  Y13, Y13, Y13
	VADDPS  Y13, Y12, Y12
	MOVQ    R8, R12
	SHLQ    $5, R12
	VMOVUPS Y12, (DI)(R12*1)
	CMPQ    R9, R8
	JEQ     unext
	VSUBPS  Y10, Y6, Y12 // yr = CRe − t
	VSUBPS  Y7, Y11, Y13 // yi = u − CIm
	VMULPS  Y12, Y12, Y12
	VMULPS  Y13, Y13, Y13
	VADDPS  Y13, Y12, Y12
	MOVQ    R9, R12
	SHLQ    $5, R12
	VMOVUPS Y12, (DI)(R12*1)
unext:
	INCQ R8
	JMP  uloop
udone:
	VZEROUPPER
	RET

// TRANSPOSE8 transposes the 8×8 floats in Y0…Y7 (row r in Yr) into Y8…Y15
// (column c in Y(8+c)), clobbering Y0…Y7. Shuffles move bits; they do not
// round.
#define TRANSPOSE8 \
	VUNPCKLPS Y1, Y0, Y8 \
	VUNPCKHPS Y1, Y0, Y9 \
	VUNPCKLPS Y3, Y2, Y10 \
	VUNPCKHPS Y3, Y2, Y11 \
	VUNPCKLPS Y5, Y4, Y12 \
	VUNPCKHPS Y5, Y4, Y13 \
	VUNPCKLPS Y7, Y6, Y14 \
	VUNPCKHPS Y7, Y6, Y15 \
	VSHUFPS $0x44, Y10, Y8, Y0 \
	VSHUFPS $0xEE, Y10, Y8, Y1 \
	VSHUFPS $0x44, Y11, Y9, Y2 \
	VSHUFPS $0xEE, Y11, Y9, Y3 \
	VSHUFPS $0x44, Y14, Y12, Y4 \
	VSHUFPS $0xEE, Y14, Y12, Y5 \
	VSHUFPS $0x44, Y15, Y13, Y6 \
	VSHUFPS $0xEE, Y15, Y13, Y7 \
	VPERM2F128 $0x20, Y4, Y0, Y8 \
	VPERM2F128 $0x20, Y5, Y1, Y9 \
	VPERM2F128 $0x20, Y6, Y2, Y10 \
	VPERM2F128 $0x20, Y7, Y3, Y11 \
	VPERM2F128 $0x31, Y4, Y0, Y12 \
	VPERM2F128 $0x31, Y5, Y1, Y13 \
	VPERM2F128 $0x31, Y6, Y2, Y14 \
	VPERM2F128 $0x31, Y7, Y3, Y15

// func srLoadBatchAVX(frames *[8]*float32, re, im *float32, cn int)
// re[i·8+l], im[i·8+l] = frames[l][2i], frames[l][2i+1] for i < cn (a
// multiple of 4): 8 floats (4 complex values) of each frame per pass.
TEXT ·srLoadBatchAVX(SB), NOSPLIT, $0-32
	MOVQ frames+0(FP), R8
	MOVQ re+8(FP), DI
	MOVQ im+16(FP), SI
	MOVQ cn+24(FP), CX
	SHRQ $2, CX
	JZ   ldone
	MOVQ 0(R8), AX
	MOVQ 8(R8), BX
	MOVQ 16(R8), DX
	MOVQ 24(R8), R9
	MOVQ 32(R8), R10
	MOVQ 40(R8), R11
	MOVQ 48(R8), R12
	MOVQ 56(R8), R13
	XORQ R14, R14 // byte offset into the frames
lloop:
	VMOVUPS (AX)(R14*1), Y0
	VMOVUPS (BX)(R14*1), Y1
	VMOVUPS (DX)(R14*1), Y2
	VMOVUPS (R9)(R14*1), Y3
	VMOVUPS (R10)(R14*1), Y4
	VMOVUPS (R11)(R14*1), Y5
	VMOVUPS (R12)(R14*1), Y6
	VMOVUPS (R13)(R14*1), Y7
	TRANSPOSE8
	VMOVUPS Y8, 0(DI)
	VMOVUPS Y9, 0(SI)
	VMOVUPS Y10, 32(DI)
	VMOVUPS Y11, 32(SI)
	VMOVUPS Y12, 64(DI)
	VMOVUPS Y13, 64(SI)
	VMOVUPS Y14, 96(DI)
	VMOVUPS Y15, 96(SI)
	ADDQ $32, R14
	ADDQ $128, DI
	ADDQ $128, SI
	DECQ CX
	JNZ  lloop
ldone:
	VZEROUPPER
	RET

// func srStoreBatchAVX(pow *float32, outs *[8]*float64, nk int)
// outs[l][k] = float64(pow[k·8+l]) for k < nk (a multiple of 8).
TEXT ·srStoreBatchAVX(SB), NOSPLIT, $0-24
	MOVQ pow+0(FP), SI
	MOVQ outs+8(FP), R8
	MOVQ nk+16(FP), CX
	SHRQ $3, CX
	JZ   sdone
	MOVQ 0(R8), AX
	MOVQ 8(R8), BX
	MOVQ 16(R8), DX
	MOVQ 24(R8), R9
	MOVQ 32(R8), R10
	MOVQ 40(R8), R11
	MOVQ 48(R8), R12
	MOVQ 56(R8), R13
	XORQ R14, R14 // byte offset into the outputs
sloop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VMOVUPS 128(SI), Y4
	VMOVUPS 160(SI), Y5
	VMOVUPS 192(SI), Y6
	VMOVUPS 224(SI), Y7
	TRANSPOSE8
	VCVTPS2PD X8, Y0
	VEXTRACTF128 $1, Y8, X8
	VCVTPS2PD X8, Y1
	VMOVUPD Y0, (AX)(R14*1)
	VMOVUPD Y1, 32(AX)(R14*1)
	VCVTPS2PD X9, Y0
	VEXTRACTF128 $1, Y9, X9
	VCVTPS2PD X9, Y1
	VMOVUPD Y0, (BX)(R14*1)
	VMOVUPD Y1, 32(BX)(R14*1)
	VCVTPS2PD X10, Y0
	VEXTRACTF128 $1, Y10, X10
	VCVTPS2PD X10, Y1
	VMOVUPD Y0, (DX)(R14*1)
	VMOVUPD Y1, 32(DX)(R14*1)
	VCVTPS2PD X11, Y0
	VEXTRACTF128 $1, Y11, X11
	VCVTPS2PD X11, Y1
	VMOVUPD Y0, (R9)(R14*1)
	VMOVUPD Y1, 32(R9)(R14*1)
	VCVTPS2PD X12, Y0
	VEXTRACTF128 $1, Y12, X12
	VCVTPS2PD X12, Y1
	VMOVUPD Y0, (R10)(R14*1)
	VMOVUPD Y1, 32(R10)(R14*1)
	VCVTPS2PD X13, Y0
	VEXTRACTF128 $1, Y13, X13
	VCVTPS2PD X13, Y1
	VMOVUPD Y0, (R11)(R14*1)
	VMOVUPD Y1, 32(R11)(R14*1)
	VCVTPS2PD X14, Y0
	VEXTRACTF128 $1, Y14, X14
	VCVTPS2PD X14, Y1
	VMOVUPD Y0, (R12)(R14*1)
	VMOVUPD Y1, 32(R12)(R14*1)
	VCVTPS2PD X15, Y0
	VEXTRACTF128 $1, Y15, X15
	VCVTPS2PD X15, Y1
	VMOVUPD Y0, (R13)(R14*1)
	VMOVUPD Y1, 32(R13)(R14*1)
	ADDQ $256, SI
	ADDQ $64, R14
	DECQ CX
	JNZ  sloop
sdone:
	VZEROUPPER
	RET

// func srHeadBatchAVX(xr, xi *float32, m2, m4 int)
// Steps 1 and 2 of the general split-radix step on element-major data:
// x[j], x[j+m2] = x[j]+x[j+m2], x[j]−x[j+m2] for j < m2 (re and im), then
// with r1, i1 at element m2 and r2, i2 at m2+m4:
// r1, i1, r2, i2 = r1+i2, i1−r2, r1−i2, i1+r2 for m4 elements.
TEXT ·srHeadBatchAVX(SB), NOSPLIT, $0-32
	MOVQ xr+0(FP), AX
	MOVQ xi+8(FP), BX
	MOVQ m2+16(FP), CX
	MOVQ m4+24(FP), DX
	MOVQ CX, R8
	SHLQ $5, R8 // m2 elements in bytes
	MOVQ AX, SI
	MOVQ BX, DI
	MOVQ CX, R9
hloop:
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VMOVUPS (DI), Y2
	VMOVUPS (DI)(R8*1), Y3
	VADDPS  Y1, Y0, Y4
	VSUBPS  Y1, Y0, Y5
	VADDPS  Y3, Y2, Y6
	VSUBPS  Y3, Y2, Y7
	VMOVUPS Y4, (SI)
	VMOVUPS Y5, (SI)(R8*1)
	VMOVUPS Y6, (DI)
	VMOVUPS Y7, (DI)(R8*1)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    R9
	JNZ     hloop
	TESTQ DX, DX
	JZ    hdone
	// r1 = xr+m2, i1 = xi+m2, r2 = xr+m2+m4, i2 = xi+m2+m4
	ADDQ R8, AX
	ADDQ R8, BX
	MOVQ DX, R9
	SHLQ $5, R9 // m4 elements in bytes
h2loop:
	VMOVUPS (AX), Y0        // r1
	VMOVUPS (BX), Y1        // i1
	VMOVUPS (AX)(R9*1), Y2  // r2
	VMOVUPS (BX)(R9*1), Y3  // i2
	VADDPS  Y3, Y0, Y4 // r1+i2
	VADDPS  Y2, Y1, Y5 // i1+r2
	VSUBPS  Y2, Y1, Y6 // i1-r2
	VSUBPS  Y3, Y0, Y7 // r1-i2
	VMOVUPS Y4, (AX)
	VMOVUPS Y6, (BX)
	VMOVUPS Y7, (AX)(R9*1)
	VMOVUPS Y5, (BX)(R9*1)
	ADDQ    $32, AX
	ADDQ    $32, BX
	DECQ    DX
	JNZ     h2loop
hdone:
	VZEROUPPER
	RET

// func srFFT4BatchAVX(xr, xi *float32)
// The whole 4-point step (Kaldi's logn = 2 case) on element-major data:
// head with m2 = 2, m4 = 1, then the 2-point butterfly on elements 0, 1.
TEXT ·srFFT4BatchAVX(SB), NOSPLIT, $0-16
	MOVQ xr+0(FP), AX
	MOVQ xi+8(FP), BX
	VMOVUPS 0(AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS 64(AX), Y2
	VMOVUPS 96(AX), Y3
	VMOVUPS 0(BX), Y4
	VMOVUPS 32(BX), Y5
	VMOVUPS 64(BX), Y6
	VMOVUPS 96(BX), Y7
	// step 1
	VADDPS Y2, Y0, Y8  // r0+r2
	VSUBPS Y2, Y0, Y9  // r0-r2 -> r2
	VADDPS Y3, Y1, Y10 // r1+r3
	VSUBPS Y3, Y1, Y11 // r1-r3 -> r3
	VADDPS Y6, Y4, Y12 // i0+i2
	VSUBPS Y6, Y4, Y13 // i2
	VADDPS Y7, Y5, Y14 // i1+i3
	VSUBPS Y7, Y5, Y15 // i3
	// step 2 on (r2, i2, r3, i3) = (Y9, Y13, Y11, Y15)
	VADDPS Y15, Y9, Y0  // r2' = r2+i3
	VSUBPS Y11, Y13, Y1 // i2' = i2-r3
	VSUBPS Y15, Y9, Y2  // r3' = r2-i3
	VADDPS Y11, Y13, Y3 // i3' = i2+r3
	VMOVUPS Y0, 64(AX)
	VMOVUPS Y1, 64(BX)
	VMOVUPS Y2, 96(AX)
	VMOVUPS Y3, 96(BX)
	// 2-point on elements 0, 1
	VADDPS Y10, Y8, Y0
	VSUBPS Y10, Y8, Y1
	VADDPS Y14, Y12, Y2
	VSUBPS Y14, Y12, Y3
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 0(BX)
	VMOVUPS Y3, 32(BX)
	VZEROUPPER
	RET

// func srFFT2BatchAVX(xr, xi *float32)
TEXT ·srFFT2BatchAVX(SB), NOSPLIT, $0-16
	MOVQ xr+0(FP), AX
	MOVQ xi+8(FP), BX
	VMOVUPS 0(AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS 0(BX), Y2
	VMOVUPS 32(BX), Y3
	VADDPS Y1, Y0, Y4
	VSUBPS Y1, Y0, Y5
	VADDPS Y3, Y2, Y6
	VSUBPS Y3, Y2, Y7
	VMOVUPS Y4, 0(AX)
	VMOVUPS Y5, 32(AX)
	VMOVUPS Y6, 0(BX)
	VMOVUPS Y7, 32(BX)
	VZEROUPPER
	RET

// func melBatchAVX(pow *float32, w *float64, n int, out *[8]float64)
// out[l] = Σ_{j<n} w[j]·float64(pow[j·8+l]) for the eight lanes l, in
// double: even and odd j in separate partial sums (4 chains of 4 lanes),
// added at the end.
TEXT ·melBatchAVX(SB), NOSPLIT, $0-32
	MOVQ pow+0(FP), SI
	MOVQ w+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ out+24(FP), DI
	VXORPD Y0, Y0, Y0 // lanes 0-3, even j
	VXORPD Y1, Y1, Y1 // lanes 4-7, even j
	VXORPD Y2, Y2, Y2 // lanes 0-3, odd j
	VXORPD Y3, Y3, Y3 // lanes 4-7, odd j
	MOVQ CX, BX
	SHRQ $1, BX
	JZ   mtail
mloop:
	VBROADCASTSD (DX), Y4
	VBROADCASTSD 8(DX), Y5
	VCVTPS2PD 0(SI), Y6
	VCVTPS2PD 16(SI), Y7
	VCVTPS2PD 32(SI), Y8
	VCVTPS2PD 48(SI), Y9
	VMULPD Y4, Y6, Y6
	VMULPD Y4, Y7, Y7
	VMULPD Y5, Y8, Y8
	VMULPD Y5, Y9, Y9
	VADDPD Y6, Y0, Y0
	VADDPD Y7, Y1, Y1
	VADDPD Y8, Y2, Y2
	VADDPD Y9, Y3, Y3
	ADDQ $16, DX
	ADDQ $64, SI
	DECQ BX
	JNZ  mloop
mtail:
	TESTQ $1, CX
	JZ    mdone
	VBROADCASTSD (DX), Y4
	VCVTPS2PD 0(SI), Y6
	VCVTPS2PD 16(SI), Y7
	VMULPD Y4, Y6, Y6
	VMULPD Y4, Y7, Y7
	VADDPD Y6, Y0, Y0
	VADDPD Y7, Y1, Y1
mdone:
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func srFFT8BatchAVX(xr, xi *float32, k *[2]float32)
// The whole 8-point step (Kaldi's fft8, k = {√½, −√½}) on element-major
// data: the length-2 butterflies between the halves; the 4-point transform
// of elements 0-3; and for elements 4-7 the −i step, the e^{∓iπ/4}
// rotation of elements 5 and 7 and the two 2-point transforms.
TEXT ·srFFT8BatchAVX(SB), NOSPLIT, $0-24
	MOVQ xr+0(FP), AX
	MOVQ xi+8(FP), BX
	MOVQ k+16(FP), DX
	// Step 1, in memory: x[j], x[j+4] = x[j]+x[j+4], x[j]−x[j+4].
	MOVQ $4, CX
	MOVQ AX, SI
	MOVQ BX, DI
f8s1:
	VMOVUPS 0(SI), Y0
	VMOVUPS 128(SI), Y1
	VMOVUPS 0(DI), Y2
	VMOVUPS 128(DI), Y3
	VADDPS  Y1, Y0, Y4
	VSUBPS  Y1, Y0, Y5
	VADDPS  Y3, Y2, Y6
	VSUBPS  Y3, Y2, Y7
	VMOVUPS Y4, 0(SI)
	VMOVUPS Y5, 128(SI)
	VMOVUPS Y6, 0(DI)
	VMOVUPS Y7, 128(DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     f8s1
	// Elements 4-7: r4…r7 in Y0…Y3, i4…i7 in Y4…Y7.
	VBROADCASTSS 0(DX), Y14 // √½
	VBROADCASTSS 4(DX), Y15 // −√½
	VMOVUPS 128(AX), Y0
	VMOVUPS 160(AX), Y1
	VMOVUPS 192(AX), Y2
	VMOVUPS 224(AX), Y3
	VMOVUPS 128(BX), Y4
	VMOVUPS 160(BX), Y5
	VMOVUPS 192(BX), Y6
	VMOVUPS 224(BX), Y7
	// −i step on (4, 6) and (5, 7).
	VADDPS Y6, Y0, Y8  // r4+i6
	VSUBPS Y2, Y4, Y9  // i4−r6
	VSUBPS Y6, Y0, Y10 // r4−i6
	VADDPS Y2, Y4, Y11 // i4+r6
	VADDPS Y7, Y1, Y12 // r5+i7
	VSUBPS Y3, Y5, Y13 // i5−r7
	VSUBPS Y7, Y1, Y0  // r7' = r5−i7
	VADDPS Y3, Y5, Y1  // i7' = i5+r7
	// Rotations: r5 = √½(r5+i5), i5 = √½(i5−r5); r7 = √½(i7−r7), i7 = −√½(r7+i7).
	VADDPS Y13, Y12, Y2
	VMULPS Y14, Y2, Y2 // r5''
	VSUBPS Y12, Y13, Y3
	VMULPS Y14, Y3, Y3 // i5''
	VSUBPS Y0, Y1, Y4
	VMULPS Y14, Y4, Y4 // r7''
	VADDPS Y1, Y0, Y5
	VMULPS Y15, Y5, Y5 // i7''
	// 2-point transforms of (4, 5) and (6, 7).
	VADDPS Y2, Y8, Y6
	VSUBPS Y2, Y8, Y7
	VMOVUPS Y6, 128(AX)
	VMOVUPS Y7, 160(AX)
	VADDPS Y3, Y9, Y6
	VSUBPS Y3, Y9, Y7
	VMOVUPS Y6, 128(BX)
	VMOVUPS Y7, 160(BX)
	VADDPS Y4, Y10, Y6
	VSUBPS Y4, Y10, Y7
	VMOVUPS Y6, 192(AX)
	VMOVUPS Y7, 224(AX)
	VADDPS Y5, Y11, Y6
	VSUBPS Y5, Y11, Y7
	VMOVUPS Y6, 192(BX)
	VMOVUPS Y7, 224(BX)
	// Elements 0-3: the 4-point transform (as srFFT4BatchAVX).
	VMOVUPS 0(AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS 64(AX), Y2
	VMOVUPS 96(AX), Y3
	VMOVUPS 0(BX), Y4
	VMOVUPS 32(BX), Y5
	VMOVUPS 64(BX), Y6
	VMOVUPS 96(BX), Y7
	VADDPS Y2, Y0, Y8
	VSUBPS Y2, Y0, Y9
	VADDPS Y3, Y1, Y10
	VSUBPS Y3, Y1, Y11
	VADDPS Y6, Y4, Y12
	VSUBPS Y6, Y4, Y13
	VADDPS Y7, Y5, Y14
	VSUBPS Y7, Y5, Y15
	VADDPS Y15, Y9, Y0
	VSUBPS Y11, Y13, Y1
	VSUBPS Y15, Y9, Y2
	VADDPS Y11, Y13, Y3
	VMOVUPS Y0, 64(AX)
	VMOVUPS Y1, 64(BX)
	VMOVUPS Y2, 96(AX)
	VMOVUPS Y3, 96(BX)
	VADDPS Y10, Y8, Y0
	VSUBPS Y10, Y8, Y1
	VADDPS Y14, Y12, Y2
	VSUBPS Y14, Y12, Y3
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 0(BX)
	VMOVUPS Y3, 32(BX)
	VZEROUPPER
	RET
