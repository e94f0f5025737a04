// Package lm estimates and evaluates n-gram back-off language models the
// way SRILM does: ngram-count's counting of sentences (with <s> and </s>
// added), its interpolated modified Kneser–Ney estimator
// (`ngram-count -order N -kndiscount -interpolate`: three discounts D1, D2,
// D3+ per order from the count-of-counts n1..n4, continuation counts for
// the lower orders except n-grams starting with <s>, the -gtNmin cutoffs
// with SRILM's defaults, back-off weights that make the model proper, <s>
// with no probability of its own, the left-over unigram mass spread over
// unseen vocabulary words), the ARPA file it writes, and `ngram -ppl`'s
// perplexity with SRILM's output lines. Vocabularies follow SRILM: open
// (every word of the text) unless a -vocab file closes it, in which case
// other words become <unk>, which is a word of the model only with -unk.
// The n-grams live in a hashed trie (one map per order keyed by the id of
// the prefix and the last word), so counting and estimation are linear in
// the text and the number of n-grams. Turning an ARPA file into the grammar
// FST is decoder/mkgraph's (arpa2fst).
//
// For lattice rescoring with a larger model, ConstArpa is Kaldi's
// ConstArpaLm (arpa-to-const-arpa): an ARPA model of integer words packed
// into Kaldi's binary layout (one record array, a unigram table, overflow
// pointers), looked up without building an FST, with the deterministic
// on-demand FST that lattice-lmrescore-const-arpa composes with; MapARPA is
// utils/map_arpa_lm.pl's mapping of an ARPA file's words to integers.
package lm
