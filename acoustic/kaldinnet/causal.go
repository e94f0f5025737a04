package kaldinnet

import (
	"fmt"
	"strings"

	"github.com/strode-asr/strode/acoustic/am"
)

// CausalUsage is the help of `strode train --causal`: what a causal model
// is and its latency.
const CausalUsage = "train a causal model for online decoding (online2-wav-latgen-faster): refuse every option that looks ahead " +
	"(--bidirectional=true, --right-context > 0) or normalises with statistics of whole utterances or speakers " +
	"(--utt-cmvn, --cmvn; train on apply-cmvn-online features instead, which online decoding reproduces). The STRODE head's " +
	"Gaussian prior reads x_{i+1} in training only. Look-ahead 0 frames: frame t's output needs only frames <= t, so its " +
	"algorithmic latency is one analysis window, 25 ms at a 25 ms window and 10 ms shift (15 ms beyond the frame's own hop). " +
	"--left-context stays free (e.g. 4, the left half of the usual +-4). A look-ahead asked for by name is allowed and logged: " +
	"--target-delay=N (N frames, 10 ms each) or --head-variant=lookahead (up to --max-lookahead frames; offline decoding only)"

// CheckCausal refuses a training setup whose model would look ahead:
// am.CheckCausalDelayed on the model and splicing, and CMVN from whole
// utterances (--utt-cmvn) or speakers' stats (--cmvn), which an online
// decoder cannot compute before the audio has ended. A bounded look-ahead
// asked for by name (--target-delay, --head-variant=lookahead) passes: the
// latency curve trains such causal models. With --init-model its options
// are the ones checked. It returns the model's look-ahead in frames (the
// most, for the look-ahead head) on success.
func (s TrainSetup) CheckCausal() (int, error) {
	p := s.Data.Pipeline(0)
	m := s.Model
	if s.InitModel != "" { // training goes on with that model's options
		f, err := am.Load(s.InitModel)
		if err != nil {
			return 0, err
		}
		m = f.Model.Opts
	}
	var why []string
	if err := am.CheckCausalDelayed(m, p); err != nil {
		why = append(why, strings.TrimPrefix(err.Error(), "am: not a causal model: "))
	}
	if s.Data.UttCMVN {
		why = append(why, "--utt-cmvn=true (each utterance's own stats: the whole utterance)")
	}
	if s.Data.CMVN != "" {
		why = append(why, fmt.Sprintf("--cmvn=%s (speaker stats over all their audio)", s.Data.CMVN))
	}
	if len(why) > 0 {
		return 0, fmt.Errorf("--causal: these options look ahead: %s", strings.Join(why, "; "))
	}
	return am.Lookahead(m, p), nil
}
