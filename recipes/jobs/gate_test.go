package jobs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// hangGuard bounds a wait that only a broken runner would not end; it is
// never what a passing test waits for, so a busy machine cannot trip it.
const hangGuard = 2 * time.Minute

// jobGate synchronises a test with a job on events instead of sleeps: the
// job's command writes to one FIFO when it has started and then reads a
// second one, so it runs until the test lets it go (or until it is killed).
// Opening a FIFO blocks until the other end opens it, so each side sees the
// other's step when it happens, however busy the machine is.
type jobGate struct {
	startFIFO, releaseFIFO string
	started                chan struct{} // closed when the job has started
	released               bool
}

func newJobGate(t *testing.T) *jobGate {
	t.Helper()
	dir := t.TempDir()
	g := &jobGate{
		startFIFO:   filepath.Join(dir, "started"),
		releaseFIFO: filepath.Join(dir, "release"),
		started:     make(chan struct{}),
	}
	for _, p := range []string{g.startFIFO, g.releaseFIFO} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		// Blocks until the job opens the FIFO for writing; EOF when it has
		// written and closed it.
		if f, err := os.Open(g.startFIFO); err == nil {
			f.Read(make([]byte, 1))
			f.Close()
		}
		close(g.started)
	}()
	t.Cleanup(func() {
		// A job that never started leaves the reader above waiting: open the
		// FIFO's other end (O_RDWR never blocks on Linux) so it returns.
		select {
		case <-g.started:
		default:
			if f, err := os.OpenFile(g.startFIFO, os.O_RDWR, 0); err == nil {
				f.Close()
			}
		}
		g.release()
	})
	return g
}

// command is the job's shell words: say it started, then wait for release.
func (g *jobGate) command() []string {
	return []string{"echo", "started", ">", g.startFIFO, ";", "cat", g.releaseFIFO}
}

// waitStarted waits until the job has started; it fails the test when the
// run ended first (done delivers its exit code) or on the hang guard.
func (g *jobGate) waitStarted(t *testing.T, done <-chan int, stderr func() string) {
	t.Helper()
	select {
	case <-g.started:
	case code := <-done:
		t.Fatalf("the run ended (exit %d) before its job started:\n%s", code, stderr())
	case <-time.After(hangGuard):
		t.Fatalf("the job did not start within %v", hangGuard)
	}
}

// release lets a job waiting on the gate end: it opens the FIFO's writing
// end, which blocks until the job's cat has opened the reading end, and
// closes it, which gives cat an EOF. It does so in the background, as a
// killed job never opens the FIFO; its goroutine then stays blocked until
// the test binary exits, which is harmless.
func (g *jobGate) release() {
	if g.released {
		return
	}
	g.released = true
	go func() {
		if f, err := os.OpenFile(g.releaseFIFO, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
	}()
}
