package progress

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cheggaaa/pb/v3"
	"github.com/cheggaaa/pb/v3/termutil"
)

// barWidth is the terminal's width, at most 110 columns; 100 when the
// terminal does not say (a pseudo-terminal of size 0).
func barWidth() int {
	w, err := termutil.TerminalWidth()
	if err != nil || w < 40 {
		return 100
	}
	return min(w, 110)
}

// newBar starts a pb bar for t on w: "epoch 3 12000 / 27000 [===>   ] 44%
// 5123 frames/s ETA 3s", or, with no total, "decoding 120 utterances
// 3.2 utterances/s".
func newBar(t Task, w io.Writer) *pb.ProgressBar {
	tmpl := `{{string . "name"}} {{counters . }} {{bar . "[" "=" ">" " " "]"}} {{percent . "%.0f%%"}} {{speed . "%s ` + t.Unit + `/s" "? ` + t.Unit + `/s"}} {{rtime . "ETA %s" "in %s" "ETA ?"}}`
	if t.Total <= 0 {
		tmpl = `{{string . "name"}} {{counters . "" "%[1]s ` + t.Unit + `"}} {{speed . "%s ` + t.Unit + `/s" "? ` + t.Unit + `/s"}} {{etime . "elapsed %s"}}`
	}
	b := pb.New64(max(t.Total, 0))
	b.SetTemplateString(tmpl)
	b.Set("name", t.Name)
	b.SetWriter(w)
	b.Set(pb.Terminal, true)
	b.Set(pb.ReturnSymbol, "\r")
	b.Set(pb.Color, false)
	b.SetWidth(barWidth())
	b.SetRefreshRate(200 * time.Millisecond)
	return b.Start()
}

// lockedWriter serialises the bar's redraws with the caller's messages.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// clearingWriter blanks the bar's line ("\r", erase to end of line) before
// each message while the bar runs, and passes writes through once it is
// finished.
type clearingWriter struct {
	l    *lockedWriter
	done *atomic.Bool
}

func (c *clearingWriter) Write(p []byte) (int, error) {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if c.done.Load() {
		return c.l.w.Write(p)
	}
	if _, err := io.WriteString(c.l.w, "\r\x1b[K"); err != nil {
		return 0, err
	}
	return c.l.w.Write(p)
}
