package rotmnist

import (
	"fmt"
	"io"
	"math/rand"
	"time"

	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/seqvideo"
	"github.com/strode-asr/strode/acoustic/strode"
	"github.com/strode-asr/strode/internal/progress"
)

// Score is a model's figures on one set of videos.
type Score struct {
	// CS is the paper's: per video the cosine similarity of the inferred
	// times with the frames' angles (the reference's gt_time: for the exp
	// subset they include the set's starting angle, 180° on the test set),
	// averaged.
	CS float64 `json:"cs"`
	// GapR is the Pearson correlation of inferred and true gaps, pooled
	// (0 for index times).
	GapR float64 `json:"gap_r"`
	// MSE is the reference's: the mean squared pixel error of all N outputs
	// (N−1 next-frame predictions and the last frame's reconstruction),
	// pixels in [0, 1].
	MSE float64 `json:"mse"`
	// NextMSE is the N−1 next-frame predictions' alone.
	NextMSE float64 `json:"next_frame_mse"`
	// BlankMSE is the MSE of predicting black frames (every pixel 0) on the
	// same targets: a model that has learnt nothing scores about this.
	BlankMSE float64 `json:"blank_mse"`
	// IndexCS is the CS of the index sequence 0 … N−1 on the same videos
	// (the reference's baseline; NODE and ODE-RNN score exactly this).
	IndexCS float64 `json:"index_cs"`
	// EvenCS is the best CS of evenly spaced times with an offset (EvenCS):
	// what a model that learnt only a constant scores; EvenOffset is that
	// offset in frames (−1: constant times, the limit c → ∞).
	EvenCS     float64 `json:"even_cs"`
	EvenOffset float64 `json:"even_offset"`
	// ScheduleGapR is gap r of one fixed schedule for every video
	// (ScheduleGapR): what index-dependent gaps score without the frames.
	ScheduleGapR float64 `json:"schedule_gap_r"`
}

// Epoch is one training epoch's figures.
type Epoch struct {
	Epoch     int     `json:"epoch"`
	TrainLoss float64 `json:"train_loss"`
	TrainMSE  float64 `json:"train_mse"`
	TrainKL   float64 `json:"train_kl"`
	// TrainTurn is phase-state's registration term (radians²; 0 otherwise).
	TrainTurn float64 `json:"train_turn,omitempty"`
	Val       Score   `json:"val"`
	Seconds   float64 `json:"seconds"` // training alone, without the validation pass
}

// Trained is a trained model (at its best validation epoch) and its test
// figures.
type Trained struct {
	Model     *seqvideo.Model
	History   []Epoch
	BestEpoch int
	Test      Score
	// TestTimes are the inferred times of every test video.
	TestTimes [][]float64
	// Examples are the first test videos' frames for the figure.
	Examples []Example
}

// Example is one test video: its frames, the model's outputs and times.
type Example struct {
	Input, Output, Target [][]float64 // N frames of 64·64 values each
	Inferred, Angles      []float64
}

// Train trains o.Net on d.Train, keeps the epoch with the lowest
// validation MSE (as the reference keeps best_nnet.pth) and scores it on
// d.Test. Progress goes to w (internal/progress: a bar with ETA on a
// terminal, LOG lines through log otherwise); one summary line per epoch
// goes through log.
func Train(o Options, d *Dataset, w io.Writer, log func(format string, a ...any)) (*Trained, error) {
	if log == nil {
		log = func(string, ...any) {}
	}
	o.resolveVariant()
	rng := rand.New(rand.NewSource(o.Seed))
	m, err := seqvideo.New(o.Net, rng)
	if err != nil {
		return nil, err
	}
	n := d.Train.Frames
	tr, err := m.Build(o.BatchSize, n, true)
	if err != nil {
		return nil, err
	}
	ev, err := m.Build(o.BatchSize, n, false)
	if err != nil {
		return nil, err
	}
	adam := optim.NewAdam(o.Adam)
	order := make([]int, d.Train.Videos)
	for i := range order {
		order[i] = i
	}
	nb := len(order) / o.BatchSize
	res := &Trained{Model: m}
	var best *seqvideo.Snapshot
	bestMSE := 0.0
	videos := make([][]uint8, o.BatchSize)
	runStart := time.Now()
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		rep := progress.New(w, log, progress.Task{Name: fmt.Sprintf("%s seed %d epoch %d/%d", o.Net.Model, o.Seed, epoch, o.Epochs),
			Unit: "videos", Total: int64(nb * o.BatchSize), Steps: int64(nb), StepName: "minibatch"}, progress.Options{})
		m.SetTraining(true)
		start := time.Now()
		e := Epoch{Epoch: epoch}
		for b := 0; b < nb; b++ {
			for k, v := range order[b*o.BatchSize : (b+1)*o.BatchSize] {
				videos[k] = d.Train.Video(v)
			}
			if err := tr.Set(videos); err != nil {
				rep.Finish()
				return nil, err
			}
			err := tr.Run()
			if err == nil {
				err = optim.Check(tr.Params)
			}
			if err != nil {
				rep.Finish()
				return nil, fmt.Errorf("rotmnist: %s epoch %d minibatch %d: %w", o.Net.Model, epoch, b+1, err)
			}
			adam.Step(tr.Params)
			e.TrainLoss += nn.Scalar(tr.Loss) / float64(nb)
			e.TrainMSE += nn.Scalar(tr.MSE) / float64(nb)
			e.TrainKL += nn.Scalar(tr.KL) / float64(nb)
			if tr.Turn != nil {
				e.TrainTurn += nn.Scalar(tr.Turn) / float64(nb)
			}
			rep.Add(int64(o.BatchSize))
		}
		rep.Finish()
		e.Seconds = time.Since(start).Seconds()
		if e.Val, _, err = Evaluate(m, ev, &d.Val); err != nil {
			return nil, err
		}
		mark := ""
		if best == nil || e.Val.MSE < bestMSE {
			best, bestMSE, res.BestEpoch, mark = m.Snapshot(), e.Val.MSE, epoch, " (best)"
		}
		res.History = append(res.History, e)
		// The run's ETA from the mean wall time of an epoch with its validation.
		eta := time.Duration(float64(o.Epochs-epoch) * float64(time.Since(runStart)) / float64(epoch)).Round(time.Second)
		turn := ""
		if tr.Turn != nil {
			turn = fmt.Sprintf(" turn %.4g", e.TrainTurn)
		}
		log("%s seed %d epoch %d: train loss %.5f MSE %.5f KL %.4g%s | validation MSE %.3f×1e-3 (blank %.3f) CS %.3f (index %.3f) gap r %.3f | %.1f s, run ETA %v%s",
			o.Net.Model, o.Seed, epoch, e.TrainLoss, e.TrainMSE, e.TrainKL, turn, 1e3*e.Val.MSE, 1e3*e.Val.BlankMSE, e.Val.CS, e.Val.IndexCS, e.Val.GapR, e.Seconds, eta, mark)
	}
	m.Restore(best)
	if res.Test, res.TestTimes, err = Evaluate(m, ev, &d.Test); err != nil {
		return nil, err
	}
	res.Examples, err = examples(m, ev, &d.Test, res.TestTimes, 2)
	return res, err
}

// Evaluate scores m on every video of s (whole batches of ev.B) with its
// BatchNorms in evaluation mode, and returns the inferred times too.
func Evaluate(m *seqvideo.Model, ev *seqvideo.Batch, s *Split) (Score, [][]float64, error) {
	m.SetTraining(false)
	defer m.SetTraining(true)
	var sc Score
	var inferred, angles, times, index [][]float64
	nb := s.Videos / ev.B
	videos := make([][]uint8, ev.B)
	for b := 0; b < nb; b++ {
		for k := range videos {
			v := b*ev.B + k
			videos[k] = s.Video(v)
			angles = append(angles, s.VideoAngles(v))
			times = append(times, s.VideoTimes(v))
			idx := make([]float64, s.Frames)
			for i := range idx {
				idx[i] = float64(i)
			}
			index = append(index, idx)
		}
		if err := ev.Set(videos); err != nil {
			return sc, nil, err
		}
		if err := ev.Run(); err != nil {
			return sc, nil, err
		}
		sc.BlankMSE += blankMSE(videos, s.Frames) / float64(nb)
		sc.MSE += nn.Scalar(ev.MSE) / float64(nb)
		sc.NextMSE += ev.NextFrameMSE() / float64(nb)
		inferred = append(inferred, ev.InferredTimes()...)
	}
	sc.CS = strode.CosineSimilarity(inferred, angles)
	sc.GapR = strode.GapCorrelation(inferred, times)
	sc.IndexCS = strode.CosineSimilarity(index, angles)
	sc.setBaselines(angles, times)
	return sc, inferred, nil
}

// blankMSE is the mean of x² over the targets x_{min(i+1, N−1)} of the
// videos (pixels / 255): the MSE of all-black predictions.
func blankMSE(videos [][]uint8, n int) float64 {
	sum, count := 0.0, 0
	for _, v := range videos {
		fp := len(v) / n
		for i := 0; i < n; i++ {
			j := min(i+1, n-1)
			for _, p := range v[j*fp : (j+1)*fp] {
				x := float64(p) / 255
				sum += x * x
			}
			count += fp
		}
	}
	return sum / float64(count)
}

// examples runs the first batch of s again and keeps its first k videos.
func examples(m *seqvideo.Model, ev *seqvideo.Batch, s *Split, inferred [][]float64, k int) ([]Example, error) {
	m.SetTraining(false)
	defer m.SetTraining(true)
	videos := make([][]uint8, ev.B)
	for i := range videos {
		videos[i] = s.Video(i)
	}
	if err := ev.Set(videos); err != nil {
		return nil, err
	}
	if err := ev.Run(); err != nil {
		return nil, err
	}
	var out []Example
	fp := s.Height * s.Width
	for v := 0; v < min(k, ev.B); v++ {
		e := Example{Output: ev.Predicted(v), Inferred: inferred[v], Angles: s.VideoAngles(v)}
		for i := 0; i < s.Frames; i++ {
			e.Input = append(e.Input, scaled(videos[v][i*fp:(i+1)*fp]))
			j := min(i+1, s.Frames-1)
			e.Target = append(e.Target, scaled(videos[v][j*fp:(j+1)*fp]))
		}
		out = append(out, e)
	}
	return out, nil
}

// scaled is a frame's pixels / 255.
func scaled(p []uint8) []float64 {
	out := make([]float64, len(p))
	for i, v := range p {
		out[i] = float64(v) / 255
	}
	return out
}
