package datadir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// Line is one line of a data-directory file.
type Line struct {
	Key  string // the first field ("" for a blank line)
	Text string // the whole line, without its newline
	No   int    // 1-based line number
}

// Fields splits the line on white space, as Perl's split and awk do.
func (l Line) Fields() []string { return fields(l.Text) }

// Rest is the line after its key and the white space that follows it.
func (l Line) Rest() string {
	s := strings.TrimLeft(l.Text, blanks)
	s = s[len(l.Key):]
	return strings.TrimLeft(s, blanks)
}

// Table is a data-directory file: its lines in file order.
type Table struct {
	Name  string // the file's path, for messages
	Lines []Line
	// MissingNewline: the last line does not end in '\n' (Kaldi's scripts
	// reject such files: "has invalid newline").
	MissingNewline bool
}

// blanks are the characters that separate fields (C's isspace but '\n').
const blanks = " \t\r\f\v"

func isBlank(c byte) bool { return strings.IndexByte(blanks, c) >= 0 }

// fields splits s on runs of blanks, ignoring leading and trailing ones.
func fields(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isBlank(s[j]) {
			j++
		}
		if j > i {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

// firstField is fields(s)[0], or "".
func firstField(s string) string {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isBlank(s[j]) {
		j++
	}
	return s[i:j]
}

// ReadTable reads a data-directory file; name is used in messages.
func ReadTable(r io.Reader, name string) (*Table, error) {
	t := &Table{Name: name}
	br := bufio.NewReader(r)
	for no := 1; ; no++ {
		s, err := br.ReadString('\n')
		if len(s) > 0 {
			text := strings.TrimSuffix(s, "\n")
			if len(text) == len(s) {
				t.MissingNewline = true
			}
			t.Lines = append(t.Lines, Line{Key: firstField(text), Text: text, No: no})
		}
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
}

// ReadTableFile reads the file at path. A missing file is an error
// satisfying errors.Is(err, os.ErrNotExist).
func ReadTableFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTable(f, path)
}

// Len is the number of lines.
func (t *Table) Len() int { return len(t.Lines) }

// Keys lists the keys in file order.
func (t *Table) Keys() []string {
	out := make([]string, len(t.Lines))
	for i, l := range t.Lines {
		out[i] = l.Key
	}
	return out
}

// KeySet is the set of keys.
func (t *Table) KeySet() map[string]bool {
	m := make(map[string]bool, len(t.Lines))
	for _, l := range t.Lines {
		m[l.Key] = true
	}
	return m
}

// Filter keeps the lines whose key is in keep (utils/filter_scp.pl),
// in file order.
func (t *Table) Filter(keep map[string]bool) *Table {
	out := &Table{Name: t.Name}
	for _, l := range t.Lines {
		if keep[l.Key] {
			out.Lines = append(out.Lines, l)
		}
	}
	return out
}

// Exclude keeps the lines whose key is not in drop (utils/filter_scp.pl
// --exclude), in file order.
func (t *Table) Exclude(drop map[string]bool) *Table {
	out := &Table{Name: t.Name}
	for _, l := range t.Lines {
		if !drop[l.Key] {
			out.Lines = append(out.Lines, l)
		}
	}
	return out
}

// SortUnique sorts the lines by key in C order, keeping the first line of
// each key (LC_ALL=C sort -k1,1 -u), and reports whether anything changed.
func (t *Table) SortUnique() (*Table, bool) {
	lines := append([]Line(nil), t.Lines...)
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Key < lines[j].Key })
	out := &Table{Name: t.Name}
	for i, l := range lines {
		if i > 0 && l.Key == lines[i-1].Key {
			continue
		}
		out.Lines = append(out.Lines, l)
	}
	changed := len(out.Lines) != len(t.Lines) || t.MissingNewline
	for i := 0; !changed && i < len(out.Lines); i++ {
		changed = out.Lines[i].Text != t.Lines[i].Text
	}
	return out, changed
}

// Bytes is the file's content: each line and a newline.
func (t *Table) Bytes() []byte {
	var b bytes.Buffer
	for _, l := range t.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// WriteFile writes the table to path atomically.
func (t *Table) WriteFile(path string) error { return atomicfile.WriteBytes(path, t.Bytes()) }

// ErrNotSorted is the error of CheckSortedUnique.
var ErrNotSorted = errors.New("is not sorted or has duplicates")

// CheckSortedUnique checks what validate_data_dir.sh's check_sorted_and_uniq
// does: the file ends in a newline and its keys are strictly increasing in
// C order. The error names the file, the line and the keys.
func (t *Table) CheckSortedUnique() error {
	if t.MissingNewline {
		return fmt.Errorf("file %s has invalid newline: line %d does not end in a newline", t.Name, len(t.Lines))
	}
	for i := 1; i < len(t.Lines); i++ {
		a, b := t.Lines[i-1], t.Lines[i]
		if b.Key == a.Key {
			return fmt.Errorf("file %s %w: line %d repeats key %q of line %d", t.Name, ErrNotSorted, b.No, b.Key, a.No)
		}
		if b.Key < a.Key {
			return fmt.Errorf("file %s %w: line %d key %q sorts before line %d key %q (C order; sort with LC_ALL=C sort)", t.Name, ErrNotSorted, b.No, b.Key, a.No, a.Key)
		}
	}
	return nil
}

// path joins a data directory and a file name.
func path(dir, name string) string { return filepath.Join(dir, name) }

// exists reports whether a regular file exists.
func exists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
