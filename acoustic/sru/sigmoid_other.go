//go:build !amd64

package sru

const haveAVX2 = false

func sigmoid8(x *float32, n int) { panic("sru: sigmoid8 without amd64") }

func exp8(x *float32, n int) { panic("sru: exp8 without amd64") }
