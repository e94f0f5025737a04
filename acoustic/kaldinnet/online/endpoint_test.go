package online

import (
	"flag"
	"math"
	"testing"
)

// Kaldi's default rules on the numbers EndpointDetected reads (frames of
// 10 ms): each rule fires where its comment in online-endpoint.h says.
func TestEndpointRules(t *testing.T) {
	c := DefaultEndpointConfig()
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name            string
		frames, silence int
		relCost         float32
		want            bool
	}{
		{"nothing yet", 100, 100, inf, false},
		{"rule1: 5 s of silence, nothing decoded", 500, 500, inf, true},
		{"4.9 s of silence only", 490, 490, inf, false},
		{"rule2: 0.5 s after speech, final with cost 2", 300, 50, 2, true},
		{"0.5 s after speech, cost 2.5", 300, 50, 2.5, false},
		{"rule3: 1 s after speech, cost 8", 300, 100, 8, true},
		{"1 s after speech, not final", 300, 100, inf, false},
		{"rule4: 2 s after speech, not final", 400, 200, inf, true},
		{"rule5: 20 s", 2000, 0, inf, true},
		{"19.99 s", 1999, 0, inf, false},
	} {
		if got := c.Detected(tc.frames, tc.silence, 0.01, tc.relCost); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The options have Kaldi's names and read Kaldi's "inf".
func TestEndpointOptions(t *testing.T) {
	c := DefaultEndpointConfig()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.Register(fs)
	for _, kv := range [][2]string{
		{"endpoint.silence-phones", "1:2"},
		{"endpoint.rule2.max-relative-cost", "inf"},
		{"endpoint.rule5.min-utterance-length", "10"},
		{"endpoint.rule1.must-contain-nonsilence", "true"},
	} {
		if err := fs.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("--%s=%s: %v", kv[0], kv[1], err)
		}
	}
	if !math.IsInf(c.Rules[1].MaxRelativeCost, 1) || c.Rules[4].MinUtteranceLength != 10 || !c.Rules[0].MustContainNonsilence {
		t.Errorf("options not set: %+v", c.Rules)
	}
	if got := fs.Lookup("endpoint.rule1.max-relative-cost").DefValue; got != "inf" {
		t.Errorf("rule1 max-relative-cost default prints %q", got)
	}
	set, err := c.SilenceSet(nil)
	if err != nil || !set[1] || !set[2] || len(set) != 2 {
		t.Errorf("silence phones 1:2: %v, %v", set, err)
	}
	for _, bad := range []string{"", "1:x", "2:2"} {
		c.SilencePhones = bad
		if _, err := c.SilenceSet(nil); err == nil {
			t.Errorf("--endpoint.silence-phones=%q: no error", bad)
		}
	}
}
