// Package glibcrand is glibc's rand()/srand() (the TYPE_3 additive feedback
// generator random_r uses by default) and the Kaldi helpers built on it.
// Kaldi's Rand() is rand(), and a Kaldi binary that never calls srand draws
// the sequence of seed 1: code that must choose what Kaldi chooses (random
// paths of a flat start, k-means starts, Gaussian splits) draws from here.
package glibcrand

import "math"

// Rand is one generator: a ring of 31 words with two taps.
type Rand struct {
	r    [31]int32
	f, b int
}

// New is srand(seed); glibc treats seed 0 as 1.
func New(seed uint32) *Rand {
	if seed == 0 {
		seed = 1
	}
	g := &Rand{}
	g.r[0] = int32(seed)
	word := int32(seed) // glibc's int32_t word
	for i := 1; i < 31; i++ {
		// 16807 * word % 2147483647 without overflow (Schrage), the
		// products in long int.
		hi, lo := int64(word)/127773, int64(word)%127773
		word = int32(16807*lo - 2836*hi)
		if word < 0 {
			word += 2147483647
		}
		g.r[i] = word
	}
	g.f, g.b = 3, 0
	for range 310 {
		g.next()
	}
	return g
}

// next is one random_r step: the front tap adds the rear one; the result
// drops the lowest bit.
func (g *Rand) next() int32 {
	g.r[g.f] = int32(uint32(g.r[g.f]) + uint32(g.r[g.b]))
	result := int32(uint32(g.r[g.f]) >> 1)
	g.f++
	if g.f >= 31 {
		g.f = 0
	}
	g.b++
	if g.b >= 31 {
		g.b = 0
	}
	return result
}

// RandMax is glibc's RAND_MAX.
const RandMax = 2147483647

// Rand is rand(): a number in [0, RandMax].
func (g *Rand) Rand() int { return int(g.next()) }

// RandInt is Kaldi's RandInt(lo, hi) on glibc: no draw when lo == hi.
func (g *Rand) RandInt(lo, hi int32) int32 {
	if hi == lo {
		return lo
	}
	return lo + g.next()%(hi+1-lo)
}

// RandUniform is Kaldi's RandUniform: (rand() + 1.0) / (RAND_MAX + 2.0), in
// (0, 1).
func (g *Rand) RandUniform() float64 {
	return (float64(g.next()) + 1.0) / (RandMax + 2.0)
}

// RandGauss is Kaldi's RandGauss (Box–Muller in float): sqrtf(−2·log u1)·
// cosf(2π·u2), u1 drawn first.
func (g *Rand) RandGauss() float32 {
	u1 := float32(g.RandUniform())
	u2 := float32(g.RandUniform())
	r := float32(math.Sqrt(float64(-2 * float32(math.Log(float64(u1))))))
	// cosf's argument is 2*M_PI*u2 in double, narrowed once.
	return r * float32(math.Cos(float64(float32(2*math.Pi*float64(u2)))))
}
