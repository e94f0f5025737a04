package trainer

import (
	"encoding/json"
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/modelfile"
)

// Summary is what a report needs from a model file: its options and training
// history, read from the file's header without its parameters.
type Summary struct {
	Options am.Options
	History []am.Epoch
}

// ReadSummary reads the options and history of a model file written by Save.
func ReadSummary(path string) (*Summary, error) {
	md, err := modelfile.ReadMetadataFile(path)
	if err != nil {
		return nil, err
	}
	if md["format"] != am.FormatVersion {
		return nil, fmt.Errorf("%s: not a strode acoustic model (format %q, want %q)", path, md["format"], am.FormatVersion)
	}
	s := &Summary{}
	if err := json.Unmarshal([]byte(md["options"]), &s.Options); err != nil {
		return nil, fmt.Errorf("%s: options: %w", path, err)
	}
	if h := md["history"]; h != "" && h != "null" {
		if err := json.Unmarshal([]byte(h), &s.History); err != nil {
			return nil, fmt.Errorf("%s: history: %w", path, err)
		}
	}
	return s, nil
}

// FinalEpoch is the epoch whose parameters the model holds: the last accepted
// one (early stopping and newbob both keep the best held-out epoch), or the
// last one when none was accepted. ok is false for an empty history.
func (s *Summary) FinalEpoch() (e am.Epoch, ok bool) {
	for i := len(s.History) - 1; i >= 0; i-- {
		if s.History[i].Accepted {
			return s.History[i], true
		}
	}
	if n := len(s.History); n > 0 {
		return s.History[n-1], true
	}
	return am.Epoch{}, false
}

// SecondsPerEpoch is the mean wall time of the epochs trained.
func (s *Summary) SecondsPerEpoch() float64 {
	if len(s.History) == 0 {
		return 0
	}
	t := 0.0
	for _, e := range s.History {
		t += e.Seconds
	}
	return t / float64(len(s.History))
}
