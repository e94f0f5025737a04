package scoring

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Mode says how compute-wer treats reference utterances with no hypothesis.
type Mode int

const (
	// Strict fails on the first reference key missing from the hypotheses
	// (Kaldi's default).
	Strict Mode = iota
	// Present scores only the utterances that have a hypothesis.
	Present
	// All scores a missing hypothesis as empty (all its words deleted).
	All
)

// ParseMode reads compute-wer's --mode value.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "strict":
		return Strict, nil
	case "present":
		return Present, nil
	case "all":
		return All, nil
	}
	return 0, fmt.Errorf("--mode option invalid: expected \"present\"|\"all\"|\"strict\", got %s", s)
}

// ErrMissingHypothesis is returned in Strict mode for a reference key that has
// no hypothesis.
var ErrMissingHypothesis = errors.New("missing hypothesis")

// missingHypothesis prints as Kaldi's message and matches ErrMissingHypothesis.
type missingHypothesis string

func (k missingHypothesis) Error() string {
	return "No hypothesis for key " + string(k) + " and strict mode specifier."
}
func (k missingHypothesis) Is(target error) bool { return target == ErrMissingHypothesis }

// WER accumulates compute-wer's statistics over utterances.
type WER struct {
	Mode                Mode
	Words, WordErrs     int
	Sentences, SentErrs int
	Ins, Del, Sub       int
	Absent              int // reference keys with no hypothesis
}

// Add scores one reference utterance; hyp is nil with ok false when the
// hypotheses have no entry for key. In Strict mode a missing hypothesis is
// an error with Kaldi's message; in Present mode it is counted as absent and
// not scored; in All mode it is counted as absent and scored as empty.
func (w *WER) Add(key string, ref, hyp []string, ok bool) error {
	if !ok {
		if w.Mode == Strict {
			return missingHypothesis(key)
		}
		w.Absent++
		if w.Mode == Present {
			return nil
		}
		hyp = nil
	}
	w.Words += len(ref)
	e := EditDistance(ref, hyp)
	w.WordErrs += e.Total()
	w.Ins += e.Ins
	w.Del += e.Del
	w.Sub += e.Sub
	w.Sentences++
	if !equal(ref, hyp) {
		w.SentErrs++
	}
	return nil
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Percent computes 100·num/den as compute-wer does: in double precision from
// single-precision operands, rounded to single precision (Kaldi's BaseFloat).
func Percent(num, den int) float32 {
	return float32(100.0 * float64(float32(num)) / float64(float32(den)))
}

// formatPercent prints a percentage as C++ `std::fixed` with precision 2 does
// on glibc: correctly rounded, "inf" (or "-inf") for x/0 and "-nan" for 0/0 (x86's
// default NaN has its sign bit set).
func formatPercent(p float32) string {
	switch {
	case math.IsNaN(float64(p)):
		return "-nan"
	case math.IsInf(float64(p), 1):
		return "inf"
	case math.IsInf(float64(p), -1):
		return "-inf"
	}
	return strconv.FormatFloat(float64(p), 'f', 2, 32)
}

// WriteReport prints compute-wer's three lines:
//
//	%WER 47.06 [ 16 / 34, 6 ins, 7 del, 3 sub ] [PARTIAL]
//	%SER 100.00 [ 3 / 3 ]
//	Scored 3 sentences, 1 not present in hyp.
//
// "[PARTIAL]" appears when some reference key had no hypothesis.
func (w *WER) WriteReport(out io.Writer) error {
	partial := ""
	if w.Absent != 0 {
		partial = " [PARTIAL]"
	}
	_, err := fmt.Fprintf(out, "%%WER %s [ %d / %d, %d ins, %d del, %d sub ]%s\n%%SER %s [ %d / %d ]\nScored %d sentences, %d not present in hyp.\n",
		formatPercent(Percent(w.WordErrs, w.Words)), w.WordErrs, w.Words, w.Ins, w.Del, w.Sub, partial,
		formatPercent(Percent(w.SentErrs, w.Sentences)), w.SentErrs, w.Sentences,
		w.Sentences, w.Absent)
	return err
}
