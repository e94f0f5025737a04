package search

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/scoring"
)

// Benchmark (b) of issue 6: a 5,000-word bigram decoding graph over
// kaldi-mini's monophone HMMs, with oracle-noisy log-likelihoods.
//
// The graph is H∘C∘L∘G built directly (monophones need no C): each word has
// a random pronunciation of 2–6 non-silence phones, each phone a chain of its
// three HMM states (a self-loop and a forward transition per state, weighted
// by the model's transition log-probabilities); a history state per word,
// bigram arcs (ε input, word output, −log p) from each history to 20 random
// successors' own phone chains, a backoff arc to a unigram state that enters
// a pronunciation prefix tree over all 5,000 words (the shape a determinized
// lexicon gives Kaldi's HCLG; the word is output at its end). The search sees
// the same paths and scores as on mkgraph's HCLG of this lexicon and LM.
//
// Log-likelihoods: a random word sequence drawn from the bigram arcs is
// aligned (each HMM state lasting 1 + Geometric(1/2) frames); on every frame
// the true pdf has log-likelihood 0 and every other pdf μ + N(0, σ²), σ = 2,
// μ = −10 (the issue fixes σ; the mean of the wrong pdfs is our choice: a
// confident network's log-probability for them, so that the true words win
// at acoustic scale 0.1). Seeds are fixed.
type bigramBench struct {
	g      *Graph
	tm     *decoder.TransitionModel
	utts   [][]float32 // row-major frames × pdfs
	frames []int
	words  [][]int32 // the true word-ids of each utterance
}

const (
	benchWords      = 5000
	benchSuccessors = 20
	benchSigma      = 2.0
	benchMean       = -10.0
)

func buildBigramBench(tb testing.TB, numUtts, wordsPerUtt int, seed int64) *bigramBench {
	dir := mini(tb)
	tm, err := decoder.ReadTransitionModel(dir + "/exp/mono/final.mdl")
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	// Phones with three HMM states of one self-loop and one forward
	// transition each: per phone, per state, (self-loop tid, forward tid).
	type hmmState struct{ self, fwd, pdf int32 }
	phones := map[int32][]hmmState{}
	for ts := int32(1); int(ts) <= tm.NumTransitionStates(); ts++ {
		tu := tm.Tuples[ts-1]
		if tm.NumTransitionIndices(ts) != 2 {
			continue
		}
		var st hmmState
		for i := int32(0); i < 2; i++ {
			tid := tm.PairToTransitionID(ts, i)
			if tm.IsSelfLoop(tid) {
				st.self = tid
			} else {
				st.fwd = tid
			}
		}
		st.pdf = tu.ForwardPdf
		if st.self == 0 || st.fwd == 0 {
			continue
		}
		for int(tu.HmmState) >= len(phones[tu.Phone]) {
			phones[tu.Phone] = append(phones[tu.Phone], hmmState{})
		}
		phones[tu.Phone][tu.HmmState] = st
	}
	var phoneList []int32
	for p, sts := range phones {
		if len(sts) == 3 && sts[0].fwd != 0 && sts[1].fwd != 0 && sts[2].fwd != 0 {
			phoneList = append(phoneList, p)
		}
	}
	if len(phoneList) < 5 {
		tb.Fatalf("only %d usable phones", len(phoneList))
	}
	// Sort for determinism (map order is random).
	for i := range phoneList {
		for j := i + 1; j < len(phoneList); j++ {
			if phoneList[j] < phoneList[i] {
				phoneList[i], phoneList[j] = phoneList[j], phoneList[i]
			}
		}
	}
	cost := func(tid int32) float32 { return -tm.TransitionLogProb(tid) }

	f := decoder.NewVectorFst()
	backoff := f.AddState()
	f.Start = backoff
	f.SetFinal(backoff, float32(math.Log(benchWords)))
	hist := make([]int32, benchWords)
	for w := range hist {
		hist[w] = f.AddState()
	}
	entry := make([]int32, benchWords)
	pron := make([][]int32, benchWords)
	for w := 0; w < benchWords; w++ {
		n := 2 + rng.Intn(5)
		for i := 0; i < n; i++ {
			pron[w] = append(pron[w], phoneList[rng.Intn(len(phoneList))])
		}
		cur := f.AddState()
		entry[w] = cur
		for pi, p := range pron[w] {
			for h, st := range phones[p] {
				f.AddArc(cur, decoder.Arc{ILabel: st.self, OLabel: 0, Weight: cost(st.self), NextState: cur})
				var next int32
				if pi == len(pron[w])-1 && h == 2 {
					next = hist[w]
				} else {
					next = f.AddState()
				}
				f.AddArc(cur, decoder.Arc{ILabel: st.fwd, OLabel: 0, Weight: cost(st.fwd), NextState: next})
				cur = next
			}
		}
	}
	// The unigram state enters a pronunciation prefix tree (as the
	// determinized lexicon of a real HCLG does): tree node → phone chain →
	// child node; the word label is output at the word's end.
	type trieKey struct {
		node  int32
		phone int32
	}
	trie := map[trieKey]int32{}
	root := f.AddState()
	f.AddArc(backoff, decoder.Arc{Weight: float32(math.Log(benchWords)), NextState: root})
	for w := 0; w < benchWords; w++ {
		node := root
		for _, p := range pron[w] {
			k := trieKey{node, p}
			child, ok := trie[k]
			if !ok {
				// A fresh first state: the tree node itself must not carry
				// any phone's self-loop.
				cur := f.AddState()
				f.AddArc(node, decoder.Arc{NextState: cur})
				for h, st := range phones[p] {
					f.AddArc(cur, decoder.Arc{ILabel: st.self, Weight: cost(st.self), NextState: cur})
					next := f.AddState()
					if h == 2 {
						child = next
					}
					f.AddArc(cur, decoder.Arc{ILabel: st.fwd, Weight: cost(st.fwd), NextState: next})
					cur = next
				}
				trie[k] = child
			}
			node = child
		}
		f.AddArc(node, decoder.Arc{OLabel: int32(w + 1), NextState: hist[w]})
	}
	succ := make([][]int32, benchWords)
	for w := 0; w < benchWords; w++ {
		for k := 0; k < benchSuccessors; k++ {
			v := int32(rng.Intn(benchWords))
			succ[w] = append(succ[w], v)
			f.AddArc(hist[w], decoder.Arc{OLabel: v + 1, Weight: float32(math.Log(benchSuccessors)) + 0.1, NextState: entry[v]})
		}
		f.AddArc(hist[w], decoder.Arc{Weight: 2.3, NextState: backoff})
	}
	g, err := NewGraph(f)
	if err != nil {
		tb.Fatal(err)
	}
	b := &bigramBench{g: g, tm: tm}
	np := tm.NumPdfs()
	for u := 0; u < numUtts; u++ {
		var pdfs []int32
		var truth []int32
		w := int32(rng.Intn(benchWords))
		for i := 0; i < wordsPerUtt; i++ {
			truth = append(truth, w+1)
			for _, p := range pron[w] {
				for _, st := range phones[p] {
					for d := 1 + geometric(rng); d > 0; d-- {
						pdfs = append(pdfs, st.pdf)
					}
				}
			}
			w = succ[w][rng.Intn(benchSuccessors)]
		}
		m := make([]float32, len(pdfs)*np)
		for t, pdf := range pdfs {
			row := m[t*np : (t+1)*np]
			for j := range row {
				if int32(j) != pdf {
					row[j] = float32(benchMean + rng.NormFloat64()*benchSigma)
				}
			}
		}
		b.utts = append(b.utts, m)
		b.frames = append(b.frames, len(pdfs))
		b.words = append(b.words, truth)
	}
	return b
}

func itoa(v []int32) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprint(x)
	}
	return out
}

func geometric(rng *rand.Rand) int {
	n := 0
	for rng.Intn(2) == 1 {
		n++
	}
	return n
}

func BenchmarkLatgenBigram5k(b *testing.B) {
	bb := buildBigramBench(b, 3, 30, 6)
	d := NewLatticeDecoder(bb.g, DefaultOptions())
	frames := 0
	decs := make([]*MatrixMapped, len(bb.utts))
	for i, m := range bb.utts {
		var err error
		decs[i], err = NewMatrixMapped(m, bb.frames[i], bb.tm.NumPdfs(), bb.tm.TransitionIDToPdfArray(), bb.tm.NumPdfs(), 0.1)
		if err != nil {
			b.Fatal(err)
		}
		frames += bb.frames[i]
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, dec := range decs {
			if _, err := d.DecodeUtterance(dec, 0.1, true, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/(float64(frames)/100), "RTF")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N)/(float64(frames)/100), "cpuRTF")
}

// The oracle-noisy bigram utterances decode to their own word sequences
// often enough to show the graph and loglikes are consistent (a smoke test
// of benchmark (b); without -short only).
func TestBigramBenchSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 5,000-word graph")
	}
	bb := buildBigramBench(t, 1, 8, 6)
	d := NewLatticeDecoder(bb.g, DefaultOptions())
	dec, err := NewMatrixMapped(bb.utts[0], bb.frames[0], bb.tm.NumPdfs(), bb.tm.TransitionIDToPdfArray(), bb.tm.NumPdfs(), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.DecodeUtterance(dec, 0.1, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := scoring.EditDistance(itoa(bb.words[0]), itoa(res.Words))
	t.Logf("%d frames, %d words decoded, %d errors, lattice %d states, partial %v", bb.frames[0], len(res.Words), e.Total(), len(res.Compact.States), res.Partial)
	if e.Total() > len(bb.words[0])/4 {
		t.Errorf("decoded %v, truth %v", res.Words, bb.words[0])
	}
	if len(res.Alignment) != bb.frames[0] {
		t.Errorf("alignment has %d frames, want %d", len(res.Alignment), bb.frames[0])
	}
}

// BenchmarkDeterminizeBigram5k is the determinization alone
// (DeterminizePruned at Kaldi's lattice beam) of the raw lattice of
// benchmark (b)'s first utterance.
func BenchmarkDeterminizeBigram5k(b *testing.B) {
	bb := buildBigramBench(b, 1, 30, 6)
	opts := DefaultOptions()
	d := NewLatticeDecoder(bb.g, opts)
	dec, err := NewMatrixMapped(bb.utts[0], bb.frames[0], bb.tm.NumPdfs(), bb.tm.TransitionIDToPdfArray(), bb.tm.NumPdfs(), 0.1)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Decode(dec, nil); err != nil {
		b.Fatal(err)
	}
	raw, err := d.RawLattice()
	if err != nil {
		b.Fatal(err)
	}
	raw.Connect()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := lattice.DeterminizePruned(raw, opts.LatticeBeam, lattice.DeterminizeOptions{Delta: float32(opts.Delta)}); err != nil {
			b.Fatal(err)
		}
	}
}
