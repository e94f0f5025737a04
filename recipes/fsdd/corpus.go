package fsdd

import (
	"bytes"
	_ "embed"
	"fmt"
	"time"

	"github.com/strode-asr/strode/recipes/fetch"
)

// The upstream release the recipe downloads when no local copy is at hand:
// v1.0.10 of github.com/Jakobovski/free-spoken-digit-dataset (3,000
// recordings, six speakers), as GitHub's tar.gz of the tag.
const (
	DefaultURL    = "https://github.com/Jakobovski/free-spoken-digit-dataset/archive/refs/tags/v1.0.10.tar.gz"
	Commit        = "d6938f9bf1545aa66d8489fc9f1385a7abd64282"
	ArchiveFolder = "free-spoken-digit-dataset-1.0.10"
	// SumsFile is the committed SHA-256 list of the upstream recordings,
	// beside this file, in sha256sum's format.
	SumsFile = "SHA256SUMS.upstream-v1.0.10"
)

//go:embed SHA256SUMS.upstream-v1.0.10
var upstreamSums []byte

// UpstreamSums returns the list of the 3,000 recordings of release v1.0.10,
// as committed in the repository and embedded in the binary.
func UpstreamSums() fetch.Sums {
	s, err := fetch.ParseSums(bytes.NewReader(upstreamSums), SumsFile, true)
	if err != nil {
		panic("fsdd: the embedded " + SumsFile + " is malformed: " + err.Error())
	}
	return s
}

// Corpus is FSDD release v1.0.10 for recipes/fetch (strode fetch-fsdd):
// GitHub's archive of the tag, of which recordings/ is kept, a flat folder
// of 3,000 WAV files checked against UpstreamSums; recordings the list does
// not name are left out with a warning, so the cache holds exactly the
// listed ones. The top-level run.sh looks for the corpus (--fsdd-dir,
// ../shared/data/fsdd, data/fsdd) before it calls strode fetch-fsdd.
var Corpus = &fetch.Corpus{
	Name:          "fsdd",
	Title:         "the FSDD recordings",
	Command:       "fetch-fsdd",
	URL:           DefaultURL,
	ArchiveName:   "fsdd-v1.0.10.tar.gz",
	ArchiveFolder: ArchiveFolder,
	Subdir:        "recordings",
	Flat:          true,
	Noun:          "recordings",
	SumsName:      SumsFile,
	SumsRepo:      "recipes/fsdd",
	DefaultSums:   UpstreamSums,
	WarnUnlisted:  true,
	Hint:          "(./run.sh takes the same as --fsdd-url), or point ./run.sh --fsdd-dir at a copy that has recordings/.",
	NotEmptyHint:  "(move it away, or pass it as --fsdd-dir if it is a copy of FSDD)",
	Source:        source,
}

// source is the SOURCE file beside recordings/: what, whence, the license.
func source(s fetch.SourceInfo) string {
	commit := s.Commit
	if commit == "" {
		commit = "(the archive names none; expected " + Commit + ")"
	}
	return fmt.Sprintf(`Free Spoken Digit Dataset (FSDD), release v1.0.10: recordings/ only (%d files).
Downloaded by strode fetch-fsdd on %s from
  %s
archive of commit %s; every file checked against %s.
License: Creative Commons Attribution-ShareAlike 4.0 International (CC BY-SA 4.0),
https://creativecommons.org/licenses/by-sa/4.0/ - Zohar Jackson, César Souza, Jason Flaks,
Yuxin Pan, Hereman Nicolas and Adhish Thite, "Jakobovski/free-spoken-digit-dataset",
https://github.com/Jakobovski/free-spoken-digit-dataset (Zenodo: doi:10.5281/zenodo.1342401).
`, s.Files, s.When.Format(time.RFC3339), s.URL, commit, s.Sums)
}
