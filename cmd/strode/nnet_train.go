package main

import (
	"flag"
	"os"
	"runtime/debug"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/acoustic/trainer"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "train",
		Summary: "Train an SRU, SRU+STRODE, ODE-RNN or DNN acoustic model on features and frame alignments",
		Description: "Trains an acoustic model (DESIGN.md §3) with frame cross-entropy: --model=sru is the SRU encoder\n" +
			"with an affine output, --model=strode adds the regenerative STRODE postdictive head; the paper's\n" +
			"baselines are --model=odernn (SRU encoder, ODE-RNN layer, SRU decoder) and --model=dnn (nnet1's\n" +
			"feed-forward network on spliced features; acoustic/am/BASELINES.md). Features come\n" +
			"from any rspecifier, with CMVN and splicing applied on the fly (stored in the model, so forward\n" +
			"applies the same); targets are pdf-ids, or transition-ids with --transition-model.\n" +
			"A held-out set (--cv-feats, or --cv-fraction of the speakers) gives per-epoch CE and frame accuracy;\n" +
			"Adam with early stopping, or --newbob as nnet1; a checkpoint after every epoch (--checkpoint),\n" +
			"--resume continues bit for bit. --preset=paper|small sets the sizes; explicit options override it.\n" +
			"--causal trains for online decoding (online2-wav-latgen-faster): one direction, left splicing only, no\n" +
			"whole-utterance or per-speaker CMVN (train on apply-cmvn-online features); the options that would look\n" +
			"ahead are refused. Its look-ahead is 0 frames: an algorithmic latency of one 25 ms analysis window (10 ms\n" +
			"shift), unless asked for by name: --target-delay=N adds N frames, --head-variant=lookahead a learned\n" +
			"per-frame look-ahead of up to --max-lookahead frames. The sizes still come from --preset, which causality\n" +
			"does not change.",
		ArgsUsage: "<feature-rspecifier> <targets-rspecifier> <model-out>",
		Examples: []string{
			"strode train --preset=small --model=strode --transition-model=exp/mono/final.mdl --utt-cmvn=true \\\n" +
				"    --left-context=2 --right-context=2 scp:data/train/feats.scp 'ark:gunzip -c exp/mono_ali/ali.*.gz |' exp/strode/final.am",
			"strode train --preset=small --model=strode --causal --left-context=4 --transition-model=exp/mono/final.mdl \\\n" +
				"    'ark:strode apply-cmvn-online --spk2utt=ark:data/train/spk2utt global_cmvn.stats scp:data/train/feats.scp ark:- |' \\\n" +
				"    'ark:gunzip -c exp/mono_ali/ali.*.gz |' exp/causal/final.am",
		},
		MinArgs: 3, MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			preset := "paper"
			fs.StringVar(&preset, "preset", preset, "model sizes: paper (9x900 SRU, ODE state 128; odernn 9+9 x 1100; dnn 6 x 2048) or small (4x256; odernn 2+2 x 256; dnn 3 x 512; for CPUs)")
			causal := false
			fs.BoolVar(&causal, "causal", causal, kaldinnet.CausalUsage)
			s := kaldinnet.TrainSetup{ValidFraction: 0.1, Data: kaldinnet.DefaultOptions(), Train: trainer.DefaultTrainOptions()}
			s.Model, _ = am.Preset("paper")
			s.Register(fs)
			s.Data.Register(fs)
			s.Model.Register(fs)
			s.Train.Register(fs)
			s.Teacher.Register(fs)
			s.Sequence = trainer.DefaultSequenceOptions()
			s.Sequence.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				mo, err := presetWithOverrides(fs, preset)
				if err != nil {
					return err
				}
				s.Model = mo
				if preset == "paper" {
					trainingGC()
					if !flagSet(fs, "graph-cache-capacity") {
						// A paper-size step takes seconds and a graph about a
						// GB: a cached graph saves no time worth its memory.
						s.Train.GraphCache = 1
					}
				}
				if causal {
					look, err := s.CheckCausal()
					if err != nil {
						return kaldicmd.Exit(1, err)
					}
					switch {
					case s.Model.HeadVariant == am.HeadLookahead && s.Model.Kind == am.KindSTRODE:
						ctx.Log("causal model with a learned look-ahead: frame i's output waits for ceil(min(t~_i, %d)) frames (10 ms each) beyond one analysis window; strode forward --lookahead-stats reports it", s.Model.MaxLookahead)
					case look > 0:
						ctx.Log("causal model: look-ahead %d frames (--target-delay), algorithmic latency %d ms at Kaldi's 25 ms window, 10 ms shift", look, 25+10*look)
					default:
						ctx.Log("causal model: look-ahead 0 frames, algorithmic latency one analysis window (25 ms at Kaldi's 25 ms window, 10 ms shift)")
					}
				}
				s.Feats, s.Targets = ctx.Arg(0), ctx.Arg(1)
				_, err = kaldinnet.Train(s, ctx.Arg(2), ctx.Log, ctx.Stderr)
				return err
			}
		},
	})
}

// presetWithOverrides is the preset's options for the --model kind
// (am.PresetFor) with every model option given explicitly on the command
// line (or in --config) applied on top.
func presetWithOverrides(fs *flag.FlagSet, preset string) (am.Options, error) {
	kind := am.KindSTRODE
	if f := fs.Lookup("model"); f != nil {
		kind = f.Value.String()
	}
	o, err := am.PresetFor(preset, kind)
	if err != nil {
		return o, err
	}
	tmp := flag.NewFlagSet("preset", flag.ContinueOnError)
	o.Register(tmp)
	fs.Visit(func(f *flag.Flag) {
		if err == nil && tmp.Lookup(f.Name) != nil {
			err = tmp.Set(f.Name, f.Value.String())
		}
	})
	return o, err
}

// trainingGC lowers the garbage collector's target for a training process of
// the paper's sizes (GOGC=20 unless the environment sets GOGC). Its heap is
// then gigabytes of minibatch-graph buffers that live as long as the
// process, and the default GOGC=100 — a collection only once the heap has
// doubled since the last — lets it reach twice the live data. One
// paper-preset epoch on kaldi-mini (40 fbank ± 4, one core) peaked at 9.52 GB
// at the default and 7.30 GB at 20 with four cached graphs, 4.73 and 3.41 GB
// with one, at the same speed. Small models are left at the default: their
// heaps are small next to the garbage of the float64 graph nodes, and at 20
// the Kaldi recipe's quick test ran 10 % slower (57.6 / 59.8 s against 52.9 /
// 53.7 s).
func trainingGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(20)
	}
}
