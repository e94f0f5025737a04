package chime5

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, name, js string) ([]*Entry, error) {
	t.Helper()
	tr := NewTranscriptReader(strings.NewReader(js), name)
	var out []*Entry
	for {
		e, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
}

func TestTranscriptReader(t *testing.T) {
	es, err := readAll(t, "S03.json", trainS03)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 7 {
		t.Fatalf("%d entries, want 7", len(es))
	}
	first := es[0]
	if first.Index != 0 || first.Speaker != "P09" || first.Session != "S03" || first.Location != "NOLOCATION" ||
		first.Start != 20 || first.End != 150 || first.Redacted {
		t.Errorf("first entry %+v", first)
	}
	if !es[2].Redacted || es[2].Speaker != "" {
		t.Errorf("redacted entry %+v: should be marked and not read further", es[2])
	}
	dev, err := readAll(t, "S02.json", devS02)
	if err != nil {
		t.Fatal(err)
	}
	if dev[0].Location != "KITCHEN" || dev[1].Location != "DINING" || dev[0].Start != 60 || dev[0].End != 438 {
		t.Errorf("dev entries %+v %+v", dev[0], dev[1])
	}
	// CHiME-6 gives each time as one string.
	c6, err := readAll(t, "S02.json", `[{"start_time": "0:00:01.00", "end_time": "0:00:02.50", "words": "hi", "speaker": "P05", "session_id": "S02"}]`)
	if err != nil || len(c6) != 1 || c6[0].Start != 100 || c6[0].End != 250 {
		t.Errorf("CHiME-6 times: %v %+v", err, c6)
	}
	// A redacted entry is dropped before its other fields are read, as in
	// json2text.py: its missing times are no error.
	if es, err := readAll(t, "x.json", `[{"words": "[redacted]"}]`); err != nil || len(es) != 1 || !es[0].Redacted {
		t.Errorf("redacted without times: %v %+v", err, es)
	}
	if es, err := readAll(t, "x.json", " [ ] \n"); err != nil || len(es) != 0 {
		t.Errorf("empty array: %v %d", err, len(es))
	}
}

func TestTranscriptReaderErrors(t *testing.T) {
	const ok = `"start_time": {"original": "0:00:01.00"}, "end_time": {"original": "0:00:02.00"}, "speaker": "P05", "session_id": "S02"`
	for _, c := range []struct {
		name, js string
		want     []string // substrings of the error
	}{
		{"not an array", `{"words": "hi"}`, []string{"expected a JSON array"}},
		{"empty file", ``, []string{"expected a JSON array"}},
		{"not an object", `[1]`, []string{"utterance 0", "not a JSON object"}},
		{"null entry", `[null]`, []string{"utterance 0", "null"}},
		{"truncated", `[{"words": "hi", ` + ok + `}, {"words": "h`, []string{"utterance 1", "not a JSON object"}},
		{"unterminated", `[{"words": "hi", ` + ok + `}`, []string{"after utterance 0", "unterminated"}},
		{"trailing data", `[] []`, []string{"data after the array"}},
		{"no words", `[{` + ok + `}]`, []string{"utterance 0", `no "words"`}},
		{"words not a string", `[{"words": ["hi"], ` + ok + `}]`, []string{`"words" is an array`}},
		{"words null", `[{"words": null, ` + ok + `}]`, []string{`"words" is null`}},
		{"case matters", `[{"Words": "hi", ` + ok + `}]`, []string{`no "words"`}},
		{"no speaker", `[{"words": "hi", "start_time": {"original": "0:00:01.00"}, "end_time": {"original": "0:00:02.00"}, "session_id": "S02"}]`,
			[]string{"utterance 0", "session S02", `no "speaker"`}},
		{"bad speaker", `[{"words": "hi", "start_time": {"original": "0:00:01.00"}, "end_time": {"original": "0:00:02.00"}, "speaker": "P 05", "session_id": "S02"}]`,
			[]string{`speaker "P 05"`}},
		{"speaker with underscore", `[{"words": "hi", "start_time": {"original": "0:00:01.00"}, "end_time": {"original": "0:00:02.00"}, "speaker": "P_05", "session_id": "S02"}]`,
			[]string{`speaker "P_05"`}},
		{"bad location", `[{"words": "hi", "location": "living room", ` + ok + `}]`, []string{`location "living room"`}},
		{"empty location", `[{"words": "hi", "location": "", ` + ok + `}]`, []string{`location ""`}},
		{"malformed start", `[{"words": "a", "start_time": {"original": "0:00:01"}, "end_time": {"original": "0:00:02.00"}, "speaker": "P05", "session_id": "S02"}]`,
			[]string{"S1.json", "utterance 0", "session S02", "speaker P05", `"start_time"`, "no fraction"}},
		{"no original", `[{"words": "a", "start_time": {"P05": "0:00:01.00"}, "end_time": {"original": "0:00:02.00"}, "speaker": "P05", "session_id": "S02"}]`,
			[]string{`"start_time"`, `no "original"`}},
		{"number time", `[{"words": "a", "start_time": 1.5, "end_time": {"original": "0:00:02.00"}, "speaker": "P05", "session_id": "S02"}]`,
			[]string{`"start_time" is a number`}},
		{"second entry", `[{"words": "hi", ` + ok + `}, {"words": "hi", "start_time": {"original": "x"}, "end_time": {"original": "0:00:02.00"}, "speaker": "P06", "session_id": "S02"}]`,
			[]string{"utterance 1", "speaker P06", `"start_time"`}},
	} {
		_, err := readAll(t, "S1.json", c.js)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !errors.Is(err, ErrTranscript) || !strings.HasPrefix(err.Error(), "S1.json: ") {
			t.Errorf("%s: error %q should wrap ErrTranscript and start with the file name", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
}
