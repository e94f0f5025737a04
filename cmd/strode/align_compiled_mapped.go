package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "align-compiled-mapped",
		Summary: "Generate alignments from training graphs and log-likelihood matrices",
		Description: "Generate alignments, reading log-likelihoods as matrices.\n" +
			" (model is needed only for the integer mappings in its transition-model)\n" +
			"Kaldi's align scripts use --beam=10 --retry-beam=40 --acoustic-scale=0.1 --self-loop-scale=0.1.",
		ArgsUsage: "<trans-model-in> <graphs-rspecifier> <loglikes-rspecifier> <alignments-wspecifier> [<scores-wspecifier>]",
		Examples: []string{
			"strode align-compiled-mapped --beam=10 --retry-beam=40 --acoustic-scale=0.1 --self-loop-scale=0.1 final.mdl ark:graphs.fsts ark:loglikes.ark ark:1.ali",
		},
		MinArgs: 4,
		MaxArgs: 5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := align.DefaultOptions()
			opt.Register(fs)
			_ = fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				if opt.RetryBeam != 0 && opt.RetryBeam <= opt.Beam {
					ctx.Warn("Beams do not make sense: beam %g, retry-beam %g", opt.Beam, opt.RetryBeam)
				}
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				al, err := align.NewAligner(tm, opt)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				graphs, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), fst.Codec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer graphs.Close()
				return runAlignment(ctx, al, opt, ctx.Arg(2), ctx.Arg(3), ctx.Arg(4), graphLookup(graphs), "No fst for utterance %s", "loglikes")
			}
		},
	})
}

var errNoInput = errors.New("no input for utterance")

// graphLookup finds an utterance's training graph in a table (errNoInput
// when it has none).
func graphLookup(graphs *kaldiio.RandomAccessReader[fst.VectorFst]) func(key string) (*fst.VectorFst, error) {
	return func(key string) (*fst.VectorFst, error) {
		ok, err := graphs.HasKey(key)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errNoInput
		}
		g, err := graphs.Value(key)
		return &g, err
	}
}

// runAlignment is the loop of align-compiled-mapped and align-mapped: for
// each log-likelihood matrix, get the utterance's graph, align, write the
// alignment (and score), and count successes and failures as Kaldi does.
func runAlignment(ctx *kaldicmd.Context, al *align.Aligner, opt align.Options, loglikesRspec, aliWspec, scoresWspec string,
	graphOf func(key string) (*fst.VectorFst, error), noInputMsg, noInputWhat string) error {
	sr, err := kaldiio.OpenSequentialReader(loglikesRspec, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return kaldicmd.Exit(decoderFailure, err)
	}
	defer sr.Close()
	sr.SetReuse(true)
	return alignAll(ctx, al, opt, sr, loglikesRspec, aliWspec, scoresWspec, graphOf, noInputMsg, noInputWhat)
}

// matrixSeq is a sequence of keyed matrices: a table reader, or features
// turned into log-likelihoods on the way (gmm-align-compiled).
type matrixSeq interface {
	Next() bool
	Key() string
	Value() kaldiio.Matrix
	Err() error
}

// alignAll aligns every utterance of sr (log-likelihoods) through its graph.
// noInputWhat names what a "could not find" count lacks in the closing
// line (align-compiled-mapped's); empty, the closing line is
// gmm-align-compiled's "Done N, errors on M" with both kinds of failure in M.
func alignAll(ctx *kaldicmd.Context, al *align.Aligner, opt align.Options, sr matrixSeq, loglikesRspec, aliWspec, scoresWspec string,
	graphOf func(key string) (*fst.VectorFst, error), noInputMsg, noInputWhat string) error {
	aw, err := kaldiio.OpenTableWriter(aliWspec, kaldiio.IntVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return kaldicmd.Exit(decoderFailure, err)
	}
	var sw *kaldiio.TableWriter[float32]
	if scoresWspec != "" {
		if sw, err = kaldiio.OpenTableWriter(scoresWspec, kaldiio.FloatCodec, tableStreams(ctx)...); err != nil {
			aw.Abort()
			return kaldicmd.Exit(decoderFailure, err)
		}
	}
	abort := func(err error) error {
		aw.Abort()
		if sw != nil {
			sw.Abort()
		}
		return kaldicmd.Exit(decoderFailure, err)
	}
	numSuccess, numNoInput, numOther, numRetried := 0, 0, 0, 0
	totLike, frames := 0.0, 0
	rep := utteranceProgress(ctx, "aligning", loglikesRspec)
	defer rep.Finish()
	for sr.Next() {
		rep.Add(1)
		key := sr.Key()
		ll := sr.Value()
		g, err := graphOf(key)
		if errors.Is(err, errNoInput) {
			numNoInput++
			ctx.Warn(noInputMsg, key)
			continue
		}
		if err != nil {
			numOther++
			ctx.Warn("%s: %v", key, err)
			continue
		}
		ali, err := al.Align(g, ll.Data, ll.Rows, ll.Cols)
		switch {
		case errors.Is(err, align.ErrZeroLength):
			ctx.Warn("Zero-length utterance: %s", key)
			numOther++
			continue
		case errors.Is(err, align.ErrEmptyGraph):
			ctx.Warn("Empty decoding graph for %s", key)
			numOther++
			continue
		case errors.Is(err, align.ErrAlignFailed):
			if opt.RetryBeam != 0 {
				numRetried++
				ctx.Warn("Retrying utterance %s with beam %g", key, opt.RetryBeam)
			}
			ctx.Warn("Did not successfully decode file %s, len = %d", key, ll.Rows)
			numOther++
			continue
		case err != nil:
			ctx.Warn("Utterance %s: %v", key, err)
			numOther++
			continue
		}
		if ali.Retried {
			numRetried++
			ctx.Warn("Retrying utterance %s with beam %g", key, opt.RetryBeam)
		}
		like := ali.LogLike(opt.AcousticScale)
		totLike += like
		frames += ll.Rows
		if err := aw.Write(key, ali.TransitionIDs); err != nil {
			return abort(err)
		}
		if sw != nil {
			if err := sw.Write(key, float32(-(ali.GraphCost + ali.AcousticCost))); err != nil {
				return abort(err)
			}
		}
		numSuccess++
		if numSuccess%50 == 0 {
			ctx.Log("Processed %d utterances, log-like per frame for %s is %s over %d frames.", numSuccess, key, hmm.FormatG6(like/float64(ll.Rows)), ll.Rows)
		}
	}
	rep.Finish()
	if err := sr.Err(); err != nil {
		return abort(err)
	}
	if err := aw.Close(); err != nil {
		return kaldicmd.Exit(decoderFailure, err)
	}
	if sw != nil {
		if err := sw.Close(); err != nil {
			return kaldicmd.Exit(decoderFailure, err)
		}
	}
	// Inputs a permissive read skipped (each with its WARNING) count as
	// errors, so that the loss shows in the closing line.
	if sk, ok := sr.(interface{ Skipped() int }); ok {
		numOther += sk.Skipped()
	}
	perFrame := 0.0
	if frames > 0 {
		perFrame = totLike / float64(frames)
	}
	ctx.Log("Overall log-likelihood per frame is %s over %d frames.", hmm.FormatG6(perFrame), frames)
	ctx.Log("Retried %d out of %d utterances.", numRetried, numSuccess+numOther)
	if noInputWhat == "" {
		ctx.Log("Done %d, errors on %d", numSuccess, numNoInput+numOther)
	} else {
		ctx.Log("Done %d, could not find %s for %d, other errors on %d", numSuccess, noInputWhat, numNoInput, numOther)
	}
	if numSuccess == 0 {
		return kaldicmd.Exit(1, fmt.Errorf("no utterances aligned"))
	}
	return nil
}
