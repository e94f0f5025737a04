package tree

import (
	"bytes"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// A tree with split questions (as in triphone systems) answers as Kaldi's
// EventMap and survives binary and text round trips unchanged.
func TestSplitEventMapRoundTrip(t *testing.T) {
	// Left context (key 0) in {3, 5}? then pdf-class table; else constant.
	tree := &ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: &SplitEventMap{
		Key:    0,
		YesSet: []int32{3, 5},
		Yes:    &TableEventMap{Key: PdfClassKey, Table: []EventMap{&ConstantEventMap{10}, nil, &ConstantEventMap{12}}},
		No:     &ConstantEventMap{7},
	}}
	for _, tc := range []struct {
		win   []int32
		class int32
		pdf   int32
		ok    bool
	}{
		{[]int32{3, 1, 2}, 0, 10, true},
		{[]int32{5, 1, 0}, 2, 12, true},
		{[]int32{5, 1, 0}, 1, 0, false}, // NULL entry
		{[]int32{4, 1, 2}, 1, 7, true},
	} {
		pdf, err := tree.Compute(tc.win, tc.class)
		if (err == nil) != tc.ok || (tc.ok && pdf != tc.pdf) {
			t.Errorf("Compute(%v, %d) = %d, %v; want %d ok=%v", tc.win, tc.class, pdf, err, tc.pdf, tc.ok)
		}
	}
	if tree.NumPdfs() != 13 {
		t.Errorf("NumPdfs %d", tree.NumPdfs())
	}
	for _, binary := range []bool{true, false} {
		var buf bytes.Buffer
		w := kaldiio.NewWriter(&buf)
		if err := ContextDependencyCodec.Write(w, binary, tree); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		first := buf.String()
		var back ContextDependency
		if err := ContextDependencyCodec.Read(kaldiio.NewReader(&buf, "tree"), binary, &back); err != nil {
			t.Fatalf("binary=%v: %v\n%q", binary, err, first)
		}
		buf.Reset()
		w = kaldiio.NewWriter(&buf)
		ContextDependencyCodec.Write(w, binary, &back)
		w.Flush()
		if buf.String() != first {
			t.Errorf("binary=%v: round trip changed the tree\n%q\n%q", binary, first, buf.String())
		}
		if pdf, _ := back.Compute([]int32{3, 1, 2}, 2); pdf != 12 {
			t.Errorf("binary=%v: read-back tree answers %d", binary, pdf)
		}
	}
	// Kaldi's text form of a split: "SE key [ set ]\n{ yes no } \n" (the set
	// is WriteIntegerVector's text, a table ends ") \n").
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	ContextDependencyCodec.Write(w, false, tree)
	w.Flush()
	if want := "ContextDependency 3 1 ToPdf SE 0 [ 3 5 ]\n{ TE -1 3 ( CE 10 NULL CE 12 ) \nCE 7 } \nEndContextDependency "; buf.String() != want {
		t.Errorf("text tree: %q, want %q", buf.String(), want)
	}
}
