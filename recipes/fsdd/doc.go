// Package fsdd is the Free Spoken Digit Dataset recipe: run.sh trains the
// sru and strode acoustic models on some speakers' takes and decodes the
// held-out speakers. It is a front end of the from-scratch pipeline
// (recipes/kaldi/run.sh --dict: lang and LM, graph, features, flat start,
// realignment, priors, training, decoding) with two stages of its own after
// it (a forward-to-file check, test-speaker adaptation). The logic lives in
// the strode binary: this package holds the corpus front end of stage 0, DataPrep (strode
// fsdd-data-prep: the Kaldi data directories, speed- and warp-perturbed and
// synthetic-voice copies of the training takes, and the dict directory of
// the ten digit words, WriteDict), the choice of the utterances stage 9
// adapts on (RankByConfidence, strode select-confident-utts), and the tests
// that run run.sh (its --quick mode end to end). RESULTS.md has every
// measured run. The corpus comes from
// ../shared/data/fsdd, a --fsdd-dir, or the upstream release that
// `strode fetch-fsdd` downloads and verifies (Corpus, for recipes/fetch).
//
// NOTICE: the Free Spoken Digit Dataset recordings are (c) Zohar Jackson,
// César Souza, Jason Flaks, Yuxin Pan, Hereman Nicolas and Adhish Thite
// ("Jakobovski/free-spoken-digit-dataset",
// https://github.com/Jakobovski/free-spoken-digit-dataset, Zenodo
// doi:10.5281/zenodo.1342401), licensed CC BY-SA 4.0
// (https://creativecommons.org/licenses/by-sa/4.0/). strode's repository
// holds none of these recordings, only the SHA-256 list of release v1.0.10;
// anything derived from the recordings that you redistribute stays
// CC BY-SA 4.0.
package fsdd
