package features

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkComputeFeats measures the whole compute-fbank-feats table driver
// (wav.scp reading, WAV decoding, fbank, archive writing to /dev/null) on the
// golden 16 kHz wavs listed 50 times, with 1 and 2 threads; frames/s is the
// figure to compare. Run with GOMAXPROCS equal to the thread count.
func BenchmarkComputeFeats(b *testing.B) {
	g := needGolden(b)
	dir := b.TempDir()
	var lines []string
	for r := 0; r < 50; r++ {
		for _, u := range []string{"s_utt1", "s_utt2", "s_utt3", "s_utt4"} {
			lines = append(lines, "r"+strconv.Itoa(r)+"_"+u+" "+filepath.Join(g, "wav", u+".wav"))
		}
	}
	scp := filepath.Join(dir, "wav.scp")
	if err := os.WriteFile(scp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	o := DefaultFbankOptions()
	o.Frame.Dither = 0
	o.Mel.NumBins = 40
	for _, threads := range []int{1, 2} {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			co := DefaultComputeFeatsOptions()
			co.NumThreads = threads
			f, err := NewFbank(o)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			idle0, total0 := schedulerTimes()
			cpu0 := processCPU()
			for b.Loop() {
				if _, _, err := ComputeFeats(f, co, "scp:"+scp, "ark:/dev/null", &testLog{}); err != nil {
					b.Fatal(err)
				}
			}
			idle1, total1 := schedulerTimes()
			if c := processCPU() - cpu0; c > 0 {
				// CPU seconds do not grow while other processes run.
				b.ReportMetric(30600*float64(b.N)/c.Seconds(), "frames/cpu-s")
			}
			// 153 frames per listing of the four wavs on average.
			b.ReportMetric(30600*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			// The share of the Ps' time with nothing to run: the pool's
			// own idling, whatever other processes do to the wall time.
			// (Updated by the runtime at each GC cycle.)
			if d := total1 - total0; d > 0 {
				b.ReportMetric(100*(idle1-idle0)/d, "%P-idle")
			}
		})
	}
}
