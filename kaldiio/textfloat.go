package kaldiio

import (
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// Kaldi's text output streams have precision 7 (InitKaldiOutputStream raises
// the C++ default of 6 to 7), and `os << x` for a float promotes it to double
// and formats it as printf("%.7g"): shortest of %e/%f by the exponent rule,
// trailing zeros removed. strconv's 'g' with precision 7 follows the same
// rule and is correctly rounded like glibc, so only inf and nan need care.

// AppendFloat appends v as Kaldi's text streams print a float or double
// (C++ `os << v` at precision 7): "1", "2.5", "1e-05", "123456.8", "-0",
// "inf", "-inf", "nan", "-nan".
func AppendFloat(dst []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(dst, "inf"...)
	case math.IsInf(v, -1):
		return append(dst, "-inf"...)
	case math.IsNaN(v):
		if math.Signbit(v) {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	}
	return strconv.AppendFloat(dst, v, 'g', 7, 64)
}

// parseFloat parses a text number as Kaldi reads one (C++ stream extraction
// plus Kaldi's handling of inf and nan), rounding once to bits (32 or 64).
func parseFloat(w []byte, bits int) (float64, bool) {
	s := unsafe.String(unsafe.SliceData(w), len(w))
	if len(s) == 0 {
		return 0, false
	}
	// Kaldi accepts inf/nan spelled in any case, with an optional sign
	// ("inf", "-Inf", "nan", "-nan", "INF", "infinity").
	if c := s[len(s)-1] | 0x20; c == 'f' || c == 'n' || c == 'y' {
		t := strings.ToLower(strings.TrimLeft(s, "+-"))
		neg := s[0] == '-'
		switch t {
		case "inf", "infinity":
			if neg {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		case "nan":
			if neg {
				return math.Copysign(math.NaN(), -1), true
			}
			return math.NaN(), true
		}
	}
	// Only plain decimal numbers: strconv also takes hex floats and
	// underscores, which Kaldi's readers do not.
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, bits)
	if err != nil {
		// Out-of-range values read as +-inf (as strtod with ERANGE); the rest
		// are malformed.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}
