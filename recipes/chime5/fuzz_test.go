package chime5

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode"

	"github.com/strode-asr/strode/features"
)

// FuzzTranscriptReader: no input makes the reader panic or loop, and every
// entry it accepts gives a well-formed utterance id (no white space, the
// seds never touch it, one "-" before the times) and a text line without
// line breaks.
func FuzzTranscriptReader(f *testing.F) {
	f.Add([]byte(trainS03))
	f.Add([]byte(devS02))
	f.Add([]byte(`[{"start_time": "0:00:01.00", "end_time": "0:00:02.50", "words": "hi - mm-hmm", "speaker": "P05", "session_id": "S02"}]`))
	f.Add([]byte(`[{"words": "[redacted]"}, 3, null]`))
	f.Add([]byte(`[{"words": "x", "location": "kitchen", "start_time": {"original": "0:00:01.5"}, "end_time": {"original": "1:2:3.456"}, "speaker": "P1", "session_id": "S1"}] `))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := NewTranscriptReader(bytes.NewReader(data), "fuzz.json")
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatal("more entries than bytes")
			}
			e, err := tr.Next()
			if err == io.EOF {
				if _, err := tr.Next(); err != io.EOF {
					t.Fatalf("Next after EOF: %v", err)
				}
				return
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz.json: ") {
					t.Fatalf("error %q does not name the file", err)
				}
				return
			}
			if e.Index != i {
				t.Fatalf("index %d, want %d", e.Index, i)
			}
			if e.Redacted {
				continue
			}
			if e.Start < 0 || e.End < 0 {
				t.Fatalf("negative time %d %d", e.Start, e.End)
			}
			base := baseID(e)
			id, text := transcriptLine(base, e.Words)
			if id != base {
				t.Fatalf("the seds changed the id %q to %q", base, id)
			}
			if strings.IndexFunc(id, unicode.IsSpace) >= 0 || strings.Count(id, "-") != 2 || strings.Count(id, "_") != 2 {
				t.Fatalf("malformed id %q", id)
			}
			if strings.ContainsAny(text, "\n\r") || strings.HasSuffix(text, " ") || strings.HasPrefix(text, " ") {
				t.Fatalf("text %q", text)
			}
			if ch := channelID(id, "L"); strings.Index(ch, ".L-") != strings.IndexByte(ch, '-')-2 {
				t.Fatalf("channel id %q", ch)
			}
		}
	})
}

// FuzzParseTime: accepted times are in range and the same as the
// H:MM:SS.ff arithmetic on their fields.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"0:00:40.60", "1:10:05.55", "0:1:0.3800000", "0:00:05", "9999:59:59.99", "-1:00:00.00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseTime(s)
		if err != nil {
			return
		}
		if cs < 0 || cs >= 10000*3600*100 {
			t.Fatalf("ParseTime(%q) = %d out of range", s, cs)
		}
		p := strings.Split(s, ":")
		sec := strings.SplitN(p[2], ".", 2)
		frac := (sec[1] + "0")[:2]
		h, _ := digits(p[0], 1, 4)
		m, _ := digits(p[1], 1, 2)
		ss, _ := digits(sec[0], 1, 2)
		fr, _ := digits(frac, 2, 2)
		if want := ((h*60+m)*60+ss)*100 + fr; cs != want {
			t.Fatalf("ParseTime(%q) = %d, want %d", s, cs, want)
		}
	})
}

// FuzzSelectChannel: no wave header makes SelectChannel panic, and what it
// writes without error our wave reader reads as one channel.
func FuzzSelectChannel(f *testing.F) {
	w := features.WaveData{SampFreq: 8000, Data: [][]float32{{1, 2, 3}, {-1, -2, -3}}}
	var b bytes.Buffer
	w.Write(&b)
	f.Add(b.Bytes(), uint8(1))
	f.Add(extensibleWave(b.Bytes()), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, ch uint8) {
		var out bytes.Buffer
		if err := SelectChannel(bytes.NewReader(data), &out, int(ch)); err != nil {
			return
		}
		got, err := features.ReadWave(bytes.NewReader(out.Bytes()))
		if err != nil {
			// Our reader is stricter about some rates and encodings; the
			// header we wrote must still be well formed.
			if out.Len() < 44 {
				t.Fatalf("%d bytes written without an error", out.Len())
			}
			return
		}
		if got.NumChannels() != 1 {
			t.Fatalf("%d channels", got.NumChannels())
		}
	})
}
