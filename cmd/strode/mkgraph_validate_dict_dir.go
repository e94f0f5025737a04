package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "validate-dict-dir",
		Summary: "Check a dictionary directory (data/local/dict) as Kaldi's utils/validate_dict_dir.pl",
		Description: "Checks silence_phones.txt, nonsilence_phones.txt, optional_silence.txt, lexicon.txt and/or\n" +
			"lexiconp.txt (and lexiconp_silprob.txt, silprob.txt), extra_questions.txt and nonterminals.txt as\n" +
			"validate_dict_dir.pl does: files present and ending in a newline, no CR or odd white space, no\n" +
			"byte-order mark and nothing that is not UTF-8 (stricter than the script, which lets one-byte\n" +
			"encodings through: a Latin-1 word is another word than the transcripts' UTF-8 one), no\n" +
			"phone listed twice or named #..., ..._B/_E/_S/_I or <eps>, silence and non-silence phones\n" +
			"disjoint, the optional silence a silence phone, no repeated lexicon line, forbidden word or empty\n" +
			"pronunciation, every phone listed, probabilities in (0, 1], extra questions naming only listed\n" +
			"phones and telling apart the phones that share a line of nonsilence_phones.txt. Every problem is\n" +
			"reported with its file and line (exit 1); success prints validate_dict_dir.pl's SUCCESS line.",
		ArgsUsage: "<dict-dir>",
		Examples:  []string{"strode validate-dict-dir data/local/dict"},
		MinArgs:   1,
		MaxArgs:   1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				if err := mkgraph.ValidateDictDir(ctx.Arg(0), ctx.Stdout); err != nil {
					return kaldicmd.Exit(1, err)
				}
				return nil
			}
		},
	})
}
