package fst

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// ErrSymbol is wrapped by symbol-table errors.
var ErrSymbol = errors.New("symbol table")

// SymbolTable maps symbols to integer keys in both directions, as OpenFst's
// SymbolTable and Kaldi's words.txt / phones.txt ("symbol key" per line).
type SymbolTable struct {
	Name    string
	entries []SymbolEntry
	byKey   map[int64]int
	bySym   map[string]int
}

// SymbolEntry is one (symbol, key) pair.
type SymbolEntry struct {
	Symbol string
	Key    int64
}

// NewSymbolTable returns an empty table.
func NewSymbolTable(name string) *SymbolTable {
	return &SymbolTable{Name: name, byKey: map[int64]int{}, bySym: map[string]int{}}
}

// Add adds symbol with key; a symbol or key already present is an error.
func (t *SymbolTable) Add(sym string, key int64) error {
	if _, ok := t.bySym[sym]; ok {
		return fmt.Errorf("%w: duplicate symbol %q", ErrSymbol, sym)
	}
	if _, ok := t.byKey[key]; ok {
		return fmt.Errorf("%w: duplicate key %d", ErrSymbol, key)
	}
	t.bySym[sym] = len(t.entries)
	t.byKey[key] = len(t.entries)
	t.entries = append(t.entries, SymbolEntry{sym, key})
	return nil
}

// Len is the number of entries.
func (t *SymbolTable) Len() int { return len(t.entries) }

// Entries returns the entries in insertion order.
func (t *SymbolTable) Entries() []SymbolEntry { return t.entries }

// Key returns the key of sym.
func (t *SymbolTable) Key(sym string) (int64, bool) {
	i, ok := t.bySym[sym]
	if !ok {
		return -1, false
	}
	return t.entries[i].Key, true
}

// Symbol returns the symbol of key.
func (t *SymbolTable) Symbol(key int64) (string, bool) {
	i, ok := t.byKey[key]
	if !ok {
		return "", false
	}
	return t.entries[i].Symbol, true
}

// AvailableKey is one more than the largest key (OpenFst's available_key).
func (t *SymbolTable) AvailableKey() int64 {
	var k int64
	for _, e := range t.entries {
		if e.Key >= k {
			k = e.Key + 1
		}
	}
	return k
}

// ReadSymbolTableText reads "symbol key" lines (whitespace separated), as
// OpenFst's SymbolTable::ReadText; name labels errors with line numbers.
func ReadSymbolTableText(r io.Reader, name string) (*SymbolTable, error) {
	t := NewSymbolTable(name)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%w %s line %d: want \"symbol key\", got %q", ErrSymbol, name, line, sc.Text())
		}
		key, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil || key < 0 {
			return nil, fmt.Errorf("%w %s line %d: bad key %q", ErrSymbol, name, line, fields[1])
		}
		if err := t.Add(fields[0], key); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrSymbol, name, err)
	}
	return t, nil
}

// ReadSymbolTableFile reads a words.txt / phones.txt file.
func ReadSymbolTableFile(path string) (*SymbolTable, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ReadSymbolTableText(fh, path)
}

// WriteText writes "symbol<TAB>key" lines, as fstsymbols / OpenFst do.
func (t *SymbolTable) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, e := range t.entries {
		fmt.Fprintf(bw, "%s\t%d\n", e.Symbol, e.Key)
	}
	return bw.Flush()
}
