// Command speedperturb makes speed-perturbed copies of waves, as Kaldi's
// recipes do with "sox -t wav - -t wav - speed F" in wav.scp: a factor F
// plays the wave F times faster (duration / F, every frequency × F), which
// imitates other speakers' tempo and vocal-tract lengths at once.
//
//	speedperturb FACTOR OUT-DIR < list > wav.scp
//
// Each input line is "KEY PATH"; the copy is written to OUT-DIR/KEY.wav
// (atomically) and "KEY OUT-DIR/KEY.wav" is printed. Reading the samples as
// if taken at F × the rate and resampling them to the rate (Kaldi's
// windowed-sinc LinearResample) is the same operation as sox's speed.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/atomicfile"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "speedperturb:", err)
		os.Exit(1)
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: speedperturb FACTOR OUT-DIR < list (lines KEY PATH) > wav.scp")
	}
	f, err := strconv.ParseFloat(args[0], 64)
	if err != nil || f <= 0 {
		return fmt.Errorf("factor %q: want a positive number", args[0])
	}
	dir := args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	w := bufio.NewWriter(out)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return fmt.Errorf("standard input line %d: want KEY PATH, got %q", line, sc.Text())
		}
		dst := filepath.Join(dir, fields[0]+".wav")
		if err := perturb(fields[1], dst, f); err != nil {
			return fmt.Errorf("standard input line %d (%s): %w", line, fields[0], err)
		}
		fmt.Fprintf(w, "%s %s\n", fields[0], dst)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return w.Flush()
}

// perturb writes src sped up by factor f to dst.
func perturb(src, dst string, f float64) error {
	r, err := os.Open(src)
	if err != nil {
		return err
	}
	wave, err := features.ReadWave(bufio.NewReader(r))
	r.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	rate := wave.SampFreq
	for c, ch := range wave.Data {
		if wave.Data[c], err = features.ResampleWaveform(rate*f, ch, rate); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	}
	return atomicfile.Write(dst, func(w io.Writer) error {
		_, err := wave.Write(w)
		return err
	})
}
