package features

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/mewkiz/flac/meta"
	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/kaldiio"
)

// seekBuffer is an in-memory io.WriteSeeker, so that the FLAC encoder can
// go back and fill in the stream's length and MD5 signature.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.pos + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		s.pos = int(off)
	case io.SeekCurrent:
		s.pos += int(off)
	case io.SeekEnd:
		s.pos = len(s.b) + int(off)
	}
	return int64(s.pos), nil
}

// encodeFLAC encodes channels (equal lengths, values within bits) as a FLAC
// stream in blocks of 1024 samples. seekable false writes it as to a pipe:
// no length and no MD5 signature in the stream info.
func encodeFLAC(t testing.TB, rate uint32, bits uint8, channels [][]int32, seekable bool) []byte {
	t.Helper()
	info := &meta.StreamInfo{BlockSizeMin: 16, BlockSizeMax: 65535, SampleRate: rate, NChannels: uint8(len(channels)), BitsPerSample: bits}
	sb := &seekBuffer{}
	var w io.Writer = sb
	var plain bytes.Buffer
	if !seekable {
		w = &plain
	}
	enc, err := flac.NewEncoder(w, info)
	if err != nil {
		t.Fatal(err)
	}
	ch := frame.ChannelsMono
	if len(channels) == 2 {
		ch = frame.ChannelsLR
	}
	n := len(channels[0])
	for start := 0; start < n; start += 1024 {
		end := min(start+1024, n)
		f := &frame.Frame{Header: frame.Header{HasFixedBlockSize: true, BlockSize: uint16(end - start), SampleRate: rate, Channels: ch, BitsPerSample: bits}}
		for _, c := range channels {
			f.Subframes = append(f.Subframes, &frame.Subframe{SubHeader: frame.SubHeader{Pred: frame.PredVerbatim}, Samples: append([]int32(nil), c[start:end]...), NSamples: end - start})
		}
		if err := enc.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if !seekable {
		return plain.Bytes()
	}
	return sb.b
}

// randomSamples returns nc channels of n samples within bits, seeded.
func randomSamples(nc, n int, bits uint8, seed int64) [][]int32 {
	rng := rand.New(rand.NewSource(seed))
	lim := int64(1) << (bits - 1)
	out := make([][]int32, nc)
	for c := range out {
		out[c] = make([]int32, n)
		for i := range out[c] {
			// a smooth part (so fixed predictors win) plus noise, full range at the ends
			out[c][i] = int32(rng.Int63n(2*lim) - lim)
		}
		out[c][0], out[c][n-1] = int32(-lim), int32(lim-1)
	}
	return out
}

// FLAC streams decode to their samples: 16-bit values as they are, other
// depths scaled to the 16-bit range as WAV files are.
func TestReadFLAC(t *testing.T) {
	for _, tc := range []struct {
		name     string
		nc, n    int
		bits     uint8
		scale    float32
		seekable bool
	}{
		{"16-bit mono", 1, 3000, 16, 1, true},
		{"16-bit stereo", 2, 2500, 16, 1, true},
		{"8-bit mono", 1, 700, 8, 256, true},
		{"24-bit stereo", 2, 1500, 24, 1.0 / 256, true},
		{"16-bit mono from a pipe (no length, no MD5)", 1, 2100, 16, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := randomSamples(tc.nc, tc.n, tc.bits, int64(tc.n))
			w, err := ReadWave(bytes.NewReader(encodeFLAC(t, 16000, tc.bits, in, tc.seekable)))
			if err != nil {
				t.Fatal(err)
			}
			if w.SampFreq != 16000 || w.NumChannels() != tc.nc || w.NumSamples() != tc.n {
				t.Fatalf("%v Hz, %d channels, %d samples; want 16000, %d, %d", w.SampFreq, w.NumChannels(), w.NumSamples(), tc.nc, tc.n)
			}
			for c := range in {
				for i, v := range in[c] {
					if want := float32(v) * tc.scale; w.Data[c][i] != want {
						t.Fatalf("channel %d sample %d: %v, want %v", c, i, w.Data[c][i], want)
					}
				}
			}
		})
	}
}

// Damaged FLAC streams are errors that wrap ErrWave and say what is wrong.
func TestReadFLACErrors(t *testing.T) {
	in := randomSamples(1, 4000, 16, 1)
	good := encodeFLAC(t, 16000, 16, in, true)
	// The first two frames of good under its own stream info (which says 4000
	// samples): the encoder writes STREAMINFO only, 42 bytes with "fLaC".
	short := append(bytes.Clone(good[:42]), encodeFLAC(t, 16000, 16, [][]int32{in[0][:2048]}, true)[42:]...)
	// STREAMINFO: "fLaC", a 4-byte block header, then 34 bytes ending in the
	// 16-byte MD5 signature.
	badMD5 := bytes.Clone(good)
	badMD5[4+4+18] ^= 1
	flipped := bytes.Clone(good)
	flipped[len(flipped)-100] ^= 0x10
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"signature only", []byte("fLaC"), "FLAC header"},
		{"truncated in a frame", good[:len(good)/2], "truncated"},
		{"last frames missing", short, "promises 4000 samples, the frames hold 2048"},
		{"a flipped bit", flipped, "CRC-16"},
		{"MD5 mismatch", badMD5, "MD5 signature mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadWave(bytes.NewReader(tc.data))
			if !errors.Is(err, ErrWave) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrWave with %q", err, tc.want)
			}
		})
	}
}

// A wav.scp entry may name a .flac file, or pipe it through a command; both
// give the samples of the WAV the FLAC was made from.
func TestFLACInWavScp(t *testing.T) {
	dir := t.TempDir()
	in := randomSamples(1, 5000, 16, 7)
	path := filepath.Join(dir, "a.flac")
	if err := os.WriteFile(path, encodeFLAC(t, 16000, 16, in, true), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rx := range []string{path, "cat " + path + " |"} {
		var w WaveData
		if err := kaldiio.ReadObject(rx, WaveCodec, &w); err != nil {
			t.Fatalf("%s: %v", rx, err)
		}
		if w.NumSamples() != len(in[0]) || w.Data[0][1234] != float32(in[0][1234]) {
			t.Errorf("%s: %d samples, want %d with the same values", rx, w.NumSamples(), len(in[0]))
		}
	}
}

// The project's FLAC copy of speechocean762 decodes to the samples the
// reference decoder (`flac -d`, Debian's flac package) gives, read both as
// a file and through Kaldi's pipe form. Skips without ../shared or flac.
func TestReadFLACMatchesFlacTool(t *testing.T) {
	root := shareddata.Full(t, "data/speechocean762")
	flacBin, err := exec.LookPath("flac")
	if err != nil {
		t.Skip("the flac program is not installed (apt-get install flac): nothing to compare with")
	}
	files, _ := filepath.Glob(filepath.Join(root, "WAVE", "SPEAKER*", "*.flac"))
	if len(files) == 0 {
		t.Fatalf("no WAVE/SPEAKER*/*.flac in %s", root)
	}
	sort.Strings(files)
	n := 8
	if testing.Short() {
		n = 3
	}
	for _, i := range []int{0, len(files) / 2, len(files) - 1, 1, 2, 3, 4, 5}[:n] {
		p := files[i]
		var got WaveData
		if err := kaldiio.ReadObject(p, WaveCodec, &got); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out, err := exec.Command(flacBin, "-c", "-d", "-s", p).Output()
		if err != nil {
			t.Fatalf("flac -d %s: %v", p, err)
		}
		want, err := ReadWave(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("flac -d %s: %v", p, err)
		}
		var piped WaveData
		if err := kaldiio.ReadObject("flac -c -d -s "+p+" |", WaveCodec, &piped); err != nil {
			t.Fatalf("pipe: %v", err)
		}
		for _, w := range []*WaveData{want, &piped} {
			if got.SampFreq != w.SampFreq || got.NumChannels() != w.NumChannels() || got.NumSamples() != w.NumSamples() {
				t.Fatalf("%s: %v Hz × %d × %d, flac -d gives %v × %d × %d", p, got.SampFreq, got.NumChannels(), got.NumSamples(), w.SampFreq, w.NumChannels(), w.NumSamples())
			}
			for c := range w.Data {
				for j := range w.Data[c] {
					if got.Data[c][j] != w.Data[c][j] {
						t.Fatalf("%s: channel %d sample %d is %v, flac -d gives %v", p, c, j, got.Data[c][j], w.Data[c][j])
					}
				}
			}
		}
		if got.SampFreq != 16000 || got.NumChannels() != 1 {
			t.Errorf("%s: %v Hz, %d channels; speechocean762 is 16 kHz mono", p, got.SampFreq, got.NumChannels())
		}
	}
}
