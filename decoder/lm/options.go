package lm

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
)

// CountOptions are ngram-count's options, under SRILM's names.
type CountOptions struct {
	Order       int    // -order: the largest n-gram order
	Text        string // -text: the text to count (- for standard input)
	Vocab       string // -vocab: a vocabulary file, which closes the vocabulary
	LM          string // -lm: the ARPA file to estimate (.gz compresses)
	Write       string // -write: the counts file
	WriteVocab  string // -write-vocab: the vocabulary file to write
	MapUnk      string // -map-unk: the word unknown words become ("" is <unk>)
	Unk         bool   // -unk: <unk> is a word of the model
	KNDiscount  bool   // -kndiscount: modified Kneser-Ney
	WBDiscount  bool   // -wbdiscount: Witten-Bell
	Interpolate bool   // -interpolate: interpolated estimates
	Debug       int    // -debug: 1 prints the counts and discounts on standard error
	// GTMin are the cutoffs: [n] is -gtNmin for n ≤ 9, [0] is -gtmin, for
	// the orders above 9.
	GTMin [10]int64
}

// DefaultCountOptions are SRILM's defaults: order 3, cutoffs 1 for
// unigrams and bigrams and 2 above.
func DefaultCountOptions() CountOptions {
	o := CountOptions{Order: 3}
	for n := 1; n <= 9; n++ {
		o.GTMin[n] = DefaultMinCount(n)
	}
	o.GTMin[0] = DefaultMinCount(10)
	return o
}

// Register adds the options to fs under SRILM's names.
func (o *CountOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.Order, "order", o.Order, "max ngram order")
	fs.StringVar(&o.Text, "text", o.Text, "text file to read (- for standard input)")
	fs.StringVar(&o.Vocab, "vocab", o.Vocab, "vocab file (closes the vocabulary: other words become <unk>)")
	fs.StringVar(&o.LM, "lm", o.LM, "LM to estimate (ARPA; .gz compresses)")
	fs.StringVar(&o.Write, "write", o.Write, "counts file to write")
	fs.StringVar(&o.WriteVocab, "write-vocab", o.WriteVocab, "write vocab to file")
	fs.BoolVar(&o.Unk, "unk", o.Unk, "keep <unk> in LM")
	fs.StringVar(&o.MapUnk, "map-unk", o.MapUnk, "word to map unknown words to (default <unk>)")
	fs.BoolVar(&o.KNDiscount, "kndiscount", o.KNDiscount, "use modified Kneser-Ney discounting")
	fs.BoolVar(&o.WBDiscount, "wbdiscount", o.WBDiscount, "use Witten-Bell discounting")
	fs.BoolVar(&o.Interpolate, "interpolate", o.Interpolate, "use interpolated estimates")
	fs.IntVar(&o.Debug, "debug", o.Debug, "debugging level (1: counts and discounts on stderr)")
	fs.Var((*countValue)(&o.GTMin[0]), "gtmin", "lower cutoff for orders above 9")
	for n := 1; n <= 9; n++ {
		fs.Var((*countValue)(&o.GTMin[n]), fmt.Sprintf("gt%dmin", n), fmt.Sprintf("lower %dgram discounting cutoff", n))
	}
}

// Validate reports options that cannot go together or are missing.
func (o *CountOptions) Validate() error {
	if o.Order < 1 {
		return fmt.Errorf("-order must be at least 1, got %d", o.Order)
	}
	if o.Text == "" {
		return errors.New("-text FILE is required (reading count files is not implemented)")
	}
	if o.LM != "" && o.KNDiscount == o.WBDiscount {
		if o.KNDiscount {
			return errors.New("-kndiscount and -wbdiscount: give one")
		}
		return errors.New("give -kndiscount or -wbdiscount: only modified Kneser-Ney and Witten-Bell are implemented; SRILM's default Good-Turing is not")
	}
	return nil
}

// EstimateOptions are the estimator's options: the discounting and a
// cutoff per order up to Order.
func (o *CountOptions) EstimateOptions() Options {
	opt := Options{Interpolate: o.Interpolate, WittenBell: o.WBDiscount, MinCount: make([]int64, o.Order)}
	for n := 1; n <= o.Order; n++ {
		if n <= 9 {
			opt.MinCount[n-1] = o.GTMin[n]
		} else {
			opt.MinCount[n-1] = o.GTMin[0]
		}
	}
	return opt
}

// countValue is a non-negative count option.
type countValue int64

func (c *countValue) String() string { return strconv.FormatInt(int64(*c), 10) }
func (c *countValue) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("want a count (integer >= 0)")
	}
	*c = countValue(v)
	return nil
}

// PerplexityOptions are ngram's options (perplexity of a text), under
// SRILM's names.
type PerplexityOptions struct {
	Order   int    // -order: the largest n-gram order used
	LM      string // -lm: the ARPA file (.gz is decompressed)
	Ppl     string // -ppl: the text (- for standard input)
	WriteLM string // -write-lm: where to write the LM again
	MapUnk  string // -map-unk: the word unknown words become ("" is <unk>)
	Unk     bool   // -unk: <unk> is a word of the model
	Debug   int    // -debug: 1 prints per sentence, 2 per word
}

// DefaultPerplexityOptions are SRILM's defaults (order 3).
func DefaultPerplexityOptions() PerplexityOptions { return PerplexityOptions{Order: 3} }

// Register adds the options to fs under SRILM's names.
func (o *PerplexityOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.Order, "order", o.Order, "max ngram order")
	fs.StringVar(&o.LM, "lm", o.LM, "file in ARPA LM format (.gz is decompressed)")
	fs.StringVar(&o.Ppl, "ppl", o.Ppl, "text file to compute perplexity from (- for standard input)")
	fs.StringVar(&o.WriteLM, "write-lm", o.WriteLM, "re-write LM to file")
	fs.BoolVar(&o.Unk, "unk", o.Unk, "vocabulary contains unknown word tag")
	fs.StringVar(&o.MapUnk, "map-unk", o.MapUnk, "word to map unknown words to (default <unk>)")
	fs.IntVar(&o.Debug, "debug", o.Debug, "debugging level for LM (1: per sentence, 2: per word)")
}

// Validate reports missing or bad options.
func (o *PerplexityOptions) Validate() error {
	if o.Order < 1 {
		return fmt.Errorf("-order must be at least 1, got %d", o.Order)
	}
	if o.LM == "" {
		return errors.New("-lm FILE is required")
	}
	return nil
}
