package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "fstproject",
		Summary: "Project an FST onto its input or output labels (OpenFst's fstproject)",
		Description: "Projects a transduction onto its input or output language, as OpenFst's fstproject:\n" +
			"onto the input (default: every arc's output label set to its input label), or with\n" +
			"--project_output=true onto the output (the input label set to the output label).\n" +
			"Kaldi's lmrescore.sh projects G.fst on its output so that back-off arcs read epsilon.",
		ArgsUsage: "[<in.fst> [<out.fst>]]",
		Examples:  []string{"strode fstproject --project_output=true data/lang/G.fst > G.proj.fst"},
		MinArgs:   0,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			output := false
			fs.BoolVar(&output, "project-output", output, "Project on output (vs. input)")
			return func(ctx *kaldicmd.Context) error {
				in := ctx.Arg(0)
				if in == "" {
					in = "-"
				}
				f, err := fst.ReadRx(in, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				for s := range f.States {
					for i := range f.States[s].Arcs {
						a := &f.States[s].Arcs[i]
						if output {
							a.ILabel = a.OLabel
						} else {
							a.OLabel = a.ILabel
						}
					}
				}
				if output {
					f.ISymbols = f.OSymbols
				} else {
					f.OSymbols = f.ISymbols
				}
				out := ctx.Arg(1)
				if out == "" || out == "-" {
					return fst.WriteVectorFst(ctx.Stdout, f)
				}
				return fst.WriteFile(out, f)
			}
		},
	})
}
