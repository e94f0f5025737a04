package am

import (
	"encoding/json"
	"fmt"
)

// Pipeline is the feature pipeline a model was trained on, stored in its
// file so that forward can apply the same steps and refuse features that do
// not fit (DESIGN.md §5, sharp edge 2). The feature extraction itself
// happened before the tables were written; Features records its command
// line for the reader.
type Pipeline struct {
	Features    string `json:"features,omitempty"` // e.g. "compute-fbank-feats --num-mel-bins=23 --sample-frequency=8000"
	RawDim      int    `json:"raw_dim"`            // dimension of the table's features
	CMVN        string `json:"cmvn"`               // "none", "utterance" (stats of each utterance) or "table" (stats from --cmvn, per speaker)
	NormMeans   bool   `json:"norm_means"`
	NormVars    bool   `json:"norm_vars"`
	SpliceLeft  int    `json:"splice_left"`
	SpliceRight int    `json:"splice_right"`
}

// CMVN modes of a Pipeline.
const (
	CMVNNone      = "none"
	CMVNUtterance = "utterance"
	CMVNTable     = "table"
)

// InputDim is the model's input dimension after splicing.
func (p Pipeline) InputDim() int { return p.RawDim * (1 + p.SpliceLeft + p.SpliceRight) }

// Validate checks the pipeline.
func (p Pipeline) Validate() error {
	if p.RawDim < 1 || p.SpliceLeft < 0 || p.SpliceRight < 0 {
		return fmt.Errorf("am: feature pipeline: raw dim %d, splice %d/%d", p.RawDim, p.SpliceLeft, p.SpliceRight)
	}
	switch p.CMVN {
	case CMVNNone, CMVNUtterance, CMVNTable:
	default:
		return fmt.Errorf("am: feature pipeline: unknown CMVN mode %q (want none, utterance or table)", p.CMVN)
	}
	return nil
}

// JSON is the pipeline as one line of JSON.
func (p Pipeline) JSON() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// String describes the pipeline for people.
func (p Pipeline) String() string {
	s := fmt.Sprintf("raw dim %d", p.RawDim)
	if p.Features != "" {
		s = p.Features + "; " + s
	}
	if p.CMVN != CMVNNone {
		s += fmt.Sprintf("; CMVN %s (means %v, variances %v)", p.CMVN, p.NormMeans, p.NormVars)
	}
	if p.SpliceLeft+p.SpliceRight > 0 {
		s += fmt.Sprintf("; splice -%d/+%d", p.SpliceLeft, p.SpliceRight)
	}
	return s + fmt.Sprintf("; input dim %d", p.InputDim())
}
