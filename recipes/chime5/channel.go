package chime5

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ErrWave marks a wave file this package cannot read.
var ErrWave = errors.New("bad wave file")

// WaveFormat is what a RIFF/WAVE header says about the samples after it.
type WaveFormat struct {
	Encoding      int // 1: integer PCM, 3: IEEE float
	Channels      int
	SampleRate    uint32
	BitsPerSample int
	DataBytes     int64 // size of the data chunk; -1 when the header gives a placeholder (a stream)
}

// streamedSize is the placeholder chunk size we write for a stream of
// unknown length (Kaldi's and our wave readers then read to the end).
const streamedSize = 0xFFFFFFFF

// ReadWaveFormat reads a little-endian RIFF/WAVE header from r up to the
// first byte of the data chunk, as Kaldi's WaveInfo::Read: chunks before
// "fmt " and between it and "data" are skipped; WAVE_FORMAT_EXTENSIBLE with
// a PCM or float sub-format is read as that sub-format.
func ReadWaveFormat(r io.Reader) (*WaveFormat, error) {
	var off int64
	buf := make([]byte, 8)
	read := func(n int) ([]byte, error) {
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		b := buf[:n]
		if _, err := io.ReadFull(r, b); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("%w: byte %d: header: %v", ErrWave, off, err)
		}
		off += int64(n)
		return b, nil
	}
	skip := func(n uint32) error {
		m, err := io.CopyN(io.Discard, r, int64(n))
		off += m
		if err != nil {
			return fmt.Errorf("%w: byte %d: header: skipping a %d-byte chunk: %v", ErrWave, off, n, err)
		}
		return nil
	}
	badf := func(format string, a ...any) error {
		return fmt.Errorf("%w: byte %d: %s", ErrWave, off, fmt.Sprintf(format, a...))
	}
	le := binary.LittleEndian
	b, err := read(12)
	if err != nil {
		return nil, err
	}
	if string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, badf("not a little-endian RIFF/WAVE file (starts %q)", b[:4])
	}
	riffSize := le.Uint32(b[4:8])
	chunk := func() (string, uint32, error) {
		b, err := read(8)
		if err != nil {
			return "", 0, err
		}
		return string(b[:4]), le.Uint32(b[4:8]), nil
	}
	tag, size, err := chunk()
	for ; err == nil && tag != "fmt "; tag, size, err = chunk() {
		if err := skip(size); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	if size < 16 {
		return nil, badf("fmt chunk of %d bytes, want at least 16", size)
	}
	b, err = read(16)
	if err != nil {
		return nil, err
	}
	f := &WaveFormat{
		Encoding:      int(le.Uint16(b[0:2])),
		Channels:      int(le.Uint16(b[2:4])),
		SampleRate:    le.Uint32(b[4:8]),
		BitsPerSample: int(le.Uint16(b[14:16])),
	}
	byteRate, blockAlign := le.Uint32(b[8:12]), int(le.Uint16(b[12:14]))
	fmtRead := uint32(16)
	if f.Encoding == 0xFFFE { // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID's first word
		if size < 40 {
			return nil, badf("WAVE_FORMAT_EXTENSIBLE fmt chunk of %d bytes, want 40", size)
		}
		b, err = read(24)
		if err != nil {
			return nil, err
		}
		f.Encoding = int(le.Uint32(b[8:12]))
		if le.Uint32(b[12:16]) != 0x00100000 || le.Uint32(b[16:20]) != 0xAA000080 || le.Uint32(b[20:24]) != 0x719B3800 {
			return nil, badf("unsupported WAVE_FORMAT_EXTENSIBLE sub-format")
		}
		fmtRead = 40
	}
	if err := skip(size - fmtRead); err != nil {
		return nil, err
	}
	switch {
	case f.Encoding != 1 && f.Encoding != 3:
		return nil, badf("can read only PCM or float data, format id is %d", f.Encoding)
	case f.Channels == 0:
		return nil, badf("no channels")
	case f.BitsPerSample == 0 || f.BitsPerSample%8 != 0 || f.BitsPerSample > 32:
		return nil, badf("unsupported %d bits per sample", f.BitsPerSample)
	case blockAlign != f.Channels*f.BitsPerSample/8:
		return nil, badf("block align %d, want %d channels x %d bytes", blockAlign, f.Channels, f.BitsPerSample/8)
	case uint64(byteRate) != uint64(f.SampleRate)*uint64(blockAlign):
		return nil, badf("byte rate %d, want %d x %d", byteRate, f.SampleRate, blockAlign)
	}
	for tag, size, err = chunk(); err == nil && tag != "data"; tag, size, err = chunk() {
		if err := skip(size); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	f.DataBytes = int64(size)
	if riffSize == 0 || riffSize == streamedSize || size == 0 || size == streamedSize || size == 0x7FFFF000 {
		f.DataBytes = -1
	}
	return f, nil
}

// SelectChannel copies channel ch (0 is the left channel of a binaural file)
// of the wave in r to w as a one-channel wave of the same encoding, frame by
// frame, holding only a small buffer: sox's `remix ch+1` for the wav.scp
// pipes, without sox. A stream of unknown length (placeholder sizes) is
// copied to its end and written with placeholder sizes; a file that ends
// before its data chunk does is an error after the bytes it had were written.
func SelectChannel(r io.Reader, w io.Writer, ch int) error {
	br := bufio.NewReaderSize(r, 1<<16)
	f, err := ReadWaveFormat(br)
	if err != nil {
		return err
	}
	if ch < 0 || ch >= f.Channels {
		return fmt.Errorf("%w: channel %d requested but the file has %d channel(s)", ErrWave, ch, f.Channels)
	}
	width := f.BitsPerSample / 8
	frame := width * f.Channels
	outBytes := uint32(streamedSize)
	riffBytes := uint32(streamedSize)
	if f.DataBytes >= 0 {
		n := f.DataBytes / int64(frame) * int64(width)
		if n+36 > 0xFFFFFFFE {
			return fmt.Errorf("%w: %d data bytes do not fit a RIFF file", ErrWave, n)
		}
		outBytes, riffBytes = uint32(n), uint32(n+36)
	}
	var hdr [44]byte
	le := binary.LittleEndian
	copy(hdr[0:], "RIFF")
	le.PutUint32(hdr[4:], riffBytes)
	copy(hdr[8:], "WAVEfmt ")
	le.PutUint32(hdr[16:], 16)
	le.PutUint16(hdr[20:], uint16(f.Encoding))
	le.PutUint16(hdr[22:], 1)
	le.PutUint32(hdr[24:], f.SampleRate)
	le.PutUint32(hdr[28:], f.SampleRate*uint32(width))
	le.PutUint16(hdr[32:], uint16(width))
	le.PutUint16(hdr[34:], uint16(f.BitsPerSample))
	copy(hdr[36:], "data")
	le.PutUint32(hdr[40:], outBytes)
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.Write(hdr[:]); err != nil {
		return err
	}
	const framesPerBlock = 4096
	in := make([]byte, framesPerBlock*frame)
	out := make([]byte, framesPerBlock*width)
	remaining := f.DataBytes / int64(frame) * int64(frame)
	var copied int64
	for f.DataBytes < 0 || copied < remaining {
		want := len(in)
		if f.DataBytes >= 0 && remaining-copied < int64(want) {
			want = int(remaining - copied)
		}
		n, err := io.ReadFull(br, in[:want])
		n -= n % frame
		for i, o := 0, 0; i < n; i, o = i+frame, o+width {
			copy(out[o:o+width], in[i+ch*width:i+ch*width+width])
		}
		if _, werr := bw.Write(out[:n/frame*width]); werr != nil {
			return werr
		}
		copied += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			if f.DataBytes < 0 {
				break
			}
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
			return fmt.Errorf("%w: the file ends after %d of its %d data bytes", ErrWave, copied, f.DataBytes)
		}
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}
