// Package atomicfile writes files so that an interrupted run never leaves a
// half-written file that looks complete: the content goes to a temporary file
// beside the target, is synced, and is renamed over the target only when the
// whole write succeeded. Readers see the old file or the new one, never a mix.
//
// Every strode writer of whole files (models, graphs, lang directories,
// results, plots) goes through it; Kaldi table writers that rename on Close
// live in kaldiio.
package atomicfile
