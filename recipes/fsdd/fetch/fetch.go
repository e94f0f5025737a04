package fetch

import (
	"context"
	"fmt"
	"time"

	corpus "github.com/strode-asr/strode/recipes/fetch"
)

// The upstream release the recipe uses.
const (
	DefaultURL    = "https://github.com/Jakobovski/free-spoken-digit-dataset/archive/refs/tags/v1.0.10.tar.gz"
	Commit        = "d6938f9bf1545aa66d8489fc9f1385a7abd64282"
	ArchiveFolder = "free-spoken-digit-dataset-1.0.10"
)

// Errors an *Error wraps, for errors.Is (recipes/fetch's).
var (
	ErrChecksum   = corpus.ErrChecksum
	ErrIncomplete = corpus.ErrIncomplete
	ErrArchive    = corpus.ErrArchive
	ErrStalled    = corpus.ErrStalled
	ErrNotEmpty   = corpus.ErrNotEmpty
)

// Options, Result and Error are recipes/fetch's. The zero Options
// downloads DefaultURL and checks it against UpstreamSums.
type (
	Options = corpus.Options
	Result  = corpus.Result
	Error   = corpus.Error
)

// Corpus is FSDD release v1.0.10 for recipes/fetch: GitHub's archive of
// the tag, of which recordings/ is kept (a flat folder of 3,000 WAV files).
var Corpus = &corpus.Corpus{
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
	SumsRepo:      "recipes/fsdd/fetch",
	DefaultSums:   UpstreamSums,
	WarnUnlisted:  true,
	Hint:          "(./run.sh takes the same as --fsdd-url), or point ./run.sh --fsdd-dir at a copy that has recordings/.",
	NotEmptyHint:  "(move it away, or pass it as --fsdd-dir if it is a copy of FSDD)",
	Source:        source,
}

// Fetch makes dest/recordings hold the verified recordings. When it already
// exists Fetch does nothing (a complete copy is only ever renamed into
// place, so one that exists is whole). Otherwise it downloads o.URL into a
// temporary folder beside dest, verifies every file against o.Sums, and
// renames the folder to dest; on any failure it removes the temporary folder
// and returns an *Error. dest may exist as an empty folder.
func Fetch(ctx context.Context, dest string, o Options) (Result, error) {
	return corpus.Fetch(ctx, Corpus, dest, o)
}

// ManualSteps is the text that tells a user how to place the recordings in
// dest by hand (download anywhere, copy the archive over, unpack, verify).
func ManualSteps(archiveURL, dest, sumsPath string) string {
	return Corpus.ManualSteps(archiveURL, dest, sumsPath)
}

// source is the SOURCE file beside recordings/: what, whence, the license.
func source(s corpus.SourceInfo) string {
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
