// Package fsdd is the Free Spoken Digit Dataset recipe: run.sh trains the
// sru and strode acoustic models on some speakers' takes and decodes the
// held-out speakers with Kaldi-style stages (data, features, lang and graph,
// flat start, realignment, priors, training, decoding, a forward-to-file
// check, test-speaker adaptation). The logic lives in the strode binary;
// this package holds only the test that runs the recipe's --quick mode end
// to end. RESULTS.md has every measured run.
package fsdd
