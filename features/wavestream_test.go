package features

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"testing/iotest"
)

// readAllStream reads a stream n samples at a time to the end.
func readAllStream(t *testing.T, s *WaveStream, n int) ([]float32, error) {
	t.Helper()
	var out []float32
	for {
		var err error
		out, err = s.Read(out, n)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// A WAV stream read piece by piece, through a reader that gives one byte
// at a time, has ReadWave's samples; so do streamed headers (size fields
// 0 or 0xFFFFFFFF, as arecord writes to a pipe) and raw S16_LE.
func TestWaveStreamMatchesReadWave(t *testing.T) {
	data, err := os.ReadFile("testdata/s_utt5_8k.wav")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ReadWave(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := w.Data[0]
	stereo := base16(pcm16(1, -1, 2, -2, 3, -3))
	stereo.channels = 2
	streamed := base16(pcm16(5, 6, 7))
	streamed.dataSize, streamed.riffSize = 0xFFFFFFFF, 0xFFFFFFFF
	cases := []struct {
		name string
		in   []byte
		want []float32
	}{
		{"file", data, want},
		{"stereo", stereo.bytes(), []float32{1, 2, 3}},
		{"streamed header", streamed.bytes(), []float32{5, 6, 7}},
	}
	for _, c := range cases {
		for _, n := range []int{1, 100, 0} {
			for _, slow := range []bool{false, true} {
				var r io.Reader = bytes.NewReader(c.in)
				if slow {
					r = iotest.OneByteReader(r)
				}
				s, err := OpenWaveStream(r)
				if err != nil {
					t.Fatal(err)
				}
				got, err := readAllStream(t, s, n)
				if err != nil {
					t.Fatalf("%s, %d at a time, slow %v: %v", c.name, n, slow, err)
				}
				if len(got) != len(c.want) {
					t.Fatalf("%s, %d at a time, slow %v: %d samples, want %d", c.name, n, slow, len(got), len(c.want))
				}
				for i := range got {
					if got[i] != c.want[i] {
						t.Fatalf("%s: sample %d: %v, want %v", c.name, i, got[i], c.want[i])
					}
				}
			}
		}
	}
	raw, _ := NewRawPCMStream(iotest.HalfReader(bytes.NewReader(pcm16(-7, 8, 9))), 16000, 1)
	got, err := readAllStream(t, raw, 2)
	if err != nil || len(got) != 3 || got[0] != -7 || got[2] != 9 {
		t.Errorf("raw PCM: %v, %v", got, err)
	}
}

// A stream that ends inside a sample gives the samples before it and then
// an error naming the byte offset; a data chunk cut short is Kaldi's
// warning, not an error.
func TestWaveStreamBadEnds(t *testing.T) {
	raw, _ := NewRawPCMStream(bytes.NewReader(append(pcm16(1, 2), 0x33)), 16000, 1)
	got, err := readAllStream(t, raw, 10)
	if !errors.Is(err, ErrWave) || len(got) != 2 {
		t.Fatalf("odd byte count: %v samples, %v", got, err)
	}
	if want := "1 stray byte(s) at byte 4"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
		t.Errorf("error %q does not say %q", err, want)
	}
	short := base16(pcm16(1, 2, 3))
	short.dataSize = 10
	s, err := OpenWaveStream(bytes.NewReader(short.bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got, err = readAllStream(t, s, 10)
	if err != nil || len(got) != 3 || len(s.Warnings) == 0 {
		t.Errorf("short data chunk: %v, %v, warnings %q", got, err, s.Warnings)
	}
	if _, err := NewRawPCMStream(bytes.NewReader(nil), 0, 1); !errors.Is(err, ErrWave) {
		t.Errorf("rate 0: %v", err)
	}
	if _, err := OpenWaveStream(bytes.NewReader([]byte("RIFF"))); err == nil {
		t.Errorf("truncated header: no error")
	}
}

// FuzzWaveStream: any bytes give samples or an error, never a panic, and
// where ReadWave reads the same bytes as a file with a real size, the
// stream's channel-0 samples are ReadWave's.
func FuzzWaveStream(f *testing.F) {
	if data, err := os.ReadFile("testdata/s_utt5_8k.wav"); err == nil {
		f.Add(data[:min(len(data), 400)])
	}
	f.Add(base16(pcm16(1, 2, 3)).bytes())
	streamed := base16(pcm16(4, 5))
	streamed.dataSize = 0
	f.Add(streamed.bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := OpenWaveStream(bytes.NewReader(data))
		if err != nil {
			return
		}
		got, err := readAllStream(t, s, 7)
		if err != nil {
			return
		}
		w, err := ReadWave(bytes.NewReader(data))
		if err != nil || len(w.Warnings) > 0 || len(s.Warnings) > 0 {
			return
		}
		if len(got) != len(w.Data[0]) {
			t.Fatalf("stream %d samples, ReadWave %d", len(got), len(w.Data[0]))
		}
		for i := range got {
			if got[i] != w.Data[0][i] {
				t.Fatalf("sample %d: stream %v, ReadWave %v", i, got[i], w.Data[0][i])
			}
		}
		raw, _ := NewRawPCMStream(bytes.NewReader(data), 16000, 1)
		readAllStream(t, raw, 5)
	})
}
