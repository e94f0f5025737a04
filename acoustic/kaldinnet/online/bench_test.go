package online

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/cputime"
)

// BenchmarkOnline decodes the four kaldi-golden utterances (6.5 s of 16 kHz
// speech, one speaker) online with a causal strode model of the small
// preset (4 × 256 SRU, ODE state 64; random weights) on 23 fbank with 4
// frames of left context, online CMVN, kaldi-mini's graph and Kaldi's
// default beams, for chunks of 0.1, 0.2, 0.5 and 1 s. It reports the
// real-time factor of the computation (compute seconds per audio second)
// and the per-chunk compute latency — from a chunk's arrival to the decoder
// having consumed it, partial result included — median and 95th
// percentile, over all the runs' chunks; both in wall-clock time, and the
// real-time factor also in the process's CPU time (cpu-rtf), which other
// processes on a loaded machine do not inflate. bench/online.sh runs it on
// one core.
func BenchmarkOnline(b *testing.B) {
	s := loadSystem(b)
	o, err := am.PresetFor("small", am.KindSTRODE)
	if err != nil {
		b.Fatal(err)
	}
	p := am.Pipeline{RawDim: s.fbank.Dim(), CMVN: am.CMVNNone, NormMeans: true, SpliceLeft: 4}
	o.InputDim, o.NumPdfs = p.InputDim(), s.tm.NumPdfs()
	m, err := am.New(o, 1)
	if err != nil {
		b.Fatal(err)
	}
	model := s.model(&am.File{Model: m, Pipeline: p})
	model.Search.MaxActive, model.Search.Beam, model.Search.LatticeBeam = 1<<31-1, 16, 10
	for _, chunk := range []float64{0.1, 0.2, 0.5, 1.0} {
		b.Run(fmt.Sprintf("chunk=%gs", chunk), func(b *testing.B) {
			opts := DefaultOptions()
			opts.ChunkLength = chunk
			var stderr bytes.Buffer
			r, _ := s.recognizer(b, model, opts, &stderr)
			defer r.Close()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				var st *features.OnlineCmvnState
				for _, u := range s.utts {
					if st, err = r.DecodeUtterance(u, s.waves[u], 16000, st); err != nil {
						b.Fatal(err)
					}
				}
				stderr.Reset()
			}
			b.StopTimer()
			cpu := (cputime.Process() - cpu0).Seconds()
			med, p95 := r.Timing.ChunkLatency()
			b.ReportMetric(r.Timing.Compute/r.Timing.TotalAudio, "rtf")
			b.ReportMetric(cpu/r.Timing.TotalAudio, "cpu-rtf")
			b.ReportMetric(1000*med, "chunk-p50-ms")
			b.ReportMetric(1000*p95, "chunk-p95-ms")
			b.ReportMetric(r.Timing.TotalAudio/float64(b.N), "audio-s/op")
		})
	}
}
