//go:build !amd64

package search

import "unsafe"

// prefetch3 is a hint that does nothing on this architecture (see
// prefetch_amd64.go).
func prefetch3(a, b, c unsafe.Pointer) {}
