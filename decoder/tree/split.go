package tree

import (
	"slices"
)

// Greedy decision-tree splitting (Kaldi's build-tree-utils.cc:
// ComputeInitialSplit, FindBestSplitForKey, DecisionTreeSplitter,
// SplitDecisionTree).

// computeInitialSplit tries every question of key on the per-value
// statistics and returns the yes-set of the one that gains most (none when
// nothing gains) and its gain.
func computeInitialSplit(summed []*GaussClusterable, qk *QuestionsForKey) ([]int32, float32) {
	total := sumClusterable(summed)
	if total == nil {
		return nil, 0
	}
	unsplit := total.Objf()
	best := -1
	var bestChange float32
	assign := make([]int, len(summed))
	for i, yes := range qk.InitialQuestions {
		clear(assign)
		for _, v := range yes {
			if int(v) < len(assign) {
				assign[v] = 1
			}
		}
		clusters := make([]*GaussClusterable, 2)
		addToClustersOptimized(summed, assign, total, clusters)
		change := sumClusterableObjf(clusters) - unsplit
		if change > bestChange {
			bestChange, best = change, i
		}
	}
	if best < 0 {
		return nil, 0
	}
	return qk.InitialQuestions[best], bestChange
}

// findBestSplitForKey returns the gain and yes-set of the best split of the
// stats on key: the best question, refined when the key's options ask for
// it. A key some event lacks cannot be split on.
func findBestSplitForKey(stats BuildTreeStats, q *Questions, key int32) (float32, []int32) {
	if len(stats) <= 1 || !allKeysPresent(key, stats) {
		return 0, nil
	}
	split, _ := splitStatsByKey(stats, key)
	summed := sumStatsVec(split)
	qk := q.Get(key)
	yes, impr := computeInitialSplit(summed, qk)
	assign := make([]int, len(summed))
	for _, v := range yes {
		if int(v) < len(assign) {
			assign[v] = 1
		}
	}
	clusters := make([]*GaussClusterable, 2)
	addToClusters(summed, assign, clusters)
	ensureNotNull(summed)
	ensureNotNull(clusters)
	if qk.Refine.NumIters > 0 {
		impr += RefineClusters(summed, clusters, assign, qk.Refine)
		yes = nil
		for v, a := range assign {
			if a == 1 {
				yes = append(yes, int32(v))
			}
		}
	}
	return impr, yes
}

// splitter is Kaldi's DecisionTreeSplitter: a leaf with its stats and best
// split, or an inner node with its two children.
type splitter struct {
	q         *Questions
	bestSplit float32
	yes, no   *splitter
	leaf      int32
	stats     BuildTreeStats
	key       int32
	yesSet    []int32
}

func newSplitter(leaf int32, stats BuildTreeStats, q *Questions) *splitter {
	s := &splitter{q: q, leaf: leaf, stats: stats}
	s.findBestSplit()
	return s
}

// findBestSplit tries every key with questions in increasing order; a later
// key must gain strictly more to win.
func (s *splitter) findBestSplit() {
	s.bestSplit = 0
	for _, key := range s.q.Keys() {
		impr, yes := findBestSplitForKey(s.stats, s.q, key)
		if impr > s.bestSplit {
			s.bestSplit, s.yesSet, s.key = impr, yes, key
		}
	}
}

// doSplit splits this leaf, or the child with the better split (yes on
// ties), giving the "no" side the next leaf number.
func (s *splitter) doSplit(nextLeaf *int32) {
	if s.yes != nil {
		if s.yes.bestSplit >= s.no.bestSplit {
			s.yes.doSplit(nextLeaf)
		} else {
			s.no.doSplit(nextLeaf)
		}
		s.bestSplit = max(s.yes.bestSplit, s.no.bestSplit)
		return
	}
	yesLeaf, noLeaf := s.leaf, *nextLeaf
	*nextLeaf++
	s.leaf = -1
	var yesStats, noStats BuildTreeStats
	in := make(map[int32]bool, len(s.yesSet))
	for _, v := range s.yesSet {
		in[v] = true
	}
	for _, st := range s.stats {
		v, _ := st.Event.Lookup(s.key)
		if in[v] {
			yesStats = append(yesStats, st)
		} else {
			noStats = append(noStats, st)
		}
	}
	s.yes = newSplitter(yesLeaf, yesStats, s.q)
	s.no = newSplitter(noLeaf, noStats, s.q)
	s.bestSplit = max(s.yes.bestSplit, s.no.bestSplit)
	s.stats = nil
}

func (s *splitter) getMap() EventMap {
	if s.yes == nil {
		return &ConstantEventMap{Answer: s.leaf}
	}
	return &SplitEventMap{Key: s.key, YesSet: sortedUnique(s.yesSet), Yes: s.yes.getMap(), No: s.no.getMap()}
}

func sortedUnique(v []int32) []int32 {
	out := slices.Clone(v)
	slices.Sort(out)
	return slices.Compact(out)
}

// splitResult is what SplitDecisionTree reports besides the map.
type splitResult struct {
	numSplits     int
	improvement   float32 // total likelihood gain
	smallestSplit float32 // gain of the smallest split made (1e20 if none)
}

// splitDecisionTree grows the tree below each leaf of input, always taking
// the best available split over the whole tree (ties: the larger root
// index), while it gains more than thresh and, when maxLeaves > 0, there are
// fewer than maxLeaves leaves. numLeaves counts the leaves and is updated.
func splitDecisionTree(input EventMap, stats BuildTreeStats, q *Questions, thresh float32, maxLeaves int, numLeaves *int32) (EventMap, splitResult, error) {
	res := splitResult{smallestSplit: 1.0e+20}
	split, err := SplitStatsByMap(stats, input)
	if err != nil {
		return nil, res, err
	}
	builders := make([]*splitter, len(split))
	for i := range split {
		builders[i] = newSplitter(int32(i), split[i], q)
	}
	type entry struct {
		impr float32
		i    int
	}
	queue := cxxHeap[entry]{less: func(a, b entry) bool {
		return a.impr < b.impr || (a.impr == b.impr && a.i < b.i)
	}}
	for i, b := range builders {
		queue.Push(entry{b.bestSplit, i})
	}
	for queue.Len() > 0 && queue.Top().impr > thresh && queue.Top().impr > 0 &&
		(maxLeaves <= 0 || int(*numLeaves) < maxLeaves) {
		top := queue.Top()
		res.smallestSplit = min(res.smallestSplit, top.impr)
		res.improvement += top.impr
		builders[top.i].doSplit(numLeaves)
		queue.Pop()
		queue.Push(entry{builders[top.i].bestSplit, top.i})
		res.numSplits++
	}
	subtrees := make([]EventMap, len(builders))
	for i, b := range builders {
		subtrees[i] = b.getMap()
	}
	return copyEventMap(input, subtrees), res, nil
}
