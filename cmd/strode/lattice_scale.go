package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-scale",
		Summary:     "Scale the acoustic and graph (LM) costs of lattices",
		Description: "Apply scaling to lattice weights\n(the acoustic cost is multiplied by --acoustic-scale, or divided by --inv-acoustic-scale;\nthe graph cost by --lm-scale; --acoustic2lm-scale and --lm2acoustic-scale mix the two)",
		ArgsUsage:   "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-scale --lm-scale=0.0 ark:1.lats ark:scaled.lats"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultScaleOptions()
			o.Register(fs)
			writeCompact := true
			fs.BoolVar(&writeCompact, "write-compact", writeCompact, "If true, write in normal (compact) form.")
			return func(ctx *kaldicmd.Context) error {
				if err := o.Validate(); err != nil {
					return err
				}
				scale := o.Matrix()
				return copyLattices(ctx, writeCompact, func(c *lattice.CompactLattice) { c.Scale(scale) })
			}
		},
	})
}

// copyLattices streams lattices from argument 0 to argument 1, applying edit
// to each; it writes CompactLattices, or expanded Lattices when compact is
// false.
func copyLattices(ctx *kaldicmd.Context, compact bool, edit func(*lattice.CompactLattice)) error {
	src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer src.Close()
	var cw *kaldiio.TableWriter[lattice.CompactLattice]
	var lw *kaldiio.TableWriter[lattice.Lattice]
	if compact {
		cw, err = kaldiio.OpenTableWriter(ctx.Arg(1), lattice.CompactLatticeCodec, tableStreams(ctx)...)
	} else {
		lw, err = kaldiio.OpenTableWriter(ctx.Arg(1), lattice.LatticeCodec, tableStreams(ctx)...)
	}
	if err != nil {
		return err
	}
	n := 0
	for src.Next() {
		clat := src.Value()
		if edit != nil {
			edit(&clat)
		}
		if compact {
			err = cw.Write(src.Key(), clat)
		} else {
			err = lw.Write(src.Key(), *clat.ToLattice())
		}
		if err != nil {
			break
		}
		n++
	}
	if err == nil {
		err = src.Err()
	}
	if compact {
		if err != nil {
			cw.Abort()
			return err
		}
		err = cw.Close()
	} else {
		if err != nil {
			lw.Abort()
			return err
		}
		err = lw.Close()
	}
	if err != nil {
		return err
	}
	ctx.Log("Done %d lattices.", n)
	if n == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
