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
	var (
		order                        int
		lmFile, ppl, writeLM, mapUnk string
		unk                          bool
		debug                        int
	)
	fs := flag.NewFlagSet("ngram", flag.ContinueOnError)
	fs.IntVar(&order, "order", 3, "max ngram order")
	fs.StringVar(&lmFile, "lm", "", "file in ARPA LM format (.gz is decompressed)")
	fs.StringVar(&ppl, "ppl", "", "text file to compute perplexity from (- for standard input)")
	fs.StringVar(&writeLM, "write-lm", "", "re-write LM to file")
	fs.BoolVar(&unk, "unk", false, "vocabulary contains unknown word tag")
	fs.StringVar(&mapUnk, "map-unk", "", "word to map unknown words to (default <unk>)")
	fs.IntVar(&debug, "debug", 0, "debugging level for LM (1: per sentence, 2: per word)")
	help, err := srilmOptions(fs, ctx.Args())
	if help {
		writeSRILMUsage(ctx.Stdout, ngramDescription, fs)
		return nil
	}
	if err != nil {
		return err
	}
	if order < 1 {
		return fmt.Errorf("%w: -order must be at least 1, got %d", kaldicmd.ErrUsage, order)
	}
	if lmFile == "" {
		return fmt.Errorf("%w: -lm FILE is required", kaldicmd.ErrUsage)
	}
	in, err := openLMInput(ctx, lmFile)
	if err != nil {
		return err
	}
	model, err := lm.ReadARPA(in, lmFile, lm.ReadOptions{Order: order, Unk: mapUnk, UnkIsWord: unk,
		Warn: func(s string) { fmt.Fprintln(ctx.Stderr, s) }})
	in.Close()
	if err != nil {
		return err
	}
	if ppl != "" {
		text, err := openLMInput(ctx, ppl)
		if err != nil {
			return err
		}
		stats, err := model.Perplexity(text, ppl, debug, ctx.Stdout)
		text.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(ctx.Stdout, "file %s: %s", ppl, stats)
	}
	if writeLM != "" {
		return writeLMOutput(ctx, writeLM, model.WriteARPA)
	}
	return nil
}
