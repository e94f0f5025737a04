package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cheggaaa/pb/v3"
	"github.com/mattn/go-isatty"
)

// Mode is how a Reporter shows progress.
type Mode int

const (
	// Auto is Bar when the writer is a terminal, Lines otherwise, Off under
	// `go test`; STRODE_PROGRESS overrides it outside tests.
	Auto Mode = iota
	// Off prints nothing.
	Off
	// Bar redraws one line in place.
	Bar
	// Lines prints a LOG line at most every Interval.
	Lines
)

// EnvVar overrides Auto outside tests: "bar", "log" or "off".
const EnvVar = "STRODE_PROGRESS"

// DefaultInterval is the least time between two LOG lines.
const DefaultInterval = 10 * time.Second

// Options tune a Reporter; the zero value is Auto with DefaultInterval and
// the wall clock.
type Options struct {
	Mode     Mode
	Interval time.Duration    // Lines: least time between two lines (0: DefaultInterval)
	Now      func() time.Time // the clock (nil: time.Now); tests inject one
}

// Task is one piece of long work.
type Task struct {
	Name  string // what is going on: "epoch 3", "decoding"
	Unit  string // what is counted: "frames", "utterances"
	Total int64  // units in all; ≤ 0 when unknown (a pipe, an archive)
	// Steps, when > 0, is the number of Add calls the task takes in all
	// (minibatches), shown beside the units in LOG lines.
	Steps    int64
	StepName string // what a step is called ("minibatch")
}

// Reporter shows the progress of one Task. Its methods are safe for
// concurrent use and do nothing once Finish has been called.
type Reporter struct {
	task  Task
	mode  Mode
	every time.Duration
	now   func() time.Time
	log   func(format string, a ...any)
	out   io.Writer

	mu          sync.Mutex
	done, steps int64
	start, last time.Time
	bar         *pb.ProgressBar
	lw          *lockedWriter
	finished    bool
	barDone     atomic.Bool // finished, for the clearing writer (which must not take mu)
}

// New starts reporting t to w (nil: silent). In Lines mode the lines go
// through log (a Kaldi-style LOG function such as kaldicmd.Context.Log), or
// straight to w when log is nil.
func New(w io.Writer, log func(format string, a ...any), t Task, o Options) *Reporter {
	r := &Reporter{task: t, mode: resolve(o.Mode, w), every: o.Interval, now: o.Now, log: log, out: w}
	if r.every <= 0 {
		r.every = DefaultInterval
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.log == nil && w != nil {
		r.log = func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	}
	r.start = r.now()
	r.last = r.start
	if r.mode == Bar {
		r.lw = &lockedWriter{w: w}
		r.bar = newBar(t, r.lw)
	}
	return r
}

// resolve turns Auto into the mode for w.
func resolve(m Mode, w io.Writer) Mode {
	if w == nil {
		return Off
	}
	if m != Auto {
		return m
	}
	if testing.Testing() {
		return Off
	}
	switch strings.ToLower(os.Getenv(EnvVar)) {
	case "bar":
		return Bar
	case "log", "lines":
		return Lines
	case "off", "none", "0":
		return Off
	}
	if IsTerminal(w) {
		return Bar
	}
	return Lines
}

// IsTerminal reports whether w is a terminal (an *os.File, or anything with
// an Fd method, open on a tty).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Mode is the form this reporter took (never Auto).
func (r *Reporter) Mode() Mode { return r.mode }

// Add records n more units done (and one step when the task counts steps).
func (r *Reporter) Add(n int64) {
	if r.mode == Off {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return
	}
	r.done += n
	r.steps++
	switch r.mode {
	case Bar:
		r.bar.SetCurrent(r.done)
	case Lines:
		if r.task.Total > 0 && r.done >= r.task.Total {
			return // complete: the caller's summary line follows
		}
		if now := r.now(); now.Sub(r.last) >= r.every {
			r.last = now
			r.log("%s", r.line(now))
		}
	}
}

// Finish ends the report: the bar is drawn complete and the line ended. It
// prints no summary (that is the caller's, as Kaldi's tools print theirs).
func (r *Reporter) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return
	}
	r.finished = true
	if r.bar != nil {
		r.bar.Finish()
		r.barDone.Store(true)
	}
}

// Writer is where the caller's own messages to the reporter's stream go
// while it runs: on a bar, each write first blanks the bar's line (the bar
// redraws under it at its next tick); otherwise it is the stream itself.
func (r *Reporter) Writer() io.Writer {
	if r.lw == nil {
		if r.out == nil {
			return io.Discard
		}
		return r.out
	}
	return &clearingWriter{l: r.lw, done: &r.barDone}
}

// line is the LOG line at time now: e.g. "epoch 3 progress: minibatch 5 of
// 12, 12000 of 27000 frames (44%), 5123 frames/s, ETA 3s". It never reads
// "epoch N:" nor "Done"/"Overall", which recipes grep for.
func (r *Reporter) line(now time.Time) string {
	t := r.task
	var b strings.Builder
	fmt.Fprintf(&b, "%s progress: ", t.Name)
	if t.Steps > 0 {
		fmt.Fprintf(&b, "%s %d of %d, ", t.StepName, r.steps, t.Steps)
	}
	el := now.Sub(r.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(r.done) / el
	}
	if t.Total > 0 {
		fmt.Fprintf(&b, "%d of %d %s (%.0f%%), %s %s/s", r.done, t.Total, t.Unit, 100*float64(r.done)/float64(t.Total), formatRate(rate), t.Unit)
		if rate > 0 && r.done < t.Total {
			eta := time.Duration(float64(t.Total-r.done) / rate * float64(time.Second))
			fmt.Fprintf(&b, ", ETA %v", eta.Round(time.Second))
		}
	} else {
		fmt.Fprintf(&b, "%d %s, %s %s/s", r.done, t.Unit, formatRate(rate), t.Unit)
	}
	fmt.Fprintf(&b, ", elapsed %v", (time.Duration(el * float64(time.Second))).Round(time.Second))
	return b.String()
}

// formatRate prints a rate with three significant digits, or as an
// integer from 1000 up.
func formatRate(x float64) string {
	if x >= 1000 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}
