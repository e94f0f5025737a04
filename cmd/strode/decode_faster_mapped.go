package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "decode-faster-mapped",
		Summary:     "1-best decoding from log-likelihood matrices (pdf columns), no lattices",
		Description: "Decode, reading log-likelihoods as matrices\n (model is needed only for the integer mappings in its transition-model)",
		ArgsUsage:   "<model-in> <fst-in> <loglikes-rspecifier> <words-wspecifier> [<alignments-wspecifier>]",
		Examples:    []string{"strode decode-faster-mapped --acoustic-scale=0.1 final.mdl HCLG.fst ark:loglikes.ark ark,t:words.tra ark:ali"},
		MinArgs:     4,
		MaxArgs:     5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opts := search.DefaultFasterOptions()
			opts.Register(fs)
			acwt := 0.1
			var wordSyms string
			allowPartial := true
			fs.Float64Var(&acwt, "acoustic-scale", acwt, "Scaling factor for acoustic likelihoods")
			fs.StringVar(&wordSyms, "word-symbol-table", "", "Symbol table for words [for debug output]")
			fs.BoolVar(&allowPartial, "allow-partial", allowPartial, "Produce output even when final state was not reached")
			return func(ctx *kaldicmd.Context) error {
				return decodeFaster(ctx, opts, float32(acwt), wordSyms, allowPartial)
			}
		},
	})
}

func decodeFaster(ctx *kaldicmd.Context, opts search.FasterOptions, acwt float32, wordSyms string, allowPartial bool) error {
	setup, err := loadDecoding(ctx.Arg(0), ctx.Arg(1), wordSyms)
	if err != nil {
		return err
	}
	loglikes, err := kaldiio.OpenSequentialReader(ctx.Arg(2), kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer loglikes.Close()
	loglikes.SetReuse(true)
	words, err := openOptionalWriter(ctx, ctx.Arg(3), kaldiio.IntVectorCodec)
	if err != nil {
		return err
	}
	defer words.Abort()
	alis, err := openOptionalWriter(ctx, ctx.Arg(4), kaldiio.IntVectorCodec)
	if err != nil {
		return err
	}
	defer alis.Abort()
	dec := search.NewFasterDecoder(setup.graph, opts)
	start := time.Now()
	var totLike float64
	var frames int64
	done, failed := 0, 0
	for loglikes.Next() {
		utt, m := loglikes.Key(), loglikes.Value()
		if m.Rows == 0 {
			ctx.Warn("Zero-length utterance: %s", utt)
			failed++
			continue
		}
		d, err := search.NewMatrixMapped(m.Data, m.Rows, m.Cols, setup.tidToPdf, setup.numPdfs, acwt)
		if err != nil {
			return fmt.Errorf("utterance %s in %s: %w", utt, ctx.Arg(2), err)
		}
		if err := dec.Decode(d); err != nil && !errors.Is(err, search.ErrNoTokens) {
			return err
		}
		if !dec.ReachedFinal() && !allowPartial {
			ctx.Warn("Did not successfully decode utterance %s, len = %d", utt, m.Rows)
			failed++
			continue
		}
		ali, wrd, w, err := dec.BestPath()
		if err != nil {
			ctx.Warn("Did not successfully decode utterance %s, len = %d", utt, m.Rows)
			failed++
			continue
		}
		if !dec.ReachedFinal() {
			ctx.Warn("Decoder did not reach end-state, outputting partial traceback.")
		}
		if err := words.Write(utt, wrd); err != nil {
			return err
		}
		if err := alis.Write(utt, ali); err != nil {
			return err
		}
		if err := setup.printWords(ctx, utt, wrd); err != nil {
			return err
		}
		like := -(float64(w.Graph) + float64(w.Acoustic))
		totLike += like
		ctx.Log("Log-like per frame for utterance %s is %s over %d frames.", utt, fmtG(float32(like/float64(m.Rows))), m.Rows)
		frames += int64(m.Rows)
		done++
	}
	if err := loglikes.Err(); err != nil {
		return err
	}
	if err := words.Close(); err != nil {
		return err
	}
	if err := alis.Close(); err != nil {
		return err
	}
	elapsed := time.Since(start).Seconds()
	ctx.Log("Time taken [excluding initialization] %ss: real-time factor assuming 100 frames/sec is %s", fmtG(float32(elapsed)), fmtG(float32(elapsed*100/float64(frames))))
	ctx.Log("Done %d utterances, failed for %d", done, failed)
	ctx.Log("Overall log-likelihood per frame is %s over %d frames.", fmtG(float32(totLike/float64(frames))), frames)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
