// Package recipes holds the experiments: stage-based run.sh scripts and the
// Go code behind their data generators and drivers: the Free Spoken Digit
// Dataset (fsdd), the irregularly sampled sine waves (sine) and the scripts
// they share (local). Each recipe lives in its own sub-directory; the
// `strode` subcommands that run them are thin glue.
package recipes
