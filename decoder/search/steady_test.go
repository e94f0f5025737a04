package search

import "testing"

// Once a decoder has seen utterances like the next one, decoding allocates
// nothing: tokens and links live in per-frame slabs that go back to a pool,
// the state → token table is a stamped array, and no map is made per frame.
func TestDecodeSteadyStateAllocatesNothing(t *testing.T) {
	s := loadMini(t)
	d := NewLatticeDecoder(s.g, DefaultOptions())
	decs := make([]*MatrixMapped, len(s.utts))
	for i, u := range s.utts {
		decs[i] = s.decodable(t, u, 0.1)
	}
	decodeAll := func() {
		for _, dec := range decs {
			if err := d.Decode(dec, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Wide slabs move between frames of different utterances and only grow;
	// some rounds let every one reach the largest size it is asked for, and
	// the narrow size classes settle (12 rounds do, 10 did not since
	// periodic pruning runs every fourth interval).
	for range 20 {
		decodeAll()
	}
	if n := testing.AllocsPerRun(3, decodeAll); n != 0 {
		t.Errorf("%v allocations per round of %d utterances, want 0", n, len(decs))
	}
}

// BenchmarkDecodeBigram5k is the search alone (Decode: token passing, lattice
// pruning, finalization; no raw lattice, no determinization) on benchmark
// (b)'s graph and loglikes, with the work per frame: tokens created, arcs
// expanded, forward links made, token visits of the lattice pruning.
func BenchmarkDecodeBigram5k(b *testing.B) {
	bb := buildBigramBench(b, 3, 30, 6)
	d := NewLatticeDecoder(bb.g, DefaultOptions())
	decs := bb.decodables(b)
	frames := 0
	for _, n := range bb.frames {
		frames += n
	}
	var sum Stats
	for _, dec := range decs { // warm the slabs; count the work once
		if err := d.Decode(dec, nil); err != nil {
			b.Fatal(err)
		}
		st := d.Stats()
		sum.Tokens += st.Tokens
		sum.EmittingArcs += st.EmittingArcs
		sum.EpsilonArcs += st.EpsilonArcs
		sum.Links += st.Links
		sum.PruneTokenVisits += st.PruneTokenVisits
		sum.PruneLinkVisits += st.PruneLinkVisits
		sum.PeakTokens = max(sum.PeakTokens, st.PeakTokens)
		sum.PeakLinks = max(sum.PeakLinks, st.PeakLinks)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, dec := range decs {
			if err := d.Decode(dec, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N)/(float64(frames)/100), "cpuRTF")
	f := float64(frames)
	arcs := float64(sum.EmittingArcs + sum.EpsilonArcs)
	b.ReportMetric(sec/(f/100), "RTF")
	b.ReportMetric(float64(sum.Tokens)/f, "tokens/frame")
	b.ReportMetric(arcs/f, "arcs/frame")
	b.ReportMetric(float64(sum.Links)/f, "links/frame")
	b.ReportMetric(float64(sum.PruneTokenVisits)/f, "prunevisits/frame")
	b.ReportMetric(float64(sum.PruneLinkVisits)/f, "prunelinks/frame")
	b.ReportMetric(float64(sum.PeakTokens), "peaktokens")
	b.ReportMetric(float64(sum.PeakLinks), "peaklinks")
	b.ReportMetric(arcs/sec/1e6, "Marcs/s")
}
