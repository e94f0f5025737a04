package main

import (
	"fmt"
	"time"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// mappedDecoding is what decode-faster-mapped and latgen-faster-mapped share:
// the loop over a table of log-likelihood matrices, the words and
// alignments tables, and Kaldi's per-utterance and summary log lines. The
// decoders differ in decode (and in the lattices latgen also writes).
type mappedDecoding struct {
	setup *decodingSetup
	acwt  float32
	// loglikes is the rspecifier read; words and alignments the optional
	// wspecifiers written.
	loglikes, words, alignments string
	// timeLabel follows "Time taken" in the summary (the two Kaldi tools
	// word it differently).
	timeLabel string
	// openMore opens further outputs, after the log-likelihoods and before
	// the words (Kaldi's order); closeMore closes them after the words and
	// alignments. Either may be nil.
	openMore, closeMore func() error
	// decode decodes one utterance; ok is false for an utterance that
	// failed (decode has warned), err ends the run.
	decode func(utt string, d *search.MatrixMapped) (res mappedResult, ok bool, err error)
	// toLoglikes, when set, turns each matrix read (features) into the
	// log-likelihoods decoded (gmm-latgen-faster).
	toLoglikes func(utt string, m kaldiio.Matrix) (kaldiio.Matrix, error)
}

// mappedResult is one utterance's best path.
type mappedResult struct {
	words, alignment []int32
	like             float64 // its log-likelihood, −(graph + acoustic cost)
	frames           int     // what "Log-like per frame" divides by
	// cost, when set, is logged at verbosity 2 as Kaldi's latgen does.
	cost *lattice.Weight
}

// run decodes every utterance; it exits 1 when none was decoded, as Kaldi.
func (md *mappedDecoding) run(ctx *kaldicmd.Context) error {
	loglikes, err := kaldiio.OpenSequentialReader(md.loglikes, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer loglikes.Close()
	loglikes.SetReuse(true)
	if md.openMore != nil {
		if err := md.openMore(); err != nil {
			return err
		}
	}
	words, err := openOptionalWriter(ctx, md.words, kaldiio.IntVectorCodec)
	if err != nil {
		return err
	}
	defer words.Abort()
	alis, err := openOptionalWriter(ctx, md.alignments, kaldiio.IntVectorCodec)
	if err != nil {
		return err
	}
	defer alis.Abort()
	start := time.Now()
	var totLike float64
	var frames int64
	done, failed := 0, 0
	rep := utteranceProgress(ctx, "decoding", md.loglikes)
	defer rep.Finish()
	for loglikes.Next() {
		rep.Add(1)
		utt, m := loglikes.Key(), loglikes.Value()
		if md.toLoglikes != nil && m.Rows > 0 {
			if m, err = md.toLoglikes(utt, m); err != nil {
				return err
			}
		}
		if m.Rows == 0 {
			ctx.Warn("Zero-length utterance: %s", utt)
			failed++
			continue
		}
		d, err := search.NewMatrixMapped(m.Data, m.Rows, m.Cols, md.setup.tidToPdf, md.setup.numPdfs, md.acwt)
		if err != nil {
			return fmt.Errorf("utterance %s in %s: %w", utt, md.loglikes, err)
		}
		res, ok, err := md.decode(utt, d)
		if err != nil {
			return err
		}
		if !ok {
			failed++
			continue
		}
		if err := words.Write(utt, res.words); err != nil {
			return err
		}
		if err := alis.Write(utt, res.alignment); err != nil {
			return err
		}
		if err := md.setup.printWords(ctx, utt, res.words); err != nil {
			return err
		}
		ctx.Log("Log-like per frame for utterance %s is %s over %d frames.", utt, fmtG(float32(res.like/float64(res.frames))), res.frames)
		if res.cost != nil {
			ctx.Vlog(2, "Cost for utterance %s is %s + %s", utt, fmtG(res.cost.Graph), fmtG(res.cost.Acoustic))
		}
		totLike += res.like
		frames += int64(m.Rows)
		done++
	}
	rep.Finish()
	if err := loglikes.Err(); err != nil {
		return err
	}
	closers := []func() error{words.Close, alis.Close}
	if md.closeMore != nil {
		closers = append(closers, md.closeMore)
	}
	for _, c := range closers {
		if err := c(); err != nil {
			return err
		}
	}
	elapsed := time.Since(start).Seconds()
	ctx.Log("%s %ss: real-time factor assuming 100 frames/sec is %s", md.timeLabel, fmtG(float32(elapsed)), fmtG(float32(elapsed*100/float64(frames))))
	ctx.Log("Done %d utterances, failed for %d", done, failed)
	ctx.Log("Overall log-likelihood per frame is %s over %d frames.", fmtG(float32(totLike/float64(frames))), frames)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
