package online

import (
	"fmt"
	"slices"
	"time"
)

// Timer is Kaldi's OnlineTimer: it times one utterance's decoding as if the
// audio arrived in real time, without sleeping. WaitUntil(t) says the
// audio up to t seconds is now in; when decoding is ahead of the audio, the
// time it would have waited is added to a waiting account, so Elapsed is
// the wall-clock time a real-time client would have seen.
type Timer struct {
	utt    string
	start  time.Time
	waited float64 // seconds
	length float64 // audio seconds so far
}

// NewTimer starts timing utterance utt.
func NewTimer(utt string) *Timer { return &Timer{utt: utt, start: time.Now()} }

// WaitUntil is Kaldi's WaitUntil: the audio up to audioSeconds has arrived.
func (t *Timer) WaitUntil(audioSeconds float64) {
	elapsed := time.Since(t.start).Seconds()
	if toWait := audioSeconds - (elapsed + t.waited); toWait > 0 {
		t.waited += toWait
	}
	t.length = audioSeconds
}

// Elapsed is the simulated wall-clock time: real time plus waiting.
func (t *Timer) Elapsed() float64 { return time.Since(t.start).Seconds() + t.waited }

// TimingStats is Kaldi's OnlineTimingStats, plus what Kaldi does not
// report: the compute time alone (no waiting), its real-time factor, and
// the compute latency of every chunk (from the chunk's arrival to the
// decoder having consumed it).
type TimingStats struct {
	NumUtts        int
	TotalAudio     float64 // seconds
	TotalTimeTaken float64 // simulated wall clock, waiting included
	TotalWaited    float64
	MaxDelay       float64
	MaxDelayUtt    string
	Compute        float64   // seconds of computation
	ChunkLatencies []float64 // seconds, one per chunk
}

// Add is Kaldi's OutputStats for the finished utterance of t, which took
// compute seconds of computation.
func (s *TimingStats) Add(t *Timer, compute float64) {
	processing := time.Since(t.start).Seconds() + t.waited
	wait := max(0, processing-t.length)
	s.NumUtts++
	s.TotalAudio += t.length
	s.TotalTimeTaken += processing
	s.TotalWaited += t.waited
	s.Compute += compute
	if wait > s.MaxDelay {
		s.MaxDelay, s.MaxDelayUtt = wait, t.utt
	}
}

// Lines are Kaldi's OnlineTimingStats::Print lines, then ours: the compute
// real-time factor and the per-chunk latency's median and 95th percentile.
func (s *TimingStats) Lines(online bool) []string {
	if s.NumUtts == 0 || s.TotalAudio == 0 {
		return []string{"Timing stats: no audio decoded"}
	}
	var out []string
	if online {
		out = append(out,
			fmt.Sprintf("Timing stats: real-time factor was %g (note: this cannot be less than one.)", s.TotalTimeTaken/s.TotalAudio),
			fmt.Sprintf("Average delay was %g seconds.", (s.TotalTimeTaken-s.TotalAudio)/float64(s.NumUtts)),
			fmt.Sprintf("Percentage of time spent idling was %g", s.TotalWaited/s.TotalAudio),
			fmt.Sprintf("Longest delay was %g seconds for utterance '%s'", s.MaxDelay, s.MaxDelayUtt))
	} else {
		out = append(out, fmt.Sprintf("Timing stats: real-time factor for offline decoding was %g = %g seconds  / %g seconds.", s.TotalTimeTaken/s.TotalAudio, s.TotalTimeTaken, s.TotalAudio))
	}
	med, p95 := s.ChunkLatency()
	out = append(out, fmt.Sprintf("Compute: real-time factor %.4f (%.3f s of computation for %.3f s of audio); per-chunk latency median %.2f ms, p95 %.2f ms over %d chunks",
		s.Compute/s.TotalAudio, s.Compute, s.TotalAudio, 1000*med, 1000*p95, len(s.ChunkLatencies)))
	return out
}

// ChunkLatency is the median and 95th percentile of the chunk latencies
// (nearest rank), in seconds.
func (s *TimingStats) ChunkLatency() (median, p95 float64) {
	if len(s.ChunkLatencies) == 0 {
		return 0, 0
	}
	l := slices.Clone(s.ChunkLatencies)
	slices.Sort(l)
	rank := func(q float64) float64 {
		i := int(q*float64(len(l))+0.999999) - 1
		return l[min(max(i, 0), len(l)-1)]
	}
	return rank(0.5), rank(0.95)
}
