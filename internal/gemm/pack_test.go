package gemm

import (
	"fmt"
	"testing"
)

// TestPackPanels checks the packers against their definition for both
// kernels' tile sizes, so that the AVX-512 kernel's packing (12-row A panels,
// 32-wide B panels) is tested on machines without AVX-512 too: full and edge
// panels, both transposes, alpha 1 and not, a leading dimension wider than
// the block.
func TestPackPanels(t *testing.T) {
	const ld = 100
	src := make([]float32, ld*ld)
	for i := range src {
		src[i] = float32(i%97) - 48.5
	}
	for _, tile := range [][2]int{{6, 16}, {12, 32}} {
		mr, nr := tile[0], tile[1]
		for _, trans := range []bool{false, true} {
			for _, alpha := range []float32{1, -0.5} {
				name := fmt.Sprintf("mr=%d,nr=%d,trans=%v,alpha=%v", mr, nr, trans, alpha)
				t.Run(name, func(t *testing.T) {
					const i0, p0, j0, kc = 3, 5, 2, 37
					mc, nc := 2*mr+5, 2*nr+7       // two full panels and an edge one
					at := func(i, p int) float32 { // op(A)(i, p)
						if trans {
							return src[p*ld+i]
						}
						return src[i*ld+p]
					}
					bt := func(p, j int) float32 { // op(B)(p, j)
						if trans {
							return src[j*ld+p]
						}
						return src[p*ld+j]
					}
					pa := make([]float32, ceilDiv(mc, mr)*mr*kc)
					packA(pa, trans, src, ld, i0, mc, p0, kc, mr, alpha)
					for ir := 0; ir < mc; ir += mr {
						for p := 0; p < kc; p++ {
							for i := 0; i < mr; i++ {
								want := float32(0)
								if ir+i < mc {
									want = alpha * at(i0+ir+i, p0+p)
								}
								if got := pa[ir*kc+p*mr+i]; got != want {
									t.Fatalf("A panel %d, p %d, row %d: got %v, want %v", ir/mr, p, i, got, want)
								}
							}
						}
					}
					pb := make([]float32, ceilDiv(nc, nr)*nr*kc)
					packB(pb, trans, src, ld, p0, kc, j0, nc, nr)
					for jr := 0; jr < nc; jr += nr {
						for p := 0; p < kc; p++ {
							for j := 0; j < nr; j++ {
								want := float32(0)
								if jr+j < nc {
									want = bt(p0+p, j0+jr+j)
								}
								if got := pb[jr*kc+p*nr+j]; got != want {
									t.Fatalf("B panel %d, p %d, col %d: got %v, want %v", jr/nr, p, j, got, want)
								}
							}
						}
					}
				})
			}
		}
	}
}
