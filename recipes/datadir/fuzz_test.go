package datadir

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReadTable: any bytes read as a table come back byte for byte (plus the
// final newline a file without one lacks), and the parsers built on tables
// never panic; sorting makes a table that passes the sorted check.
func FuzzReadTable(f *testing.F) {
	for _, s := range []string{
		"a-1 a\na-2 a\n", "x-r1 r1 0.00 1.00\nx-r2 r2 1 0.5\n", "", "\n\n", "a", " lead  b\tc\r\n", "k\xff\xfe v\n",
		"s u1 u2 u3\nt\n", "u1 1e308 inf\n", "a <s> #0 \u00a0\x01\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ReadTable(bytes.NewReader(data), "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		want := data
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want = append(append([]byte(nil), data...), '\n')
		}
		if got := tab.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("round trip: %q -> %q", data, got)
		}
		if tab.MissingNewline != (len(data) > 0 && data[len(data)-1] != '\n') {
			t.Fatalf("MissingNewline %v for %q", tab.MissingNewline, data)
		}
		for _, l := range tab.Lines {
			if strings.ContainsAny(l.Key, blanks+"\n") || !strings.Contains(l.Text, l.Key) {
				t.Fatalf("line %q key %q", l.Text, l.Key)
			}
			if f := l.Fields(); (len(f) == 0) != (l.Key == "") || (len(f) > 0 && f[0] != l.Key) {
				t.Fatalf("fields %q key %q", f, l.Key)
			}
			_ = l.Rest()
		}
		sorted, _ := tab.SortUnique()
		if err := sorted.CheckSortedUnique(); err != nil {
			t.Fatalf("SortUnique gave an unsorted table: %v", err)
		}
		if u, err := ParseUtt2Spk(tab); err == nil {
			s2u := u.Spk2UttTable("spk2utt")
			back, err := Spk2UttToUtt2Spk(s2u)
			if err != nil || len(back.Utts) != len(u.Utts) {
				t.Fatalf("spk2utt round trip: %v", err)
			}
			for p := 1; p <= 3 && p <= len(u.Utts); p++ {
				for _, perUtt := range []bool{false, true} {
					spks, _ := u.Speakers()
					if !perUtt && len(spks) < p {
						continue
					}
					parts, err := partition("fuzz", tab, u, p, perUtt)
					if err != nil {
						continue // an empty part is refused
					}
					n := 0
					for _, part := range parts {
						n += part.Len()
					}
					if n != tab.Len() {
						t.Fatalf("%d parts hold %d of %d lines", p, n, tab.Len())
					}
				}
			}
		}
		if segs, err := ParseSegments(tab); err == nil {
			for _, s := range segs {
				if !(s.Start >= 0 && s.End > s.Start) {
					t.Fatalf("accepted segment %+v", s)
				}
			}
		}
		_ = Recordings(tab)
		_ = CheckText(tab, false)
		var out bytes.Buffer
		_ = Utt2SpkToSpk2Utt(bytes.NewReader(data), &out, "fuzz")
	})
}
