package online

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/features"
)

// Online decoding gives the whole-utterance chain's results — fbank, the
// same online CMVN (the speaker's state carried from utterance to
// utterance), splice-feats, forward, latgen-faster-mapped — for causal
// sru, strode and odernn models: the same 1-best and the same lattice byte
// for byte, with chunks of 0.05, 0.18 (Kaldi's default) and 1 s and with
// --online=false. The 1-best of a random model is not speech, but it is
// not empty either, so the comparison is not vacuous.
func TestOnlineMatchesOffline(t *testing.T) {
	s := loadSystem(t)
	kinds := []string{am.KindSTRODE, am.KindSRU, am.KindODERNN}
	chunks := []float64{0.05, 0.18, 1}
	if testing.Short() {
		kinds, chunks = kinds[:2], chunks[1:]
	}
	for _, kind := range kinds {
		f := s.causalModel(t, kind)
		m := s.model(f)
		wantWords, wantLats := s.offline(t, f, m)
		nonEmpty := 0
		for _, w := range wantWords {
			if len(w) > 0 {
				nonEmpty++
			}
		}
		if nonEmpty == 0 {
			t.Fatalf("%s: every offline 1-best is empty: the test would compare nothing", kind)
		}
		for _, chunk := range append(chunks, -1) {
			o := DefaultOptions()
			o.ChunkLength = chunk
			if chunk < 0 {
				o.ChunkLength, o.Online = 0.18, false
			}
			var stderr bytes.Buffer
			r, lats := s.recognizer(t, m, o, &stderr)
			var st *features.OnlineCmvnState
			for _, u := range s.utts {
				var err error
				if st, err = r.DecodeUtterance(u, s.waves[u], 16000, st); err != nil {
					t.Fatal(err)
				}
			}
			r.Close()
			for _, u := range s.utts {
				if !bytes.Equal(lats[u], wantLats[u]) {
					t.Errorf("%s, chunk %v s, online %v: %s: lattice differs from the offline chain's", kind, o.ChunkLength, o.Online, u)
				}
				line := u + " " + wordString(t, s, wantWords[u])
				if !strings.Contains(stderr.String(), line+"\n") {
					t.Errorf("%s, chunk %v s: %s: final line %q missing from\n%s", kind, o.ChunkLength, u, line, stderr.String())
				}
			}
			if r.NumDone != len(s.utts) || r.Timing.NumUtts != len(s.utts) || len(r.Timing.ChunkLatencies) == 0 {
				t.Errorf("%s: %d done, %d timed, %d chunk latencies", kind, r.NumDone, r.Timing.NumUtts, len(r.Timing.ChunkLatencies))
			}
		}
	}
}

func wordString(t testing.TB, s *testSystem, words []int32) string {
	var b strings.Builder
	for _, w := range words {
		sym, ok := s.words.Symbol(int64(w))
		if !ok {
			t.Fatalf("word %d not in words.txt", w)
		}
		b.WriteString(sym + " ")
	}
	return b.String()
}

// Partial results are printed as "utt: words" lines while the audio comes
// in, each a prefix-free update that ends at the final hypothesis's words
// or before.
func TestPartialResults(t *testing.T) {
	s := loadSystem(t)
	m := s.model(s.causalModel(t, am.KindSRU))
	o := DefaultOptions()
	o.ChunkLength = 0.05
	var stderr bytes.Buffer
	r, _ := s.recognizer(t, m, o, &stderr)
	defer r.Close()
	u := s.utts[1]
	if _, err := r.DecodeUtterance(u, s.waves[u], 16000, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	partials := 0
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, u+": ") {
			t.Errorf("not a partial result line: %q", l)
		}
		partials++
	}
	if partials == 0 || !strings.HasPrefix(lines[len(lines)-1], u+" ") {
		t.Errorf("%d partial lines; last line %q", partials, lines[len(lines)-1])
	}
}

// Live audio through DecodeStream (a WAV header with placeholder sizes, as
// arecord writes to a pipe, or raw S16_LE) gives DecodeUtterance's lattice.
func TestDecodeStreamMatchesUtterance(t *testing.T) {
	s := loadSystem(t)
	m := s.model(s.causalModel(t, am.KindSTRODE))
	u := s.utts[0]
	var stderr bytes.Buffer
	r, want := s.recognizer(t, m, DefaultOptions(), &stderr)
	if _, err := r.DecodeUtterance(u, s.waves[u], 16000, nil); err != nil {
		t.Fatal(err)
	}
	r.Close()
	pcm := pcmBytes(s.waves[u])
	for _, raw := range []bool{false, true} {
		var in []byte
		var ws *features.WaveStream
		var err error
		if raw {
			in = pcm
			ws, err = features.NewRawPCMStream(bytes.NewReader(in), 16000, 1)
		} else {
			in = append(wavHeader(16000, 0xFFFFFFFF), pcm...)
			ws, err = features.OpenWaveStream(bytes.NewReader(in))
		}
		if err != nil {
			t.Fatal(err)
		}
		r, got := s.recognizer(t, m, DefaultOptions(), &stderr)
		if err := r.DecodeStream(ws, u); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if !bytes.Equal(got[u], want[u]) {
			t.Errorf("raw %v: the stream's lattice differs from DecodeUtterance's", raw)
		}
	}
}

// Bad live input: a stream that ends inside a sample decodes what came and
// then fails naming the stray byte; audio at the wrong sample rate is a
// clear error; silence only finishes (with endpointing too) with empty
// hypotheses when the model says silence, and without hanging.
func TestDecodeStreamBadInput(t *testing.T) {
	s := loadSystem(t)
	m := s.model(s.causalModel(t, am.KindSRU))
	pcm := pcmBytes(s.waves[s.utts[0]][:8000])
	var stderr bytes.Buffer
	r, lats := s.recognizer(t, m, DefaultOptions(), &stderr)
	ws, _ := features.NewRawPCMStream(bytes.NewReader(append(pcm, 7)), 16000, 1)
	err := r.DecodeStream(ws, "odd")
	if !errors.Is(err, features.ErrWave) || !strings.Contains(err.Error(), "stray byte") {
		t.Errorf("odd byte count: %v", err)
	}
	if _, ok := lats["odd"]; !ok || r.NumDone != 1 {
		t.Errorf("odd byte count: the audio before the stray byte was not decoded")
	}
	r.Close()

	r, _ = s.recognizer(t, m, DefaultOptions(), &stderr)
	ws, _ = features.NewRawPCMStream(bytes.NewReader(pcm), 8000, 1)
	if err := r.DecodeStream(ws, "rate"); !errors.Is(err, features.ErrSampleRate) || !strings.Contains(err.Error(), "expected 16000, got 8000") {
		t.Errorf("8 kHz audio for 16 kHz features: %v", err)
	}
	r.Close()

	// A model that says silence whatever it hears: output weights 0, the
	// bias on the pdfs of phone SIL (1).
	f := s.causalModel(t, am.KindSRU)
	clear(f.Model.Out.W.Data)
	for pdf := range f.Model.Out.B.Data {
		f.Model.Out.B.Data[pdf] = -10
	}
	for tid := int32(1); tid <= int32(s.tm.NumTransitionIDs()); tid++ {
		if s.tm.TransitionIDToPhone(tid) == 1 {
			f.Model.Out.B.Data[s.tm.TransitionIDToPdf(tid)] = 10
		}
	}
	silence := pcmBytes(make([]float32, 16000*12))
	for _, endpointing := range []bool{false, true} {
		o := DefaultOptions()
		o.DoEndpointing = endpointing
		o.Endpoint.SilencePhones = "1"
		stderr.Reset()
		r, lats := s.recognizer(t, s.model(f), o, &stderr)
		ws, _ := features.NewRawPCMStream(bytes.NewReader(silence), 16000, 1)
		if err := r.DecodeStream(ws, "quiet"); err != nil {
			t.Fatal(err)
		}
		r.Close()
		// Without endpointing one utterance; with it rule 1 (5 s of
		// silence) cuts the 12 s into 5 s, 5 s and the rest.
		want := 1
		if endpointing {
			want = 3
		}
		if len(lats) != want || r.NumDone != want {
			t.Errorf("endpointing %v: %d lattices, %d done, want %d", endpointing, len(lats), r.NumDone, want)
		}
		for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			key, rest, _ := strings.Cut(l, " ")
			if !strings.HasPrefix(key, "quiet") || strings.TrimSpace(rest) != "" {
				t.Errorf("endpointing %v: silence gave %q", endpointing, l)
			}
		}
	}
	// Less than one frame of audio: an empty lattice, no error.
	r, lats = s.recognizer(t, m, DefaultOptions(), &stderr)
	ws, _ = features.NewRawPCMStream(bytes.NewReader(pcm[:100]), 16000, 1)
	if err := r.DecodeStream(ws, "tiny"); err != nil || len(lats) != 1 {
		t.Errorf("50 samples: %v, %d lattices", err, len(lats))
	}
	r.Close()
}

func pcmBytes(x []float32) []byte {
	b := make([]byte, 2*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(int16(math.Round(float64(v)))))
	}
	return b
}

// wavHeader is a 16-bit mono PCM header with the given data size (0xFFFFFFFF:
// unknown, as a recorder writing to a pipe puts it).
func wavHeader(rate uint32, size uint32) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("RIFF")
	binary.Write(&b, le, size)
	b.WriteString("WAVEfmt ")
	binary.Write(&b, le, uint32(16))
	binary.Write(&b, le, uint16(1))
	binary.Write(&b, le, uint16(1))
	binary.Write(&b, le, rate)
	binary.Write(&b, le, rate*2)
	binary.Write(&b, le, uint16(2))
	binary.Write(&b, le, uint16(16))
	b.WriteString("data")
	binary.Write(&b, le, size)
	return b.Bytes()
}

// The pipeline's frames are the offline chain's (fbank, online CMVN,
// splice-feats with left and right context) bit for bit, for several
// chunk sizes; a frame with right context waits for it.
func TestFeaturePipelineMatchesOffline(t *testing.T) {
	s := loadSystem(t)
	dim := s.fbank.Dim()
	u := s.utts[2]
	off, _ := features.NewOffline(s.fbank.Clone())
	base, rows, err := off.Compute(nil, u, s.waves[u], 16000, 1)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := features.NewOnlineCmvnState(s.global, dim)
	c, _ := features.NewOnlineCmvn(features.DefaultOnlineCmvnOptions(), st, dim)
	c.Process(base, rows)
	for _, ctx := range [][2]int{{4, 0}, {2, 3}} {
		want, _ := features.SpliceFrames(base, rows, dim, ctx[0], ctx[1])
		p := am.Pipeline{RawDim: dim, CMVN: am.CMVNNone, NormMeans: true, SpliceLeft: ctx[0], SpliceRight: ctx[1]}
		fi, _, err := NewFeatureInfo(s.fbank, features.DefaultOnlineCmvnOptions(), s.global, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []int{160, 555, 2880} {
			fp, err := fi.NewFeaturePipeline(u, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []float32
			wave := s.waves[u]
			for i := 0; i < len(wave); i += chunk {
				fp.AcceptWaveform(16000, wave[i:min(i+chunk, len(wave))])
				x, n := fp.Take()
				if n > 0 && fp.next-1+ctx[1] >= fp.NumBaseFrames() {
					t.Fatalf("context %v: frame %d handed out with %d base frames", ctx, fp.next-1, fp.NumBaseFrames())
				}
				got = append(got, x[:n*fi.Dim()]...)
			}
			fp.InputFinished()
			x, n := fp.Take()
			got = append(got, x[:n*fi.Dim()]...)
			if !slices.Equal(got, want) {
				t.Fatalf("context %v, chunks of %d samples: %d values, offline %d, or values differ", ctx, chunk, len(got), len(want))
			}
		}
	}
}

// The feature checks: the model's raw dimension, and CMVN the model was
// trained with but online decoding cannot reproduce without global stats.
func TestFeatureInfoChecks(t *testing.T) {
	s := loadSystem(t)
	p := am.Pipeline{Features: "compute-mfcc-feats", RawDim: 13, CMVN: am.CMVNNone}
	if _, _, err := NewFeatureInfo(s.fbank, features.DefaultOnlineCmvnOptions(), nil, p); err == nil || !strings.Contains(err.Error(), "compute-mfcc-feats") {
		t.Errorf("13-dimensional model, 23 fbank: %v", err)
	}
	p = am.Pipeline{RawDim: 23, CMVN: am.CMVNUtterance, NormMeans: true}
	if _, _, err := NewFeatureInfo(s.fbank, features.DefaultOnlineCmvnOptions(), nil, p); err == nil {
		t.Errorf("utterance CMVN without global stats: no error")
	}
	if _, warns, err := NewFeatureInfo(s.fbank, features.DefaultOnlineCmvnOptions(), s.global, p); err != nil || len(warns) != 1 {
		t.Errorf("utterance CMVN with online CMVN: %v, warnings %q", err, warns)
	}
	if _, _, err := NewFeatureInfo(s.fbank, features.DefaultOnlineCmvnOptions(), s.global[:10], p); err == nil {
		t.Errorf("global stats of the wrong size: no error")
	}
}
