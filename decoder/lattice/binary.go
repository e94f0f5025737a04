package lattice

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrFormat marks bytes that are not a lattice as Kaldi writes them.
var ErrFormat = errors.New("malformed lattice")

// ByteReader is what the lattice readers need: kaldiio.Reader and
// bufio.Reader both are one.
type ByteReader interface {
	io.Reader
	io.ByteReader
}

// OpenFst header constants for Kaldi's lattice types.
const (
	fstMagic          = 2125659606
	arcTypeLattice    = "lattice4"
	arcTypeCompact    = "compactlattice44"
	vectorFstVersion  = 2
	propExpanded      = 0x1
	propMutable       = 0x2
	propAcceptor      = 0x10000
	propNotAcceptor   = 0x20000
	propEpsilons      = 0x400000
	propNoEpsilons    = 0x800000
	propIEpsilons     = 0x1000000
	propNoIEpsilons   = 0x2000000
	propOEpsilons     = 0x4000000
	propNoOEpsilons   = 0x8000000
	propWeighted      = 0x100000000
	propUnweighted    = 0x200000000
	maxReasonableSize = 1 << 28
)

type binWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (b *binWriter) u32(v uint32) { b.buf = binary.LittleEndian.AppendUint32(b.buf, v) }
func (b *binWriter) i32(v int32)  { b.u32(uint32(v)) }
func (b *binWriter) i64(v int64)  { b.buf = binary.LittleEndian.AppendUint64(b.buf, uint64(v)) }
func (b *binWriter) f32(v float32) {
	b.u32(math.Float32bits(v))
}
func (b *binWriter) str(s string) { b.i32(int32(len(s))); b.buf = append(b.buf, s...) }
func (b *binWriter) flush() {
	if b.err == nil && len(b.buf) > 0 {
		_, b.err = b.w.Write(b.buf)
	}
	b.buf = b.buf[:0]
}

func (b *binWriter) header(arcType string, props uint64, start int32, nstates int) {
	b.i32(fstMagic)
	b.str("vector")
	b.str(arcType)
	b.i32(vectorFstVersion)
	b.i32(0) // flags: no symbol tables
	b.i64(int64(props))
	b.i64(int64(start))
	b.i64(int64(nstates))
	b.i64(0) // number of arcs: Kaldi's archives leave it 0 (streamed write)
}

// props computes the property bits one pass decides (as OpenFst would know
// them after determinization): acceptor, epsilons, weighted.
func props(acceptor, eps, ieps, oeps, weighted bool) uint64 {
	p := uint64(propExpanded | propMutable)
	pick := func(c bool, yes, no uint64) {
		if c {
			p |= yes
		} else {
			p |= no
		}
	}
	pick(acceptor, propAcceptor, propNotAcceptor)
	pick(eps, propEpsilons, propNoEpsilons)
	pick(ieps, propIEpsilons, propNoIEpsilons)
	pick(oeps, propOEpsilons, propNoOEpsilons)
	pick(weighted, propWeighted, propUnweighted)
	return p
}

func (c *CompactLattice) properties() uint64 {
	eps, weighted := false, false
	for _, s := range c.States {
		if !s.Final.W.IsZero() && (s.Final.W != One || len(s.Final.Tids) > 0) {
			weighted = true
		}
		for _, a := range s.Arcs {
			if a.Label == 0 {
				eps = true
			}
			if a.W.W != One || len(a.W.Tids) > 0 {
				weighted = true
			}
		}
	}
	return props(true, eps, eps, eps, weighted)
}

func (l *Lattice) properties() uint64 {
	acc, eps, ieps, oeps, weighted := true, false, false, false, false
	for _, s := range l.States {
		if !s.Final.IsZero() && s.Final != One {
			weighted = true
		}
		for _, a := range s.Arcs {
			acc = acc && a.ILabel == a.OLabel
			eps = eps || (a.ILabel == 0 && a.OLabel == 0)
			ieps = ieps || a.ILabel == 0
			oeps = oeps || a.OLabel == 0
			weighted = weighted || a.W != One
		}
	}
	return props(acc, eps, ieps, oeps, weighted)
}

// WriteBinary writes c as Kaldi writes a CompactLattice in a binary archive
// (after the "\0B" marker): an OpenFst VectorFst of arc type
// "compactlattice44".
func (c *CompactLattice) WriteBinary(w io.Writer) error {
	b := &binWriter{w: w}
	b.header(arcTypeCompact, c.properties(), c.Start, len(c.States))
	cw := func(x CompactWeight) {
		b.f32(x.W.Graph)
		b.f32(x.W.Acoustic)
		b.i32(int32(len(x.Tids)))
		for _, t := range x.Tids {
			b.i32(t)
		}
	}
	for _, s := range c.States {
		cw(s.Final)
		b.i64(int64(len(s.Arcs)))
		for _, a := range s.Arcs {
			b.i32(a.Label)
			b.i32(a.Label)
			cw(a.W)
			b.i32(a.Next)
		}
		if len(b.buf) > 1<<16 {
			b.flush()
		}
	}
	b.flush()
	return b.err
}

// WriteBinary writes l as Kaldi writes a Lattice in a binary archive: an
// OpenFst VectorFst of arc type "lattice4".
func (l *Lattice) WriteBinary(w io.Writer) error {
	b := &binWriter{w: w}
	b.header(arcTypeLattice, l.properties(), l.Start, len(l.States))
	for _, s := range l.States {
		b.f32(s.Final.Graph)
		b.f32(s.Final.Acoustic)
		b.i64(int64(len(s.Arcs)))
		for _, a := range s.Arcs {
			b.i32(a.ILabel)
			b.i32(a.OLabel)
			b.f32(a.W.Graph)
			b.f32(a.W.Acoustic)
			b.i32(a.Next)
		}
		if len(b.buf) > 1<<16 {
			b.flush()
		}
	}
	b.flush()
	return b.err
}

// fullReader is a reader that fills a small slice in one call
// (kaldiio.Reader): the 4- and 8-byte fields of a lattice, millions of them
// in a weak model's lattices, without io.ReadFull's loop and interface
// calls per field.
type fullReader interface{ ReadFull([]byte) error }

type binReader struct {
	r   ByteReader
	off int64 // bytes consumed since the start of the object
	buf [8]byte
	big []byte // i32s' buffer
	err error
}

func (b *binReader) fail(format string, a ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("%w: byte %d of the lattice: %s", ErrFormat, b.off, fmt.Sprintf(format, a...))
	}
}

func (b *binReader) read(n int) []byte {
	if b.err != nil {
		return b.buf[:n]
	}
	if err := b.fill(b.buf[:n]); err != nil {
		b.fail("unexpected end of data (%v)", err)
		for i := range b.buf {
			b.buf[i] = 0
		}
	}
	b.off += int64(n)
	return b.buf[:n]
}

// fill reads len(p) bytes, through ReadFull when the reader has it.
func (b *binReader) fill(p []byte) error {
	if fr, ok := b.r.(fullReader); ok {
		return fr.ReadFull(p)
	}
	_, err := io.ReadFull(b.r, p)
	return err
}

// i32s reads n int32s (a string of transition-ids) in reads of up to 4 KiB
// instead of one call per value; a truncated string is the error of read.
func (b *binReader) i32s(n int) []int32 {
	out := make([]int32, 0, min(n, 1<<12))
	for len(out) < n && b.err == nil {
		k := min(n-len(out), 1024)
		if cap(b.big) < 4*k {
			b.big = make([]byte, 4*1024)
		}
		p := b.big[:4*k]
		if err := b.fill(p); err != nil {
			b.fail("unexpected end of data (%v)", err)
			break
		}
		b.off += int64(len(p))
		for i := 0; i < k; i++ {
			out = append(out, int32(binary.LittleEndian.Uint32(p[4*i:])))
		}
	}
	return out
}

func (b *binReader) i32() int32   { return int32(binary.LittleEndian.Uint32(b.read(4))) }
func (b *binReader) i64() int64   { return int64(binary.LittleEndian.Uint64(b.read(8))) }
func (b *binReader) f32() float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b.read(4))) }
func (b *binReader) str() string {
	n := b.i32()
	if n < 0 || n > 256 {
		b.fail("bad string length %d in FST header", n)
		return ""
	}
	s := make([]byte, n)
	if b.err == nil {
		if _, err := io.ReadFull(b.r, s); err != nil {
			b.fail("unexpected end of data in FST header")
		}
		b.off += int64(n)
	}
	return string(s)
}

// ReadBinary reads one lattice in OpenFst binary form (what follows "\0B" in
// a Kaldi archive). It returns a *CompactLattice or a *Lattice depending on
// the arc type in the header; other arc types are an error.
func ReadBinary(r ByteReader) (clat *CompactLattice, lat *Lattice, err error) {
	b := &binReader{r: r}
	if m := b.i32(); b.err == nil && m != fstMagic {
		return nil, nil, fmt.Errorf("%w: byte 0: not an OpenFst binary FST (magic number %d)", ErrFormat, m)
	}
	fstType, arcType := b.str(), b.str()
	b.i32() // version
	flags := b.i32()
	b.i64() // properties
	start := b.i64()
	nstates := b.i64()
	b.i64() // arcs
	if b.err != nil {
		return nil, nil, b.err
	}
	if fstType != "vector" {
		return nil, nil, fmt.Errorf("%w: FST type %q, Kaldi lattices are \"vector\"", ErrFormat, fstType)
	}
	if flags&3 != 0 {
		return nil, nil, fmt.Errorf("%w: lattice with symbol tables (flags %d) is not supported", ErrFormat, flags)
	}
	if nstates < 0 || nstates > maxReasonableSize {
		return nil, nil, fmt.Errorf("%w: %d states", ErrFormat, nstates)
	}
	if start < -1 || start >= nstates && !(start == -1) {
		return nil, nil, fmt.Errorf("%w: start state %d of %d", ErrFormat, start, nstates)
	}
	checkNext := func(n int32) {
		if n < 0 || int64(n) >= nstates {
			b.fail("arc to state %d of %d", n, nstates)
		}
	}
	narcs := func() int {
		n := b.i64()
		if n < 0 || n > maxReasonableSize {
			b.fail("bad arc count %d", n)
			return 0
		}
		return int(n)
	}
	switch arcType {
	case arcTypeCompact:
		c := &CompactLattice{Start: int32(start), States: make([]CompactState, 0, min(nstates, 1<<16))}
		cw := func() CompactWeight {
			w := CompactWeight{W: Weight{b.f32(), b.f32()}}
			n := b.i32()
			if n < 0 || n > maxReasonableSize {
				b.fail("bad string length %d", n)
				return w
			}
			if n > 0 {
				w.Tids = b.i32s(int(n))
			}
			return w
		}
		for s := int64(0); s < nstates && b.err == nil; s++ {
			st := CompactState{Final: cw()}
			n := narcs()
			st.Arcs = make([]CompactArc, 0, min(n, 1<<12))
			for i := 0; i < n && b.err == nil; i++ {
				il, ol := b.i32(), b.i32()
				if il != ol && b.err == nil {
					b.fail("compact lattice arc with input label %d != output label %d", il, ol)
				}
				a := CompactArc{Label: il, W: cw(), Next: b.i32()}
				checkNext(a.Next)
				st.Arcs = append(st.Arcs, a)
			}
			c.States = append(c.States, st)
		}
		return c, nil, b.err
	case arcTypeLattice:
		l := &Lattice{Start: int32(start), States: make([]State, 0, min(nstates, 1<<16))}
		for s := int64(0); s < nstates && b.err == nil; s++ {
			st := State{Final: Weight{b.f32(), b.f32()}}
			n := narcs()
			for i := 0; i < n && b.err == nil; i++ {
				a := Arc{ILabel: b.i32(), OLabel: b.i32(), W: Weight{b.f32(), b.f32()}, Next: b.i32()}
				checkNext(a.Next)
				st.Arcs = append(st.Arcs, a)
			}
			l.States = append(l.States, st)
		}
		return nil, l, b.err
	}
	return nil, nil, fmt.Errorf("%w: arc type %q is not a Kaldi lattice (%q or %q)", ErrFormat, arcType, arcTypeCompact, arcTypeLattice)
}
