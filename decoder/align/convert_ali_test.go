package align

import (
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// treePdfPairs gives each (phone, HMM state) of treeTopo the pdfs of
// treeHandTree: two per state (left phone 1 or not).
func treePdfPairs(ctx *tree.ContextDependency) func(phone, state int32) ([][2]int32, error) {
	return func(phone, state int32) ([][2]int32, error) {
		var out [][2]int32
		for _, left := range []int32{1, 2} {
			pdf, err := ctx.Compute([]int32{left, phone, 0}, state)
			if err != nil {
				return nil, err
			}
			out = append(out, [2]int32{pdf, pdf})
		}
		return out, nil
	}
}

// convert-ali: every frame keeps its phone, state and transition kind, and
// takes the new tree's pdf for its phone window; the reordering follows
// --reorder.
func TestConvertAlignment(t *testing.T) {
	ctx := treeHandTree()
	newTM, err := hmm.NewTransitionModelMulti(treeTopo(t), treePdfPairs(ctx))
	if err != nil {
		t.Fatal(err)
	}
	oldTM := treeMonoTM(t)
	phones := []int32{1, 2, 1, 3, 4}
	var ali []int32
	for i, p := range phones {
		ali = append(ali, treePhoneAli(t, oldTM, p, [3]int{1 + i%2, 2, 3})...)
	}
	for _, reorder := range []bool{true, false} {
		conv, err := NewAlignmentConverter(oldTM, newTM, ctx, ConvertAlignmentOptions{Reorder: reorder})
		if err != nil {
			t.Fatal(err)
		}
		out, err := conv.Convert(ali)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(ali) {
			t.Fatalf("reorder=%v: %d frames from %d", reorder, len(out), len(ali))
		}
		if reorderedAlignment(newTM, out) != reorder {
			t.Errorf("reorder=%v: output reordered=%v", reorder, reorderedAlignment(newTM, out))
		}
		split, ok, err := SplitToPhones(newTM, out)
		if err != nil || !ok || len(split) != len(phones) {
			t.Fatalf("reorder=%v: converted alignment splits into %d phones (ok=%v, %v)", reorder, len(split), ok, err)
		}
		pdfs, _ := AliToPdf(newTM, out)
		f := 0
		for i, s := range split {
			window := []int32{0, phones[i], 0}
			if i > 0 {
				window[0] = phones[i-1]
			}
			if i+1 < len(phones) {
				window[2] = phones[i+1]
			}
			for _, tid := range s {
				if newTM.TransitionIDToPhone(tid) != phones[i] {
					t.Errorf("frame %d: phone %d, want %d", f, newTM.TransitionIDToPhone(tid), phones[i])
				}
				want, err := ctx.Compute(window, newTM.TransitionIDToHmmState(tid))
				if err != nil || pdfs[f] != want {
					t.Errorf("frame %d: pdf %d, want the tree's %d for %v (%v)", f, pdfs[f], want, window, err)
				}
				f++
			}
		}
	}
	conv, _ := NewAlignmentConverter(oldTM, newTM, ctx, ConvertAlignmentOptions{Reorder: true})
	if _, err := conv.Convert(ali[:3]); err == nil {
		t.Error("an alignment cut mid-phone converted")
	}
}
