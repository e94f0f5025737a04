package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "lattice-determinize-pruned",
		Summary: "Determinize lattices with pruning: the best state sequence per word sequence",
		Description: "Determinize lattices, keeping only the best path (sequence of acoustic states)\n" +
			"for each input-symbol sequence.  This version does pruning as part of the\n" +
			"determinization algorithm, which is more efficient and prevents blowup.\n" +
			"(--minimize merges equivalent states of the result; Kaldi pushes strings and\n" +
			"weights first, which strode does not.)",
		ArgsUsage: "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:  []string{"strode lattice-determinize-pruned --acoustic-scale=0.1 --beam=6.0 ark:in.lats ark:det.lats"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			acwt, beam := 1.0, 10.0
			minimize := false
			d := lattice.DefaultDeterminizeOptions()
			delta := float64(d.Delta)
			maxMem := d.MaxMem
			maxArcs, maxStates, maxLoop := -1, -1, 0
			fs.Float64Var(&acwt, "acoustic-scale", acwt, "Scaling factor for acoustic likelihoods")
			fs.Float64Var(&beam, "beam", beam, "Pruning beam [applied after acoustic scaling].")
			fs.BoolVar(&minimize, "minimize", minimize, "If true, push and minimize after determinization")
			fs.Float64Var(&delta, "delta", delta, "Tolerance used in determinization")
			fs.Int64Var(&maxMem, "max-mem", maxMem, "Maximum approximate memory usage in determinization (real usage might be many times this)")
			fs.IntVar(&maxArcs, "max-arcs", maxArcs, "Maximum number of arcs in output FST (total, not per state) [not enforced by strode: -1 only]")
			fs.IntVar(&maxStates, "max-states", maxStates, "Maximum number of states in output FST (total, not per state) [not enforced by strode: -1 only]")
			fs.IntVar(&maxLoop, "max-loop", maxLoop, "Option used to detect a particular type of determinization failure, typically due to invalid input (e.g., negative-cost loops) [lattices are acyclic here; accepted and unused]")
			return func(ctx *kaldicmd.Context) error {
				if acwt == 0 {
					return fmt.Errorf("Do not use a zero acoustic scale (cannot be inverted)")
				}
				if maxArcs > 0 || maxStates > 0 {
					return fmt.Errorf("--max-arcs and --max-states are not supported (use --max-mem)")
				}
				d.Delta, d.MaxMem = float32(delta), maxMem
				d.Warn = func(s string) { ctx.Warn("%s", s) }
				// Kaldi's options are BaseFloat: the scale is the float's value.
				return determinizeLatticesPruned(ctx, float64(float32(acwt)), float64(float32(beam)), minimize, d)
			}
		},
	})
}

func determinizeLatticesPruned(ctx *kaldicmd.Context, acwt, beam float64, minimize bool, d lattice.DeterminizeOptions) error {
	warned := 0
	done, _, err := mapTable(ctx, ctx.Arg(0), lattice.LatticeCodec, ctx.Arg(1), lattice.CompactLatticeCodec,
		func(key string, lat lattice.Lattice) (lattice.CompactLattice, error) {
			lat.Scale([2][2]float64{{1, 0}, {0, acwt}})
			if err := lat.TopSort(); err != nil {
				return lattice.CompactLattice{}, fmt.Errorf("lattice %s in %s: Could not topologically sort lattice: this probably means it has bad properties e.g. epsilon cycles.", key, ctx.Arg(0))
			}
			clat, reached, err := lattice.DeterminizePrunedReport(&lat, beam, d)
			if err != nil {
				return lattice.CompactLattice{}, fmt.Errorf("lattice %s in %s: %w", key, ctx.Arg(0), err)
			}
			if !reached {
				ctx.Warn("For key %s, determinization did not succeed(partial output will be pruned tighter than the specified beam.)", key)
				warned++
			}
			clat.Connect()
			if len(clat.States) == 0 {
				ctx.Warn("For key %s, determinized and trimmed lattice was empty.", key)
				warned++
			}
			if minimize {
				if err := clat.MergeEquivalentStates(); err != nil {
					return lattice.CompactLattice{}, fmt.Errorf("lattice %s in %s: %w", key, ctx.Arg(0), err)
				}
			}
			clat.Scale([2][2]float64{{1, 0}, {0, 1 / acwt}})
			return *clat, nil
		})
	if err != nil {
		return err
	}
	ctx.Log("Done %d lattices, determinization finished earlier than specified by the beam (or output was empty) on %d of these.", done, warned)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
