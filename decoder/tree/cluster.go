package tree

import (
	"math"
)

// Kaldi's cluster-utils over GaussClusterable points: sums, bottom-up
// merging (plain and compartmentalized), refinement, k-means and top-down
// tree clustering, with Kaldi's float objective functions and its orders of
// evaluation.

// sumClusterableObjf sums the objective functions of the non-nil entries
// in float, skipping NaNs (Kaldi's SumClusterableObjf).
func sumClusterableObjf(v []*GaussClusterable) float32 {
	var ans float32
	for _, c := range v {
		if c != nil {
			o := c.Objf()
			if !math.IsNaN(float64(o)) {
				ans += o
			}
		}
	}
	return ans
}

// sumClusterableNormalizer sums the counts of the non-nil entries in float.
func sumClusterableNormalizer(v []*GaussClusterable) float32 {
	var ans float32
	for _, c := range v {
		if c != nil {
			ans += c.Normalizer()
		}
	}
	return ans
}

// sumClusterable returns a new sum of the non-nil entries, nil if none.
func sumClusterable(v []*GaussClusterable) *GaussClusterable {
	var ans *GaussClusterable
	for _, c := range v {
		if c == nil {
			continue
		}
		if ans == nil {
			ans = c.Copy()
		} else {
			ans.Add(c)
		}
	}
	return ans
}

// ensureNotNull replaces nil entries by zero statistics shaped like the
// first non-nil one (Kaldi's EnsureClusterableVectorNotNull). It reports
// false when every entry is nil.
func ensureNotNull(v []*GaussClusterable) bool {
	var example *GaussClusterable
	for _, c := range v {
		if c != nil {
			example = c
			break
		}
	}
	if example == nil {
		return len(v) == 0
	}
	for i, c := range v {
		if c == nil {
			z := example.Copy()
			z.SetZero()
			v[i] = z
		}
	}
	return true
}

// addToClusters sums the points into clusters by assignment, creating
// clusters as needed (Kaldi's AddToClusters); clusters must be long enough.
func addToClusters(points []*GaussClusterable, assignments []int, clusters []*GaussClusterable) {
	for i, p := range points {
		if p == nil {
			continue
		}
		a := assignments[i]
		if clusters[a] == nil {
			clusters[a] = p.Copy()
		} else {
			clusters[a].Add(p)
		}
	}
}

// addToClustersOptimized is addToClusters that forms the largest cluster
// (more than half the points) as the total minus the others (Kaldi's
// AddToClustersOptimized), which rounds differently and so is reproduced.
func addToClustersOptimized(points []*GaussClusterable, assignments []int, total *GaussClusterable, clusters []*GaussClusterable) {
	numClust := 0
	for _, a := range assignments {
		numClust = max(numClust, a+1)
	}
	perCluster := make([]int, numClust)
	numTotal := 0
	for i, p := range points {
		if p != nil {
			numTotal++
			perCluster[assignments[i]]++
		}
	}
	if numTotal == 0 {
		return
	}
	subtract := -1
	for c := 0; c < numClust; c++ {
		if perCluster[c] > numTotal-perCluster[c] {
			subtract = c
			if clusters[c] == nil {
				clusters[c] = total.Copy()
			} else {
				clusters[c].Add(total)
			}
			break
		}
	}
	for i, p := range points {
		if p == nil {
			continue
		}
		a := assignments[i]
		if a != subtract {
			if clusters[a] == nil {
				clusters[a] = p.Copy()
			} else {
				clusters[a].Add(p)
			}
			if subtract != -1 {
				clusters[subtract].Sub(p)
			}
		}
	}
}

// bottomUpEntry is a queued merge of clusters i > j at distance dist.
type bottomUpEntry struct {
	dist float32
	i, j int
}

// ClusterBottomUp merges the closest pair of clusters while the merge costs
// at most maxMergeThresh and more than minClust clusters remain (Kaldi's
// ClusterBottomUp). It returns the objective-function change (≤ 0), the
// assignment of each point to a final cluster (numbered contiguously in
// point order) and the final clusters.
func ClusterBottomUp(points []*GaussClusterable, maxMergeThresh float32, minClust int) (float32, []int, []*GaussClusterable) {
	n := len(points)
	clusters := make([]*GaussClusterable, n)
	assign := make([]int, n)
	for i, p := range points {
		clusters[i] = p.Copy()
		assign[i] = i
	}
	dist := make([]float32, n*(n-1)/2)
	// std::greater on (dist, (i, j)): the smallest distance first.
	q := cxxHeap[bottomUpEntry]{less: func(a, b bottomUpEntry) bool {
		if a.dist != b.dist {
			return a.dist > b.dist
		}
		if a.i != b.i {
			return a.i > b.i
		}
		return a.j > b.j
	}}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			d := clusters[i].Distance(clusters[j])
			dist[i*(i-1)/2+j] = d
			if d <= maxMergeThresh {
				q.Push(bottomUpEntry{d, i, j})
			}
		}
	}
	var ans float32
	nclusters := n
	setDistance := func(i, j int) {
		d := clusters[i].Distance(clusters[j])
		dist[i*(i-1)/2+j] = d
		if d < maxMergeThresh {
			q.Push(bottomUpEntry{d, i, j})
		}
		if q.Len() >= n*n {
			// Kaldi's ReconstructQueue: drop the stale entries.
			q.v = q.v[:0]
			for a := 0; a < n; a++ {
				if clusters[a] == nil {
					continue
				}
				for b := 0; b < a; b++ {
					if clusters[b] != nil && dist[a*(a-1)/2+b] <= maxMergeThresh {
						q.Push(bottomUpEntry{dist[a*(a-1)/2+b], a, b})
					}
				}
			}
		}
	}
	for nclusters > minClust && q.Len() > 0 {
		e := q.Top()
		q.Pop()
		i, j := e.i, e.j
		if clusters[i] == nil || clusters[j] == nil {
			continue
		}
		cached := dist[i*(i-1)/2+j]
		if !closeDist(cached, e.dist) {
			continue
		}
		clusters[i].Add(clusters[j])
		clusters[j] = nil
		assign[j] = i
		ans -= dist[i*(i-1)/2+j]
		nclusters--
		for k := 0; k < n; k++ {
			if k != i && clusters[k] != nil {
				if k < i {
					setDistance(i, k)
				} else {
					setDistance(k, i)
				}
			}
		}
	}
	final, out := renumberClusters(clusters, assign)
	return ans, final, out
}

// closeDist is Kaldi's CanMerge test that a queued distance is not stale:
// |cached − dist| (a float) ≤ 1e-5·|dist| (in double).
func closeDist(cached, dist float32) bool {
	return math.Abs(float64(cached-dist)) <= 1.0e-05*math.Abs(float64(dist))
}

// renumberClusters numbers the surviving clusters in index order, follows
// the merge chains of assign, and returns the final assignments and
// clusters (Kaldi's BottomUpClusterer::Renumber).
func renumberClusters(clusters []*GaussClusterable, assign []int) ([]int, []*GaussClusterable) {
	mapping := make([]int, len(clusters))
	var out []*GaussClusterable
	for i, c := range clusters {
		mapping[i] = -1
		if c != nil {
			mapping[i] = len(out)
			out = append(out, c)
		}
	}
	final := make([]int, len(assign))
	for i := range assign {
		ii := i
		for assign[ii] != ii {
			ii = assign[ii]
		}
		final[i] = mapping[ii]
	}
	return final, out
}
