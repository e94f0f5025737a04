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

// PoseTimes are RegistrationTimes started at the first frame's pose
// instead of 0: seqvideo.PoseAngle of the first frame, in degrees, plus the
// summed registered turns (no sign flip: both read the data's sense). It is
// the pose variant's times with no model, to show how much of CS the
// frames pin: CS is not shift-invariant, and this offset is read off the
// pixels, not learnt.
func PoseTimes(s *Split, videos int) [][]float64 {
	if videos <= 0 || videos > s.Videos {
		videos = s.Videos
	}
	times := make([][]float64, videos)
	for v := range times {
		px := s.Video(v)
		turns := seqvideo.FrameTurns(px, s.Frames, s.Height, s.Width)
		ts := make([]float64, s.Frames)
		ts[0] = seqvideo.PoseAngle(px[:s.Height*s.Width], s.Height, s.Width) * 180 / math.Pi
		for f := 1; f < s.Frames; f++ {
			ts[f] = ts[f-1] + turns[f]*180/math.Pi
		}
		times[v] = ts
	}
	return times
}
