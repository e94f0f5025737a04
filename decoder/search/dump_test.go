package search

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/lattice"
)

// latticeHashes holds the SHA-256 of every lattice file TestLatticeBytes
// writes, recorded on amd64 at a build whose lattices were compared byte for
// byte with the ones before the search's memory-layout and pruning-schedule
// changes (a4c16b7), which match Kaldi's (TestGmmDecodeOfKaldiMiniTestSet
// MatchesKaldi and the lattice comparisons in cmd/strode).
const latticeHashes = "testdata/lattice_sha256.txt"

// TestLatticeBytes decodes kaldi-mini's test utterances (lattice beams 16,
// 8 and 4) and, without -short, the hand-built bigram graph's utterances (bigram_direct_test.go), determinized and
// raw, and checks that the lattices in Kaldi's binary archive format are byte
// for byte those recorded in testdata: a change of the search's memory
// layout or pruning schedule must not change a single cost or arc.
// STRODE_DUMP_LATTICES=DIR also writes the files there (to compare two builds
// with cmp); STRODE_UPDATE_LATTICE_HASHES=1 records new hashes (only after
// such a comparison).
func TestLatticeBytes(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hashes recorded on amd64; other architectures may fuse multiply-adds and round costs differently")
	}
	dir := os.Getenv("STRODE_DUMP_LATTICES")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{}
	if b, err := os.ReadFile(latticeHashes); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if f := strings.Fields(line); len(f) == 2 {
				want[f[0]] = f[1]
			}
		}
	}
	got := map[string]string{}
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
	if !testing.Short() {
		bb := buildDirectBigramBench(t, 3, 30, 6)
		var bdecs []Decodable
		var bkeys []string
		for i, dec := range bb.decodables(t) {
			bdecs = append(bdecs, dec)
			bkeys = append(bkeys, fmt.Sprintf("bigram%d", i))
		}
		jobs = append(jobs, job{"bigram", bb.g, bdecs, bkeys, 10})
	}
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
			var w bytes.Buffer
			for i, dec := range j.decs {
				res, err := d.DecodeUtterance(dec, 0.1, true, nil)
				if err != nil {
					t.Fatalf("%s %s: %v", name, j.keys[i], err)
				}
				if err := lattice.WriteEntry(&w, j.keys[i], true, res.Compact, res.Raw); err != nil {
					t.Fatal(err)
				}
			}
			got[name] = fmt.Sprintf("%x", sha256.Sum256(w.Bytes()))
			if dir != "" {
				if err := os.WriteFile(filepath.Join(dir, name), w.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if h, ok := want[name]; !ok {
				t.Errorf("%s: no recorded hash in %s", name, latticeHashes)
			} else if h != got[name] {
				t.Errorf("%s: the lattices changed (SHA-256 %s, recorded %s)", name, got[name], h)
			}
		}
	}
	if os.Getenv("STRODE_UPDATE_LATTICE_HASHES") == "1" {
		if testing.Short() {
			t.Fatal("record the hashes without -short (benchmark (b)'s lattices too)")
		}
		var lines []string
		for name, h := range got {
			lines = append(lines, name+" "+h)
		}
		sort.Strings(lines)
		if err := os.WriteFile(latticeHashes, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
