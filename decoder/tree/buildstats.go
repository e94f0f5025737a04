package tree

import (
	"cmp"
	"fmt"
	"slices"
)

// EventType is one event of Kaldi's tree code: (key, value) pairs sorted by
// key, the keys being PdfClassKey (-1) and the context positions
// 0..N-1.
type EventType []EventPair

// Lookup returns the value of key in the event (Kaldi's EventMap::Lookup).
func (e EventType) Lookup(key int32) (int32, bool) {
	for _, p := range e {
		if p.Key == key {
			return p.Value, true
		}
	}
	return 0, false
}

// String prints the event as Kaldi's EventTypeToString does ("-1:1 0:3 ...").
func (e EventType) String() string {
	s := ""
	for i, p := range e {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%d:%d", p.Key, p.Value)
	}
	return s
}

// compareEvents orders events as C++ orders std::vector<std::pair<int,int>>
// (lexicographically by key, then value, then length), which is the order
// of Kaldi's std::map<EventType, ...> and so of the stats files its tools
// write.
func compareEvents(a, b EventType) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Compare(a[i].Key, b[i].Key); c != 0 {
			return c
		}
		if c := cmp.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// Stat is one entry of the tree statistics: an event and its statistics
// (nil is Kaldi's NULL, which the file format allows).
type Stat struct {
	Event EventType
	Stats *GaussClusterable
}

// BuildTreeStats is Kaldi's BuildTreeStatsType: the statistics of every
// phone context seen, sorted by event as acc-tree-stats writes them.
type BuildTreeStats []Stat

// Dim returns the feature dimension of the statistics (-1 when there are
// none), or an error naming the first entry whose dimension differs.
func (s BuildTreeStats) Dim() (int, error) {
	dim := -1
	for i, st := range s {
		if st.Stats == nil {
			continue
		}
		if dim < 0 {
			dim = st.Stats.Dim()
		} else if st.Stats.Dim() != dim {
			return 0, fmt.Errorf("tree stats entry %d (event %v) has dimension %d, earlier entries %d", i, st.Event, st.Stats.Dim(), dim)
		}
	}
	return dim, nil
}

// Sort sorts the entries by event, the order of Kaldi's std::map<EventType,
// ...> and so of the stats files its tools write.
func (s BuildTreeStats) Sort() { sortStats(s) }

// sortStats sorts the entries by event (Kaldi's std::map order).
func sortStats(s BuildTreeStats) {
	slices.SortFunc(s, func(a, b Stat) int { return compareEvents(a.Event, b.Event) })
}

// SumTreeStats adds several sets of statistics entry by entry, as
// sum-tree-stats does: entries with equal events are summed in the order
// given (the first one's variance floor is kept), and the result is sorted
// by event. Entries with no statistics, or dimensions that differ, are an
// error naming the set and the event.
func SumTreeStats(sets ...BuildTreeStats) (BuildTreeStats, error) {
	index := map[string]int{}
	var out BuildTreeStats
	dim := -1
	for si, set := range sets {
		for _, st := range set {
			if st.Stats == nil {
				return nil, fmt.Errorf("tree stats %d: event %v has no statistics", si+1, st.Event)
			}
			if dim < 0 {
				dim = st.Stats.Dim()
			} else if st.Stats.Dim() != dim {
				return nil, fmt.Errorf("tree stats %d: event %v has dimension %d, earlier statistics %d (stats from another feature pipeline?)", si+1, st.Event, st.Stats.Dim(), dim)
			}
			k := eventKey(st.Event)
			if i, ok := index[k]; ok {
				out[i].Stats.Add(st.Stats)
				continue
			}
			index[k] = len(out)
			out = append(out, Stat{Event: slices.Clone(st.Event), Stats: st.Stats.Copy()})
		}
	}
	sortStats(out)
	return out, nil
}

// eventKey is a map key for an event.
func eventKey(e EventType) string {
	b := make([]byte, 0, 8*len(e))
	for _, p := range e {
		b = append(b, byte(p.Key), byte(p.Key>>8), byte(p.Key>>16), byte(p.Key>>24),
			byte(p.Value), byte(p.Value>>8), byte(p.Value>>16), byte(p.Value>>24))
	}
	return string(b)
}

// checkEvent reports whether an event's keys are strictly increasing, as
// Kaldi's code assumes of every EventType.
func checkEvent(e EventType) bool {
	for i := 1; i < len(e); i++ {
		if e[i].Key <= e[i-1].Key {
			return false
		}
	}
	return true
}
