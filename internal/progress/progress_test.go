package progress

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	t := c.t
	c.t = c.t.Add(c.step)
	return t
}

func TestLinesWithInjectedClock(t *testing.T) {
	tests := []struct {
		name string
		task Task
		adds []int64
		want []string
	}{
		{
			name: "known total with steps",
			task: Task{Name: "epoch 3", Unit: "frames", Total: 1000, Steps: 4, StepName: "minibatch"},
			adds: []int64{250, 250, 250, 250},
			// The clock reads 0 s at New, then 4 s, 8 s, 12 s, 16 s at the Adds:
			// lines at 12 s (≥ 10 s after the start) only; at 16 s only 4 s have passed since.
			want: []string{"LOG (strode train) epoch 3 progress: minibatch 3 of 4, 750 of 1000 frames (75%), 62.5 frames/s, ETA 4s, elapsed 12s"},
		},
		{
			name: "unknown total",
			task: Task{Name: "decoding", Unit: "utterances"},
			adds: []int64{1, 1, 1, 1, 1, 1},
			want: []string{
				"LOG (strode train) decoding progress: 3 utterances, 0.25 utterances/s, elapsed 12s",
				"LOG (strode train) decoding progress: 6 utterances, 0.25 utterances/s, elapsed 24s",
			},
		},
		{
			name: "fast rate as an integer",
			task: Task{Name: "computing features", Unit: "utterances", Total: 100000},
			adds: []int64{20000, 20000, 20000},
			want: []string{"LOG (strode train) computing features progress: 60000 of 100000 utterances (60%), 5000 utterances/s, ETA 8s, elapsed 12s"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := func(format string, a ...any) {
				fmt.Fprintf(&buf, "LOG (strode train) "+format+"\n", a...)
			}
			clk := &fakeClock{t: time.Unix(1000, 0), step: 4 * time.Second}
			r := New(&buf, log, tc.task, Options{Mode: Lines, Now: clk.now})
			if r.Mode() != Lines {
				t.Fatalf("mode %v, want Lines", r.Mode())
			}
			for _, n := range tc.adds {
				r.Add(n)
			}
			r.Finish()
			r.Add(1) // after Finish: nothing
			got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if buf.Len() == 0 {
				got = nil
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestLinesKeepRecipeGrepsClean: recipes grep train logs for "epoch N:"
// and align logs for "Overall|Done"; progress lines must match neither.
func TestLinesKeepRecipeGrepsClean(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Unix(0, 0), step: time.Minute}
	r := New(&buf, nil, Task{Name: "epoch 12", Unit: "frames", Total: 10, Steps: 2, StepName: "minibatch"}, Options{Mode: Lines, Now: clk.now})
	r.Add(5)
	r.Add(5)
	r2 := New(&buf, nil, Task{Name: "aligning", Unit: "utterances"}, Options{Mode: Lines, Now: clk.now})
	r2.Add(1)
	if buf.Len() == 0 {
		t.Fatal("no lines written")
	}
	for _, re := range []string{`epoch [0-9]+:`, `epoch [0-9]*:`, `Overall|Done`} {
		if m := regexp.MustCompile(re).FindString(buf.String()); m != "" {
			t.Errorf("progress lines match the recipes' grep %q (%q):\n%s", re, m, buf.String())
		}
	}
}

func TestSilent(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode Mode
		w    bool
	}{
		{"off", Off, true},
		{"auto under go test", Auto, true},
		{"no writer", Lines, false},
		{"no writer, bar", Bar, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			logged := 0
			log := func(string, ...any) { logged++ }
			clk := &fakeClock{t: time.Unix(0, 0), step: time.Hour}
			var r *Reporter
			if tc.w {
				r = New(&buf, log, Task{Name: "x", Unit: "frames", Total: 3}, Options{Mode: tc.mode, Now: clk.now})
			} else {
				r = New(nil, log, Task{Name: "x", Unit: "frames", Total: 3}, Options{Mode: tc.mode, Now: clk.now})
			}
			if r.Mode() != Off {
				t.Errorf("mode %v, want Off", r.Mode())
			}
			for i := 0; i < 3; i++ {
				r.Add(1)
			}
			r.Finish()
			fmt.Fprint(r.Writer(), "")
			if buf.Len() != 0 || logged != 0 {
				t.Errorf("printed %q and logged %d lines with progress off", buf.String(), logged)
			}
		})
	}
}

// TestBar draws a bar into a buffer: it ends on one complete line, and the
// caller's messages go out whole, each after a line clear.
func TestBar(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, nil, Task{Name: "epoch 1", Unit: "frames", Total: 100}, Options{Mode: Bar})
	r.Add(40)
	fmt.Fprintln(r.Writer(), "LOG (strode train) a message")
	r.Add(60)
	r.Finish()
	fmt.Fprintln(r.Writer(), "after")
	out := buf.String()
	if !strings.HasSuffix(out, "\nafter\n") || strings.HasSuffix(out, "\x1b[Kafter\n") {
		t.Errorf("after Finish the writer should pass through: %q", out)
	}
	out = strings.TrimSuffix(out, "after\n")
	if !strings.Contains(out, "\r\x1b[KLOG (strode train) a message\n") {
		t.Errorf("message not written after a line clear: %q", out)
	}
	last := out[strings.LastIndex(out, "\r")+1:]
	if !strings.HasPrefix(last, "epoch 1 100 / 100 [") || !strings.Contains(last, "100%") || !strings.HasSuffix(last, "\n") {
		t.Errorf("final bar %q", last)
	}
}

func TestIsTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
}
