package compare

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
)

// number marshals NaN and ±Inf as JSON null (a value that needs more runs).
type number float64

func (x number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

type jsonSummary struct {
	N      int    `json:"n"`
	Mean   number `json:"mean"`
	SD     number `json:"sd"`
	SE     number `json:"se"`
	DF     int    `json:"df"`
	TQuant number `json:"t_quantile"`
	Lo     number `json:"lo"`
	Hi     number `json:"hi"`
	T      number `json:"t"`
	P      number `json:"p"`
}

func toJSONSummary(s Summary) jsonSummary {
	return jsonSummary{s.N, number(s.Mean), number(s.SD), number(s.SE), s.DF, number(s.TQuant),
		number(s.Lo), number(s.Hi), number(s.T), number(s.P)}
}

type jsonRun struct {
	Model     string `json:"model"`
	Condition string `json:"condition"`
	Seed      string `json:"seed"`
	WER       number `json:"wer"`
	Errors    *int   `json:"errors,omitempty"`
	Words     *int   `json:"words,omitempty"`
	Source    string `json:"source"`
}

func toJSONRun(r Run) jsonRun {
	j := jsonRun{Model: r.Model, Condition: r.Condition, Seed: r.Seed, WER: number(r.WER), Source: r.Source}
	if r.HasCounts() {
		e, n := r.Errors, r.Words
		j.Errors, j.Words = &e, &n
	}
	return j
}

type jsonCondition struct {
	Condition string `json:"condition"`
	Runs      int    `json:"runs"`
	Mean      number `json:"mean"`
}

type jsonModel struct {
	Model          string          `json:"model"`
	WER            jsonSummary     `json:"wer"`
	Pooled         number          `json:"pooled_wer"`
	Errors         int             `json:"errors"`
	Words          int             `json:"words"`
	Conditions     []jsonCondition `json:"conditions"`
	OverConditions jsonSummary     `json:"over_conditions"`
	Runs           []jsonRun       `json:"runs"`
}

type jsonPaired struct {
	Condition string `json:"condition"`
	Seed      string `json:"seed"`
	A         number `json:"a"`
	B         number `json:"b"`
	Diff      number `json:"diff"`
}

type jsonUnmatched struct {
	Run     jsonRun `json:"run"`
	Missing string  `json:"missing"`
}

type jsonPair struct {
	A    string      `json:"a"`
	B    string      `json:"b"`
	Diff jsonSummary `json:"diff"`
	// OverConditions: the per-condition means of diff summarised (absent when
	// no condition has two paired runs).
	OverConditions *jsonSummary    `json:"over_conditions,omitempty"`
	Better         int             `json:"b_better"`
	Worse          int             `json:"b_worse"`
	Ties           int             `json:"ties"`
	Paired         []jsonPaired    `json:"paired"`
	Unmatched      []jsonUnmatched `json:"unmatched"`
}

type jsonReport struct {
	Note       string      `json:"note"`
	Baseline   string      `json:"baseline,omitempty"`
	Confidence float64     `json:"confidence"`
	Models     []jsonModel `json:"models"`
	Pairs      []jsonPair  `json:"pairs"`
}

// WriteJSON writes every number of the report (compare.json): per model the
// summary, per-condition means and runs; per pair (diff = B − A, WER points)
// the summary, each paired run and the unmatched runs. Values that need more
// runs (an s.e. of one run) are null.
func WriteJSON(w io.Writer, rep *Report) error {
	j := jsonReport{
		Note:       "WER in percent; pair diff = b - a in WER points over runs matched on condition and seed; interval: Student t with n-1 df over pairs taken as independent",
		Baseline:   rep.Options.Baseline,
		Confidence: rep.Options.Confidence,
		Models:     []jsonModel{},
		Pairs:      []jsonPair{},
	}
	for _, m := range rep.Models {
		jm := jsonModel{Model: m.Model, WER: toJSONSummary(m.WER), Pooled: number(m.Pooled), Errors: m.Errors, Words: m.Words,
			OverConditions: toJSONSummary(m.OverConditions)}
		for _, c := range m.Conditions {
			jm.Conditions = append(jm.Conditions, jsonCondition{c.Condition, c.Runs, number(c.Mean)})
		}
		for _, r := range m.Runs {
			jm.Runs = append(jm.Runs, toJSONRun(r))
		}
		j.Models = append(j.Models, jm)
	}
	for _, p := range rep.Pairs {
		jp := jsonPair{A: p.A, B: p.B, Diff: toJSONSummary(p.Diff), Better: p.Better, Worse: p.Worse, Ties: p.Ties,
			Paired: []jsonPaired{}, Unmatched: []jsonUnmatched{}}
		if p.OverConditions.N > 0 {
			o := toJSONSummary(p.OverConditions)
			jp.OverConditions = &o
		}
		for _, r := range p.Paired {
			jp.Paired = append(jp.Paired, jsonPaired{r.Condition, r.Seed, number(r.A), number(r.B), number(r.Diff)})
		}
		for _, u := range p.Unmatched {
			jp.Unmatched = append(jp.Unmatched, jsonUnmatched{toJSONRun(u.Run), u.Missing})
		}
		j.Pairs = append(j.Pairs, jp)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
