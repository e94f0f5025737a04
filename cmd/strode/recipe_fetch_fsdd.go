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
	"github.com/strode-asr/strode/recipes/fsdd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "fetch-fsdd",
		Summary: "Download the Free Spoken Digit Dataset v1.0.10 and verify every recording",
		Description: "Downloads the FSDD release v1.0.10 (GitHub's archive of commit\n" +
			fsdd.Commit + ") into <dest-dir>/recordings, checking each of its\n" +
			"3,000 recordings against the committed SHA-256 list; nothing is left behind unless all are\n" +
			"there and correct. Does nothing when <dest-dir>/recordings exists. Offline, it says how to\n" +
			"place the files by hand. The recordings are CC BY-SA 4.0 (Zohar Jackson et al.).",
		ArgsUsage: "<dest-dir>",
		Examples: []string{
			"strode fetch-fsdd data/fsdd",
			"strode fetch-fsdd --url=file:///tmp/fsdd-v1.0.10.tar.gz data/fsdd",
		},
		MinArgs: 1,
		MaxArgs: 1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := fetch.DefaultOptions(fsdd.Corpus)
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.LoadSums(); err != nil {
					return err
				}
				o.Progress = ctx.Stderr
				// Ctrl-C removes the partial download instead of leaving it.
				c, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				dest := ctx.Arg(0)
				ctx.Log("fetching %s into %s", o.URL, dest)
				res, err := fetch.Fetch(c, fsdd.Corpus, dest, o)
				if err != nil {
					return err
				}
				if res.AlreadyPresent {
					ctx.Log("%s/recordings already exists; nothing fetched", dest)
					return nil
				}
				fmt.Fprintf(ctx.Stdout, "%s\n", res.Dir)
				return nil
			}
		},
	})
}
