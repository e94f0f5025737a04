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
			corpusDir := fs.String("corpus-dir", "", "A copy of the corpus to use as it is (must hold WAVE/, train/ and resource/lexicon.txt)")
			shared := fs.String("shared-dir", "../shared/data/speechocean762", "Where the project's shared copy is looked for; empty skips it")
			url := fs.String("url", speechocean762.DefaultURL, "Where to get the tar.gz: http(s)://, file:// or a local path")
			sums := fs.String("sums", "", "SHA-256 list to check against (sha256sum format, paths relative to speechocean762/); empty means the committed recipes/speechocean762/"+speechocean762.SumsFile)
			timeout := fs.Float64("timeout", 7200, "Give up after this many seconds in all")
			stall := fs.Float64("stall-timeout", 60, "Give up when no data arrives for this many seconds")
			connect := fs.Float64("connect-timeout", 15, "Give up connecting after this many seconds")
			return func(ctx *kaldicmd.Context) error {
				o := fetch.Options{
					URL:            *url,
					SumsPath:       *sums,
					Timeout:        seconds(*timeout),
					StallTimeout:   seconds(*stall),
					ConnectTimeout: seconds(*connect),
					Progress:       ctx.Stderr,
				}
				if *sums != "" {
					s, err := fetch.ReadSums(*sums, false)
					if err != nil {
						return err
					}
					o.Sums = s
				}
				// Ctrl-C removes the partial download instead of leaving it.
				c, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				loc, err := fetch.Locate(c, speechocean762.Corpus, *corpusDir, *shared, ctx.Arg(0), o)
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
