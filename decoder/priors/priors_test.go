package priors

import (
	"errors"
	"math"
	"os"
	"testing"
)

func TestGoldenCounts(t *testing.T) {
	txt, err := os.ReadFile("testdata/pdf_counts.txt")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile("testdata/pdf_counts.vec")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseCounts(txt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseCounts(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 62 || len(b) != 62 {
		t.Fatalf("dims %d %d, want 62", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("count %d: text %v binary %v", i, a[i], b[i])
		}
	}
	p, err := New(a, 1, 1e-10)
	if err != nil {
		t.Fatal(err)
	}
	// Count 1 is 0.5 of 23665 frames: log(0.5/23665) = -10.7648996...
	if got, want := float64(p.LogPriors[1]), -10.764899622900293; math.Abs(got-want) > 1e-5 {
		t.Errorf("log prior 1 = %v, want %v", got, want)
	}
	if p.Floored != 0 {
		t.Errorf("floored %d", p.Floored)
	}
	// A floor above 0.5/23665 bans the two half-count pdfs (1 and 3).
	p, _ = New(a, 1, 1e-4)
	if p.Floored != 2 || p.LogPriors[1] != BannedLogPrior || p.LogPriors[3] != BannedLogPrior {
		t.Errorf("floor 1e-4: floored %d, %v %v", p.Floored, p.LogPriors[1], p.LogPriors[3])
	}
}

func TestSubtract(t *testing.T) {
	p, err := New([]float64{1, 3, 0}, 0.5, 1e-10)
	if err != nil {
		t.Fatal(err)
	}
	m := []float32{0, 0, 0, 1, 1, 1}
	if err := p.SubtractRows(m, 3); err != nil {
		t.Fatal(err)
	}
	want := []float64{-0.5 * math.Log(0.25), -0.5 * math.Log(0.75), -0.5 * float64(BannedLogPrior)}
	for i, x := range m {
		w := want[i%3] + float64(i/3)
		if math.Abs(float64(x)-w) > 1e-5*math.Max(1, math.Abs(w)) {
			t.Errorf("m[%d] = %v, want %v", i, x, w)
		}
	}
	if err := p.SubtractRows(m[:4], 4); !errors.Is(err, ErrDimension) {
		t.Errorf("wrong width: %v", err)
	}
}

func TestBadCounts(t *testing.T) {
	for _, in := range []string{"", "[", "[ 1 2", "1 2 ]", "[ 1 x ]", "[]", "\x00BDV \x04\xff\xff\xff\x7f", "\x00BXV \x04\x01\x00\x00\x00"} {
		c, err := ParseCounts([]byte(in))
		if err == nil {
			_, err = New(c, 1, 1e-10)
		}
		if !errors.Is(err, ErrCounts) {
			t.Errorf("%q: err %v", in, err)
		}
	}
	for _, c := range [][]float64{{0, 0}, {1, -1}, {math.NaN()}} {
		if _, err := New(c, 1, 1e-10); !errors.Is(err, ErrCounts) {
			t.Errorf("%v: err %v", c, err)
		}
	}
	if v, err := ParseCounts([]byte(" [ 1 2.5 3]\n")); err != nil || len(v) != 3 || v[2] != 3 {
		t.Errorf("compact ]: %v %v", v, err)
	}
}

func FuzzParseCounts(f *testing.F) {
	f.Add([]byte("[ 1 2 3 ]"))
	f.Add([]byte("\x00BDV \x04\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseCounts(data)
		if err == nil {
			New(v, 1, 1e-10)
		}
	})
}
