package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "get-egs",
		Summary: "Write training examples once, shuffled into archives, for data-parallel training (steps/nnet3/get_egs.sh)",
		Description: "Reads features and targets (pdf-ids, or transition-ids with --transition-model), applies the CMVN the\n" +
			"options describe (as `strode train` does on the fly) and writes whole-utterance examples into\n" +
			"<egs-dir>/egs.1.ark ... egs.N.ark: a seeded permutation of the training utterances dealt round-robin,\n" +
			"so every utterance is in exactly one archive and each archive is shuffled. Each entry is\n" +
			"<StrodeEg> <Feats> MATRIX <Pdfs> INT-VECTOR </StrodeEg> (CMVN applied, not spliced: the splicing is\n" +
			"recorded in info/pipeline and applied by train-iter). Also valid_diagnostic.ark (--cv-feats, or\n" +
			"--num-utts-subset training utterances held out), train_diagnostic.ark and info/ (num_archives written\n" +
			"last: a directory without it is incomplete). Every archive is written under a temporary name and renamed.",
		ArgsUsage: "<feature-rspecifier> <targets-rspecifier> <egs-dir>",
		Examples: []string{
			"strode get-egs --num-archives=8 --transition-model=exp/tri3_ali/final.mdl --cmvn=scp:data/train/cmvn.scp \\\n" +
				"    --utt2spk=ark:data/train/utt2spk --norm-vars=true --left-context=4 --right-context=4 \\\n" +
				"    --cv-feats=scp:data/cv/feats.scp scp:data/tr/feats.scp 'ark:gunzip -c exp/tri3_ali/ali.*.gz |' exp/strode_par/egs",
		},
		MinArgs: 3, MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldinnet.DefaultEgsOptions()
			o.Register(fs)
			o.Data.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				_, err := kaldinnet.GetEgs(ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), o, ctx.Log)
				return err
			}
		},
	})
}
