package tree

import "github.com/strode-asr/strode/internal/glibcrand"

// The C library and C++ standard library behaviour Kaldi's clustering
// results depend on, reproduced so that strode's trees and questions match
// Kaldi's on the same statistics: the order in which std::priority_queue
// (libstdc++'s push_heap/pop_heap) returns elements its comparison calls
// equal, the arrangement std::nth_element (libstdc++'s introselect) leaves,
// and glibc's rand(), which Kaldi's k-means draws from.

// cxxHeap is std::priority_queue<T, std::vector<T>, Compare> with less as
// Compare: Top is an element no other is "greater" than.
type cxxHeap[T any] struct {
	v    []T
	less func(a, b T) bool
}

func (h *cxxHeap[T]) Len() int { return len(h.v) }
func (h *cxxHeap[T]) Top() T   { return h.v[0] }

// Push is push_back followed by std::push_heap.
func (h *cxxHeap[T]) Push(x T) {
	h.v = append(h.v, x)
	heapPushUp(h.v, len(h.v)-1, 0, x, h.less)
}

// Pop is std::pop_heap followed by pop_back.
func (h *cxxHeap[T]) Pop() {
	n := len(h.v)
	if n > 1 {
		last := h.v[n-1]
		h.v[n-1] = h.v[0]
		heapAdjust(h.v, 0, n-1, last, h.less)
	}
	h.v = h.v[:n-1]
}

// heapPushUp is libstdc++'s __push_heap.
func heapPushUp[T any](v []T, hole, top int, value T, less func(a, b T) bool) {
	parent := (hole - 1) / 2
	for hole > top && less(v[parent], value) {
		v[hole] = v[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	v[hole] = value
}

// heapAdjust is libstdc++'s __adjust_heap over v[:n].
func heapAdjust[T any](v []T, hole, n int, value T, less func(a, b T) bool) {
	top := hole
	second := hole
	for second < (n-1)/2 {
		second = 2 * (second + 1)
		if less(v[second], v[second-1]) {
			second--
		}
		v[hole] = v[second]
		hole = second
	}
	if n&1 == 0 && second == (n-2)/2 {
		second = 2 * (second + 1)
		v[hole] = v[second-1]
		hole = second - 1
	}
	heapPushUp(v, hole, top, value, less)
}

// nthElement is libstdc++'s std::nth_element(v.begin(), v.begin()+nth,
// v.end(), less): introselect with median-of-three pivots, insertion sort
// below four elements and heap selection when the depth limit runs out.
func nthElement[T any](v []T, nth int, less func(a, b T) bool) {
	if len(v) == 0 || nth >= len(v) {
		return
	}
	first, last := 0, len(v)
	depth := 2 * lg(last-first)
	for last-first > 3 {
		if depth == 0 {
			heapSelect(v[first:last], nth+1-first, less)
			v[first], v[nth] = v[nth], v[first]
			return
		}
		depth--
		cut := partitionPivot(v, first, last, less)
		if cut <= nth {
			first = cut
		} else {
			last = cut
		}
	}
	insertionSort(v[first:last], less)
}

func lg(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// partitionPivot is __unguarded_partition_pivot.
func partitionPivot[T any](v []T, first, last int, less func(a, b T) bool) int {
	mid := first + (last-first)/2
	moveMedianToFirst(v, first, first+1, mid, last-1, less)
	// __unguarded_partition(first+1, last, first).
	lo, hi := first+1, last
	for {
		for less(v[lo], v[first]) {
			lo++
		}
		hi--
		for less(v[first], v[hi]) {
			hi--
		}
		if lo >= hi {
			return lo
		}
		v[lo], v[hi] = v[hi], v[lo]
		lo++
	}
}

func moveMedianToFirst[T any](v []T, result, a, b, c int, less func(a, b T) bool) {
	swap := func(i int) { v[result], v[i] = v[i], v[result] }
	switch {
	case less(v[a], v[b]):
		switch {
		case less(v[b], v[c]):
			swap(b)
		case less(v[a], v[c]):
			swap(c)
		default:
			swap(a)
		}
	case less(v[a], v[c]):
		swap(a)
	case less(v[b], v[c]):
		swap(c)
	default:
		swap(b)
	}
}

// insertionSort is libstdc++'s __insertion_sort.
func insertionSort[T any](v []T, less func(a, b T) bool) {
	for i := 1; i < len(v); i++ {
		val := v[i]
		if less(val, v[0]) {
			copy(v[1:i+1], v[:i])
			v[0] = val
			continue
		}
		j := i
		for less(val, v[j-1]) {
			v[j] = v[j-1]
			j--
		}
		v[j] = val
	}
}

// heapSelect is libstdc++'s __heap_select(first, first+middle, last).
func heapSelect[T any](v []T, middle int, less func(a, b T) bool) {
	// __make_heap(first, middle).
	if middle >= 2 {
		for parent := (middle - 2) / 2; ; parent-- {
			heapAdjust(v, parent, middle, v[parent], less)
			if parent == 0 {
				break
			}
		}
	}
	for i := middle; i < len(v); i++ {
		if less(v[i], v[0]) {
			// __pop_heap(first, middle, i).
			val := v[i]
			v[i] = v[0]
			heapAdjust(v, 0, middle, val, less)
		}
	}
}

// glibcRand is glibc's rand(): Kaldi's Rand(), which tree clustering draws
// k-means starts from.
type glibcRand = glibcrand.Rand

// newGlibcRand is srand(seed).
func newGlibcRand(seed uint32) *glibcRand { return glibcrand.New(seed) }
