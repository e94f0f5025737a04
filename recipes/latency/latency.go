// Package latency is `strode latency-curve`: WER against look-ahead for
// causal models, the fixed-delay ones (--target-delay N) as a line and the
// learned look-ahead (--head-variant=lookahead) as points. It reads the runs
// files that recipes/kaldi/run.sh writes for strode compare
// (exp/strode_compare.runs: MODEL SET SEED DECODE_DIR/best_wer) and, beside
// each best_wer, the look-ahead statistics of the decode's forward jobs
// (lookahead_stats.JOB, `strode forward --lookahead-stats`), added up over
// jobs and seeds. A decode without them — made before that option, or by a
// fixed model — gets its look-ahead from the model file DECODE_DIR/../final.am
// when that model's look-ahead is fixed (right context + target delay).
package latency

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/recipes/compare"
)

// Input is one runs file and the label its rows get (LABEL=FILE on the
// command line; "" to name rows by their model).
type Input struct {
	Label, Path string
}

// ParseInput reads "[LABEL=]FILE".
func ParseInput(arg string) Input {
	if l, p, ok := strings.Cut(arg, "="); ok && l != "" && !strings.ContainsRune(l, '/') {
		return Input{Label: l, Path: p}
	}
	return Input{Path: arg}
}

// Row is one model (one label) on one set: its WER over seeds and its
// look-ahead over all their frames.
type Row struct {
	Label string
	Set   string
	Seeds []string
	WERs  []float64
	WER   compare.Summary // mean ± s.e. over seeds
	Look  *am.LookaheadStats
	// FromModel tells that the look-ahead was read from the model file (a
	// fixed look-ahead, no statistics in the decode dirs).
	FromModel bool
}

// Learned tells whether the row's look-ahead is the look-ahead head's
// (a point of the curve) rather than fixed (a vertex of the line).
func (r *Row) Learned() bool { return r.Look.Variant == am.LookaheadVariable }

// ErrNoRuns is returned when the inputs hold no run of the set.
var ErrNoRuns = errors.New("latency-curve: no runs")

// Read reads the inputs' runs of set ("": the one set they have; an error
// naming them when there are several) and returns one row per label, in
// the order they first appear.
func Read(inputs []Input, set string) ([]*Row, error) {
	type keyed struct {
		label string
		run   compare.Run
	}
	var all []keyed
	sets := map[string]bool{}
	for _, in := range inputs {
		f, err := os.Open(in.Path)
		if err != nil {
			return nil, err
		}
		runs, err := compare.ReadRuns(f, in.Path, compare.OpenFile)
		f.Close()
		if err != nil {
			return nil, err
		}
		models := map[string]bool{}
		for _, r := range runs {
			models[r.Model] = true
		}
		for _, r := range runs {
			label := r.Model
			switch {
			case in.Label != "" && len(models) == 1:
				label = in.Label
			case in.Label != "":
				label = in.Label + "/" + r.Model
			}
			sets[r.Condition] = true
			all = append(all, keyed{label, r})
		}
	}
	if set == "" {
		if len(sets) > 1 {
			var names []string
			for s := range sets {
				names = append(names, s)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("latency-curve: the runs are of several sets (%s): choose one with --set", strings.Join(names, ", "))
		}
		for s := range sets {
			set = s
		}
	}
	var rows []*Row
	byLabel := map[string]*Row{}
	for _, k := range all {
		r := k.run
		if r.Condition != set {
			continue
		}
		row := byLabel[k.label]
		if row == nil {
			row = &Row{Label: k.label, Set: set}
			byLabel[k.label] = row
			rows = append(rows, row)
		}
		for _, s := range row.Seeds {
			if s == r.Seed {
				return nil, fmt.Errorf("%s: %s has seed %s twice on %s: label the runs files (LABEL=FILE) to tell them apart", r.Source, k.label, r.Seed, set)
			}
		}
		look, fromModel, err := runLookahead(r)
		if err != nil {
			return nil, err
		}
		if row.Look == nil {
			row.Look, row.FromModel = look, fromModel
		} else if err := row.Look.Merge(look); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", r.Source, k.label, err)
		}
		row.FromModel = row.FromModel || fromModel
		row.Seeds = append(row.Seeds, r.Seed)
		row.WERs = append(row.WERs, r.WER)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w of set %q", ErrNoRuns, set)
	}
	for _, row := range rows {
		row.WER = compare.Summarize(row.WERs, 0.95)
	}
	return rows, nil
}

// runLookahead is the look-ahead of one run's decode: its lookahead_stats.*
// added up, or a fixed model's from DECODE_DIR/../final.am.
func runLookahead(r compare.Run) (*am.LookaheadStats, bool, error) {
	if r.WERFile == "" {
		return nil, false, fmt.Errorf("%s: the WER is a number: latency-curve needs DECODE_DIR/best_wer, beside which it finds lookahead_stats.*", r.Source)
	}
	dir := filepath.Dir(r.WERFile)
	files, err := filepath.Glob(filepath.Join(dir, "lookahead_stats*"))
	if err != nil {
		return nil, false, err
	}
	sort.Strings(files)
	var s *am.LookaheadStats
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, false, err
		}
		one, err := am.ReadLookaheadStats(f, name)
		f.Close()
		if err != nil {
			return nil, false, err
		}
		if s == nil {
			s = one
		} else if err := s.Merge(one); err != nil {
			return nil, false, fmt.Errorf("%s: %w", name, err)
		}
	}
	if s != nil {
		return s, false, nil
	}
	model := filepath.Join(filepath.Dir(dir), "final.am")
	f, err := am.Load(model)
	if err != nil {
		return nil, false, fmt.Errorf("%s: no lookahead_stats.* in %s (strode forward --lookahead-stats), and the model: %w", r.Source, dir, err)
	}
	s, err = am.NewLookaheadStats(f.Model.Opts, f.Pipeline)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %s: %w", r.Source, model, err)
	}
	if s.Variant != am.LookaheadFixed {
		return nil, false, fmt.Errorf("%s: %s reads a learned look-ahead, but %s has no lookahead_stats.* (decode it with strode forward --lookahead-stats)", r.Source, model, dir)
	}
	if err := s.Add(nil, 1); err != nil { // one frame stands for all: they wait the same
		return nil, false, err
	}
	return s, true, nil
}

// WriteMarkdown writes the rows as a Markdown table, the fixed line first
// (by look-ahead), then the learned points.
func WriteMarkdown(w io.Writer, rows []*Row) error {
	fmt.Fprintf(w, "| model | look-ahead | mean frames | p95 | in frame order: mean / p95 | %%WER per seed | mean ± s.e. |\n")
	fmt.Fprintf(w, "| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range ordered(rows) {
		kind := fmt.Sprintf("fixed (%d frames)", r.Look.Fixed)
		if r.Learned() {
			kind = fmt.Sprintf("learned, up to %d", r.Look.Max)
		}
		var wers []string
		for i, v := range r.WERs {
			wers = append(wers, fmt.Sprintf("%.2f (%s)", v, r.Seeds[i]))
		}
		se := "—"
		if r.WER.N > 1 {
			se = fmt.Sprintf("%.2f", r.WER.SE)
		}
		_, err := fmt.Fprintf(w, "| %s | %s | %.2f | %d | %.2f / %d | %s | %.2f ± %s |\n", r.Label, kind, r.Look.Mean(),
			r.Look.Percentile(0.95), r.Look.InOrderMean(), r.Look.InOrderPercentile(0.95), strings.Join(wers, ", "), r.WER.Mean, se)
		if err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\nSet %s. Look-ahead: input frames after its own that a frame's output waits for (10 ms each, beyond the 25 ms window); "+
		"learned: ceil(min(t~, L)) per frame; in frame order: the wait when outputs leave in order, as a decoder reads them. "+
		"s.e. over seeds.\n", rows[0].Set)
	return err
}

// ordered is the fixed rows by mean look-ahead, then the learned ones by it.
func ordered(rows []*Row) []*Row {
	out := append([]*Row(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Learned() != out[j].Learned() {
			return !out[i].Learned()
		}
		return out[i].Look.Mean() < out[j].Look.Mean()
	})
	return out
}
