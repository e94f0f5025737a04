// Package scoring computes word error rates the way Kaldi's compute-wer and
// align-text do: the Levenshtein edit distance with Kaldi's split of the
// errors into insertions, deletions and substitutions, the Levenshtein
// alignment with Kaldi's tie-breaking, the `%WER`/`%SER`/`Scored` report lines
// with their exact formatting, and a reader for Kaldi text token tables
// (transcripts such as data/test/text, one "key word word ..." per line).
//
// Two different dynamic programs are used, as in Kaldi: the counts come from
// LevenshteinEditDistance (which prefers substitution, then deletion, then
// insertion, and only takes a substitution or match when it is strictly
// cheaper), the pairs printed by align-text from LevenshteinAlignment (which
// prefers match/substitution, then deletion, then insertion, on ties). The
// totals agree; the ins/del/sub split of an utterance can differ between the
// two, exactly as it does between Kaldi's compute-wer and align-text.
//
// What steps/score_kaldi.sh writes under scoring_kaldi/wer_details is here
// too: the per-utterance, per-speaker and per-word-pair tables of
// utils/scoring/wer_per_utt_details.pl, wer_per_spk_details.pl and
// wer_ops_details.pl (same columns, widths and order), and
// compute-wer-bootci's bootstrap confidence interval, drawn from glibc's
// rand() as the Kaldi binary draws it, so that the same input prints the
// same interval.
package scoring
