package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "align-mapped",
		Summary: "Generate alignments from transcripts and log-likelihood matrices",
		Description: "Generate alignments, reading log-likelihoods as matrices, compiling the\n" +
			"training graph of each utterance from its transcript on the fly.",
		ArgsUsage: "<tree-in> <trans-model-in> <lexicon-fst-in> <feature-rspecifier> <transcriptions-rspecifier> <alignments-wspecifier> [<scores-wspecifier>]",
		Examples: []string{
			"strode align-mapped --beam=10 --retry-beam=40 --acoustic-scale=0.1 --self-loop-scale=0.1 --read-disambig-syms=disambig.int tree final.mdl L.fst ark:loglikes.ark ark:train.tra ark:1.ali",
		},
		MinArgs: 6,
		MaxArgs: 7,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			// As Kaldi's align-mapped: the transition probabilities go into
			// the graph (TrainingGraphCompilerOptions, defaults 1.0 / 1.0),
			// not added again at alignment time.
			opt := align.DefaultOptions()
			fs.Float64Var(&opt.Beam, "beam", opt.Beam, "Decoding beam")
			fs.Float64Var(&opt.RetryBeam, "retry-beam", opt.RetryBeam, "Decoding beam for second try at alignment")
			fs.Float64Var(&opt.AcousticScale, "acoustic-scale", opt.AcousticScale, "Scaling factor for acoustic likelihoods")
			gopt := align.TrainingGraphOptions{TransitionScale: 1, SelfLoopScale: 1, Reorder: true}
			gopt.Register(fs)
			disambigRx := fs.String("read-disambig-syms", "", "File containing list of disambiguation symbols in phone symbol table")
			fs.BoolVar(&opt.Careful, "careful", false, "If true, do 'careful' alignment, which is better at detecting alignment failure (involves loop to start of decoding graph). (An option of Kaldi's gmm-align-compiled, offered here too.)")
			return func(ctx *kaldicmd.Context) error {
				comp, tm, err := openGraphCompiler(ctx, *disambigRx, gopt)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				opt.TransitionScale, opt.SelfLoopScale = 0, 0 // already in the graph
				al, err := align.NewAligner(tm, opt)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				tra, err := kaldiio.OpenRandomAccessReader(ctx.Arg(4), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer tra.Close()
				return runAlignment(ctx, al, opt, ctx.Arg(3), ctx.Arg(5), ctx.Arg(6), func(key string) (*fst.VectorFst, error) {
					ok, err := tra.HasKey(key)
					if err != nil {
						return nil, err
					}
					if !ok {
						return nil, errNoInput
					}
					words, err := tra.Value(key)
					if err != nil {
						return nil, err
					}
					return comp.CompileText(words)
				}, "No transcript found for utterance %s", "transcripts")
			}
		},
	})
}
