package am

import (
	"math/rand"
	"runtime"
	"testing"
	"weak"
)

func TestGraphCacheKeepsRecent(t *testing.T) {
	m, err := New(tinyOptions(KindSRU), 1)
	if err != nil {
		t.Fatal(err)
	}
	c := NewGraphCache(2)
	defer c.Close()
	get := func(T int) *Batch {
		g, err := c.Get(GraphKey{T: T, B: 1, Mode: Infer}, func() (*Batch, error) { return m.Build(T, 1, Infer) })
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a := get(10)
	get(20)
	if get(10) != a { // a hit makes 10 the most recent: 20 goes next
		t.Fatal("a cached graph was rebuilt")
	}
	get(30)
	if _, ok := c.graphs[GraphKey{T: 20, B: 1, Mode: Infer}]; ok {
		t.Fatal("the least recently used graph (20) was kept")
	}
	if get(10) != a || c.Builds != 3 || len(c.graphs) != 2 {
		t.Fatalf("builds %d, cached %d: want 3 and 2 with 10 still cached", c.Builds, len(c.graphs))
	}
}

// A dropped graph's buffers must go in the next collection: gorgonia's tape
// machine has a finalizer, which would keep them one collection longer, and
// a trainer dropping graphs faster than the collector runs grew without
// bound.
func TestClosedGraphIsFreedByOneCollection(t *testing.T) {
	m, err := New(tinyOptions(KindSRU), 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.BuildSmoothed(40, 2, Train, 0)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	if err := g.Load(tinyBatch(rng, m.Opts, []int{40, 30}), rng); err != nil {
		t.Fatal(err)
	}
	if err := g.Run(); err != nil {
		t.Fatal(err)
	}
	x := weak.Make(&g.x[0])
	g.Close()
	g = nil
	runtime.GC()
	if x.Value() != nil {
		t.Fatal("a closed graph's input buffer outlived a garbage collection")
	}
}
