package scoring

// Errors are the edit operations between a reference and a hypothesis.
type Errors struct {
	Ins, Del, Sub int
}

// Total is the edit distance, Ins + Del + Sub.
func (e Errors) Total() int { return e.Ins + e.Del + e.Sub }

// EditDistance returns the Levenshtein distance between ref and hyp split into
// insertions, deletions and substitutions as Kaldi's
// LevenshteinEditDistance(ref, hyp, &ins, &del, &sub) splits it.
//
// The recursion runs over hypothesis words (outer) and reference words
// (inner), keeping per reference prefix the cheapest alignment's counts.
// Ties are broken as Kaldi does: a substitution (or match) is taken only when
// it is strictly cheaper than both alternatives, then a deletion when strictly
// cheaper than an insertion, otherwise an insertion. That order decides the
// split reported by compute-wer (e.g. ref "a b", hyp "b c" is 1 ins + 1 del,
// not 2 sub).
func EditDistance(ref, hyp []string) Errors {
	type cell struct{ ins, del, sub, cost int }
	prev := make([]cell, len(ref)+1)
	cur := make([]cell, len(ref)+1)
	for i := range prev {
		prev[i] = cell{del: i, cost: i}
	}
	for h := 1; h <= len(hyp); h++ {
		cur[0] = prev[0]
		cur[0].ins++
		cur[0].cost++
		for r := 1; r <= len(ref); r++ {
			insErr := prev[r].cost + 1
			delErr := cur[r-1].cost + 1
			subErr := prev[r-1].cost
			differ := hyp[h-1] != ref[r-1]
			if differ {
				subErr++
			}
			switch {
			case subErr < insErr && subErr < delErr:
				cur[r] = prev[r-1]
				if differ {
					cur[r].sub++
				}
				cur[r].cost = subErr
			case delErr < insErr:
				cur[r] = cur[r-1]
				cur[r].del++
				cur[r].cost = delErr
			default:
				cur[r] = prev[r]
				cur[r].ins++
				cur[r].cost = insErr
			}
		}
		prev, cur = cur, prev
	}
	c := prev[len(ref)]
	return Errors{Ins: c.ins, Del: c.del, Sub: c.sub}
}

// Pair is one aligned position: Ref or Hyp is the epsilon symbol for an
// insertion or a deletion.
type Pair struct {
	Ref, Hyp string
}

// Align returns the Levenshtein alignment of ref and hyp as Kaldi's
// LevenshteinAlignment does, with eps standing for the missing side of an
// insertion or deletion, and the edit distance. Tracing back from the end,
// ties prefer match/substitution, then deletion, then insertion. Neither
// sequence may contain eps (the caller checks; see ErrSpecialSymbol).
func Align(ref, hyp []string, eps string) ([]Pair, int) {
	M, N := len(ref), len(hyp)
	e := make([][]int32, M+1)
	for m := range e {
		e[m] = make([]int32, N+1)
	}
	for n := 0; n <= N; n++ {
		e[0][n] = int32(n)
	}
	sub := func(m, n int) int32 {
		if ref[m-1] == hyp[n-1] {
			return e[m-1][n-1]
		}
		return e[m-1][n-1] + 1
	}
	for m := 1; m <= M; m++ {
		e[m][0] = e[m-1][0] + 1
		for n := 1; n <= N; n++ {
			e[m][n] = min(sub(m, n), e[m-1][n]+1, e[m][n-1]+1)
		}
	}
	out := make([]Pair, 0, max(M, N))
	m, n := M, N
	for m != 0 || n != 0 {
		lm, ln := m, n
		switch {
		case m == 0:
			ln = n - 1
		case n == 0:
			lm = m - 1
		default:
			s, del, ins := sub(m, n), e[m-1][n]+1, e[m][n-1]+1
			switch {
			case s <= min(del, ins):
				lm, ln = m-1, n-1
			case del <= ins:
				lm = m - 1
			default:
				ln = n - 1
			}
		}
		p := Pair{Ref: eps, Hyp: eps}
		if lm != m {
			p.Ref = ref[lm]
		}
		if ln != n {
			p.Hyp = hyp[ln]
		}
		out = append(out, p)
		m, n = lm, ln
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, int(e[M][N])
}
