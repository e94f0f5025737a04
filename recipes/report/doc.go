// Package report gathers what a recipe measured into one table: for every
// model directory (exp/MODEL) the training summary of its final.am (epochs,
// wall time per epoch, held-out frame accuracy of the epoch it keeps) and, for
// every decode_SET directory in it, the best WER of the scoring sweep
// (best_wer, as Kaldi's utils/best_wer.sh writes it), the sentence error rate
// of that same LM weight and penalty, and the decoding real-time factor
// (decode_time: wall seconds, audio seconds, jobs). The table is printed as
// Markdown, for a RESULTS.md, and written as JSON for scripts. A directory
// with a GMM system's final.mdl and no final.am (the GMM rungs of
// recipes/kaldi's ladder) gives rows of kind gmm, with no training columns.
//
// A decode directory that was not scored, or a model that was not trained,
// is an error naming the file: a results table with silent holes would be
// read as complete.
package report
