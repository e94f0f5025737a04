package features

import (
	"errors"
	"flag"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/strode-asr/strode/kaldiio"
)

// Logger receives Kaldi-style LOG and WARNING lines (kaldicmd's Context is
// one).
type Logger interface {
	Log(format string, a ...any)
	Warn(format string, a ...any)
}

// VLogger is a Logger with Kaldi's verbose levels (kaldicmd's Context is
// one); the drivers use it when the Logger has it.
type VLogger interface {
	Logger
	Vlog(level int, format string, a ...any)
}

func vlog(l Logger, level int, format string, a ...any) {
	if v, ok := l.(VLogger); ok {
		v.Vlog(level, format, a...)
	}
}

// ComputeFeatsOptions are the options compute-fbank-feats and
// compute-mfcc-feats add to the feature options.
type ComputeFeatsOptions struct {
	Channel      int     // --channel: channel to extract (-1 -> expect mono, 0 -> left, 1 -> right)
	VtlnWarp     float64 // --vtln-warp: VTLN warp factor (only applicable if vtln-map not specified)
	MinDuration  float64 // --min-duration: minimum duration of segments to process (in seconds)
	SubtractMean bool    // --subtract-mean: subtract mean of each feature file [CMS; not recommended to do it this way]
	NumThreads   int     // --num-threads: utterances computed in parallel (strode; output keeps the input order)
	VtlnMap      string  // --vtln-map: map from utterance or speaker-id to vtln warp factor (rspecifier)
	Utt2spk      string  // --utt2spk: utterance to speaker-id map rspecifier (if doing VTLN and you have warps per speaker)
	OutputFormat string  // --output-format: format of the output files [kaldi, htk]
	WriteUtt2dur string  // --write-utt2dur: wspecifier to write the duration of each utterance in seconds, e.g. 'ark,t:utt2dur'
	Progress     func()  // called once per utterance finished (written, skipped or failed), in input order (nil: none)
}

// DefaultComputeFeatsOptions are Kaldi's defaults, with one thread per core.
func DefaultComputeFeatsOptions() ComputeFeatsOptions {
	return ComputeFeatsOptions{Channel: -1, VtlnWarp: 1, NumThreads: 1, OutputFormat: "kaldi"}
}

// Register adds the options to fs under Kaldi's names.
func (o *ComputeFeatsOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.Channel, "channel", o.Channel, "Channel to extract (-1 -> expect mono, 0 -> left, 1 -> right)")
	fs.Float64Var(&o.VtlnWarp, "vtln-warp", o.VtlnWarp, "Vtln warp factor (only applicable if vtln-map not specified)")
	fs.Float64Var(&o.MinDuration, "min-duration", o.MinDuration, "Minimum duration of segments to process (in seconds).")
	fs.BoolVar(&o.SubtractMean, "subtract-mean", o.SubtractMean, "Subtract mean of each feature file [CMS]; not recommended to do it this way. ")
	fs.StringVar(&o.VtlnMap, "vtln-map", o.VtlnMap, "Map from utterance or speaker-id to vtln warp factor (rspecifier)")
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "Utterance to speaker-id map rspecifier (if doing VTLN and you have warps per speaker)")
	fs.StringVar(&o.OutputFormat, "output-format", o.OutputFormat, "Format of the output files [kaldi, htk]")
	fs.StringVar(&o.WriteUtt2dur, "write-utt2dur", o.WriteUtt2dur, "Wspecifier to write duration of each utterance in seconds, e.g. 'ark,t:utt2dur'.")
	fs.IntVar(&o.NumThreads, "num-threads", o.NumThreads, fmt.Sprintf("Number of utterances computed in parallel; output stays in input order (this machine has %d cores)", runtime.NumCPU()))
}

type featJob struct {
	num  int // 1-based position in the input (Kaldi's num_utts)
	key  string
	rx   string // for script input: where the worker reads the wave from
	wave WaveData
	warp float64
	skip string // a warning: produce no output
}

type featResult struct {
	num      int
	dur      float64 // seconds of audio
	key      string
	mat      kaldiio.Matrix
	warnings []string
	failed   bool  // counted as an utterance that failed
	skip     bool  // no output, not a failure (too short)
	err      error // reading the wave failed: the run stops here
}

// ErrOutputFormat marks an --output-format other than kaldi or htk (or htk
// for a computer that has no HTK parameter kind).
var ErrOutputFormat = errors.New("invalid output format")

// featWriter writes feature matrices in Kaldi's or HTK's format.
type featWriter struct {
	kaldi *kaldiio.TableWriter[kaldiio.Matrix]
	htk   *kaldiio.TableWriter[HtkMatrix]
	kind  uint16
	useE  bool
}

func openFeatWriter(comp Computer, format, wspecifier string, kopts []kaldiio.Option) (*featWriter, error) {
	fw := &featWriter{}
	var err error
	switch format {
	case "kaldi":
		fw.kaldi, err = kaldiio.OpenTableWriter(wspecifier, kaldiio.MatrixCodec, kopts...)
	case "htk":
		switch c := comp.(type) {
		case *Fbank:
			fw.kind, fw.useE = HtkFbank, c.opts.UseEnergy
		case *Mfcc:
			fw.kind, fw.useE = HtkMfcc, c.opts.UseEnergy
		default:
			return nil, fmt.Errorf("%w: no HTK parameter kind for %T", ErrOutputFormat, comp)
		}
		fw.htk, err = kaldiio.OpenTableWriter(wspecifier, HtkMatrixCodec, kopts...)
	default:
		return nil, fmt.Errorf("%w: Invalid output_format string %s", ErrOutputFormat, format)
	}
	if err != nil {
		return nil, err
	}
	return fw, nil
}

func (fw *featWriter) Write(key string, m kaldiio.Matrix) error {
	if fw.htk != nil {
		return fw.htk.Write(key, NewHtkFeatures(m, fw.kind, fw.useE))
	}
	return fw.kaldi.Write(key, m)
}

func (fw *featWriter) Close() error {
	if fw.htk != nil {
		return fw.htk.Close()
	}
	return fw.kaldi.Close()
}

// ComputeFeats is the body of compute-fbank-feats / compute-mfcc-feats:
// waves from rspecifier, features of comp to wspecifier (in Kaldi's format,
// or HTK's with o.OutputFormat "htk"), durations to o.WriteUtt2dur.
// Per-utterance problems (a bad channel, a sample-rate mismatch) are Kaldi's
// warnings and the utterance is skipped; done counts the utterances written
// and total the utterances read plus those a permissive ("scp,p:") read
// skipped, each with its WARNING.
// Progress is logged as Kaldi does (every 10 utterances, and each key at
// verbose level 2), with a throughput summary at verbose level 1.
func ComputeFeats(comp Computer, o ComputeFeatsOptions, rspecifier, wspecifier string, log Logger, kopts ...kaldiio.Option) (done, total int, err error) {
	if err := finiteOptions(map[string]float64{"min-duration": o.MinDuration, "vtln-warp": o.VtlnWarp}); err != nil {
		return 0, 0, err
	}
	began := time.Now()
	idle0, ptotal0 := schedulerTimes()
	var frames int    // written
	var audio float64 // seconds written
	sr, err := openWaveSource(rspecifier, kopts)
	if err != nil {
		return 0, 0, err
	}
	defer sr.Close()
	tw, err := openFeatWriter(comp, o.OutputFormat, wspecifier, kopts)
	if err != nil {
		return 0, 0, err
	}
	var durWriter *kaldiio.TableWriter[float64]
	if o.WriteUtt2dur != "" {
		if durWriter, err = kaldiio.OpenTableWriter(o.WriteUtt2dur, kaldiio.DoubleCodec, kopts...); err != nil {
			tw.Close()
			return 0, 0, err
		}
	}
	closeWriters := func() {
		tw.Close()
		if durWriter != nil {
			durWriter.Close()
		}
	}
	n := max(o.NumThreads, 1)
	offs := make([]*Offline, n)
	for i := range offs {
		c := comp
		if i > 0 {
			c = comp.Clone()
		}
		if offs[i], err = NewOffline(c); err != nil {
			closeWriters()
			return 0, 0, err
		}
	}
	var vtlnMap *kaldiio.RandomAccessReader[float32]
	var utt2spk *kaldiio.RandomAccessReader[kaldiio.TokenVector]
	if o.VtlnMap != "" {
		if vtlnMap, err = kaldiio.OpenRandomAccessReader(o.VtlnMap, kaldiio.FloatCodec, kopts...); err != nil {
			closeWriters()
			return 0, 0, err
		}
		defer vtlnMap.Close()
		if o.Utt2spk != "" {
			if utt2spk, err = kaldiio.OpenRandomAccessReader(o.Utt2spk, kaldiio.TokenVectorCodec, kopts...); err != nil {
				closeWriters()
				return 0, 0, err
			}
			defer utt2spk.Close()
		}
	}
	next := func() (featJob, bool, error) {
		key, rx, wave, ok, err := sr.next()
		if !ok {
			return featJob{}, false, err
		}
		total++
		j := featJob{num: total, key: key, rx: rx, wave: wave, warp: o.VtlnWarp}
		if vtlnMap != nil {
			key := j.key
			if utt2spk != nil {
				spk, err := utt2spk.Value(j.key)
				if err == nil && len(spk) == 1 {
					key = spk[0]
				} else if err != nil && !errors.Is(err, kaldiio.ErrNotFound) {
					return j, false, err
				} else {
					j.skip = fmt.Sprintf("No utt2spk entry for utterance-id %s", j.key)
					return j, true, nil
				}
			}
			w, err := vtlnMap.Value(key)
			if errors.Is(err, kaldiio.ErrNotFound) {
				j.skip = fmt.Sprintf("No vtln-map entry for utterance-id (or speaker-id) %s", key)
				return j, true, nil
			}
			if err != nil {
				return j, false, err
			}
			j.warp = float64(w)
		}
		return j, true, nil
	}
	work := func(w int, j featJob) featResult {
		if j.rx != "" {
			if err := sr.readWave(j.key, j.rx, &j.wave); err != nil {
				return featResult{num: j.num, key: j.key, err: err}
			}
		}
		r := computeOne(offs[w], o, j)
		releaseWave(&j.wave)
		return r
	}
	emit := func(r featResult) error {
		if r.err != nil {
			return r.err
		}
		for _, m := range r.warnings {
			log.Warn("%s", m)
		}
		if o.Progress != nil {
			o.Progress()
		}
		if r.failed || r.skip {
			return nil
		}
		err := tw.Write(r.key, r.mat)
		frames += r.mat.Rows
		featPool.put(r.mat.Data)
		if err != nil {
			return err
		}
		if durWriter != nil {
			if err := durWriter.Write(r.key, r.dur); err != nil {
				return err
			}
		}
		audio += r.dur
		if r.num%10 == 0 {
			log.Log("Processed %d utterances", r.num)
		}
		vlog(log, 2, "Processed features for key %s", r.key)
		done++
		return nil
	}
	err = runOrdered(n, next, work, emit)
	if cerr := tw.Close(); err == nil {
		err = cerr
	}
	if durWriter != nil {
		if cerr := durWriter.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && audio > 0 {
		el := time.Since(began).Seconds()
		idle1, ptotal1 := schedulerTimes()
		busy := "n/a (no GC cycle ended during the run)"
		if d := ptotal1 - ptotal0; d > 0 {
			busy = fmt.Sprintf("%.1f%%", 100*(1-(idle1-idle0)/d))
		}
		vlog(log, 1, "Computed %d frames (%.1f s of audio) in %.3f s with %d thread(s): %.0f frames/s, real-time factor %.5f; the Go scheduler's %d P(s) were busy %s of the time", frames, audio, el, n, float64(frames)/el, el/audio, runtime.GOMAXPROCS(0), busy)
	}
	if cerr := sr.Close(); err == nil {
		err = cerr
	}
	// Kaldi's permissive reader hides an entry it cannot read, so its
	// "Done N out of M" reads 159 out of 159 with a wave lost; counted in
	// total, the loss shows as N < M.
	total += sr.skipped()
	return done, total, err
}

func computeOne(off *Offline, o ComputeFeatsOptions, j featJob) featResult {
	r := featResult{num: j.num, key: j.key, dur: j.wave.Duration()}
	if j.skip != "" {
		r.warnings = append(r.warnings, j.skip)
		r.failed = true
		return r
	}
	for _, w := range j.wave.Warnings {
		r.warnings = append(r.warnings, fmt.Sprintf("%s (utterance %s)", w, j.key))
	}
	if float32(j.wave.Duration()) < float32(o.MinDuration) {
		r.warnings = append(r.warnings, fmt.Sprintf("File: %s is too short (%.6g sec): producing no output.", j.key, j.wave.Duration()))
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
	data, rows, err := off.Compute(featPool.get(0), j.key, samples, j.wave.SampFreq, j.warp)
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

// schedulerTimes returns the Go scheduler's idle and total P-seconds so far
// (runtime/metrics): idle P-time is time no goroutine of ours was ready to
// run, whatever other processes do to the wall time. The runtime updates
// these at the end of each GC cycle, so over a run they cover the span
// between the first and last cycle.
func schedulerTimes() (idle, total float64) {
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64(), s[1].Value.Float64()
}
