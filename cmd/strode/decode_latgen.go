package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/strode-asr/strode/decoder"
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
			opts := search.DefaultOptions()
			opts.Register(fs)
			acwt := 0.1
			var wordSyms string
			allowPartial := false
			fs.Float64Var(&acwt, "acoustic-scale", acwt, "Scaling factor for acoustic likelihoods")
			fs.StringVar(&wordSyms, "word-symbol-table", "", "Symbol table for words [for debug output]")
			fs.BoolVar(&allowPartial, "allow-partial", allowPartial, "If true, produce output even if end state was not reached.")
			return func(ctx *kaldicmd.Context) error {
				return latgen(ctx, opts, float32(acwt), wordSyms, allowPartial)
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
	words    *decoder.SymbolTable
}

func loadDecoding(mdl, fst, wordSyms string) (*decodingSetup, error) {
	if strings.Contains(fst, ":") && !strings.HasSuffix(strings.TrimSpace(fst), "|") {
		return nil, fmt.Errorf("a table of per-utterance FSTs (%s) is not supported; give one decoding graph", fst)
	}
	tm, err := decoder.ReadTransitionModel(mdl)
	if err != nil {
		return nil, err
	}
	f, err := decoder.ReadFstFile(fst)
	if err != nil {
		return nil, err
	}
	g, err := search.NewGraph(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fst, err)
	}
	if int(g.MaxInputLabel()) > tm.NumTransitionIDs() {
		return nil, fmt.Errorf("the decoding graph %s has transition-id %d but the model %s has only %d: graph and model do not belong together", fst, g.MaxInputLabel(), mdl, tm.NumTransitionIDs())
	}
	s := &decodingSetup{tidToPdf: tm.TransitionIDToPdfArray(), numPdfs: tm.NumPdfs(), graph: g}
	if wordSyms != "" {
		if s.words, err = decoder.ReadSymbolTableFile(wordSyms); err != nil {
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

func latgen(ctx *kaldicmd.Context, opts search.Options, acwt float32, wordSyms string, allowPartial bool) error {
	setup, err := loadDecoding(ctx.Arg(0), ctx.Arg(1), wordSyms)
	if err != nil {
		return err
	}
	loglikes, err := kaldiio.OpenSequentialReader(ctx.Arg(2), kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer loglikes.Close()
	loglikes.SetReuse(true)
	var clats *optionalWriter[lattice.CompactLattice]
	var lats *optionalWriter[lattice.Lattice]
	if opts.DeterminizeLattice {
		clats, err = openOptionalWriter(ctx, ctx.Arg(3), lattice.CompactLatticeCodec)
	} else {
		lats, err = openOptionalWriter(ctx, ctx.Arg(3), lattice.LatticeCodec)
	}
	if err != nil {
		return fmt.Errorf("Could not open table for writing lattices: %s: %w", ctx.Arg(3), err)
	}
	words, err := openOptionalWriter(ctx, ctx.Arg(4), kaldiio.IntVectorCodec)
	if err != nil {
		return err
	}
	defer words.Abort()
	alis, err := openOptionalWriter(ctx, ctx.Arg(5), kaldiio.IntVectorCodec)
	if err != nil {
		return err
	}
	defer alis.Abort()
	dec := search.NewLatticeDecoder(setup.graph, opts)
	start := time.Now()
	var totLike float64
	var frames int64
	done, failed := 0, 0
	for loglikes.Next() {
		utt, m := loglikes.Key(), loglikes.Value()
		if m.Rows == 0 {
			ctx.Warn("Zero-length utterance: %s", utt)
			failed++
			continue
		}
		d, err := search.NewMatrixMapped(m.Data, m.Rows, m.Cols, setup.tidToPdf, setup.numPdfs, acwt)
		if err != nil {
			return fmt.Errorf("utterance %s in %s: %w", utt, ctx.Arg(2), err)
		}
		res, err := dec.DecodeUtterance(d, acwt, allowPartial, ctx.Warn)
		switch {
		case errors.Is(err, search.ErrNoTokens):
			ctx.Warn("Failed to decode file %s", utt)
			failed++
			continue
		case errors.Is(err, search.ErrNotFinal):
			ctx.Warn("Not producing output for utterance %s since no final-state reached and --allow-partial=false.", utt)
			failed++
			continue
		case err != nil:
			return fmt.Errorf("utterance %s: %w", utt, err)
		}
		if res.Partial {
			ctx.Warn("Outputting partial output for utterance %s since no final-state reached", utt)
		}
		if err := words.Write(utt, res.Words); err != nil {
			return err
		}
		if err := alis.Write(utt, res.Alignment); err != nil {
			return err
		}
		if err := setup.printWords(ctx, utt, res.Words); err != nil {
			return err
		}
		if res.Compact != nil {
			err = clats.Write(utt, *res.Compact)
		} else {
			err = lats.Write(utt, *res.Raw)
		}
		if err != nil {
			return err
		}
		like := res.LogLike()
		n := len(res.Alignment)
		ctx.Log("Log-like per frame for utterance %s is %s over %d frames.", utt, fmtG(float32(like/float64(n))), n)
		ctx.Vlog(2, "Cost for utterance %s is %s + %s", utt, fmtG(res.BestWeight.Graph), fmtG(res.BestWeight.Acoustic))
		totLike += like
		frames += int64(m.Rows)
		done++
	}
	if err := loglikes.Err(); err != nil {
		return err
	}
	for _, c := range []func() error{words.Close, alis.Close} {
		if err := c(); err != nil {
			return err
		}
	}
	if clats != nil {
		err = clats.Close()
	} else {
		err = lats.Close()
	}
	if err != nil {
		return err
	}
	elapsed := time.Since(start).Seconds()
	ctx.Log("Time taken %ss: real-time factor assuming 100 frames/sec is %s", fmtG(float32(elapsed)), fmtG(float32(elapsed*100/float64(frames))))
	ctx.Log("Done %d utterances, failed for %d", done, failed)
	ctx.Log("Overall log-likelihood per frame is %s over %d frames.", fmtG(float32(totLike/float64(frames))), frames)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
