package tree

// TreeClusterOptions are Kaldi's TreeClusterOptions.
type TreeClusterOptions struct {
	KMeans       ClusterKMeansOptions
	BranchFactor int     // 2
	Thresh       float32 // 0: split while any split helps
}

// tcNode is a node of Kaldi's TreeClusterer.
type tcNode struct {
	isLeaf     bool
	index      int // in leaves or nonleaves
	parent     *tcNode
	seq        int // creation order, standing in for Kaldi's pointer order
	points     []*GaussClusterable
	pointIdx   []int
	bestSplit  float32
	clusters   []*GaussClusterable
	assignment []int
	children   []*tcNode
}

type treeClusterer struct {
	cfg       TreeClusterOptions
	rng       *glibcRand
	leaves    []*tcNode
	nonleaves []*tcNode
	queue     cxxHeap[*tcNode]
	nodes     int
}

// TreeCluster is Kaldi's TreeCluster: top-down clustering that repeatedly
// splits, by k-means with BranchFactor clusters, the leaf whose split gains
// most, until maxClust leaves or no split gains more than Thresh. It
// returns each point's leaf, each cluster's parent (leaves first, then the
// inner nodes numbered so the root is last and its own parent), and the
// number of leaves.
//
// Kaldi breaks ties between equal gains by comparing node pointers; strode
// takes the node created later, which is what the usual upward-growing heap
// gives.
func TreeCluster(points []*GaussClusterable, maxClust int, cfg TreeClusterOptions, rng *glibcRand) (assignments, clustAssignments []int, numLeaves int) {
	if len(points) == 0 {
		return nil, nil, 0
	}
	tc := &treeClusterer{cfg: cfg, rng: rng}
	tc.queue.less = func(a, b *tcNode) bool {
		if a.bestSplit != b.bestSplit {
			return a.bestSplit < b.bestSplit
		}
		return a.seq < b.seq
	}
	top := tc.newNode(nil)
	top.isLeaf = true
	top.index = 0
	tc.leaves = append(tc.leaves, top)
	top.points = points
	top.pointIdx = make([]int, len(points))
	for i := range points {
		top.pointIdx[i] = i
	}
	tc.findBestSplit(top)
	for len(tc.leaves) < maxClust && tc.queue.Len() > 0 {
		n := tc.queue.Top()
		tc.queue.Pop()
		tc.doSplit(n)
	}
	assignments = make([]int, len(points))
	for leaf, n := range tc.leaves {
		for _, i := range n.pointIdx {
			assignments[i] = leaf
		}
	}
	nl, nn := len(tc.leaves), len(tc.nonleaves)
	outIndex := func(nonleaf int) int { return nl + nn - 1 - nonleaf }
	clustAssignments = make([]int, nl+nn)
	for leaf, n := range tc.leaves {
		if n.parent != nil {
			clustAssignments[leaf] = outIndex(n.parent.index)
		}
	}
	for i, n := range tc.nonleaves {
		idx := outIndex(i)
		if n.parent == nil {
			clustAssignments[idx] = idx
		} else {
			clustAssignments[idx] = outIndex(n.parent.index)
		}
	}
	return assignments, clustAssignments, nl
}

func (tc *treeClusterer) newNode(parent *tcNode) *tcNode {
	tc.nodes++
	return &tcNode{parent: parent, seq: tc.nodes}
}

func (tc *treeClusterer) doSplit(node *tcNode) {
	node.children = make([]*tcNode, tc.cfg.BranchFactor)
	for i := range node.children {
		child := tc.newNode(node)
		child.isLeaf = true
		node.children[i] = child
		if i == 0 {
			child.index = node.index
			tc.leaves[child.index] = child
		} else {
			child.index = len(tc.leaves)
			tc.leaves = append(tc.leaves, child)
		}
	}
	for i, p := range node.points {
		c := node.children[node.assignment[i]]
		c.points = append(c.points, p)
		c.pointIdx = append(c.pointIdx, node.pointIdx[i])
	}
	node.points, node.pointIdx, node.clusters, node.assignment = nil, nil, nil, nil
	node.isLeaf = false
	node.index = len(tc.nonleaves)
	tc.nonleaves = append(tc.nonleaves, node)
	for _, c := range node.children {
		tc.findBestSplit(c)
	}
}

func (tc *treeClusterer) findBestSplit(node *tcNode) {
	if len(node.points) <= 1 {
		node.bestSplit = 0
		return
	}
	impr, clusters, assign := ClusterKMeans(node.points, tc.cfg.BranchFactor, tc.cfg.KMeans, tc.rng)
	node.bestSplit, node.clusters, node.assignment = impr, clusters, assign
	if impr > tc.cfg.Thresh {
		tc.queue.Push(node)
	}
}
