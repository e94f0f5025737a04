package features

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/kaldiio"
)

// ExtractSegmentsOptions are extract-segments' options.
type ExtractSegmentsOptions struct {
	MinSegmentLength float64 // --min-segment-length: minimum segment length in seconds (reject shorter segments)
	MaxOvershoot     float64 // --max-overshoot: end segments overshooting audio by less than this (in seconds) are truncated, else rejected
}

// DefaultExtractSegmentsOptions are Kaldi's defaults.
func DefaultExtractSegmentsOptions() ExtractSegmentsOptions {
	return ExtractSegmentsOptions{MinSegmentLength: 0.1, MaxOvershoot: 0.5}
}

// Register adds the options to fs under Kaldi's names.
func (o *ExtractSegmentsOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.MinSegmentLength, "min-segment-length", o.MinSegmentLength, "Minimum segment length in seconds (reject shorter segments)")
	fs.Float64Var(&o.MaxOvershoot, "max-overshoot", o.MaxOvershoot, "End segments overshooting audio by less than this (in seconds) are truncated, else rejected.")
}

// ExtractSegments is extract-segments: for every line "segment recording
// start end [channel]" of the segments file, the samples of the recording
// from round(start·rate) to round(end·rate) (end −1 = to the end) as a
// one-channel wave. Bad lines and out-of-range segments are Kaldi's warnings
// (with the line number) and are skipped; a multi-channel recording without
// a channel is an error, as in Kaldi.
func ExtractSegments(o ExtractSegmentsOptions, wavRspecifier, segmentsRxfilename, wavWspecifier string, log Logger, kopts ...kaldiio.Option) (done, lines int, err error) {
	ra, err := kaldiio.OpenRandomAccessReader(wavRspecifier, WaveCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer ra.Close()
	in, err := kaldiio.OpenInput(segmentsRxfilename, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if in != nil {
			in.Close()
		}
	}()
	tw, err := kaldiio.OpenTableWriter(wavWspecifier, WaveCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if cerr := tw.Close(); err == nil {
			err = cerr
		}
	}()
	var lastRecording string // the recording held in lastWave ("" none)
	var lastWave WaveData
	sc := bufio.NewScanner(in.Reader())
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		lines++
		line := sc.Text()
		where := fmt.Sprintf("%s:%d", segmentsRxfilename, lines)
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' })
		if len(f) != 4 && len(f) != 5 {
			log.Warn("Invalid line in segments file (%s): %s", where, line)
			continue
		}
		segment, recording := f[0], f[1]
		start, err1 := strconv.ParseFloat(f[2], 64)
		end, err2 := strconv.ParseFloat(f[3], 64)
		// ParseFloat accepts NaN and Inf, which are no times (a NaN start
		// used to pass every check below and panic in the sample slicing).
		if err1 != nil || math.IsNaN(start) || math.IsInf(start, 0) {
			log.Warn("Invalid line in segments file [bad start] (%s): %s", where, line)
			continue
		}
		if err2 != nil || math.IsNaN(end) || math.IsInf(end, 0) {
			log.Warn("Invalid line in segments file [bad end] (%s): %s", where, line)
			continue
		}
		if start < 0 || (end != -1 && end <= 0) || (start >= end && end > 0) {
			log.Warn("Invalid line in segments file [empty or invalid segment] (%s): %s", where, line)
			continue
		}
		channel := -1
		if len(f) == 5 {
			c, err := strconv.ParseInt(f[4], 10, 32)
			if err != nil || c < 0 {
				log.Warn("Invalid line in segments file [bad channel] (%s): %s", where, line)
				continue
			}
			channel = int(c)
		}
		// Consecutive segments of one recording (segments files are sorted, so
		// a long recording's segments come together) read it once: Kaldi's
		// script reader keeps the last object it read for the same reason.
		// Re-reading a 2-hour CHiME-5 recording (often through a sox pipe) for
		// each of its thousand segments would cost hours.
		if recording != lastRecording {
			w, err := ra.Value(recording)
			if errors.Is(err, kaldiio.ErrNotFound) {
				log.Warn("Could not find recording %s, skipping segment %s", recording, segment)
				continue
			}
			if err != nil {
				return done, lines, err
			}
			for _, m := range w.Warnings {
				log.Warn("%s (recording %s)", m, recording)
			}
			lastWave, lastRecording = w, recording
		}
		wave := lastWave
		sampFreq := float32(wave.SampFreq)
		numSamp, numChan := wave.NumSamples(), wave.NumChannels()
		fileLength := float32(numSamp) / sampFreq
		if start > float64(fileLength) {
			log.Warn("Segment start is out of file data range [0, %vs]; skipping segment '%s'", fileLength, line)
			continue
		}
		if end > float64(fileLength)+o.MaxOvershoot {
			log.Warn("Segment end is too far out of file data range [0,%vs]; skipping segment '%s'", fileLength, line)
			continue
		}
		if end < 0 || end > float64(fileLength) {
			end = float64(fileLength)
		}
		if end-start < o.MinSegmentLength {
			log.Warn("Segment %s too short, skipping it.", segment)
			continue
		}
		if channel == -1 {
			if numChan != 1 {
				return done, lines, fmt.Errorf("%s: your data has multiple channels; you must specify the channel in the segments file (segment %s)", where, segment)
			}
			channel = 0
		} else if channel >= numChan {
			log.Warn("Invalid channel %d >= %d; skipping segment %s", channel, numChan, segment)
			continue
		}
		startSamp := int(int32(start*float64(sampFreq) + 0.5))
		endSamp := int(int32(end*float64(sampFreq) + 0.5))
		endSamp = min(endSamp, numSamp)
		if startSamp > endSamp {
			startSamp = endSamp
		}
		seg := WaveData{SampFreq: wave.SampFreq, Data: [][]float32{wave.Data[channel][startSamp:endSamp]}}
		if err := tw.Write(segment, seg); err != nil {
			return done, lines, err
		}
		done++
	}
	if err := sc.Err(); err != nil {
		return done, lines, fmt.Errorf("reading %s: %w", segmentsRxfilename, err)
	}
	cerr := in.Close()
	in = nil
	return done, lines, cerr
}

// CopyWaves is wav-copy between tables.
func CopyWaves(rspecifier, wspecifier string, log Logger, kopts ...kaldiio.Option) (done int, err error) {
	return mapWaves(rspecifier, wspecifier, log, nil, kopts...)
}

// mapWaves streams every wave of rspecifier through f (nil: unchanged) into
// wspecifier, passing the reader's warnings on with the utterance key.
func mapWaves(rspecifier, wspecifier string, log Logger, f func(key string, w WaveData) (WaveData, error), kopts ...kaldiio.Option) (done int, err error) {
	sr, err := kaldiio.OpenSequentialReader(rspecifier, WaveCodec, kopts...)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspecifier, WaveCodec, kopts...)
	if err != nil {
		return 0, err
	}
	for sr.Next() {
		w := sr.Value()
		for _, m := range w.Warnings {
			log.Warn("%s (utterance %s)", m, sr.Key())
		}
		if f != nil {
			if w, err = f(sr.Key(), w); err != nil {
				tw.Close()
				return done, err
			}
		}
		if err := tw.Write(sr.Key(), w); err != nil {
			tw.Close()
			return done, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		tw.Close()
		return done, err
	}
	if err := tw.Close(); err != nil {
		return done, err
	}
	return done, sr.Close()
}
