package sru

import "golang.org/x/sys/cpu"

// haveAVX2 selects sigmoid8 (x/sys/cpu reports AVX2 only when the OS saves
// the YMM registers).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func sigmoid8(x *float32, n int)

//go:noescape
func exp8(x *float32, n int)

//go:noescape
func log8(x *float32, n int) int
