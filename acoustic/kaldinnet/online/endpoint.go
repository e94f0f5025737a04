package online

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/hmm"
)

// EndpointRule is Kaldi's OnlineEndpointRule: it fires when the utterance
// (if must-contain-nonsilence) has decoded something other than silence,
// the best path ends in at least min-trailing-silence seconds of silence
// phones, the final relative cost (how far the best path is from ending in
// a final state of the graph) is at most max-relative-cost, and the
// utterance is at least min-utterance-length seconds long.
type EndpointRule struct {
	MustContainNonsilence bool
	MinTrailingSilence    float64
	MaxRelativeCost       float64
	MinUtteranceLength    float64
}

func (r *EndpointRule) register(fs *flag.FlagSet, prefix string) {
	fs.BoolVar(&r.MustContainNonsilence, prefix+".must-contain-nonsilence", r.MustContainNonsilence, "If true, for this endpointing rule to apply there must be nonsilence in the best-path traceback.")
	fs.Float64Var(&r.MinTrailingSilence, prefix+".min-trailing-silence", r.MinTrailingSilence, "This endpointing rule requires duration of trailing silence(in seconds) to be >= this value.")
	fs.Var(infFloat{&r.MaxRelativeCost}, prefix+".max-relative-cost", "This endpointing rule requires relative-cost of final-states to be <= this value (describes how good the probability of final-states is).")
	fs.Float64Var(&r.MinUtteranceLength, prefix+".min-utterance-length", r.MinUtteranceLength, "This endpointing rule requires utterance-length (in seconds) to be >= this value.")
}

// activated is Kaldi's RuleActivated.
func (r EndpointRule) activated(trailingSilence, relativeCost, utteranceLength float64) bool {
	containsNonsilence := utteranceLength > trailingSilence
	return (containsNonsilence || !r.MustContainNonsilence) &&
		trailingSilence >= r.MinTrailingSilence &&
		relativeCost <= r.MaxRelativeCost &&
		utteranceLength >= r.MinUtteranceLength
}

// EndpointConfig is Kaldi's OnlineEndpointConfig, with its options
// (--endpoint.silence-phones, --endpoint.rule1.min-trailing-silence, …)
// and defaults:
//
//	rule1: 5 s of silence, even if nothing was decoded
//	rule2: 0.5 s of silence after something, if a final state is reached with relative cost ≤ 2
//	rule3: 1 s of silence after something, relative cost ≤ 8
//	rule4: 2 s of silence after something, whatever the final state
//	rule5: an utterance of 20 s, whatever else
type EndpointConfig struct {
	SilencePhones string // colon-separated integer phone ids
	Rules         [5]EndpointRule
}

// DefaultEndpointConfig is Kaldi's default.
func DefaultEndpointConfig() EndpointConfig {
	inf := math.Inf(1)
	return EndpointConfig{Rules: [5]EndpointRule{
		{false, 5.0, inf, 0},
		{true, 0.5, 2.0, 0},
		{true, 1.0, 8.0, 0},
		{true, 2.0, inf, 0},
		{false, 0, inf, 20.0},
	}}
}

// Register adds the options with Kaldi's names (endpoint.silence-phones,
// endpoint.ruleN.*).
func (c *EndpointConfig) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.SilencePhones, "endpoint.silence-phones", c.SilencePhones, "List of phones that are considered to be silence phones by the endpointing code.")
	for i := range c.Rules {
		c.Rules[i].register(fs, fmt.Sprintf("endpoint.rule%d", i+1))
	}
}

// SilenceSet parses --endpoint.silence-phones (Kaldi requires it, sorted
// without duplicates, for endpointing) and checks the phones against tm.
func (c EndpointConfig) SilenceSet(tm *hmm.TransitionModel) (map[int32]bool, error) {
	if strings.TrimSpace(c.SilencePhones) == "" {
		return nil, fmt.Errorf("online: endpointing requires a nonempty --endpoint.silence-phones option (colon-separated phone ids, e.g. 1:2:3)")
	}
	var phones []int32
	for _, f := range strings.Split(c.SilencePhones, ":") {
		p, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("online: bad --endpoint.silence-phones option in endpointing config: %q", c.SilencePhones)
		}
		phones = append(phones, int32(p))
	}
	sorted := slices.Clone(phones)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(phones) {
		return nil, fmt.Errorf("online: duplicates in --endpoint.silence-phones option in endpointing config: %q", c.SilencePhones)
	}
	set := map[int32]bool{}
	for _, p := range phones {
		if tm != nil && !slices.Contains(tm.Phones(), p) {
			return nil, fmt.Errorf("online: --endpoint.silence-phones: phone %d is not a phone of the transition model", p)
		}
		set[p] = true
	}
	return set, nil
}

// Detected is Kaldi's EndpointDetected on the numbers it reads from the
// decoder: frames decoded, trailing silence frames, the frame shift in
// seconds and the final relative cost.
func (c EndpointConfig) Detected(framesDecoded, trailingSilenceFrames int, frameShift float64, finalRelativeCost float32) bool {
	utteranceLength := float64(framesDecoded) * frameShift
	trailingSilence := float64(trailingSilenceFrames) * frameShift
	for _, r := range c.Rules {
		if r.activated(trailingSilence, float64(finalRelativeCost), utteranceLength) {
			return true
		}
	}
	return false
}

// TrailingSilence is Kaldi's TrailingSilenceLength on a best-path
// alignment: the number of frames at its end whose transition-id belongs
// to a silence phone.
func TrailingSilence(alignment []int32, tm *hmm.TransitionModel, silence map[int32]bool) int {
	n := 0
	for i := len(alignment) - 1; i >= 0; i-- {
		if !silence[tm.TransitionIDToPhone(alignment[i])] {
			break
		}
		n++
	}
	return n
}

// infFloat is a float64 option that also reads Kaldi's "inf" and prints
// +Inf as Kaldi does.
type infFloat struct{ p *float64 }

func (f infFloat) String() string {
	if f.p == nil {
		return ""
	}
	if math.IsInf(*f.p, 1) {
		return "inf"
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

// Get makes usage texts call it a float.
func (f infFloat) Get() any { return *f.p }

func (f infFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}
