package tree

// RefineClustersOptions are Kaldi's RefineClustersOptions: how many passes
// over the points, and how many nearest clusters (own included) each point
// may move to.
type RefineClustersOptions struct {
	NumIters int32 // 100 in Kaldi's default; 0 turns refinement off
	TopN     int32 // ≥ 2
}

// DefaultRefineClustersOptions are Kaldi's defaults (100 iterations, top 5).
var DefaultRefineClustersOptions = RefineClustersOptions{NumIters: 100, TopN: 5}

// refinePointInfo is Kaldi's RefineClusterer::point_info: for one point and
// one candidate cluster, the objective function of that cluster plus the
// point (minus it, for its own cluster) and when that was computed.
type refinePointInfo struct {
	clust, time int
	objf        float32
}

type refiner struct {
	points      []*GaussClusterable
	clusters    []*GaussClusterable
	assignments []int
	topN        int
	info        []refinePointInfo
	myIndex     []int
	clustTime   []int
	clustObjf   []float32
	ans         float32
	t           int
}

// RefineClusters moves points between clusters while that improves the
// summed objective function (Kaldi's RefineClusters): each point looks at
// its TopN−1 nearest other clusters, found once at the start. clusters and
// assignments are updated in place; it returns the improvement.
func RefineClusters(points []*GaussClusterable, clusters []*GaussClusterable, assignments []int, cfg RefineClustersOptions) float32 {
	if cfg.NumIters <= 0 {
		return 0
	}
	r := &refiner{points: points, clusters: clusters, assignments: assignments, topN: int(cfg.TopN)}
	if r.topN > len(clusters) {
		r.topN = len(clusters)
	}
	r.clustTime = make([]int, len(clusters))
	r.clustObjf = make([]float32, len(clusters))
	for i, c := range clusters {
		r.clustObjf[i] = c.Objf()
	}
	r.info = make([]refinePointInfo, len(points)*r.topN)
	r.myIndex = make([]int, len(points))
	for p := range points {
		r.initPoint(p)
	}
	if r.topN <= 1 {
		return 0
	}
	for iter := int32(0); iter < cfg.NumIters; iter++ {
		cur := r.t
		for p := range points {
			r.processPoint(p)
		}
		if r.t == cur {
			break
		}
	}
	return r.ans
}

type distClust struct {
	dist  float32
	clust int
}

func (r *refiner) initPoint(point int) {
	my := r.assignments[point]
	dists := make([]distClust, 0, len(r.clusters)-1)
	for c := range r.clusters {
		if c != my {
			other := r.clustObjf[c]
			plus := r.clusters[c].ObjfPlus(r.points[point])
			dists = append(dists, distClust{other - plus, c})
		}
	}
	if r.topN-2 >= 0 {
		nthElement(dists, r.topN-2, func(a, b distClust) bool {
			return a.dist < b.dist || (a.dist == b.dist && a.clust < b.clust)
		})
	}
	base := point * r.topN
	for idx := 0; idx < r.topN-1; idx++ {
		c := dists[idx].clust
		r.info[base+idx] = refinePointInfo{clust: c, objf: -(dists[idx].dist - r.clustObjf[c])}
	}
	r.info[base+r.topN-1] = refinePointInfo{clust: my, objf: r.clusters[my].ObjfMinus(r.points[point])}
	r.myIndex[point] = r.topN - 1
}

func (r *refiner) updateInfo(point, idx int) {
	pi := &r.info[point*r.topN+idx]
	if pi.time < r.clustTime[pi.clust] {
		if idx == r.myIndex[point] {
			pi.objf = r.clusters[pi.clust].ObjfMinus(r.points[point])
		} else {
			pi.objf = r.clusters[pi.clust].ObjfPlus(r.points[point])
		}
		pi.time = r.t
	}
}

func (r *refiner) processPoint(point int) {
	self := r.myIndex[point]
	selfInfo := &r.info[point*r.topN+self]
	r.updateInfo(point, self)
	ownObjf := r.clustObjf[selfInfo.clust]
	ownMinusMe := selfInfo.objf
	for idx := 0; idx < r.topN; idx++ {
		if idx == self {
			continue
		}
		r.updateInfo(point, idx)
		other := &r.info[point*r.topN+idx]
		impr := other.objf + ownMinusMe - r.clustObjf[other.clust] - ownObjf
		if impr > 0 {
			r.ans += impr
			r.movePoint(point, idx)
			return
		}
	}
}

func (r *refiner) movePoint(point, newIndex int) {
	r.t++
	oldIndex := r.myIndex[point]
	r.myIndex[point] = newIndex
	oldClust := r.info[point*r.topN+oldIndex].clust
	newClust := r.info[point*r.topN+newIndex].clust
	r.assignments[point] = newClust
	r.clusters[oldClust].Sub(r.points[point])
	r.clusters[newClust].Add(r.points[point])
	for _, c := range [2]int{oldClust, newClust} {
		r.clustObjf[c] = r.clusters[c].Objf()
		r.clustTime[c] = r.t
	}
}

// ClusterKMeansOptions are Kaldi's ClusterKMeansOptions.
type ClusterKMeansOptions struct {
	Refine   RefineClustersOptions
	NumIters int // 20
	NumTries int // 2; the best try is kept
}

// DefaultClusterKMeansOptions are Kaldi's defaults.
var DefaultClusterKMeansOptions = ClusterKMeansOptions{Refine: DefaultRefineClustersOptions, NumIters: 20, NumTries: 2}

func gcd(m, n int) int {
	for n != 0 {
		m, n = n, m%n
	}
	if m < 0 {
		return -m
	}
	return m
}

// clusterKMeansOnce is one try of Kaldi's ClusterKMeans: points dealt to
// clusters round-robin along a random stride coprime to their number, then
// refined until nothing moves. It returns the improvement over a single
// cluster.
func clusterKMeansOnce(points []*GaussClusterable, numClust int, cfg ClusterKMeansOptions, rng *glibcRand) (float32, []*GaussClusterable, []int) {
	n := len(points)
	clusters := make([]*GaussClusterable, numClust)
	assign := make([]int, n)
	skip := 1
	if n > 1 {
		skip = 1 + rng.Rand()%(n-1)
		for gcd(skip, n) != 1 {
			if skip == n-1 {
				skip = 0
			}
			skip++
		}
	}
	for i, j, count := 0, 0, 0; count != n; i, j, count = (i+skip)%n, (j+1)%numClust, count+1 {
		if clusters[j] == nil {
			clusters[j] = points[i].Copy()
		} else {
			clusters[j].Add(points[i])
		}
		assign[i] = j
	}
	all := sumClusterable(clusters)
	ans := sumClusterableObjf(clusters) - all.Objf()
	for iter := 0; iter < cfg.NumIters; iter++ {
		impr := RefineClusters(points, clusters, assign, cfg.Refine)
		ans += impr
		if impr == 0 {
			break
		}
	}
	return ans, clusters, assign
}

// ClusterKMeans is Kaldi's ClusterKMeans: NumTries tries of
// clusterKMeansOnce, keeping the first best. rng is the rand() stream
// (Kaldi draws one number per try). numClust must not exceed the number of
// points.
func ClusterKMeans(points []*GaussClusterable, numClust int, cfg ClusterKMeansOptions, rng *glibcRand) (float32, []*GaussClusterable, []int) {
	if len(points) == 0 {
		return 0, nil, nil
	}
	var best float32
	var bestClusters []*GaussClusterable
	var bestAssign []int
	for i := 0; i < max(cfg.NumTries, 1); i++ {
		ans, c, a := clusterKMeansOnce(points, numClust, cfg, rng)
		if i == 0 || ans > best {
			best, bestClusters, bestAssign = ans, c, a
		}
	}
	return best, bestClusters, bestAssign
}
