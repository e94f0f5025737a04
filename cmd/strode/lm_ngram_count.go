package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

const ngramCountDescription = "Count n-grams in a text and estimate an interpolated modified Kneser-Ney back-off\n" +
	"language model, as SRILM's ngram-count -kndiscount -interpolate: <s> and </s> around every\n" +
	"line, continuation counts for the lower orders, discounts D1, D2, D3+ per order, cutoffs\n" +
	"-gtNmin (defaults 1 for unigrams and bigrams, 2 above, as SRILM), an ARPA file from -lm\n" +
	"(gzip'd when the name ends in .gz). With -vocab the vocabulary is closed: other words become\n" +
	"<unk> (or the -map-unk word), which is a word of the model only with -unk. Options take\n" +
	"SRILM's single-dash form (-order 3). Without -lm, -write or -write-vocab the counts go to\n" +
	"standard output (SRILM prints the Kneser-Ney-modified counts there when -kndiscount is\n" +
	"given; these are the raw counts). -wbdiscount is Witten-Bell discounting on raw counts instead,\n" +
	"which needs no count-of-counts: a small vocabulary (digits) or a small text, where modified\n" +
	"Kneser-Ney's discounts cannot be estimated, still gives a model. Only these two are\n" +
	"implemented (not SRILM's default Good-Turing)."

func init() {
	register(&kaldicmd.Command{
		Name:        "ngram-count",
		Summary:     "Estimate an n-gram LM (ARPA) from text, as SRILM's ngram-count -kndiscount -interpolate",
		Description: ngramCountDescription,
		ArgsUsage:   "-text FILE [-order N] -kndiscount|-wbdiscount [-interpolate] [-vocab FILE [-unk]] -lm FILE",
		Examples: []string{
			"strode ngram-count -order 3 -kndiscount -interpolate -text data/local/lm/text -lm data/local/lm/lm.arpa.gz",
			"strode ngram-count -order 3 -wbdiscount -interpolate -text data/train/digits.txt -lm lm.arpa.gz",
		},
		MinArgs: 0,
		MaxArgs: -1,
		RawArgs: true,
		Setup: func(*flag.FlagSet) kaldicmd.RunFunc {
			return runNgramCount
		},
	})
}

// countOptions are ngram-count's options.
type countOptions struct {
	order                      int
	text, vocab, lmFile, write string
	writeVocab, mapUnk         string
	unk, kn, wb, interpolate   bool
	debug                      int
	gtmin                      [10]int64 // [0] is -gtmin (orders above 9), [n] is -gtNmin
}

func (o *countOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.order, "order", 3, "max ngram order")
	fs.StringVar(&o.text, "text", "", "text file to read (- for standard input)")
	fs.StringVar(&o.vocab, "vocab", "", "vocab file (closes the vocabulary: other words become <unk>)")
	fs.StringVar(&o.lmFile, "lm", "", "LM to estimate (ARPA; .gz compresses)")
	fs.StringVar(&o.write, "write", "", "counts file to write")
	fs.StringVar(&o.writeVocab, "write-vocab", "", "write vocab to file")
	fs.BoolVar(&o.unk, "unk", false, "keep <unk> in LM")
	fs.StringVar(&o.mapUnk, "map-unk", "", "word to map unknown words to (default <unk>)")
	fs.BoolVar(&o.kn, "kndiscount", false, "use modified Kneser-Ney discounting")
	fs.BoolVar(&o.wb, "wbdiscount", false, "use Witten-Bell discounting")
	fs.BoolVar(&o.interpolate, "interpolate", false, "use interpolated estimates")
	fs.IntVar(&o.debug, "debug", 0, "debugging level (1: counts and discounts on stderr)")
	fs.Var((*countValue)(&o.gtmin[0]), "gtmin", "lower cutoff for orders above 9")
	for n := 1; n <= 9; n++ {
		o.gtmin[n] = lm.DefaultMinCount(n)
		fs.Var((*countValue)(&o.gtmin[n]), fmt.Sprintf("gt%dmin", n), fmt.Sprintf("lower %dgram discounting cutoff", n))
	}
	o.gtmin[0] = lm.DefaultMinCount(10)
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

func runNgramCount(ctx *kaldicmd.Context) error {
	var o countOptions
	fs := flag.NewFlagSet("ngram-count", flag.ContinueOnError)
	o.register(fs)
	help, err := srilmOptions(fs, ctx.Args())
	if help {
		writeSRILMUsage(ctx.Stdout, ngramCountDescription, fs)
		return nil
	}
	if err != nil {
		return err
	}
	if o.order < 1 {
		return fmt.Errorf("%w: -order must be at least 1, got %d", kaldicmd.ErrUsage, o.order)
	}
	if o.text == "" {
		return fmt.Errorf("%w: -text FILE is required (reading count files is not implemented)", kaldicmd.ErrUsage)
	}
	if o.lmFile != "" && o.kn == o.wb {
		if o.kn {
			return fmt.Errorf("%w: -kndiscount and -wbdiscount: give one", kaldicmd.ErrUsage)
		}
		return fmt.Errorf("%w: give -kndiscount or -wbdiscount: only modified Kneser-Ney and Witten-Bell are implemented; SRILM's default Good-Turing is not", kaldicmd.ErrUsage)
	}
	vocab := lm.NewVocab(o.mapUnk, o.unk)
	if o.vocab != "" {
		if err := readVocabFile(ctx, o.vocab, vocab); err != nil {
			return err
		}
	}
	counts, err := lm.NewCounts(vocab, o.order, o.vocab == "")
	if err != nil {
		return err
	}
	in, err := openLMInput(ctx, o.text)
	if err != nil {
		return err
	}
	err = counts.CountText(in, o.text)
	in.Close()
	if err != nil {
		return err
	}
	if counts.Sentences == 0 {
		return fmt.Errorf("%w: text %s has no sentences (no non-blank lines)", lm.ErrInput, o.text)
	}
	if o.debug >= 1 {
		fmt.Fprintf(ctx.Stderr, "%s: %d sentences, %d words, %d OOVs\n", o.text, counts.Sentences, counts.Words, counts.OOVs)
	}
	if o.write != "" || (o.lmFile == "" && o.writeVocab == "") {
		path := o.write
		if path == "" {
			path = "-"
		}
		if err := writeLMOutput(ctx, path, counts.Write); err != nil {
			return err
		}
	}
	if o.lmFile != "" {
		if err := estimateAndWrite(ctx, &o, counts); err != nil {
			return err
		}
	}
	if o.writeVocab != "" {
		return writeLMOutput(ctx, o.writeVocab, func(w io.Writer) error { return writeVocab(w, vocab) })
	}
	return nil
}

func readVocabFile(ctx *kaldicmd.Context, path string, vocab *lm.Vocab) error {
	in, err := openLMInput(ctx, path)
	if err != nil {
		return fmt.Errorf("cannot read -vocab file: %w", err)
	}
	defer in.Close()
	return lm.ReadVocab(in, path, vocab)
}

func estimateAndWrite(ctx *kaldicmd.Context, o *countOptions, counts *lm.Counts) error {
	opt := lm.Options{Interpolate: o.interpolate, WittenBell: o.wb, MinCount: make([]int64, o.order)}
	for n := 1; n <= o.order; n++ {
		if n <= 9 {
			opt.MinCount[n-1] = o.gtmin[n]
		} else {
			opt.MinCount[n-1] = o.gtmin[0]
		}
	}
	if o.debug >= 1 {
		opt.Warn = func(s string) { fmt.Fprintf(ctx.Stderr, "warning: %s\n", s) }
	}
	model, disc, err := counts.Estimate(opt)
	if err != nil {
		return fmt.Errorf("estimating from %s: %w", o.text, err)
	}
	if o.debug >= 1 {
		for k, d := range disc {
			fmt.Fprintf(ctx.Stderr, "Kneser-Ney smoothing %d-grams\nn1 = %d\nn2 = %d\nn3 = %d\nn4 = %d\nD1 = %g\nD2 = %g\nD3+ = %g\n",
				k+1, d.N1, d.N2, d.N3, d.N4, d.D1, d.D2, d.D3)
		}
	}
	return writeLMOutput(ctx, o.lmFile, model.WriteARPA)
}

// writeVocab writes the vocabulary one word a line, sorted (Vocab::write).
func writeVocab(w io.Writer, v *lm.Vocab) error {
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
