package mkgraph

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/kaldiio"
)

// sharedDir is ../shared beside the repository root (where CI clones it).
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	return shareddata.Dir(t, sub)
}

func mustReadFst(t testing.TB, path string) *fst.VectorFst {
	t.Helper()
	f, err := fst.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustInts(t testing.TB, path string) []int32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int32
	for _, f := range strings.Fields(string(b)) {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, int32(v))
	}
	return out
}

// readIntArchive reads a text archive of integer vectors ("key 1 2 3").
func readIntArchive(t testing.TB, path string) map[string][]int32 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]int32{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		var v []int32
		for _, x := range fields[1:] {
			n, err := strconv.Atoi(x)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			v = append(v, int32(n))
		}
		out[fields[0]] = v
	}
	return out
}

type utterance struct {
	key string
	m   kaldiio.Matrix
}

func readLoglikes(t testing.TB, path string) []utterance {
	t.Helper()
	sr, err := kaldiio.OpenSequentialReader("ark:"+path, kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	var out []utterance
	for sr.Next() {
		m := sr.Value()
		out = append(out, utterance{sr.Key(), kaldiio.Matrix{Rows: m.Rows, Cols: m.Cols, Data: append([]float32(nil), m.Data...)}})
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// viterbi is an exact (unpruned) Viterbi search of a decoding graph over
// one utterance's log-likelihoods: the best path's output words and its
// cost (graph cost − acousticScale · log-likelihood). It stands in for a
// decoder in tests: with no beam, the best path is the graph's.
func viterbi(g *fst.VectorFst, tid2pdf []int32, ll kaldiio.Matrix, acousticScale float32) ([]int32, float64) {
	type trace struct {
		word int32
		prev int32
	}
	traces := []trace{{-1, -1}}
	n := len(g.States)
	inf := float64(fst.WeightZero)
	cost := make([]float64, n)
	back := make([]int32, n)
	next := make([]float64, n)
	nextBack := make([]int32, n)
	for i := range cost {
		cost[i] = inf
	}
	cost[g.Start] = 0
	push := func(b int32, w int32) int32 {
		if w == 0 {
			return b
		}
		traces = append(traces, trace{w, b})
		return int32(len(traces) - 1)
	}
	epsClosure := func(c []float64, bk []int32) {
		queue := make([]int32, 0, n)
		in := make([]bool, n)
		for s := range c {
			if c[s] < inf {
				queue = append(queue, int32(s))
				in[s] = true
			}
		}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			in[s] = false
			for _, a := range g.States[s].Arcs {
				if a.ILabel != 0 {
					continue
				}
				if nc := c[s] + float64(a.Weight); nc < c[a.NextState] {
					c[a.NextState] = nc
					bk[a.NextState] = push(bk[s], a.OLabel)
					if !in[a.NextState] {
						in[a.NextState] = true
						queue = append(queue, a.NextState)
					}
				}
			}
		}
	}
	epsClosure(cost, back)
	for t := 0; t < ll.Rows; t++ {
		row := ll.Data[t*ll.Cols : (t+1)*ll.Cols]
		for i := range next {
			next[i] = inf
		}
		for s := 0; s < n; s++ {
			if cost[s] == inf {
				continue
			}
			for _, a := range g.States[s].Arcs {
				if a.ILabel == 0 {
					continue
				}
				c := cost[s] + float64(a.Weight) - float64(acousticScale*row[tid2pdf[a.ILabel]])
				if c < next[a.NextState] {
					next[a.NextState] = c
					nextBack[a.NextState] = push(back[s], a.OLabel)
				}
			}
		}
		epsClosure(next, nextBack)
		cost, next = next, cost
		back, nextBack = nextBack, back
	}
	best, bestS := inf, -1
	for s := 0; s < n; s++ {
		if f := g.States[s].Final; f != fst.WeightZero && cost[s] < inf {
			if c := cost[s] + float64(f); c < best {
				best, bestS = c, s
			}
		}
	}
	if bestS < 0 {
		return nil, inf
	}
	var words []int32
	for b := back[bestS]; b > 0; b = traces[b].prev {
		words = append(words, traces[b].word)
	}
	for i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
		words[i], words[j] = words[j], words[i]
	}
	return words, best
}
