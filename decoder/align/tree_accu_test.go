package align

import (
	"errors"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// An utterance of phones 1 2 1 with frames (2,1,1), (1,2,1), (1,1,2) per
// state and 1-dimensional features equal to the frame index: every event's
// statistics, worked by hand.
func TestAccumulateByHand(t *testing.T) {
	tm := treeMonoTM(t)
	var ali []int32
	ali = append(ali, treePhoneAli(t, tm, 1, [3]int{2, 1, 1})...)
	ali = append(ali, treePhoneAli(t, tm, 2, [3]int{1, 2, 1})...)
	ali = append(ali, treePhoneAli(t, tm, 1, [3]int{1, 1, 2})...)
	feats := kaldiio.NewMatrix(len(ali), 1)
	for i := range feats.Data {
		feats.Data[i] = float32(i)
	}
	type want struct{ count, x, x2 float64 }
	cases := []struct {
		name string
		ci   []int32
		want map[string]want
	}{
		{"triphones", nil, map[string]want{
			"-1:0 0:0 1:1 2:2": {2, 1, 1}, "-1:1 0:0 1:1 2:2": {1, 2, 4}, "-1:2 0:0 1:1 2:2": {1, 3, 9},
			"-1:0 0:1 1:2 2:1": {1, 4, 16}, "-1:1 0:1 1:2 2:1": {2, 11, 61}, "-1:2 0:1 1:2 2:1": {1, 7, 49},
			"-1:0 0:2 1:1 2:0": {1, 8, 64}, "-1:1 0:2 1:1 2:0": {1, 9, 81}, "-1:2 0:2 1:1 2:0": {2, 21, 221},
		}},
		{"phone 2 context-independent", []int32{2}, map[string]want{
			"-1:0 0:0 1:1 2:2": {2, 1, 1}, "-1:1 0:0 1:1 2:2": {1, 2, 4}, "-1:2 0:0 1:1 2:2": {1, 3, 9},
			"-1:0 1:2": {1, 4, 16}, "-1:1 1:2": {2, 11, 61}, "-1:2 1:2": {1, 7, 49},
			"-1:0 0:2 1:1 2:0": {1, 8, 64}, "-1:1 0:2 1:1 2:0": {1, 9, 81}, "-1:2 0:2 1:1 2:0": {2, 21, 221},
		}},
	}
	for _, c := range cases {
		acc, err := NewAccumulator(tm, AccumulateOptions{VarFloor: 0.01, ContextWidth: 3, CentralPosition: 1, CIPhones: c.ci})
		if err != nil {
			t.Fatal(err)
		}
		if err := acc.Accumulate(ali, &feats); err != nil {
			t.Fatal(err)
		}
		stats := acc.Stats()
		if len(stats) != len(c.want) {
			t.Errorf("%s: %d events, want %d", c.name, len(stats), len(c.want))
		}
		sorted := slices.Clone(stats)
		sorted.Sort()
		if !slices.EqualFunc(sorted, stats, func(a, b tree.Stat) bool { return a.Stats == b.Stats }) {
			t.Errorf("%s: stats not sorted by event", c.name)
		}
		for _, st := range stats {
			w, ok := c.want[st.Event.String()]
			if !ok {
				t.Errorf("%s: unexpected event %v", c.name, st.Event)
				continue
			}
			if st.Stats.Count != w.count || st.Stats.X[0] != w.x || st.Stats.X2[0] != w.x2 || st.Stats.VarFloor != float64(float32(0.01)) {
				t.Errorf("%s: event %v: stats %+v, want %+v", c.name, st.Event, *st.Stats, w)
			}
		}
	}
}

func TestAccumulateErrors(t *testing.T) {
	tm := treeMonoTM(t)
	ali := treePhoneAli(t, tm, 1, [3]int{1, 1, 1})
	acc, err := NewAccumulator(tm, AccumulateOptions{VarFloor: 0.01, ContextWidth: 3, CentralPosition: 1})
	if err != nil {
		t.Fatal(err)
	}
	f1 := kaldiio.NewMatrix(3, 2)
	if err := acc.Accumulate(ali, &f1); err != nil {
		t.Fatal(err)
	}
	f2 := kaldiio.NewMatrix(3, 3)
	if err := acc.Accumulate(ali, &f2); err == nil {
		t.Error("features of another dimension accepted")
	}
	f3 := kaldiio.NewMatrix(2, 2)
	if err := acc.Accumulate(ali, &f3); err == nil {
		t.Error("alignment and features of different lengths accepted")
	}
	if err := acc.Accumulate(ali[:2], &f3); !errors.Is(err, ErrBadAlignment) {
		t.Errorf("alignment cut mid-phone: %v, want ErrBadAlignment", err)
	}
	if _, err := NewAccumulator(tm, AccumulateOptions{ContextWidth: 3, CentralPosition: 3}); err == nil {
		t.Error("central position outside the window accepted")
	}
}
