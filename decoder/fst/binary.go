package fst

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// OpenFst binary format (fst/fst.h, vector-fst.h, const-fst.h, version 1.7):
//
//	header:  int32 magic 2125659606, string fst type ("vector"|"const"),
//	         string arc type ("standard"), int32 version, int32 flags,
//	         uint64 properties, int64 start, int64 num states, int64 num arcs,
//	         then the input/output symbol tables when flags has bit 1/2.
//	vector:  per state: float final, int64 num arcs, then per arc
//	         int32 ilabel, int32 olabel, float weight, int32 nextstate.
//	const:   [align 16 when flags&4 or version 1] num states × {float final,
//	         uint32 pos, narcs, niepsilons, noepsilons}; [align 16]
//	         num arcs × the same 16-byte arc.
//
// Strings are int32 length + bytes; everything is little-endian.
const (
	fstMagic          = 2125659606
	symbolTableMagic  = 2125658996
	fstFlagISymbols   = 1
	fstFlagOSymbols   = 2
	fstFlagAligned    = 4
	fstFileAlign      = 16
	vectorFstVersion  = 2
	constFstVersion   = 2
	constFstAlignedV1 = 1
	maxFstString      = 1 << 20 // longest type name or symbol we accept
)

// Errors wrapped by the FST readers.
var (
	ErrBadFst      = errors.New("bad FST")
	ErrNotFst      = errors.New("not an OpenFst binary FST (wrong magic number)")
	ErrUnsupported = errors.New("unsupported FST")
)

// Header is OpenFst's FstHeader.
type Header struct {
	FstType, ArcType string
	Version, Flags   int32
	Properties       uint64
	Start            int64
	NumStates        int64
	NumArcs          int64
}

// binReader reads little-endian OpenFst primitives and counts bytes, so
// errors can name the byte offset.
type binReader struct {
	r    io.Reader
	off  int64 // bytes consumed
	base int64 // offset of the stream start in the file, for messages and alignment
	buf  [8]byte
}

func (b *binReader) full(p []byte) error {
	n, err := io.ReadFull(b.r, p)
	b.off += int64(n)
	if err == io.EOF && len(p) > 0 {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (b *binReader) u32() (uint32, error) {
	err := b.full(b.buf[:4])
	return binary.LittleEndian.Uint32(b.buf[:4]), err
}

func (b *binReader) i32() (int32, error) { v, err := b.u32(); return int32(v), err }

func (b *binReader) f32() (float32, error) {
	v, err := b.u32()
	return math.Float32frombits(v), err
}

func (b *binReader) u64() (uint64, error) {
	err := b.full(b.buf[:8])
	return binary.LittleEndian.Uint64(b.buf[:8]), err
}

func (b *binReader) i64() (int64, error) { v, err := b.u64(); return int64(v), err }

func (b *binReader) str() (string, error) {
	n, err := b.i32()
	if err != nil {
		return "", err
	}
	if n < 0 || n > maxFstString {
		return "", fmt.Errorf("%w: string length %d", ErrBadFst, n)
	}
	p := make([]byte, n)
	err = b.full(p)
	return string(p), err
}

// align skips to the next multiple of 16 bytes from the start of the stream.
func (b *binReader) align() error {
	if pad := (fstFileAlign - (b.base+b.off)%fstFileAlign) % fstFileAlign; pad > 0 {
		return b.full(make([]byte, pad))
	}
	return nil
}

// Reader reads OpenFst binary FSTs (VectorFst or ConstFst over StdArc).
type Reader struct {
	b binReader
	// Name labels errors (a file name or "utterance X"); may be empty.
	Name string
}

// NewReader returns a reader of binary FSTs from r. It reads exactly the
// bytes of each FST (several may be read one after another, as in a Kaldi
// archive), so r should be buffered (ReadFile does that).
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{b: binReader{r: r}, Name: name}
}

// SetBaseOffset tells the reader where its stream starts in the file, for
// error messages and the 16-byte alignment of aligned ConstFsts.
func (fr *Reader) SetBaseOffset(off int64) { fr.b.base = off }

// Offset is the number of bytes consumed so far.
func (fr *Reader) Offset() int64 { return fr.b.off }

func (fr *Reader) errorf(err error, format string, a ...any) error {
	name := fr.Name
	if name == "" {
		name = "<stream>"
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = fmt.Errorf("%w: %w", ErrBadFst, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("reading FST %s at byte %d: %s: %w", name, fr.b.base+fr.b.off, fmt.Sprintf(format, a...), err)
}

// ReadHeader reads an FST header (and its symbol tables, if any).
func (fr *Reader) ReadHeader() (*Header, *SymbolTable, *SymbolTable, error) {
	b := &fr.b
	magic, err := b.i32()
	if err != nil {
		if err == io.ErrUnexpectedEOF && b.off == 0 {
			return nil, nil, nil, io.EOF
		}
		return nil, nil, nil, fr.errorf(err, "header")
	}
	if magic != fstMagic {
		return nil, nil, nil, fr.errorf(ErrNotFst, "magic %d", magic)
	}
	h := &Header{}
	if h.FstType, err = b.str(); err == nil {
		h.ArcType, err = b.str()
	}
	if err == nil {
		h.Version, err = b.i32()
	}
	if err == nil {
		h.Flags, err = b.i32()
	}
	if err == nil {
		h.Properties, err = b.u64()
	}
	if err == nil {
		h.Start, err = b.i64()
	}
	if err == nil {
		h.NumStates, err = b.i64()
	}
	if err == nil {
		h.NumArcs, err = b.i64()
	}
	if err != nil {
		return nil, nil, nil, fr.errorf(err, "header")
	}
	var isyms, osyms *SymbolTable
	if h.Flags&fstFlagISymbols != 0 {
		if isyms, err = fr.readSymbolTable(); err != nil {
			return nil, nil, nil, fr.errorf(err, "input symbol table")
		}
	}
	if h.Flags&fstFlagOSymbols != 0 {
		if osyms, err = fr.readSymbolTable(); err != nil {
			return nil, nil, nil, fr.errorf(err, "output symbol table")
		}
	}
	return h, isyms, osyms, nil
}

func (fr *Reader) readSymbolTable() (*SymbolTable, error) {
	b := &fr.b
	magic, err := b.i32()
	if err != nil {
		return nil, err
	}
	if magic != symbolTableMagic {
		return nil, fmt.Errorf("%w: symbol table magic %d", ErrBadFst, magic)
	}
	name, err := b.str()
	if err != nil {
		return nil, err
	}
	if _, err = b.i64(); err != nil { // available key, recomputed on write
		return nil, err
	}
	n, err := b.i64()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: symbol table size %d", ErrBadFst, n)
	}
	st := NewSymbolTable(name)
	for i := int64(0); i < n; i++ {
		sym, err := b.str()
		if err != nil {
			return nil, err
		}
		key, err := b.i64()
		if err != nil {
			return nil, err
		}
		if err := st.Add(sym, key); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// Read reads the next FST. It returns io.EOF (unwrapped) at a clean end of
// stream before any byte of a header.
func (fr *Reader) Read() (*VectorFst, error) {
	h, isyms, osyms, err := fr.ReadHeader()
	if err != nil {
		return nil, err
	}
	if h.ArcType != "standard" {
		return nil, fr.errorf(ErrUnsupported, "arc type %q (only \"standard\", tropical float weights)", h.ArcType)
	}
	if h.Start < -1 || h.Start > math.MaxInt32 || h.NumStates < -1 || h.NumStates > math.MaxInt32 {
		return nil, fr.errorf(ErrBadFst, "start %d, %d states", h.Start, h.NumStates)
	}
	var f *VectorFst
	switch h.FstType {
	case "vector":
		f, err = fr.readVectorBody(h)
	case "const":
		f, err = fr.readConstBody(h)
	default:
		return nil, fr.errorf(ErrUnsupported, "fst type %q (want vector or const)", h.FstType)
	}
	if err != nil {
		return nil, err
	}
	f.ISymbols, f.OSymbols = isyms, osyms
	if err := f.Validate(); err != nil {
		return nil, fr.errorf(err, "%s FST", h.FstType)
	}
	return f, nil
}

// capHint bounds preallocation by an untrusted count.
func capHint(n int64) int {
	if n < 0 {
		return 0
	}
	if n > 1<<16 {
		return 1 << 16
	}
	return int(n)
}

func (fr *Reader) readVectorBody(h *Header) (*VectorFst, error) {
	b := &fr.b
	f := &VectorFst{Start: StateID(h.Start), States: make([]State, 0, capHint(h.NumStates))}
	var rec [16]byte
	for s := int64(0); h.NumStates == -1 || s < h.NumStates; s++ {
		final, err := b.f32()
		if err != nil {
			if h.NumStates == -1 && err == io.ErrUnexpectedEOF {
				break
			}
			return nil, fr.errorf(err, "state %d of %d", s, h.NumStates)
		}
		narcs, err := b.i64()
		if err != nil {
			return nil, fr.errorf(err, "state %d", s)
		}
		if narcs < 0 || narcs > math.MaxInt32 {
			return nil, fr.errorf(ErrBadFst, "state %d has %d arcs", s, narcs)
		}
		arcs := make([]Arc, 0, capHint(narcs))
		for i := int64(0); i < narcs; i++ {
			if err := b.full(rec[:]); err != nil {
				return nil, fr.errorf(err, "state %d arc %d", s, i)
			}
			arcs = append(arcs, decodeArc(rec[:]))
		}
		f.States = append(f.States, State{Final: final, Arcs: arcs})
	}
	return f, nil
}

func decodeArc(p []byte) Arc {
	return Arc{
		ILabel:    int32(binary.LittleEndian.Uint32(p)),
		OLabel:    int32(binary.LittleEndian.Uint32(p[4:])),
		Weight:    math.Float32frombits(binary.LittleEndian.Uint32(p[8:])),
		NextState: int32(binary.LittleEndian.Uint32(p[12:])),
	}
}

func (fr *Reader) readConstBody(h *Header) (*VectorFst, error) {
	b := &fr.b
	if h.NumStates < 0 || h.NumArcs < 0 || h.NumArcs > math.MaxInt32 {
		return nil, fr.errorf(ErrBadFst, "const FST with %d states, %d arcs", h.NumStates, h.NumArcs)
	}
	aligned := h.Version == constFstAlignedV1 || h.Flags&fstFlagAligned != 0
	if aligned {
		if err := b.align(); err != nil {
			return nil, fr.errorf(err, "alignment before states")
		}
	}
	type constState struct {
		final            float32
		pos, narcs, _, _ uint32
	}
	states := make([]constState, 0, capHint(h.NumStates))
	var rec [20]byte
	for s := int64(0); s < h.NumStates; s++ {
		if err := b.full(rec[:]); err != nil {
			return nil, fr.errorf(err, "const state %d of %d", s, h.NumStates)
		}
		states = append(states, constState{
			final: math.Float32frombits(binary.LittleEndian.Uint32(rec[:])),
			pos:   binary.LittleEndian.Uint32(rec[4:]),
			narcs: binary.LittleEndian.Uint32(rec[8:]),
		})
	}
	if aligned {
		if err := b.align(); err != nil {
			return nil, fr.errorf(err, "alignment before arcs")
		}
	}
	arcs := make([]Arc, 0, capHint(h.NumArcs))
	chunk := make([]byte, 16*4096)
	for left := h.NumArcs; left > 0; {
		n := min(left, 4096)
		p := chunk[:16*n]
		if err := b.full(p); err != nil {
			return nil, fr.errorf(err, "const arc %d of %d", h.NumArcs-left, h.NumArcs)
		}
		for i := int64(0); i < n; i++ {
			arcs = append(arcs, decodeArc(p[16*i:]))
		}
		left -= n
	}
	f := &VectorFst{Start: StateID(h.Start), States: make([]State, len(states))}
	for s, cs := range states {
		end := uint64(cs.pos) + uint64(cs.narcs)
		if end > uint64(len(arcs)) {
			return nil, fr.errorf(ErrBadFst, "const state %d: arcs [%d,%d) beyond %d arcs", s, cs.pos, end, len(arcs))
		}
		f.States[s] = State{Final: cs.final, Arcs: arcs[cs.pos:end:end]}
	}
	return f, nil
}

// ReadFile reads a binary VectorFst or ConstFst file ("-" is stdin).
func ReadFile(path string) (*VectorFst, error) {
	var r io.Reader
	if path == "-" || path == "" {
		r = os.Stdin
	} else {
		fh, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		r = fh
	}
	f, err := NewReader(bufio.NewReaderSize(r, 1<<16), path).Read()
	if err == io.EOF {
		return nil, fmt.Errorf("reading FST %s: empty file: %w", path, ErrNotFst)
	}
	return f, err
}

// binWriter writes little-endian primitives, remembering the first error.
type binWriter struct {
	w   *bufio.Writer
	err error
	buf [8]byte
}

func (b *binWriter) bytes(p []byte) {
	if b.err == nil {
		_, b.err = b.w.Write(p)
	}
}
func (b *binWriter) u32(v uint32) { binary.LittleEndian.PutUint32(b.buf[:4], v); b.bytes(b.buf[:4]) }
func (b *binWriter) i32(v int32)  { b.u32(uint32(v)) }
func (b *binWriter) f32(v float32) {
	b.u32(math.Float32bits(v))
}
func (b *binWriter) u64(v uint64) { binary.LittleEndian.PutUint64(b.buf[:8], v); b.bytes(b.buf[:8]) }
func (b *binWriter) i64(v int64)  { b.u64(uint64(v)) }
func (b *binWriter) str(s string) { b.i32(int32(len(s))); b.bytes([]byte(s)) }
func (b *binWriter) arc(a Arc) {
	b.i32(a.ILabel)
	b.i32(a.OLabel)
	b.f32(a.Weight)
	b.i32(a.NextState)
}

func (b *binWriter) symbols(st *SymbolTable) {
	b.i32(symbolTableMagic)
	b.str(st.Name)
	b.i64(st.AvailableKey())
	b.i64(int64(st.Len()))
	for _, e := range st.entries {
		b.str(e.Symbol)
		b.i64(e.Key)
	}
}

// header writes an FST header. numArcs is what OpenFst 1.7 puts there: 0
// for VectorFst (its writer never sets it), the arc count for ConstFst.
func (b *binWriter) header(f *VectorFst, fstType string, version int32, props uint64, numArcs int64) {
	var flags int32
	if f.ISymbols != nil {
		flags |= fstFlagISymbols
	}
	if f.OSymbols != nil {
		flags |= fstFlagOSymbols
	}
	b.i32(fstMagic)
	b.str(fstType)
	b.str("standard")
	b.i32(version)
	b.i32(flags)
	b.u64(props)
	b.i64(int64(f.Start))
	b.i64(int64(len(f.States)))
	b.i64(numArcs)
	if f.ISymbols != nil {
		b.symbols(f.ISymbols)
	}
	if f.OSymbols != nil {
		b.symbols(f.OSymbols)
	}
}

// WriteVectorFst writes f in OpenFst's VectorFst binary format.
func WriteVectorFst(w io.Writer, f *VectorFst) error {
	b := &binWriter{w: bufio.NewWriterSize(w, 1<<16)}
	b.header(f, "vector", vectorFstVersion, ComputeProperties(f)|PropExpanded|PropMutable, 0)
	for _, s := range f.States {
		b.f32(s.Final)
		b.i64(int64(len(s.Arcs)))
		for _, a := range s.Arcs {
			b.arc(a)
		}
	}
	if b.err == nil {
		b.err = b.w.Flush()
	}
	return b.err
}

// WriteConstFst writes f in OpenFst's ConstFst binary format (unaligned,
// version 2), as `fstconvert --fst_type=const` does.
func WriteConstFst(w io.Writer, f *VectorFst) error {
	b := &binWriter{w: bufio.NewWriterSize(w, 1<<16)}
	b.header(f, "const", constFstVersion, ComputeProperties(f)|PropExpanded, int64(f.NumArcs()))
	pos := uint32(0)
	for _, s := range f.States {
		var nie, noe uint32
		for _, a := range s.Arcs {
			if a.ILabel == 0 {
				nie++
			}
			if a.OLabel == 0 {
				noe++
			}
		}
		b.f32(s.Final)
		b.u32(pos)
		b.u32(uint32(len(s.Arcs)))
		b.u32(nie)
		b.u32(noe)
		pos += uint32(len(s.Arcs))
	}
	for _, s := range f.States {
		for _, a := range s.Arcs {
			b.arc(a)
		}
	}
	if b.err == nil {
		b.err = b.w.Flush()
	}
	return b.err
}

// WriteFile writes f as a VectorFst to path through a temporary file that
// is renamed into place; "-" writes to stdout.
func WriteFile(path string, f *VectorFst) error {
	return writeFileAtomic(path, func(w io.Writer) error { return WriteVectorFst(w, f) })
}

// writeFileAtomic writes through a temporary file renamed into place, so
// readers never see a half-written file; "-" or "" is stdout.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	if path == "-" || path == "" {
		return write(os.Stdout)
	}
	return atomicfile.Write(path, write)
}
