// Package compare reports whether one acoustic model beats another when a
// single run cannot tell: it reads the WERs of many runs (models × held-out
// speakers or test sets × seeds; a runs file, see ReadRuns), and gives per
// model the mean WER ± standard error over runs, the WER pooled over errors
// and words, and the mean over conditions; and per pair of models the mean
// PAIRED difference B − A over runs matched on (condition, seed), its
// standard error, a Student-t confidence interval with n − 1 degrees of
// freedom, and how often B was better, worse or tied. Runs without a partner
// are listed and left out of that pair, never dropped silently.
//
// Why pairs: on FSDD the held-out speaker moves the WER by 10 points and the
// seed by up to 10 more, while the models differ by a point or two. Both runs
// of a pair share the speaker (and, with the same seed on the same
// alignments, the data order and the seed's luck), so those effects cancel in
// the difference, and its spread is what is left to judge the models by. The
// interval treats the pairs as independent samples; pairs that share a
// speaker or a seed are not quite independent (speakers × seeds is not a
// random sample of pairs), so it is an approximation, optimistic when one
// speaker dominates the differences. The mean over conditions (each condition
// weighted equally, its s.e. over conditions) is the more conservative view
// of a model alone.
//
// A recipe writes the runs file as it goes, or after the fact from its
// results (the FSDD recipe's exp dirs, one per held-out speaker and seed):
//
//	for s in george lucas; do for seed in 777 781; do for m in sru strode; do
//	  echo "$m $s $seed exp/fsdd_${s}_$seed/results.json"; done; done; done > runs.txt
//	strode compare --baseline=sru --json=compare.json --png=compare.png runs.txt
//
// Compare computes the report; WriteMarkdown prints it as tables for
// RESULTS.md, WriteJSON writes every number (compare.json), and SaveFigure
// draws the runs with gonum.org/v1/plot (PNG and SVG). The package sits under
// recipes/ because it compares experiment runs, the recipes' outputs; the WER
// of one run is decoder/scoring's.
package compare
