package features

import (
	"errors"
	"fmt"
	"io"
)

// WaveStream reads the samples of one channel of audio as it arrives: a
// RIFF/WAVE stream (OpenWaveStream; e.g. `arecord -f S16_LE -r 16000 -t wav`,
// whose size fields are placeholders) or headerless 16-bit little-endian PCM
// (NewRawPCMStream; `arecord -t raw`). Samples are scaled as ReadWave scales
// them. A stream that ends inside a sample frame is an error naming the
// byte offset; the samples before it are returned first.
type WaveStream struct {
	SampFreq    float64
	NumChannels int
	Warnings    []string // Kaldi's warnings about the header, and about a data chunk shorter than announced

	r         io.Reader
	wh        *waveHeader
	off       int64 // byte offset of the next byte of r
	remaining int64 // data bytes left per the header (-1: to the end)
	buf       []byte
	pending   []byte // the bytes of an incomplete sample frame
	eof       bool
}

// OpenWaveStream reads the WAV header from r (as ReadWave does) and
// returns a stream of its samples.
func OpenWaveStream(r io.Reader) (*WaveStream, error) {
	wh, off, err := readWaveHeader(r)
	if err != nil {
		return nil, err
	}
	s := &WaveStream{SampFreq: float64(float32(wh.sampleRate)), NumChannels: wh.numChannels, Warnings: wh.warnings,
		r: r, wh: wh, off: off, remaining: int64(wh.dataBytes)}
	if wh.streamed {
		s.remaining = -1
	}
	return s, nil
}

// NewRawPCMStream reads headerless signed 16-bit little-endian samples
// (S16_LE) of the given channel count from r.
func NewRawPCMStream(r io.Reader, sampFreq float64, channels int) (*WaveStream, error) {
	if !(sampFreq > 0) || channels < 1 {
		return nil, fmt.Errorf("%w: raw PCM needs a sample rate > 0 and at least one channel (got %v Hz, %d channels)", ErrWave, sampFreq, channels)
	}
	wh := &waveHeader{numChannels: channels, sampleRate: uint32(sampFreq), blockAlign: 2 * channels, bitsPerSample: 16, encoding: encPCM, streamed: true}
	return &WaveStream{SampFreq: sampFreq, NumChannels: channels, r: r, wh: wh, remaining: -1}, nil
}

// Read appends at least min(n, what is left) samples of channel 0 to dst,
// blocking until they have arrived, and returns io.EOF (with the last
// samples, if any) once the stream has ended.
func (s *WaveStream) Read(dst []float32, n int) ([]float32, error) {
	got := 0
	for got < n || n <= 0 {
		if s.eof {
			return dst, io.EOF
		}
		m, err := s.readSome(&dst)
		got += m
		if err != nil {
			return dst, err
		}
		if n <= 0 && m > 0 {
			break
		}
	}
	return dst, nil
}

// readSome does one read of the underlying stream and decodes the complete
// sample frames it completes.
func (s *WaveStream) readSome(dst *[]float32) (int, error) {
	ba := s.wh.blockAlign
	want := max(ba, 1<<16) // a read of up to 64 KiB; whole sample frames are decoded, the rest waits
	if s.remaining >= 0 && int64(want) > s.remaining {
		want = int(s.remaining)
	}
	if want == 0 {
		s.eof = true
		return 0, s.finish()
	}
	if cap(s.buf) < len(s.pending)+want {
		s.buf = make([]byte, len(s.pending)+want)
	}
	buf := s.buf[:len(s.pending)+want]
	copy(buf, s.pending)
	k, err := s.r.Read(buf[len(s.pending):])
	s.off += int64(k)
	if s.remaining >= 0 {
		s.remaining -= int64(k)
	}
	buf = buf[:len(s.pending)+k]
	whole := len(buf) / ba * ba
	n := 0
	if whole > 0 {
		w := &WaveData{}
		if derr := decodeSamples(w, s.wh, buf[:whole]); derr != nil {
			return 0, fmt.Errorf("%w (at byte %d)", derr, s.off-int64(len(buf)))
		}
		*dst = append(*dst, w.Data[0]...)
		n = len(w.Data[0])
	}
	s.pending = append(s.pending[:0], buf[whole:]...)
	if errors.Is(err, io.EOF) || (err == nil && s.remaining == 0) {
		s.eof = true
		return n, s.finish()
	}
	if err != nil {
		return n, fmt.Errorf("%w: read error at byte %d: %v", ErrWave, s.off, err)
	}
	return n, nil
}

// finish checks the end of the stream: no partial sample frame.
func (s *WaveStream) finish() error {
	if len(s.pending) > 0 {
		return fmt.Errorf("%w: the stream ends inside a sample: %d stray byte(s) at byte %d (a sample frame is %d bytes)", ErrWave, len(s.pending), s.off-int64(len(s.pending)), s.wh.blockAlign)
	}
	if s.remaining > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("Expected %d bytes of wave data, but read only %d bytes. Truncated file?", s.wh.dataBytes, int64(s.wh.dataBytes)-s.remaining))
	}
	return nil
}
