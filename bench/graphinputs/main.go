// Command graphinputs writes the inputs of bench/mkgraph.sh: a synthetic
// N-word lexicon's lang directory (with G.fst from a synthetic back-off
// bigram), a monophone model directory (tree, final.mdl), and for the
// OpenFst peer the Ha transducer and the relabelling of its
// disambiguation symbols to epsilon.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/mkgraph"
)

func main() {
	words := flag.Int("words", 5000, "vocabulary size")
	per := flag.Int("successors", 10, "bigrams per history")
	seed := flag.Int64("seed", 1, "random seed of the lexicon (the LM uses seed+1)")
	out := flag.String("out", "bench/out/mkgraph", "output folder")
	flag.Parse()
	if err := run(*out, *words, *per, *seed); err != nil {
		log.Fatal(err)
	}
}

func run(out string, nWords, per int, seed int64) error {
	langDir, monoDir := filepath.Join(out, "lang"), filepath.Join(out, "mono")
	lang, in, err := mkgraph.SyntheticBigram(nWords, per, seed)
	if err != nil {
		return err
	}
	if err := lang.Write(langDir); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "lm.arpa"), in.Arpa, 0o666); err != nil {
		return err
	}
	g, tree, tm := in.G, in.Tree, in.TM
	if err := fst.WriteFile(filepath.Join(langDir, "G.fst"), g); err != nil {
		return err
	}
	if err := os.MkdirAll(monoDir, 0o777); err != nil {
		return err
	}
	if err := mkgraph.WriteMonophoneModel(filepath.Join(monoDir, "tree"), filepath.Join(monoDir, "final.mdl"), tree, tm, true); err != nil {
		return err
	}
	h, err := mkgraph.MakeH(tm, tree, lang.PhoneDisambig, 1.0)
	if err != nil {
		return err
	}
	if err := fst.WriteFile(filepath.Join(out, "Ha.fst"), h.Fst); err != nil {
		return err
	}
	var pairs bytes.Buffer
	for _, d := range h.DisambigTids {
		fmt.Fprintf(&pairs, "%d 0\n", d)
	}
	if err := os.WriteFile(filepath.Join(out, "disambig_tid_to_eps.txt"), pairs.Bytes(), 0o666); err != nil {
		return err
	}
	fmt.Printf("lexicon %d words, G %d states %d arcs\n", nWords, g.NumStates(), g.NumArcs())
	return nil
}
