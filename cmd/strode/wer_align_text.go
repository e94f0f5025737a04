package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/strode-asr/strode/decoder/scoring"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "align-text",
		Summary: "Align two transcriptions word by word (Levenshtein) for error analysis",
		Description: "Computes alignment between two sentences with the same key in the\n" +
			"two given input text-rspecifiers. The current implementation uses\n" +
			"Levenshtein distance as the distance metric.\n" +
			"\n" +
			"The input text file looks like follows:\n" +
			"  key1 a b c\n" +
			"  key2 d e\n" +
			"\n" +
			"The output alignment file looks like follows:\n" +
			"  key1 a a ; b <eps> ; c c \n" +
			"  key2 d f ; e e \n" +
			"where the aligned pairs are separated by \";\"",
		ArgsUsage: "<text1-rspecifier> <text2-rspecifier> <alignment-wspecifier>",
		Examples:  []string{"strode align-text ark:text1.txt ark:text2.txt ark,t:alignment.txt"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := scoring.DefaultAlignTextOptions()
			fs.StringVar(&o.SpecialSymbol, "special-symbol", o.SpecialSymbol, "Special symbol to be aligned with the inserted or deleted words. Your sentences should not contain this symbol.")
			fs.StringVar(&o.Separator, "separator", o.Separator, "Separator for each aligned pairs in the output alignment file. Your sentences should not contain this symbol.")
			return func(ctx *kaldicmd.Context) error {
				in2, close2, err := openTextTable(ctx, ctx.Arg(1))
				if err != nil {
					return err
				}
				text2, err := scoring.ReadTokenTable(in2, ctx.Arg(1))
				if cerr := close2(); err == nil {
					err = cerr
				}
				if err != nil {
					return err
				}
				in1, close1, err := openTextTable(ctx, ctx.Arg(0))
				if err != nil {
					return err
				}
				defer close1()
				out, commit, err := createTextTable(ctx, ctx.Arg(2))
				if err != nil {
					return err
				}
				done, failed := 0, 0
				r := scoring.NewTokenReader(in1, ctx.Arg(0))
				for {
					e, err := r.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						return err
					}
					t2, ok := text2[e.Key]
					if !ok {
						ctx.Warn("Key %s is in %s, but not in %s", e.Key, ctx.Arg(0), ctx.Arg(1))
						failed++
						continue
					}
					toks, err := o.AlignTokens(e.Key, e.Tokens, t2)
					if err != nil {
						return err
					}
					if err := scoring.WriteTokenEntry(out, e.Key, toks); err != nil {
						return err
					}
					done++
				}
				if err := commit(); err != nil {
					return err
				}
				ctx.Log("Done %d sentences, failed for %d", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}

// createTextTable opens a text wspecifier ("ark,t:file", "ark:-", or a file
// name) for writing. Files are written under a temporary name and renamed by
// commit, so a failed run leaves no half-written table.
func createTextTable(ctx *kaldicmd.Context, wspec string) (io.Writer, func() error, error) {
	name := wspec
	if kind, rest, ok := strings.Cut(wspec, ":"); ok && (kind == "ark" || strings.HasPrefix(kind, "ark,")) {
		name = rest
	}
	if name == "-" || name == "" {
		bw := bufio.NewWriter(ctx.Stdout)
		return bw, bw.Flush, nil
	}
	if strings.HasPrefix(strings.TrimSpace(name), "|") {
		return nil, nil, fmt.Errorf("output pipes are not supported by this command yet: %s", wspec)
	}
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".tmp*")
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open %s for writing: %w", wspec, err)
	}
	bw := bufio.NewWriter(f)
	return bw, func() error {
		if err := bw.Flush(); err != nil {
			f.Close()
			os.Remove(f.Name())
			return fmt.Errorf("writing %s: %w", wspec, err)
		}
		if err := f.Close(); err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("writing %s: %w", wspec, err)
		}
		return os.Rename(f.Name(), name)
	}, nil
}
