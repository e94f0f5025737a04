package features

import (
	"flag"
	"fmt"
	"runtime"

	"github.com/strode-asr/strode/kaldiio"
)

// Logger receives Kaldi-style LOG and WARNING lines (kaldicmd's Context is
// one).
type Logger interface {
	Log(format string, a ...any)
	Warn(format string, a ...any)
}

// ComputeFeatsOptions are the options compute-fbank-feats and
// compute-mfcc-feats add to the feature options.
type ComputeFeatsOptions struct {
	Channel      int     // --channel: channel to extract (-1 -> expect mono, 0 -> left, 1 -> right)
	VtlnWarp     float64 // --vtln-warp: VTLN warp factor (only applicable if vtln-map not specified)
	MinDuration  float64 // --min-duration: minimum duration of segments to process (in seconds)
	SubtractMean bool    // --subtract-mean: subtract mean of each feature file [CMS; not recommended to do it this way]
	NumThreads   int     // --num-threads: utterances computed in parallel (strode; output keeps the input order)
}

// DefaultComputeFeatsOptions are Kaldi's defaults, with one thread per core.
func DefaultComputeFeatsOptions() ComputeFeatsOptions {
	return ComputeFeatsOptions{Channel: -1, VtlnWarp: 1, NumThreads: 1}
}

// Register adds the options to fs under Kaldi's names.
func (o *ComputeFeatsOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.Channel, "channel", o.Channel, "Channel to extract (-1 -> expect mono, 0 -> left, 1 -> right)")
	fs.Float64Var(&o.VtlnWarp, "vtln-warp", o.VtlnWarp, "Vtln warp factor (only applicable if vtln-map not specified)")
	fs.Float64Var(&o.MinDuration, "min-duration", o.MinDuration, "Minimum duration of segments to process (in seconds).")
	fs.BoolVar(&o.SubtractMean, "subtract-mean", o.SubtractMean, "Subtract mean of each feature file [CMS]; not recommended to do it this way. ")
	fs.IntVar(&o.NumThreads, "num-threads", o.NumThreads, fmt.Sprintf("Number of utterances computed in parallel; output stays in input order (this machine has %d cores)", runtime.NumCPU()))
}

type featJob struct {
	key  string
	wave WaveData
}

type featResult struct {
	key      string
	mat      kaldiio.Matrix
	warnings []string
	failed   bool // counted as an utterance that failed
	skip     bool // no output, not a failure (too short)
}

// ComputeFeats is the body of compute-fbank-feats / compute-mfcc-feats:
// waves from rspecifier, features of comp to wspecifier. Per-utterance
// problems (a bad channel, a sample-rate mismatch) are Kaldi's warnings and
// the utterance is skipped; done counts the utterances written.
func ComputeFeats(comp Computer, o ComputeFeatsOptions, rspecifier, wspecifier string, log Logger, kopts ...kaldiio.Option) (done, total int, err error) {
	sr, err := kaldiio.OpenSequentialReader(rspecifier, WaveCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	n := max(o.NumThreads, 1)
	offs := make([]*Offline, n)
	for i := range offs {
		c := comp
		if i > 0 {
			c = comp.Clone()
		}
		if offs[i], err = NewOffline(c); err != nil {
			tw.Close()
			return 0, 0, err
		}
	}
	next := func() (featJob, bool, error) {
		if !sr.Next() {
			return featJob{}, false, sr.Err()
		}
		total++
		return featJob{key: sr.Key(), wave: sr.Value()}, true, nil
	}
	work := func(w int, j featJob) featResult {
		return computeOne(offs[w], o, j)
	}
	emit := func(r featResult) error {
		for _, m := range r.warnings {
			log.Warn("%s", m)
		}
		if r.failed || r.skip {
			return nil
		}
		if err := tw.Write(r.key, r.mat); err != nil {
			return err
		}
		done++
		return nil
	}
	err = runOrdered(n, next, work, emit)
	if cerr := tw.Close(); err == nil {
		err = cerr
	}
	if cerr := sr.Close(); err == nil {
		err = cerr
	}
	return done, total, err
}

func computeOne(off *Offline, o ComputeFeatsOptions, j featJob) featResult {
	r := featResult{key: j.key}
	for _, w := range j.wave.Warnings {
		r.warnings = append(r.warnings, fmt.Sprintf("%s (utterance %s)", w, j.key))
	}
	if o.MinDuration > 0 && j.wave.Duration() < o.MinDuration {
		r.warnings = append(r.warnings, fmt.Sprintf("File: %s is too short (%v sec): producing no output.", j.key, j.wave.Duration()))
		r.skip = true
		return r
	}
	nc := j.wave.NumChannels()
	ch := o.Channel
	if ch >= nc {
		r.warnings = append(r.warnings, fmt.Sprintf("File with id %s has %d channels but you specified channel %d, producing no output.", j.key, nc, ch))
		r.failed = true
		return r
	}
	samples, warn, err := j.wave.Channel(ch)
	if warn != "" {
		r.warnings = append(r.warnings, warn)
	}
	if err != nil {
		r.warnings = append(r.warnings, fmt.Sprintf("Failed to compute features for utterance %s: %v", j.key, err))
		r.failed = true
		return r
	}
	data, rows, err := off.Compute(nil, j.key, samples, j.wave.SampFreq, o.VtlnWarp)
	if err != nil {
		r.warnings = append(r.warnings, fmt.Sprintf("Failed to compute features for utterance %s: %v", j.key, err))
		r.failed = true
		return r
	}
	dim := off.Dim()
	if rows == 0 {
		// Kaldi writes an empty matrix for a file shorter than one frame.
		r.warnings = append(r.warnings, fmt.Sprintf("Utterance %s is shorter than one frame (%d samples): empty output.", j.key, len(samples)))
		dim = 0
	}
	if o.SubtractMean && rows > 0 {
		mean := make([]float64, dim)
		for t := 0; t < rows; t++ {
			for d := 0; d < dim; d++ {
				mean[d] += float64(data[t*dim+d])
			}
		}
		for t := 0; t < rows; t++ {
			for d := 0; d < dim; d++ {
				data[t*dim+d] -= float32(mean[d] / float64(rows))
			}
		}
	}
	r.mat = kaldiio.Matrix{Rows: rows, Cols: dim, Data: data}
	return r
}
