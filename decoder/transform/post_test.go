package transform

import (
	"math"
	"testing"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// weight-silence-post, plain and --distribute, on a real model's
// transition-ids: silence entries scaled (dropped at 0) or whole frames
// scaled by their silence share; pdf posteriors summed by pdf.
func TestWeightSilencePost(t *testing.T) {
	m, err := gmm.ReadModel("../gmm/testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	tm := &m.Trans
	var sil, speech int32 = -1, -1
	for id := int32(1); id <= int32(tm.NumTransitionIDs()); id++ {
		switch ph := tm.TransitionIDToPhone(id); {
		case ph == 1 && sil < 0:
			sil = id
		case ph > 5 && speech < 0:
			speech = id
		}
	}
	silSet := map[int32]bool{1: true}
	mk := func() kaldiio.Posterior {
		return kaldiio.Posterior{{{ID: sil, Weight: 0.25}, {ID: speech, Weight: 0.75}}, {{ID: sil, Weight: 1}}, {{ID: speech, Weight: 1}}}
	}
	post := mk()
	if err := WeightSilencePost(tm, silSet, 0, false, post); err != nil {
		t.Fatal(err)
	}
	if len(post[0]) != 1 || post[0][0].ID != speech || len(post[1]) != 0 || len(post[2]) != 1 {
		t.Errorf("weight 0: %v", post)
	}
	post = mk()
	if err := WeightSilencePost(tm, silSet, 0.5, true, post); err != nil {
		t.Fatal(err)
	}
	// Frame 0: scale (0.25·0.5 + 0.75)/1 = 0.875 on both entries.
	if math.Abs(float64(post[0][0].Weight)-0.25*0.875) > 1e-7 || math.Abs(float64(post[0][1].Weight)-0.75*0.875) > 1e-7 ||
		post[1][0].Weight != 0.5 || post[2][0].Weight != 1 {
		t.Errorf("--distribute 0.5: %v", post)
	}
	pdf := PostToPdfs(tm, kaldiio.Posterior{{{ID: speech, Weight: 0.5}, {ID: speech, Weight: 0.25}}})
	if len(pdf[0]) != 1 || pdf[0][0].Weight != 0.75 || pdf[0][0].ID != tm.TransitionIDToPdf(speech) {
		t.Errorf("pdf posteriors %v", pdf)
	}
	if err := WeightSilencePost(tm, silSet, 0, false, kaldiio.Posterior{{{ID: 99999, Weight: 1}}}); err == nil {
		t.Error("transition-id 99999: want an error")
	}
}
