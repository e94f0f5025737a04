package seqvideo

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/strode"
	"github.com/strode-asr/strode/internal/cputime"
)

// Benchmarks run the reference's batch: 50 videos × 6 frames.
const benchVideos, benchFrames = 50, 6

// benchBatch builds model at width ndf (seed 1) and its training batch of
// benchVideos × benchFrames, and returns the model's random stream.
func benchBatch(b *testing.B, model string, ndf int) (*Model, *Batch, *rand.Rand) {
	o := DefaultOptions()
	o.Model, o.NDF = model, ndf
	if model == STRODE+"-"+string(strode.VariantPhaseState) {
		o.Model, o.Variant = STRODE, strode.VariantPhaseState
	}
	rng := rand.New(rand.NewSource(1))
	m, bt := buildBatch(b, o, rng, benchVideos, benchFrames, true)
	return m, bt, rng
}

// BenchmarkTrainStep is one training step (forward and reverse pass, no
// optimizer) of each model, and of strode's phase-state variant (its
// registered turns read once per video and cached), at batch 50 videos × 6
// frames, the reference's.
func BenchmarkTrainStep(b *testing.B) {
	for _, ndf := range []int{8, 16} {
		for _, model := range append(Models[:len(Models):len(Models)], STRODE+"-"+string(strode.VariantPhaseState)) {
			b.Run(fmt.Sprintf("%s/ndf=%d", model, ndf), func(b *testing.B) {
				_, bt, rng := benchBatch(b, model, ndf)
				if err := bt.Set(randomVideos(rng, benchVideos, benchFrames)); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := bt.Run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(benchVideos*benchFrames*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}

// BenchmarkTrainStepAdam is one minibatch of `strode rotmnist` training as
// recipes/rotmnist's Train runs it — load the batch (Set: bytes / 255 and
// the next-frame targets), forward and reverse pass (Run), the finiteness
// check (optim.Check), Adam (learning rate 5e-4, then the sign projection
// of Φ and φ) and reading the losses — per model at batch 50 videos × 6
// frames, BatchNorm in training mode, after two warm-up steps (the first
// run's allocations and Adam's moments). It reports frames/s, the CPU
// time per step of all threads (cpu-ms/op) and the number of parameters:
// bench/rotmnist.sh sets it against the same network in PyTorch. Only
// the sub-benchmarks the -bench pattern selects build their model, so the
// list of widths costs nothing.
func BenchmarkTrainStepAdam(b *testing.B) {
	for _, ndf := range []int{8, 16, 32, 64, 128} {
		for _, model := range Models {
			b.Run(fmt.Sprintf("%s/ndf=%d", model, ndf), func(b *testing.B) {
				m, bt, rng := benchBatch(b, model, ndf)
				m.SetTraining(true)
				ao := optim.DefaultAdamOptions()
				ao.LearningRate = 5e-4 // recipes/rotmnist's
				adam := optim.NewAdam(ao)
				batch := randomVideos(rng, benchVideos, benchFrames)
				loss := 0.0
				step := func() {
					if err := bt.Set(batch); err != nil {
						b.Fatal(err)
					}
					err := bt.Run()
					if err == nil {
						err = optim.Check(bt.Params)
					}
					if err != nil {
						b.Fatal(err)
					}
					adam.Step(bt.Params)
					loss += nn.Scalar(bt.Loss) + nn.Scalar(bt.MSE) + nn.Scalar(bt.KL)
				}
				for i := 0; i < 2; i++ {
					step()
				}
				b.ResetTimer()
				cpu := cputime.Process()
				for i := 0; i < b.N; i++ {
					step()
				}
				b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
				b.ReportMetric(benchVideos*benchFrames*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
				n := 0
				for _, p := range m.Params.List {
					n += len(p.Data)
				}
				b.ReportMetric(float64(n), "params")
				if loss != loss {
					b.Fatal("NaN loss")
				}
			})
		}
	}
}
