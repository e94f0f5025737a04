package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-to-ctm-conf",
		Summary:     "CTM with word confidences from lattice posteriors (MBR decoding, Kaldi's sausages)",
		Description: "This tool turns a lattice into a ctm with confidences, based on the\nposterior probabilities in the lattice.  The word sequence in the\nctm is determined as follows.  Firstly we determine the initial word\nsequence.  In the 3-argument form, we read it from the\n<1best-rspecifier> input; otherwise it is the 1-best of the lattice.\nThen, if --decode-mbr=true, we iteratively refine the hypothesis\nusing Minimum Bayes Risk decoding.  If you don't need confidences,\nyou can do lattice-1best and pipe to nbest-to-ctm. The ctm this\nprogram produces will be relative to the utterance-id; a standard\nctm relative to the filename can be obtained using\nutils/convert_ctm.pl.  The times produced by this program will only\nbe meaningful if you do lattice-align-words on the input.  The\n<1-best-rspecifier> could be the output of utils/int2sym.pl or\nnbest-to-linear.",
		ArgsUsage:   "<lattice-rspecifier> [<1best-rspecifier>] <ctm-wxfilename>",
		Examples: []string{
			"strode lattice-to-ctm-conf --acoustic-scale=0.1 ark:1.lats 1.ctm",
			"strode lattice-to-ctm-conf --acoustic-scale=0.1 --decode-mbr=false ark:1.lats ark:1.1best 1.ctm",
		},
		MinArgs: 2,
		MaxArgs: 4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultMBROptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.Validate(); err != nil {
					return err
				}
				args := ctx.Args()
				if len(args) == 4 {
					return errors.New("the 4-argument form (initial bin times) is not supported by strode")
				}
				ctmOut := args[len(args)-1]
				if kaldiio.IsWspecifier(ctmOut) {
					return errors.New("The output ctm file should not be a wspecifier. Please use things like 1.ctm istead of ark:-")
				}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				var oneBest *kaldiio.RandomAccessReader[kaldiio.IntVector]
				if len(args) == 3 {
					if oneBest, err = kaldiio.OpenRandomAccessReader(args[1], kaldiio.IntVectorCodec, tableStreams(ctx)...); err != nil {
						return err
					}
					defer oneBest.Close()
				}
				out, err := kaldiio.OpenOutput(ctmOut, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer out.Abort()
				w := out.Writer()
				fshift := float32(o.FrameShift)
				done, nWords := 0, 0
				totRisk := 0.0
				for src.Next() {
					key, clat := src.Key(), src.Value()
					var init []int32
					if oneBest != nil {
						ok, err := oneBest.HasKey(key)
						if err != nil {
							return err
						}
						if !ok {
							ctx.Warn("No 1-best present for utterance %s", key)
							continue
						}
						v, err := oneBest.Value(key)
						if err != nil {
							return err
						}
						init = append([]int32{}, v...)
					}
					m, err := o.MBR(&clat, init)
					if err != nil {
						return fmt.Errorf("lattice for key %s: %w", key, err)
					}
					sum := 0.0
					for i, word := range m.OneBest {
						t := m.Times[i]
						if _, err := fmt.Fprintf(w, "%s 1 %s %s %d %s\n", key, fixed(fshift*t[0], 2), fixed(fshift*(t[1]-t[0]), 2), word, fixed(m.Confidences[i], 2)); err != nil {
							return err
						}
						sum += float64(m.Confidences[i])
					}
					ctx.Log("For utterance %s, Bayes Risk %s, avg. confidence per-word %s", key, fmtG(float32(m.BayesRisk)), fmtG(float32(sum/float64(len(m.OneBest)))))
					done++
					nWords += len(m.OneBest)
					totRisk += float64(float32(m.BayesRisk))
				}
				if err := src.Err(); err != nil {
					return err
				}
				if err := out.Close(); err != nil {
					return err
				}
				ctx.Log("Done %d lattices.", done)
				ctx.Log("Overall average Bayes Risk per sentence is %s and per word, %s", fmtG(float32(totRisk/float64(done))), fmtG(float32(totRisk/float64(nWords))))
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
