package report

import (
	"flag"
	"io"
)

// TableOptions are results-table's options: the files written beside the
// Markdown table on standard output, and what is added to its rows.
type TableOptions struct {
	Markdown    string // --md: the Markdown table, to this file too
	JSON        string // --json: the rows as JSON
	SummaryJSON string // --summary-json: {MODEL: {wer, wer_line}} (Summarize)
	LMDir       string // --lm-dir: the LM's perplexity and OOV rate per set, from DIR/ppl_SET.txt (AddLM)
	Targets     string // --targets: the target set every row names
	AdaptRounds int    // --adapt-rounds: the summary's adapted WER from MODEL/adaptN
}

// Register adds the options to fs.
func (o *TableOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Markdown, "md", o.Markdown, "also write the Markdown table to this file")
	fs.StringVar(&o.JSON, "json", o.JSON, "also write the rows as JSON to this file")
	fs.StringVar(&o.SummaryJSON, "summary-json", o.SummaryJSON, "also write {MODEL: {wer, wer_line}} to this file (one decode set per model; recipes/fsdd's results.json)")
	fs.StringVar(&o.LMDir, "lm-dir", o.LMDir, "add the LM's perplexity and OOV rate on each set from DIR/ppl_SET.txt (ngram -ppl output; recipes/kaldi's exp/strode_lm)")
	fs.StringVar(&o.Targets, "targets", o.Targets, "name the target set of every row (e.g. \"mono (127 pdfs)\")")
	fs.IntVar(&o.AdaptRounds, "adapt-rounds", o.AdaptRounds, "with --summary-json: add each model's \"adapted\" WER from its last adaptation round MODEL/adaptN (adapt for N = 1; recipes/fsdd stage 9)")
}

// Table is results-table: the rows of the model directories (Collect, with
// AddLM and the target set as o says) as a Markdown table on w, and the
// files o names.
func Table(w io.Writer, modelDirs []string, o TableOptions) error {
	rows, err := Collect(modelDirs)
	if err != nil {
		return err
	}
	if o.LMDir != "" {
		if err := AddLM(rows, o.LMDir); err != nil {
			return err
		}
	}
	for i := range rows {
		if rows[i].Kind != GMMKind { // a GMM system's targets are its own tree's
			rows[i].Targets = o.Targets
		}
	}
	if err := WriteMarkdown(w, rows); err != nil {
		return err
	}
	if o.Markdown != "" {
		if err := WriteMarkdownFile(o.Markdown, rows); err != nil {
			return err
		}
	}
	if o.JSON != "" {
		if err := WriteJSONFile(o.JSON, rows); err != nil {
			return err
		}
	}
	if o.SummaryJSON != "" {
		sums, err := Summarize(modelDirs, rows, o.AdaptRounds)
		if err != nil {
			return err
		}
		return WriteSummaryJSONFile(o.SummaryJSON, sums)
	}
	return nil
}
