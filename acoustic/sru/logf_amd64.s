#include "textflag.h"

// Constants of LOG8, each in all eight lanes.
DATA ·logMant+0(SB)/4, $0x007fffff
DATA ·logMant+4(SB)/4, $0x007fffff
DATA ·logMant+8(SB)/4, $0x007fffff
DATA ·logMant+12(SB)/4, $0x007fffff
DATA ·logMant+16(SB)/4, $0x007fffff
DATA ·logMant+20(SB)/4, $0x007fffff
DATA ·logMant+24(SB)/4, $0x007fffff
DATA ·logMant+28(SB)/4, $0x007fffff
GLOBL ·logMant(SB), RODATA|NOPTR, $32
DATA ·logOne+0(SB)/4, $0x3f800000
DATA ·logOne+4(SB)/4, $0x3f800000
DATA ·logOne+8(SB)/4, $0x3f800000
DATA ·logOne+12(SB)/4, $0x3f800000
DATA ·logOne+16(SB)/4, $0x3f800000
DATA ·logOne+20(SB)/4, $0x3f800000
DATA ·logOne+24(SB)/4, $0x3f800000
DATA ·logOne+28(SB)/4, $0x3f800000
GLOBL ·logOne(SB), RODATA|NOPTR, $32
DATA ·logBias+0(SB)/4, $0x0000007f
DATA ·logBias+4(SB)/4, $0x0000007f
DATA ·logBias+8(SB)/4, $0x0000007f
DATA ·logBias+12(SB)/4, $0x0000007f
DATA ·logBias+16(SB)/4, $0x0000007f
DATA ·logBias+20(SB)/4, $0x0000007f
DATA ·logBias+24(SB)/4, $0x0000007f
DATA ·logBias+28(SB)/4, $0x0000007f
GLOBL ·logBias(SB), RODATA|NOPTR, $32
DATA ·logSqrt2+0(SB)/4, $0x3fb504f3
DATA ·logSqrt2+4(SB)/4, $0x3fb504f3
DATA ·logSqrt2+8(SB)/4, $0x3fb504f3
DATA ·logSqrt2+12(SB)/4, $0x3fb504f3
DATA ·logSqrt2+16(SB)/4, $0x3fb504f3
DATA ·logSqrt2+20(SB)/4, $0x3fb504f3
DATA ·logSqrt2+24(SB)/4, $0x3fb504f3
DATA ·logSqrt2+28(SB)/4, $0x3fb504f3
GLOBL ·logSqrt2(SB), RODATA|NOPTR, $32
DATA ·logHalf+0(SB)/4, $0x3f000000
DATA ·logHalf+4(SB)/4, $0x3f000000
DATA ·logHalf+8(SB)/4, $0x3f000000
DATA ·logHalf+12(SB)/4, $0x3f000000
DATA ·logHalf+16(SB)/4, $0x3f000000
DATA ·logHalf+20(SB)/4, $0x3f000000
DATA ·logHalf+24(SB)/4, $0x3f000000
DATA ·logHalf+28(SB)/4, $0x3f000000
GLOBL ·logHalf(SB), RODATA|NOPTR, $32
DATA ·logMinNormal+0(SB)/4, $0x00800000
DATA ·logMinNormal+4(SB)/4, $0x00800000
DATA ·logMinNormal+8(SB)/4, $0x00800000
DATA ·logMinNormal+12(SB)/4, $0x00800000
DATA ·logMinNormal+16(SB)/4, $0x00800000
DATA ·logMinNormal+20(SB)/4, $0x00800000
DATA ·logMinNormal+24(SB)/4, $0x00800000
DATA ·logMinNormal+28(SB)/4, $0x00800000
GLOBL ·logMinNormal(SB), RODATA|NOPTR, $32
DATA ·logSpan+0(SB)/4, $0x7effffff
DATA ·logSpan+4(SB)/4, $0x7effffff
DATA ·logSpan+8(SB)/4, $0x7effffff
DATA ·logSpan+12(SB)/4, $0x7effffff
DATA ·logSpan+16(SB)/4, $0x7effffff
DATA ·logSpan+20(SB)/4, $0x7effffff
DATA ·logSpan+24(SB)/4, $0x7effffff
DATA ·logSpan+28(SB)/4, $0x7effffff
GLOBL ·logSpan(SB), RODATA|NOPTR, $32
DATA ·logP0+0(SB)/4, $0x3d9021bb
DATA ·logP0+4(SB)/4, $0x3d9021bb
DATA ·logP0+8(SB)/4, $0x3d9021bb
DATA ·logP0+12(SB)/4, $0x3d9021bb
DATA ·logP0+16(SB)/4, $0x3d9021bb
DATA ·logP0+20(SB)/4, $0x3d9021bb
DATA ·logP0+24(SB)/4, $0x3d9021bb
DATA ·logP0+28(SB)/4, $0x3d9021bb
GLOBL ·logP0(SB), RODATA|NOPTR, $32
DATA ·logP1+0(SB)/4, $0xbdebd1b8
DATA ·logP1+4(SB)/4, $0xbdebd1b8
DATA ·logP1+8(SB)/4, $0xbdebd1b8
DATA ·logP1+12(SB)/4, $0xbdebd1b8
DATA ·logP1+16(SB)/4, $0xbdebd1b8
DATA ·logP1+20(SB)/4, $0xbdebd1b8
DATA ·logP1+24(SB)/4, $0xbdebd1b8
DATA ·logP1+28(SB)/4, $0xbdebd1b8
GLOBL ·logP1(SB), RODATA|NOPTR, $32
DATA ·logP2+0(SB)/4, $0x3def251a
DATA ·logP2+4(SB)/4, $0x3def251a
DATA ·logP2+8(SB)/4, $0x3def251a
DATA ·logP2+12(SB)/4, $0x3def251a
DATA ·logP2+16(SB)/4, $0x3def251a
DATA ·logP2+20(SB)/4, $0x3def251a
DATA ·logP2+24(SB)/4, $0x3def251a
DATA ·logP2+28(SB)/4, $0x3def251a
GLOBL ·logP2(SB), RODATA|NOPTR, $32
DATA ·logP3+0(SB)/4, $0xbdfe5d4f
DATA ·logP3+4(SB)/4, $0xbdfe5d4f
DATA ·logP3+8(SB)/4, $0xbdfe5d4f
DATA ·logP3+12(SB)/4, $0xbdfe5d4f
DATA ·logP3+16(SB)/4, $0xbdfe5d4f
DATA ·logP3+20(SB)/4, $0xbdfe5d4f
DATA ·logP3+24(SB)/4, $0xbdfe5d4f
DATA ·logP3+28(SB)/4, $0xbdfe5d4f
GLOBL ·logP3(SB), RODATA|NOPTR, $32
DATA ·logP4+0(SB)/4, $0x3e11e9bf
DATA ·logP4+4(SB)/4, $0x3e11e9bf
DATA ·logP4+8(SB)/4, $0x3e11e9bf
DATA ·logP4+12(SB)/4, $0x3e11e9bf
DATA ·logP4+16(SB)/4, $0x3e11e9bf
DATA ·logP4+20(SB)/4, $0x3e11e9bf
DATA ·logP4+24(SB)/4, $0x3e11e9bf
DATA ·logP4+28(SB)/4, $0x3e11e9bf
GLOBL ·logP4(SB), RODATA|NOPTR, $32
DATA ·logP5+0(SB)/4, $0xbe2aae50
DATA ·logP5+4(SB)/4, $0xbe2aae50
DATA ·logP5+8(SB)/4, $0xbe2aae50
DATA ·logP5+12(SB)/4, $0xbe2aae50
DATA ·logP5+16(SB)/4, $0xbe2aae50
DATA ·logP5+20(SB)/4, $0xbe2aae50
DATA ·logP5+24(SB)/4, $0xbe2aae50
DATA ·logP5+28(SB)/4, $0xbe2aae50
GLOBL ·logP5(SB), RODATA|NOPTR, $32
DATA ·logP6+0(SB)/4, $0x3e4cceac
DATA ·logP6+4(SB)/4, $0x3e4cceac
DATA ·logP6+8(SB)/4, $0x3e4cceac
DATA ·logP6+12(SB)/4, $0x3e4cceac
DATA ·logP6+16(SB)/4, $0x3e4cceac
DATA ·logP6+20(SB)/4, $0x3e4cceac
DATA ·logP6+24(SB)/4, $0x3e4cceac
DATA ·logP6+28(SB)/4, $0x3e4cceac
GLOBL ·logP6(SB), RODATA|NOPTR, $32
DATA ·logP7+0(SB)/4, $0xbe7ffffc
DATA ·logP7+4(SB)/4, $0xbe7ffffc
DATA ·logP7+8(SB)/4, $0xbe7ffffc
DATA ·logP7+12(SB)/4, $0xbe7ffffc
DATA ·logP7+16(SB)/4, $0xbe7ffffc
DATA ·logP7+20(SB)/4, $0xbe7ffffc
DATA ·logP7+24(SB)/4, $0xbe7ffffc
DATA ·logP7+28(SB)/4, $0xbe7ffffc
GLOBL ·logP7(SB), RODATA|NOPTR, $32
DATA ·logP8+0(SB)/4, $0x3eaaaaaa
DATA ·logP8+4(SB)/4, $0x3eaaaaaa
DATA ·logP8+8(SB)/4, $0x3eaaaaaa
DATA ·logP8+12(SB)/4, $0x3eaaaaaa
DATA ·logP8+16(SB)/4, $0x3eaaaaaa
DATA ·logP8+20(SB)/4, $0x3eaaaaaa
DATA ·logP8+24(SB)/4, $0x3eaaaaaa
DATA ·logP8+28(SB)/4, $0x3eaaaaaa
GLOBL ·logP8(SB), RODATA|NOPTR, $32
DATA ·logLn2Lo+0(SB)/4, $0xb95e8083
DATA ·logLn2Lo+4(SB)/4, $0xb95e8083
DATA ·logLn2Lo+8(SB)/4, $0xb95e8083
DATA ·logLn2Lo+12(SB)/4, $0xb95e8083
DATA ·logLn2Lo+16(SB)/4, $0xb95e8083
DATA ·logLn2Lo+20(SB)/4, $0xb95e8083
DATA ·logLn2Lo+24(SB)/4, $0xb95e8083
DATA ·logLn2Lo+28(SB)/4, $0xb95e8083
GLOBL ·logLn2Lo(SB), RODATA|NOPTR, $32
DATA ·logNegHalf+0(SB)/4, $0xbf000000
DATA ·logNegHalf+4(SB)/4, $0xbf000000
DATA ·logNegHalf+8(SB)/4, $0xbf000000
DATA ·logNegHalf+12(SB)/4, $0xbf000000
DATA ·logNegHalf+16(SB)/4, $0xbf000000
DATA ·logNegHalf+20(SB)/4, $0xbf000000
DATA ·logNegHalf+24(SB)/4, $0xbf000000
DATA ·logNegHalf+28(SB)/4, $0xbf000000
GLOBL ·logNegHalf(SB), RODATA|NOPTR, $32
DATA ·logLn2Hi+0(SB)/4, $0x3f318000
DATA ·logLn2Hi+4(SB)/4, $0x3f318000
DATA ·logLn2Hi+8(SB)/4, $0x3f318000
DATA ·logLn2Hi+12(SB)/4, $0x3f318000
DATA ·logLn2Hi+16(SB)/4, $0x3f318000
DATA ·logLn2Hi+20(SB)/4, $0x3f318000
DATA ·logLn2Hi+24(SB)/4, $0x3f318000
DATA ·logLn2Hi+28(SB)/4, $0x3f318000
GLOBL ·logLn2Hi(SB), RODATA|NOPTR, $32

// func log8(x *float32, n int) int
//
// x[i] = log x[i] in place, eight at a time, for i < n (n a multiple of 8),
// by log32's steps with fused multiply-adds. It stops before the first
// block of eight that holds a value other than a positive normal float
// (zero, subnormal, negative, infinite or NaN), which the caller takes by
// the scalar path, and returns how many values it did.
TEXT ·log8(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	XORQ AX, AX
	SHRQ $3, CX
	JZ   logdone
	VMOVUPS ·logMant(SB), Y8
	VMOVUPS ·logOne(SB), Y9
	VMOVUPS ·logSqrt2(SB), Y10
	VMOVUPS ·logMinNormal(SB), Y11
	VMOVUPS ·logSpan(SB), Y12
	VPXOR   Y13, Y13, Y13
logloop:
	VMOVUPS (SI), Y0
	// special lanes: t = bits − 0x00800000 outside [0, 0x7effffff]
	VPSUBD   Y11, Y0, Y1
	VPCMPGTD Y12, Y1, Y2           // t > 0x7effffff
	VPCMPGTD Y1, Y13, Y3           // 0 > t
	VPOR     Y2, Y3, Y2
	VPTEST   Y2, Y2
	JNZ      logstop
	// x = 2^e·m, m in [1, 2); m > √2: m/2, e + 1
	VPSRLD   $23, Y0, Y1
	VPSUBD   ·logBias(SB), Y1, Y1  // e
	VPAND    Y8, Y0, Y2
	VPOR     Y9, Y2, Y2            // m
	VCMPPS   $0x1e, Y10, Y2, Y3    // m > √2 (all ones)
	VMULPS   ·logHalf(SB), Y2, Y4
	VBLENDVPS Y3, Y4, Y2, Y2
	VPSUBD   Y3, Y1, Y1            // e − (−1)
	VCVTDQ2PS Y1, Y1               // e as float
	VSUBPS   Y9, Y2, Y2            // f = m − 1
	VMULPS   Y2, Y2, Y3            // z = f²
	VMOVUPS  ·logP0(SB), Y4
	VFMADD213PS ·logP1(SB), Y2, Y4
	VFMADD213PS ·logP2(SB), Y2, Y4
	VFMADD213PS ·logP3(SB), Y2, Y4
	VFMADD213PS ·logP4(SB), Y2, Y4
	VFMADD213PS ·logP5(SB), Y2, Y4
	VFMADD213PS ·logP6(SB), Y2, Y4
	VFMADD213PS ·logP7(SB), Y2, Y4
	VFMADD213PS ·logP8(SB), Y2, Y4
	VMULPS   Y2, Y3, Y5            // z·f
	VMULPS   Y5, Y4, Y4            // y = P(f)·z·f
	VFMADD231PS ·logLn2Lo(SB), Y1, Y4   // y += e·ln2lo
	VFMADD231PS ·logNegHalf(SB), Y3, Y4 // y −= z/2
	VADDPS   Y4, Y2, Y4            // f + y
	VFMADD231PS ·logLn2Hi(SB), Y1, Y4   // + e·ln2hi
	VMOVUPS  Y4, (SI)
	ADDQ $32, SI
	ADDQ $8, AX
	DECQ CX
	JNZ  logloop
logstop:
	VZEROUPPER
logdone:
	MOVQ AX, ret+16(FP)
	RET
