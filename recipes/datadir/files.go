package datadir

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Utt2Spk is utt2spk: utterance -> speaker, in file order.
type Utt2Spk struct {
	Utts, Spks []string
	Lines      []int // line numbers
}

// ParseUtt2Spk reads utt2spk lines: exactly two fields each.
func ParseUtt2Spk(t *Table) (*Utt2Spk, error) {
	u := &Utt2Spk{}
	for _, l := range t.Lines {
		f := l.Fields()
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: bad line %q: expected <utterance-id> <speaker-id>, got %d fields", t.Name, l.No, l.Text, len(f))
		}
		u.Utts = append(u.Utts, f[0])
		u.Spks = append(u.Spks, f[1])
		u.Lines = append(u.Lines, l.No)
	}
	return u, nil
}

// Speakers lists the speakers in order of first appearance, with their
// utterances in file order (utils/utt2spk_to_spk2utt.pl).
func (u *Utt2Spk) Speakers() (spks []string, utts map[string][]string) {
	utts = map[string][]string{}
	for i, s := range u.Spks {
		if _, ok := utts[s]; !ok {
			spks = append(spks, s)
		}
		utts[s] = append(utts[s], u.Utts[i])
	}
	return spks, utts
}

// Spk2UttTable is the spk2utt file made from utt2spk.
func (u *Utt2Spk) Spk2UttTable(name string) *Table {
	spks, utts := u.Speakers()
	t := &Table{Name: name}
	for i, s := range spks {
		t.Lines = append(t.Lines, Line{Key: s, Text: s + " " + strings.Join(utts[s], " "), No: i + 1})
	}
	return t
}

// Table is the utt2spk file ("utt spk" lines).
func (u *Utt2Spk) Table(name string) *Table {
	t := &Table{Name: name}
	for i := range u.Utts {
		t.Lines = append(t.Lines, Line{Key: u.Utts[i], Text: u.Utts[i] + " " + u.Spks[i], No: i + 1})
	}
	return t
}

// Spk2UttToUtt2Spk expands spk2utt lines (utils/spk2utt_to_utt2spk.pl): each
// line needs a speaker and at least one utterance.
func Spk2UttToUtt2Spk(t *Table) (*Utt2Spk, error) {
	u := &Utt2Spk{}
	for _, l := range t.Lines {
		f := l.Fields()
		if len(f) < 2 {
			return nil, fmt.Errorf("%s:%d: bad line %q: expected <speaker-id> <utterance-id> ...", t.Name, l.No, l.Text)
		}
		for _, utt := range f[1:] {
			u.Utts = append(u.Utts, utt)
			u.Spks = append(u.Spks, f[0])
			u.Lines = append(u.Lines, l.No)
		}
	}
	return u, nil
}

// Utt2SpkToSpk2Utt is utils/utt2spk_to_spk2utt.pl: it reads utt2spk lines
// from r and writes "spk utt1 utt2 ..." lines, speakers in order of first
// appearance. name is used in messages.
func Utt2SpkToSpk2Utt(r io.Reader, w io.Writer, name string) error {
	t, err := ReadTable(r, name)
	if err != nil {
		return err
	}
	for _, l := range t.Lines {
		if len(l.Fields()) != 2 {
			return fmt.Errorf("Invalid line in utt2spk file %s:%d: %q", name, l.No, l.Text)
		}
	}
	u, _ := ParseUtt2Spk(t)
	_, err = w.Write(u.Spk2UttTable("spk2utt").Bytes())
	return err
}

// Segment is one line of a segments file.
type Segment struct {
	Utt, Reco  string
	Start, End float64 // seconds; End -1 means "to the end of the recording" (Kaldi's extract-segments)
	Line       int
}

// ParseSegments reads segments lines: <utterance-id> <recording-id>
// <start> <end>, times in seconds with 0 <= start < end (validate_data_dir.sh
// wants NF == 4 and end > start).
func ParseSegments(t *Table) ([]Segment, error) {
	var out []Segment
	for _, l := range t.Lines {
		f := l.Fields()
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: Bad line in segments file %q: expected <utterance-id> <recording-id> <start> <end>, got %d fields", t.Name, l.No, l.Text, len(f))
		}
		start, err1 := parseTime(f[2])
		end, err2 := parseTime(f[3])
		switch {
		case err1 != nil || err2 != nil:
			return nil, fmt.Errorf("%s:%d: Bad line in segments file %q: start and end must be numbers of seconds", t.Name, l.No, l.Text)
		case start < 0:
			return nil, fmt.Errorf("%s:%d: Bad line in segments file %q: negative start time", t.Name, l.No, l.Text)
		case end <= start:
			return nil, fmt.Errorf("%s:%d: Bad line in segments file %q: end time %s is not after start time %s", t.Name, l.No, l.Text, f[3], f[2])
		}
		out = append(out, Segment{Utt: f[0], Reco: f[1], Start: start, End: end, Line: l.No})
	}
	return out, nil
}

func parseTime(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		err = fmt.Errorf("not a finite number")
	}
	return v, err
}

// Recordings lists the recording ids of segments, sorted and unique (awk
// '{print $2}' segments | sort | uniq).
func Recordings(segs *Table) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range segs.Lines {
		f := l.Fields()
		if len(f) >= 2 && !seen[f[1]] {
			seen[f[1]] = true
			out = append(out, f[1])
		}
	}
	sortStrings(out)
	return out
}
