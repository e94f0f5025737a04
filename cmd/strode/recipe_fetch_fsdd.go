package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/fsdd/fetch"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "fetch-fsdd",
		Summary: "Download the Free Spoken Digit Dataset v1.0.10 and verify every recording",
		Description: "Downloads the FSDD release v1.0.10 (GitHub's archive of commit\n" +
			fetch.Commit + ") into <dest-dir>/recordings, checking each of its\n" +
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
			url := fs.String("url", fetch.DefaultURL, "Where to get the tar.gz: http(s)://, file:// or a local path")
			sums := fs.String("sums", "", "SHA-256 list to check against (sha256sum format); empty means the committed recipes/fsdd/fetch/"+fetch.SumsFile)
			timeout := fs.Float64("timeout", 1800, "Give up after this many seconds in all")
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
					s, err := fetch.ReadSums(*sums)
					if err != nil {
						return err
					}
					o.Sums = s
				}
				// Ctrl-C removes the partial download instead of leaving it.
				c, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				dest := ctx.Arg(0)
				ctx.Log("fetching %s into %s", o.URL, dest)
				res, err := fetch.Fetch(c, dest, o)
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

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
