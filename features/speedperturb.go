package features

import (
	"flag"
	"fmt"
	"math"

	"github.com/strode-asr/strode/kaldiio"
)

// SpeedPerturbOptions are wav-speed-perturb's options.
type SpeedPerturbOptions struct {
	Speed float64 // --speed: play the wave this many times faster (Kaldi recipes use 0.9 and 1.1)
}

// DefaultSpeedPerturbOptions leave the wave unchanged.
func DefaultSpeedPerturbOptions() SpeedPerturbOptions { return SpeedPerturbOptions{Speed: 1} }

// Register adds the options to fs.
func (o *SpeedPerturbOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.Speed, "speed", o.Speed, "Speed factor: the output lasts 1/speed as long and every frequency is multiplied by speed (sox's 'speed')")
}

// SpeedPerturb returns w played speed times faster, as Kaldi's
// perturb_data_dir_speed.sh does with "sox -t wav - -t wav - speed F": the
// samples are read as if taken at speed × the rate and resampled back to the
// rate with Kaldi's windowed-sinc LinearResample (ResampleWaveform). The
// result lasts 1/speed as long and every frequency is speed times higher,
// which imitates other speakers' tempo and vocal-tract length at once.
// speed·rate must be a whole number of Hz (0.9 and 1.1 at 8 or 16 kHz are).
func SpeedPerturb(w WaveData, speed float64) (WaveData, error) {
	if !(speed > 0) {
		return WaveData{}, fmt.Errorf("%w: --speed=%v must be positive", ErrOptions, speed)
	}
	out := WaveData{SampFreq: w.SampFreq, Data: make([][]float32, len(w.Data))}
	for c, ch := range w.Data {
		var err error
		if out.Data[c], err = ResampleWaveform(w.SampFreq*speed, ch, w.SampFreq); err != nil {
			return WaveData{}, err
		}
	}
	return out, nil
}

// SpeedPerturbWaves is wav-speed-perturb: every wave of rspecifier sped up by
// o.Speed into wspecifier, keys unchanged. It streams: one wave in memory.
//
// When in is not an rspecifier it is one wave's rxfilename (a file, "-" for
// standard input, "cmd |", or "foo.ark:OFFSET") and out a wxfilename ("-"
// for standard output), as Kaldi's wav-copy takes either form: then
// "strode wav-speed-perturb --speed=0.9 a.wav - |" is a wav.scp entry, the
// pipe that perturb_data_dir_speed.sh makes with sox. Mixing a table with a
// single file is an error (kaldiio.ErrMixed).
func SpeedPerturbWaves(o SpeedPerturbOptions, in, out string, log Logger, kopts ...kaldiio.Option) (done int, err error) {
	if !(o.Speed > 0) || math.IsInf(o.Speed, 0) {
		return 0, fmt.Errorf("%w: --speed=%v must be a positive number", ErrOptions, o.Speed)
	}
	perturb := func(key string, w WaveData) (WaveData, error) {
		if o.Speed == 1 {
			return w, nil
		}
		p, err := SpeedPerturb(w, o.Speed)
		if err != nil {
			return WaveData{}, fmt.Errorf("utterance %s: %w", key, err)
		}
		return p, nil
	}
	inTable, outTable := kaldiio.IsRspecifier(in), kaldiio.IsWspecifier(out)
	if inTable != outTable {
		return 0, fmt.Errorf("wav-speed-perturb %s %s: %w", in, out, kaldiio.ErrMixed)
	}
	if !inTable {
		var w WaveData
		if err := kaldiio.ReadObject(in, WaveCodec, &w, kopts...); err != nil {
			return 0, err
		}
		for _, m := range w.Warnings {
			log.Warn("%s (%s)", m, in)
		}
		if o.Speed != 1 {
			if w, err = SpeedPerturb(w, o.Speed); err != nil {
				return 0, fmt.Errorf("%s: %w", in, err)
			}
		}
		if err := kaldiio.WriteObject(out, WaveCodec, true, &w, kopts...); err != nil {
			return 0, err
		}
		return 1, nil
	}
	return mapWaves(in, out, log, perturb, kopts...)
}
