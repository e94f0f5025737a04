package priors

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Options are nnet1's PdfPriorOptions, with Kaldi's names and defaults.
type Options struct {
	ClassFrameCounts string  // --class-frame-counts: counts vector file (analyze-counts output); "" disables priors
	PriorScale       float64 // --prior-scale
	PriorFloor       float64 // --prior-floor: pdfs with a relative frequency below this are banned
}

// DefaultOptions are nnet1's defaults.
func DefaultOptions() Options { return Options{PriorScale: 1, PriorFloor: 1e-10} }

// Register adds the options to fs with Kaldi's names and help text.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.ClassFrameCounts, "class-frame-counts", o.ClassFrameCounts, "Vector with frame-counts of pdfs to compute log-priors. (priors are typically subtracted from log-posteriors or pre-softmax activations)")
	fs.Float64Var(&o.PriorScale, "prior-scale", o.PriorScale, "Scaling factor to be applied on pdf-log-priors")
	fs.Float64Var(&o.PriorFloor, "prior-floor", o.PriorFloor, "Flooring constatnt for prior probability (i.e. label rel. frequency)")
}

// BannedLogPrior is the log prior of a floored pdf: √FLT_MAX, as nnet1.
var BannedLogPrior = float32(math.Sqrt(math.MaxFloat32))

// Sentinel errors.
var (
	ErrCounts    = errors.New("bad class frame counts")
	ErrDimension = errors.New("dimensionality mismatch")
)

// Prior holds log priors ready to subtract.
type Prior struct {
	LogPriors []float32
	Scale     float32
	Floored   int // pdfs banned by the floor
}

// New computes log priors from counts. Counts must be non-negative and sum
// to a positive number.
func New(counts []float64, scale, floor float64) (*Prior, error) {
	if len(counts) == 0 {
		return nil, fmt.Errorf("%w: empty counts vector", ErrCounts)
	}
	sum := 0.0
	for i, c := range counts {
		if c < 0 || math.IsNaN(c) || math.IsInf(c, 0) {
			return nil, fmt.Errorf("%w: count %d is %v", ErrCounts, i, c)
		}
		sum += c
	}
	if !(sum > 0) {
		return nil, fmt.Errorf("%w: counts sum to %v", ErrCounts, sum)
	}
	p := &Prior{LogPriors: make([]float32, len(counts)), Scale: float32(scale)}
	for i, c := range counts {
		f := c * (1.0 / sum) // Kaldi scales by 1/sum
		if f < floor {
			p.LogPriors[i] = BannedLogPrior
			p.Floored++
			continue
		}
		p.LogPriors[i] = float32(math.Log(f + 1e-20))
	}
	return p, nil
}

// Load reads the counts file named in o and computes the priors; it returns
// nil, nil when o.ClassFrameCounts is empty (priors disabled).
func Load(o Options) (*Prior, error) {
	if o.ClassFrameCounts == "" {
		return nil, nil
	}
	data, err := os.ReadFile(o.ClassFrameCounts)
	if err != nil {
		return nil, fmt.Errorf("reading class frame counts: %w", err)
	}
	counts, err := ParseCounts(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.ClassFrameCounts, err)
	}
	return New(counts, o.PriorScale, o.PriorFloor)
}

// ParseCounts reads a Kaldi vector: text "[ c0 c1 ... ]" (analyze-counts
// --binary=false, what nnet1 reads) or binary DV/FV (analyze-counts'
// default), detected by Kaldi's "\0B" header.
func ParseCounts(data []byte) ([]float64, error) {
	if bytes.HasPrefix(data, []byte("\x00B")) {
		return parseBinaryVector(data)
	}
	br := bufio.NewReader(bytes.NewReader(data))
	var off int64
	next := func() (string, int64, error) {
		var tok []byte
		start := off
		for {
			c, err := br.ReadByte()
			if err == io.EOF {
				if len(tok) > 0 {
					return string(tok), start, nil
				}
				return "", start, io.EOF
			}
			off++
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				if len(tok) > 0 {
					return string(tok), start, nil
				}
				start = off
				continue
			}
			tok = append(tok, c)
		}
	}
	tok, at, err := next()
	if err != nil {
		return nil, fmt.Errorf("%w: empty file, expected \"[\"", ErrCounts)
	}
	if tok == "[]" {
		return nil, fmt.Errorf("%w: empty counts vector", ErrCounts)
	}
	if tok != "[" {
		return nil, fmt.Errorf("%w: byte %d: expected \"[\" but got %q", ErrCounts, at, tok)
	}
	var v []float64
	for {
		tok, at, err = next()
		if err != nil {
			return nil, fmt.Errorf("%w: end of file before \"]\"", ErrCounts)
		}
		if tok == "]" {
			return v, nil
		}
		x, perr := strconv.ParseFloat(strings.TrimSuffix(tok, "]"), 64)
		if perr != nil {
			return nil, fmt.Errorf("%w: byte %d: bad number %q", ErrCounts, at, tok)
		}
		v = append(v, x)
		if strings.HasSuffix(tok, "]") {
			return v, nil
		}
	}
}

func parseBinaryVector(data []byte) ([]float64, error) {
	if len(data) < 10 {
		return nil, fmt.Errorf("%w: truncated binary vector header", ErrCounts)
	}
	var size int
	switch string(data[2:5]) {
	case "DV ":
		size = 8
	case "FV ":
		size = 4
	default:
		return nil, fmt.Errorf("%w: byte 2: expected DV or FV token, got %q", ErrCounts, data[2:5])
	}
	if data[5] != 4 {
		return nil, fmt.Errorf("%w: byte 5: expected int32 size byte 4, got %d", ErrCounts, data[5])
	}
	n := int(int32(binary.LittleEndian.Uint32(data[6:10])))
	if n < 0 || n > (len(data)-10)/size {
		return nil, fmt.Errorf("%w: byte 6: vector dimension %d does not fit the %d-byte file", ErrCounts, n, len(data))
	}
	v := make([]float64, n)
	for i := range v {
		b := data[10+i*size:]
		if size == 8 {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
		} else {
			v[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
	}
	return v, nil
}

// SubtractRows subtracts Scale × log prior from each row of a row-major
// matrix with cols columns (nnet1's SubtractOnLogpost). A column count that
// differs from the number of priors is an error.
func (p *Prior) SubtractRows(m []float32, cols int) error {
	if cols != len(p.LogPriors) {
		return fmt.Errorf("%w, class_frame_counts %d pdf_output_llk %d", ErrDimension, len(p.LogPriors), cols)
	}
	for r := 0; r+cols <= len(m); r += cols {
		row := m[r : r+cols]
		for j, lp := range p.LogPriors {
			row[j] -= p.Scale * lp
		}
	}
	return nil
}
