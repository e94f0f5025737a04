package align

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// toyTid is the transition-id of phone p's HMM state s in toyModel: its
// forward transition, or its self-loop.
func toyTid(tm *hmm.TransitionModel, p, s int32, selfLoop bool) int32 {
	ts := tm.TransitionStateOf(hmm.TransitionTuple{Phone: p, HmmState: s, ForwardPdf: 3*(p-1) + s, SelfLoopPdf: 3*(p-1) + s})
	if selfLoop {
		return tm.PairToTransitionID(ts, 0)
	}
	return tm.PairToTransitionID(ts, 1)
}

// AliToPdf maps each transition-id to its pdf-id (toyModel: pdf =
// 3·(phone-1) + state, the same for a state's self-loop and forward
// transition), and rejects transition-ids outside the model.
func TestAliToPdf(t *testing.T) {
	tm, _ := toyModel(t, 3)
	fwd := func(p, s int32) int32 { return toyTid(tm, p, s, false) }
	loop := func(p, s int32) int32 { return toyTid(tm, p, s, true) }
	for _, tc := range []struct {
		name string
		ali  []int32
		want []int32
		err  bool
	}{
		{"empty", nil, []int32{}, false},
		{"one phone, self-loops after the forward transition",
			[]int32{fwd(1, 0), loop(1, 0), fwd(1, 1), fwd(1, 2), loop(1, 2)}, []int32{0, 0, 1, 2, 2}, false},
		{"two phones", []int32{fwd(3, 0), fwd(3, 1), loop(3, 1), fwd(3, 2), fwd(2, 0), fwd(2, 1), fwd(2, 2)},
			[]int32{6, 7, 7, 8, 3, 4, 5}, false},
		{"transition-id 0", []int32{fwd(1, 0), 0}, nil, true},
		{"transition-id past the model", []int32{int32(tm.NumTransitionIDs()) + 1}, nil, true},
		{"negative transition-id", []int32{-3}, nil, true},
	} {
		got, err := AliToPdf(tm, tc.ali)
		if tc.err {
			if !errors.Is(err, hmm.ErrModel) {
				t.Errorf("%s: got %v, %v; want an hmm.ErrModel error", tc.name, got, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// Counts sums (optionally weighted) label occurrences as analyze-counts
// does, growing past --counts-dim, and Smoothed adds half a count to each.
func TestCounts(t *testing.T) {
	type add struct {
		labels []int32
		utt    float64
		frames []float32
	}
	for _, tc := range []struct {
		name     string
		dim      int
		adds     []add
		want     []float64
		zero     []int
		errAt    int // index of the Add that fails, -1 if none
		dimError bool
	}{
		{"plain", 4, []add{{[]int32{0, 2, 2}, 1, nil}, {[]int32{2, 3}, 1, nil}}, []float64{1, 0, 3, 1}, []int{1}, -1, false},
		{"grows past dim", 0, []add{{[]int32{1, 4}, 1, nil}}, []float64{0, 1, 0, 0, 1}, []int{0, 2, 3}, -1, false},
		{"utterance weight", 2, []add{{[]int32{0, 1, 1}, 0.5, nil}}, []float64{0.5, 1}, nil, -1, false},
		{"frame weights", 2, []add{{[]int32{0, 1, 1}, 2, []float32{0.25, 1, 0.5}}}, []float64{0.5, 3}, nil, -1, false},
		{"negative label", 2, []add{{[]int32{0}, 1, nil}, {[]int32{1, -1}, 1, nil}}, nil, nil, 1, false},
		{"frame weights of the wrong length", 2, []add{{[]int32{0, 1}, 1, []float32{1}}}, nil, nil, 0, true},
	} {
		c := NewCounts(tc.dim)
		failed := -1
		for i, a := range tc.adds {
			if err := c.Add(a.labels, a.utt, a.frames); err != nil {
				failed = i
				if tc.dimError && !errors.Is(err, ErrDimMismatch) {
					t.Errorf("%s: %v is not ErrDimMismatch", tc.name, err)
				}
				break
			}
		}
		if failed != tc.errAt {
			t.Errorf("%s: Add %d failed, want %d", tc.name, failed, tc.errAt)
		}
		if tc.errAt >= 0 {
			continue
		}
		if !slices.EqualFunc(c.Counts, tc.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
			t.Errorf("%s: counts %v, want %v", tc.name, c.Counts, tc.want)
		}
		if !slices.Equal(c.Zero(), tc.zero) {
			t.Errorf("%s: zero %v, want %v", tc.name, c.Zero(), tc.zero)
		}
		sm := c.Smoothed()
		for i := range sm {
			if math.Abs(sm[i]-(tc.want[i]+0.5)) > 1e-9 {
				t.Errorf("%s: smoothed[%d] = %g, want %g", tc.name, i, sm[i], tc.want[i]+0.5)
			}
		}
	}
}

// On kaldi-mini's training alignments, AliToPdf gives Kaldi's ali-to-pdf
// and Counts over those pdfs Kaldi's analyze-counts (golden/pdf_counts.txt).
func TestAliToPdfAndCountsKaldiMini(t *testing.T) {
	k := loadKaldiMini(t)
	ali := readTable(t, "ark:"+filepath.Join(k.dir, "exp/mono/ali.1.txt.ark"), kaldiio.IntVectorCodec)
	want := readTable(t, "ark:"+filepath.Join(k.dir, "exp/mono/ali.1.pdf.txt.ark"), kaldiio.IntVectorCodec)
	if len(ali) == 0 || len(ali) != len(want) {
		t.Fatalf("%d alignments, %d pdf alignments", len(ali), len(want))
	}
	counts := NewCounts(0)
	for key, a := range ali {
		pdfs, err := AliToPdf(k.tm, a)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !slices.Equal(pdfs, []int32(want[key])) {
			t.Errorf("%s: ali-to-pdf differs from Kaldi's", key)
		}
		if err := counts.Add(pdfs, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	var golden kaldiio.DoubleVector
	if err := kaldiio.ReadObject(filepath.Join(k.dir, "golden/pdf_counts.txt"), kaldiio.DoubleVectorCodec, &golden); err != nil {
		t.Fatal(err)
	}
	got := counts.Smoothed()
	if len(got) != len(golden) {
		t.Fatalf("%d counts, Kaldi has %d", len(got), len(golden))
	}
	for i := range got {
		if math.Abs(got[i]-golden[i]) > 1e-6 {
			t.Errorf("pdf %d: count %g, Kaldi %g", i, got[i], golden[i])
		}
	}
}
