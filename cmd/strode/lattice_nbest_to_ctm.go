package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "nbest-to-ctm",
		Summary:     "Word-aligned linear lattices to CTM lines (utterance-relative times)",
		Description: "Takes as input lattices which must be linear (single path),\nand must be in CompactLattice form where the transition-ids on the arcs\nhave been aligned with the word boundaries... typically the input will\nbe a lattice that has been piped through lattice-1best and then\nlattice-align-words.  It outputs ctm format (with integers in place of words),\nassuming the frame length is 0.01 seconds by default (change this with the\n--frame-shift option).  Note: the output is in the form\n<utterance-id> 1 <begin-time> <duration> <word-id>\nand you can post-process this to account for segmentation issues and to \nconvert ints to words; note, the times are relative to start of the utterance.",
		ArgsUsage:   "<aligned-linear-lattice-rspecifier> <ctm-wxfilename>",
		Examples:    []string{"strode lattice-1best --acoustic-scale=0.08333 ark:1.lats ark:- | strode lattice-align-words data/lang/phones/word_boundary.int exp/dir/final.mdl ark:- ark:- | strode nbest-to-ctm ark:- 1.ctm"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultCtmOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.Validate(); err != nil {
					return err
				}
				precision := o.Precision
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				out, err := kaldiio.OpenOutput(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer out.Abort()
				w := out.Writer()
				fshift := float32(o.FrameShift)
				done, failed := 0, 0
				for src.Next() {
					key, clat := src.Key(), src.Value()
					words, begin, length, finalTids, err := clat.WordAlignment()
					if err != nil {
						ctx.Warn("Format conversion failed for key %s (%v)", key, err)
						failed++
						continue
					}
					if finalTids {
						ctx.Warn("Lattice has alignments on final-weight: probably was not word-aligned (alignments will be approximate)")
					}
					for i, word := range words {
						if word == 0 && !o.PrintSilence {
							continue // silence, as Kaldi
						}
						if _, err := fmt.Fprintf(w, "%s 1 %s %s %d\n", key, fixed(fshift*float32(begin[i]), precision), fixed(fshift*float32(length[i]), precision), word); err != nil {
							return err
						}
					}
					done++
				}
				if err := src.Err(); err != nil {
					return err
				}
				if err := out.Close(); err != nil {
					return err
				}
				ctx.Log("Converted %d linear lattices to ctm format; %d had errors.", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}

// fixed prints a float as a C++ stream in std::fixed mode with the given
// precision does (the float's exact value, rounded).
func fixed(f float32, precision int) string {
	return strconv.FormatFloat(float64(f), 'f', precision, 64)
}
