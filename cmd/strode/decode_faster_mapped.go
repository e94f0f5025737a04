package main

import (
	"errors"
	"flag"

	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/internal/kaldicmd"
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
	dec := search.NewFasterDecoder(setup.graph, opts)
	md := &mappedDecoding{
		setup: setup, acwt: acwt,
		loglikes: ctx.Arg(2), words: ctx.Arg(3), alignments: ctx.Arg(4),
		timeLabel: "Time taken [excluding initialization]",
		decode: func(utt string, d *search.MatrixMapped) (mappedResult, bool, error) {
			if err := dec.Decode(d); err != nil && !errors.Is(err, search.ErrNoTokens) {
				return mappedResult{}, false, err
			}
			if !dec.ReachedFinal() && !allowPartial {
				ctx.Warn("Did not successfully decode utterance %s, len = %d", utt, d.NumFrames())
				return mappedResult{}, false, nil
			}
			ali, wrd, w, err := dec.BestPath()
			if err != nil {
				ctx.Warn("Did not successfully decode utterance %s, len = %d", utt, d.NumFrames())
				return mappedResult{}, false, nil
			}
			if !dec.ReachedFinal() {
				ctx.Warn("Decoder did not reach end-state, outputting partial traceback.")
			}
			like := -(float64(w.Graph) + float64(w.Acoustic))
			return mappedResult{words: wrd, alignment: ali, like: like, frames: d.NumFrames()}, true, nil
		},
	}
	return md.run(ctx)
}
