package transform

import "github.com/strode-asr/strode/decoder/hmm"

// g6 is a number as Kaldi's logs print it (C++ stream precision 6).
func g6(v float64) string { return hmm.FormatG6(v) }
