package fst

import "math"

// OpenFst property bits (fst/properties.h). A file's header stores the bits
// its writer knew; unknown properties are simply left unset.
const (
	PropExpanded        uint64 = 0x1
	PropMutable         uint64 = 0x2
	PropAcceptor        uint64 = 0x10000
	PropNotAcceptor     uint64 = 0x20000
	PropEpsilons        uint64 = 0x400000
	PropNoEpsilons      uint64 = 0x800000
	PropIEpsilons       uint64 = 0x1000000
	PropNoIEpsilons     uint64 = 0x2000000
	PropOEpsilons       uint64 = 0x4000000
	PropNoOEpsilons     uint64 = 0x8000000
	PropILabelSorted    uint64 = 0x10000000
	PropNotILabelSorted uint64 = 0x20000000
	PropOLabelSorted    uint64 = 0x40000000
	PropNotOLabelSorted uint64 = 0x80000000
	PropWeighted        uint64 = 0x100000000
	PropUnweighted      uint64 = 0x200000000
)

// ComputeProperties returns the property bits that one pass over the arcs
// decides: acceptor, epsilons, label sortedness and weightedness. (The
// reachability and cyclicity bits are left unknown, which OpenFst accepts.)
func ComputeProperties(f *VectorFst) uint64 {
	acceptor, eps, ieps, oeps := true, false, false, false
	isorted, osorted, weighted := true, true, false
	for _, s := range f.States {
		if s.Final != WeightZero && s.Final != WeightOne && !math.IsNaN(float64(s.Final)) {
			weighted = true
		}
		for i, a := range s.Arcs {
			if a.ILabel != a.OLabel {
				acceptor = false
			}
			if a.ILabel == 0 {
				ieps = true
				if a.OLabel == 0 {
					eps = true
				}
			}
			if a.OLabel == 0 {
				oeps = true
			}
			if i > 0 && a.ILabel < s.Arcs[i-1].ILabel {
				isorted = false
			}
			if i > 0 && a.OLabel < s.Arcs[i-1].OLabel {
				osorted = false
			}
			if a.Weight != WeightOne {
				weighted = true
			}
		}
	}
	pick := func(c bool, yes, no uint64) uint64 {
		if c {
			return yes
		}
		return no
	}
	return pick(acceptor, PropAcceptor, PropNotAcceptor) |
		pick(eps, PropEpsilons, PropNoEpsilons) |
		pick(ieps, PropIEpsilons, PropNoIEpsilons) |
		pick(oeps, PropOEpsilons, PropNoOEpsilons) |
		pick(isorted, PropILabelSorted, PropNotILabelSorted) |
		pick(osorted, PropOLabelSorted, PropNotOLabelSorted) |
		pick(weighted, PropWeighted, PropUnweighted)
}
