package hmm

import (
	"fmt"
	"strconv"

	"github.com/strode-asr/strode/kaldiio"
)

// Kaldi object codecs (kaldiio.Codec) of the HMM objects, byte-exact with
// Kaldi's Read/Write in both modes.
var (
	// TopologyCodec reads and writes Kaldi's HmmTopology ("<Topology>").
	TopologyCodec kaldiio.Codec[Topology] = topologyCodec{}
	// TransitionModelCodec reads and writes Kaldi's TransitionModel; reading
	// a GMM or nnet final.mdl reads the transition model at its head and
	// leaves the rest, as Kaldi's tools that need only it do.
	TransitionModelCodec kaldiio.Codec[TransitionModel] = transitionModelCodec{}
)

type topologyCodec struct{}

func (topologyCodec) Read(r *kaldiio.Reader, binary bool, t *Topology) error {
	if err := r.ExpectToken(binary, "<Topology>"); err != nil {
		return err
	}
	*t = Topology{}
	if !binary {
		if err := readTopologyText(r, t); err != nil {
			return err
		}
	} else {
		phones, err := r.ReadIntVector(true, nil)
		if err != nil {
			return err
		}
		p2i, err := r.ReadIntVector(true, nil)
		if err != nil {
			return err
		}
		t.Phones, t.Phone2Idx = phones, p2i
		n, err := r.ReadInt32(true)
		if err != nil {
			return err
		}
		isHmm := true
		if n == -1 {
			isHmm = false
			if n, err = r.ReadInt32(true); err != nil {
				return err
			}
		}
		if n < 0 || n > 1<<20 {
			return r.Errorf("topology with %d entries", n)
		}
		for i := int32(0); i < n; i++ {
			ns, err := r.ReadInt32(true)
			if err != nil {
				return err
			}
			if ns < 0 || ns > 1<<16 {
				return r.Errorf("topology entry with %d states", ns)
			}
			entry := make(TopologyEntry, ns)
			for j := range entry {
				st := &entry[j]
				if st.ForwardPdfClass, err = r.ReadInt32(true); err != nil {
					return err
				}
				st.SelfLoopPdfClass = st.ForwardPdfClass
				if !isHmm {
					if st.SelfLoopPdfClass, err = r.ReadInt32(true); err != nil {
						return err
					}
				}
				nt, err := r.ReadInt32(true)
				if err != nil {
					return err
				}
				if nt < 0 || nt > 1<<16 {
					return r.Errorf("HMM state with %d transitions", nt)
				}
				for k := int32(0); k < nt; k++ {
					var tr Transition
					if tr.Dest, err = r.ReadInt32(true); err != nil {
						return err
					}
					if tr.Prob, err = r.ReadFloat32(true); err != nil {
						return err
					}
					st.Transitions = append(st.Transitions, tr)
				}
			}
			t.Entries = append(t.Entries, entry)
		}
	}
	if binary {
		if err := r.ExpectToken(true, "</Topology>"); err != nil {
			return err
		}
	}
	if err := t.Check(); err != nil {
		return r.Errorf("%v", err)
	}
	return nil
}

// readTopologyText reads the text form after "<Topology>", up to and
// including "</Topology>" (Kaldi's "human-readable" topology).
func readTopologyText(r *kaldiio.Reader, t *Topology) error {
	var forPhones [][]int32
	for {
		tok, err := r.ReadToken(false)
		if err != nil {
			return err
		}
		if tok == "</Topology>" {
			break
		}
		if tok != "<TopologyEntry>" {
			return r.Errorf("expected <TopologyEntry> or </Topology>, got %q", tok)
		}
		if err := r.ExpectToken(false, "<ForPhones>"); err != nil {
			return err
		}
		var phones []int32
		for {
			s, err := r.ReadToken(false)
			if err != nil {
				return err
			}
			if s == "</ForPhones>" {
				break
			}
			p, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return r.Errorf("expected a phone in <ForPhones>, got %q", s)
			}
			phones = append(phones, int32(p))
		}
		var entry TopologyEntry
		tok, err = r.ReadToken(false)
		if err != nil {
			return err
		}
		for tok != "</TopologyEntry>" {
			if tok != "<State>" {
				return r.Errorf("expected <State> or </TopologyEntry>, got %q", tok)
			}
			id, err := r.ReadInt32(false)
			if err != nil {
				return err
			}
			if int(id) != len(entry) {
				return r.Errorf("states must be numbered in order from 0: expected %d, got %d", len(entry), id)
			}
			st := State{ForwardPdfClass: NoPdf, SelfLoopPdfClass: NoPdf}
			if tok, err = r.ReadToken(false); err != nil {
				return err
			}
			switch tok {
			case "<PdfClass>":
				if st.ForwardPdfClass, err = r.ReadInt32(false); err != nil {
					return err
				}
				st.SelfLoopPdfClass = st.ForwardPdfClass
				if tok, err = r.ReadToken(false); err != nil {
					return err
				}
			case "<ForwardPdfClass>":
				if st.ForwardPdfClass, err = r.ReadInt32(false); err != nil {
					return err
				}
				if err := r.ExpectToken(false, "<SelfLoopPdfClass>"); err != nil {
					return err
				}
				if st.SelfLoopPdfClass, err = r.ReadInt32(false); err != nil {
					return err
				}
				if tok, err = r.ReadToken(false); err != nil {
					return err
				}
			}
			for tok == "<Transition>" {
				var tr Transition
				if tr.Dest, err = r.ReadInt32(false); err != nil {
					return err
				}
				if tr.Prob, err = r.ReadFloat32(false); err != nil {
					return err
				}
				st.Transitions = append(st.Transitions, tr)
				if tok, err = r.ReadToken(false); err != nil {
					return err
				}
			}
			if tok != "</State>" {
				return r.Errorf("unexpected token %q in <State>", tok)
			}
			entry = append(entry, st)
			if tok, err = r.ReadToken(false); err != nil {
				return err
			}
		}
		t.Entries = append(t.Entries, entry)
		forPhones = append(forPhones, phones)
	}
	if err := t.SetPhones(forPhones); err != nil {
		return r.Errorf("%v", err)
	}
	return nil
}

func (topologyCodec) Write(w *kaldiio.Writer, binary bool, t *Topology) error {
	isHmm := t.IsHmm()
	w.WriteToken(binary, "<Topology>")
	if !binary {
		w.WriteString("\n")
		for i, entry := range t.Entries {
			w.WriteToken(false, "<TopologyEntry>")
			w.WriteString("\n")
			w.WriteToken(false, "<ForPhones>")
			w.WriteString("\n")
			for p, idx := range t.Phone2Idx {
				if idx == int32(i) {
					w.WriteString(strconv.Itoa(p) + " ")
				}
			}
			w.WriteString("\n")
			w.WriteToken(false, "</ForPhones>")
			w.WriteString("\n")
			for j, st := range entry {
				w.WriteToken(false, "<State>")
				w.WriteInt32(false, int32(j))
				if st.ForwardPdfClass != NoPdf {
					if isHmm {
						w.WriteToken(false, "<PdfClass>")
						w.WriteInt32(false, st.ForwardPdfClass)
					} else {
						w.WriteToken(false, "<ForwardPdfClass>")
						w.WriteInt32(false, st.ForwardPdfClass)
						w.WriteToken(false, "<SelfLoopPdfClass>")
						w.WriteInt32(false, st.SelfLoopPdfClass)
					}
				}
				for _, tr := range st.Transitions {
					w.WriteToken(false, "<Transition>")
					w.WriteInt32(false, tr.Dest)
					w.WriteFloat32(false, tr.Prob)
				}
				w.WriteToken(false, "</State>")
				w.WriteString("\n")
			}
			w.WriteToken(false, "</TopologyEntry>")
			w.WriteString("\n")
		}
	} else {
		w.WriteIntVector(true, t.Phones)
		w.WriteIntVector(true, t.Phone2Idx)
		if !isHmm {
			w.WriteInt32(true, -1)
		}
		w.WriteInt32(true, int32(len(t.Entries)))
		for _, entry := range t.Entries {
			w.WriteInt32(true, int32(len(entry)))
			for _, st := range entry {
				w.WriteInt32(true, st.ForwardPdfClass)
				if !isHmm {
					w.WriteInt32(true, st.SelfLoopPdfClass)
				}
				w.WriteInt32(true, int32(len(st.Transitions)))
				for _, tr := range st.Transitions {
					w.WriteInt32(true, tr.Dest)
					w.WriteFloat32(true, tr.Prob)
				}
			}
		}
	}
	err := w.WriteToken(binary, "</Topology>")
	if !binary {
		err = w.WriteString("\n")
	}
	return err
}

type transitionModelCodec struct{}

func (transitionModelCodec) Read(r *kaldiio.Reader, binary bool, tm *TransitionModel) error {
	if err := r.ExpectToken(binary, "<TransitionModel>"); err != nil {
		return err
	}
	*tm = TransitionModel{}
	if err := TopologyCodec.Read(r, binary, &tm.Topo); err != nil {
		return err
	}
	tok, err := r.ReadToken(binary)
	if err != nil {
		return err
	}
	if tok != "<Tuples>" && tok != "<Triples>" {
		return r.Errorf("expected <Tuples> or <Triples>, got %q", tok)
	}
	triples := tok == "<Triples>"
	n, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if n < 0 || n > 1<<24 {
		return r.Errorf("transition model with %d transition-states", n)
	}
	for i := int32(0); i < n; i++ {
		var t TransitionTuple
		if t.Phone, err = r.ReadInt32(binary); err != nil {
			return err
		}
		if t.HmmState, err = r.ReadInt32(binary); err != nil {
			return err
		}
		if t.ForwardPdf, err = r.ReadInt32(binary); err != nil {
			return err
		}
		t.SelfLoopPdf = t.ForwardPdf
		if !triples {
			if t.SelfLoopPdf, err = r.ReadInt32(binary); err != nil {
				return err
			}
		}
		tm.Tuples = append(tm.Tuples, t)
	}
	end := "</Tuples>"
	if triples {
		end = "</Triples>"
	}
	if err := r.ExpectToken(binary, end); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<LogProbs>"); err != nil {
		return err
	}
	var lp kaldiio.Vector
	if err := kaldiio.VectorCodec.Read(r, binary, &lp); err != nil {
		return err
	}
	tm.LogProbs = lp
	if err := r.ExpectToken(binary, "</LogProbs>"); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "</TransitionModel>"); err != nil {
		return err
	}
	if err := tm.ComputeDerived(); err != nil {
		return r.Errorf("%v", err)
	}
	return nil
}

func (transitionModelCodec) Write(w *kaldiio.Writer, binary bool, tm *TransitionModel) error {
	isHmm := tm.Topo.IsHmm()
	nl := func() {
		if !binary {
			w.WriteString("\n")
		}
	}
	w.WriteToken(binary, "<TransitionModel>")
	nl()
	if err := TopologyCodec.Write(w, binary, &tm.Topo); err != nil {
		return err
	}
	if isHmm {
		w.WriteToken(binary, "<Triples>")
	} else {
		w.WriteToken(binary, "<Tuples>")
	}
	w.WriteInt32(binary, int32(len(tm.Tuples)))
	nl()
	for _, t := range tm.Tuples {
		w.WriteInt32(binary, t.Phone)
		w.WriteInt32(binary, t.HmmState)
		w.WriteInt32(binary, t.ForwardPdf)
		if !isHmm {
			w.WriteInt32(binary, t.SelfLoopPdf)
		}
		nl()
	}
	if isHmm {
		w.WriteToken(binary, "</Triples>")
	} else {
		w.WriteToken(binary, "</Tuples>")
	}
	nl()
	w.WriteToken(binary, "<LogProbs>")
	nl()
	lp := kaldiio.Vector(tm.LogProbs)
	if err := kaldiio.VectorCodec.Write(w, binary, &lp); err != nil {
		return err
	}
	w.WriteToken(binary, "</LogProbs>")
	nl()
	err := w.WriteToken(binary, "</TransitionModel>")
	nl()
	return err
}

// ReadTransitionModel reads the transition model of a Kaldi model file
// (final.mdl of a GMM or nnet system, or a bare transition model), binary or
// text; rx may be any Kaldi rxfilename ("-", "cmd |").
func ReadTransitionModel(rx string) (*TransitionModel, error) {
	tm := &TransitionModel{}
	if err := kaldiio.ReadObject(rx, TransitionModelCodec, tm); err != nil {
		return nil, fmt.Errorf("reading transition model: %w", err)
	}
	return tm, nil
}
