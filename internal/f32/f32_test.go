package f32

import "testing"

func TestFillRows(t *testing.T) {
	for _, rows := range []int{0, 1, 2, 3, 5, 8, 13, 100} {
		m := make([]float32, rows*3)
		FillRows(m, []float32{1, 2, 3})
		for i, v := range m {
			if v != float32(i%3+1) {
				t.Fatalf("%d rows: %v", rows, m)
			}
		}
	}
}

func TestNarrowWiden(t *testing.T) {
	src := []float64{1.5, -2, 1e-40, 3.0000000001}
	n := make([]float32, 5)
	Narrow(n, src)
	w := make([]float64, 4)
	Widen(w, n[:4])
	for i, v := range src {
		if w[i] != float64(float32(v)) {
			t.Errorf("%v → %v", v, w[i])
		}
	}
	if n[4] != 0 {
		t.Error("Narrow wrote past len(src)")
	}
}

func TestGrow(t *testing.T) {
	s := Grow(nil, 4)
	s[0] = 7
	if g := Grow(s, 2); len(g) != 2 || g[0] != 7 {
		t.Errorf("Grow(s, 2) = %v", g)
	}
	if g := Grow(s, 9); len(g) != 9 {
		t.Errorf("Grow(s, 9) has %d", len(g))
	}
}
