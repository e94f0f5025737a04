package tree

import (
	"fmt"
	"slices"
)

// ClusterPhonesOptions are cluster-phones' options.
type ClusterPhonesOptions struct {
	ContextWidth    int32   // N: has no effect, taken as Kaldi's cluster-phones takes it
	CentralPosition int32   // P
	PdfClassList    []int32 // pdf-classes whose stats are used ("1": the middle state of 3)
	// Seed is srand's seed for the k-means initialisation; 0 (and 1) give
	// glibc's default sequence, which Kaldi's cluster-phones (never
	// calling srand) uses.
	Seed uint32
	// Mode is ClusterPhones': ModeQuestions or ModeKMeans, with
	// NumClasses classes (-1 in questions mode).
	Mode       string
	NumClasses int
}

// ClusterPhonesResult carries the sets and any warnings Kaldi would print.
type ClusterPhonesResult struct {
	Sets     [][]int32
	Warnings []string
}

// perSetStats sums, for each phone set, the stats of its phones at the
// listed pdf-classes (the common part of Kaldi's
// AutomaticallyObtainQuestions and KMeansClusterPhones).
func perSetStats(stats BuildTreeStats, phoneSetsIn [][]int32, opts ClusterPhonesOptions, res *ClusterPhonesResult) ([][]int32, []*GaussClusterable, error) {
	phoneSets := make([][]int32, len(phoneSetsIn))
	var phones []int32
	for i, s := range phoneSetsIn {
		s = slices.Clone(s)
		slices.Sort(s)
		if len(s) == 0 {
			return nil, nil, fmt.Errorf("empty phone set (line %d)", i+1)
		}
		if len(slices.Compact(slices.Clone(s))) != len(s) {
			return nil, nil, fmt.Errorf("phone set (line %d) contains duplicate phones", i+1)
		}
		if s[0] <= 0 || s[len(s)-1] >= maxEventValue {
			return nil, nil, fmt.Errorf("phone set (line %d) has phone out of range", i+1)
		}
		phoneSets[i] = s
		phones = append(phones, s...)
	}
	slices.Sort(phones)
	if len(phones) == 0 {
		return nil, nil, fmt.Errorf("no phones provided")
	}
	if len(slices.Compact(slices.Clone(phones))) != len(phones) {
		return nil, nil, fmt.Errorf("phones are present in more than one phone set")
	}
	classes := slices.Clone(opts.PdfClassList)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	if len(classes) == 0 {
		return nil, nil, fmt.Errorf("empty pdf-class list")
	}
	if _, err := stats.Dim(); err != nil {
		return nil, nil, err
	}
	for i, st := range stats {
		if st.Stats == nil {
			return nil, nil, fmt.Errorf("tree stats entry %d (event %v) has no statistics", i, st.Event)
		}
		if v, ok := st.Event.Lookup(opts.CentralPosition); ok && (v < 0 || v >= maxEventValue) {
			return nil, nil, fmt.Errorf("tree stats entry %d: event %v: central phone out of range", i, st.Event)
		}
	}
	retained, err := filterStatsByKey(stats, PdfClassKey, classes, true)
	if err != nil {
		return nil, nil, err
	}
	split, err := splitStatsByKey(retained, opts.CentralPosition)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: does --central-position match acc-tree-stats?", err)
	}
	summed := sumStatsVec(split)
	maxPhone := phones[len(phones)-1]
	if len(summed) < int(maxPhone)+1 {
		summed = append(summed, make([]*GaussClusterable, int(maxPhone)+1-len(summed))...)
	}
	for i, s := range summed {
		if _, listed := slices.BinarySearch(phones, int32(i)); s != nil && !listed {
			res.Warnings = append(res.Warnings, fmt.Sprintf("Phone %d is present in stats but is not in phone list [make sure you intended this].", i))
		}
	}
	if !ensureNotNull(summed) {
		return nil, nil, fmt.Errorf("no stats for any phone at pdf-classes %v (all stats are NULL)", classes)
	}
	perSet := make([]*GaussClusterable, len(phoneSets))
	for i, set := range phoneSets {
		perSet[i] = summed[set[0]].Copy()
		for _, ph := range set[1:] {
			perSet[i].Add(summed[ph])
		}
		if perSet[i].Normalizer() == 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("AutomaticallyObtainQuestions: no stats available for phone set: %v", set))
		}
	}
	return phoneSets, perSet, nil
}

// AutomaticallyObtainQuestions is cluster-phones --mode=questions (Kaldi's
// AutomaticallyObtainQuestions): the phone sets' summed stats are clustered
// top-down by 2-means (10 tries per split), and every cluster of the
// resulting binary tree, with each original set, becomes a question; the
// questions are sorted and deduplicated.
func AutomaticallyObtainQuestions(stats BuildTreeStats, phoneSets [][]int32, opts ClusterPhonesOptions) (*ClusterPhonesResult, error) {
	res := &ClusterPhonesResult{}
	sets, perSet, err := perSetStats(stats, phoneSets, opts, res)
	if err != nil {
		return nil, err
	}
	cfg := TreeClusterOptions{KMeans: DefaultClusterKMeansOptions, BranchFactor: 2}
	cfg.KMeans.NumTries = 10
	assign, clustAssign, numLeaves := TreeCluster(perSet, len(perSet), cfg, newGlibcRand(opts.Seed))
	res.Sets = obtainSetsOfPhones(sets, assign, clustAssign, numLeaves)
	return res, nil
}

// obtainSetsOfPhones turns TreeCluster's output into phone sets: each
// cluster's phones (a parent collects its children's), plus the original
// sets, sorted and deduplicated, empty ones dropped (Kaldi's
// ObtainSetsOfPhones).
func obtainSetsOfPhones(phoneSets [][]int32, assign, clustAssign []int, numLeaves int) [][]int32 {
	raw := make([][]int32, len(clustAssign))
	for i, c := range assign {
		raw[c] = append(raw[c], phoneSets[i]...)
	}
	for j, parent := range clustAssign {
		slices.Sort(raw[j])
		if parent < len(clustAssign)-1 {
			raw[parent] = append(raw[parent], raw[j]...)
		}
	}
	for _, s := range phoneSets {
		raw = append(raw, slices.Clone(s))
	}
	slices.SortFunc(raw, slices.Compare)
	raw = slices.CompactFunc(raw, slices.Equal)
	var out [][]int32
	for _, s := range raw {
		if len(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// KMeansClusterPhones is cluster-phones --mode=k-means (Kaldi's
// KMeansClusterPhones): the phone sets are grouped into numClasses classes
// by k-means with Kaldi's default options.
func KMeansClusterPhones(stats BuildTreeStats, phoneSets [][]int32, numClasses int, opts ClusterPhonesOptions) (*ClusterPhonesResult, error) {
	if numClasses <= 1 || numClasses > len(phoneSets) {
		return nil, fmt.Errorf("num-classes invalid: num_classes is %d, number of phone sets is %d", numClasses, len(phoneSets))
	}
	res := &ClusterPhonesResult{}
	sets, perSet, err := perSetStats(stats, phoneSets, opts, res)
	if err != nil {
		return nil, err
	}
	_, _, assign := ClusterKMeans(perSet, numClasses, DefaultClusterKMeansOptions, newGlibcRand(opts.Seed))
	res.Sets = make([][]int32, numClasses)
	for i, c := range assign {
		res.Sets[c] = append(res.Sets[c], sets[i]...)
	}
	for _, s := range res.Sets {
		slices.Sort(s)
	}
	return res, nil
}
