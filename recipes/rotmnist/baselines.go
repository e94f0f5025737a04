package rotmnist

import (
	"math"

	"github.com/strode-asr/strode/acoustic/strode"
)

// Baselines that the scores need, computed from the data alone.
//
// CS compares inferred times with the frames' angles, which start far from
// 0 (the Hawkes test window begins at 180°, the exp test set at 180°), and
// cosine similarity is not shift-invariant: the sequence c, c+1, …, c+N−1
// scores more the nearer its offset c puts it to the angles' own offset,
// without any timing in it. STRODE's first time is Φ(0, z_0) > 0, so a
// model can reach this by learning one constant. EvenCS is the best such
// score: the CS of c + i maximised over c on a grid (what a model that
// learnt an offset and nothing else scores). Gap r has its own blind spot:
// where the gaps grow along every video (the exp subset), a fixed schedule
// scores high (ScheduleGapR). Only a CS above EvenCS, or a gap r above
// ScheduleGapR, shows timings read off the frames.

// evenCSGrid is the offsets tried: 0 to evenCSMax frames in steps of
// evenCSStep, and the limit c → ∞ (constant times).
const (
	evenCSStep = 0.05
	evenCSMax  = 100
)

// EvenCS returns the best CS of evenly spaced times c, c+1, …, c+N−1 (one
// offset c ≥ 0 for every video) against truth, and that offset (+Inf for
// constant times).
func EvenCS(truth [][]float64) (cs, offset float64) {
	seq := make([][]float64, len(truth))
	for s := range truth {
		seq[s] = make([]float64, len(truth[s]))
	}
	set := func(c float64) float64 {
		for s := range seq {
			for i := range seq[s] {
				if math.IsInf(c, 1) {
					seq[s][i] = 1
				} else {
					seq[s][i] = c + float64(i)
				}
			}
		}
		return strode.CosineSimilarity(seq, truth)
	}
	cs, offset = math.Inf(-1), 0
	for k := 0; k <= evenCSMax/evenCSStep; k++ {
		c := float64(k) * evenCSStep
		if v := set(c); v > cs {
			cs, offset = v, c
		}
	}
	if v := set(math.Inf(1)); v > cs {
		cs, offset = v, math.Inf(1)
	}
	return cs, offset
}

// ScheduleGapR is gap r of a fixed schedule: every video given the same
// times, the mean true time of each frame over the set (an oracle for
// the schedule, blind to the frames). Where the gaps grow along the video
// (exp: e^{0.57 i}) it is high without any frame read; only a gap r above
// it shows timings read off the frames.
func ScheduleGapR(times [][]float64) float64 {
	if len(times) == 0 {
		return 0
	}
	mean := make([]float64, len(times[0]))
	for _, ts := range times {
		for i, t := range ts {
			mean[i] += t / float64(len(times))
		}
	}
	sched := make([][]float64, len(times))
	for s := range sched {
		sched[s] = mean
	}
	return strode.GapCorrelation(sched, times)
}

// setBaselines fills sc's baselines (EvenCS, EvenOffset, ScheduleGapR)
// for the angles and times scored.
func (sc *Score) setBaselines(angles, times [][]float64) {
	cs, c := EvenCS(angles)
	sc.EvenCS, sc.EvenOffset = cs, c
	if math.IsInf(c, 1) {
		sc.EvenOffset = -1
	}
	sc.ScheduleGapR = ScheduleGapR(times)
}
