package lm

import (
	"fmt"
	"io"
	"sort"
)

// Streams are the standard streams of the ngram-count and ngram tools: "-"
// as a file name is Stdin or Stdout, and -debug output goes to Stderr.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// open opens a file to read: "-" is standard input, names ending in .gz
// are decompressed.
func (s Streams) open(path string) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(s.Stdin), nil
	}
	return OpenFile(path)
}

// create writes a file: "-" is standard output; other files are written
// atomically, gzip'd when the name ends in .gz.
func (s Streams) create(path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(s.Stdout)
	}
	return WriteFile(path, write)
}

// NgramCount is SRILM's ngram-count: it counts o.Text, writes the counts
// (to standard output when no other output is asked for) and estimates and
// writes the LM and the vocabulary that o asks for. o must be valid
// (Validate).
func NgramCount(o CountOptions, s Streams) error {
	vocab := NewVocab(o.MapUnk, o.Unk)
	if o.Vocab != "" {
		in, err := s.open(o.Vocab)
		if err != nil {
			return fmt.Errorf("cannot read -vocab file: %w", err)
		}
		err = ReadVocab(in, o.Vocab, vocab)
		in.Close()
		if err != nil {
			return err
		}
	}
	counts, err := NewCounts(vocab, o.Order, o.Vocab == "")
	if err != nil {
		return err
	}
	in, err := s.open(o.Text)
	if err != nil {
		return err
	}
	err = counts.CountText(in, o.Text)
	in.Close()
	if err != nil {
		return err
	}
	if counts.Sentences == 0 {
		return fmt.Errorf("%w: text %s has no sentences (no non-blank lines)", ErrInput, o.Text)
	}
	if o.Debug >= 1 {
		fmt.Fprintf(s.Stderr, "%s: %d sentences, %d words, %d OOVs\n", o.Text, counts.Sentences, counts.Words, counts.OOVs)
	}
	if o.Write != "" || (o.LM == "" && o.WriteVocab == "") {
		path := o.Write
		if path == "" {
			path = "-"
		}
		if err := s.create(path, counts.Write); err != nil {
			return err
		}
	}
	if o.LM != "" {
		if err := estimateAndWrite(o, counts, s); err != nil {
			return err
		}
	}
	if o.WriteVocab != "" {
		return s.create(o.WriteVocab, func(w io.Writer) error { return writeVocab(w, vocab) })
	}
	return nil
}

func estimateAndWrite(o CountOptions, counts *Counts, s Streams) error {
	opt := o.EstimateOptions()
	if o.Debug >= 1 {
		opt.Warn = func(msg string) { fmt.Fprintf(s.Stderr, "warning: %s\n", msg) }
	}
	model, disc, err := counts.Estimate(opt)
	if err != nil {
		return fmt.Errorf("estimating from %s: %w", o.Text, err)
	}
	if o.Debug >= 1 {
		for k, d := range disc {
			fmt.Fprintf(s.Stderr, "Kneser-Ney smoothing %d-grams\nn1 = %d\nn2 = %d\nn3 = %d\nn4 = %d\nD1 = %g\nD2 = %g\nD3+ = %g\n",
				k+1, d.N1, d.N2, d.N3, d.N4, d.D1, d.D2, d.D3)
		}
	}
	return s.create(o.LM, model.WriteARPA)
}

// writeVocab writes the vocabulary one word a line, sorted (Vocab::write).
func writeVocab(w io.Writer, v *Vocab) error {
	words := make([]string, v.Len())
	for i := range words {
		words[i] = v.Word(int32(i))
	}
	sort.Strings(words)
	for _, s := range words {
		if _, err := fmt.Fprintln(w, s); err != nil {
			return err
		}
	}
	return nil
}

// Ngram is SRILM's ngram as far as perplexity goes: it reads o.LM, prints
// the perplexity of o.Ppl (when given) and writes the LM again to
// o.WriteLM (when given). o must be valid (Validate).
func Ngram(o PerplexityOptions, s Streams) error {
	in, err := s.open(o.LM)
	if err != nil {
		return err
	}
	model, err := ReadARPA(in, o.LM, ReadOptions{Order: o.Order, Unk: o.MapUnk, UnkIsWord: o.Unk,
		Warn: func(msg string) { fmt.Fprintln(s.Stderr, msg) }})
	in.Close()
	if err != nil {
		return err
	}
	if o.Ppl != "" {
		text, err := s.open(o.Ppl)
		if err != nil {
			return err
		}
		stats, err := model.Perplexity(text, o.Ppl, o.Debug, s.Stdout)
		text.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Stdout, "file %s: %s", o.Ppl, stats)
	}
	if o.WriteLM != "" {
		return s.create(o.WriteLM, model.WriteARPA)
	}
	return nil
}
