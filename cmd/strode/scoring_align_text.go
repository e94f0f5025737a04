package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/scoring"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
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
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return alignText(ctx, o)
			}
		},
	})
}

// alignText runs align-text's loop: text1 streamed, text2 looked up by key.
func alignText(ctx *kaldicmd.Context, o scoring.AlignTextOptions) error {
	text1, err := kaldiio.OpenSequentialReader(ctx.Arg(0), kaldiio.TokenVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer text1.Close()
	text2, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), kaldiio.TokenVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer text2.Close()
	out, err := kaldiio.OpenTableWriter(ctx.Arg(2), kaldiio.TokenVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer out.Abort()
	done, failed := 0, 0
	for text1.Next() {
		key := text1.Key()
		ok, err := text2.HasKey(key)
		if err != nil {
			return err
		}
		if !ok {
			ctx.Warn("Key %s is in %s, but not in %s", key, ctx.Arg(0), ctx.Arg(1))
			failed++
			continue
		}
		t2, err := text2.Value(key)
		if err != nil {
			return err
		}
		toks, err := o.AlignTokens(key, text1.Value(), t2)
		if err != nil {
			return err
		}
		if err := out.Write(key, toks); err != nil {
			return err
		}
		done++
	}
	if err := text1.Err(); err != nil {
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	ctx.Log("Done %d sentences, failed for %d", done, failed)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
