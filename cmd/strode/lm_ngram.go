package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

const ngramDescription = "Read an ARPA back-off language model and compute the perplexity of a text, as SRILM's\n" +
	"ngram -lm LM -ppl TEXT: prints \"file TEXT: N sentences, M words, K OOVs\" and\n" +
	"\"Z zeroprobs, logprob= X ppl= Y ppl1= W\" (ppl counts </s>, ppl1 does not; OOVs are left out\n" +
	"of both); -debug 1 adds those lines per sentence, -debug 2 a line per word. -order limits\n" +
	"the n-gram order used (SRILM's default 3). Options take SRILM's single-dash form."

func init() {
	register(&kaldicmd.Command{
		Name:        "ngram",
		Summary:     "Perplexity of a text under an ARPA LM, as SRILM's ngram -lm LM -ppl TEXT",
		Description: ngramDescription,
		ArgsUsage:   "-lm FILE [-order N] [-unk] [-debug 0|1|2] -ppl TEXT",
		Examples:    []string{"strode ngram -lm data/local/lm/lm.arpa.gz -ppl data/dev/text.words"},
		MinArgs:     0,
		MaxArgs:     -1,
		RawArgs:     true,
		Setup: func(*flag.FlagSet) kaldicmd.RunFunc {
			return runNgram
		},
	})
}

func runNgram(ctx *kaldicmd.Context) error {
	o := lm.DefaultPerplexityOptions()
	fs := flag.NewFlagSet("ngram", flag.ContinueOnError)
	o.Register(fs)
	help, err := srilmOptions(fs, ctx.Args())
	if help {
		writeSRILMUsage(ctx.Stdout, ngramDescription, fs)
		return nil
	}
	if err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return fmt.Errorf("%w: %v", kaldicmd.ErrUsage, err)
	}
	return lm.Ngram(o, lmStreams(ctx))
}
