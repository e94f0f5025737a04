package features

import (
	"errors"
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// ApplyCmvnOnlineTable is apply-cmvn-online: online CMVN (OnlineCmvn) of
// every utterance from the global stats, as online decoding applies it, so
// that a causal model can be trained on what it will see. With spk2utt the
// utterances of a speaker are read in its order and the CMVN state carries
// from one to the next (a missing utterance is Kaldi's warning); without
// it every utterance starts from the global stats alone.
func ApplyCmvnOnlineTable(o OnlineCmvnOptions, globalRx, spk2utt, featRspecifier, featWspecifier string, log Logger, kopts ...kaldiio.Option) (done, failed, frames int, err error) {
	var gm kaldiio.DoubleMatrix
	if err := kaldiio.ReadObject(globalRx, kaldiio.DoubleMatrixCodec, &gm, kopts...); err != nil {
		return 0, 0, 0, err
	}
	if gm.Rows != 2 {
		return 0, 0, 0, fmt.Errorf("%s: global CMVN stats are %d×%d, want 2 rows", globalRx, gm.Rows, gm.Cols)
	}
	dim := gm.Cols - 1
	start, err := NewOnlineCmvnState(gm.Data, dim)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %w", globalRx, err)
	}
	if err := o.Validate(); err != nil {
		return 0, 0, 0, err
	}
	tw, err := kaldiio.OpenTableWriter(featWspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, 0, 0, err
	}
	defer func() {
		if cerr := tw.Close(); err == nil {
			err = cerr
		}
	}()
	apply := func(utt string, m kaldiio.Matrix, st OnlineCmvnState) (OnlineCmvnState, error) {
		if m.Cols != dim {
			return st, fmt.Errorf("utterance %s: features have dimension %d, the global CMVN stats %d", utt, m.Cols, dim)
		}
		c, err := NewOnlineCmvn(o, st, dim)
		if err != nil {
			return st, err
		}
		if err := c.Process(m.Data, m.Rows); err != nil {
			return st, fmt.Errorf("utterance %s: %w", utt, err)
		}
		if err := tw.Write(utt, m); err != nil {
			return st, err
		}
		done++
		frames += m.Rows
		return c.State(), nil
	}
	if spk2utt == "" {
		sr, err := kaldiio.OpenSequentialReader(featRspecifier, kaldiio.MatrixCodec, kopts...)
		if err != nil {
			return 0, 0, 0, err
		}
		defer sr.Close()
		for sr.Next() {
			if _, err := apply(sr.Key(), sr.Value(), start); err != nil {
				return done, failed, frames, err
			}
		}
		if err := sr.Err(); err != nil {
			return done, failed, frames, err
		}
		return done, failed, frames, sr.Close()
	}
	spk, err := kaldiio.OpenSequentialReader(spk2utt, kaldiio.TokenVectorCodec, kopts...)
	if err != nil {
		return 0, 0, 0, err
	}
	defer spk.Close()
	fr, err := kaldiio.OpenRandomAccessReader(featRspecifier, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, 0, 0, err
	}
	defer fr.Close()
	for spk.Next() {
		st := start
		for _, utt := range spk.Value() {
			m, err := fr.Value(utt)
			if errors.Is(err, kaldiio.ErrNotFound) {
				log.Warn("No features for utterance %s", utt)
				failed++
				continue
			}
			if err != nil {
				return done, failed, frames, err
			}
			if st, err = apply(utt, m, st); err != nil {
				return done, failed, frames, err
			}
		}
	}
	return done, failed, frames, spk.Err()
}
