package kaldinnet

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/kaldiio"
)

// ToyOptions size a synthetic learnable task (WriteToyData).
type ToyOptions struct {
	Speakers, UttsPerSpeaker int
	Dim, NumPdfs             int
	Seed                     int64
}

// ToyData names the Kaldi tables WriteToyData wrote, as rspecifiers.
type ToyData struct {
	Feats, Targets, CMVN, Utt2spk string
	Keys                          []string // every utterance, sorted
}

// WriteToyData writes a small synthetic task into dir as a Kaldi data
// directory would hold it, for tests and demonstrations of the training
// tools without real speech: feats.ark/feats.scp (each speaker's frames
// offset by a speaker constant, so CMVN matters), pdf-id alignments in
// ali.ark (segments of 3 to 8 frames of one pdf), utt2spk and per-speaker
// CMVN statistics in cmvn.ark. A frame's pdf is the feature dimension (mod
// NumPdfs) that stands out, plus noise: learnable by every model kind.
func WriteToyData(dir string, o ToyOptions) (ToyData, error) {
	var d ToyData
	if o.Speakers < 1 || o.UttsPerSpeaker < 1 || o.Dim < 1 || o.NumPdfs < 1 {
		return d, fmt.Errorf("dataset: toy data sizes must be ≥ 1: %+v", o)
	}
	rng := rand.New(rand.NewSource(o.Seed))
	fw, err := kaldiio.OpenTableWriter("ark,scp:"+filepath.Join(dir, "feats.ark")+","+filepath.Join(dir, "feats.scp"), kaldiio.MatrixCodec)
	if err != nil {
		return d, err
	}
	aw, err := kaldiio.OpenTableWriter("ark:"+filepath.Join(dir, "ali.ark"), kaldiio.IntVectorCodec)
	if err != nil {
		fw.Abort()
		return d, err
	}
	cw, err := kaldiio.OpenTableWriter("ark:"+filepath.Join(dir, "cmvn.ark"), kaldiio.DoubleMatrixCodec)
	if err != nil {
		fw.Abort()
		aw.Abort()
		return d, err
	}
	var utt2spk strings.Builder
	for s := 0; s < o.Speakers; s++ {
		spk := fmt.Sprintf("spk%02d", s)
		offset := 2 * rng.NormFloat64()
		stats := features.NewCmvnStats(o.Dim)
		for u := 0; u < o.UttsPerSpeaker; u++ {
			key := fmt.Sprintf("%s-utt%03d", spk, u)
			rows := 20 + rng.Intn(41)
			m := kaldiio.NewMatrix(rows, o.Dim)
			pdfs := make([]int32, rows)
			for t := 0; t < rows; {
				y, n := int32(rng.Intn(o.NumPdfs)), 3+rng.Intn(6)
				for ; n > 0 && t < rows; n, t = n-1, t+1 {
					pdfs[t] = y
					for j := 0; j < o.Dim; j++ {
						v := offset + 0.4*rng.NormFloat64()
						if j%o.NumPdfs == int(y) {
							v++
						}
						m.Data[t*o.Dim+j] = float32(v)
					}
				}
			}
			if err := features.AccCmvnStats(stats, m.Data, rows, o.Dim); err != nil {
				return d, err
			}
			fw.Write(key, m)
			aw.Write(key, pdfs)
			fmt.Fprintf(&utt2spk, "%s %s\n", key, spk)
			d.Keys = append(d.Keys, key)
		}
		cw.Write(spk, kaldiio.DoubleMatrix{Rows: 2, Cols: o.Dim + 1, Data: stats})
	}
	for _, w := range []interface{ Close() error }{fw, aw, cw} {
		if err := w.Close(); err != nil {
			return d, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "utt2spk"), []byte(utt2spk.String()), 0o644); err != nil {
		return d, err
	}
	sort.Strings(d.Keys)
	d.Feats = "scp:" + filepath.Join(dir, "feats.scp")
	d.Targets = "ark:" + filepath.Join(dir, "ali.ark")
	d.CMVN = "ark:" + filepath.Join(dir, "cmvn.ark")
	d.Utt2spk = "ark:" + filepath.Join(dir, "utt2spk")
	return d, nil
}
