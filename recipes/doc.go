// Package recipes holds the experiments: stage-based run.sh scripts and the
// Go code behind their data generators and drivers — the Free Spoken Digit
// Dataset, the built-in connected-digits corpus, Kaldi experiment directories,
// the irregularly sampled sine waves and Rotating MNIST. Each recipe lives in
// its own sub-directory; the `strode` subcommands that run them are thin glue.
package recipes
