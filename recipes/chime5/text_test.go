package chime5

import (
	"errors"
	"testing"
)

func TestParseTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64 // centiseconds; -1: an error
	}{
		{"0:00:40.60", 4060},
		{"1:10:05.55", 420555}, // json2text.py's own example: 4205.55 s
		{"00:00:00.00", 0},
		{"0:1:0.38", 6038},            // one-digit minutes and seconds
		{"0:01:0.3800000", 6038},      // more digits: truncated to centiseconds
		{"0:00:57.5463750", 5754},     // (Kaldi would paste all 7 digits behind the seconds)
		{"0:00:01.999", 199},          // truncated, not rounded
		{"0:00:01.5", 150},            // one digit is tenths (Kaldi would read 15 cs)
		{"9999:59:59.99", 3599999999}, // the largest
		{"0:00:05", -1},               // no fraction: json2text.py fails with IndexError
		{"0:00:05.", -1},
		{"0:60:00.00", -1},
		{"0:00:60.00", -1},
		{"-0:00:01.00", -1},
		{"0:00:01.0a", -1},
		{"00:01.00", -1},
		{"0:0:0:01.00", -1},
		{"10000:00:00.00", -1},
		{" 0:00:01.00", -1},
		{"0:00:1.2.3", -1},
		{"", -1},
		{"0:000:01.00", -1},
	} {
		got, err := ParseTime(c.in)
		switch {
		case c.want < 0 && (err == nil || !errors.Is(err, ErrTime)):
			t.Errorf("ParseTime(%q) = %d, %v; want an ErrTime", c.in, got, err)
		case c.want >= 0 && (err != nil || got != c.want):
			t.Errorf("ParseTime(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// The expected outputs were checked against Kaldi's json2text.py and
// prepare_data.sh's seds run on the same words.
func TestNormaliseWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[noise] What were we talking about again? [inaudible 0:00:58.96]", "[noise] what were we talking about again [inaudible]"},
		{`Mm-hmm, it's  "OK" - I guess. [laughs]`, "mmhmm it's ok i guess [laughs]"},
		{"- So; yeah: TWO  thousand!", "so yeah two thousand"}, // " - " across the id's space
		{"...", ""},
		{"", ""},
		{"  \t spaced\n\x1cout  ", "spaced out"}, // Python's str.split() white space
		{"a - - b", "a - b"},                     // sed's g is non-overlapping
		{"well -", "well -"},                     // no space after: kept
		{"[inaudible]", "[inaudible]"},
		{"[inaudible 0:01:02.03-0:01:04.00]", "[inaudible]"},
		{"[Inaudible 0:01:02.03]", "[inaudible]"}, // lower-cased before the sed
		{"mm- mmm- hmm-", "mm mmm hmm"},           // "hmm-" holds "mm-"
		{"[noise] [laughs] [redacted-like]", "[noise] [laughs] [redacted-like]"},
		{"ÉCOLE", "école"},
	} {
		if got := NormaliseWords(c.in); got != c.want {
			t.Errorf("NormaliseWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIDs(t *testing.T) {
	e := &Entry{Speaker: "P05", Session: "S02", Location: "KITCHEN", Start: 4060, End: 4382}
	id := baseID(e)
	if id != "P05_S02_KITCHEN-0004060-0004382" {
		t.Errorf("baseID = %s", id)
	}
	if got := channelID(id, "L"); got != "P05_S02_KITCHEN.L-0004060-0004382" {
		t.Errorf("channelID = %s", got)
	}
	if got := recordingID("P05", "S02", "R"); got != "P05_S02.R" {
		t.Errorf("recordingID = %s", got)
	}
	for cs, want := range map[int64]string{0: "00000.00", 4060: "00040.60", 5: "00000.05", 999999: "09999.99", 12345678: "123456.78"} {
		if got := segmentTime(cs); got != want {
			t.Errorf("segmentTime(%d) = %s, want %s (awk's %%08.2f)", cs, got, want)
		}
	}
}
