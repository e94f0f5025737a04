// Package speechocean762 is the front end of the speechocean762 corpus
// (openslr resource 101; Zhang et al., Interspeech 2021): 5,000 read English
// sentences of 250 Mandarin-speaking learners, 16 kHz, half of them
// children, in a train and a test half of 125 speakers each, with Kaldi data
// dirs and a 2,604-word lexicon in stress-marked ARPAbet. It finds or
// downloads the corpus (Corpus, for recipes/fetch: `strode
// fetch-speechocean762`) and writes Kaldi's data dirs and dict dir from it
// (Prepare: `strode speechocean762-data-prep CORPUS DATA`), the part
// Kaldi's local/data_prep.sh and local/prepare_dict.sh do in a recipe.
//
// # The corpus
//
// As distributed (and in ../shared/data/speechocean762, which holds the
// train half with lossless FLAC in place of WAV):
//
//	speechocean762/
//	├── WAVE/SPEAKERnnnn/ID.WAV   16 kHz mono 16-bit (ID.flac in the FLAC copy)
//	├── train/  text wav.scp utt2spk spk2utt spk2gender spk2age   (tab-separated,
//	├── test/   (the same)                                         not all sorted)
//	└── resource/lexicon.txt      WORD<TAB>PHONES, several lines for some words
//
// SHA256SUMS.upstream, beside this file and embedded in the binary, lists
// the 5,258 upstream files the recipe uses (every WAV of both halves, the
// train/ and test/ files, the lexicon); a download is checked against it
// file by file. The scores, text-phone and README are not used and are left
// out of the cache.
//
// # Data dirs
//
// Prepare writes DATA/train, DATA/dev and, when the corpus has test/,
// DATA/test, each with text, wav.scp, utt2spk, spk2utt, spk2gender and
// spk2age (upstream's speaker ages, kept for analysis; Kaldi's tools ignore
// the file), sorted in C order and validated as utils/validate_data_dir.sh
// --no-feats does. Utterance and speaker ids are upstream's (000010011,
// 0001): the speaker id is not a prefix of the utterance id, but the
// utterance ids are "0" + speaker + index, so utt2spk sorts the same by
// utterance and by speaker, which is what Kaldi needs. Transcripts keep
// upstream's upper-case words, white space collapsed to single spaces.
// wav.scp holds absolute paths: upstream's WAV, or the .flac of the same
// name when the WAV is absent (the FLAC copy), which strode's feature code
// reads directly (features.ReadWave); with --flac-pipe, FLAC entries are
// Kaldi's "ID flac -c -d -s FILE.flac |" instead, for Kaldi's own binaries
// (Debian's flac package needed at run time). Transcript words missing from
// the lexicon are counted and reported per set; they stay in text and map
// to <UNK> when graphs and training graphs are made, as in Kaldi (there are
// none in the train half: the lexicon covers both halves' words).
//
// # The dev set
//
// dev_speakers.txt, beside this file, lists the 13 train-half speakers held
// out as dev (about 10% of 125; 260 utterances), chosen once by ChooseDev
// with DevFraction 0.1 and DevSeed 762, and committed so that every run and
// every user gets the same split. The procedure, reproducible with shell
// tools: (1) put each train speaker in a stratum, child (spk2age <= 12) or
// adult, times spk2gender; (2) give the strata round(0.1 × 125) = 13 places
// in proportion to their sizes by the largest remainder method (adult-f 45,
// adult-m 28, child-f 22, child-m 30 speakers get 5, 3, 2, 3); (3) in each
// stratum take the speakers whose SHA-256 of "762 SPK" (the seed, a space,
// the speaker id: printf '762 0001' | sha256sum) is smallest in hex. The
// dev set then has 7 f and 6 m speakers, 5 children and 8 adults, as the
// train half has 67 f and 58 m, 52 children and 73 adults. A different list
// can be given (--dev-speakers FILE, one speaker id a line).
//
// # Dict dir
//
// PrepareDict writes Kaldi's data/local/dict as librispeech's
// local/prepare_dict.sh does: silence phones SIL and SPN, optional silence
// SIL, one line of nonsilence_phones.txt per base phone with its stress
// variants (AA AA0 AA1 AA2: one tree root), extra_questions.txt with the
// silence phones on one line and one line per stress level, and lexicon.txt
// (upstream's, tabs made spaces, sorted, repeated lines dropped) with
// "<UNK> SPN" added. Upstream writes a few vowels without stress (IH, UH);
// they are their base phone's variant like any other. The result passes
// decoder/mkgraph.ValidateDictDir (validate_dict_dir.pl's checks).
//
// # License
//
// The corpus is free for commercial and non-commercial use (Apache 2.0 as
// the release states); attribute it: Junbo Zhang, Zhiwen Zhang, Yongqing
// Wang, Zhiyong Yan, Qiong Song, Yukai Huang, Ke Li, Daniel Povey and Yujun
// Wang, "speechocean762: An Open-Source Non-native English Speech Corpus For
// Pronunciation Assessment", Interspeech 2021. The repository holds none of
// its audio, only the SHA-256 list and the dev speaker list.
package speechocean762
