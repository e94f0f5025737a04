package am

// graphKey is the shape a graph is built for.
type graphKey struct {
	T, B int
	Mode Mode
}

// graphCache keeps the most recently used graphs, at most capacity of them,
// as nnet3's CachingOptimizingCompiler keeps compiled computations
// (--cache-capacity). A graph owns buffers for every value and gradient of
// its T·B rows, so an unbounded map of them grows with the number of
// distinct minibatch lengths: a corpus whose utterances run from 1 to 20 s
// gave about two hundred shapes and 13 GB in one epoch. Evicting is cheap by
// comparison: building a graph costs a few milliseconds against the hundreds
// a minibatch takes.
type graphCache struct {
	capacity int // ≤ 0: unbounded
	graphs   map[graphKey]*Batch
	order    []graphKey // least recently used first
	Builds   int        // graphs built so far (evictions make this exceed len(graphs))
}

func newGraphCache(capacity int) *graphCache {
	return &graphCache{capacity: capacity, graphs: map[graphKey]*Batch{}}
}

// get returns the graph for k, building it with build on a miss and
// closing the least recently used one when the cache is full.
func (c *graphCache) get(k graphKey, build func() (*Batch, error)) (*Batch, error) {
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

func (c *graphCache) touch(k graphKey) {
	for i, o := range c.order {
		if o == k {
			copy(c.order[i:], c.order[i+1:])
			c.order[len(c.order)-1] = k
			return
		}
	}
}

// close releases every graph.
func (c *graphCache) close() {
	for _, g := range c.graphs {
		g.Close()
	}
	c.graphs = map[graphKey]*Batch{}
	c.order = nil
}
