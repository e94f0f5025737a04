package main

import (
	"flag"
	"os"
	"strings"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/speechocean762"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "speechocean762-data-prep",
		Summary: "Make Kaldi data dirs (train, dev, test) and the dict dir from the speechocean762 corpus",
		Description: "Reads the corpus's train/ and (when present) test/ Kaldi files and resource/lexicon.txt, and writes\n" +
			"<data-dir>/train (the train half without the dev speakers), <data-dir>/dev (the committed\n" +
			"recipes/speechocean762/dev_speakers.txt, 13 speakers balanced by age and gender), <data-dir>/test,\n" +
			"each with text, wav.scp (absolute paths to the WAV, or to the .flac of a FLAC copy), utt2spk,\n" +
			"spk2utt, spk2gender and spk2age, sorted and checked as validate_data_dir.sh --no-feats; and the\n" +
			"dict dir (default <data-dir>/local/dict: lexicon with <UNK> SPN, SIL/SPN silence phones, stress\n" +
			"variants of a phone on one line, extra questions per stress level), checked as validate_dict_dir.pl.\n" +
			"Transcript words missing from the lexicon are counted per set (they map to <UNK>).\n" +
			"See the package doc of recipes/speechocean762 for every choice.",
		ArgsUsage: "<corpus-dir> <data-dir>",
		Examples: []string{
			"strode speechocean762-data-prep ../shared/data/speechocean762 data",
			"strode speechocean762-data-prep --flac-pipe=true --dict-dir=data/local/dict_nosp data/speechocean762 data",
		},
		MinArgs: 2,
		MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o speechocean762.Options
			devList := fs.String("dev-speakers", "", "File of dev speaker ids (one a line); empty means the committed recipes/speechocean762/dev_speakers.txt")
			fs.BoolVar(&o.FlacPipe, "flac-pipe", false, "Write 'ID flac -c -d -s FILE.flac |' for FLAC audio (for Kaldi's binaries; needs the flac program) instead of the path, which strode reads directly")
			fs.StringVar(&o.DictDir, "dict-dir", "", "Where to write the dict dir; empty means <data-dir>/local/dict")
			return func(ctx *kaldicmd.Context) error {
				if *devList != "" {
					b, err := os.ReadFile(*devList)
					if err != nil {
						return err
					}
					o.DevSpeakers = strings.Fields(string(b))
				}
				st, err := speechocean762.Prepare(ctx.Arg(0), ctx.Arg(1), o, ctx.Stderr)
				if err != nil {
					return err
				}
				d := st.Dict
				ctx.Log("%s: %d words, %d pronunciations%s; %d non-silence phones on %d lines (bases), silence SIL SPN",
					st.DictDir, d.Words, d.Prons, map[bool]string{true: " (<UNK> SPN added)", false: ""}[d.AddedUNK], d.Phones, d.BasePhones)
				for _, s := range st.Sets {
					ctx.Log("%s: %d utterances, %d speakers (%s), %d words", s.Dir, s.Utterances, s.Speakers, s.Balance, s.Words)
					if s.OOVTokens > 0 {
						ctx.Warn("%s: %d of %d words (%d distinct) are not in the lexicon and map to <UNK>: %s", s.Dir, s.OOVTokens, s.Words, len(s.OOVTypes), strings.Join(s.OOVTypes[:min(10, len(s.OOVTypes))], " "))
					} else {
						ctx.Log("%s: every word is in the lexicon", s.Dir)
					}
				}
				if st.NoTest {
					ctx.Log("%s has no test/ (a copy of the train half only): no test set written", ctx.Arg(0))
				}
				return nil
			}
		},
	})
}
