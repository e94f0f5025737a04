package features

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// wavSpec describes a synthetic RIFF file for the tests.
type wavSpec struct {
	format     uint16 // 1 PCM, 3 float, 0xFFFE extensible, 7 µ-law
	subFormat  uint32 // extensible sub-format code
	channels   uint16
	rate       uint32
	bits       uint16
	preFmt     string // chunk inserted before "fmt "
	preData    string // chunk inserted before "data"
	data       []byte
	dataSize   int64 // -1: len(data)
	riffSize   int64 // -1: consistent
	byteRateFn func(rate uint32, ch, bits uint16) uint32
}

func (s wavSpec) bytes() []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	put32 := func(v uint32) { binary.Write(&b, le, v) }
	chunk := func(tag string, body []byte) {
		b.WriteString(tag)
		put32(uint32(len(body)))
		b.Write(body)
	}
	b.WriteString("RIFF")
	put32(0) // patched below
	b.WriteString("WAVE")
	if s.preFmt != "" {
		chunk(s.preFmt, []byte("abcd"))
	}
	var f bytes.Buffer
	binary.Write(&f, le, s.format)
	binary.Write(&f, le, s.channels)
	binary.Write(&f, le, s.rate)
	br := s.rate * uint32(s.channels) * uint32(s.bits) / 8
	if s.byteRateFn != nil {
		br = s.byteRateFn(s.rate, s.channels, s.bits)
	}
	binary.Write(&f, le, br)
	binary.Write(&f, le, s.channels*s.bits/8)
	binary.Write(&f, le, s.bits)
	if s.format == 0xFFFE {
		binary.Write(&f, le, uint16(22))
		binary.Write(&f, le, s.bits)
		binary.Write(&f, le, uint32(0))
		for _, v := range []uint32{s.subFormat, 0x00100000, 0xAA000080, 0x719B3800} {
			binary.Write(&f, le, v)
		}
	}
	chunk("fmt ", f.Bytes())
	if s.preData != "" {
		chunk(s.preData, []byte("INFOsome text"))
	}
	b.WriteString("data")
	ds := s.dataSize
	if ds < 0 {
		ds = int64(len(s.data))
	}
	put32(uint32(ds))
	b.Write(s.data)
	out := b.Bytes()
	rs := s.riffSize
	if rs < 0 {
		rs = int64(len(out) - 8)
	}
	le.PutUint32(out[4:], uint32(rs))
	return out
}

func pcm16(vals ...int16) []byte {
	b := make([]byte, 2*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}

func base16(data []byte) wavSpec {
	return wavSpec{format: 1, channels: 1, rate: 16000, bits: 16, data: data, dataSize: -1, riffSize: -1}
}

func TestReadWaveVariants(t *testing.T) {
	f32 := func(vals ...float32) []byte {
		b := make([]byte, 4*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	cases := []struct {
		name     string
		spec     wavSpec
		want     [][]float32
		warnings int
	}{
		{"pcm16 mono", base16(pcm16(1, -2, 32767, -32768)), [][]float32{{1, -2, 32767, -32768}}, 0},
		{"stereo", func() wavSpec { s := base16(pcm16(1, 2, 3, 4)); s.channels = 2; return s }(), [][]float32{{1, 3}, {2, 4}}, 0},
		{"extensible pcm", func() wavSpec { s := base16(pcm16(5, 6)); s.format, s.subFormat = 0xFFFE, 1; return s }(), [][]float32{{5, 6}}, 0},
		{"JUNK before fmt, LIST before data", func() wavSpec { s := base16(pcm16(7)); s.preFmt, s.preData = "JUNK", "LIST"; return s }(), [][]float32{{7}}, 0},
		{"truncated data", func() wavSpec { s := base16(pcm16(1, 2)); s.dataSize = 100; return s }(), [][]float32{{1, 2}}, 2},
		{"8-bit", func() wavSpec { s := base16([]byte{128, 255, 0}); s.bits = 8; return s }(), [][]float32{{0, 127 * 256, -128 * 256}}, 0},
		{"24-bit", func() wavSpec { s := base16([]byte{0, 1, 0, 0, 0, 0x80}); s.bits = 24; return s }(), [][]float32{{1, -32768}}, 0},
		{"32-bit", func() wavSpec { s := base16([]byte{0, 0, 1, 0, 0, 0, 0, 0x80}); s.bits = 32; return s }(), [][]float32{{1, -32768}}, 0},
		{"float", func() wavSpec { s := base16(f32(0.5, -1)); s.format, s.bits = 3, 32; return s }(), [][]float32{{16384, -32768}}, 0},
		{"streamed (SoX placeholder size)", func() wavSpec { s := base16(pcm16(9, 10)); s.dataSize = 0x7FFFF000; return s }(), [][]float32{{9, 10}}, 0},
	}
	for _, c := range cases {
		w, err := ReadWave(bytes.NewReader(c.spec.bytes()))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(w.Warnings) != c.warnings {
			t.Errorf("%s: warnings %q, want %d", c.name, w.Warnings, c.warnings)
		}
		if w.SampFreq != 16000 || len(w.Data) != len(c.want) {
			t.Errorf("%s: rate %v, %d channels", c.name, w.SampFreq, len(w.Data))
			continue
		}
		for ch := range c.want {
			if len(w.Data[ch]) != len(c.want[ch]) {
				t.Errorf("%s: channel %d has %v, want %v", c.name, ch, w.Data[ch], c.want[ch])
				continue
			}
			for i := range c.want[ch] {
				if w.Data[ch][i] != c.want[ch][i] {
					t.Errorf("%s: channel %d = %v, want %v", c.name, ch, w.Data[ch], c.want[ch])
					break
				}
			}
		}
	}
}

func TestReadWaveErrors(t *testing.T) {
	f32 := make([]byte, 8)
	binary.LittleEndian.PutUint32(f32[4:], math.Float32bits(float32(math.NaN())))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"not RIFF", []byte("RIFX"[:3] + "Z....WAVE"), "expected RIFF"},
		{"empty", nil, "unexpected end of file"},
		{"mu-law", func() []byte { s := base16([]byte{1, 2}); s.format, s.bits = 7, 8; return s.bytes() }(), "format id in file is: 7"},
		{"12-bit", func() []byte { s := base16(pcm16(1)); s.bits = 12; return s.bytes() }(), "bits_per_sample = 12"},
		{"zero channels", func() []byte { s := base16(pcm16(1)); s.channels = 0; return s.bytes() }(), "no channels"},
		{"bad byte rate", func() []byte {
			s := base16(pcm16(1))
			s.byteRateFn = func(uint32, uint16, uint16) uint32 { return 1 }
			return s.bytes()
		}(), "byte rate"},
		{"extensible float is read, a-law is not", func() []byte { s := base16(pcm16(1)); s.format, s.subFormat = 0xFFFE, 6; return s.bytes() }(), "unsupported WAVE_FORMAT_EXTENSIBLE"},
		{"NaN float", func() []byte { s := base16(f32); s.format, s.bits = 3, 32; return s.bytes() }(), "NaN"},
		{"no data bytes", base16(nil).bytes(), "no data"},
		{"truncated header", base16(pcm16(1)).bytes()[:30], "unexpected end of file at byte 30"},
	}
	for _, c := range cases {
		_, err := ReadWave(bytes.NewReader(c.data))
		if err == nil || !errors.Is(err, ErrWave) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one wrapping ErrWave containing %q", c.name, err, c.want)
		}
	}
}

func TestWaveWriteRoundTrip(t *testing.T) {
	w := &WaveData{SampFreq: 8000, Data: [][]float32{{1.9, -1.9, 40000, -40000}, {0, 1, 2, 3}}}
	var b bytes.Buffer
	clipped, err := w.Write(&b)
	if err != nil || clipped != 2 {
		t.Fatalf("clipped %d, err %v", clipped, err)
	}
	if b.Len() != 44+16 {
		t.Fatalf("%d bytes", b.Len())
	}
	r, err := ReadWave(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{1, -1, 32767, -32768}, {0, 1, 2, 3}}
	for c := range want {
		for i := range want[c] {
			if r.Data[c][i] != want[c][i] {
				t.Fatalf("round trip: %v, want %v", r.Data, want)
			}
		}
	}
}

// Two waves back to back (an archive): the first read must stop at the end
// of its data chunk.
func TestReadWaveStopsAtDataEnd(t *testing.T) {
	a, b := base16(pcm16(1, 2)).bytes(), base16(pcm16(3)).bytes()
	r := bytes.NewReader(append(a, b...))
	w1, err := ReadWave(r)
	if err != nil || len(w1.Data[0]) != 2 {
		t.Fatalf("first: %v %v", w1, err)
	}
	w2, err := ReadWave(r)
	if err != nil || len(w2.Data[0]) != 1 || w2.Data[0][0] != 3 {
		t.Fatalf("second: %v %v", w2, err)
	}
}

func FuzzReadWave(f *testing.F) {
	f.Add(base16(pcm16(1, 2, 3)).bytes())
	s := base16(pcm16(1, 2, 3, 4))
	s.channels, s.preData = 2, "LIST"
	f.Add(s.bytes())
	s = base16([]byte{0, 0, 0, 0})
	s.format, s.bits = 3, 32
	f.Add(s.bytes())
	f.Add(encodeFLAC(f, 16000, 16, randomSamples(1, 40, 16, 1), true))
	f.Add(encodeFLAC(f, 8000, 24, randomSamples(2, 20, 24, 2), false))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ReadWave(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrWave) {
				t.Fatalf("error does not wrap ErrWave: %v", err)
			}
			return
		}
		if w.NumChannels() == 0 {
			t.Fatal("no channels without error")
		}
		for _, ch := range w.Data {
			if len(ch) != w.NumSamples() {
				t.Fatal("ragged channels")
			}
			for _, v := range ch {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatal("non-finite sample")
				}
			}
		}
	})
}
