package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// Kaldi's GMM model tools, as far as using a GMM system's model with
// strode's decoder needs them.
func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-compute-likes",
		Summary:     "Compute log-likelihoods from a GMM-based model",
		Description: "Compute log-likelihoods from GMM-based model\n(outputs matrices of log-likelihoods indexed by (frame, pdf)",
		ArgsUsage:   "<model-in> <features-rspecifier> <likes-wspecifier>",
		Examples:    []string{"strode gmm-compute-likes final.mdl scp:feats.scp ark:- | strode latgen-faster-mapped final.mdl HCLG.fst ark:- ark:lat.1"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				done, err := computeLikes(ctx, &m.AM, ctx.Arg(1), ctx.Arg(2))
				ctx.Log("gmm-compute-likes: computed likelihoods for %d utterances.", done)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "gmm-info",
		Summary:     "Write basic information about a GMM-based model",
		Description: "Write to standard output various properties of GMM-based model",
		ArgsUsage:   "<model-in>",
		Examples:    []string{"strode gmm-info 1.mdl"},
		MinArgs:     1,
		MaxArgs:     1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := m.PrintInfo(ctx.Stdout); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "gmm-copy",
		Summary:     "Copy a GMM-based model (and possibly change binary/text format)",
		Description: "Copy GMM based model (and possibly change binary/text format)",
		ArgsUsage:   "<model-in> <model-out>",
		Examples:    []string{"strode gmm-copy --binary=false 1.mdl 1_txt.mdl"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			copyAM := fs.Bool("copy-am", true, "Copy the acoustic model (AmDiagGmm object)")
			copyTM := fs.Bool("copy-tm", true, "Copy the transition model")
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				err = kaldiio.WriteObject(ctx.Arg(1), gmmCopyCodec{am: *copyAM, tm: *copyTM}, *binary, m, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Written model to %s", ctx.Arg(1))
				return nil
			}
		},
	})
}

// computeLikes writes, for every utterance of the features, the
// frames × pdfs matrix of GMM log-likelihoods.
func computeLikes(ctx *kaldicmd.Context, am *gmm.AmDiagGmm, rspec, wspec string) (int, error) {
	sr, err := kaldiio.OpenSequentialReader(rspec, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspec, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return 0, err
	}
	done := 0
	var out kaldiio.Matrix
	for sr.Next() {
		feats := sr.Value()
		if err := am.LogLikelihoods(&feats, &out); err != nil {
			tw.Close()
			return done, fmt.Errorf("utterance %s: %w", sr.Key(), err)
		}
		if err := tw.Write(sr.Key(), out); err != nil {
			tw.Close()
			return done, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		tw.Close()
		return done, err
	}
	return done, tw.Close()
}

// gmmCopyCodec writes what gmm-copy's --copy-tm and --copy-am select, in
// that order (both false leaves just the binary header, as in Kaldi).
type gmmCopyCodec struct{ am, tm bool }

func (gmmCopyCodec) Read(r *kaldiio.Reader, binary bool, m *gmm.Model) error {
	return gmm.ModelCodec.Read(r, binary, m)
}

func (c gmmCopyCodec) Write(w *kaldiio.Writer, binary bool, m *gmm.Model) error {
	if c.tm {
		if err := hmm.TransitionModelCodec.Write(w, binary, &m.Trans); err != nil {
			return err
		}
	}
	if c.am {
		return gmm.AmDiagGmmCodec.Write(w, binary, &m.AM)
	}
	return nil
}
