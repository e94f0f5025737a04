package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-align-words",
		Summary:     "Cut lattice arcs at word boundaries, using word_boundary.int (word-position phones)",
		Description: "Convert lattices so that the arcs in the CompactLattice format correspond with\nwords (i.e. aligned with word boundaries).\nNote: word-boundary file has format (on each line):\n<integer-phone-id> [begin|end|singleton|internal|nonword]",
		ArgsUsage:   "<word-boundary-file> <model> <lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-align-words --silence-label=4320 --partial-word-label=4324 data/lang/phones/word_boundary.int final.mdl ark:1.lats ark:aligned.lats"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultWordAlignOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				in, err := kaldiio.OpenInput(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				info, err := lattice.ReadWordBoundary(in.Reader(), ctx.Arg(0))
				in.Close()
				if err != nil {
					return err
				}
				o.Apply(info)
				tm, err := readModelTM(ctx, ctx.Arg(1))
				if err != nil {
					return err
				}
				return alignLattices(ctx, 2, o.Test, o.OutputErrorLats, false, []int32{info.SilenceLabel, info.PartialWordLabel}, func(c *lattice.CompactLattice) (*lattice.CompactLattice, bool) {
					return lattice.AlignWords(c, tm, info)
				})
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "lattice-align-words-lexicon",
		Summary:     "Cut lattice arcs at word boundaries, using align_lexicon.int (any phone set)",
		Description: "Convert lattices so that the arcs in the CompactLattice format correspond with\nwords (i.e. aligned with word boundaries).  This is the newest form, that\nreads in a lexicon in integer format, where each line is (integer id of)\n word-in word-out phone1 phone2 ... phoneN\n(note: word-in is word before alignment, word-out is after, e.g. for replacing\n<eps> with SIL or vice versa)\nSee also: lattice-align-words, which is only applicable if your phones have word-position\nmarkers, i.e. each phone comes in 5 versions like AA_B, AA_I, AA_W, AA_S, AA.",
		ArgsUsage:   "<lexicon-file> <model> <lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-align-words-lexicon --partial-word-label=4324 --test true data/lang/phones/align_lexicon.int final.mdl ark:1.lats ark:aligned.lats"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultWordAlignLexiconOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				in, err := kaldiio.OpenInput(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				lex, err := lattice.ReadAlignLexicon(in.Reader(), ctx.Arg(0))
				in.Close()
				if err != nil {
					return fmt.Errorf("Error reading alignment lexicon from %s: %w", ctx.Arg(0), err)
				}
				o.Apply(lex)
				tm, err := readModelTM(ctx, ctx.Arg(1))
				if err != nil {
					return err
				}
				return alignLattices(ctx, 2, o.Test, o.OutputErrorLats, o.OutputIfEmpty, []int32{lex.PartialWordLabel}, func(c *lattice.CompactLattice) (*lattice.CompactLattice, bool) {
					return lattice.AlignWordsLexicon(c, tm, lex)
				})
			}
		},
	})
}

// alignLattices runs a word aligner over the lattices of argument first,
// writing to argument first+1 with Kaldi's rules: a lattice that aligned
// with errors is written as far as it aligned (--output-error-lats), or
// passed through when nothing aligned and outputIfEmpty; the exit status is
// 0 when more lattices aligned than failed. With test, every aligned
// lattice is checked to hold the same word sequences as its input, each
// with the same transition-ids and cost along its best path.
func alignLattices(ctx *kaldicmd.Context, first int, test, outputIfError, outputIfEmpty bool, extraLabels []int32, align func(*lattice.CompactLattice) (*lattice.CompactLattice, bool)) error {
	src, err := kaldiio.OpenSequentialReader(ctx.Arg(first), lattice.CompactLatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer src.Close()
	out, err := kaldiio.OpenTableWriter(ctx.Arg(first+1), lattice.CompactLatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer out.Abort()
	done, failed := 0, 0
	for src.Next() {
		key, clat := src.Key(), src.Value()
		aligned, ok := align(&clat)
		if ok && test {
			if err := checkAligned(&clat, aligned, extraLabels); err != nil {
				ctx.Warn("Lattice for %s failed test (activated because --test=true): %v", key, err)
				ok = false
			}
		}
		switch {
		case !ok:
			failed++
			hasStart := aligned.Start >= 0 && len(aligned.States) > 0
			switch {
			case outputIfEmpty && !hasStart && len(clat.States) > 0:
				ctx.Warn("Algorithm produced no output, so passing input through as output, for key %s", key)
				err = out.Write(key, clat)
			case !outputIfError:
				ctx.Warn("Lattice for %s did not align correctly", key)
			case hasStart:
				ctx.Warn("Outputting partial lattice for %s", key)
				err = out.Write(key, *aligned)
			default:
				ctx.Warn("Empty aligned lattice for %s, producing no output.", key)
			}
		case aligned.Start < 0 || len(aligned.States) == 0:
			failed++
			ctx.Warn("Lattice was empty for key %s", key)
		default:
			done++
			err = out.Write(key, *aligned)
		}
		if err != nil {
			return err
		}
	}
	if err := src.Err(); err != nil {
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	ctx.Log("Successfully aligned %d lattices; %d had errors.", done, failed)
	if done <= failed {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}

// checkAligned compares the best paths of a lattice and its word-aligned
// form: the same words (less the labels the aligner adds for silence and
// partial words), transition-ids and costs (to float rounding).
func checkAligned(in, aligned *lattice.CompactLattice, extraLabels []int32) error {
	b1, err := in.ShortestPath()
	if err != nil {
		return err
	}
	b2, err := aligned.ShortestPath()
	if err != nil {
		return fmt.Errorf("aligned lattice: %w", err)
	}
	a1, w1, c1, _ := b1.LinearSequence()
	a2, w2all, c2, _ := b2.LinearSequence()
	var w2 []int32
	for _, w := range w2all {
		if !slices.Contains(extraLabels, w) {
			w2 = append(w2, w)
		}
	}
	if fmt.Sprint(a1) != fmt.Sprint(a2) || fmt.Sprint(w1) != fmt.Sprint(w2) {
		return fmt.Errorf("best paths differ")
	}
	if d := float64(c1.Cost() - c2.Cost()); d > 1e-2*max(1, float64(c1.Cost())) || d < -1e-2*max(1, float64(c1.Cost())) {
		return fmt.Errorf("best path costs differ: %v vs %v", c1.Cost(), c2.Cost())
	}
	return nil
}
