package tree

import (
	"errors"
	"fmt"
	"slices"
)

// ErrModel marks a tree that cannot answer what it is asked (a window of the
// wrong width, no pdf for an event). The tree and the transition model are
// the two halves of Kaldi's acoustic model, so package hmm's ErrModel is
// this same value and callers test for one sentinel.
var ErrModel = errors.New("bad HMM model")

// PdfClassKey is the event key of the pdf-class (Kaldi's kPdfClass); keys
// 0..N-1 are the phones of the context window.
const PdfClassKey = -1

// EventMap is a node of Kaldi's decision tree: it maps an event (sorted
// key/value pairs) to an answer. A nil EventMap is Kaldi's NULL (no answer).
type EventMap interface {
	// Map returns the answer for event, false when the tree has none.
	Map(event []EventPair) (int32, bool)
	// MaxResult is the largest answer in the subtree (-1 if none).
	MaxResult() int32
}

// EventPair is one (key, value) of an event.
type EventPair struct{ Key, Value int32 }

func eventValue(event []EventPair, key int32) (int32, bool) {
	for _, p := range event {
		if p.Key == key {
			return p.Value, true
		}
	}
	return 0, false
}

// ConstantEventMap ("CE") always answers Answer.
type ConstantEventMap struct{ Answer int32 }

// Map implements EventMap.
func (m *ConstantEventMap) Map([]EventPair) (int32, bool) { return m.Answer, true }

// MaxResult implements EventMap.
func (m *ConstantEventMap) MaxResult() int32 { return m.Answer }

// TableEventMap ("TE") looks up the value of Key in Table.
type TableEventMap struct {
	Key   int32
	Table []EventMap // entries may be nil
}

// Map implements EventMap.
func (m *TableEventMap) Map(event []EventPair) (int32, bool) {
	v, ok := eventValue(event, m.Key)
	if !ok || v < 0 || int(v) >= len(m.Table) || m.Table[v] == nil {
		return 0, false
	}
	return m.Table[v].Map(event)
}

// MaxResult implements EventMap.
func (m *TableEventMap) MaxResult() int32 {
	r := int32(-1)
	for _, t := range m.Table {
		if t != nil {
			r = max(r, t.MaxResult())
		}
	}
	return r
}

// SplitEventMap ("SE") asks whether the value of Key is in the sorted
// YesSet.
type SplitEventMap struct {
	Key     int32
	YesSet  []int32
	Yes, No EventMap
}

// Map implements EventMap.
func (m *SplitEventMap) Map(event []EventPair) (int32, bool) {
	v, ok := eventValue(event, m.Key)
	if !ok {
		return 0, false
	}
	if _, in := slices.BinarySearch(m.YesSet, v); in {
		return m.Yes.Map(event)
	}
	return m.No.Map(event)
}

// MaxResult implements EventMap.
func (m *SplitEventMap) MaxResult() int32 { return max(m.Yes.MaxResult(), m.No.MaxResult()) }

// ContextDependency is Kaldi's decision tree over phone windows of width
// ContextWidth with the central phone at CentralPosition.
type ContextDependency struct {
	ContextWidth    int32 // N
	CentralPosition int32 // P
	ToPdf           EventMap
}

// Compute maps a phone window (length N; 0 for "no phone" at the edges) and
// a pdf-class to a pdf-id.
func (c *ContextDependency) Compute(window []int32, pdfClass int32) (int32, error) {
	if int32(len(window)) != c.ContextWidth {
		return 0, fmt.Errorf("%w: phone window of %d for a tree of context width %d", ErrModel, len(window), c.ContextWidth)
	}
	event := make([]EventPair, 0, len(window)+1)
	event = append(event, EventPair{PdfClassKey, pdfClass})
	for i, p := range window {
		event = append(event, EventPair{int32(i), p})
	}
	if c.ToPdf == nil {
		return 0, fmt.Errorf("%w: empty tree", ErrModel)
	}
	pdf, ok := c.ToPdf.Map(event)
	if !ok {
		return 0, fmt.Errorf("%w: tree has no pdf for phone window %v pdf-class %d", ErrModel, window, pdfClass)
	}
	return pdf, nil
}

// NumPdfs is one more than the largest pdf-id of the tree.
func (c *ContextDependency) NumPdfs() int {
	if c.ToPdf == nil {
		return 0
	}
	return int(c.ToPdf.MaxResult()) + 1
}
