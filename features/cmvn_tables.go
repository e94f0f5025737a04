package features

import (
	"errors"
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// IsRspecifier says whether s is a table ("ark:…", "scp:…") rather than a
// single-object rxfilename, as Kaldi's ClassifyRspecifier.
func IsRspecifier(s string) bool {
	_, err := kaldiio.ParseRspecifier(s)
	return err == nil
}

// IsWspecifier says whether s is a table wspecifier.
func IsWspecifier(s string) bool {
	_, err := kaldiio.ParseWspecifier(s)
	return err == nil
}

// ComputeCmvnStatsTable is compute-cmvn-stats: per utterance, per speaker
// (spk2utt non-empty) or, when out is not a wspecifier, one global set of
// statistics written to the wxfilename out (as a float matrix, as Kaldi
// writes it). weights, when not empty, is an rspecifier of per-frame weight
// vectors (--weights); an utterance without weights, or with the wrong
// number, is Kaldi's warning and counts as an error. done counts the
// utterances accumulated and failed those skipped, including the entries a
// permissive ("p") feature table could not read (Kaldi's reader hides
// those; counted here, a lost utterance shows in the summary).
func ComputeCmvnStatsTable(featRspecifier, out, spk2utt string, binary bool, log Logger, kopts ...kaldiio.Option) (done, failed int, err error) {
	return ComputeCmvnStatsTableWeighted(featRspecifier, out, spk2utt, "", binary, log, kopts...)
}

// ComputeCmvnStatsTableWeighted is ComputeCmvnStatsTable with --weights.
func ComputeCmvnStatsTableWeighted(featRspecifier, out, spk2utt, weights string, binary bool, log Logger, kopts ...kaldiio.Option) (done, failed int, err error) {
	var wr *kaldiio.RandomAccessReader[kaldiio.Vector]
	if weights != "" {
		if wr, err = kaldiio.OpenRandomAccessReader(weights, kaldiio.VectorCodec, kopts...); err != nil {
			return 0, 0, err
		}
		defer wr.Close()
	}
	var accErr error // a read error of the weights table
	acc := func(key string, stats *kaldiio.DoubleMatrix, m kaldiio.Matrix) bool {
		if stats.Rows == 0 {
			*stats = kaldiio.DoubleMatrix{Rows: 2, Cols: m.Cols + 1, Data: NewCmvnStats(m.Cols)}
		}
		if stats.Cols != m.Cols+1 {
			log.Warn("Dimension mismatch between data and CMVN stats for utterance %s: features have dimension %d, stats %d", key, m.Cols, stats.Cols-1)
			return false
		}
		if wr == nil {
			AccCmvnStats(stats.Data, m.Data, m.Rows, m.Cols)
			return true
		}
		w, err := wr.Value(key)
		if errors.Is(err, kaldiio.ErrNotFound) {
			log.Warn("No weights available for utterance %s", key)
			return false
		}
		if err != nil {
			accErr = err
			return false
		}
		if len(w) != m.Rows {
			log.Warn("Weights for utterance %s have wrong dimension %d vs. %d", key, len(w), m.Rows)
			return false
		}
		AccCmvnStatsWeighted(stats.Data, m.Data, m.Rows, m.Cols, w)
		return true
	}
	defer func() {
		if err == nil && accErr != nil {
			err = accErr
		}
	}()
	if !IsWspecifier(out) {
		if spk2utt != "" {
			return 0, 0, fmt.Errorf("--spk2utt option not compatible with rxfilename as output (did you forget ark:?)")
		}
		sr, err := kaldiio.OpenSequentialReader(featRspecifier, kaldiio.MatrixCodec, kopts...)
		if err != nil {
			return 0, 0, err
		}
		defer sr.Close()
		var stats kaldiio.DoubleMatrix
		for sr.Next() {
			if acc(sr.Key(), &stats, sr.Value()) {
				done++
			} else {
				failed++
			}
		}
		failed += sr.Skipped()
		if err := sr.Err(); err != nil {
			return done, failed, err
		}
		if stats.Rows == 0 {
			return done, failed, fmt.Errorf("no features read from %s", featRspecifier)
		}
		// Kaldi writes the global stats as Matrix<float>.
		fstats := kaldiio.Matrix{Rows: stats.Rows, Cols: stats.Cols, Data: make([]float32, len(stats.Data))}
		for i, v := range stats.Data {
			fstats.Data[i] = float32(v)
		}
		if err := kaldiio.WriteObject(out, kaldiio.MatrixCodec, binary, &fstats, kopts...); err != nil {
			return done, failed, err
		}
		log.Log("Wrote global CMVN stats to %s", out)
		return done, failed, sr.Close()
	}
	tw, err := kaldiio.OpenTableWriter(out, kaldiio.DoubleMatrixCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if cerr := tw.Close(); err == nil {
			err = cerr
		}
	}()
	if spk2utt == "" {
		sr, err := kaldiio.OpenSequentialReader(featRspecifier, kaldiio.MatrixCodec, kopts...)
		if err != nil {
			return 0, 0, err
		}
		defer sr.Close()
		for sr.Next() {
			var stats kaldiio.DoubleMatrix
			if !acc(sr.Key(), &stats, sr.Value()) {
				failed++
				continue
			}
			if err := tw.Write(sr.Key(), stats); err != nil {
				return done, failed, err
			}
			done++
		}
		failed += sr.Skipped()
		if err := sr.Err(); err != nil {
			return done, failed, err
		}
		return done, failed, sr.Close()
	}
	spk, err := kaldiio.OpenSequentialReader(spk2utt, kaldiio.TokenVectorCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer spk.Close()
	feats, err := kaldiio.OpenRandomAccessReader(featRspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer feats.Close()
	for spk.Next() {
		var stats kaldiio.DoubleMatrix
		for _, utt := range spk.Value() {
			m, err := feats.Value(utt)
			if errors.Is(err, kaldiio.ErrNotFound) {
				log.Warn("Did not find features for utterance %s", utt)
				failed++
				continue
			}
			if err != nil {
				return done, failed, err
			}
			if acc(utt, &stats, m) {
				done++
			} else {
				failed++
			}
		}
		if stats.Rows == 0 {
			log.Warn("No stats accumulated for speaker %s", spk.Key())
			continue
		}
		if err := tw.Write(spk.Key(), stats); err != nil {
			return done, failed, err
		}
	}
	if err := spk.Err(); err != nil {
		return done, failed, err
	}
	return done, failed, spk.Close()
}

// ApplyCmvnOptions are apply-cmvn's options.
type ApplyCmvnOptions struct {
	NormMeans bool   // --norm-means: if true, do mean normalization
	NormVars  bool   // --norm-vars: if true, normalize variances
	Utt2spk   string // --utt2spk: rspecifier for utterance to speaker map
	Reverse   bool   // --reverse: apply CMVN in a reverse sense (ApplyCmvnReverse)
}

// ApplyCmvnTable is apply-cmvn: cmvn is a table of statistics (per
// utterance, or per speaker with Utt2spk) or one global statistics file.
// Utterances without statistics are Kaldi's warning and are skipped; failed
// counts them and the entries a permissive ("p") feature table could not
// read.
func ApplyCmvnTable(o ApplyCmvnOptions, cmvn, featRspecifier, featWspecifier string, log Logger, kopts ...kaldiio.Option) (done, failed int, err error) {
	if o.NormVars && !o.NormMeans {
		return 0, 0, fmt.Errorf("you cannot normalize the variance but not the mean")
	}
	sr, err := kaldiio.OpenSequentialReader(featRspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(featWspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if cerr := tw.Close(); err == nil {
			err = cerr
		}
	}()
	var global *kaldiio.DoubleMatrix
	var stats *kaldiio.RandomAccessReader[kaldiio.DoubleMatrix]
	var utt2spk *kaldiio.RandomAccessReader[kaldiio.TokenVector]
	if o.NormMeans {
		if IsRspecifier(cmvn) {
			if stats, err = kaldiio.OpenRandomAccessReader(cmvn, kaldiio.DoubleMatrixCodec, kopts...); err != nil {
				return 0, 0, err
			}
			defer stats.Close()
			if o.Utt2spk != "" {
				if utt2spk, err = kaldiio.OpenRandomAccessReader(o.Utt2spk, kaldiio.TokenVectorCodec, kopts...); err != nil {
					return 0, 0, err
				}
				defer utt2spk.Close()
			}
		} else {
			if o.Utt2spk != "" {
				return 0, 0, fmt.Errorf("--utt2spk option not compatible with rxfilename as input (did you forget ark:?)")
			}
			global = &kaldiio.DoubleMatrix{}
			if err := kaldiio.ReadObject(cmvn, kaldiio.DoubleMatrixCodec, global, kopts...); err != nil {
				return 0, 0, err
			}
		}
	}
	for sr.Next() {
		utt, m := sr.Key(), sr.Value()
		if o.NormMeans {
			st := global
			if st == nil {
				key := utt
				if utt2spk != nil {
					spk, err := utt2spk.Value(utt)
					if errors.Is(err, kaldiio.ErrNotFound) || (err == nil && len(spk) != 1) {
						log.Warn("No speaker for utterance %s in %s, producing no output for this utterance", utt, o.Utt2spk)
						failed++
						continue
					}
					if err != nil {
						return done, failed, err
					}
					key = spk[0]
				}
				v, err := stats.Value(key)
				if errors.Is(err, kaldiio.ErrNotFound) {
					log.Warn("No normalization statistics available for key %s, producing no output for this utterance", key)
					failed++
					continue
				}
				if err != nil {
					return done, failed, err
				}
				st = &v
			}
			if st.Cols != m.Cols+1 {
				return done, failed, fmt.Errorf("utterance %s: dim mismatch: cmvn %dx%d, feats %dx%d", utt, st.Rows, st.Cols, m.Rows, m.Cols)
			}
			apply := ApplyCmvn
			if o.Reverse {
				apply = ApplyCmvnReverse
			}
			warns, err := apply(st.Data, st.Rows, o.NormVars, m.Data, m.Rows, m.Cols)
			for _, w := range warns {
				log.Warn("%s (utterance %s)", w, utt)
			}
			if err != nil {
				return done, failed, fmt.Errorf("utterance %s: %w", utt, err)
			}
		}
		if err := tw.Write(utt, m); err != nil {
			return done, failed, err
		}
		done++
	}
	failed += sr.Skipped()
	if err := sr.Err(); err != nil {
		return done, failed, err
	}
	return done, failed, sr.Close()
}

// MapFeatures reads matrices from rspecifier, applies f to each and writes
// the results to wspecifier (add-deltas, splice-feats). f returns ok=false
// to skip an utterance (with its own warning).
func MapFeatures(rspecifier, wspecifier string, f func(key string, m kaldiio.Matrix) (kaldiio.Matrix, bool, error), kopts ...kaldiio.Option) (done int, err error) {
	sr, err := kaldiio.OpenSequentialReader(rspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := tw.Close(); err == nil {
			err = cerr
		}
	}()
	for sr.Next() {
		out, ok, err := f(sr.Key(), sr.Value())
		if err != nil {
			return done, fmt.Errorf("utterance %s: %w", sr.Key(), err)
		}
		if !ok {
			continue
		}
		if err := tw.Write(sr.Key(), out); err != nil {
			return done, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		return done, err
	}
	return done, sr.Close()
}
