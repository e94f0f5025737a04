package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

const ngramCountDescription = "Count n-grams in a text and estimate an interpolated modified Kneser-Ney back-off\n" +
	"language model, as SRILM's ngram-count -kndiscount -interpolate: <s> and </s> around every\n" +
	"line, continuation counts for the lower orders, discounts D1, D2, D3+ per order, cutoffs\n" +
	"-gtNmin (defaults 1 for unigrams and bigrams, 2 above, as SRILM), an ARPA file from -lm\n" +
	"(gzip'd when the name ends in .gz). With -vocab the vocabulary is closed: other words become\n" +
	"<unk> (or the -map-unk word), which is a word of the model only with -unk. Options take\n" +
	"SRILM's single-dash form (-order 3). Without -lm, -write or -write-vocab the counts go to\n" +
	"standard output (SRILM prints the Kneser-Ney-modified counts there when -kndiscount is\n" +
	"given; these are the raw counts). -wbdiscount is Witten-Bell discounting on raw counts instead,\n" +
	"which needs no count-of-counts: a small vocabulary (digits) or a small text, where modified\n" +
	"Kneser-Ney's discounts cannot be estimated, still gives a model. Only these two are\n" +
	"implemented (not SRILM's default Good-Turing)."

func init() {
	register(&kaldicmd.Command{
		Name:        "ngram-count",
		Summary:     "Estimate an n-gram LM (ARPA) from text, as SRILM's ngram-count -kndiscount -interpolate",
		Description: ngramCountDescription,
		ArgsUsage:   "-text FILE [-order N] -kndiscount|-wbdiscount [-interpolate] [-vocab FILE [-unk]] -lm FILE",
		Examples: []string{
			"strode ngram-count -order 3 -kndiscount -interpolate -text data/local/lm/text -lm data/local/lm/lm.arpa.gz",
			"strode ngram-count -order 3 -wbdiscount -interpolate -text data/train/digits.txt -lm lm.arpa.gz",
		},
		MinArgs: 0,
		MaxArgs: -1,
		RawArgs: true,
		Setup: func(*flag.FlagSet) kaldicmd.RunFunc {
			return runNgramCount
		},
	})
}

func runNgramCount(ctx *kaldicmd.Context) error {
	o := lm.DefaultCountOptions()
	fs := flag.NewFlagSet("ngram-count", flag.ContinueOnError)
	o.Register(fs)
	help, err := srilmOptions(fs, ctx.Args())
	if help {
		writeSRILMUsage(ctx.Stdout, ngramCountDescription, fs)
		return nil
	}
	if err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return fmt.Errorf("%w: %v", kaldicmd.ErrUsage, err)
	}
	return lm.NgramCount(o, lmStreams(ctx))
}
