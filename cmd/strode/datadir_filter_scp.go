package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "filter-scp",
		Summary: "Keep the lines of a table whose key is listed (or, with --exclude, not listed), as Kaldi's utils/filter_scp.pl",
		Description: "Prints the lines of <in-scp> (any file keyed by its first field: feats.scp, utt2spk, text, ...)\n" +
			"whose first field is the first field of a line of <id-list>, in the order of <in-scp>, byte for byte;\n" +
			"with --exclude, those whose first field is not.",
		ArgsUsage: "<id-list> <in-scp>",
		Examples: []string{
			"strode filter-scp data/train/cv.list data-fbank/train/feats.scp > feats_cv.scp",
			"strode filter-scp --exclude data/train/cv.list data-fbank/train/feats.scp > feats_tr.scp",
		},
		MinArgs: 2,
		MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			exclude := fs.Bool("exclude", false, "Keep the lines whose key is not in <id-list>")
			return func(ctx *kaldicmd.Context) error {
				ids, err := datadir.ReadTableFile(ctx.Arg(0))
				if err != nil {
					return fmt.Errorf("filter-scp: %w", err)
				}
				in, err := datadir.ReadTableFile(ctx.Arg(1))
				if err != nil {
					return fmt.Errorf("filter-scp: %w", err)
				}
				out := in.Filter(ids.KeySet())
				if *exclude {
					out = in.Exclude(ids.KeySet())
				}
				_, err = ctx.Stdout.Write(out.Bytes())
				return err
			}
		},
	})
}
