//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

//go:generate go run gen_kernels.go

// kernel6x16AVX2 and kernel12x32AVX512 are the generated micro-kernels; see
// gen_kernels.go for what they compute.
//
//go:noescape
func kernel6x16AVX2(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func kernel12x32AVX512(k int, a, b, c *float32, ldc int, add int)

// Blocking, for the cache each operand lives in (the BLIS scheme, mirrored for
// row-major C): the kc×NR micro-panel of B is reused by every micro-panel of A
// and stays in L1; the mc×kc block of A is swept once per micro-panel of B and
// stays in L2; the kc×nc block of B stays in L3.
var (
	avx2Kernel = &microKernel{
		name: "avx2", mr: 6, nr: 16, mc: 144, kc: 256, nc: 4080,
		fn: kernel6x16AVX2,
	}
	// kc 384 (BLIS's value for Skylake-X) halves the passes over C against
	// kc 192; mc 120 keeps the packed A block (180 KB) in L2. On the
	// 16-core AVX-512 Xeon device this was 10–25% faster on one thread in
	// two separate runs (interleaved, median of 8 rounds); see bench/README.md.
	avx512Kernel = &microKernel{
		name: "avx512", mr: 12, nr: 32, mc: 120, kc: 384, nc: 3072,
		fn: kernel12x32AVX512,
	}
)

// availableKernels lists the kernels this CPU can run, best first.
func availableKernels() []*microKernel {
	var ks []*microKernel
	// x/sys/cpu only reports AVX/AVX-512 when the OS saves their registers.
	if cpu.X86.HasAVX512F {
		ks = append(ks, avx512Kernel)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, avx2Kernel)
	}
	return ks
}
