// Package mkgraph builds decoding graphs in the manner of Kaldi's
// utils/prepare_lang.sh, arpa2fst and utils/mkgraph.sh: a lang directory
// (phones.txt, words.txt, topo, L.fst, L_disambig.fst) from a lexicon, the
// grammar G from an ARPA back-off LM or a word loop, and HCLG from a
// transition model and tree (the context transducer is built for trees
// with phone context), with a
// monophone transition model and tree written as Kaldi files so that
// Kaldi's own decoders accept our graphs.
//
// The FST algorithms (composition, DeterminizeStar, encoded minimization,
// local epsilon removal) are in decoder/fstalg; the FST type and its I/O are
// decoder/fst's, the tree decoder/tree's, the transition model and
// self-loop insertion decoder/hmm's.
package mkgraph
