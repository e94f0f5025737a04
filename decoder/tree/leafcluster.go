package tree

import (
	"math"
)

// Post-clustering of the leaves (Kaldi's ClusterEventMapGetMapping,
// ClusterEventMapRestrictedByMap, ClusterEventMapToNClustersRestrictedByMap).

// clusterLeavesMapping merges, bottom-up, the leaves of e that the stats
// reach while a merge costs at most thresh, recording in mapping (grown as
// needed) each such leaf's new answer: the answer of another leaf of the
// same group, as Kaldi numbers them. It returns the number of leaves
// removed.
func clusterLeavesMapping(e EventMap, stats BuildTreeStats, thresh float32, mapping *[]EventMap) (int, error) {
	split, err := SplitStatsByMap(stats, e)
	if err != nil {
		return 0, err
	}
	summed := sumStatsVec(split)
	var indexes []int
	var points []*GaussClusterable
	maxIndex := 0
	for i, s := range summed {
		if s != nil {
			indexes = append(indexes, i)
			points = append(points, s)
			maxIndex = max(maxIndex, i)
		}
	}
	if len(points) == 0 {
		return 0, nil
	}
	_, assign, clusters := ClusterBottomUp(points, thresh, 0)
	removed := len(points) - len(clusters)
	if maxIndex >= len(*mapping) {
		*mapping = append(*mapping, make([]EventMap, maxIndex+1-len(*mapping))...)
	}
	for i := range points {
		(*mapping)[indexes[i]] = &ConstantEventMap{Answer: int32(indexes[assign[i]])}
	}
	return removed, nil
}

// clusterEventMapRestrictedByMap clusters the leaves of e separately within
// each group of stats that restrict maps together (in BuildTree, the
// roots), so leaves of different roots never merge.
func clusterEventMapRestrictedByMap(e EventMap, stats BuildTreeStats, thresh float32, restrict EventMap) (EventMap, int, error) {
	groups, err := SplitStatsByMap(stats, restrict)
	if err != nil {
		return nil, 0, err
	}
	var mapping []EventMap
	removed := 0
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		n, err := clusterLeavesMapping(e, g, thresh, &mapping)
		if err != nil {
			return nil, 0, err
		}
		removed += n
	}
	return copyEventMap(e, mapping), removed, nil
}

// clusterEventMapToNClusters merges the cheapest pairs of leaves, never
// across the groups of restrict, until numClusters leaves remain (Kaldi's
// ClusterEventMapToNClustersRestrictedByMap, which build-tree's
// --round-num-leaves uses). When that is impossible the map is returned
// unchanged with removed 0.
func clusterEventMapToNClusters(e EventMap, stats BuildTreeStats, numClusters int, restrict EventMap) (EventMap, int, error) {
	groups, err := SplitStatsByMap(stats, restrict)
	if err != nil {
		return nil, 0, err
	}
	if numClusters < len(groups) {
		return copyEventMap(e, nil), 0, nil
	}
	indexes := make([][]int, len(groups))
	points := make([][]*GaussClusterable, len(groups))
	maxIndex := 0
	required, nonEmpty := numClusters, 0
	for i, g := range groups {
		if len(g) == 0 {
			// An empty group still holds a leaf; it cannot be merged.
			required--
			continue
		}
		split, err := SplitStatsByMap(g, e)
		if err != nil {
			return nil, 0, err
		}
		for j, s := range sumStatsVec(split) {
			if s != nil {
				nonEmpty++
				indexes[i] = append(indexes[i], j)
				points[i] = append(points[i], s)
				maxIndex = max(maxIndex, j)
			}
		}
	}
	if required > nonEmpty {
		return copyEventMap(e, nil), 0, nil
	}
	_, assign := ClusterBottomUpCompartmentalized(points, float32(math.Inf(1)), max(required, 0))
	removed := 0
	mapping := make([]EventMap, maxIndex+1)
	for i := range points {
		if len(assign[i]) == 0 {
			continue
		}
		numClust := 0
		for _, a := range assign[i] {
			numClust = max(numClust, a+1)
		}
		removed += len(points[i]) - numClust
		for j := range points[i] {
			mapping[indexes[i][j]] = &ConstantEventMap{Answer: int32(indexes[i][assign[i][j]])}
		}
	}
	return copyEventMap(e, mapping), removed, nil
}
