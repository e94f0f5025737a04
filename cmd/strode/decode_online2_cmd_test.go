package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/shareddata"
)

// onlineFixture writes what the online command needs on the four 16 kHz
// kaldi-golden utterances with kaldi-mini's graph: wav.scp, spk2utt (one
// speaker), an fbank config, a random causal strode model on fbank with 4
// frames of left context (62 pdfs), global CMVN stats of the utterances.
func onlineFixture(t *testing.T, bidirectional bool) (dir, mini string) {
	t.Helper()
	golden := shareddata.Dir(t, "kaldi-golden")
	mini = shareddata.Dir(t, "kaldi-mini")
	dir = t.TempDir()
	var scp strings.Builder
	utts := []string{"s_utt1", "s_utt2", "s_utt3", "s_utt4"}
	for _, u := range utts {
		scp.WriteString(u + " " + filepath.Join(golden, "wav", u+".wav") + "\n")
	}
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("wav.scp", scp.String())
	write("spk2utt", "s "+strings.Join(utts, " ")+"\n")
	write("fbank.conf", "--dither=0\n")
	o, _ := am.PresetFor("small", am.KindSTRODE)
	o.SRU = sru.Options{Hidden: 24, Layers: 2, Activation: sru.Identity, Bidirectional: bidirectional}
	o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 6, 6, 6, 6
	p := am.Pipeline{Features: "compute-fbank-feats --dither=0", RawDim: 23, CMVN: am.CMVNNone, NormMeans: true, SpliceLeft: 4}
	o.InputDim, o.NumPdfs = p.InputDim(), 62
	m, err := am.New(o, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Out.W.Data {
		m.Out.W.Data[i] *= 4
	}
	if err := (&am.File{Model: m, Pipeline: p}).Save(filepath.Join(dir, "final.am")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"compute-fbank-feats", "--config=" + filepath.Join(dir, "fbank.conf"), "scp:" + filepath.Join(dir, "wav.scp"), "ark:" + filepath.Join(dir, "fbank.ark")},
		{"compute-cmvn-stats", "ark:" + filepath.Join(dir, "fbank.ark"), filepath.Join(dir, "global.stats")},
	} {
		if _, errs, code := runScoringCmd(t, "", args...); code != 0 {
			t.Fatalf("%s: exit %d\n%s", args[0], code, errs)
		}
	}
	return dir, mini
}

// The command decodes as the whole-utterance chain of commands does —
// compute-fbank-feats | apply-cmvn-online --spk2utt | forward --no-softmax
// with priors | latgen-faster-mapped — lattice archives byte for byte and
// the same words on stderr; --raw-pcm on stdin gives an utterance's words.
func TestOnline2Command(t *testing.T) {
	dir, mini := onlineFixture(t, false)
	j := func(n string) string { return filepath.Join(dir, n) }
	mdl, hclg := filepath.Join(mini, "exp/mono/final.mdl"), filepath.Join(mini, "exp/mono/graph/HCLG.fst")
	words, counts := filepath.Join(mini, "exp/mono/graph/words.txt"), filepath.Join(mini, "golden/pdf_counts.txt")
	steps := [][]string{
		{"apply-cmvn-online", "--spk2utt=ark:" + j("spk2utt"), j("global.stats"), "ark:" + j("fbank.ark"), "ark:" + j("cmvn.ark")},
		{"forward", "--no-softmax=true", "--class-frame-counts=" + counts, j("final.am"), "ark:" + j("cmvn.ark"), "ark:" + j("ll.ark")},
		{"latgen-faster-mapped", "--acoustic-scale=0.1", "--word-symbol-table=" + words, mdl, hclg, "ark:" + j("ll.ark"), "ark:" + j("offline.lat")},
	}
	var offlineErr string
	for _, args := range steps {
		_, errs, code := runScoringCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", args[0], code, errs)
		}
		offlineErr = errs
	}
	common := []string{"online2-wav-latgen-faster", "--transition-model=" + mdl, "--class-frame-counts=" + counts,
		"--feature-type=fbank", "--fbank-config=" + j("fbank.conf"), "--global-cmvn-stats=" + j("global.stats"),
		"--word-symbol-table=" + words}
	args := append(append([]string{}, common...), "--chunk-length=0.1", j("final.am"), hclg, "ark:"+j("spk2utt"), "scp:"+j("wav.scp"), "ark:"+j("online.lat"))
	_, errs, code := runScoringCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("online2: exit %d\n%s", code, errs)
	}
	off, _ := os.ReadFile(j("offline.lat"))
	on, _ := os.ReadFile(j("online.lat"))
	if len(off) == 0 || !bytes.Equal(on, off) {
		t.Errorf("online lattices (%d bytes) differ from forward | latgen-faster-mapped's (%d bytes)", len(on), len(off))
	}
	finals := map[string]string{}
	for _, l := range strings.Split(offlineErr, "\n") {
		if strings.HasPrefix(l, "s_utt") {
			finals[strings.Fields(l)[0]] = l
			if !strings.Contains(errs, l+"\n") {
				t.Errorf("online stderr lacks latgen's line %q:\n%s", l, errs)
			}
		}
	}
	if len(finals) != 4 || !strings.Contains(errs, "look-ahead 0 frames; algorithmic latency 25 ms") || !strings.Contains(errs, "per-chunk latency median") {
		t.Errorf("stderr:\n%s", errs)
	}

	// Live: raw S16_LE of s_utt2 on stdin, named by spk2utt.
	w, err := features.ReadWave(mustOpen(t, filepath.Join(shareddata.Dir(t, "kaldi-golden"), "wav", "s_utt2.wav")))
	if err != nil {
		t.Fatal(err)
	}
	pcm := make([]byte, 2*len(w.Data[0]))
	for i, v := range w.Data[0] {
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(math.Round(float64(v)))))
	}
	args = append(append([]string{}, common...), "--raw-pcm", "--sample-rate=16000", j("final.am"), hclg, "ark:echo s s_utt2 |", "-", "ark:/dev/null")
	_, errs, code = runScoringCmd(t, string(pcm), args...)
	if code != 0 || !strings.Contains(errs, finals["s_utt2"]+"\n") {
		t.Errorf("--raw-pcm: exit %d, want the line %q in\n%s", code, finals["s_utt2"], errs)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// Usage errors get clear messages: no transition model, --raw-pcm without
// stdin, a bidirectional model, a wrong sample rate on stdin, a stream
// that ends inside a sample.
func TestOnline2CommandErrors(t *testing.T) {
	dir, mini := onlineFixture(t, false)
	j := func(n string) string { return filepath.Join(dir, n) }
	mdl, hclg := filepath.Join(mini, "exp/mono/final.mdl"), filepath.Join(mini, "exp/mono/graph/HCLG.fst")
	base := []string{"online2-wav-latgen-faster", "--feature-type=fbank", "--fbank-config=" + j("fbank.conf"), "--global-cmvn-stats=" + j("global.stats")}
	pos := []string{j("final.am"), hclg, "ark:" + j("spk2utt"), "scp:" + j("wav.scp"), "ark:/dev/null"}
	live := []string{j("final.am"), hclg, "ark:echo mic mic |", "-", "ark:/dev/null"}
	pcm := make([]byte, 3201)
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"no transition model", append(append([]string{}, base...), pos...), "", "--transition-model is required"},
		{"raw pcm from a table", append(append([]string{}, base...), append([]string{"--transition-model=" + mdl, "--raw-pcm"}, pos...)...), "", "--raw-pcm reads stdin"},
		{"mfcc for an fbank model", append([]string{"online2-wav-latgen-faster", "--transition-model=" + mdl}, pos...), "", "compute-fbank-feats"},
		{"8 kHz stdin", append(append([]string{}, base...), append([]string{"--transition-model=" + mdl, "--raw-pcm", "--sample-rate=8000"}, live...)...), string(pcm[:3200]), "expected 16000, got 8000"},
		{"odd byte count", append(append([]string{}, base...), append([]string{"--transition-model=" + mdl, "--raw-pcm"}, live...)...), string(pcm), "stray byte"},
	} {
		_, errs, code := runScoringCmd(t, tc.stdin, tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, want %q in\n%s", tc.name, code, tc.want, errs)
		}
	}
	bdir, _ := onlineFixture(t, true)
	args := append(append([]string{}, base...), "--transition-model="+mdl, filepath.Join(bdir, "final.am"), hclg, "ark:"+j("spk2utt"), "scp:"+j("wav.scp"), "ark:/dev/null")
	if _, errs, code := runScoringCmd(t, "", args...); code == 0 || !strings.Contains(errs, "unidirectional") {
		t.Errorf("bidirectional model: exit %d\n%s", code, errs)
	}
}
