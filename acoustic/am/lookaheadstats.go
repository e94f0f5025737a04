package am

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// LookaheadStats counts a causal model's frames by their look-ahead: how
// many input frames after its own a frame's output waits for. For a fixed
// look-ahead (right splicing, --target-delay) every frame waits the same;
// the look-ahead head (--head-variant=lookahead) adds ⌈min(t̃_i, L)⌉ per
// frame, what `strode forward --lookahead-stats` reports and the latency
// curve (`strode latency-curve`) plots WER against.
//
// Two counts: Hist, the look-ahead each frame asks for, and InOrder, the
// wait of frame i when outputs leave in frame order, as a decoder consumes
// them: max_{j≤i}(j + a_j) − i, never less than a_i (a frame that asks for
// little still waits for an earlier one that asked for more). Neither is
// cut at the utterance's end, where an online decoder has every frame: the
// statistics are of the model, not of utterance lengths.
type LookaheadStats struct {
	Variant string  // LookaheadVariable (the look-ahead head) or LookaheadFixed
	Fixed   int     // the look-ahead every frame has (right splicing + target delay)
	Max     int     // the most frames any frame can wait for (Fixed, + L for the head; len(Hist) − 1)
	Utts    int     // utterances counted
	Hist    []int64 // Hist[a]: frames that ask for a frames of look-ahead
	InOrder []int64 // InOrder[a]: frames that wait a frames in frame order
}

// Kinds of look-ahead in LookaheadStats.Variant.
const (
	LookaheadFixed    = "fixed"
	LookaheadVariable = "lookahead"
)

// NewLookaheadStats returns empty statistics for model options o and
// pipeline p, or an error for a bidirectional model, whose look-ahead is
// the whole utterance.
func NewLookaheadStats(o Options, p Pipeline) (*LookaheadStats, error) {
	max := Lookahead(o, p)
	if max < 0 {
		return nil, fmt.Errorf("am: look-ahead statistics: the model is bidirectional, its look-ahead is the whole utterance")
	}
	s := &LookaheadStats{Variant: LookaheadFixed, Fixed: max, Max: max, Hist: make([]int64, max+1), InOrder: make([]int64, max+1)}
	if l := headLookahead(o); l > 0 {
		s.Variant, s.Fixed = LookaheadVariable, max-l
	}
	return s, nil
}

// Add counts one utterance of rows frames whose look-ahead beyond Fixed is
// extra[i] frames (the head's ⌈min(t̃_i, L)⌉; nil: 0 for every frame).
func (s *LookaheadStats) Add(extra []int, rows int) error {
	emit := math.MinInt // the frame at which every output up to frame i is known
	for i := 0; i < rows; i++ {
		a := s.Fixed
		if extra != nil {
			a += extra[i]
		}
		if a < 0 || a > s.Max {
			return fmt.Errorf("am: look-ahead statistics: frame %d waits %d frames, outside [0, %d]", i, a, s.Max)
		}
		s.Hist[a]++
		emit = max(emit, i+a)
		s.InOrder[emit-i]++
	}
	s.Utts++
	return nil
}

// Frames is the number of frames counted.
func (s *LookaheadStats) Frames() int64 { return total(s.Hist) }

// Mean and Percentile are of the frames' look-ahead (Hist); InOrderMean and
// InOrderPercentile of their wait in frame order (InOrder).
func (s *LookaheadStats) Mean() float64            { return histMean(s.Hist) }
func (s *LookaheadStats) Percentile(q float64) int { return histPercentile(s.Hist, q) }
func (s *LookaheadStats) InOrderMean() float64     { return histMean(s.InOrder) }

// InOrderPercentile is InOrder's q-quantile (Percentile's rule).
func (s *LookaheadStats) InOrderPercentile(q float64) int { return histPercentile(s.InOrder, q) }

func total(h []int64) int64 {
	var n int64
	for _, c := range h {
		n += c
	}
	return n
}

func histMean(h []int64) float64 {
	n, sum := total(h), 0.0
	if n == 0 {
		return 0
	}
	for a, c := range h {
		sum += float64(a) * float64(c)
	}
	return sum / float64(n)
}

// histPercentile is the nearest-rank q-quantile of the counts: the least a
// with at least ⌈q·n⌉ frames at or below it (0 for no frames).
func histPercentile(h []int64, q float64) int {
	n := total(h)
	need := int64(math.Ceil(q * float64(n)))
	var c int64
	for a, k := range h {
		c += k
		if c >= need && c > 0 {
			return a
		}
	}
	return 0
}

// Merge adds o's counts (another job's of the same model) to s.
func (s *LookaheadStats) Merge(o *LookaheadStats) error {
	if o.Variant != s.Variant || o.Max != s.Max || o.Fixed != s.Fixed {
		return fmt.Errorf("am: look-ahead statistics of different models: %s up to %d frames and %s up to %d", s.Variant, s.Max, o.Variant, o.Max)
	}
	for a := range s.Hist {
		s.Hist[a] += o.Hist[a]
		s.InOrder[a] += o.InOrder[a]
	}
	s.Utts += o.Utts
	return nil
}

// Write writes the statistics as text, one "key value…" line each, the
// first a comment: variant, fixed, max, utterances, frames, mean, p95,
// in-order-mean, in-order-p95 (for a reader), and hist and in-order-hist,
// the counts for 0 … max frames, which ReadLookaheadStats reads (jobs'
// files merge by adding them).
func (s *LookaheadStats) Write(w io.Writer) error {
	ints := func(h []int64) string {
		f := make([]string, len(h))
		for i, c := range h {
			f[i] = strconv.FormatInt(c, 10)
		}
		return strings.Join(f, " ")
	}
	_, err := fmt.Fprintf(w, "# frames by look-ahead: the input frames after its own that a frame's output waits for (hist: as asked, in-order-hist: in frame order)\n"+
		"variant %s\nfixed %d\nmax %d\nutterances %d\nframes %d\nmean %.4f\np95 %d\nin-order-mean %.4f\nin-order-p95 %d\nhist %s\nin-order-hist %s\n",
		s.Variant, s.Fixed, s.Max, s.Utts, s.Frames(), s.Mean(), s.Percentile(0.95), s.InOrderMean(), s.InOrderPercentile(0.95),
		ints(s.Hist), ints(s.InOrder))
	return err
}

// ReadLookaheadStats reads what Write wrote; name (the file's) prefixes
// every error with the line: "FILE:3: ...".
func ReadLookaheadStats(r io.Reader, name string) (*LookaheadStats, error) {
	s := &LookaheadStats{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		key, vals := f[0], f[1:]
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: look-ahead statistics: %s: %s", name, n, key, fmt.Sprintf(format, a...))
		}
		if seen[key] {
			return nil, bad("given twice")
		}
		seen[key] = true
		switch key {
		case "variant":
			if len(vals) != 1 || (vals[0] != LookaheadFixed && vals[0] != LookaheadVariable) {
				return nil, bad("want %s or %s, got %q", LookaheadFixed, LookaheadVariable, strings.Join(vals, " "))
			}
			s.Variant = vals[0]
		case "fixed", "max", "utterances":
			if len(vals) != 1 {
				return nil, bad("want one number, got %d fields", len(vals))
			}
			v, err := strconv.Atoi(vals[0])
			if err != nil || v < 0 {
				return nil, bad("%q is not a count", vals[0])
			}
			*map[string]*int{"fixed": &s.Fixed, "max": &s.Max, "utterances": &s.Utts}[key] = v
		case "hist", "in-order-hist":
			h := make([]int64, len(vals))
			for i, v := range vals {
				c, err := strconv.ParseInt(v, 10, 64)
				if err != nil || c < 0 {
					return nil, bad("count %d, %q, is not a count", i, v)
				}
				h[i] = c
			}
			if key == "hist" {
				s.Hist = h
			} else {
				s.InOrder = h
			}
		case "frames", "mean", "p95", "in-order-mean", "in-order-p95":
			// for a reader: recomputed from the counts
		default:
			return nil, bad("unknown key")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, k := range []string{"variant", "fixed", "max", "hist", "in-order-hist"} {
		if !seen[k] {
			return nil, fmt.Errorf("%s: look-ahead statistics: no %s line", name, k)
		}
	}
	if len(s.Hist) != s.Max+1 || len(s.InOrder) != s.Max+1 || s.Fixed > s.Max {
		return nil, fmt.Errorf("%s: look-ahead statistics: fixed %d, max %d, with %d and %d counts (want max + 1 each)", name, s.Fixed, s.Max, len(s.Hist), len(s.InOrder))
	}
	if total(s.Hist) != total(s.InOrder) {
		return nil, fmt.Errorf("%s: look-ahead statistics: hist counts %d frames, in-order-hist %d", name, total(s.Hist), total(s.InOrder))
	}
	return s, nil
}

// HeadLookahead is the look-ahead head's wait per frame, ⌈min(t̃_i, L)⌉,
// for the boundaries tt of one utterance (Forwarder: Rows(TTilde, 0)), as
// LookaheadStats.Add takes it; nil for the other models.
func (m *Model) HeadLookahead(tt []float64) []int {
	a, ok := m.arch.(*strodeArch)
	if !ok || !a.head.Cfg.Lookahead() {
		return nil
	}
	out := make([]int, len(tt))
	for i, v := range tt {
		out[i] = a.head.Cfg.LookaheadFrames(v)
	}
	return out
}
