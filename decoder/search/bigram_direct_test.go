package search

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
)

// The hand-built 5,000-word bigram graph, kept as a harder case beside the
// mkgraph one (BenchmarkLatgenBigram5kDirect): it was the large-vocabulary
// benchmark before mkgraph existed, and was built H∘C∘L∘G directly over kaldi-mini's monophone HMMs
// rather than with mkgraph: each word has a random pronunciation of 2–6
// non-silence phones, each phone a chain of its three HMM states; a history
// state per word, bigram arcs (ε input, word output, −log p) from each
// history to 20 random successors' own phone chains, a back-off arc to a
// unigram state that enters a pronunciation prefix tree over all 5,000
// words (the word is output at its end). The paths and scores are those of
// an HCLG of this lexicon and LM, but not its shape: nothing is determinized,
// minimized or epsilon-removed, so every word end passes through a chain of
// epsilon arcs and the 20 successors' chains are entered separately. At
// Kaldi's default beams about 10,400 tokens and 18,700 links per frame are
// active, against about 6,400 and 10,700 on mkgraph's graph
// (bigram_bench_test.go).
//
// Log-likelihoods as there: a random word sequence drawn from the bigram
// arcs, aligned with each HMM state lasting 1 + Geometric(1/2) frames.

const (
	directWords      = 5000
	directSuccessors = 20
)

func buildDirectBigramBench(tb testing.TB, numUtts, wordsPerUtt int, seed int64) *bigramBench {
	dir := mini(tb)
	tm, err := hmm.ReadTransitionModel(dir + "/exp/mono/final.mdl")
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

	f := fst.NewVectorFst()
	backoff := f.AddState()
	f.Start = backoff
	f.SetFinal(backoff, float32(math.Log(directWords)))
	hist := make([]int32, directWords)
	for w := range hist {
		hist[w] = f.AddState()
	}
	entry := make([]int32, directWords)
	pron := make([][]int32, directWords)
	for w := 0; w < directWords; w++ {
		n := 2 + rng.Intn(5)
		for i := 0; i < n; i++ {
			pron[w] = append(pron[w], phoneList[rng.Intn(len(phoneList))])
		}
		cur := f.AddState()
		entry[w] = cur
		for pi, p := range pron[w] {
			for h, st := range phones[p] {
				f.AddArc(cur, fst.Arc{ILabel: st.self, OLabel: 0, Weight: cost(st.self), NextState: cur})
				var next int32
				if pi == len(pron[w])-1 && h == 2 {
					next = hist[w]
				} else {
					next = f.AddState()
				}
				f.AddArc(cur, fst.Arc{ILabel: st.fwd, OLabel: 0, Weight: cost(st.fwd), NextState: next})
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
	f.AddArc(backoff, fst.Arc{Weight: float32(math.Log(directWords)), NextState: root})
	for w := 0; w < directWords; w++ {
		node := root
		for _, p := range pron[w] {
			k := trieKey{node, p}
			child, ok := trie[k]
			if !ok {
				// A fresh first state: the tree node itself must not carry
				// any phone's self-loop.
				cur := f.AddState()
				f.AddArc(node, fst.Arc{NextState: cur})
				for h, st := range phones[p] {
					f.AddArc(cur, fst.Arc{ILabel: st.self, Weight: cost(st.self), NextState: cur})
					next := f.AddState()
					if h == 2 {
						child = next
					}
					f.AddArc(cur, fst.Arc{ILabel: st.fwd, Weight: cost(st.fwd), NextState: next})
					cur = next
				}
				trie[k] = child
			}
			node = child
		}
		f.AddArc(node, fst.Arc{OLabel: int32(w + 1), NextState: hist[w]})
	}
	succ := make([][]int32, directWords)
	for w := 0; w < directWords; w++ {
		for k := 0; k < directSuccessors; k++ {
			v := int32(rng.Intn(directWords))
			succ[w] = append(succ[w], v)
			f.AddArc(hist[w], fst.Arc{OLabel: v + 1, Weight: float32(math.Log(directSuccessors)) + 0.1, NextState: entry[v]})
		}
		f.AddArc(hist[w], fst.Arc{Weight: 2.3, NextState: backoff})
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
		w := int32(rng.Intn(directWords))
		for i := 0; i < wordsPerUtt; i++ {
			truth = append(truth, w+1)
			for _, p := range pron[w] {
				for _, st := range phones[p] {
					for d := 1 + geometric(rng); d > 0; d-- {
						pdfs = append(pdfs, st.pdf)
					}
				}
			}
			w = succ[w][rng.Intn(directSuccessors)]
		}
		b.add(pdfs, truth, np, rng)
	}
	return b
}
