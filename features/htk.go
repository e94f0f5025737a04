package features

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/strode-asr/strode/kaldiio"
)

// ErrHtk marks an HTK feature file that cannot be read or written.
var ErrHtk = errors.New("bad HTK feature data")

// HtkHeader is Kaldi's HtkHeader, HTK's 12-byte parameter-file header
// (stored big-endian).
type HtkHeader struct {
	NumSamples   int32  // frames
	SamplePeriod int32  // frame shift in units of 100 ns
	SampleSize   int16  // bytes per frame (4 per float)
	SampleKind   uint16 // parameter kind and qualifiers (HtkMfcc|HtkEnergy, …)
}

// HTK parameter kinds and qualifiers (HTK's HParm.h) that Kaldi uses.
const (
	HtkMfcc   = 006    // MFCC
	HtkFbank  = 007    // FBANK
	HtkEnergy = 0100   // _E: energy appended
	HtkZeroth = 020000 // _0: C0 appended

	htkWaveform   = 0
	htkIrefc      = 5
	htkDiscrete   = 10
	htkCompressed = 02000
	htkChecksum   = 010000
	htkVQ         = 040000
)

// HtkMatrix is Kaldi's HtkMatrixHolder value: a float matrix and its header.
type HtkMatrix struct {
	Header HtkHeader
	kaldiio.Matrix
}

// NewHtkFeatures is what compute-fbank-feats / compute-mfcc-feats write with
// --output-format=htk: a 10 ms sample period whatever the frame shift (as
// Kaldi), the kind (HtkFbank or HtkMfcc), and _E with --use-energy, _0
// otherwise.
func NewHtkFeatures(m kaldiio.Matrix, kind uint16, useEnergy bool) HtkMatrix {
	q := uint16(HtkZeroth)
	if useEnergy {
		q = HtkEnergy
	}
	return HtkMatrix{
		Header: HtkHeader{NumSamples: int32(m.Rows), SamplePeriod: 100000, SampleSize: int16(4 * m.Cols), SampleKind: kind | q},
		Matrix: m,
	}
}

// HtkMatrixCodec reads and writes HtkMatrix in Kaldi tables as Kaldi's
// HtkMatrixHolder: binary only, no "\0B" marker, the header and then the
// frames as big-endian floats (ReadHtk/WriteHtk).
var HtkMatrixCodec kaldiio.Codec[HtkMatrix] = htkCodec{}

type htkCodec struct{}

// RawObject marks HTK matrices as objects without the binary marker.
func (htkCodec) RawObject() {}

func (htkCodec) Write(w *kaldiio.Writer, bin bool, v *HtkMatrix) error {
	if !bin {
		return fmt.Errorf("%w: Non-binary HTK-format write not supported.", ErrHtk)
	}
	h := v.Header
	if int(h.NumSamples) != v.Rows || int(h.SampleSize) != 4*v.Cols || v.Cols > math.MaxInt16/4 {
		return fmt.Errorf("%w: header (%d samples of %d bytes) does not match a %d×%d matrix", ErrHtk, h.NumSamples, h.SampleSize, v.Rows, v.Cols)
	}
	buf := make([]byte, 12+4*v.Cols)
	be := binary.BigEndian
	be.PutUint32(buf[0:], uint32(h.NumSamples))
	be.PutUint32(buf[4:], uint32(h.SamplePeriod))
	be.PutUint16(buf[8:], uint16(h.SampleSize))
	be.PutUint16(buf[10:], h.SampleKind)
	if _, err := w.Write(buf[:12]); err != nil {
		return err
	}
	row := buf[12:]
	for r := 0; r < v.Rows; r++ {
		for c, x := range v.Data[r*v.Cols : (r+1)*v.Cols] {
			be.PutUint32(row[4*c:], math.Float32bits(x))
		}
		if _, err := w.Write(row); err != nil {
			return err
		}
	}
	return nil
}

// Read is Kaldi's ReadHtk: compressed and VQ data, and waveform, IREFC and
// discrete kinds are errors; the checksum qualifier is cleared and, as in
// Kaldi, no checksum is read. The matrix grows as rows arrive, so a bogus
// header cannot allocate gigabytes.
func (htkCodec) Read(r *kaldiio.Reader, _ bool, v *HtkMatrix) error {
	start := r.Offset()
	if err := readHtk(r, v); err != nil {
		return &kaldiio.Error{File: r.Name(), Offset: start, Err: err}
	}
	return nil
}

func readHtk(r *kaldiio.Reader, v *HtkMatrix) error {
	var hb [12]byte
	if err := r.ReadFull(hb[:]); err != nil {
		return fmt.Errorf("%w: Could not read header from HTK feature file: %w", ErrHtk, err)
	}
	be := binary.BigEndian
	h := HtkHeader{
		NumSamples:   int32(be.Uint32(hb[0:])),
		SamplePeriod: int32(be.Uint32(hb[4:])),
		SampleSize:   int16(be.Uint16(hb[8:])),
		SampleKind:   be.Uint16(hb[10:]),
	}
	h.SampleKind &^= htkChecksum
	if h.SampleKind&(htkCompressed|htkVQ) != 0 {
		return fmt.Errorf("%w: Code to read HTK features does not support compressed features, or features with VQ (kind %#o)", ErrHtk, h.SampleKind)
	}
	switch h.SampleKind & 077 {
	case htkWaveform, htkIrefc, htkDiscrete:
		return fmt.Errorf("%w: Attempting to read HTK features from unsupported type (e.g. waveform or discrete features) (kind %#o)", ErrHtk, h.SampleKind)
	}
	if h.NumSamples < 0 || h.SampleSize < 0 {
		return fmt.Errorf("%w: negative size in header (%d samples of %d bytes)", ErrHtk, h.NumSamples, h.SampleSize)
	}
	rows, cols := int(h.NumSamples), int(h.SampleSize)/4
	data := v.Data[:0]
	row := make([]byte, 4*cols)
	for i := 0; i < rows && cols > 0; i++ {
		if err := r.ReadFull(row); err != nil {
			return fmt.Errorf("%w: Could not read data from HTK feature file (frame %d of %d): %w", ErrHtk, i, rows, err)
		}
		for c := 0; c < cols; c++ {
			data = append(data, math.Float32frombits(be.Uint32(row[4*c:])))
		}
	}
	*v = HtkMatrix{Header: h, Matrix: kaldiio.Matrix{Rows: rows, Cols: cols, Data: data}}
	return nil
}
