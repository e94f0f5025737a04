package features

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type testLog struct{ warnings []string }

func (l *testLog) Log(string, ...any) {}
func (l *testLog) Warn(f string, a ...any) {
	l.warnings = append(l.warnings, f)
}

// The worker pool must write utterances in input order, with the same
// numbers as one thread.
func TestComputeFeatsThreadsKeepOrder(t *testing.T) {
	g := needGolden(t)
	dir := t.TempDir()
	var lines []string
	for r := 0; r < 5; r++ {
		for _, u := range []string{"s_utt1", "s_utt2", "s_utt3", "s_utt4"} {
			lines = append(lines, "r"+string(rune('a'+r))+"_"+u+" "+filepath.Join(g, "wav", u+".wav"))
		}
	}
	scp := filepath.Join(dir, "wav.scp")
	if err := os.WriteFile(scp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := DefaultFbankOptions()
	o.Frame.DitherSeed = 3 // with dither: the noise must not depend on the thread
	var outs [][]byte
	for _, n := range []int{1, 3} {
		f, err := NewFbank(o)
		if err != nil {
			t.Fatal(err)
		}
		co := DefaultComputeFeatsOptions()
		co.NumThreads = n
		out := filepath.Join(dir, "out.txt")
		done, total, err := ComputeFeats(f, co, "scp:"+scp, "ark,t:"+out, &testLog{})
		if err != nil || done != 20 || total != 20 {
			t.Fatalf("threads=%d: done %d of %d, %v", n, done, total, err)
		}
		b, _ := os.ReadFile(out)
		outs = append(outs, b)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("3 threads wrote different output from 1 thread")
	}
	if i := bytes.Index(outs[1], []byte("rb_s_utt1")); i < 0 || i < bytes.Index(outs[1], []byte("ra_s_utt4")) {
		t.Fatal("utterances out of order")
	}
}
