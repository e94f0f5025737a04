package features

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// ErrWave marks a wave file that cannot be read (Kaldi's WaveData errors).
var ErrWave = errors.New("bad wave data")

// WaveData is Kaldi's WaveData: a sampling rate and one row of samples per
// channel. Samples keep Kaldi's scale, the raw 16-bit integer values (so a
// full-scale 16-bit sine has amplitude 32767). Other PCM encodings, which
// Kaldi refuses, are read here scaled to that same range: 8-bit unsigned as
// (x−128)·256, 24-bit as x/256, 32-bit integer as x/65536 and 32-bit float as
// x·32768.
type WaveData struct {
	SampFreq float64     // samples per second
	Data     [][]float32 // Data[channel][sample]

	// Warnings holds the warnings Kaldi would print while reading this wave
	// (a truncated data chunk, inconsistent chunk sizes). Callers print them.
	Warnings []string
}

// NumChannels is the number of channels.
func (w *WaveData) NumChannels() int { return len(w.Data) }

// NumSamples is the number of samples per channel.
func (w *WaveData) NumSamples() int {
	if len(w.Data) == 0 {
		return 0
	}
	return len(w.Data[0])
}

// Duration is the length in seconds, computed in float as Kaldi's
// WaveData::Duration (so utt2dur and --min-duration see Kaldi's values).
func (w *WaveData) Duration() float64 {
	return float64(float32(w.NumSamples()) / float32(w.SampFreq))
}

// sample encodings
const (
	encPCM   = 1
	encFloat = 3
)

// waveHeader is Kaldi's WaveInfo: what the RIFF header says.
type waveHeader struct {
	bigEndian     bool // RIFX
	numChannels   int
	sampleRate    uint32
	blockAlign    int
	bitsPerSample int
	encoding      int
	dataBytes     uint32
	streamed      bool // the size fields are placeholders: read to EOF
	warnings      []string
}

// headerReader reads the little (or big) endian header fields, counting bytes
// so errors can name the offset.
type headerReader struct {
	r   io.Reader
	off int64
	bo  binary.ByteOrder
	buf [4]byte
}

func (h *headerReader) read(n int) ([]byte, error) {
	k, err := io.ReadFull(h.r, h.buf[:n])
	h.off += int64(k)
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: unexpected end of file at byte %d (in the header)", ErrWave, h.off)
		}
		return nil, fmt.Errorf("%w: read error at byte %d: %v", ErrWave, h.off, err)
	}
	return h.buf[:n], nil
}

func (h *headerReader) tag() (string, error) {
	b, err := h.read(4)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func (h *headerReader) u32() (uint32, error) {
	b, err := h.read(4)
	if err != nil {
		return 0, err
	}
	return h.bo.Uint32(b), nil
}

func (h *headerReader) u16() (uint16, error) {
	b, err := h.read(2)
	if err != nil {
		return 0, err
	}
	return h.bo.Uint16(b), nil
}

func (h *headerReader) skip(n uint32) error {
	k, err := io.CopyN(io.Discard, h.r, int64(n))
	h.off += k
	if err != nil {
		if err == io.EOF {
			return fmt.Errorf("%w: unexpected end of file at byte %d (skipping a %d-byte chunk)", ErrWave, h.off, n)
		}
		return fmt.Errorf("%w: read error at byte %d: %v", ErrWave, h.off, err)
	}
	return nil
}

func (h *headerReader) errorf(format string, a ...any) error {
	return fmt.Errorf("%w: %s (header byte %d)", ErrWave, fmt.Sprintf(format, a...), h.off)
}

// KSDATAFORMAT_SUBTYPE_PCM and _IEEE_FLOAT, as the four little-endian words
// Kaldi compares (the first word is the format code).
var extensibleGUIDTail = [3]uint32{0x00100000, 0xAA000080, 0x719B3800}

// readWaveHeader follows Kaldi's WaveInfo::Read: RIFF (or RIFX), WAVE, any
// chunks before "fmt ", the format chunk, any chunks before "data".
func readWaveHeader(r io.Reader) (*waveHeader, int64, error) {
	h := &headerReader{r: r, bo: binary.LittleEndian}
	wh := &waveHeader{}
	tag, err := h.tag()
	if err != nil {
		return nil, h.off, err
	}
	switch tag {
	case "RIFF":
	case "RIFX":
		wh.bigEndian = true
		h.bo = binary.BigEndian
	case "fLaC":
		return nil, h.off, errIsFLAC
	default:
		return nil, h.off, h.errorf("expected RIFF or RIFX, got %q", tag)
	}
	riffSize, err := h.u32()
	if err != nil {
		return nil, h.off, err
	}
	if tag, err = h.tag(); err != nil {
		return nil, h.off, err
	}
	if tag != "WAVE" {
		return nil, h.off, h.errorf("expected WAVE, got %q", tag)
	}
	riffRead := int64(4)
	// Skip chunks between WAVE and "fmt " (Apple's JUNK filler).
	if tag, err = h.tag(); err != nil {
		return nil, h.off, err
	}
	riffRead += 4
	for tag != "fmt " {
		n, err := h.u32()
		if err != nil {
			return nil, h.off, err
		}
		if err := h.skip(n); err != nil {
			return nil, h.off, err
		}
		riffRead += 4 + int64(n)
		if tag, err = h.tag(); err != nil {
			return nil, h.off, err
		}
		riffRead += 4
	}
	fmtSize, err := h.u32()
	if err != nil {
		return nil, h.off, err
	}
	var f [6]uint32
	for i, size := range []int{2, 2, 4, 4, 2, 2} {
		if size == 2 {
			v, err := h.u16()
			if err != nil {
				return nil, h.off, err
			}
			f[i] = uint32(v)
		} else {
			v, err := h.u32()
			if err != nil {
				return nil, h.off, err
			}
			f[i] = v
		}
	}
	format, numChannels, sampleRate, byteRate, blockAlign, bits := f[0], f[1], f[2], f[3], f[4], f[5]
	fmtRead := uint32(16)
	switch format {
	case 1, 3: // WAVE_FORMAT_PCM, WAVE_FORMAT_IEEE_FLOAT
		if fmtSize < 16 {
			return nil, h.off, h.errorf("expect PCM format data to have fmt chunk of at least size 16")
		}
		wh.encoding = int(format)
	case 0xFFFE: // WAVE_FORMAT_EXTENSIBLE
		extra, err := h.u16()
		if err != nil {
			return nil, h.off, err
		}
		if fmtSize < 40 || extra < 22 {
			return nil, h.off, h.errorf("malformed WAVE_FORMAT_EXTENSIBLE format data")
		}
		var g [6]uint32
		for i := range g {
			if i == 0 {
				v, err := h.u16() // valid bits per sample: unused for PCM
				if err != nil {
					return nil, h.off, err
				}
				g[i] = uint32(v)
				continue
			}
			if g[i], err = h.u32(); err != nil {
				return nil, h.off, err
			}
		}
		fmtRead = 40
		sub := g[2]
		if (sub != 1 && sub != 3) || g[3] != extensibleGUIDTail[0] || g[4] != extensibleGUIDTail[1] || g[5] != extensibleGUIDTail[2] {
			return nil, h.off, h.errorf("unsupported WAVE_FORMAT_EXTENSIBLE format")
		}
		wh.encoding = int(sub)
	default:
		return nil, h.off, h.errorf("can read only PCM data, format id in file is: %d", format)
	}
	if fmtSize > fmtRead {
		if err := h.skip(fmtSize - fmtRead); err != nil {
			return nil, h.off, err
		}
	}
	if numChannels == 0 {
		return nil, h.off, h.errorf("no channels present")
	}
	switch {
	case wh.encoding == encPCM && (bits == 8 || bits == 16 || bits == 24 || bits == 32):
	case wh.encoding == encFloat && bits == 32:
	default:
		return nil, h.off, h.errorf("unsupported bits_per_sample = %d", bits)
	}
	if byteRate != sampleRate*bits/8*numChannels {
		return nil, h.off, h.errorf("unexpected byte rate %d vs. %d * %d * %d", byteRate, sampleRate, bits/8, numChannels)
	}
	if blockAlign != numChannels*bits/8 {
		return nil, h.off, h.errorf("unexpected block_align: %d vs. %d * %d", blockAlign, numChannels, bits/8)
	}
	riffRead += 4 + int64(fmtSize)
	if tag, err = h.tag(); err != nil {
		return nil, h.off, err
	}
	riffRead += 4
	// Skip chunks between "fmt " and "data" (fact, LIST, ...).
	for tag != "data" {
		n, err := h.u32()
		if err != nil {
			return nil, h.off, err
		}
		if n != 4 && tag == "fact" {
			wh.warnings = append(wh.warnings, "Expected fact chunk to be 4 bytes long.")
		}
		if err := h.skip(n); err != nil {
			return nil, h.off, err
		}
		riffRead += 4 + int64(n)
		if tag, err = h.tag(); err != nil {
			return nil, h.off, err
		}
		riffRead += 4
	}
	dataSize, err := h.u32()
	if err != nil {
		return nil, h.off, err
	}
	riffRead += 4
	// Placeholder sizes seen in the wild (streams; 0x7FFFF000 is SoX's).
	wh.streamed = riffSize == 0 || riffSize == 0xFFFFFFFF || dataSize == 0 ||
		dataSize == 0xFFFFFFFF || dataSize == 0x7FFFF000
	if !wh.streamed {
		if d := riffRead + int64(dataSize) - int64(riffSize); d > 1 || d < -1 {
			wh.warnings = append(wh.warnings, fmt.Sprintf("Expected %d bytes in RIFF chunk, but after first data block there will be %d + %d bytes (we do not support reading multiple data chunks).", riffSize, riffRead, dataSize))
		}
	}
	wh.numChannels = int(numChannels)
	wh.sampleRate = sampleRate
	wh.blockAlign = int(blockAlign)
	wh.bitsPerSample = int(bits)
	wh.dataBytes = dataSize
	return wh, h.off, nil
}

// ReadWave reads one RIFF/WAVE file from r as Kaldi's WaveData::Read does, or
// a whole FLAC stream (see readFLAC), told apart by the first four bytes. It
// reads exactly the data chunk (so waves can follow each other in an
// archive), or to the end of r when the header's sizes are stream
// placeholders. A data chunk shorter than its size field is read as far as it
// goes, with Kaldi's warning in the result's Warnings. Errors wrap ErrWave and
// name the byte offset.
func ReadWave(r io.Reader) (*WaveData, error) {
	wh, off, err := readWaveHeader(r)
	if err == errIsFLAC {
		return readFLAC(io.MultiReader(strings.NewReader("fLaC"), r))
	}
	if err != nil {
		return nil, err
	}
	if !wh.streamed && wh.encoding == encPCM && wh.bitsPerSample == 16 && !wh.bigEndian {
		return readPCM16(r, wh, off)
	}
	var buf []byte
	if wh.streamed {
		buf, err = io.ReadAll(r)
	} else {
		buf, err = readUpTo(r, int64(wh.dataBytes))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: file read error at byte %d: %v", ErrWave, off+int64(len(buf)), err)
	}
	if len(buf) == 0 {
		return nil, fmt.Errorf("%w: empty file (no data)", ErrWave)
	}
	w := &WaveData{SampFreq: float64(float32(wh.sampleRate)), Warnings: wh.warnings}
	if !wh.streamed && int64(len(buf)) < int64(wh.dataBytes) {
		w.Warnings = append(w.Warnings, fmt.Sprintf("Expected %d bytes of wave data, but read only %d bytes. Truncated file?", wh.dataBytes, len(buf)))
	}
	if err := decodeSamples(w, wh, buf); err != nil {
		return nil, fmt.Errorf("%w (data starts at byte %d)", err, off)
	}
	return w, nil
}

// readPCM16 is ReadWave's common case (Kaldi's only one), 16-bit
// little-endian PCM with a real size field: it reads the data chunk in blocks
// and decodes each block straight into the samples, so no byte copy of the
// whole chunk exists, and mono samples come from samplePool. Like readUpTo it
// grows the samples as data arrives, so a bogus size field cannot allocate
// gigabytes up front.
func readPCM16(r io.Reader, wh *waveHeader, off int64) (*WaveData, error) {
	nc := wh.numChannels
	ba := 2 * nc
	want := int64(wh.dataBytes) / int64(ba) // sample frames the header promises
	hint := int(min(want, 1<<20))
	data := make([][]float32, nc)
	if nc == 1 {
		data[0] = samplePool.get(hint)[:0]
	} else {
		for c := range data {
			data[c] = make([]float32, 0, hint)
		}
	}
	bp := blockPool.Get().(*[]byte)
	defer blockPool.Put(bp)
	blk := (*bp)[:len(*bp)/ba*ba]
	remaining := int64(wh.dataBytes)
	var read int64
	for remaining > 0 {
		b := blk[:min(int64(len(blk)), remaining)]
		k, err := io.ReadFull(r, b)
		read += int64(k)
		remaining -= int64(k)
		ns := k / ba
		b = b[:ns*ba]
		if nc == 1 {
			s := data[0]
			if cap(s)-len(s) < ns {
				s = append(s[:cap(s)], make([]float32, ns)...)[:len(s)]
			}
			pcm16ToFloat(s[len(s):len(s)+ns], b)
			data[0] = s[:len(s)+ns]
		} else {
			for c := range data {
				s := data[c]
				for i := 0; i < ns; i++ {
					j := i*ba + 2*c
					s = append(s, float32(int16(uint16(b[j])|uint16(b[j+1])<<8)))
				}
				data[c] = s
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: file read error at byte %d: %v", ErrWave, off+read, err)
		}
	}
	if read == 0 {
		return nil, fmt.Errorf("%w: empty file (no data)", ErrWave)
	}
	w := &WaveData{SampFreq: float64(float32(wh.sampleRate)), Data: data, Warnings: wh.warnings}
	if read < int64(wh.dataBytes) {
		w.Warnings = append(w.Warnings, fmt.Sprintf("Expected %d bytes of wave data, but read only %d bytes. Truncated file?", wh.dataBytes, read))
	}
	return w, nil
}

// releaseWave gives a wave's samples back to samplePool once nothing uses
// them any more (ComputeFeats, after the features are computed).
func releaseWave(w *WaveData) {
	if len(w.Data) == 1 {
		samplePool.put(w.Data[0])
	}
	w.Data = nil
}

// readUpTo reads n bytes or until EOF, growing the buffer as data arrives so
// that a huge bogus size field does not allocate gigabytes up front.
func readUpTo(r io.Reader, n int64) ([]byte, error) {
	const block = 1 << 20
	var buf []byte
	for int64(len(buf)) < n {
		want := min(n-int64(len(buf)), block)
		start := len(buf)
		buf = append(buf, make([]byte, want)...)
		k, err := io.ReadFull(r, buf[start:])
		buf = buf[:start+k]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

func decodeSamples(w *WaveData, wh *waveHeader, buf []byte) error {
	nc := wh.numChannels
	ns := len(buf) / wh.blockAlign
	w.Data = make([][]float32, nc)
	flat := make([]float32, nc*ns)
	for c := range w.Data {
		w.Data[c] = flat[c*ns : (c+1)*ns : (c+1)*ns]
	}
	bo := binary.ByteOrder(binary.LittleEndian)
	if wh.bigEndian {
		bo = binary.BigEndian
	}
	bps := wh.bitsPerSample / 8
	if wh.encoding == encPCM && bps == 2 && !wh.bigEndian {
		// The common case (Kaldi's only one): 16-bit little-endian.
		for i := 0; i < ns; i++ {
			frame := buf[i*2*nc : (i+1)*2*nc]
			for c := 0; c < nc; c++ {
				w.Data[c][i] = float32(int16(uint16(frame[2*c]) | uint16(frame[2*c+1])<<8))
			}
		}
		return nil
	}
	p := 0
	for i := 0; i < ns; i++ {
		for c := 0; c < nc; c++ {
			b := buf[p : p+bps]
			p += bps
			var v float32
			switch {
			case wh.encoding == encFloat:
				f := math.Float32frombits(bo.Uint32(b))
				if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
					return fmt.Errorf("%w: float sample %d of channel %d is %v", ErrWave, i, c, f)
				}
				v = f * 32768
				if math.IsInf(float64(v), 0) {
					// |f| > 1e34: garbage, not audio (found by FuzzReadWave).
					return fmt.Errorf("%w: float sample %d of channel %d (%v) overflows when scaled to the 16-bit range", ErrWave, i, c, f)
				}
			case bps == 2:
				v = float32(int16(bo.Uint16(b)))
			case bps == 1:
				v = float32((int(b[0]) - 128) * 256)
			case bps == 3:
				var u int32
				if wh.bigEndian {
					u = int32(b[0])<<24 | int32(b[1])<<16 | int32(b[2])<<8
				} else {
					u = int32(b[2])<<24 | int32(b[1])<<16 | int32(b[0])<<8
				}
				v = float32(float64(u>>8) / 256)
			case bps == 4:
				v = float32(float64(int32(bo.Uint32(b))) / 65536)
			}
			w.Data[c][i] = v
		}
	}
	return nil
}

// Write writes w as Kaldi's WaveData::Write: a 44-byte RIFF/WAVE header
// (16-bit PCM) and the samples truncated toward zero and clipped to the int16
// range. It returns the number of clipped samples (Kaldi warns about them).
func (w *WaveData) Write(out io.Writer) (clipped int, err error) {
	nc, ns := w.NumChannels(), w.NumSamples()
	if nc == 0 {
		return 0, fmt.Errorf("%w: attempting to write empty WAVE file", ErrWave)
	}
	if w.SampFreq <= 0 {
		return 0, fmt.Errorf("%w: sampling rate %v", ErrWave, w.SampFreq)
	}
	dataSize := nc * ns * 2
	if int64(dataSize) > math.MaxInt32-36 {
		return 0, fmt.Errorf("%w: %d samples do not fit a RIFF file", ErrWave, nc*ns)
	}
	buf := make([]byte, 44+dataSize)
	le := binary.LittleEndian
	copy(buf[0:], "RIFF")
	le.PutUint32(buf[4:], uint32(36+dataSize))
	copy(buf[8:], "WAVEfmt ")
	le.PutUint32(buf[16:], 16)
	le.PutUint16(buf[20:], 1)
	le.PutUint16(buf[22:], uint16(nc))
	rate := int32(float32(w.SampFreq))
	le.PutUint32(buf[24:], uint32(rate))
	le.PutUint32(buf[28:], uint32(rate*int32(nc)*2))
	le.PutUint16(buf[32:], uint16(nc*2))
	le.PutUint16(buf[34:], 16)
	copy(buf[36:], "data")
	le.PutUint32(buf[40:], uint32(dataSize))
	p := 44
	for i := 0; i < ns; i++ {
		for c := 0; c < nc; c++ {
			f := math.Trunc(float64(w.Data[c][i]))
			var s int16
			switch {
			case f < math.MinInt16:
				s = math.MinInt16
				clipped++
			case f > math.MaxInt16:
				s = math.MaxInt16
				clipped++
			case f != f: // NaN: Kaldi's cast is undefined; write 0
				s = 0
			default:
				s = int16(f)
			}
			le.PutUint16(buf[p:], uint16(s))
			p += 2
		}
	}
	_, err = out.Write(buf)
	return clipped, err
}

// Channel selects the channel Kaldi's feature tools use: channel ch when
// ch ≥ 0 (an error when out of range), otherwise channel 0, with Kaldi's
// warning when there is more than one.
func (w *WaveData) Channel(ch int) (samples []float32, warning string, err error) {
	nc := w.NumChannels()
	if nc == 0 {
		return nil, "", fmt.Errorf("%w: no channels", ErrWave)
	}
	if ch < 0 {
		if nc != 1 {
			warning = fmt.Sprintf("Channel not specified but you have data with %d channels; defaulting to zero", nc)
		}
		return w.Data[0], warning, nil
	}
	if ch >= nc {
		return nil, "", fmt.Errorf("invalid channel %d: the wave has %d channel(s)", ch, nc)
	}
	return w.Data[ch], "", nil
}
