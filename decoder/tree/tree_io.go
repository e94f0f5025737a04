package tree

import (
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// ContextDependencyCodec reads and writes Kaldi's tree (ContextDependency),
// byte-exact with Kaldi's Read/Write in both modes.
var ContextDependencyCodec kaldiio.Codec[ContextDependency] = treeCodec{}

// maxTreeDepth bounds EventMap nesting so corrupt input cannot exhaust the
// stack.
const maxTreeDepth = 10000

type treeCodec struct{}

func (treeCodec) Read(r *kaldiio.Reader, binary bool, c *ContextDependency) error {
	if err := r.ExpectToken(binary, "ContextDependency"); err != nil {
		return err
	}
	*c = ContextDependency{}
	var err error
	if c.ContextWidth, err = r.ReadInt32(binary); err != nil {
		return err
	}
	if c.CentralPosition, err = r.ReadInt32(binary); err != nil {
		return err
	}
	if c.ContextWidth < 1 || c.CentralPosition < 0 || c.CentralPosition >= c.ContextWidth {
		return r.Errorf("tree with context width %d and central position %d", c.ContextWidth, c.CentralPosition)
	}
	tok, err := r.ReadToken(binary)
	if err != nil {
		return err
	}
	if tok == "ToLength" { // old format: a map we do not need
		if _, err := readEventMap(r, binary, 0); err != nil {
			return err
		}
		if tok, err = r.ReadToken(binary); err != nil {
			return err
		}
	}
	if tok != "ToPdf" {
		return r.Errorf("expected ToPdf in tree, got %q", tok)
	}
	if c.ToPdf, err = readEventMap(r, binary, 0); err != nil {
		return err
	}
	return r.ExpectToken(binary, "EndContextDependency")
}

func readEventMap(r *kaldiio.Reader, binary bool, depth int) (EventMap, error) {
	if depth > maxTreeDepth {
		return nil, r.Errorf("tree nested deeper than %d", maxTreeDepth)
	}
	tok, err := r.ReadToken(binary)
	if err != nil {
		return nil, err
	}
	switch tok {
	case "NULL":
		return nil, nil
	case "CE":
		a, err := r.ReadInt32(binary)
		if err != nil {
			return nil, err
		}
		return &ConstantEventMap{a}, nil
	case "TE":
		key, err := r.ReadInt32(binary)
		if err != nil {
			return nil, err
		}
		n, err := kaldiio.ReadBasicInt[uint32](r, binary)
		if err != nil {
			return nil, err
		}
		if n > 1<<24 {
			return nil, r.Errorf("tree table of size %d", n)
		}
		if err := r.ExpectToken(binary, "("); err != nil {
			return nil, err
		}
		m := &TableEventMap{Key: key, Table: make([]EventMap, 0, min(n, 1<<12))}
		for i := uint32(0); i < n; i++ {
			sub, err := readEventMap(r, binary, depth+1)
			if err != nil {
				return nil, err
			}
			m.Table = append(m.Table, sub)
		}
		if err := r.ExpectToken(binary, ")"); err != nil {
			return nil, err
		}
		return m, nil
	case "SE":
		key, err := r.ReadInt32(binary)
		if err != nil {
			return nil, err
		}
		yes, err := r.ReadIntVector(binary, nil)
		if err != nil {
			return nil, err
		}
		for i := 1; i < len(yes); i++ {
			if yes[i] <= yes[i-1] {
				return nil, r.Errorf("tree split set not sorted and unique")
			}
		}
		if err := r.ExpectToken(binary, "{"); err != nil {
			return nil, err
		}
		m := &SplitEventMap{Key: key, YesSet: yes}
		if m.Yes, err = readEventMap(r, binary, depth+1); err != nil {
			return nil, err
		}
		if m.No, err = readEventMap(r, binary, depth+1); err != nil {
			return nil, err
		}
		if m.Yes == nil || m.No == nil {
			return nil, r.Errorf("tree split with a NULL branch")
		}
		if err := r.ExpectToken(binary, "}"); err != nil {
			return nil, err
		}
		return m, nil
	}
	return nil, r.Errorf("unexpected token %q in tree (want NULL, CE, TE or SE)", tok)
}

func (treeCodec) Write(w *kaldiio.Writer, binary bool, c *ContextDependency) error {
	w.WriteToken(binary, "ContextDependency")
	w.WriteInt32(binary, c.ContextWidth)
	w.WriteInt32(binary, c.CentralPosition)
	w.WriteToken(binary, "ToPdf")
	writeEventMap(w, binary, c.ToPdf)
	return w.WriteToken(binary, "EndContextDependency")
}

func writeEventMap(w *kaldiio.Writer, binary bool, m EventMap) {
	switch m := m.(type) {
	case nil:
		w.WriteToken(binary, "NULL")
	case *ConstantEventMap:
		w.WriteToken(binary, "CE")
		w.WriteInt32(binary, m.Answer)
	case *TableEventMap:
		w.WriteToken(binary, "TE")
		w.WriteInt32(binary, m.Key)
		kaldiio.WriteBasicInt(w, binary, uint32(len(m.Table)))
		w.WriteToken(binary, "(")
		for _, sub := range m.Table {
			writeEventMap(w, binary, sub)
		}
		w.WriteToken(binary, ")")
		if !binary {
			w.WriteString("\n")
		}
	case *SplitEventMap:
		w.WriteToken(binary, "SE")
		w.WriteInt32(binary, m.Key)
		w.WriteIntVector(binary, m.YesSet)
		w.WriteToken(binary, "{")
		writeEventMap(w, binary, m.Yes)
		writeEventMap(w, binary, m.No)
		w.WriteToken(binary, "}")
		if !binary {
			w.WriteString("\n")
		}
	}
}

// Read reads a Kaldi tree file (ContextDependency), binary or text.
func Read(rx string) (*ContextDependency, error) {
	t := &ContextDependency{}
	if err := kaldiio.ReadObject(rx, ContextDependencyCodec, t); err != nil {
		return nil, fmt.Errorf("reading tree: %w", err)
	}
	return t, nil
}
