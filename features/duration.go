package features

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/kaldiio"
)

// DurationStats sums up what WavToDuration measured.
type DurationStats struct {
	Done           int
	Mean, Min, Max float64 // seconds (0 when Done is 0)
}

// WavToDuration is Kaldi's wav-to-duration: the duration in seconds of every
// wave of rspecifier (WaveData.Duration, computed in float as Kaldi does),
// written as a float to wspecifier under the wave's key (`ark,t:utt2dur`
// makes a data dir's utt2dur, as utils/data/get_utt2dur.sh). Reading
// warnings are passed on to log with the key.
func WavToDuration(rspecifier, wspecifier string, log Logger, kopts ...kaldiio.Option) (DurationStats, error) {
	var st DurationStats
	sr, err := kaldiio.OpenSequentialReader(rspecifier, WaveCodec, kopts...)
	if err != nil {
		return st, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspecifier, kaldiio.FloatCodec, kopts...)
	if err != nil {
		return st, err
	}
	sum := 0.0
	st.Min = math.Inf(1)
	for sr.Next() {
		w := sr.Value()
		for _, m := range w.Warnings {
			log.Warn("%s (utterance %s)", m, sr.Key())
		}
		d := w.Duration()
		if err := tw.Write(sr.Key(), float32(d)); err != nil {
			tw.Abort()
			return st, err
		}
		st.Done++
		sum += d
		st.Min, st.Max = min(st.Min, d), max(st.Max, d)
	}
	if err := sr.Err(); err != nil {
		tw.Abort()
		return st, err
	}
	if err := tw.Close(); err != nil {
		return st, err
	}
	if st.Done == 0 {
		st.Min = 0
		return st, fmt.Errorf("wav-to-duration: no wave files in %s", rspecifier)
	}
	st.Mean = sum / float64(st.Done)
	return st, sr.Close()
}
