package am

// GraphKey is the shape a graph is built for: T frames, B utterances, Mode.
type GraphKey struct {
	T, B int
	Mode Mode
}

// GraphCache keeps the most recently used graphs, at most capacity of them,
// as nnet3's CachingOptimizingCompiler keeps compiled computations
// (--cache-capacity). A graph owns buffers for every value and gradient of
// its T·B rows, so an unbounded map of them grows with the number of
// distinct minibatch lengths: a corpus whose utterances run from 1 to 20 s
// gave about two hundred shapes and 13 GB in one epoch. Evicting is cheap by
// comparison: building a graph costs a few milliseconds against the hundreds
// a minibatch takes. It is exported for the trainer (package
// acoustic/trainer), which keeps one per training run; Forwarder keeps one
// of its own.
type GraphCache struct {
	capacity int // ≤ 0: unbounded
	graphs   map[GraphKey]*Batch
	order    []GraphKey // least recently used first
	Builds   int        // graphs built so far (evictions make this exceed the number cached)
}

// NewGraphCache returns an empty cache of at most capacity graphs (≤ 0:
// unbounded).
func NewGraphCache(capacity int) *GraphCache {
	return &GraphCache{capacity: capacity, graphs: map[GraphKey]*Batch{}}
}

// Get returns the graph for k, building it with build on a miss and
// closing the least recently used one when the cache is full. A graph
// returned earlier may have been closed since: use each one only until the
// next Get.
func (c *GraphCache) Get(k GraphKey, build func() (*Batch, error)) (*Batch, error) {
	if g, ok := c.graphs[k]; ok {
		c.touch(k)
		return g, nil
	}
	g, err := build()
	if err != nil {
		return nil, err
	}
	c.Builds++
	for c.capacity > 0 && len(c.order) >= c.capacity {
		old := c.order[0]
		c.order = c.order[1:]
		c.graphs[old].Close()
		delete(c.graphs, old)
	}
	c.graphs[k] = g
	c.order = append(c.order, k)
	return g, nil
}

func (c *GraphCache) touch(k GraphKey) {
	for i, o := range c.order {
		if o == k {
			copy(c.order[i:], c.order[i+1:])
			c.order[len(c.order)-1] = k
			return
		}
	}
}

// Close releases every graph.
func (c *GraphCache) Close() {
	for _, g := range c.graphs {
		g.Close()
	}
	c.graphs = map[GraphKey]*Batch{}
	c.order = nil
}
