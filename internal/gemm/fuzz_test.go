package gemm

import (
	"math/rand/v2"
	"testing"
)

// FuzzSgemm is a differential fuzz test: sizes, transposes, padding, alpha,
// beta and thread count come from the fuzzer, the operands from a seeded
// generator; the result must match the float64 reference and gonum within
// the tolerances of operands.check, for the default kernel.
//
//	go test -run '^$' -fuzz FuzzSgemm -fuzztime 5m ./internal/gemm
func FuzzSgemm(f *testing.F) {
	f.Add(uint8(7), uint8(17), uint8(13), uint8(0), uint8(0), uint8(2), uint64(1))
	f.Add(uint8(33), uint8(65), uint8(200), uint8(3), uint8(1), uint8(1), uint64(2))
	f.Add(uint8(1), uint8(1), uint8(0), uint8(1), uint8(4), uint8(3), uint64(3))
	f.Fuzz(func(t *testing.T, m, n, k, flags, ab, threads uint8, seed uint64) {
		scalars := []float32{0, 1, -1, 0.5, 3}
		alpha := scalars[int(ab)%len(scalars)]
		beta := scalars[int(ab/8)%len(scalars)]
		rng := rand.New(rand.NewPCG(seed, 9))
		o := newOperands(rng, flags&1 != 0, flags&2 != 0, int(m), int(n), int(k), int(flags>>2)%4, alpha, beta)
		defer SetThreads(SetThreads(1 + int(threads)%4))
		o.check(t, o.run(Implementation{}.Sgemm))
	})
}
