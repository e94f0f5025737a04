package main

import (
	"errors"
	"flag"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "lattice-lmrescore",
		Summary: "Add lm-scale times the cost of the best path through an LM FST to the graph costs of lattices",
		Description: "Add lm_scale * [cost of best path through LM FST] to graph-cost of\n" +
			"paths through lattice.  Does this by composing with LM FST, then\n" +
			"lattice-determinizing (it has to negate weights first if lm_scale<0)",
		ArgsUsage: "<lattice-rspecifier> <lm-fst-in> <lattice-wspecifier>",
		Examples:  []string{"strode lattice-lmrescore --lm-scale=-1.0 ark:in.lats 'strode fstproject --project_output=true data/lang/G.fst|' ark:out.lats"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var lmScale float64 = 1
			writeCompact, determinize := true, true
			numStatesCache := 50000
			fs.BoolVar(&writeCompact, "write-compact", writeCompact, "If true, write in normal (compact) form.")
			fs.BoolVar(&determinize, "determinize", determinize, "If false, then the output will retain all the non-deterministic paths in the original lattice, but rescored with LM score from the best path in the LM")
			fs.Float64Var(&lmScale, "lm-scale", lmScale, "Scaling factor for language model costs; frequently 1.0 or -1.0")
			// Kaldi caches the lazily mapped LM; ours is mapped once, whole.
			fs.IntVar(&numStatesCache, "num-states-cache", numStatesCache, "Number of states we cache when mapping LM FST to lattice type. More -> more memory but faster. (No effect: the LM is mapped once, whole.)")
			return func(ctx *kaldicmd.Context) error {
				if !writeCompact {
					return errWriteCompact
				}
				g, err := fst.ReadRx(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				lm := lattice.NewComposer(lattice.FromFst(g))
				opts := lattice.RescoreOptions{LMScale: float32(lmScale), Determinize: determinize}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.LatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				return rescoreLattices(ctx, ctx.Arg(2), src.Next, src.Err, func() (string, *lattice.CompactLattice, error) {
					lat := src.Value()
					if opts.LMScale == 0 {
						return src.Key(), lat.ToCompact(), nil
					}
					out, err := lattice.RescoreFst(&lat, lm, opts)
					return src.Key(), out, err
				})
			}
		},
	})
}

// errWriteCompact refuses Kaldi's --write-compact=false, which writes
// state-level lattices with each (frame, transition-id)'s acoustic cost
// averaged over the input; it is not implemented.
var errWriteCompact = errors.New("--write-compact=false (state-level output with averaged acoustic costs) is not implemented; use the default")

// rescoreLattices is the loop lattice-lmrescore and
// lattice-lmrescore-const-arpa share: rescore each lattice, warn about and
// count those left empty, write the rest; exit 1 when none was written, as
// Kaldi's.
func rescoreLattices(ctx *kaldicmd.Context, wspec string, next func() bool, srcErr func() error,
	rescore func() (string, *lattice.CompactLattice, error)) error {
	dst, err := kaldiio.OpenTableWriter(wspec, lattice.CompactLatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	done, failed := 0, 0
	for next() {
		key, out, err := rescore()
		if err != nil {
			dst.Abort()
			return err
		}
		if out.Start == lattice.NoState {
			ctx.Warn("Empty lattice for utterance %s (incompatible LM?)", key)
			failed++
			continue
		}
		if err := dst.Write(key, *out); err != nil {
			dst.Abort()
			return err
		}
		done++
	}
	if err := srcErr(); err != nil {
		dst.Abort()
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	ctx.Log("Done %d lattices, failed for %d", done, failed)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
