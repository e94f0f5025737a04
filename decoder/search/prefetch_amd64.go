package search

import "unsafe"

// prefetch3 asks the processor to bring the cache lines at a, b and c into
// the cache (PREFETCHT0) without waiting for them: unlike a load, a
// prefetch that misses does not hold up the instructions after it. The
// addresses are only hints; they are never dereferenced.
//
//go:noescape
func prefetch3(a, b, c unsafe.Pointer)
