package kaldinnet

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// TTildeStatsOptions name the tables of strode t-tilde-stats.
type TTildeStatsOptions struct {
	Ali        string // --ali: alignment rspecifier (transition-ids), required
	TransModel string // --transition-model: maps transition-ids to pdfs and phones, required
	Phones     string // --phones: phones.txt for names (optional: phone ids otherwise)
	CMVN       string // --cmvn, when the model's pipeline reads CMVN stats
	Utt2spk    string // --utt2spk
	MaxUtts    int    // --max-utts (0: all)

	// What strode t-tilde-stats writes besides its table (Report).
	MinFrames int    // --min-frames: phones with fewer frames are left out of the table
	JSON      string // --json: the statistics as JSON ("" none)
	PNG       string // --png: the histogram of t̃ ("" none)
}

// DefaultTTildeStatsOptions: phones with at least 20 frames in the table.
func DefaultTTildeStatsOptions() TTildeStatsOptions { return TTildeStatsOptions{MinFrames: 20} }

// Register adds strode t-tilde-stats's options to fs.
func (o *TTildeStatsOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Ali, "ali", o.Ali, "alignment rspecifier (transition-ids) (required)")
	fs.StringVar(&o.TransModel, "transition-model", o.TransModel, "transition model of the alignments (required)")
	fs.StringVar(&o.Phones, "phones", o.Phones, "phones.txt, to print phone names instead of ids")
	fs.StringVar(&o.CMVN, "cmvn", o.CMVN, "CMVN statistics rspecifier, when the model's pipeline applies CMVN from a table")
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "utterance-to-speaker rspecifier for --cmvn")
	fs.IntVar(&o.MaxUtts, "max-utts", o.MaxUtts, "stop after this many utterances (0: all)")
	fs.IntVar(&o.MinFrames, "min-frames", o.MinFrames, "print phones with at least this many frames")
	fs.StringVar(&o.JSON, "json", o.JSON, "write the statistics to this JSON file")
	fs.StringVar(&o.PNG, "png", o.PNG, "draw the histogram of t~ to this PNG (and the SVG beside it)")
}

// TTildeStatsReport is strode t-tilde-stats: the statistics of the model
// file at modelPath on the features, as a Markdown table on w and, as o
// asks, JSON and a histogram (a figure that cannot be drawn is logged, not
// fatal).
func TTildeStatsReport(modelPath, featRspec string, o TTildeStatsOptions, w io.Writer, log func(string, ...any)) error {
	f, err := am.Load(modelPath)
	if err != nil {
		return err
	}
	st, err := ComputeTTildeStats(f, featRspec, o, log)
	if err != nil {
		return err
	}
	if err := st.WriteMarkdown(w, o.MinFrames); err != nil {
		return err
	}
	if o.JSON != "" {
		if err := st.WriteJSON(o.JSON); err != nil {
			return err
		}
	}
	if o.PNG != "" {
		if err := st.SaveHistogram(o.PNG, "t~ of "+modelPath); err != nil {
			log("%v", err)
		}
	}
	return nil
}

// TTildeGroup summarises the frames of one phone (or of all frames).
type TTildeGroup struct {
	Name   string  `json:"name"`
	Frames int     `json:"frames"`
	Mean   float64 `json:"mean"`
	Std    float64 `json:"std"`
	P10    float64 `json:"p10"`
	P50    float64 `json:"p50"`
	P90    float64 `json:"p90"`
	// DeltaLogP is the mean over frames of log p(label | h(t̃)) − log p(label | h(0)):
	// what the ODE between 0 and t̃ adds to the aligned label's log-probability.
	DeltaLogP float64 `json:"delta_log_p_label"`
	// ArgChanged is the fraction of frames whose arg-max pdf differs between t = 0 and t = t̃.
	ArgChanged float64 `json:"argmax_changed"`
	values     []float64
	dlp        float64
	changed    int
}

// TTildeStats is the distribution of t̃ over the frames of a data set.
type TTildeStats struct {
	Utterances int            `json:"utterances"`
	Skipped    int            `json:"skipped"` // utterances without an alignment (or with a frame-count mismatch)
	All        TTildeGroup    `json:"all"`
	Phones     []*TTildeGroup `json:"phones"` // by phone, most frames first
	Values     []float64      `json:"-"`      // every frame's t̃ (for a histogram)
}

// ComputeTTildeStats runs the strode model of f on every utterance of
// featRspec and gathers every frame's t̃ by the phone its alignment gives,
// with the head's effect on the aligned pdf (am.HeadEffect).
func ComputeTTildeStats(f *am.File, featRspec string, o TTildeStatsOptions, log func(string, ...any)) (*TTildeStats, error) {
	if f.Model.Opts.Kind != am.KindSTRODE {
		return nil, fmt.Errorf("dataset: t~ statistics need a strode model, this one is %q", f.Model.Opts.Kind)
	}
	if o.Ali == "" || o.TransModel == "" {
		return nil, errors.New("dataset: t~ statistics need --ali and --transition-model")
	}
	tm, err := hmm.ReadTransitionModel(o.TransModel)
	if err != nil {
		return nil, err
	}
	var names *fst.SymbolTable
	if o.Phones != "" {
		if names, err = fst.ReadSymbolTableFile(o.Phones); err != nil {
			return nil, err
		}
	}
	ar, err := kaldiio.OpenRandomAccessReader(o.Ali, kaldiio.IntVectorCodec)
	if err != nil {
		return nil, err
	}
	defer ar.Close()
	tr, err := NewTransformer(f.Pipeline, o.CMVN, o.Utt2spk)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	sr, err := kaldiio.OpenSequentialReader(featRspec, kaldiio.MatrixCodec)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	fw := am.NewForwarder(f.Model)
	defer fw.Close()
	st := &TTildeStats{All: TTildeGroup{Name: "all"}}
	byPhone := map[int32]*TTildeGroup{}
	hid := f.Model.Opts.SRU.OutDim()
	for (o.MaxUtts <= 0 || st.Utterances < o.MaxUtts) && sr.Next() {
		key, m := sr.Key(), sr.Value()
		ali, err := ar.Value(key)
		if errors.Is(err, kaldiio.ErrNotFound) {
			st.Skipped++
			continue
		} else if err != nil {
			return nil, err
		}
		if len(ali) != m.Rows {
			log("utterance %s: %d feature frames, %d aligned frames: skipped", key, m.Rows, len(ali))
			st.Skipped++
			continue
		}
		feats, err := tr.Apply(key, &m)
		if err != nil {
			return nil, err
		}
		g, err := fw.Run(&am.Utterance{Key: key, Rows: m.Rows, Feats: feats})
		if err != nil {
			return nil, err
		}
		tt, enc := g.Rows(g.TTilde, 0), g.Rows(g.Enc, 0)
		for i, tid := range ali {
			if tid < 1 || int(tid) >= len(tm.TransitionIDToPdfArray()) {
				return nil, fmt.Errorf("dataset: %s: utterance %s frame %d: transition-id %d out of range", o.Ali, key, i, tid)
			}
			eff, err := f.Model.HeadEffect(enc[i*hid:(i+1)*hid], tt[i], int(tm.TransitionIDToPdf(tid)))
			if err != nil {
				return nil, fmt.Errorf("dataset: utterance %s frame %d: %w", key, i, err)
			}
			ph := tm.TransitionIDToPhone(tid)
			grp := byPhone[ph]
			if grp == nil {
				grp = &TTildeGroup{Name: fmt.Sprint(ph)}
				if names != nil {
					if s, ok := names.Symbol(int64(ph)); ok {
						grp.Name = s
					}
				}
				byPhone[ph] = grp
			}
			for _, gr := range []*TTildeGroup{grp, &st.All} {
				gr.add(tt[i], eff)
			}
		}
		st.Utterances++
	}
	if err := sr.Err(); err != nil {
		return nil, err
	}
	if len(st.All.values) == 0 {
		return nil, fmt.Errorf("dataset: no aligned frames in %s (%d utterances skipped)", featRspec, st.Skipped)
	}
	st.Values = append([]float64(nil), st.All.values...)
	st.All.finish()
	for _, gr := range byPhone {
		gr.finish()
		st.Phones = append(st.Phones, gr)
	}
	sort.Slice(st.Phones, func(a, b int) bool {
		if st.Phones[a].Frames != st.Phones[b].Frames {
			return st.Phones[a].Frames > st.Phones[b].Frames
		}
		return st.Phones[a].Name < st.Phones[b].Name
	})
	return st, nil
}

func (g *TTildeGroup) add(tt float64, e am.HeadEffect) {
	g.values = append(g.values, tt)
	g.dlp += e.LogPT - e.LogP0
	if e.ArgT != e.Arg0 {
		g.changed++
	}
}

func (g *TTildeGroup) finish() {
	v := g.values
	n := len(v)
	g.Frames = n
	var s, s2 float64
	for _, x := range v {
		s += x
	}
	g.Mean = s / float64(n)
	for _, x := range v {
		s2 += (x - g.Mean) * (x - g.Mean)
	}
	g.Std = math.Sqrt(s2 / float64(n))
	sorted := append([]float64(nil), v...)
	sort.Float64s(sorted)
	q := func(p float64) float64 { return sorted[int(math.Round(p*float64(n-1)))] }
	g.P10, g.P50, g.P90 = q(0.1), q(0.5), q(0.9)
	g.DeltaLogP = g.dlp / float64(n)
	g.ArgChanged = float64(g.changed) / float64(n)
	g.values = nil
}
