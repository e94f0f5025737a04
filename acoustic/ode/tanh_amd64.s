#include "textflag.h"

// Four-lane tanh with the operations of tanhOne (tanh.go), in the same order,
// so every lane is bitwise tanhOne of its input. In: Y0 = x. Out: Y0 =
// tanh(x). Uses Y1–Y8; Y15 must be zero.
//
//	Y8 = sign(x); Y1 = a = min(|x|, 20) (NaN kept: the second source of
//	VMINPD wins); Y1 = y = −2a; Y2 = t = y·log2e + 1.5·2⁵² (n in the low
//	bits); Y3 = n; Y4 = r = y − n·ln2 (two FMAs); Y5 = p(r) by Horner;
//	Y6 = 2ⁿ from t's bits; Y7 = m = 2ⁿ·p + (2ⁿ − 1); Y0 = (0 − m)/(2 + m) | sign.
#define TANH4 \
	VANDPD       tanhSign<>(SB), Y0, Y8; \
	VANDPD       tanhAbs<>(SB), Y0, Y1; \
	VMOVUPD      tanhClampV<>(SB), Y2; \
	VMINPD       Y1, Y2, Y1; \
	VMULPD       tanhM2<>(SB), Y1, Y1; \
	VMOVUPD      tanhMagic<>(SB), Y2; \
	VFMADD231PD  tanhLog2e<>(SB), Y1, Y2; \
	VSUBPD       tanhMagic<>(SB), Y2, Y3; \
	VMOVAPD      Y1, Y4; \
	VFMADD231PD  tanhNLn2Hi<>(SB), Y3, Y4; \
	VFMADD231PD  tanhNLn2Lo<>(SB), Y3, Y4; \
	VMOVUPD      tanhC0<>(SB), Y5; \
	VFMADD213PD  tanhC1<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC2<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC3<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC4<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC5<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC6<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC7<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC8<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC9<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC10<>(SB), Y4, Y5; \
	VFMADD213PD  tanhC11<>(SB), Y4, Y5; \
	VMULPD       Y4, Y5, Y5; \
	VPADDQ       tanhBias<>(SB), Y2, Y6; \
	VPSLLQ       $52, Y6, Y6; \
	VSUBPD       tanhUnit<>(SB), Y6, Y7; \
	VFMADD231PD  Y5, Y6, Y7; \
	VADDPD       tanhTwo<>(SB), Y7, Y1; \
	VSUBPD       Y7, Y15, Y2; \
	VDIVPD       Y1, Y2, Y2; \
	VORPD        Y8, Y2, Y0

// func tanh64x4(x *float64, n int)
//
// x[0:n] = tanh(x[0:n]) for n a positive multiple of 4.
TEXT ·tanh64x4(SB), NOSPLIT, $0-16
	MOVQ   x+0(FP), SI
	MOVQ   n+8(FP), CX
	VXORPD Y15, Y15, Y15

loop64:
	VMOVUPD (SI), Y0
	TANH4
	VMOVUPD Y0, (SI)
	ADDQ    $32, SI
	SUBQ    $4, CX
	JNZ     loop64
	VZEROUPPER
	RET

DATA tanhAbs<>+0(SB)/8, $0x7fffffffffffffff
DATA tanhAbs<>+8(SB)/8, $0x7fffffffffffffff
DATA tanhAbs<>+16(SB)/8, $0x7fffffffffffffff
DATA tanhAbs<>+24(SB)/8, $0x7fffffffffffffff
GLOBL tanhAbs<>(SB), RODATA|NOPTR, $32
DATA tanhSign<>+0(SB)/8, $0x8000000000000000
DATA tanhSign<>+8(SB)/8, $0x8000000000000000
DATA tanhSign<>+16(SB)/8, $0x8000000000000000
DATA tanhSign<>+24(SB)/8, $0x8000000000000000
GLOBL tanhSign<>(SB), RODATA|NOPTR, $32
DATA tanhClampV<>+0(SB)/8, $0x4034000000000000
DATA tanhClampV<>+8(SB)/8, $0x4034000000000000
DATA tanhClampV<>+16(SB)/8, $0x4034000000000000
DATA tanhClampV<>+24(SB)/8, $0x4034000000000000
GLOBL tanhClampV<>(SB), RODATA|NOPTR, $32
DATA tanhM2<>+0(SB)/8, $0xc000000000000000
DATA tanhM2<>+8(SB)/8, $0xc000000000000000
DATA tanhM2<>+16(SB)/8, $0xc000000000000000
DATA tanhM2<>+24(SB)/8, $0xc000000000000000
GLOBL tanhM2<>(SB), RODATA|NOPTR, $32
DATA tanhLog2e<>+0(SB)/8, $0x3ff71547652b82fe
DATA tanhLog2e<>+8(SB)/8, $0x3ff71547652b82fe
DATA tanhLog2e<>+16(SB)/8, $0x3ff71547652b82fe
DATA tanhLog2e<>+24(SB)/8, $0x3ff71547652b82fe
GLOBL tanhLog2e<>(SB), RODATA|NOPTR, $32
DATA tanhMagic<>+0(SB)/8, $0x4338000000000000
DATA tanhMagic<>+8(SB)/8, $0x4338000000000000
DATA tanhMagic<>+16(SB)/8, $0x4338000000000000
DATA tanhMagic<>+24(SB)/8, $0x4338000000000000
GLOBL tanhMagic<>(SB), RODATA|NOPTR, $32
DATA tanhNLn2Hi<>+0(SB)/8, $0xbfe62e42fee00000
DATA tanhNLn2Hi<>+8(SB)/8, $0xbfe62e42fee00000
DATA tanhNLn2Hi<>+16(SB)/8, $0xbfe62e42fee00000
DATA tanhNLn2Hi<>+24(SB)/8, $0xbfe62e42fee00000
GLOBL tanhNLn2Hi<>(SB), RODATA|NOPTR, $32
DATA tanhNLn2Lo<>+0(SB)/8, $0xbdea39ef35793c76
DATA tanhNLn2Lo<>+8(SB)/8, $0xbdea39ef35793c76
DATA tanhNLn2Lo<>+16(SB)/8, $0xbdea39ef35793c76
DATA tanhNLn2Lo<>+24(SB)/8, $0xbdea39ef35793c76
GLOBL tanhNLn2Lo<>(SB), RODATA|NOPTR, $32
DATA tanhUnit<>+0(SB)/8, $0x3ff0000000000000
DATA tanhUnit<>+8(SB)/8, $0x3ff0000000000000
DATA tanhUnit<>+16(SB)/8, $0x3ff0000000000000
DATA tanhUnit<>+24(SB)/8, $0x3ff0000000000000
GLOBL tanhUnit<>(SB), RODATA|NOPTR, $32
DATA tanhTwo<>+0(SB)/8, $0x4000000000000000
DATA tanhTwo<>+8(SB)/8, $0x4000000000000000
DATA tanhTwo<>+16(SB)/8, $0x4000000000000000
DATA tanhTwo<>+24(SB)/8, $0x4000000000000000
GLOBL tanhTwo<>(SB), RODATA|NOPTR, $32
DATA tanhC0<>+0(SB)/8, $0x3e21eed8eff8d898
DATA tanhC0<>+8(SB)/8, $0x3e21eed8eff8d898
DATA tanhC0<>+16(SB)/8, $0x3e21eed8eff8d898
DATA tanhC0<>+24(SB)/8, $0x3e21eed8eff8d898
GLOBL tanhC0<>(SB), RODATA|NOPTR, $32
DATA tanhC1<>+0(SB)/8, $0x3e5ae64567f544e4
DATA tanhC1<>+8(SB)/8, $0x3e5ae64567f544e4
DATA tanhC1<>+16(SB)/8, $0x3e5ae64567f544e4
DATA tanhC1<>+24(SB)/8, $0x3e5ae64567f544e4
GLOBL tanhC1<>(SB), RODATA|NOPTR, $32
DATA tanhC2<>+0(SB)/8, $0x3e927e4fb7789f5c
DATA tanhC2<>+8(SB)/8, $0x3e927e4fb7789f5c
DATA tanhC2<>+16(SB)/8, $0x3e927e4fb7789f5c
DATA tanhC2<>+24(SB)/8, $0x3e927e4fb7789f5c
GLOBL tanhC2<>(SB), RODATA|NOPTR, $32
DATA tanhC3<>+0(SB)/8, $0x3ec71de3a556c734
DATA tanhC3<>+8(SB)/8, $0x3ec71de3a556c734
DATA tanhC3<>+16(SB)/8, $0x3ec71de3a556c734
DATA tanhC3<>+24(SB)/8, $0x3ec71de3a556c734
GLOBL tanhC3<>(SB), RODATA|NOPTR, $32
DATA tanhC4<>+0(SB)/8, $0x3efa01a01a01a01a
DATA tanhC4<>+8(SB)/8, $0x3efa01a01a01a01a
DATA tanhC4<>+16(SB)/8, $0x3efa01a01a01a01a
DATA tanhC4<>+24(SB)/8, $0x3efa01a01a01a01a
GLOBL tanhC4<>(SB), RODATA|NOPTR, $32
DATA tanhC5<>+0(SB)/8, $0x3f2a01a01a01a01a
DATA tanhC5<>+8(SB)/8, $0x3f2a01a01a01a01a
DATA tanhC5<>+16(SB)/8, $0x3f2a01a01a01a01a
DATA tanhC5<>+24(SB)/8, $0x3f2a01a01a01a01a
GLOBL tanhC5<>(SB), RODATA|NOPTR, $32
DATA tanhC6<>+0(SB)/8, $0x3f56c16c16c16c17
DATA tanhC6<>+8(SB)/8, $0x3f56c16c16c16c17
DATA tanhC6<>+16(SB)/8, $0x3f56c16c16c16c17
DATA tanhC6<>+24(SB)/8, $0x3f56c16c16c16c17
GLOBL tanhC6<>(SB), RODATA|NOPTR, $32
DATA tanhC7<>+0(SB)/8, $0x3f81111111111111
DATA tanhC7<>+8(SB)/8, $0x3f81111111111111
DATA tanhC7<>+16(SB)/8, $0x3f81111111111111
DATA tanhC7<>+24(SB)/8, $0x3f81111111111111
GLOBL tanhC7<>(SB), RODATA|NOPTR, $32
DATA tanhC8<>+0(SB)/8, $0x3fa5555555555555
DATA tanhC8<>+8(SB)/8, $0x3fa5555555555555
DATA tanhC8<>+16(SB)/8, $0x3fa5555555555555
DATA tanhC8<>+24(SB)/8, $0x3fa5555555555555
GLOBL tanhC8<>(SB), RODATA|NOPTR, $32
DATA tanhC9<>+0(SB)/8, $0x3fc5555555555555
DATA tanhC9<>+8(SB)/8, $0x3fc5555555555555
DATA tanhC9<>+16(SB)/8, $0x3fc5555555555555
DATA tanhC9<>+24(SB)/8, $0x3fc5555555555555
GLOBL tanhC9<>(SB), RODATA|NOPTR, $32
DATA tanhC10<>+0(SB)/8, $0x3fe0000000000000
DATA tanhC10<>+8(SB)/8, $0x3fe0000000000000
DATA tanhC10<>+16(SB)/8, $0x3fe0000000000000
DATA tanhC10<>+24(SB)/8, $0x3fe0000000000000
GLOBL tanhC10<>(SB), RODATA|NOPTR, $32
DATA tanhC11<>+0(SB)/8, $0x3ff0000000000000
DATA tanhC11<>+8(SB)/8, $0x3ff0000000000000
DATA tanhC11<>+16(SB)/8, $0x3ff0000000000000
DATA tanhC11<>+24(SB)/8, $0x3ff0000000000000
GLOBL tanhC11<>(SB), RODATA|NOPTR, $32
DATA tanhBias<>+0(SB)/8, $1023
DATA tanhBias<>+8(SB)/8, $1023
DATA tanhBias<>+16(SB)/8, $1023
DATA tanhBias<>+24(SB)/8, $1023
GLOBL tanhBias<>(SB), RODATA|NOPTR, $32

// Eight-lane float32 tanh, the algorithm of TANH4 in float32 (tanhFloat32,
// tanh.go): a = min(|x|, 10), y = −2a = n·ln2 + r (Cody–Waite with the
// float32 split of ln 2), p(r) = r + … + r⁷/7!, m = 2ⁿ·p + (2ⁿ − 1),
// tanh = (0 − m)/(2 + m) | sign. In: Y0 = x. Out: Y0. Uses Y1–Y8; Y15 = 0.
#define TANH8 \
	VANDPS       tanhsSign<>(SB), Y0, Y8; \
	VANDPS       tanhsAbs<>(SB), Y0, Y1; \
	VMOVUPS      tanhsClamp<>(SB), Y2; \
	VMINPS       Y1, Y2, Y1; \
	VMULPS       tanhsM2<>(SB), Y1, Y1; \
	VMOVUPS      tanhsMagic<>(SB), Y2; \
	VFMADD231PS  tanhsLog2e<>(SB), Y1, Y2; \
	VSUBPS       tanhsMagic<>(SB), Y2, Y3; \
	VMOVAPS      Y1, Y4; \
	VFMADD231PS  tanhsNLn2Hi<>(SB), Y3, Y4; \
	VFMADD231PS  tanhsNLn2Lo<>(SB), Y3, Y4; \
	VMOVUPS      tanhsC0<>(SB), Y5; \
	VFMADD213PS  tanhsC1<>(SB), Y4, Y5; \
	VFMADD213PS  tanhsC2<>(SB), Y4, Y5; \
	VFMADD213PS  tanhsC3<>(SB), Y4, Y5; \
	VFMADD213PS  tanhsC4<>(SB), Y4, Y5; \
	VFMADD213PS  tanhsC5<>(SB), Y4, Y5; \
	VFMADD213PS  tanhsC6<>(SB), Y4, Y5; \
	VMULPS       Y4, Y5, Y5; \
	VPADDD       tanhsBias<>(SB), Y2, Y6; \
	VPSLLD       $23, Y6, Y6; \
	VSUBPS       tanhsUnit<>(SB), Y6, Y7; \
	VFMADD231PS  Y5, Y6, Y7; \
	VADDPS       tanhsTwo<>(SB), Y7, Y1; \
	VSUBPS       Y7, Y15, Y2; \
	VDIVPS       Y1, Y2, Y2; \
	VORPS        Y8, Y2, Y0

// func tanh32x8(x *float32, n int)
//
// x[0:n] = tanh(x[0:n]) for n a positive multiple of 8.
TEXT ·tanh32x8(SB), NOSPLIT, $0-16
	MOVQ   x+0(FP), SI
	MOVQ   n+8(FP), CX
	VXORPS Y15, Y15, Y15

loop32x8:
	VMOVUPS (SI), Y0
	TANH8
	VMOVUPS Y0, (SI)
	ADDQ    $32, SI
	SUBQ    $8, CX
	JNZ     loop32x8
	VZEROUPPER
	RET

DATA tanhsAbs<>+0(SB)/4, $0x7fffffff
DATA tanhsAbs<>+4(SB)/4, $0x7fffffff
DATA tanhsAbs<>+8(SB)/4, $0x7fffffff
DATA tanhsAbs<>+12(SB)/4, $0x7fffffff
DATA tanhsAbs<>+16(SB)/4, $0x7fffffff
DATA tanhsAbs<>+20(SB)/4, $0x7fffffff
DATA tanhsAbs<>+24(SB)/4, $0x7fffffff
DATA tanhsAbs<>+28(SB)/4, $0x7fffffff
GLOBL tanhsAbs<>(SB), RODATA|NOPTR, $32
DATA tanhsSign<>+0(SB)/4, $0x80000000
DATA tanhsSign<>+4(SB)/4, $0x80000000
DATA tanhsSign<>+8(SB)/4, $0x80000000
DATA tanhsSign<>+12(SB)/4, $0x80000000
DATA tanhsSign<>+16(SB)/4, $0x80000000
DATA tanhsSign<>+20(SB)/4, $0x80000000
DATA tanhsSign<>+24(SB)/4, $0x80000000
DATA tanhsSign<>+28(SB)/4, $0x80000000
GLOBL tanhsSign<>(SB), RODATA|NOPTR, $32
DATA tanhsBias<>+0(SB)/4, $0x0000007f
DATA tanhsBias<>+4(SB)/4, $0x0000007f
DATA tanhsBias<>+8(SB)/4, $0x0000007f
DATA tanhsBias<>+12(SB)/4, $0x0000007f
DATA tanhsBias<>+16(SB)/4, $0x0000007f
DATA tanhsBias<>+20(SB)/4, $0x0000007f
DATA tanhsBias<>+24(SB)/4, $0x0000007f
DATA tanhsBias<>+28(SB)/4, $0x0000007f
GLOBL tanhsBias<>(SB), RODATA|NOPTR, $32
DATA tanhsClamp<>+0(SB)/4, $0x41200000
DATA tanhsClamp<>+4(SB)/4, $0x41200000
DATA tanhsClamp<>+8(SB)/4, $0x41200000
DATA tanhsClamp<>+12(SB)/4, $0x41200000
DATA tanhsClamp<>+16(SB)/4, $0x41200000
DATA tanhsClamp<>+20(SB)/4, $0x41200000
DATA tanhsClamp<>+24(SB)/4, $0x41200000
DATA tanhsClamp<>+28(SB)/4, $0x41200000
GLOBL tanhsClamp<>(SB), RODATA|NOPTR, $32
DATA tanhsM2<>+0(SB)/4, $0xc0000000
DATA tanhsM2<>+4(SB)/4, $0xc0000000
DATA tanhsM2<>+8(SB)/4, $0xc0000000
DATA tanhsM2<>+12(SB)/4, $0xc0000000
DATA tanhsM2<>+16(SB)/4, $0xc0000000
DATA tanhsM2<>+20(SB)/4, $0xc0000000
DATA tanhsM2<>+24(SB)/4, $0xc0000000
DATA tanhsM2<>+28(SB)/4, $0xc0000000
GLOBL tanhsM2<>(SB), RODATA|NOPTR, $32
DATA tanhsLog2e<>+0(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+4(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+8(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+12(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+16(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+20(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+24(SB)/4, $0x3fb8aa3b
DATA tanhsLog2e<>+28(SB)/4, $0x3fb8aa3b
GLOBL tanhsLog2e<>(SB), RODATA|NOPTR, $32
DATA tanhsMagic<>+0(SB)/4, $0x4b400000
DATA tanhsMagic<>+4(SB)/4, $0x4b400000
DATA tanhsMagic<>+8(SB)/4, $0x4b400000
DATA tanhsMagic<>+12(SB)/4, $0x4b400000
DATA tanhsMagic<>+16(SB)/4, $0x4b400000
DATA tanhsMagic<>+20(SB)/4, $0x4b400000
DATA tanhsMagic<>+24(SB)/4, $0x4b400000
DATA tanhsMagic<>+28(SB)/4, $0x4b400000
GLOBL tanhsMagic<>(SB), RODATA|NOPTR, $32
DATA tanhsNLn2Hi<>+0(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+4(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+8(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+12(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+16(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+20(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+24(SB)/4, $0xbf318000
DATA tanhsNLn2Hi<>+28(SB)/4, $0xbf318000
GLOBL tanhsNLn2Hi<>(SB), RODATA|NOPTR, $32
DATA tanhsNLn2Lo<>+0(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+4(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+8(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+12(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+16(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+20(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+24(SB)/4, $0x395e8083
DATA tanhsNLn2Lo<>+28(SB)/4, $0x395e8083
GLOBL tanhsNLn2Lo<>(SB), RODATA|NOPTR, $32
DATA tanhsUnit<>+0(SB)/4, $0x3f800000
DATA tanhsUnit<>+4(SB)/4, $0x3f800000
DATA tanhsUnit<>+8(SB)/4, $0x3f800000
DATA tanhsUnit<>+12(SB)/4, $0x3f800000
DATA tanhsUnit<>+16(SB)/4, $0x3f800000
DATA tanhsUnit<>+20(SB)/4, $0x3f800000
DATA tanhsUnit<>+24(SB)/4, $0x3f800000
DATA tanhsUnit<>+28(SB)/4, $0x3f800000
GLOBL tanhsUnit<>(SB), RODATA|NOPTR, $32
DATA tanhsTwo<>+0(SB)/4, $0x40000000
DATA tanhsTwo<>+4(SB)/4, $0x40000000
DATA tanhsTwo<>+8(SB)/4, $0x40000000
DATA tanhsTwo<>+12(SB)/4, $0x40000000
DATA tanhsTwo<>+16(SB)/4, $0x40000000
DATA tanhsTwo<>+20(SB)/4, $0x40000000
DATA tanhsTwo<>+24(SB)/4, $0x40000000
DATA tanhsTwo<>+28(SB)/4, $0x40000000
GLOBL tanhsTwo<>(SB), RODATA|NOPTR, $32
DATA tanhsC0<>+0(SB)/4, $0x39500d01
DATA tanhsC0<>+4(SB)/4, $0x39500d01
DATA tanhsC0<>+8(SB)/4, $0x39500d01
DATA tanhsC0<>+12(SB)/4, $0x39500d01
DATA tanhsC0<>+16(SB)/4, $0x39500d01
DATA tanhsC0<>+20(SB)/4, $0x39500d01
DATA tanhsC0<>+24(SB)/4, $0x39500d01
DATA tanhsC0<>+28(SB)/4, $0x39500d01
GLOBL tanhsC0<>(SB), RODATA|NOPTR, $32
DATA tanhsC1<>+0(SB)/4, $0x3ab60b61
DATA tanhsC1<>+4(SB)/4, $0x3ab60b61
DATA tanhsC1<>+8(SB)/4, $0x3ab60b61
DATA tanhsC1<>+12(SB)/4, $0x3ab60b61
DATA tanhsC1<>+16(SB)/4, $0x3ab60b61
DATA tanhsC1<>+20(SB)/4, $0x3ab60b61
DATA tanhsC1<>+24(SB)/4, $0x3ab60b61
DATA tanhsC1<>+28(SB)/4, $0x3ab60b61
GLOBL tanhsC1<>(SB), RODATA|NOPTR, $32
DATA tanhsC2<>+0(SB)/4, $0x3c088889
DATA tanhsC2<>+4(SB)/4, $0x3c088889
DATA tanhsC2<>+8(SB)/4, $0x3c088889
DATA tanhsC2<>+12(SB)/4, $0x3c088889
DATA tanhsC2<>+16(SB)/4, $0x3c088889
DATA tanhsC2<>+20(SB)/4, $0x3c088889
DATA tanhsC2<>+24(SB)/4, $0x3c088889
DATA tanhsC2<>+28(SB)/4, $0x3c088889
GLOBL tanhsC2<>(SB), RODATA|NOPTR, $32
DATA tanhsC3<>+0(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+4(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+8(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+12(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+16(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+20(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+24(SB)/4, $0x3d2aaaab
DATA tanhsC3<>+28(SB)/4, $0x3d2aaaab
GLOBL tanhsC3<>(SB), RODATA|NOPTR, $32
DATA tanhsC4<>+0(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+4(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+8(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+12(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+16(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+20(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+24(SB)/4, $0x3e2aaaab
DATA tanhsC4<>+28(SB)/4, $0x3e2aaaab
GLOBL tanhsC4<>(SB), RODATA|NOPTR, $32
DATA tanhsC5<>+0(SB)/4, $0x3f000000
DATA tanhsC5<>+4(SB)/4, $0x3f000000
DATA tanhsC5<>+8(SB)/4, $0x3f000000
DATA tanhsC5<>+12(SB)/4, $0x3f000000
DATA tanhsC5<>+16(SB)/4, $0x3f000000
DATA tanhsC5<>+20(SB)/4, $0x3f000000
DATA tanhsC5<>+24(SB)/4, $0x3f000000
DATA tanhsC5<>+28(SB)/4, $0x3f000000
GLOBL tanhsC5<>(SB), RODATA|NOPTR, $32
DATA tanhsC6<>+0(SB)/4, $0x3f800000
DATA tanhsC6<>+4(SB)/4, $0x3f800000
DATA tanhsC6<>+8(SB)/4, $0x3f800000
DATA tanhsC6<>+12(SB)/4, $0x3f800000
DATA tanhsC6<>+16(SB)/4, $0x3f800000
DATA tanhsC6<>+20(SB)/4, $0x3f800000
DATA tanhsC6<>+24(SB)/4, $0x3f800000
DATA tanhsC6<>+28(SB)/4, $0x3f800000
GLOBL tanhsC6<>(SB), RODATA|NOPTR, $32

// func tanhGrad32x8(du, u *float32, n int)
//
// du[0:n] *= 1 − u[0:n]² (the derivative of tanh through its output), for
// n a positive multiple of 8: u², then 1 − u², then the product, each
// rounded, as the Go loop in tanhGrad32.
TEXT ·tanhGrad32x8(SB), NOSPLIT, $0-24
	MOVQ    du+0(FP), DI
	MOVQ    u+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVUPS tanhsUnit<>(SB), Y3

loopgrad:
	VMOVUPS (SI), Y0
	VMULPS  Y0, Y0, Y0
	VSUBPS  Y0, Y3, Y0
	VMULPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     loopgrad
	VZEROUPPER
	RET
