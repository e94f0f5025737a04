package kaldinnet

import (
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// The causal check passes the causal setup (left context only, one
// direction, no delay, no CMVN on the fly) and names every option that
// looks ahead.
func TestCheckCausal(t *testing.T) {
	for _, kind := range []string{am.KindSRU, am.KindSTRODE, am.KindODERNN} {
		m, _ := am.PresetFor("small", kind)
		s := TrainSetup{Data: DefaultOptions(), Model: m}
		s.Data.LeftContext = 4
		if look, err := s.CheckCausal(); err != nil || look != 0 {
			t.Errorf("%s causal: %v, look-ahead %d", kind, err, look)
		}
		s.Model.SRU.Bidirectional = true
		s.Model.TargetDelay = 2
		s.Data.RightContext, s.Data.UttCMVN, s.Data.CMVN = 4, true, "scp:cmvn.scp"
		_, err := s.CheckCausal()
		if err == nil {
			t.Fatalf("%s: look-ahead accepted", kind)
		}
		for _, opt := range []string{"--bidirectional", "--right-context=4", "--target-delay=2", "--utt-cmvn", "--cmvn=scp:cmvn.scp"} {
			if !strings.Contains(err.Error(), opt) {
				t.Errorf("%s: %q does not name %s", kind, err, opt)
			}
		}
	}
}
