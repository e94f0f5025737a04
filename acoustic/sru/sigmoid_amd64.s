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

// func sigmoid8(x *float32, n int)
//
// x[i] = σ(x[i]) = 1/(1 + e^{−x[i]}) in place for i < n, n a multiple of 8:
// e^{−x} as exp32 computes it (clamp, n = round(x·log2 e), r = x − n·ln 2,
// polynomial, scale by 2^n through the exponent bits), then one division.
TEXT ·sigmoid8(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JZ   done
	VXORPS  Y7, Y7, Y7
	VMOVUPS ·sigP0(SB), Y8
	VMOVUPS ·sigP1(SB), Y9
	VMOVUPS ·sigP2(SB), Y10
	VMOVUPS ·sigP3(SB), Y11
	VMOVUPS ·sigP4(SB), Y12
	VMOVUPS ·sigP5(SB), Y13
	VMOVUPS ·sigOne(SB), Y14
loop:
	VMOVUPS (SI), Y0
	VSUBPS  Y0, Y7, Y0             // x = −x
	VMINPS  ·sigHi(SB), Y0, Y0
	VMAXPS  ·sigLo(SB), Y0, Y0
	VMULPS  ·sigLog2e(SB), Y0, Y1
	VROUNDPS $0, Y1, Y1            // fx = round(x·log2 e)
	VMOVAPS Y0, Y2
	VFNMADD231PS ·sigC1(SB), Y1, Y2 // r = x − fx·c1
	VFNMADD231PS ·sigC2(SB), Y1, Y2 // r −= fx·c2
	VMULPS  Y2, Y2, Y3             // z = r²
	VMOVAPS Y8, Y4
	VFMADD213PS Y9, Y2, Y4         // y = y·r + p1
	VFMADD213PS Y10, Y2, Y4
	VFMADD213PS Y11, Y2, Y4
	VFMADD213PS Y12, Y2, Y4
	VFMADD213PS Y13, Y2, Y4
	VFMADD213PS Y2, Y3, Y4         // y = y·z + r
	VADDPS  Y14, Y4, Y4            // y += 1
	VCVTPS2DQ Y1, Y5
	VPADDD  ·sigBias(SB), Y5, Y5
	VPSLLD  $23, Y5, Y5            // 2^fx
	VMULPS  Y5, Y4, Y4             // e^{−x}
	VADDPS  Y14, Y4, Y4
	VDIVPS  Y4, Y14, Y0            // 1/(1 + e^{−x})
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ  loop
	VZEROUPPER
done:
	RET

// func exp8(x *float32, n int)
//
// x[i] = e^{x[i]} in place for i < n, n a multiple of 8: sigmoid8's steps
// without the negation and the division (exp32's steps lane by lane, the
// multiply-adds rounded once).
TEXT ·exp8(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JZ   expdone
	VMOVUPS ·sigP0(SB), Y8
	VMOVUPS ·sigP1(SB), Y9
	VMOVUPS ·sigP2(SB), Y10
	VMOVUPS ·sigP3(SB), Y11
	VMOVUPS ·sigP4(SB), Y12
	VMOVUPS ·sigP5(SB), Y13
	VMOVUPS ·sigOne(SB), Y14
exploop:
	VMOVUPS (SI), Y0
	VMINPS  ·sigHi(SB), Y0, Y0
	VMAXPS  ·sigLo(SB), Y0, Y0
	VMULPS  ·sigLog2e(SB), Y0, Y1
	VROUNDPS $0, Y1, Y1            // fx = round(x·log2 e)
	VMOVAPS Y0, Y2
	VFNMADD231PS ·sigC1(SB), Y1, Y2 // r = x − fx·c1
	VFNMADD231PS ·sigC2(SB), Y1, Y2 // r −= fx·c2
	VMULPS  Y2, Y2, Y3             // z = r²
	VMOVAPS Y8, Y4
	VFMADD213PS Y9, Y2, Y4         // y = y·r + p1
	VFMADD213PS Y10, Y2, Y4
	VFMADD213PS Y11, Y2, Y4
	VFMADD213PS Y12, Y2, Y4
	VFMADD213PS Y13, Y2, Y4
	VFMADD213PS Y2, Y3, Y4         // y = y·z + r
	VADDPS  Y14, Y4, Y4            // y += 1
	VCVTPS2DQ Y1, Y5
	VPADDD  ·sigBias(SB), Y5, Y5
	VPSLLD  $23, Y5, Y5            // 2^fx
	VMULPS  Y5, Y4, Y0             // e^x
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ  exploop
	VZEROUPPER
expdone:
	RET
