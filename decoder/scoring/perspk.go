package scoring

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Utt2Spk is a data dir's utt2spk map, read for wer_per_spk_details.
type Utt2Spk struct {
	Spk map[string]string // utterance → speaker
	// MaxLen is the longest speaker label in bytes: the script reads
	// utt2spk without a UTF-8 layer, so that is the length it widens the
	// speaker column to.
	MaxLen int
}

// ReadUtt2Spk reads "utt spk" lines from r (named name in errors). A line
// that is not two fields, or an utterance listed twice, is an error naming
// the file and line.
func ReadUtt2Spk(r io.Reader, name string) (*Utt2Spk, error) {
	u := &Utt2Spk{Spk: make(map[string]string)}
	s := newLineScanner(r, name)
	for s.scan() {
		f := strings.Fields(s.text)
		if len(f) != 2 {
			return nil, s.errorf(fmt.Errorf("%w: want \"utterance speaker\", got %q", ErrDetailsFormat, s.text))
		}
		if _, dup := u.Spk[f[0]]; dup {
			return nil, s.errorf(fmt.Errorf("%w: utterance %s listed twice", ErrDetailsFormat, f[0]))
		}
		u.Spk[f[0]] = f[1]
		u.MaxLen = max(u.MaxLen, len(f[1]))
	}
	return u, s.err
}

// PerSpkOptions are wer_per_spk_details.pl's column widths. (The script
// declares --spk-field-width and --field-width without a value, so there
// they can only set a width of 1; here they take the number they name.)
type PerSpkOptions struct {
	SpkFieldWidth int // the speaker column; widened to the longest speaker in utt2spk
	FieldWidth    int // every other column
}

// DefaultPerSpkOptions are the script's widths, 15 and 10.
func DefaultPerSpkOptions() PerSpkOptions { return PerSpkOptions{SpkFieldWidth: 15, FieldWidth: 10} }

// spkStats are one speaker's sums over its utterances.
type spkStats struct {
	OpCounts
	sent, sentErr int
}

// WerPerSpkDetails is utils/scoring/wer_per_spk_details.pl: it sums the
// "#csid" lines of per_utt (read from r, named name in errors; other lines
// are ignored) per speaker of utt2spk and writes, for every speaker in byte
// order and then "SUM", a "raw" line of counts and a "sys" line of
// percentages of the reference words (the sentence error rate of the
// sentences). A speaker, or the sum, with no reference words gets no "sys"
// line, as in the script. An utterance utt2spk does not list is an error
// (the script would count it under an empty speaker name).
func WerPerSpkDetails(r io.Reader, name string, u *Utt2Spk, w io.Writer, o PerSpkOptions) error {
	stats := make(map[string]*spkStats)
	s := newLineScanner(r, name)
	for s.scan() {
		f := strings.Fields(s.text)
		if len(f) < 2 || f[1] != "#csid" {
			continue
		}
		if len(f) != 6 {
			return s.errorf(fmt.Errorf("%w: incompatible entry %q (want \"utterance #csid C S I D\")", ErrDetailsFormat, s.text))
		}
		var n [4]int
		for i := range n {
			v, err := strconv.Atoi(f[2+i])
			if err != nil || v < 0 {
				return s.errorf(fmt.Errorf("%w: count %q of utterance %s is not a non-negative integer", ErrDetailsFormat, f[2+i], f[0]))
			}
			n[i] = v
		}
		spk, ok := u.Spk[f[0]]
		if !ok {
			return s.errorf(fmt.Errorf("%w: utterance %s is not in utt2spk", ErrDetailsFormat, f[0]))
		}
		st := stats[spk]
		if st == nil {
			st = &spkStats{}
			stats[spk] = st
		}
		c := OpCounts{C: n[0], S: n[1], I: n[2], D: n[3]}
		st.OpCounts = st.OpCounts.Add(c)
		st.sent++
		if c.S+c.I+c.D != 0 {
			st.sentErr++
		}
	}
	if s.err != nil {
		return s.err
	}
	spkWidth := max(o.SpkFieldWidth, u.MaxLen)
	fw := o.FieldWidth
	var b strings.Builder
	// The speaker column is padded by bytes, as the script pads the labels
	// it read as bytes (it then writes a non-ASCII label double-encoded;
	// here it is written as it is).
	pad := func(s string) string { return s + strings.Repeat(" ", max(0, spkWidth-len(s))) }
	fmt.Fprintf(&b, "%s id  %*s %*s %*s %*s %*s %*s %*s %*s\n", pad("SPEAKER"),
		fw, "#SENT", fw, "#WORD", fw, "Corr", fw, "Sub", fw, "Ins", fw, "Del", fw, "Err", fw, "S.Err")
	row := func(spk string, st spkStats) {
		words := st.C + st.S + st.D
		errs := st.S + st.D + st.I
		fmt.Fprintf(&b, "%s raw %*d %*d %*d %*d %*d %*d %*d %*d\n", pad(spk),
			fw, st.sent, fw, words, fw, st.C, fw, st.S, fw, st.I, fw, st.D, fw, errs, fw, st.sentErr)
		if words == 0 {
			return
		}
		// The script's arithmetic: 100 * count / words in double precision.
		pc := func(n int) float64 { return float64(100*n) / float64(words) }
		fmt.Fprintf(&b, "%s sys %*d %*d %*.2f %*.2f %*.2f %*.2f %*.2f %*.2f\n", pad(spk),
			fw, st.sent, fw, words, fw, pc(st.C), fw, pc(st.S), fw, pc(st.I), fw, pc(st.D), fw, pc(errs),
			fw, float64(100*st.sentErr)/float64(st.sent))
	}
	spks := make([]string, 0, len(stats))
	for spk := range stats {
		spks = append(spks, spk)
	}
	sort.Strings(spks)
	var sum spkStats
	for _, spk := range spks {
		st := *stats[spk]
		row(spk, st)
		sum.OpCounts = sum.OpCounts.Add(st.OpCounts)
		sum.sent += st.sent
		sum.sentErr += st.sentErr
	}
	row("SUM", sum)
	bw := bufio.NewWriter(w)
	bw.WriteString(b.String())
	return bw.Flush()
}
