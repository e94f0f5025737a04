package rotmnist

import (
	"encoding/base64"
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/pointproc"
)

// testDigit is an asymmetric 28×28 pattern with a zero border, so that any
// wrong flip or transpose shows.
func testDigit() Digit {
	d := Digit{Pixels: make([]uint8, 28*28), Rows: 28, Cols: 28}
	for y := 4; y < 24; y++ {
		for x := 4; x < 24; x++ {
			d.Pixels[y*28+x] = uint8((x*37 + y*11 + x*y) % 256)
		}
	}
	return d
}

// Angle 0 pastes the digit; multiples of 90° permute its pixels exactly as
// a counter-clockwise turn on screen (y down): 90° takes column Cols−1−y,
// row x of the digit to (x, y). Both interpolations agree there.
func TestRenderRightAngles(t *testing.T) {
	d := testDigit()
	const x0, y0, W = 18, 17, 64
	cases := []struct {
		angle float64
		src   func(x, y int) (int, int) // digit (column, row) shown at (x, y)
	}{
		{0, func(x, y int) (int, int) { return x, y }},
		{360, func(x, y int) (int, int) { return x, y }},
		{90, func(x, y int) (int, int) { return 27 - y, x }},
		{-270, func(x, y int) (int, int) { return 27 - y, x }},
		{180, func(x, y int) (int, int) { return 27 - x, 27 - y }},
		{270, func(x, y int) (int, int) { return y, 27 - x }},
	}
	for _, interp := range []Interpolation{Bilinear, Nearest} {
		for _, c := range cases {
			frame := make([]uint8, W*W)
			RenderFrame(frame, W, d, x0, y0, c.angle, interp)
			for y := 0; y < W; y++ {
				for x := 0; x < W; x++ {
					var want uint8
					if x >= x0 && x < x0+28 && y >= y0 && y < y0+28 {
						sx, sy := c.src(x-x0, y-y0)
						want = d.Pixels[sy*28+sx]
					}
					if frame[y*W+x] != want {
						t.Fatalf("%v %v°: pixel (%d, %d) = %d, want %d", interp, c.angle, x, y, frame[y*W+x], want)
					}
				}
			}
		}
	}
}

// A blob right of the centre turns counter-clockwise on screen: by θ it
// moves to (cx + r·cos θ, cy − r·sin θ); its centre of mass must land within
// 0.05 px (bilinear) and 0.5 px (nearest).
func TestRenderDirection(t *testing.T) {
	d := Digit{Pixels: make([]uint8, 28*28), Rows: 28, Cols: 28}
	const cx, cy, r = 13.5, 13.5, 6.0
	for y := 0; y < 28; y++ {
		for x := 0; x < 28; x++ {
			q := math.Hypot(float64(x)-(cx+r), float64(y)-cy)
			d.Pixels[y*28+x] = uint8(math.Round(255 * math.Max(0, 1-q/3)))
		}
	}
	for _, c := range []struct {
		interp Interpolation
		tol    float64
	}{{Bilinear, 0.05}, {Nearest, 0.5}} {
		for _, theta := range []float64{0, 30, 45, 90, 135, 200, 333} {
			frame := make([]uint8, 28*28)
			RenderFrame(frame, 28, d, 0, 0, theta, c.interp)
			var m, mx, my float64
			for i, p := range frame {
				m += float64(p)
				mx += float64(p) * float64(i%28)
				my += float64(p) * float64(i/28)
			}
			s, co := math.Sincos(theta * math.Pi / 180)
			if ex, ey := mx/m-(cx+r*co), my/m-(cy-r*s); math.Hypot(ex, ey) > c.tol {
				t.Errorf("%v %v°: centre of mass off by (%.3f, %.3f)", c.interp, theta, ex, ey)
			}
		}
	}
}

// Parts of the digit off the canvas are clipped, not wrapped or panicking.
func TestRenderClips(t *testing.T) {
	d := testDigit()
	for _, pos := range [][2]int{{-20, 5}, {50, 50}, {-100, -100}, {10, 60}} {
		frame := make([]uint8, 64*64)
		RenderFrame(frame, 64, d, pos[0], pos[1], 17, Bilinear)
		for y := 0; y < 64; y++ {
			for x := 0; x < 64; x++ {
				inside := x >= pos[0] && x < pos[0]+28 && y >= pos[1] && y < pos[1]+28
				if frame[y*64+x] != 0 && !inside {
					t.Fatalf("position %v: ink at (%d, %d), outside the digit's box", pos, x, y)
				}
			}
		}
	}
}

func TestRenderVideo(t *testing.T) {
	d := testDigit()
	angles := []float64{0, 10, 90}
	v := RenderVideo([]uint8{1, 2, 3}, 64, 64, d, 18, 18, angles, Bilinear)
	if len(v) != 3*64*64 {
		t.Fatalf("%d bytes", len(v))
	}
	for f, a := range angles {
		frame := make([]uint8, 64*64)
		RenderFrame(frame, 64, d, 18, 18, a, Bilinear)
		if string(frame) != string(v[f*4096:(f+1)*4096]) {
			t.Errorf("frame %d differs from RenderFrame at %v°", f, a)
		}
	}
}

// The doubling in hawkesUntil relies on Events(rng, k) being a prefix of
// Events(rng, 2k) for the same seed.
func TestHawkesEventsPrefix(t *testing.T) {
	h := pointproc.Hawkes{Mu: 1, Alpha: 0.5, Beta: 1}
	short := h.Events(rand.New(rand.NewSource(3)), 16)
	long := h.Events(rand.New(rand.NewSource(3)), 64)
	for i := range short {
		if short[i] != long[i] {
			t.Fatalf("event %d: %v with k=16, %v with k=64", i, short[i], long[i])
		}
	}
	ev, err := hawkesUntil(3, h, 40)
	if err != nil || ev[len(ev)-1] < 40 || ev[0] != long[0] {
		t.Fatalf("hawkesUntil: last %v, %v", ev[len(ev)-1], err)
	}
}

// Window times: n of them, increasing, inside (lo, hi); the same seed gives
// the same times; the mean gap for the reference's settings (μ=1, α=0.5,
// β=1, six events in (0, 1.8)) is 0.2170 and std 0.2009 (2·10⁵ videos,
// DATA.md); over 2,000 videos (10⁴ gaps, std error 0.002) it must lie in
// 0.217 ± 0.012.
func TestHawkesWindowTimes(t *testing.T) {
	h := pointproc.Hawkes{Mu: 1, Alpha: 0.5, Beta: 1}
	rng := rand.New(rand.NewSource(11))
	var sum float64
	var n, runs int
	for v := 0; v < 2000; v++ {
		ts, r, err := HawkesWindowTimes(rng, h, 0, 1.8, 6, 100000)
		if err != nil {
			t.Fatal(err)
		}
		runs += r
		if len(ts) != 6 || ts[0] <= 0 || ts[5] >= 1.8 {
			t.Fatalf("video %d: times %v", v, ts)
		}
		for i := 1; i < 6; i++ {
			if !(ts[i] > ts[i-1]) {
				t.Fatalf("video %d: times %v not increasing", v, ts)
			}
			sum += ts[i] - ts[i-1]
			n++
		}
	}
	if m := sum / float64(n); math.Abs(m-0.217) > 0.012 {
		t.Errorf("mean gap %.4f, want 0.217 ± 0.012", m)
	}
	// Acceptance measured at 0.083 (12.1 runs a video).
	if r := float64(runs) / 2000; r < 10.5 || r > 13.7 {
		t.Errorf("%.2f runs a video, want 12.1 ± 1.6", r)
	}
	a, _, _ := HawkesWindowTimes(rand.New(rand.NewSource(5)), h, 1.8, 3.6, 6, 100000)
	b, _, _ := HawkesWindowTimes(rand.New(rand.NewSource(5)), h, 1.8, 3.6, 6, 100000)
	for i := range a {
		if a[i] != b[i] || a[i] <= 1.8 {
			t.Fatalf("seeded test-window times %v and %v", a, b)
		}
	}
	if _, _, err := HawkesWindowTimes(rng, h, 0, 0.01, 6, 3); err == nil {
		t.Error("six events in (0, 0.01) within 3 runs: want an error")
	}
	if _, _, err := HawkesWindowTimes(rng, pointproc.Hawkes{Mu: 1, Alpha: 1.5, Beta: 1}, 0, 1, 6, 3); err == nil {
		t.Error("α = 1.5: want an error")
	}
}

// Exp times: e^{0.57 i} plus N(0, 0.5²) per frame; over 20,000 videos the
// mean residual is 0 ± 0.01 and its std 0.5 ± 0.01 at every frame, and the
// share of out-of-order neighbours 0.0333 (Σ_i Φ(−Δ_i/(0.5·√2))/5) ± 0.003.
func TestExpTimes(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const N = 20000
	var sum, sum2 [6]float64
	var bad int
	for v := 0; v < N; v++ {
		ts := ExpTimes(rng, 6, 0.57, 0.5)
		for i, x := range ts {
			r := x - math.Exp(0.57*float64(i))
			sum[i] += r
			sum2[i] += r * r
			if i > 0 && x <= ts[i-1] {
				bad++
			}
		}
	}
	for i := range sum {
		m := sum[i] / N
		if sd := math.Sqrt(sum2[i]/N - m*m); math.Abs(m) > 0.01 || math.Abs(sd-0.5) > 0.01 {
			t.Errorf("frame %d: residual mean %.4f std %.4f", i, m, sd)
		}
	}
	if f := float64(bad) / (5 * N); math.Abs(f-0.0333) > 0.003 {
		t.Errorf("out-of-order share %.4f, want 0.0333 ± 0.003", f)
	}
	if ts := ExpTimes(rng, 4, 0.57, 0); ts[3] != math.Exp(3*0.57) {
		t.Errorf("noiseless times %v", ts)
	}
}

// pilGolden holds testDigit rotated by Pillow 9.4.0 (Debian's python3-pil),
// Image.fromarray(d).rotate(angle, resample=…): the call torchvision's
// rotate makes for the reference code (resample NEAREST there), base64 of
// the 28×28 bytes. DATA.md has the script.
var pilGolden = []struct {
	angle  float64
	interp Interpolation
	tol    int // max |ours − PIL| in grey levels
	b64    string
}{
	{37, Nearest, 0, "AAAAAAAAAAAAAAAAAAAA2wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAibL9AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAYKnT9B8AAAAAAAAAAAAAAAAAAAAAAAAAAAAON1V/yRVBYwAAAAAAAAAAAAAAAAAAAAAAAAC85Stznr3pNoUAAAAAAAAAAAAAAAAAAAAAAACT1wEdSJHcCSlXpwAAAAAAAAAAAAAAAAAAAEFqg63yOWWCr/tJeJnJAAAAAAAAAAAAAAAAAO8YWZzH4Q1Vn83rGmm66w0AAAAAAAAAAAAAAMYFL0ZxtfsoQ3G8CTlYidsvAAAAAAAAAAAAdJ2x2xtdiaHOFV6Nqdknd6nJ/FEAAAAAAAAAIkuHxfAFMXS55wAvecX2E0WW6R0+cwAAAAAA+TNdb5rZGkddi9EZSWOU4TBjgbUJX5W3AAAA0N8JRIGtwO0vc6K56TJ9r8r9TZ/U8ymA2QAAAADuGSlVk9MBFUSJ0AEZS5flGTVqvRJJaaH7AAAAAP05Znel5ilZbp/nMWR9sQBRh6TbMYnC4x0AAAAADEmIt8n5PYO1y/5JlsvlG23B+RdQqQQ/YQAAABsqWZnbDB9RmOEVLGGv/zZRid41b47JJQAAAAAAOWl5qu0yZXmt90N5kcgZbKXB+1Ot6QAAAAAAAABIibvM/0WNwtcNWqnh+jOH3Rg1cQAAAAAAAAAAAFeZ3REjWKHsIzlxwRNNZ6L5AAAAAAAAAAAAAABmdanuNWt+tQFPiJ/ZLIG9AAAAAAAAAAAAAAAAAIS5yf9HkcndFmW28QlFAAAAAAAAAAAAAAAAAAAAk9kQIVmk8StAe80AAAAAAAAAAAAAAAAAAAAAAACi6TJrfbcFVZEAAAAAAAAAAAAAAAAAAAAAAAAAscD5Q4/K3RkAAAAAAAAAAAAAAAAAAAAAAAAAAADPCRlUoQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAN4pZQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA7QAAAAAAAAAAAAAAAAAAAA=="},
	{200.5, Nearest, 0, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADtAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAoWUp3gAAAAAAAAAAAAAAAAAAAAAAAAAAAAAZ3Y+PVAnPAAAAAAAAAAAAAAAAAAAAAAAACc2RQAXKfUP5wAAAAAAAAAAAAAAAAAAAAL2BRfG2eyvxt2sy+bEAAAAAAAAAAAAAAAAANfmiZyzZn2UW3d2RWSHZogAAAAAAAAAAAOmtcRjdok1N+sGIOQHJfkcQyZMAAAAAAAAAYSXJjo41+8FsM/qpcSPstWs1/7m5hAAAAAAAAAA/46lvF96lURnhkVojDdeNWCPdqXUAAAAAAAAAHcKJUPnBiTY2/695Q/fCjUUR3ZlmAAAAAAAAAPvCoWkS26RRG+WWYSzhrXky//+7iVcAAAAAAAAA2YBJEr2HNQDLfUlJ/suYUR/tqnlIAAAAAAAAALdfKfOfamoZ5ZdkMee1gz0M25lpOQAAAAAAAAAAcz4JtYFN/cqXSxnnn24pKfm3iFkbAAAAAAAAAFEd6ZZjMOGvfTIyAbmJWRXmpXdJDAAAAAAAAAAv/Ml3d0X2xZRJGemic0QB06VmOSn9AAAAAAAAAA3biVgn2al5LwDRi11dGu3AgVUp7gAAAAAAAADruok5CdmNXkMV56F0RwXZrW9EGd8AAAAAAAAAyZmZSRrrn3FD+86JXTHwxZpdXTP50AAAAAAAAACneCn7zYJVKOG1iUZGBduxdEsiAAAAAAAAAAAAhVcJ3K9lZTnyx5xZLwXGnQAAAAAAAAAAAAAAAABjFem9c0gd162DQRjvAAAAAAAAAAAAAAAAAAAAQRXJnlUrAbyTagAAAAAAAAAAAAAAAAAAAAAAAB/0qX9/Nw4AAAAAAAAAAAAAAAAAAAAAAAAAAAAA/bKJYAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAANsAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="},
	// PIL's bilinear works in 8-bit fixed point: ours may round 1 level apart.
	{123, Bilinear, 1, "AAAAAAAAAAAAAAAAAAAAADMTAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGSg2HwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHhdGfRrBjAAAAAAAAAAAAAAAAAAAAAAAAAAAyn7q3tK+qpBYAAAAAAAAAAAAAAAAAAAAAAAZCfXx6dnJuaGE5AAAAAAAAAAAAAAAAAAAAAAs2Pz48QTZPLWkzdWEAAAAAAAAAAAAAAAAAGok9xI1vY8Nz8qLmv9bEFQAAAAAAAAAAAAAARLnExcXFw8G9ubStpp6WjFEAAAAAAAAAAAAOU4WIiYqKiYeEgHt2b2hfVkxBDgAAAAAAAAATRUlMTlBQT05MSEQ/OUc9T2hRn0gPAAAAAC+9gWVKFIMoNTNtRbFWKV/jv+TYz8O2ZAAAAAB1z9TT27Pf0bnR29jUz7HCurGonZKGeGoZAAAAAIWfo6WnqKinpqOfm5WPiIB3bWJWSTstFwQAAAAka25xcnNycW9saGNdVk9GPDIzGzi1Y610AAAAACg7PT4+PTw5NTEtJU93VbRX14LTxLWkkyEAAAABEzQrc0G8YzdhgGvn39XLwLSnmYp6aVg3AAAAAEO/0NfW09C8xsC5saiflIh8bmBRQDQdcnoAAAAAb6empKGdmJOMhHxzaV1RRDc3KaSflqgxAAAAAAtudXJva2ZfWVFIPjRWPFPQucjQvl0AAAAAAAAAIERCPjk0LSYed0N588fZyruqeB4AAAAAAAAAAAATRg5xD5NZmuLLzMCzpJWCPgAAAAAAAAAAAAAAFdy12sXMw7uxppqNf3FNDwAAAAAAAAAAAAAAAABRsauknZSKgHVoW0sjAAAAAAAAAAAAAAAAAAAAAGJ9dm5lW1BFOCYGAAAAAAAAAAAAAAAAAAAAAAARUUlBNzIiGA0AAAAAAAAAAAAAAAAAAAAAAAAAABVHFF7fNwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAuq+/RQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACxwAAAAAAAAAAAAAAAAAAAAAA=="},
}

// RenderFrame's geometry is PIL's: nearest sampling matches it pixel for
// pixel, bilinear within one grey level.
func TestRenderMatchesPIL(t *testing.T) {
	d := testDigit()
	for _, g := range pilGolden {
		want, err := base64.StdEncoding.DecodeString(g.b64)
		if err != nil || len(want) != 784 {
			t.Fatalf("golden %v°: %v", g.angle, err)
		}
		got := make([]uint8, 784)
		RenderFrame(got, 28, d, 0, 0, g.angle, g.interp)
		for i := range got {
			if diff := int(got[i]) - int(want[i]); diff > g.tol || -diff > g.tol {
				t.Fatalf("%v %v°: pixel (%d, %d) = %d, PIL %d", g.interp, g.angle, i%28, i/28, got[i], want[i])
			}
		}
	}
}

func BenchmarkRenderVideo(b *testing.B) {
	d := testDigit()
	angles := []float64{3, 17, 31, 55, 97, 172}
	var dst []uint8
	for i := 0; i < b.N; i++ {
		dst = RenderVideo(dst, 64, 64, d, 18, 18, angles, Bilinear)
	}
}
