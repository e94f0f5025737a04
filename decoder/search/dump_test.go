package search

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/decoder/lattice"
)

// TestDumpLattices writes the lattices of kaldi-mini's test utterances
// (lattice beams 16, 8 and 4) and of benchmark (b)'s utterances, determinized
// and raw, in Kaldi's binary archive format to the directory named by
// STRODE_DUMP_LATTICES, so that two builds can be compared byte for byte
// with cmp (a change of the search's memory layout or pruning schedule must
// not change them). Skipped when the variable is unset.
func TestDumpLattices(t *testing.T) {
	dir := os.Getenv("STRODE_DUMP_LATTICES")
	if dir == "" {
		t.Skip("set STRODE_DUMP_LATTICES=DIR to write the comparison lattices")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type job struct {
		name string
		g    *Graph
		decs []Decodable
		keys []string
		beam float64
	}
	var jobs []job
	s := loadMini(t)
	var mdecs []Decodable
	var mkeys []string
	for _, u := range s.utts {
		mdecs = append(mdecs, s.decodable(t, u, 0.1))
		mkeys = append(mkeys, u.key)
	}
	for _, beam := range []float64{16, 8, 4} {
		jobs = append(jobs, job{fmt.Sprintf("mini-lb%g", beam), s.g, mdecs, mkeys, beam})
	}
	bb := buildBigramBench(t, 3, 30, 6)
	var bdecs []Decodable
	var bkeys []string
	for i, m := range bb.utts {
		dec, err := NewMatrixMapped(m, bb.frames[i], bb.tm.NumPdfs(), bb.tm.TransitionIDToPdfArray(), bb.tm.NumPdfs(), 0.1)
		if err != nil {
			t.Fatal(err)
		}
		bdecs = append(bdecs, dec)
		bkeys = append(bkeys, fmt.Sprintf("bigram%d", i))
	}
	jobs = append(jobs, job{"bigram", bb.g, bdecs, bkeys, 10})
	for _, j := range jobs {
		for _, det := range []bool{true, false} {
			opts := DefaultOptions()
			opts.LatticeBeam = j.beam
			opts.DeterminizeLattice = det
			d := NewLatticeDecoder(j.g, opts)
			name := j.name + "-raw.lat"
			if det {
				name = j.name + "-det.lat"
			}
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			w := bufio.NewWriter(f)
			for i, dec := range j.decs {
				res, err := d.DecodeUtterance(dec, 0.1, true, nil)
				if err != nil {
					t.Fatalf("%s %s: %v", name, j.keys[i], err)
				}
				if err := lattice.WriteEntry(w, j.keys[i], true, res.Compact, res.Raw); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
