package hmm

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/strode-asr/strode/decoder/fst"
)

// FormatG6 formats as C++'s default stream output (%g, 6 significant
// digits), as Kaldi's text logs and listings print numbers.
func FormatG6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func fmtG(v float64) string { return FormatG6(v) }

// Print writes Kaldi's show-transitions listing: each transition-state with
// its phone, HMM state and pdf(s), then its transition-ids with their
// probabilities (and the pdf's count when occs is given).
func (tm *TransitionModel) Print(w io.Writer, phones *fst.SymbolTable, occs []float64) error {
	if occs != nil && len(occs) != tm.NumPdfs() {
		return fmt.Errorf("%w: occupation counts have dimension %d, model has %d pdfs", ErrDimMismatch, len(occs), tm.NumPdfs())
	}
	bw := bufio.NewWriter(w)
	isHmm := tm.Topo.IsHmm()
	for ts := int32(1); int(ts) <= tm.NumTransitionStates(); ts++ {
		t := tm.Tuples[ts-1]
		name, ok := phones.Symbol(int64(t.Phone))
		if !ok {
			return fmt.Errorf("%w: phone %d is not in the phone symbol table", ErrModel, t.Phone)
		}
		fmt.Fprintf(bw, "Transition-state %d: phone = %s hmm-state = %d", ts, name, t.HmmState)
		if isHmm {
			fmt.Fprintf(bw, " pdf = %d\n", t.ForwardPdf)
		} else {
			fmt.Fprintf(bw, " forward-pdf = %d self-loop-pdf = %d\n", t.ForwardPdf, t.SelfLoopPdf)
		}
		entry, _ := tm.Topo.TopologyForPhone(t.Phone)
		for idx := 0; idx < tm.NumTransitionIndices(ts); idx++ {
			tid := tm.PairToTransitionID(ts, int32(idx))
			fmt.Fprintf(bw, " Transition-id = %d p = %s", tid, fmtG(float64(tm.TransitionProb(tid))))
			if occs != nil {
				pdf := t.ForwardPdf
				if tm.IsSelfLoop(tid) {
					pdf = t.SelfLoopPdf
				}
				fmt.Fprintf(bw, " count of pdf = %s", fmtG(occs[pdf]))
			}
			if tm.IsSelfLoop(tid) {
				bw.WriteString(" [self-loop]\n")
			} else {
				fmt.Fprintf(bw, " [%d -> %d]\n", t.HmmState, entry[t.HmmState].Transitions[idx].Dest)
			}
		}
	}
	return bw.Flush()
}

// PrintInfo writes hmm-info's summary.
func (tm *TransitionModel) PrintInfo(w io.Writer) error {
	_, err := fmt.Fprintf(w, "number of phones %d\nnumber of pdfs %d\nnumber of transition-ids %d\nnumber of transition-states %d\n",
		len(tm.Topo.Phones), tm.NumPdfs(), tm.NumTransitionIDs(), tm.NumTransitionStates())
	return err
}
