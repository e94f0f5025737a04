package rotmnist

import (
	"math"

	"github.com/strode-asr/strode/acoustic/seqvideo"
	"github.com/strode-asr/strode/acoustic/strode"
)

// RegistrationTimes reads times off the frames with no model and no label,
// to show how much timing the data holds: the turns that best register
// each frame onto the next (seqvideo.FrameTurns), in degrees, summed into
// times (the first frame at 0). The direction (the sign of every time) is
// the one whose mean turn over the videos is positive. It reads the first
// videos of s, at most videos of them (≤ 0: all).
func RegistrationTimes(s *Split, videos int) [][]float64 {
	if videos <= 0 || videos > s.Videos {
		videos = s.Videos
	}
	times := make([][]float64, videos)
	total := 0.0
	for v := range times {
		turns := seqvideo.FrameTurns(s.Video(v), s.Frames, s.Height, s.Width)
		ts := make([]float64, s.Frames)
		for f := 1; f < s.Frames; f++ {
			deg := turns[f] * 180 / math.Pi
			ts[f] = ts[f-1] + deg
			total += deg
		}
		times[v] = ts
	}
	if total < 0 {
		for _, ts := range times {
			for i := range ts {
				ts[i] = -ts[i]
			}
		}
	}
	return times
}

// RegistrationGapR is gap r of RegistrationTimes against the frames' true
// times.
func RegistrationGapR(s *Split, videos int) float64 {
	inferred := RegistrationTimes(s, videos)
	truth := make([][]float64, len(inferred))
	for v := range truth {
		truth[v] = s.Times[v*s.Frames : (v+1)*s.Frames]
	}
	return strode.GapCorrelation(inferred, truth)
}
