package seqvideo

import (
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkTrainStep is one training step (forward and reverse pass, no
// optimizer) of each model at batch 50 videos × 6 frames, the reference's.
func BenchmarkTrainStep(b *testing.B) {
	for _, ndf := range []int{8, 16} {
		for _, model := range Models {
			b.Run(fmt.Sprintf("%s/ndf=%d", model, ndf), func(b *testing.B) {
				o := DefaultOptions()
				o.Model, o.NDF = model, ndf
				rng := rand.New(rand.NewSource(1))
				m, err := New(o, rng)
				if err != nil {
					b.Fatal(err)
				}
				bt, err := m.Build(50, 6, true)
				if err != nil {
					b.Fatal(err)
				}
				if err := bt.Set(randomVideos(rng, 50, 6)); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := bt.Run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(300*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}
