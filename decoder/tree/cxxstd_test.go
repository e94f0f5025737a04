package tree

import (
	"slices"
	"testing"
)

// The reference sequences below were printed by a C++ program built with
// g++ against glibc and libstdc++ (rand(), srand(), std::nth_element on
// std::pair<float,int>, std::priority_queue with a comparison on the float
// alone).

type fi struct {
	f float32
	i int
}

// referenceValues is the C++ program's vector: 40 values in 0..6 from an
// LCG, each paired with its index.
func referenceValues() []fi {
	s := uint32(12345)
	v := make([]fi, 40)
	for i := range v {
		s = s*1103515245 + 12345
		v[i] = fi{float32((s >> 16) % 7), i}
	}
	return v
}

func TestNthElementMatchesLibstdcxx(t *testing.T) {
	v := referenceValues()
	nthElement(v, 3, func(a, b fi) bool { return a.f < b.f || (a.f == b.f && a.i < b.i) })
	want := []int{12, 1, 0, 15, 18, 5, 23, 22, 21, 19, 26, 33, 39, 13, 14, 11, 16, 17, 10, 9, 20, 8, 7, 6, 24, 25, 4, 27, 28, 29, 30, 31, 32, 3, 34, 35, 36, 37, 38, 2}
	got := make([]int, len(v))
	for i, p := range v {
		got[i] = p.i
	}
	if !slices.Equal(got, want) {
		t.Errorf("nth_element arrangement\n got %v\nwant %v", got, want)
	}
}

func TestHeapTieOrderMatchesLibstdcxx(t *testing.T) {
	v := referenceValues()
	q := cxxHeap[fi]{less: func(a, b fi) bool { return a.f > b.f }}
	var got []int
	for i, p := range v {
		q.Push(p)
		if i%5 == 4 {
			got = append(got, q.Top().i)
			q.Pop()
		}
	}
	for q.Len() > 0 {
		got = append(got, q.Top().i)
		q.Pop()
	}
	want := []int{0, 1, 12, 15, 18, 21, 22, 5, 33, 23, 26, 19, 39, 17, 6, 30, 24, 25, 4, 20, 13, 29, 27, 14, 8, 36, 11, 10, 16, 9, 32, 38, 2, 3, 35, 34, 7, 37, 31, 28}
	if !slices.Equal(got, want) {
		t.Errorf("priority_queue order\n got %v\nwant %v", got, want)
	}
}

func TestNthElementSelects(t *testing.T) {
	for n := 1; n < 60; n++ {
		for nth := 0; nth < n; nth++ {
			v := make([]int, n)
			for i := range v {
				v[i] = (i * 7919) % n
			}
			nthElement(v, nth, func(a, b int) bool { return a < b })
			for i := 0; i < nth; i++ {
				if v[i] > v[nth] {
					t.Fatalf("n=%d nth=%d: v[%d]=%d > v[nth]=%d", n, nth, i, v[i], v[nth])
				}
			}
			for i := nth + 1; i < n; i++ {
				if v[i] < v[nth] {
					t.Fatalf("n=%d nth=%d: v[%d]=%d < v[nth]=%d", n, nth, i, v[i], v[nth])
				}
			}
			if v[nth] != nth {
				t.Fatalf("n=%d nth=%d: v[nth]=%d", n, nth, v[nth])
			}
		}
	}
}
