package kaldinnet

import (
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// The causal check passes the causal setup (left context only, one
// direction, no CMVN on the fly) and names every option that looks ahead;
// a look-ahead asked for by name (a target delay, the look-ahead head)
// passes with its frames.
func TestCheckCausal(t *testing.T) {
	for _, kind := range []string{am.KindSRU, am.KindSTRODE, am.KindODERNN} {
		m, _ := am.PresetFor("small", kind)
		s := TrainSetup{Data: DefaultOptions(), Model: m}
		s.Data.LeftContext = 4
		if look, err := s.CheckCausal(); err != nil || look != 0 {
			t.Errorf("%s causal: %v, look-ahead %d", kind, err, look)
		}
		s.Model.TargetDelay = 2
		if look, err := s.CheckCausal(); err != nil || look != 2 {
			t.Errorf("%s causal, --target-delay=2: %v, look-ahead %d", kind, err, look)
		}
		s.Model.SRU.Bidirectional = true
		s.Data.RightContext, s.Data.UttCMVN, s.Data.CMVN = 4, true, "scp:cmvn.scp"
		_, err := s.CheckCausal()
		if err == nil {
			t.Fatalf("%s: look-ahead accepted", kind)
		}
		for _, opt := range []string{"--bidirectional", "--right-context=4", "--utt-cmvn", "--cmvn=scp:cmvn.scp"} {
			if !strings.Contains(err.Error(), opt) {
				t.Errorf("%s: %q does not name %s", kind, err, opt)
			}
		}
	}
	m, _ := am.PresetFor("small", am.KindSTRODE)
	m.HeadVariant, m.MaxLookahead = am.HeadLookahead, 6
	s := TrainSetup{Data: DefaultOptions(), Model: m}
	if look, err := s.CheckCausal(); err != nil || look != 6 {
		t.Errorf("causal lookahead head: %v, look-ahead %d, want 6", err, look)
	}
}
