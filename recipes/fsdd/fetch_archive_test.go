package fsdd

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/strode-asr/strode/internal/testhttp"
	"github.com/strode-asr/strode/recipes/fetch"
)

// Test helpers: synthetic recordings, GitHub-style archives of them, and a
// local HTTP server that serves an archive (or part of one).

// syntheticWav returns a short 8 kHz 16-bit mono RIFF WAV of a tone whose
// pitch and length depend on seed, like an FSDD recording but tiny.
func syntheticWav(seed int64) []byte {
	rng := rand.New(rand.NewSource(seed))
	n := 400 + rng.Intn(400)
	freq := 200 + 600*rng.Float64()
	var pcm bytes.Buffer
	for i := 0; i < n; i++ {
		v := 8000 * math.Sin(2*math.Pi*freq*float64(i)/8000)
		binary.Write(&pcm, binary.LittleEndian, int16(v))
	}
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + pcm.Len()))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))    // PCM
	le(uint16(1))    // mono
	le(uint32(8000)) // sample rate
	le(uint32(16000))
	le(uint16(2))
	le(uint16(16))
	b.WriteString("data")
	le(uint32(pcm.Len()))
	b.Write(pcm.Bytes())
	return b.Bytes()
}

// syntheticCorpus returns FSDD-named recordings: digits × speakers × takes.
func syntheticCorpus(speakers []string, takes int) map[string][]byte {
	files := map[string][]byte{}
	seed := int64(1)
	for _, spk := range speakers {
		for d := 0; d < 10; d++ {
			for i := 0; i < takes; i++ {
				files[fmt.Sprintf("%d_%s_%d.wav", d, spk, i)] = syntheticWav(seed)
				seed++
			}
		}
	}
	return files
}

// sumsOf is the SHA-256 list of files.
func sumsOf(files map[string][]byte) fetch.Sums {
	s := fetch.Sums{}
	for name, b := range files {
		s[name] = sha256.Sum256(b)
	}
	return s
}

// entry is one extra tar member (for archives with odd contents).
type entry struct {
	hdr  tar.Header
	body []byte
}

// makeArchive builds a tar.gz laid out like GitHub's archive of the tag: a
// pax global header naming the commit, ArchiveFolder/ with a README, a
// folder the recipe does not want, and recordings/ with files (in sorted
// order), then extra members.
func makeArchive(t testing.TB, files map[string][]byte, extra ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	mtime := time.Date(2022, 9, 1, 0, 0, 0, 0, time.UTC)
	add := func(h tar.Header, body []byte) {
		if h.Typeflag == tar.TypeReg && h.Size == 0 {
			h.Size = int64(len(body))
		}
		if h.Typeflag != tar.TypeXGlobalHeader {
			if h.Mode == 0 {
				h.Mode = 0o644
			}
			h.ModTime = mtime
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if len(body) > 0 {
			if _, err := tw.Write(body); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(tar.Header{Typeflag: tar.TypeXGlobalHeader, PAXRecords: map[string]string{"comment": Commit}, Format: tar.FormatPAX}, nil)
	add(tar.Header{Typeflag: tar.TypeDir, Name: ArchiveFolder + "/", Mode: 0o755}, nil)
	add(tar.Header{Typeflag: tar.TypeReg, Name: ArchiveFolder + "/README.md"}, []byte("# FSDD\n"))
	add(tar.Header{Typeflag: tar.TypeDir, Name: ArchiveFolder + "/acoustic_features/", Mode: 0o755}, nil)
	add(tar.Header{Typeflag: tar.TypeReg, Name: ArchiveFolder + "/acoustic_features/x.py"}, []byte("print(1)\n"))
	add(tar.Header{Typeflag: tar.TypeDir, Name: ArchiveFolder + "/recordings/", Mode: 0o755}, nil)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		add(tar.Header{Typeflag: tar.TypeReg, Name: ArchiveFolder + "/recordings/" + n}, files[n])
	}
	for _, e := range extra {
		add(e.hdr, e.body)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// serve is testhttp.Serve at the archive's path.
func serve(t testing.TB, body []byte, n int) string {
	t.Helper()
	return testhttp.Serve(t, body, n, "/v1.0.10.tar.gz")
}

// closedPort is an address nothing listens on, at the archive's path.
func closedPort(t testing.TB) string {
	t.Helper()
	return testhttp.ClosedURL(t, "/v1.0.10.tar.gz")
}
