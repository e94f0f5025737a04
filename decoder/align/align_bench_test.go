package align

import (
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/kaldiio"
)

// BenchmarkAlignKaldiMini aligns kaldi-mini's five golden test utterances
// (GMM log-likelihoods, Kaldi's align-script options) and reports the
// real-time factor (alignment time / audio time at 10 ms per frame).
// BenchmarkCompileAndAlignKaldiMini includes compiling the graphs.
func BenchmarkAlignKaldiMini(b *testing.B)           { benchAlign(b, false) }
func BenchmarkCompileAndAlignKaldiMini(b *testing.B) { benchAlign(b, true) }

func benchAlign(b *testing.B, compile bool) {
	k := loadKaldiMini(b)
	keys, tra := k.transcripts(b, "golden/test5.text")
	loglikes := readTable(b, "ark:"+filepath.Join(k.dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, DefaultTrainingGraphOptions())
	if err != nil {
		b.Fatal(err)
	}
	graphs := make([]*fst.VectorFst, len(keys))
	frames := 0
	for i := range keys {
		if graphs[i], err = comp.CompileText(tra[i]); err != nil {
			b.Fatal(err)
		}
		frames += loglikes[keys[i]].Rows
	}
	al, err := NewAligner(k.tm, scriptAlignOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i, key := range keys {
			g := graphs[i]
			if compile {
				if g, err = comp.CompileText(tra[i]); err != nil {
					b.Fatal(err)
				}
			}
			ll := loglikes[key]
			if _, err := al.Align(g, ll.Data, ll.Rows, ll.Cols); err != nil {
				b.Fatal(err)
			}
		}
	}
	audio := float64(frames) * 0.01 * float64(b.N)
	b.ReportMetric(b.Elapsed().Seconds()/audio, "RTF")
	b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
