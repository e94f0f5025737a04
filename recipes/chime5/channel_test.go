package chime5

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/strode-asr/strode/features"
)

// stereoWave returns a 16-bit stereo wave of n frames: left i, right -i.
func stereoWave(t *testing.T, n int) ([]byte, features.WaveData) {
	t.Helper()
	w := features.WaveData{SampFreq: testRate, Data: [][]float32{make([]float32, n), make([]float32, n)}}
	for i := 0; i < n; i++ {
		w.Data[0][i] = float32(i)
		w.Data[1][i] = float32(-i)
	}
	var b bytes.Buffer
	if _, err := w.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), w
}

func TestSelectChannel(t *testing.T) {
	raw, w := stereoWave(t, 10000)
	for ch := 0; ch < 2; ch++ {
		var out bytes.Buffer
		if err := SelectChannel(bytes.NewReader(raw), &out, ch); err != nil {
			t.Fatal(err)
		}
		got, err := features.ReadWave(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("channel %d: our reader rejects the output: %v", ch, err)
		}
		if got.NumChannels() != 1 || got.SampFreq != testRate || got.NumSamples() != 10000 {
			t.Fatalf("channel %d: %d channels, %v Hz, %d samples", ch, got.NumChannels(), got.SampFreq, got.NumSamples())
		}
		for i, v := range got.Data[0] {
			if v != w.Data[ch][i] {
				t.Fatalf("channel %d sample %d = %v, want %v", ch, i, v, w.Data[ch][i])
			}
		}
		if out.Len() != 44+2*10000 {
			t.Errorf("channel %d: %d bytes, want a 44-byte header and the samples", ch, out.Len())
		}
	}
	if err := SelectChannel(bytes.NewReader(raw), &bytes.Buffer{}, 2); !errors.Is(err, ErrWave) {
		t.Errorf("channel 2 of a stereo file: %v", err)
	}
	// Truncated data: the samples there are written, then an error.
	var out bytes.Buffer
	if err := SelectChannel(bytes.NewReader(raw[:len(raw)-1000]), &out, 0); !errors.Is(err, ErrWave) {
		t.Errorf("truncated file: %v", err)
	}
	// A stream with placeholder sizes is copied to its end.
	streamed := append([]byte(nil), raw...)
	binary.LittleEndian.PutUint32(streamed[4:], 0xFFFFFFFF)
	binary.LittleEndian.PutUint32(streamed[40:], 0xFFFFFFFF)
	out.Reset()
	if err := SelectChannel(bytes.NewReader(streamed), &out, 1); err != nil {
		t.Fatal(err)
	}
	got, err := features.ReadWave(bytes.NewReader(out.Bytes()))
	if err != nil || got.NumSamples() != 10000 || got.Data[0][9999] != -9999 {
		t.Errorf("streamed: %v", err)
	}
	// Chunks before fmt and data, and WAVE_FORMAT_EXTENSIBLE, as Kaldi reads them.
	ext := extensibleWave(raw)
	out.Reset()
	if err := SelectChannel(bytes.NewReader(ext), &out, 1); err != nil {
		t.Fatal(err)
	}
	if got, err := features.ReadWave(bytes.NewReader(out.Bytes())); err != nil || got.NumSamples() != 10000 || got.Data[0][5] != -5 {
		t.Errorf("extensible: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("RIFX"), raw[:30], []byte("RIFF\x00\x00\x00\x00WAVEdata")} {
		if err := SelectChannel(bytes.NewReader(bad), &bytes.Buffer{}, 0); !errors.Is(err, ErrWave) {
			t.Errorf("header %q: %v", bad, err)
		}
	}
}

// extensibleWave rewrites a 44-byte-header stereo wave with a JUNK chunk
// before "fmt ", a 40-byte WAVE_FORMAT_EXTENSIBLE fmt chunk and a LIST
// chunk before "data".
func extensibleWave(raw []byte) []byte {
	le := binary.LittleEndian
	data := raw[44:]
	var b bytes.Buffer
	put32 := func(v uint32) { binary.Write(&b, le, v) }
	put16 := func(v uint16) { binary.Write(&b, le, v) }
	b.WriteString("RIFF")
	put32(0) // fixed below
	b.WriteString("WAVEJUNK")
	put32(4)
	b.WriteString("junk")
	b.WriteString("fmt ")
	put32(40)
	put16(0xFFFE)
	put16(2)
	put32(testRate)
	put32(testRate * 4)
	put16(4)
	put16(16)
	put16(22)
	put16(16)
	put32(3)
	put32(1)
	put32(0x00100000)
	put32(0xAA000080)
	put32(0x719B3800)
	b.WriteString("LIST")
	put32(2)
	b.WriteString("xx")
	b.WriteString("data")
	put32(uint32(len(data)))
	b.Write(data)
	out := b.Bytes()
	le.PutUint32(out[4:], uint32(len(out)-8))
	return out
}

// BenchmarkSelectChannel: one minute of 16 kHz stereo, the left channel out.
func BenchmarkSelectChannel(b *testing.B) {
	n := 60 * testRate
	w := features.WaveData{SampFreq: testRate, Data: [][]float32{make([]float32, n), make([]float32, n)}}
	for i := 0; i < n; i++ {
		w.Data[0][i], w.Data[1][i] = float32(i%2000), float32(-(i % 3000))
	}
	var raw bytes.Buffer
	w.Write(&raw)
	b.SetBytes(int64(raw.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := SelectChannel(bytes.NewReader(raw.Bytes()), io.Discard, 0); err != nil {
			b.Fatal(err)
		}
	}
}
