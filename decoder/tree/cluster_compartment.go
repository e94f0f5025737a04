package tree

// compEntry is a queued merge in compartment comp of points i > j.
type compEntry struct {
	dist       float32
	comp, i, j int
}

// ClusterBottomUpCompartmentalized is ClusterBottomUp over several
// compartments at once, never merging across them, until minClust clusters
// remain in all (Kaldi's ClusterBottomUpCompartmentalized; minClust must be
// at least the number of compartments). It returns the objective-function
// change and each compartment's assignments, numbered from 0 within it.
func ClusterBottomUpCompartmentalized(points [][]*GaussClusterable, thresh float32, minClust int) (float32, [][]int) {
	nc := len(points)
	clusters := make([][]*GaussClusterable, nc)
	assign := make([][]int, nc)
	dist := make([][]float32, nc)
	nclusters := 0
	for c, pts := range points {
		clusters[c] = make([]*GaussClusterable, len(pts))
		assign[c] = make([]int, len(pts))
		for i, p := range pts {
			clusters[c][i] = p.Copy()
			assign[c][i] = i
		}
		nclusters += len(pts)
	}
	// Kaldi orders CompBotClustElem by distance alone (std::greater over
	// operator>), so equal distances come off in libstdc++'s heap order.
	q := cxxHeap[compEntry]{less: func(a, b compEntry) bool { return a.dist > b.dist }}
	setDistance := func(c, i, j int) {
		d := clusters[c][i].Distance(clusters[c][j])
		dist[c][i*(i-1)/2+j] = d
		if d < thresh {
			q.Push(compEntry{d, c, i, j})
		}
	}
	for c, pts := range points {
		n := len(pts)
		dist[c] = make([]float32, n*(n-1)/2)
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				setDistance(c, i, j)
			}
		}
	}
	var total float32
	for nclusters > minClust && q.Len() > 0 {
		e := q.Top()
		q.Pop()
		c, i, j := e.comp, e.i, e.j
		if clusters[c][i] == nil || clusters[c][j] == nil || !closeDist(dist[c][i*(i-1)/2+j], e.dist) {
			continue
		}
		clusters[c][i].Add(clusters[c][j])
		clusters[c][j] = nil
		assign[c][j] = i
		total += -dist[c][i*(i-1)/2+j]
		nclusters--
		for k := range clusters[c] {
			if k != i && clusters[c][k] != nil {
				if k < i {
					setDistance(c, i, k)
				} else {
					setDistance(c, k, i)
				}
			}
		}
		if q.Len() >= nclusters*nclusters {
			// ReconstructQueue: recompute every live distance.
			q.v = q.v[:0]
			for cc := range clusters {
				for a := range clusters[cc] {
					if clusters[cc][a] == nil {
						continue
					}
					for b := 0; b < a; b++ {
						if clusters[cc][b] != nil {
							setDistance(cc, a, b)
						}
					}
				}
			}
		}
	}
	out := make([][]int, nc)
	for c := range clusters {
		out[c], _ = renumberClusters(clusters[c], assign[c])
	}
	return total, out
}
