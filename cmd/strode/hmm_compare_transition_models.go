package main

import (
	"bytes"
	"flag"
	"fmt"
	"reflect"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "compare-transition-models",
		Summary: "Exit 0 when two models have the same transition model (topology, pdfs, probabilities), else 1 and say what differs",
		Description: "Compares the transition models of two model files (final.mdl of a GMM or nnet system, or a bare\n" +
			"transition model) as their text forms (copy-transition-model --binary=false), so the alignments of\n" +
			"one can be used with the graph or priors of the other: their pdf-ids mean the same. Exits 1 when\n" +
			"they differ, naming the first difference (phones, topology, pdfs, transition-states, probabilities)\n" +
			"and printing hmm-info of both, as cmp(1) exits for files.",
		ArgsUsage: "<model-a> <model-b>",
		Examples:  []string{"strode compare-transition-models exp/tri3_ali/final.mdl exp/tri3/final.mdl"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				var tms [2]*hmm.TransitionModel
				var texts [2][]byte
				for i := range tms {
					tm, err := readModelTM(ctx, ctx.Arg(i))
					if err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					var b bytes.Buffer
					w := kaldiio.NewWriter(&b)
					if err := hmm.TransitionModelCodec.Write(w, false, tm); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					if err := w.Flush(); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					tms[i], texts[i] = tm, b.Bytes()
				}
				if bytes.Equal(texts[0], texts[1]) {
					ctx.Log("%s and %s have the same transition model", ctx.Arg(0), ctx.Arg(1))
					return nil
				}
				for i, tm := range tms {
					fmt.Fprintf(ctx.Stdout, "%s: ", ctx.Arg(i))
					var info bytes.Buffer
					if err := tm.PrintInfo(&info); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					fmt.Fprintln(ctx.Stdout, string(bytes.Join(bytes.Fields(info.Bytes()), []byte(" "))))
				}
				return kaldicmd.Exit(1, fmt.Errorf("%s and %s have different transition models: %s", ctx.Arg(0), ctx.Arg(1), transitionDifference(tms[0], tms[1])))
			}
		},
	})
}

// transitionDifference names the first part of two transition models that
// differs, in the order they are written.
func transitionDifference(a, b *hmm.TransitionModel) string {
	switch {
	case !reflect.DeepEqual(a.Phones(), b.Phones()):
		return fmt.Sprintf("different phones (%d and %d)", a.NumPhones(), b.NumPhones())
	case !reflect.DeepEqual(a.Topo, b.Topo):
		return "different HMM topologies"
	case a.NumPdfs() != b.NumPdfs():
		return fmt.Sprintf("%d and %d pdfs", a.NumPdfs(), b.NumPdfs())
	case !reflect.DeepEqual(a.Tuples, b.Tuples):
		return fmt.Sprintf("different transition-states (%d and %d; another tree)", a.NumTransitionStates(), b.NumTransitionStates())
	default:
		return "same pdfs and transition-states, different transition probabilities"
	}
}
