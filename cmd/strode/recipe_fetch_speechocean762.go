package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/fetch"
	"github.com/strode-asr/strode/recipes/speechocean762"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "fetch-speechocean762",
		Summary: "Find the speechocean762 corpus, or download it from openslr and verify every file",
		Description: "Prints the folder that holds the corpus: --corpus-dir when given (it must hold one), else\n" +
			"--shared-dir when it holds one, else <cache-dir> when it holds one, else it downloads openslr\n" +
			"resource 101 (speechocean762.tar.gz) into <cache-dir>, checking each of the 5,258 files the recipe\n" +
			"uses against the committed recipes/speechocean762/SHA256SUMS.upstream; nothing is left behind\n" +
			"unless all are there and correct. Offline, it stops at once and says how to place the files by\n" +
			"hand. The corpus is free for any use; attribute Zhang et al., Interspeech 2021.",
		ArgsUsage: "<cache-dir>",
		Examples: []string{
			"strode fetch-speechocean762 data/speechocean762",
			"strode fetch-speechocean762 --url=file:///tmp/speechocean762.tar.gz data/speechocean762",
			"corpus=$(strode fetch-speechocean762 --corpus-dir=/corpora/speechocean762 data/speechocean762)",
		},
		MinArgs: 1,
		MaxArgs: 1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			lo := fetch.DefaultLocateOptions(speechocean762.Corpus)
			lo.Register(fs)
			o := fetch.DefaultOptions(speechocean762.Corpus)
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.LoadSums(); err != nil {
					return err
				}
				o.Progress = ctx.Stderr
				// Ctrl-C removes the partial download instead of leaving it.
				c, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				loc, err := fetch.Locate(c, speechocean762.Corpus, lo.CorpusDir, lo.SharedDir, ctx.Arg(0), o)
				if err != nil {
					return err
				}
				ctx.Log("speechocean762 (%s): %s", loc.Where, loc.Dir)
				fmt.Fprintf(ctx.Stdout, "%s\n", loc.Dir)
				return nil
			}
		},
	})
}
