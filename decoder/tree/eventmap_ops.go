package tree

import (
	"fmt"
	"slices"
)

// The EventMap operations tree building needs beyond Map (Kaldi's
// EventMap::MultiMap and Copy, RenumberEventMap), and the stats operations
// of build-tree-utils (SplitStatsByMap, SplitStatsByKey, FilterStatsByKey,
// SumStats, PossibleValues).

// MultiMap appends every answer the map can give for an event in which some
// keys may be missing (a missing key takes every branch), as Kaldi's
// MultiMap: with an empty event it lists all leaves.
func MultiMap(m EventMap, ev EventType, out []int32) []int32 {
	switch m := m.(type) {
	case *ConstantEventMap:
		return append(out, m.Answer)
	case *TableEventMap:
		if v, ok := ev.Lookup(m.Key); ok {
			if v >= 0 && int(v) < len(m.Table) && m.Table[v] != nil {
				return MultiMap(m.Table[v], ev, out)
			}
			return out
		}
		for _, t := range m.Table {
			if t != nil {
				out = MultiMap(t, ev, out)
			}
		}
	case *SplitEventMap:
		if v, ok := ev.Lookup(m.Key); ok {
			if _, yes := slices.BinarySearch(m.YesSet, v); yes {
				return MultiMap(m.Yes, ev, out)
			}
			return MultiMap(m.No, ev, out)
		}
		out = MultiMap(m.Yes, ev, out)
		out = MultiMap(m.No, ev, out)
	}
	return out
}

// ConvertStats narrows the events of stats from a window (oldN, oldP) to
// (newN, newP), dropping the positions outside (Kaldi's ConvertStats); the
// result shares the statistics.
func ConvertStats(stats BuildTreeStats, oldN, oldP, newN, newP int32) (BuildTreeStats, error) {
	if newN > oldN {
		return nil, fmt.Errorf("cannot convert stats to larger context: %d > %d", newN, oldN)
	}
	shift := newP - oldP
	out := make(BuildTreeStats, len(stats))
	for i, st := range stats {
		var ev EventType
		for _, pr := range st.Event {
			if pr.Key >= 0 && pr.Key < oldN {
				if k := pr.Key + shift; k >= 0 && k < newN {
					ev = append(ev, EventPair{Key: k, Value: pr.Value})
				}
			} else {
				ev = append(ev, pr)
			}
		}
		out[i] = Stat{Event: ev, Stats: st.Stats}
	}
	return out, nil
}

// copyEventMap is Kaldi's EventMap::Copy(new_leaves): a deep copy in which
// a leaf with answer a becomes a copy of newLeaves[a] when that exists and
// is not nil.
func copyEventMap(m EventMap, newLeaves []EventMap) EventMap {
	switch m := m.(type) {
	case *ConstantEventMap:
		if m.Answer >= 0 && int(m.Answer) < len(newLeaves) && newLeaves[m.Answer] != nil {
			return copyEventMap(newLeaves[m.Answer], nil)
		}
		return &ConstantEventMap{Answer: m.Answer}
	case *TableEventMap:
		t := &TableEventMap{Key: m.Key, Table: make([]EventMap, len(m.Table))}
		for i, sub := range m.Table {
			if sub != nil {
				t.Table[i] = copyEventMap(sub, newLeaves)
			}
		}
		return t
	case *SplitEventMap:
		return &SplitEventMap{Key: m.Key, YesSet: slices.Clone(m.YesSet),
			Yes: copyEventMap(m.Yes, newLeaves), No: copyEventMap(m.No, newLeaves)}
	}
	return nil
}

// RenumberEventMap numbers the leaves of a map 0..n−1 in the order of their
// old answers (Kaldi's RenumberEventMap) and returns n.
func RenumberEventMap(m EventMap) (EventMap, int) {
	leaves := MultiMap(m, nil, nil)
	if len(leaves) == 0 {
		return copyEventMap(m, nil), 0
	}
	slices.Sort(leaves)
	leaves = slices.Compact(leaves)
	mapping := make([]EventMap, leaves[len(leaves)-1]+1)
	for i, l := range leaves {
		if l >= 0 {
			mapping[l] = &ConstantEventMap{Answer: int32(i)}
		}
	}
	return copyEventMap(m, mapping), len(leaves)
}

// tableOf builds Kaldi's TableEventMap(key, map<value, EventMap*>): a table
// as long as the largest value plus one, nil elsewhere.
func tableOf(key int32, values []int32, maps []EventMap) *TableEventMap {
	top := int32(-1)
	for _, v := range values {
		top = max(top, v)
	}
	t := &TableEventMap{Key: key, Table: make([]EventMap, top+1)}
	for i, v := range values {
		t.Table[v] = maps[i]
	}
	return t
}

// errUnmapped is SplitStatsByMap's error for an event the map has no
// answer for, with Kaldi's hint.
func errUnmapped(ev EventType) error {
	return fmt.Errorf("could not map event %v with the tree: check that --context-width and --central-position match the stats, and that phones that are context-independent (CI) during stats accumulation do not share roots with non-CI phones", ev)
}

// SplitStatsByMap groups the stats by the answer of m (Kaldi's
// SplitStatsByMap); the result is as long as the largest answer plus one.
func SplitStatsByMap(stats BuildTreeStats, m EventMap) ([]BuildTreeStats, error) {
	answers := make([]int32, len(stats))
	size := 0
	for i, st := range stats {
		a, ok := m.Map(st.Event)
		if !ok || a < 0 {
			return nil, errUnmapped(st.Event)
		}
		answers[i] = a
		size = max(size, int(a)+1)
	}
	out := make([]BuildTreeStats, size)
	for i, st := range stats {
		out[answers[i]] = append(out[answers[i]], st)
	}
	return out, nil
}

// splitStatsByKey groups the stats by the value of key, which every event
// must have (Kaldi's SplitStatsByKey); callers check values are small and
// non-negative.
func splitStatsByKey(stats BuildTreeStats, key int32) ([]BuildTreeStats, error) {
	size := 0
	for _, st := range stats {
		v, ok := st.Event.Lookup(key)
		if !ok {
			return nil, fmt.Errorf("key %d is not present in event %v", key, st.Event)
		}
		size = max(size, int(v)+1)
	}
	out := make([]BuildTreeStats, size)
	for _, st := range stats {
		v, _ := st.Event.Lookup(key)
		out[v] = append(out[v], st)
	}
	return out, nil
}

// filterStatsByKey keeps the stats whose value of key is (include) or is
// not (!include) in the sorted values (Kaldi's FilterStatsByKey).
func filterStatsByKey(stats BuildTreeStats, key int32, values []int32, include bool) (BuildTreeStats, error) {
	var out BuildTreeStats
	for _, st := range stats {
		v, ok := st.Event.Lookup(key)
		if !ok {
			return nil, fmt.Errorf("key %d is not present in event %v", key, st.Event)
		}
		if _, in := slices.BinarySearch(values, v); in == include {
			out = append(out, st)
		}
	}
	return out, nil
}

// SumStats sums the non-nil statistics into a new object, nil if none.
func SumStats(stats BuildTreeStats) *GaussClusterable {
	var ans *GaussClusterable
	for _, st := range stats {
		if st.Stats == nil {
			continue
		}
		if ans == nil {
			ans = st.Stats.Copy()
		} else {
			ans.Add(st.Stats)
		}
	}
	return ans
}

func sumStatsVec(split []BuildTreeStats) []*GaussClusterable {
	out := make([]*GaussClusterable, len(split))
	for i, s := range split {
		out[i] = SumStats(s)
	}
	return out
}

// sumNormalizer is the total count in float (Kaldi's SumNormalizer).
func sumNormalizer(stats BuildTreeStats) float32 {
	var ans float32
	for _, st := range stats {
		if st.Stats != nil {
			ans += st.Stats.Normalizer()
		}
	}
	return ans
}

// objfGivenMap is the summed objective function of the stats grouped by
// the map's leaves (Kaldi's ObjfGivenMap).
func objfGivenMap(stats BuildTreeStats, m EventMap) (float32, error) {
	split, err := SplitStatsByMap(stats, m)
	if err != nil {
		return 0, err
	}
	return sumClusterableObjf(sumStatsVec(split)), nil
}

// possibleValues returns the sorted values key takes in the stats, and
// whether every event has it (Kaldi's PossibleValues).
func possibleValues(key int32, stats BuildTreeStats) ([]int32, bool) {
	all := true
	var vals []int32
	for _, st := range stats {
		if v, ok := st.Event.Lookup(key); ok {
			vals = append(vals, v)
		} else {
			all = false
		}
	}
	slices.Sort(vals)
	return slices.Compact(vals), all
}

// allKeysPresent reports whether every event has key.
func allKeysPresent(key int32, stats BuildTreeStats) bool {
	for _, st := range stats {
		if _, ok := st.Event.Lookup(key); !ok {
			return false
		}
	}
	return true
}
