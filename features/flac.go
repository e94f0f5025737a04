package features

import (
	"crypto/md5"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
)

// errIsFLAC is what readWaveHeader returns on a "fLaC" signature, so that
// ReadWave decodes the stream as FLAC instead.
var errIsFLAC = errors.New("FLAC stream")

// maxFLACSamples bounds the samples per channel a FLAC stream may decode to
// (about 2.3 hours at 16 kHz): a corrupt stream is never allowed to fill
// memory.
const maxFLACSamples = 1 << 27

// readFLAC decodes a whole FLAC stream (r starts at its "fLaC" signature)
// with github.com/mewkiz/flac. Kaldi reads FLAC only through a pipe
// ("flac -c -d -s x.flac |", which hands it a WAV); reading it directly
// makes a corpus stored as FLAC usable where the flac program is not
// installed, with the same samples: 16-bit streams keep their integer
// values, other depths are scaled to the 16-bit range as WAV files are
// (x·2^(16−bits)). Every frame's CRC-16 is checked by the decoder and the
// decoded samples against the stream's MD5 signature (when it has one), as
// `flac -d` does. The decoder buffers its input, so a FLAC stream must be a
// whole object (a file or a pipe), not a member of a wave archive.
func readFLAC(r io.Reader) (w *WaveData, err error) {
	// The decoder is third-party code that parses untrusted bytes: a panic in
	// it becomes an error naming the stream as corrupt.
	defer func() {
		if p := recover(); p != nil {
			w, err = nil, fmt.Errorf("%w: corrupt FLAC stream (decoder failed: %v)", ErrWave, p)
		}
	}()
	stream, err := flac.New(r)
	if err != nil {
		return nil, fmt.Errorf("%w: FLAC header: %v", ErrWave, flacEOF(err))
	}
	info := stream.Info
	nc, bits := int(info.NChannels), int(info.BitsPerSample)
	if nc < 1 || bits < 4 || bits > 32 || info.SampleRate == 0 {
		return nil, fmt.Errorf("%w: FLAC stream info: %d channels, %d bits, %d Hz", ErrWave, nc, bits, info.SampleRate)
	}
	if info.NSamples > maxFLACSamples {
		return nil, fmt.Errorf("%w: FLAC stream of %d samples is longer than the %d this reader accepts", ErrWave, info.NSamples, maxFLACSamples)
	}
	// Grow as frames arrive: a bogus length in the header must not allocate
	// gigabytes up front.
	hint := int(min(info.NSamples, 1<<20))
	if hint == 0 {
		hint = 1 << 16 // unknown length (a stream written to a pipe)
	}
	data := make([][]float32, nc)
	for c := range data {
		data[c] = make([]float32, 0, hint)
	}
	scale := float32(math.Ldexp(1, 16-bits))
	var sum md5Hasher
	checkMD5 := info.MD5sum != [16]byte{}
	if checkMD5 {
		sum.init(bits)
	}
	for n := 0; ; n++ {
		f, err := stream.ParseNext()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: FLAC frame %d (after %d samples): %v", ErrWave, n, len(data[0]), flacEOF(err))
		}
		if len(f.Subframes) != nc || int(f.BitsPerSample) != bits {
			return nil, fmt.Errorf("%w: FLAC frame %d has %d channels of %d bits, the stream %d of %d", ErrWave, n, len(f.Subframes), f.BitsPerSample, nc, bits)
		}
		if len(data[0])+int(f.BlockSize) > maxFLACSamples {
			return nil, fmt.Errorf("%w: FLAC stream longer than the %d samples this reader accepts", ErrWave, maxFLACSamples)
		}
		for c, sf := range f.Subframes {
			if len(sf.Samples) != int(f.BlockSize) {
				return nil, fmt.Errorf("%w: FLAC frame %d: channel %d has %d samples, the block %d", ErrWave, n, c, len(sf.Samples), f.BlockSize)
			}
			s := data[c]
			for _, v := range sf.Samples {
				s = append(s, float32(v)*scale)
			}
			data[c] = s
		}
		if checkMD5 {
			sum.add(f)
		}
	}
	if len(data[0]) == 0 {
		return nil, fmt.Errorf("%w: empty FLAC stream (no samples)", ErrWave)
	}
	if info.NSamples != 0 && uint64(len(data[0])) != info.NSamples {
		return nil, fmt.Errorf("%w: FLAC stream info promises %d samples, the frames hold %d (truncated file?)", ErrWave, info.NSamples, len(data[0]))
	}
	if checkMD5 {
		if got := sum.sum(); got != info.MD5sum {
			return nil, fmt.Errorf("%w: FLAC MD5 signature mismatch: the stream says %x, the decoded samples give %x", ErrWave, info.MD5sum, got)
		}
	}
	return &WaveData{SampFreq: float64(float32(info.SampleRate)), Data: data}, nil
}

// flacEOF says what an unexpected end of a FLAC stream usually means.
func flacEOF(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%v (the stream ends early: truncated file?)", err)
	}
	return err
}

// md5Hasher computes FLAC's MD5 signature: the MD5 of the samples,
// interleaved, little-endian, in the fewest whole bytes that hold them.
type md5Hasher struct {
	h     hash.Hash
	bytes int
	buf   []byte
}

func (m *md5Hasher) init(bits int) {
	m.h = md5.New()
	m.bytes = (bits + 7) / 8
}

func (m *md5Hasher) add(f *frame.Frame) {
	ns := len(f.Subframes[0].Samples)
	need := ns * len(f.Subframes) * m.bytes
	if cap(m.buf) < need {
		m.buf = make([]byte, need)
	}
	b := m.buf[:need]
	k := 0
	for i := 0; i < ns; i++ {
		for _, sf := range f.Subframes {
			v := uint32(sf.Samples[i])
			for j := 0; j < m.bytes; j++ {
				b[k] = byte(v >> (8 * j))
				k++
			}
		}
	}
	m.h.Write(b)
}

func (m *md5Hasher) sum() (out [16]byte) {
	copy(out[:], m.h.Sum(nil))
	return out
}
