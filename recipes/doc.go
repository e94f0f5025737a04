// Package recipes holds the experiments: stage-based run.sh scripts and the
// Go code behind their data generators and drivers: the Free Spoken Digit
// Dataset (fsdd), speechocean762's front end (speechocean762: data dirs,
// dict dir, dev split), the irregularly sampled sine waves (sine), the
// corpus fetcher they share (fetch: find, download, verify) and the scripts
// they share (local), and Kaldi's steps scripts of the GMM ladder (steps).
// Each recipe lives in its own sub-directory; the
// `strode` subcommands that run them are thin glue.
package recipes
