package datadir

// splitSpeakers assigns speakers (with their utterance counts, in order of
// first appearance) to n parts as utils/split_scp.pl --utt2spk does: an
// equal number of speakers per part, then speakers at the parts' edges moved
// to the neighbouring part while that makes the two parts' utterance counts
// closer. It returns each part's speaker indices in order. Parts may come
// out empty (the caller reports it); n must not exceed len(counts).
func splitSpeakers(counts []int, n int) [][]int {
	parts := make([][]int, n)
	size := make([]int, n)
	for i := range counts {
		p := i * n / len(counts)
		parts[p] = append(parts[p], i)
		size[p] += counts[i]
	}
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	for changed := true; changed; {
		changed = false
		for p := 0; p < n; p++ {
			if p < n-1 && len(parts[p]) > 0 {
				s := parts[p][len(parts[p])-1]
				c := counts[s]
				if abs((size[p+1]+c)-(size[p]-c)) < abs(size[p+1]-size[p]) {
					size[p+1] += c
					size[p] -= c
					parts[p] = parts[p][:len(parts[p])-1]
					parts[p+1] = append([]int{s}, parts[p+1]...)
					changed = true
				}
			}
			if p > 0 && len(parts[p]) > 0 {
				s := parts[p][0]
				c := counts[s]
				if abs((size[p]-c)-(size[p-1]+c)) < abs(size[p]-size[p-1]) {
					size[p-1] += c
					size[p] -= c
					parts[p] = parts[p][1:]
					parts[p-1] = append(parts[p-1], s)
					changed = true
				}
			}
		}
	}
	return parts
}

// splitLines gives part p (0-based) of n lines [lo, hi) as split_scp.pl
// without --utt2spk: n/parts lines each, the first n%parts parts one more.
func splitLines(numLines, n, p int) (lo, hi int) {
	per, rem := numLines/n, numLines%n
	lo = p*per + min(p, rem)
	hi = lo + per
	if p < rem {
		hi++
	}
	return lo, hi
}
