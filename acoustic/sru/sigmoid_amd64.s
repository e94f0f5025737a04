#include "textflag.h"

// Constants of sigmoid8, eight lanes each: the clamp bounds, log2 e, ln 2
// split in two (Cody–Waite), 1, the exponent bias and the polynomial of
// exp32 (expf.go), whose float32 arithmetic this follows lane by lane
// except that the fused multiply-adds round once.

DATA ·sigHi+0(SB)/4, $0x42b0bd71
DATA ·sigHi+4(SB)/4, $0x42b0bd71
DATA ·sigHi+8(SB)/4, $0x42b0bd71
DATA ·sigHi+12(SB)/4, $0x42b0bd71
DATA ·sigHi+16(SB)/4, $0x42b0bd71
DATA ·sigHi+20(SB)/4, $0x42b0bd71
DATA ·sigHi+24(SB)/4, $0x42b0bd71
DATA ·sigHi+28(SB)/4, $0x42b0bd71
GLOBL ·sigHi(SB), RODATA|NOPTR, $32

DATA ·sigLo+0(SB)/4, $0xc2aea8f6
DATA ·sigLo+4(SB)/4, $0xc2aea8f6
DATA ·sigLo+8(SB)/4, $0xc2aea8f6
DATA ·sigLo+12(SB)/4, $0xc2aea8f6
DATA ·sigLo+16(SB)/4, $0xc2aea8f6
DATA ·sigLo+20(SB)/4, $0xc2aea8f6
DATA ·sigLo+24(SB)/4, $0xc2aea8f6
DATA ·sigLo+28(SB)/4, $0xc2aea8f6
GLOBL ·sigLo(SB), RODATA|NOPTR, $32

DATA ·sigLog2e+0(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+4(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+8(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+12(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+16(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+20(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+24(SB)/4, $0x3fb8aa3b
DATA ·sigLog2e+28(SB)/4, $0x3fb8aa3b
GLOBL ·sigLog2e(SB), RODATA|NOPTR, $32

DATA ·sigC1+0(SB)/4, $0x3f318000
DATA ·sigC1+4(SB)/4, $0x3f318000
DATA ·sigC1+8(SB)/4, $0x3f318000
DATA ·sigC1+12(SB)/4, $0x3f318000
DATA ·sigC1+16(SB)/4, $0x3f318000
DATA ·sigC1+20(SB)/4, $0x3f318000
DATA ·sigC1+24(SB)/4, $0x3f318000
DATA ·sigC1+28(SB)/4, $0x3f318000
GLOBL ·sigC1(SB), RODATA|NOPTR, $32

DATA ·sigC2+0(SB)/4, $0xb95e8083
DATA ·sigC2+4(SB)/4, $0xb95e8083
DATA ·sigC2+8(SB)/4, $0xb95e8083
DATA ·sigC2+12(SB)/4, $0xb95e8083
DATA ·sigC2+16(SB)/4, $0xb95e8083
DATA ·sigC2+20(SB)/4, $0xb95e8083
DATA ·sigC2+24(SB)/4, $0xb95e8083
DATA ·sigC2+28(SB)/4, $0xb95e8083
GLOBL ·sigC2(SB), RODATA|NOPTR, $32

DATA ·sigOne+0(SB)/4, $0x3f800000
DATA ·sigOne+4(SB)/4, $0x3f800000
DATA ·sigOne+8(SB)/4, $0x3f800000
DATA ·sigOne+12(SB)/4, $0x3f800000
DATA ·sigOne+16(SB)/4, $0x3f800000
DATA ·sigOne+20(SB)/4, $0x3f800000
DATA ·sigOne+24(SB)/4, $0x3f800000
DATA ·sigOne+28(SB)/4, $0x3f800000
GLOBL ·sigOne(SB), RODATA|NOPTR, $32

DATA ·sigBias+0(SB)/4, $0x0000007f
DATA ·sigBias+4(SB)/4, $0x0000007f
DATA ·sigBias+8(SB)/4, $0x0000007f
DATA ·sigBias+12(SB)/4, $0x0000007f
DATA ·sigBias+16(SB)/4, $0x0000007f
DATA ·sigBias+20(SB)/4, $0x0000007f
DATA ·sigBias+24(SB)/4, $0x0000007f
DATA ·sigBias+28(SB)/4, $0x0000007f
GLOBL ·sigBias(SB), RODATA|NOPTR, $32

DATA ·sigP0+0(SB)/4, $0x39506967
DATA ·sigP0+4(SB)/4, $0x39506967
DATA ·sigP0+8(SB)/4, $0x39506967
DATA ·sigP0+12(SB)/4, $0x39506967
DATA ·sigP0+16(SB)/4, $0x39506967
DATA ·sigP0+20(SB)/4, $0x39506967
DATA ·sigP0+24(SB)/4, $0x39506967
DATA ·sigP0+28(SB)/4, $0x39506967
GLOBL ·sigP0(SB), RODATA|NOPTR, $32

DATA ·sigP1+0(SB)/4, $0x3ab743ce
DATA ·sigP1+4(SB)/4, $0x3ab743ce
DATA ·sigP1+8(SB)/4, $0x3ab743ce
DATA ·sigP1+12(SB)/4, $0x3ab743ce
DATA ·sigP1+16(SB)/4, $0x3ab743ce
DATA ·sigP1+20(SB)/4, $0x3ab743ce
DATA ·sigP1+24(SB)/4, $0x3ab743ce
DATA ·sigP1+28(SB)/4, $0x3ab743ce
GLOBL ·sigP1(SB), RODATA|NOPTR, $32

DATA ·sigP2+0(SB)/4, $0x3c088908
DATA ·sigP2+4(SB)/4, $0x3c088908
DATA ·sigP2+8(SB)/4, $0x3c088908
DATA ·sigP2+12(SB)/4, $0x3c088908
DATA ·sigP2+16(SB)/4, $0x3c088908
DATA ·sigP2+20(SB)/4, $0x3c088908
DATA ·sigP2+24(SB)/4, $0x3c088908
DATA ·sigP2+28(SB)/4, $0x3c088908
GLOBL ·sigP2(SB), RODATA|NOPTR, $32

DATA ·sigP3+0(SB)/4, $0x3d2aa9c1
DATA ·sigP3+4(SB)/4, $0x3d2aa9c1
DATA ·sigP3+8(SB)/4, $0x3d2aa9c1
DATA ·sigP3+12(SB)/4, $0x3d2aa9c1
DATA ·sigP3+16(SB)/4, $0x3d2aa9c1
DATA ·sigP3+20(SB)/4, $0x3d2aa9c1
DATA ·sigP3+24(SB)/4, $0x3d2aa9c1
DATA ·sigP3+28(SB)/4, $0x3d2aa9c1
GLOBL ·sigP3(SB), RODATA|NOPTR, $32

DATA ·sigP4+0(SB)/4, $0x3e2aaaaa
DATA ·sigP4+4(SB)/4, $0x3e2aaaaa
DATA ·sigP4+8(SB)/4, $0x3e2aaaaa
DATA ·sigP4+12(SB)/4, $0x3e2aaaaa
DATA ·sigP4+16(SB)/4, $0x3e2aaaaa
DATA ·sigP4+20(SB)/4, $0x3e2aaaaa
DATA ·sigP4+24(SB)/4, $0x3e2aaaaa
DATA ·sigP4+28(SB)/4, $0x3e2aaaaa
GLOBL ·sigP4(SB), RODATA|NOPTR, $32

DATA ·sigP5+0(SB)/4, $0x3f000000
DATA ·sigP5+4(SB)/4, $0x3f000000
DATA ·sigP5+8(SB)/4, $0x3f000000
DATA ·sigP5+12(SB)/4, $0x3f000000
DATA ·sigP5+16(SB)/4, $0x3f000000
DATA ·sigP5+20(SB)/4, $0x3f000000
DATA ·sigP5+24(SB)/4, $0x3f000000
DATA ·sigP5+28(SB)/4, $0x3f000000
GLOBL ·sigP5(SB), RODATA|NOPTR, $32

// EXP8 sets Y0 to e^{Y0} lane by lane as exp32 computes it (clamp to
// [sigLo, sigHi], fx = round(x·log2 e), r = x − fx·ln 2 in two parts
// (Cody–Waite), y = 1 + r + r²·P(r), then y·2^fx through the exponent
// bits), the multiply-adds rounded once. It needs the polynomial in Y8-Y13
// and 1 in Y14, and overwrites Y1-Y5.
#define EXP8 \
	VMINPS  ·sigHi(SB), Y0, Y0 \
	VMAXPS  ·sigLo(SB), Y0, Y0 \
	VMULPS  ·sigLog2e(SB), Y0, Y1 \
	VROUNDPS $0, Y1, Y1 \
	VMOVAPS Y0, Y2 \
	VFNMADD231PS ·sigC1(SB), Y1, Y2 \
	VFNMADD231PS ·sigC2(SB), Y1, Y2 \
	VMULPS  Y2, Y2, Y3 \
	VMOVAPS Y8, Y4 \
	VFMADD213PS Y9, Y2, Y4 \
	VFMADD213PS Y10, Y2, Y4 \
	VFMADD213PS Y11, Y2, Y4 \
	VFMADD213PS Y12, Y2, Y4 \
	VFMADD213PS Y13, Y2, Y4 \
	VFMADD213PS Y2, Y3, Y4 \
	VADDPS  Y14, Y4, Y4 \
	VCVTPS2DQ Y1, Y5 \
	VPADDD  ·sigBias(SB), Y5, Y5 \
	VPSLLD  $23, Y5, Y5 \
	VMULPS  Y5, Y4, Y0

// LOADPOLY loads EXP8's constants.
#define LOADPOLY \
	VMOVUPS ·sigP0(SB), Y8 \
	VMOVUPS ·sigP1(SB), Y9 \
	VMOVUPS ·sigP2(SB), Y10 \
	VMOVUPS ·sigP3(SB), Y11 \
	VMOVUPS ·sigP4(SB), Y12 \
	VMOVUPS ·sigP5(SB), Y13 \
	VMOVUPS ·sigOne(SB), Y14

// func sigmoid8(x *float32, n int)
//
// x[i] = σ(x[i]) = 1/(1 + e^{−x[i]}) in place for i < n, n a multiple of 8:
// e^{−x} by EXP8, then one division.
TEXT ·sigmoid8(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JZ   done
	VXORPS  Y7, Y7, Y7
	LOADPOLY
loop:
	VMOVUPS (SI), Y0
	VSUBPS  Y0, Y7, Y0             // x = −x
	EXP8
	VADDPS  Y14, Y0, Y0
	VDIVPS  Y0, Y14, Y0            // 1/(1 + e^{−x})
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ  loop
	VZEROUPPER
done:
	RET

// func exp8(x *float32, n int)
//
// x[i] = e^{x[i]} in place for i < n, n a multiple of 8 (EXP8).
TEXT ·exp8(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JZ   expdone
	LOADPOLY
exploop:
	VMOVUPS (SI), Y0
	EXP8
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ  exploop
	VZEROUPPER
expdone:
	RET
