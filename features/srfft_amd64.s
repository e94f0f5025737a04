//go:build amd64 && !purego

#include "textflag.h"

// Kernels of the split-radix FFT (srfft.go) on 8 floats at a time. They use
// only VADDPS, VSUBPS and VMULPS, which round every lane exactly as the
// scalar float operations of Kaldi's code do (no FMA), so results are
// bit-identical to the scalar loops. n is a multiple of 8.

// func srButterflyAVX(a, b *float32, n int)
// a[j], b[j] = a[j]+b[j], a[j]-b[j]
TEXT ·srButterflyAVX(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   done
loop:
	VMOVUPS (AX), Y0
	VMOVUPS (BX), Y1
	VADDPS  Y1, Y0, Y2
	VSUBPS  Y1, Y0, Y3
	VMOVUPS Y2, (AX)
	VMOVUPS Y3, (BX)
	ADDQ    $32, AX
	ADDQ    $32, BX
	DECQ    CX
	JNZ     loop
done:
	VZEROUPPER
	RET

// func srStep2AVX(r1, i1, r2, i2 *float32, n int)
// r1, i1, r2, i2 = r1+i2, i1-r2, r1-i2, i1+r2
TEXT ·srStep2AVX(SB), NOSPLIT, $0-40
	MOVQ r1+0(FP), AX
	MOVQ i1+8(FP), BX
	MOVQ r2+16(FP), DX
	MOVQ i2+24(FP), SI
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	JZ   done2
loop2:
	VMOVUPS (AX), Y0 // r1
	VMOVUPS (BX), Y1 // i1
	VMOVUPS (DX), Y2 // r2
	VMOVUPS (SI), Y3 // i2
	VADDPS  Y3, Y0, Y4 // r1+i2
	VADDPS  Y2, Y1, Y5 // i1+r2
	VSUBPS  Y2, Y1, Y6 // i1-r2
	VSUBPS  Y3, Y0, Y7 // r1-i2
	VMOVUPS Y4, (AX)
	VMOVUPS Y6, (BX)
	VMOVUPS Y7, (DX)
	VMOVUPS Y5, (SI)
	ADDQ    $32, AX
	ADDQ    $32, BX
	ADDQ    $32, DX
	ADDQ    $32, SI
	DECQ    CX
	JNZ     loop2
done2:
	VZEROUPPER
	RET

// func srTwiddleAVX(r, i, c, spc, smc *float32, n int)
// t2 = c*(r+i); r, i = smc*i + t2, spc*r + t2
TEXT ·srTwiddleAVX(SB), NOSPLIT, $0-48
	MOVQ r+0(FP), AX
	MOVQ i+8(FP), BX
	MOVQ c+16(FP), DX
	MOVQ spc+24(FP), SI
	MOVQ smc+32(FP), DI
	MOVQ n+40(FP), CX
	SHRQ $3, CX
	JZ   done3
loop3:
	VMOVUPS (AX), Y0 // r
	VMOVUPS (BX), Y1 // i
	VADDPS  Y1, Y0, Y2 // r+i
	VMULPS  (DX), Y2, Y2 // t2 = c*(r+i)
	VMULPS  (SI), Y0, Y3 // spc*r
	VADDPS  Y2, Y3, Y3 // spc*r + t2
	VMULPS  (DI), Y1, Y4 // smc*i
	VADDPS  Y2, Y4, Y4 // smc*i + t2
	VMOVUPS Y4, (AX)
	VMOVUPS Y3, (BX)
	ADDQ    $32, AX
	ADDQ    $32, BX
	ADDQ    $32, DX
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop3
done3:
	VZEROUPPER
	RET
