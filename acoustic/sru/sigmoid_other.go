//go:build !amd64

package sru

const haveAVX2 = false

func sigmoid8(x *float32, n int) { panic("sru: sigmoid8 without amd64") }

func exp8(x *float32, n int) { panic("sru: exp8 without amd64") }

func log8(x *float32, n int) int { panic("sru: log8 without amd64") }
