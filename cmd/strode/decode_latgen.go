package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "latgen-faster-mapped",
		Summary: "Generate lattices from log-likelihood matrices (pdf columns) and a decoding graph",
		Description: "Generate lattices, reading log-likelihoods as matrices\n" +
			" (model is needed only for the integer mappings in its transition-model)",
		ArgsUsage: "<trans-model-in> <fst-in> <loglikes-rspecifier> <lattice-wspecifier> [ <words-wspecifier> [<alignments-wspecifier>] ]",
		Examples:  []string{"strode latgen-faster-mapped --acoustic-scale=0.1 --word-symbol-table=words.txt final.mdl HCLG.fst ark:loglikes.ark 'ark:|gzip -c > lat.1.gz'"},
		MinArgs:   4,
		MaxArgs:   6,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			f := registerLatgenFlags(fs)
			return func(ctx *kaldicmd.Context) error {
				return latgen(ctx, f.opts, float32(f.acwt), f.wordSyms, f.allowPartial, nil)
			}
		},
	})
}

// decodingSetup is what both mapped decoders read first: the transition
// model, the graph and the word symbols.
type decodingSetup struct {
	tidToPdf []int32
	numPdfs  int
	graph    *search.Graph
	words    *fst.SymbolTable
}

func loadDecoding(mdl, fstRx, wordSyms string) (*decodingSetup, error) {
	if strings.Contains(fstRx, ":") && !strings.HasSuffix(strings.TrimSpace(fstRx), "|") {
		return nil, fmt.Errorf("a table of per-utterance FSTs (%s) is not supported; give one decoding graph", fstRx)
	}
	tm, err := hmm.ReadTransitionModel(mdl)
	if err != nil {
		return nil, err
	}
	f, err := fst.ReadFile(fstRx)
	if err != nil {
		return nil, err
	}
	g, err := search.NewGraph(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fstRx, err)
	}
	if int(g.MaxInputLabel()) > tm.NumTransitionIDs() {
		return nil, fmt.Errorf("the decoding graph %s has transition-id %d but the model %s has only %d: graph and model do not belong together", fstRx, g.MaxInputLabel(), mdl, tm.NumTransitionIDs())
	}
	s := &decodingSetup{tidToPdf: tm.TransitionIDToPdfArray(), numPdfs: tm.NumPdfs(), graph: g}
	if wordSyms != "" {
		if s.words, err = fst.ReadSymbolTableFile(wordSyms); err != nil {
			return nil, fmt.Errorf("Could not read symbol table from file %s: %w", wordSyms, err)
		}
	}
	return s, nil
}

// printWords writes "utt w1 w2 " to stderr as Kaldi's decoders do with
// --word-symbol-table.
func (s *decodingSetup) printWords(ctx *kaldicmd.Context, utt string, words []int32) error {
	if s.words == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString(utt + " ")
	for _, w := range words {
		sym, ok := s.words.Symbol(int64(w))
		if !ok {
			return fmt.Errorf("Word-id %d not in symbol table.", w)
		}
		b.WriteString(sym + " ")
	}
	fmt.Fprintln(ctx.Stderr, b.String())
	return nil
}

// latgen is latgen-faster-mapped, and gmm-latgen-faster with toLoglikes

// latgenFlags are the options latgen-faster-mapped and gmm-latgen-faster
// share: the search's, the acoustic scale, the word symbol table and
// --allow-partial, with Kaldi's defaults.
type latgenFlags struct {
	opts         search.Options
	acwt         float64
	wordSyms     string
	allowPartial bool
}

func registerLatgenFlags(fs *flag.FlagSet) *latgenFlags {
	f := &latgenFlags{opts: search.DefaultOptions(), acwt: 0.1}
	f.opts.Register(fs)
	fs.Float64Var(&f.acwt, "acoustic-scale", f.acwt, "Scaling factor for acoustic likelihoods")
	fs.StringVar(&f.wordSyms, "word-symbol-table", "", "Symbol table for words [for debug output]")
	fs.BoolVar(&f.allowPartial, "allow-partial", f.allowPartial, "If true, produce output even if end state was not reached.")
	return f
}

// (argument 2 is then features).
func latgen(ctx *kaldicmd.Context, opts search.Options, acwt float32, wordSyms string, allowPartial bool, toLoglikes func(string, kaldiio.Matrix) (kaldiio.Matrix, error)) error {
	setup, err := loadDecoding(ctx.Arg(0), ctx.Arg(1), wordSyms)
	if err != nil {
		return err
	}
	var clats *optionalWriter[lattice.CompactLattice]
	var lats *optionalWriter[lattice.Lattice]
	dec := search.NewLatticeDecoder(setup.graph, opts)
	md := &mappedDecoding{
		setup: setup, acwt: acwt,
		loglikes: ctx.Arg(2), words: ctx.Arg(4), alignments: ctx.Arg(5),
		timeLabel: "Time taken", toLoglikes: toLoglikes,
		openMore: func() (err error) {
			if opts.DeterminizeLattice {
				clats, err = openOptionalWriter(ctx, ctx.Arg(3), lattice.CompactLatticeCodec)
			} else {
				lats, err = openOptionalWriter(ctx, ctx.Arg(3), lattice.LatticeCodec)
			}
			if err != nil {
				return fmt.Errorf("Could not open table for writing lattices: %s: %w", ctx.Arg(3), err)
			}
			return nil
		},
		closeMore: func() error {
			if clats != nil {
				return clats.Close()
			}
			return lats.Close()
		},
		decode: func(utt string, d *search.MatrixMapped) (mappedResult, bool, error) {
			res, err := dec.DecodeUtterance(d, acwt, allowPartial, ctx.Warn)
			switch {
			case errors.Is(err, search.ErrNoTokens):
				ctx.Warn("Failed to decode file %s", utt)
				return mappedResult{}, false, nil
			case errors.Is(err, search.ErrNotFinal):
				ctx.Warn("Not producing output for utterance %s since no final-state reached and --allow-partial=false.", utt)
				return mappedResult{}, false, nil
			case err != nil:
				return mappedResult{}, false, fmt.Errorf("utterance %s: %w", utt, err)
			}
			if res.Partial {
				ctx.Warn("Outputting partial output for utterance %s since no final-state reached", utt)
			}
			if res.Compact != nil {
				err = clats.Write(utt, *res.Compact)
			} else {
				err = lats.Write(utt, *res.Raw)
			}
			if err != nil {
				return mappedResult{}, false, err
			}
			return mappedResult{words: res.Words, alignment: res.Alignment, like: res.LogLike(), frames: len(res.Alignment), cost: &res.BestWeight}, true, nil
		},
	}
	return md.run(ctx)
}
