package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/strode-asr/strode/decoder/scoring"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

// The commands of Kaldi's utils/scoring/wer_*_details.pl, the tables
// steps/score_kaldi.sh writes under scoring_kaldi/wer_details. Like the
// scripts they are filters: standard input to standard output.

func init() {
	register(&kaldicmd.Command{
		Name:    "wer-per-utt-details",
		Summary: "Per-utterance ref/hyp/op/#csid lines from align-text's output, like utils/scoring/wer_per_utt_details.pl",
		Description: "Reads align-text's text output on standard input and writes, for every utterance,\n" +
			"its aligned reference and hypothesis words, the edit operation of each pair (C, S, I, D)\n" +
			"with every column centred to its widest entry, and the counts \"#csid C S I D\":\n" +
			"  UTT-A ref  word-A   <eps>  word-B  word-C  word-D  word-E\n" +
			"  UTT-A hyp  word-A  word-A  word-B   <eps>  word-D  word-X\n" +
			"  UTT-A op      C       I       C       D       C       S\n" +
			"  UTT-A #csid 3 1 1 1\n" +
			"as Kaldi's utils/scoring/wer_per_utt_details.pl does (score_kaldi.sh's wer_details/per_utt).\n" +
			"--nooutput-ref (or --no-output-ref, --output-ref=false) and the like drop lines.",
		ArgsUsage: "",
		Examples:  []string{"strode align-text --special-symbol='***' ark:test_filt.txt ark:10.txt ark,t:- | strode wer-per-utt-details --special-symbol '***'"},
		MinArgs:   0,
		MaxArgs:   0,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := scoring.DefaultPerUttOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return scoring.WerPerUttDetails(ctx.Stdin, "standard input", ctx.Stdout, o)
			}
		},
	})
	register(&kaldicmd.Command{
		Name:    "wer-per-spk-details",
		Summary: "Per-speaker WER table from per-utterance details, like utils/scoring/wer_per_spk_details.pl",
		Description: "Reads wer-per-utt-details' output on standard input (only its \"#csid\" lines count) and\n" +
			"writes, for every speaker of <utt2spk> in byte order and then SUM, a \"raw\" line of counts\n" +
			"(#SENT #WORD Corr Sub Ins Del Err S.Err) and a \"sys\" line of percentages of the reference\n" +
			"words, as Kaldi's utils/scoring/wer_per_spk_details.pl does (score_kaldi.sh's\n" +
			"wer_details/per_spk). The speaker column widens to the longest speaker in <utt2spk>.\n" +
			"An utterance <utt2spk> does not list is an error (the script files it under an empty\n" +
			"speaker name).",
		ArgsUsage: "<utt2spk>",
		Examples:  []string{"strode wer-per-spk-details data/test/utt2spk < wer_details/per_utt > wer_details/per_spk"},
		MinArgs:   1,
		MaxArgs:   1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := scoring.DefaultPerSpkOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				u, err := readUtt2Spk(ctx.Arg(0))
				if err != nil {
					return err
				}
				return scoring.WerPerSpkDetails(ctx.Stdin, "standard input", u, ctx.Stdout, o)
			}
		},
	})
	register(&kaldicmd.Command{
		Name:    "wer-ops-details",
		Summary: "Counts of every correct/substituted/inserted/deleted word pair, like utils/scoring/wer_ops_details.pl",
		Description: "Reads wer-per-utt-details' output on standard input (its \"ref\" and \"hyp\" lines) and\n" +
			"writes how many times each reference word was recognised correctly, substituted by each\n" +
			"hypothesis word, deleted, or each word inserted, one line per pair, in the order of\n" +
			"Kaldi's utils/scoring/wer_ops_details.pl (reference word, then hypothesis word). Kaldi's\n" +
			"score_kaldi.sh sorts the lines into wer_details/ops with\n" +
			"  sort -b -i -k 1,1 -k 4,4rn -k 2,2 -k 3,3",
		ArgsUsage: "",
		Examples:  []string{"strode wer-ops-details --special-symbol '***' < wer_details/per_utt | LC_ALL=C sort -b -i -k 1,1 -k 4,4rn -k 2,2 -k 3,3 > wer_details/ops"},
		MinArgs:   0,
		MaxArgs:   0,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := scoring.DefaultOpsOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return scoring.WerOpsDetails(ctx.Stdin, "standard input", ctx.Stdout, o.SpecialSymbol, func(s string) { ctx.Warn("%s", s) })
			}
		},
	})
}

// readUtt2Spk reads a data dir's utt2spk file.
func readUtt2Spk(path string) (*scoring.Utt2Spk, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("could not open the utt2spk file: %w", err)
	}
	defer f.Close()
	return scoring.ReadUtt2Spk(f, path)
}
