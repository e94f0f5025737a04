package fetch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/strode-asr/strode/internal/testhttp"
)

// Test helpers: small corpora of generated files, tar.gz archives of them,
// and a local HTTP server that serves an archive (or part of one).

// treeCorpus is laid out like speechocean762: the archive's top folder is
// kept whole, with a list of relative paths.
func treeCorpus() *Corpus {
	return &Corpus{
		Name: "toy762", Title: "toy762", Command: "fetch-toy762",
		URL: "https://example.org/resources/101/toy762.tar.gz", ArchiveName: "toy762.tar.gz", ArchiveFolder: "toy762",
		Markers:  []string{"WAVE", "train/text", "resource/lexicon.txt"},
		SumsName: "SHA256SUMS.upstream", SumsRepo: "recipes/toy762",
		Hint:   "(or pass a copy as --corpus-dir)",
		Source: func(s SourceInfo) string { return fmt.Sprintf("toy762, %d files from %s\n", s.Files, s.URL) },
	}
}

// flatCorpus is laid out like FSDD: one flat folder of the archive is kept.
func flatCorpus() *Corpus {
	return &Corpus{
		Name: "toyfsdd", Title: "the toy recordings", Command: "fetch-toy", Noun: "recordings",
		URL: "https://example.org/toy.tar.gz", ArchiveName: "toy.tar.gz", ArchiveFolder: "toy-1.0", Subdir: "recordings", Flat: true,
		SumsName: "SUMS", SumsRepo: "recipes/toy", WarnUnlisted: true,
	}
}

// treeFiles returns a toy762 tree: speakers × utterances of random bytes
// under WAVE/, Kaldi files under train/ and test/, and the lexicon.
func treeFiles(speakers, utts int) map[string][]byte {
	rng := rand.New(rand.NewSource(int64(speakers*100 + utts)))
	files := map[string][]byte{"resource/lexicon.txt": []byte("A\tAH0\nB\tB IY1\n")}
	for s := 1; s <= speakers; s++ {
		half := "train"
		if s%2 == 0 {
			half = "test"
		}
		var text, wav bytes.Buffer
		for u := 0; u < utts; u++ {
			id := fmt.Sprintf("%05d%04d", s, u)
			body := make([]byte, 200+rng.Intn(300))
			rng.Read(body)
			files[fmt.Sprintf("WAVE/SPEAKER%04d/%s.WAV", s, id)] = body
			fmt.Fprintf(&text, "%s\tA B\n", id)
			fmt.Fprintf(&wav, "%s\tWAVE/SPEAKER%04d/%s.WAV\n", id, s, id)
		}
		files[half+"/text"] = append(files[half+"/text"], text.Bytes()...)
		files[half+"/wav.scp"] = append(files[half+"/wav.scp"], wav.Bytes()...)
	}
	return files
}

// sumsOf is the SHA-256 list of files.
func sumsOf(files map[string][]byte) Sums {
	s := Sums{}
	for name, b := range files {
		s[name] = sha256.Sum256(b)
	}
	return s
}

// entry is one tar member.
type entry struct {
	hdr  tar.Header
	body []byte
}

func reg(name string, body []byte) entry {
	return entry{tar.Header{Typeflag: tar.TypeReg, Name: name}, body}
}

// makeArchive builds a tar.gz of the members in order: an optional pax
// global header naming commit, then entries.
func makeArchive(t testing.TB, commit string, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	mtime := time.Date(2021, 4, 1, 0, 0, 0, 0, time.UTC)
	if commit != "" {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, PAXRecords: map[string]string{"comment": commit}, Format: tar.FormatPAX}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range entries {
		h := e.hdr
		if h.Typeflag == tar.TypeReg && h.Size == 0 {
			h.Size = int64(len(e.body))
		}
		if h.Mode == 0 {
			h.Mode = 0o644
			if h.Typeflag == tar.TypeDir {
				h.Mode = 0o755
			}
		}
		h.ModTime = mtime
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if len(e.body) > 0 {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// treeArchive lays files out as the openslr tarball does: everything under
// top/, folders before their files, plus a README and macOS litter that no
// list names, then extra members.
func treeArchive(t testing.TB, top string, files map[string][]byte, extra ...entry) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	entries := []entry{{tar.Header{Typeflag: tar.TypeDir, Name: top + "/"}, nil}, reg(top+"/README.md", []byte("# toy\n"))}
	dirs := map[string]bool{}
	for _, n := range names {
		for i := range n {
			if n[i] == '/' && !dirs[n[:i]] {
				dirs[n[:i]] = true
				entries = append(entries, entry{tar.Header{Typeflag: tar.TypeDir, Name: top + "/" + n[:i] + "/"}, nil})
			}
		}
		entries = append(entries, reg(top+"/"+n, files[n]))
	}
	entries = append(entries, reg(top+"/WAVE/.DS_Store", []byte{0, 0, 0, 1}))
	return makeArchive(t, "", append(entries, extra...)...)
}

// flatArchive lays files out as GitHub's archive of FSDD's tag.
func flatArchive(t testing.TB, files map[string][]byte, extra ...entry) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	entries := []entry{
		{tar.Header{Typeflag: tar.TypeDir, Name: "toy-1.0/"}, nil},
		reg("toy-1.0/README.md", []byte("# toy\n")),
		{tar.Header{Typeflag: tar.TypeDir, Name: "toy-1.0/recordings/"}, nil},
	}
	for _, n := range names {
		entries = append(entries, reg("toy-1.0/recordings/"+n, files[n]))
	}
	return makeArchive(t, "0123abc", append(entries, extra...)...)
}

// serve is testhttp.Serve at the archive's path.
func serve(t testing.TB, body []byte, n int) string {
	t.Helper()
	return testhttp.Serve(t, body, n, "/resources/101/toy762.tar.gz")
}

// closedPort is an address nothing listens on, at the archive's path.
func closedPort(t testing.TB) string {
	t.Helper()
	return testhttp.ClosedURL(t, "/resources/101/toy762.tar.gz")
}
