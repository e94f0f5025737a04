package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "arpa-to-const-arpa",
		Summary: "Convert an ARPA LM with integer words into Kaldi's ConstArpaLm (G.carpa)",
		Description: "Converts an Arpa format language model into ConstArpaLm format,\n" +
			"which is an in-memory representation of the pre-built Arpa language\n" +
			"model. The output language model can then be read in by a program\n" +
			"that wants to rescore lattices. We assume that the words in the\n" +
			"input arpa language model has been converted to integers\n" +
			"(strode map-arpa-lm words.txt, Kaldi's utils/map_arpa_lm.pl).",
		ArgsUsage: "<input-arpa> [<const-arpa>]",
		Examples:  []string{"strode arpa-to-const-arpa --bos-symbol=1 --eos-symbol=2 --unk-symbol=3 'gunzip -c lm.arpa.gz | strode map-arpa-lm words.txt |' G.carpa"},
		MinArgs:   1,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := lm.DefaultConstArpaOptions()
			var bos, eos, unk = -1, -1, -1
			fs.IntVar(&opt.MaxWarnings, "max-arpa-warnings", opt.MaxWarnings, "Maximum warnings to report on ARPA parsing, 0 to disable, -1 to show all")
			fs.IntVar(&unk, "unk-symbol", unk, "Integer corresponds to unknown-word in language model. -1 if no such word is provided.")
			fs.IntVar(&bos, "bos-symbol", bos, "Integer corresponds to <s>. You must set this to your actual BOS integer.")
			fs.IntVar(&eos, "eos-symbol", eos, "Integer corresponds to </s>. You must set this to your actual EOS integer.")
			return func(ctx *kaldicmd.Context) error {
				if bos == -1 || eos == -1 {
					return errors.New("Please set --bos-symbol and --eos-symbol.")
				}
				opt.Bos, opt.Eos, opt.Unk = int32(bos), int32(eos), int32(unk)
				opt.Warn = func(s string) { ctx.Warn("%s", s) }
				ctx.Log("Reading %s", ctx.Arg(0))
				in, err := kaldiio.OpenInput(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				c, err := lm.BuildConstArpa(in.Reader(), ctx.Arg(0), opt)
				if cerr := in.Close(); err == nil && cerr != nil {
					err = cerr
				}
				if err != nil {
					return err
				}
				out := ctx.Arg(1)
				if out == "" {
					out = "-"
				}
				o, err := kaldiio.OpenOutput(out, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				if err := c.WriteBinary(o.Writer()); err != nil {
					o.Abort()
					return fmt.Errorf("writing %s: %w", out, err)
				}
				if err := o.Close(); err != nil {
					return err
				}
				ctx.Log("ConstArpaLm of order %d: %d words, %d int32s of records", c.Order, c.NumWords, c.NumStates())
				return nil
			}
		},
	})
}
