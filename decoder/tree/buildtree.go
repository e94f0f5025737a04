package tree

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Roots is a roots file (phones/roots.int): per line, a set of phones that
// share one tree root, whether the root's pdf-classes share it ("shared")
// and whether it may be split ("split").
type Roots struct {
	PhoneSets [][]int32
	Shared    []bool
	Split     []bool
}

// ReadRoots parses a roots file as Kaldi's ReadRootsFile: each line is
// "shared|not-shared split|not-split phone...", the phones positive and
// distinct (sorted on reading). name is used in errors.
func ReadRoots(r io.Reader, name string) (*Roots, error) {
	roots := &Roots{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	seen := map[int32]int{}
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		bad := func(why string) error {
			return fmt.Errorf("%s: line %d: bad line in roots file (%s): %q", name, line, why, sc.Text())
		}
		if len(f) < 3 {
			return nil, bad("expected shared|not-shared split|not-split and at least one phone")
		}
		if f[0] != "shared" && f[0] != "not-shared" {
			return nil, bad("first field must be shared or not-shared")
		}
		if f[1] != "split" && f[1] != "not-split" {
			return nil, bad("second field must be split or not-split")
		}
		var phones []int32
		for _, s := range f[2:] {
			p, err := strconv.ParseInt(s, 10, 32)
			if err != nil || p <= 0 {
				return nil, bad(fmt.Sprintf("phone %q is not a positive integer", s))
			}
			if l, dup := seen[int32(p)]; dup {
				return nil, bad(fmt.Sprintf("phone %d already on line %d", p, l))
			}
			seen[int32(p)] = line
			phones = append(phones, int32(p))
		}
		slices.Sort(phones)
		roots.PhoneSets = append(roots.PhoneSets, phones)
		roots.Shared = append(roots.Shared, f[0] == "shared")
		roots.Split = append(roots.Split, f[1] == "split")
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(roots.PhoneSets) == 0 {
		return nil, fmt.Errorf("%s: empty roots file", name)
	}
	return roots, nil
}

// GetStubMap builds the tree before any split (Kaldi's GetStubMap): one leaf
// per shared root, or one per pdf-class for a root that is not shared;
// roots of one phone each are told apart by a table on the central phone
// (when not too sparse), others by halving the list of roots with a split
// on the central phone. phone2NumPdfClasses gives each phone's number of
// pdf-classes. numLeaves counts the leaves made.
func GetStubMap(p int32, phoneSets [][]int32, phone2NumPdfClasses []int32, shared []bool, numLeaves *int32) (EventMap, error) {
	if len(phoneSets) == 0 || len(shared) != len(phoneSets) {
		return nil, fmt.Errorf("stub map: %d phone sets, %d shared flags", len(phoneSets), len(shared))
	}
	maxSetSize, highest := 0, int32(0)
	for _, s := range phoneSets {
		maxSetSize = max(maxSetSize, len(s))
		highest = max(highest, slices.Max(s))
	}
	switch {
	case len(phoneSets) == 1:
		if shared[0] {
			leaf := *numLeaves
			*numLeaves++
			return &ConstantEventMap{Answer: leaf}, nil
		}
		maxLen := int32(0)
		for _, ph := range phoneSets[0] {
			if int(ph) >= len(phone2NumPdfClasses) || phone2NumPdfClasses[ph] <= 0 {
				return nil, fmt.Errorf("phone %d of a root has no topology", ph)
			}
			maxLen = max(maxLen, phone2NumPdfClasses[ph])
		}
		values := make([]int32, maxLen)
		maps := make([]EventMap, maxLen)
		for pc := range maxLen {
			values[pc] = pc
			maps[pc] = &ConstantEventMap{Answer: *numLeaves}
			*numLeaves++
		}
		return tableOf(PdfClassKey, values, maps), nil
	case maxSetSize == 1 && int32(len(phoneSets)) <= 2*highest:
		values := make([]int32, len(phoneSets))
		maps := make([]EventMap, len(phoneSets))
		for i, s := range phoneSets {
			m, err := GetStubMap(p, phoneSets[i:i+1], phone2NumPdfClasses, shared[i:i+1], numLeaves)
			if err != nil {
				return nil, err
			}
			values[i], maps[i] = s[0], m
		}
		return tableOf(p, values, maps), nil
	default:
		half := len(phoneSets) / 2
		m1, err := GetStubMap(p, phoneSets[:half], phone2NumPdfClasses, shared[:half], numLeaves)
		if err != nil {
			return nil, err
		}
		m2, err := GetStubMap(p, phoneSets[half:], phone2NumPdfClasses, shared[half:], numLeaves)
		if err != nil {
			return nil, err
		}
		var first []int32
		for _, s := range phoneSets[:half] {
			first = append(first, s...)
		}
		slices.Sort(first)
		return &SplitEventMap{Key: p, YesSet: first, Yes: m1, No: m2}, nil
	}
}

// BuildTreeOptions are build-tree's options.
type BuildTreeOptions struct {
	ContextWidth    int32   // N: not used by BuildTree, which reads it off the stats; the tree file records it
	CentralPosition int32   // P
	Thresh          float32 // --thresh: least likelihood gain of a split (300)
	MaxLeaves       int     // --max-leaves: 0 for no limit
	ClusterThresh   float32 // --cluster-thresh: < 0 uses the smallest split made; 0 turns post-clustering off
	RoundNumLeaves  bool    // --round-num-leaves: merge leaves down to a multiple of 8
}

// BuildTreeInfo reports what BuildTree did, for logging.
type BuildTreeInfo struct {
	StubLeaves       int     // leaves before splitting (one per root or root pdf-class)
	Splits           int     // splits made
	LeavesAfterSplit int     // leaves after splitting
	SmallestSplit    float32 // gain of the smallest split
	ClusterThresh    float32 // the post-clustering threshold used
	Removed          int     // leaves removed by post-clustering
	RemovedRounding  int     // leaves removed to reach a multiple of 8
	NumLeaves        int     // leaves of the final tree (its number of pdfs)
	Improvement      float32 // likelihood gain of the splits
	Frames           float32 // total count of the stats
	UnseenPhones     []int32 // phones of the roots with no stats (Kaldi warns)
}

// maxEventValue bounds phone and pdf-class values in the stats: tree
// building makes arrays indexed by them.
const maxEventValue = 1 << 24

// BuildTree is Kaldi's BuildTree: the stub map of the roots, greedy
// likelihood splits of the roots marked "split" (SplitDecisionTree), then
// bottom-up merging of leaves within each root while a merge costs less
// than the cluster threshold, optional merging down to a multiple of 8
// leaves, and renumbering of the leaves 0..n−1. phone2NumPdfClasses is the
// topology's number of pdf-classes per phone (≤ 0 for phones without one).
//
// Inputs Kaldi would assert on or silently mis-handle are errors here:
// stats without the central-phone or pdf-class key, of mixed dimensions,
// naming phones that no root lists or pdf-classes the topology does not
// have, roots naming phones without a topology. --max-leaves below the
// stub's leaves (info.StubLeaves: one per shared root, one per pdf-class of
// a root not shared) is Kaldi's behaviour: SplitDecisionTree splits only
// while there are fewer leaves than the maximum, so no phone is split and
// the tree keeps the stub's leaves, more than asked (build-tree warns).
func BuildTree(q *Questions, roots *Roots, phone2NumPdfClasses []int32, stats BuildTreeStats, opts BuildTreeOptions) (EventMap, *BuildTreeInfo, error) {
	if !(opts.Thresh > 0 || opts.MaxLeaves > 0) {
		return nil, nil, fmt.Errorf("build-tree: need --thresh > 0 or --max-leaves > 0")
	}
	if len(stats) == 0 {
		return nil, nil, fmt.Errorf("build-tree: no statistics")
	}
	if len(roots.PhoneSets) == 0 || len(roots.Shared) != len(roots.PhoneSets) || len(roots.Split) != len(roots.PhoneSets) {
		return nil, nil, fmt.Errorf("build-tree: malformed roots")
	}
	rootOf := map[int32]int{}
	for i, set := range roots.PhoneSets {
		if len(set) == 0 || !slices.IsSorted(set) {
			return nil, nil, fmt.Errorf("build-tree: root %d: phone set empty or unsorted", i+1)
		}
		for _, ph := range set {
			if int(ph) >= len(phone2NumPdfClasses) || ph <= 0 || phone2NumPdfClasses[ph] <= 0 {
				return nil, nil, fmt.Errorf("build-tree: root %d (line %d of the roots file) names phone %d, which the topology does not have", i+1, i+1, ph)
			}
			if j, dup := rootOf[ph]; dup {
				return nil, nil, fmt.Errorf("build-tree: phone %d is in roots %d and %d", ph, j+1, i+1)
			}
			rootOf[ph] = i
		}
	}
	if err := checkStats(stats, opts.CentralPosition, rootOf, phone2NumPdfClasses); err != nil {
		return nil, nil, err
	}
	for _, key := range q.Keys() {
		if err := q.Get(key).check(key); err != nil {
			return nil, nil, fmt.Errorf("build-tree: questions: %w", err)
		}
	}
	info := &BuildTreeInfo{Frames: sumNormalizer(stats)}
	var numLeaves int32
	stub, err := GetStubMap(opts.CentralPosition, roots.PhoneSets, phone2NumPdfClasses, roots.Shared, &numLeaves)
	if err != nil {
		return nil, nil, fmt.Errorf("build-tree: %w", err)
	}
	info.StubLeaves = int(numLeaves)
	var nonsplit []int32
	for i, set := range roots.PhoneSets {
		if !roots.Split[i] {
			nonsplit = append(nonsplit, set...)
		}
	}
	slices.Sort(nonsplit)
	filtered, err := filterStatsByKey(stats, opts.CentralPosition, nonsplit, false)
	if err != nil {
		return nil, nil, fmt.Errorf("build-tree: %w", err)
	}
	treeSplit := stub
	res := splitResult{smallestSplit: 1.0e+20}
	if len(filtered) > 0 {
		if treeSplit, res, err = splitDecisionTree(stub, filtered, q, opts.Thresh, opts.MaxLeaves, &numLeaves); err != nil {
			return nil, nil, fmt.Errorf("build-tree: %w", err)
		}
	}
	info.Splits, info.Improvement, info.SmallestSplit = res.numSplits, res.improvement, res.smallestSplit
	info.LeavesAfterSplit = int(numLeaves)
	clusterThresh := opts.ClusterThresh
	if clusterThresh < 0 {
		clusterThresh = res.smallestSplit
	}
	info.ClusterThresh = clusterThresh
	tree := treeSplit
	current := int(numLeaves)
	if clusterThresh != 0 {
		var removed int
		if tree, removed, err = clusterEventMapRestrictedByMap(treeSplit, stats, clusterThresh, stub); err != nil {
			return nil, nil, fmt.Errorf("build-tree: %w", err)
		}
		info.Removed = removed
		current -= removed
	}
	if opts.RoundNumLeaves {
		var removed int
		if tree, removed, err = clusterEventMapToNClusters(tree, stats, (current/8)*8, stub); err != nil {
			return nil, nil, fmt.Errorf("build-tree: %w", err)
		}
		info.RemovedRounding = removed
	}
	tree, info.NumLeaves = RenumberEventMap(tree)
	seen, _ := possibleValues(opts.CentralPosition, stats)
	for _, set := range roots.PhoneSets {
		for _, ph := range set {
			if _, ok := slices.BinarySearch(seen, ph); !ok {
				info.UnseenPhones = append(info.UnseenPhones, ph)
			}
		}
	}
	slices.Sort(info.UnseenPhones)
	return tree, info, nil
}

// checkStats checks the stats suit the roots and topology before building.
func checkStats(stats BuildTreeStats, p int32, rootOf map[int32]int, phone2NumPdfClasses []int32) error {
	if _, err := stats.Dim(); err != nil {
		return fmt.Errorf("build-tree: %w", err)
	}
	for i, st := range stats {
		if st.Stats == nil {
			return fmt.Errorf("build-tree: tree stats entry %d (event %v) has no statistics", i, st.Event)
		}
		for _, pr := range st.Event {
			if pr.Value < 0 || pr.Value >= maxEventValue {
				return fmt.Errorf("build-tree: tree stats entry %d: event %v has value %d out of range", i, st.Event, pr.Value)
			}
		}
		phone, ok := st.Event.Lookup(p)
		if !ok {
			return fmt.Errorf("build-tree: tree stats entry %d: event %v has no central phone (key %d): does --central-position match acc-tree-stats?", i, st.Event, p)
		}
		pc, ok := st.Event.Lookup(PdfClassKey)
		if !ok {
			return fmt.Errorf("build-tree: tree stats entry %d: event %v has no pdf-class", i, st.Event)
		}
		if _, ok := rootOf[phone]; !ok {
			return fmt.Errorf("build-tree: phone %d appears in stats but is not listed in roots file (stats from another phone set?)", phone)
		}
		if pc >= phone2NumPdfClasses[phone] {
			return fmt.Errorf("build-tree: tree stats entry %d: phone %d has pdf-class %d, but the topology gives it %d pdf-classes (stats from another model?)", i, phone, pc, phone2NumPdfClasses[phone])
		}
	}
	return nil
}
