package chime5

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/kaldiio"
)

// segmentLines reads a segments file as key -> (recording, start, end).
type segment struct {
	recording  string
	start, end float64
}

func readSegments(t *testing.T, path string) (keys []string, segs map[string]segment) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	segs = map[string]segment{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Fields(sc.Text())
		if len(fl) != 4 {
			t.Fatalf("segments line %q: want 4 fields (validate_data_dir.sh)", sc.Text())
		}
		s, _ := strconv.ParseFloat(fl[2], 64)
		e, _ := strconv.ParseFloat(fl[3], 64)
		keys = append(keys, fl[0])
		segs[fl[0]] = segment{fl[1], s, e}
	}
	return keys, segs
}

// The data directory feeds our feature tools as Kaldi's make_fbank.sh feeds
// Kaldi's: extract-segments over wav.scp (whose lines run the channel pipe)
// and compute-fbank-feats, and every segment gets features of the right
// length, computed from the channel its recording id names.
func TestDataDirToFbank(t *testing.T) {
	corpus := buildCorpus(t)
	for _, channels := range []string{"L", "L,R"} {
		o := DefaultOptions()
		o.Channels, o.WavPipe, o.Strode = channels, "strode", os.Args[0] // TestMain plays wav-select-channel
		audio, transcripts, _ := SetDirs(corpus, "train")
		dir := filepath.Join(t.TempDir(), "data")
		if _, err := Prepare(o, audio, transcripts, dir, &testLog{}); err != nil {
			t.Fatal(err)
		}
		tmp := t.TempDir()
		segArk := filepath.Join(tmp, "segs.ark")
		log := &testLog{}
		done, lines, err := features.ExtractSegments(features.DefaultExtractSegmentsOptions(),
			"scp,p:"+filepath.Join(dir, "wav.scp"), filepath.Join(dir, "segments"), "ark:"+segArk, log)
		if err != nil || done != lines || len(log.warns) > 0 {
			t.Fatalf("%s: extract-segments: %d of %d, %v, warnings %q", channels, done, lines, err, log.warns)
		}
		keys, segs := readSegments(t, filepath.Join(dir, "segments"))

		// The waves are the channel the recording id names.
		sr, err := kaldiio.OpenSequentialReader("ark:"+segArk, features.WaveCodec)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ; sr.Next(); n++ {
			w := sr.Value()
			sg := segs[sr.Key()]
			spk := strings.SplitN(sg.recording, "_", 2)[0]
			ch := 0
			if strings.HasSuffix(sg.recording, ".R") {
				ch = 1
			}
			num, _ := strconv.Atoi(strings.TrimPrefix(spk, "P"))
			ref := binauralSamples(num)[ch]
			first := int(sg.start * testRate)
			if w.NumChannels() != 1 || w.NumSamples() != int((sg.end-sg.start)*testRate+0.5) {
				t.Errorf("%s: %d channels, %d samples", sr.Key(), w.NumChannels(), w.NumSamples())
				continue
			}
			for i, v := range w.Data[0] {
				if v != ref[first+i] {
					t.Errorf("%s: sample %d = %v, want %v (channel %d of %s)", sr.Key(), i, v, ref[first+i], ch, sg.recording)
					break
				}
			}
		}
		if err := sr.Close(); err != nil || n != len(keys) {
			t.Fatalf("%s: %d segments read, want %d: %v", channels, n, len(keys), err)
		}

		fb, err := features.NewFbank(features.DefaultFbankOptions())
		if err != nil {
			t.Fatal(err)
		}
		featArk := filepath.Join(tmp, "feats.ark")
		if done, total, err := features.ComputeFeats(fb, features.DefaultComputeFeatsOptions(), "ark:"+segArk, "ark:"+featArk, log); err != nil || done != total || done != len(keys) {
			t.Fatalf("%s: compute-fbank-feats: %d of %d, %v", channels, done, total, err)
		}
		fr, err := kaldiio.OpenSequentialReader("ark:"+featArk, kaldiio.MatrixCodec)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for fr.Next() {
			m := fr.Value()
			sg := segs[fr.Key()]
			samples := int((sg.end-sg.start)*testRate + 0.5)
			if want := (samples-400)/160 + 1; m.Rows != want || m.Cols != 23 {
				t.Errorf("%s: %dx%d features, want %dx23 (snip-edges, 25 ms / 10 ms)", fr.Key(), m.Rows, m.Cols, want)
			}
			got = append(got, fr.Key())
		}
		if err := fr.Close(); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != strings.Join(keys, " ") {
			t.Errorf("%s: features for %q, want %q", channels, got, keys)
		}
	}
}
