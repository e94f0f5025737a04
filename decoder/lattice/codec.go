package lattice

import (
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// Codecs for kaldiio tables. Kaldi writes lattices with no "\0B" marker (a
// lattice file is a plain OpenFst file), so these are raw codecs that tell
// binary from text by the first byte: OpenFst's magic number starts with
// 0xD6, a text lattice with its newline or a digit.
var (
	// CompactLatticeCodec is Kaldi's CompactLatticeHolder; a state-level
	// Lattice is converted on reading (Lattice.ToCompact), as Kaldi does.
	CompactLatticeCodec kaldiio.Codec[CompactLattice] = compactCodec{}
	// LatticeCodec is Kaldi's LatticeHolder; a CompactLattice is expanded
	// on reading, as Kaldi does.
	LatticeCodec kaldiio.Codec[Lattice] = latticeCodec{}
)

type compactCodec struct{}
type latticeCodec struct{}

func (compactCodec) RawObject() {}
func (latticeCodec) RawObject() {}

func readAny(r *kaldiio.Reader) (*CompactLattice, *Lattice, error) {
	b, err := r.Peek()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: lattice: %w", kaldiio.ErrFormat, err)
	}
	var c *CompactLattice
	var l *Lattice
	if b == fstMagic&0xff {
		c, l, err = ReadBinary(r)
	} else {
		c, l, err = ReadText(r)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", kaldiio.ErrFormat, err)
	}
	return c, l, nil
}

func (compactCodec) Read(r *kaldiio.Reader, _ bool, v *CompactLattice) error {
	c, l, err := readAny(r)
	if err != nil {
		return err
	}
	if c == nil {
		c = l.ToCompact()
	}
	*v = *c
	return nil
}

func (compactCodec) Write(w *kaldiio.Writer, binary bool, v *CompactLattice) error {
	if binary {
		return v.WriteBinary(w)
	}
	return v.WriteText(w)
}

func (latticeCodec) Read(r *kaldiio.Reader, _ bool, v *Lattice) error {
	c, l, err := readAny(r)
	if err != nil {
		return err
	}
	if l == nil {
		l = c.ToLattice()
	}
	*v = *l
	return nil
}

func (latticeCodec) Write(w *kaldiio.Writer, binary bool, v *Lattice) error {
	if binary {
		return v.WriteBinary(w)
	}
	return v.WriteText(w)
}
