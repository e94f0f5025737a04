package conv

// geom: see Options.geom.
type geom struct {
	c, h, w int // image channels and size
	k, s, p int // kernel, stride, padding
	oh, ow  int // output positions
}

// rows is the height of the column matrix, c·k·k.
func (g geom) rows() int { return g.c * g.k * g.k }

// positions is the number of output positions per image.
func (g geom) positions() int { return g.oh * g.ow }

// tiles reports whether the patches tile the image: stride = kernel, no
// padding, and the positions cover it, so that every pixel is in exactly one
// patch (the decoder's ×4 layers).
func (g geom) tiles() bool {
	return g.s == g.k && g.p == 0 && g.h == g.oh*g.k && g.w == g.ow*g.k
}

// table is, for row r = (ci·k + kh)·k + kw of the column matrix and output
// position q = oy·ow + ox, the offset in an image of the pixel that im2col
// reads there, ci·h·w + (oy·s − p + kh)·w + ox·s − p + kw, or pad in the
// padding: rows × positions entries, computed once per layer so that the
// copies are plain gathers and scatters whatever the geometry. col2im's
// table has pad −1 (skipped); im2col's has c·h·w, a zero after each image
// in its rounded copy, so that its gathers need no branch.
func (g geom) table(pad int32) []int32 {
	pos := g.positions()
	t := make([]int32, g.rows()*pos)
	for ci := 0; ci < g.c; ci++ {
		for kh := 0; kh < g.k; kh++ {
			for kw := 0; kw < g.k; kw++ {
				r := (ci*g.k+kh)*g.k + kw
				for oy := 0; oy < g.oh; oy++ {
					for ox := 0; ox < g.ow; ox++ {
						iy, ix := oy*g.s-g.p+kh, ox*g.s-g.p+kw
						v := pad
						if iy >= 0 && iy < g.h && ix >= 0 && ix < g.w {
							v = int32((ci*g.h+iy)*g.w + ix)
						}
						t[r*pos+oy*g.ow+ox] = v
					}
				}
			}
		}
	}
	return t
}

// im2col writes the column matrix of the images x (n images, each c·h·w,
// channel-major) into col: row (ci·k + kh)·k + kw, column i·P + oy·ow + ox
// (P positions per image) holds x[i, ci, oy·s − p + kh, ox·s − p + kw], or 0
// in the padding. col is rows × n·P; tab is g.table(c·h·w); xr (n·(c·h·w +
// 1)) receives the images rounded, each followed by a zero. Each thread
// takes a block of images; see visit for the order.
func im2col[T float](g geom, tab []int32, n int, x []float64, xr, col []T) {
	ld, img, pos := n*g.positions(), g.c*g.h*g.w, g.positions()
	parallel(n, g.rows()*pos, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			narrow(xr[i*(img+1):(i+1)*(img+1)-1], x[i*img:(i+1)*img])
			xr[(i+1)*(img+1)-1] = 0
		}
		visit(g.rows(), pos, lo, hi, func(r, i int) {
			gather(col[r*ld+i*pos:r*ld+(i+1)*pos], tab[r*pos:(r+1)*pos], xr[i*(img+1):(i+1)*(img+1)])
		})
	})
}

// col2im adds the column matrix col (as im2col lays it out) into the images
// x: every entry goes back to the pixel it was read from, padding dropped.
// Within one row every entry has its own pixel, and each pixel's sum runs
// over the rows in order, whatever the threads and the order of visit.
//
// With set, the entries are written rather than added, which is only right
// when the patches tile the image (g.tiles): then every pixel gets exactly
// one entry and x need not be cleared first.
func col2im[T float](g geom, tab []int32, n int, col []T, x []float64, set bool) {
	ld, img, pos := n*g.positions(), g.c*g.h*g.w, g.positions()
	parallel(n, g.rows()*pos, func(lo, hi int) {
		visit(g.rows(), pos, lo, hi, func(r, i int) {
			scatter(x[i*img:(i+1)*img], tab[r*pos:(r+1)*pos], col[r*ld+i*pos:r*ld+(i+1)*pos], set)
		})
	})
}

// visit calls f for every row r of the column matrix and image i in
// [lo, hi). With many positions per image it goes row by row, each row over
// the images, so that the column matrix is walked along its rows and the
// pixels of neighbouring kernel offsets are still in cache; with few (the
// 1×1 and 4×4 layers, where a row holds one or a few values per image) it
// goes image by image instead, or every access to the images would land
// on another page.
func visit(rows, pos, lo, hi int, f func(r, i int)) {
	if pos < 16 {
		for i := lo; i < hi; i++ {
			for r := 0; r < rows; r++ {
				f(r, i)
			}
		}
		return
	}
	for r := 0; r < rows; r++ {
		for i := lo; i < hi; i++ {
			f(r, i)
		}
	}
}

// gather is d[q] = xi[t[q]].
func gather[T float](d []T, t []int32, xi []T) {
	d = d[:len(t)]
	for q, j := range t {
		d[q] = xi[j]
	}
}

// scatter is xi[t[q]] += s[q] (= with set) where t[q] ≥ 0.
func scatter[T float](xi []float64, t []int32, s []T, set bool) {
	s = s[:len(t)]
	if set {
		for q, j := range t {
			xi[j] = float64(s[q])
		}
		return
	}
	for q, j := range t {
		if j >= 0 {
			xi[j] += float64(s[q])
		}
	}
}
