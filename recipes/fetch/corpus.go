package fetch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Corpus describes one release of a corpus: where it comes from, what of
// its archive is kept, and how to tell a complete copy.
type Corpus struct {
	Name    string // short name: the folder under ../shared/data and data/ ("fsdd")
	Title   string // for messages: "the FSDD recordings"
	Command string // the strode command that fetches it, for LOG lines and the by-hand steps ("fetch-fsdd")

	URL           string // the release's tar.gz
	ArchiveName   string // what the by-hand steps save it as ("fsdd-v1.0.10.tar.gz")
	ArchiveFolder string // the archive's top folder ("free-spoken-digit-dataset-1.0.10")
	// Subdir is the folder of ArchiveFolder that is kept, under the same
	// name in the destination ("recordings"); "" keeps ArchiveFolder's
	// whole tree, which becomes the destination itself.
	Subdir string
	// Flat: the listed files lie directly in Subdir, and anything else
	// there (a sub-folder, a link) makes the archive bad. Otherwise the
	// list holds relative paths, folders are made as needed and members
	// the list does not name are left out, whatever they are.
	Flat bool
	// Markers are the paths under the destination that a complete copy
	// has (a copy is only ever renamed into place whole, so they suffice);
	// nil means Subdir.
	Markers []string
	Noun    string // what the files are called in LOG lines: "recordings"; "" means "files"

	SumsName    string        // the committed list's file name ("SHA256SUMS.upstream-v1.0.10")
	SumsRepo    string        // its folder in the repository, for the by-hand steps ("recipes/fsdd")
	DefaultSums func() Sums   // the committed list, when Options.Sums is nil
	Timeout     time.Duration // the whole download when Options.Timeout is 0; 0 means 30 min

	// WarnUnlisted: archive files the list does not name are unexpected
	// (a WARNING); otherwise they are counted in a LOG line.
	WarnUnlisted bool
	// Hint ends the by-hand steps: how the recipe takes the archive or a
	// copy of the corpus.
	Hint string
	// NotEmptyHint follows the destination in the error for a destination
	// that holds something else.
	NotEmptyHint string
	// Source returns the text of the SOURCE file written beside the files:
	// what they are, where from, the license.
	Source func(SourceInfo) string
}

// SourceInfo is what a Corpus's SOURCE file reports about a download.
type SourceInfo struct {
	URL    string
	Commit string // the commit the archive's pax header names, if any
	Sums   string // the list the files were checked against
	Files  int
	When   time.Time
}

func (c *Corpus) noun() string {
	if c.Noun == "" {
		return "files"
	}
	return c.Noun
}

func (c *Corpus) markers() []string {
	if c.Markers != nil {
		return c.Markers
	}
	return []string{c.Subdir}
}

func (c *Corpus) logf(o *Options, level, format string, a ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "%s (strode %s) %s\n", level, c.Command, fmt.Sprintf(format, a...))
	}
}

// Has reports whether dir holds a complete copy (every marker exists).
func (c *Corpus) Has(dir string) bool {
	if dir == "" {
		return false
	}
	for _, m := range c.markers() {
		if _, err := os.Stat(filepath.Join(dir, m)); err != nil {
			return false
		}
	}
	return true
}

// MarkerList names the markers for messages ("recordings/", "WAVE/ and train/text").
func (c *Corpus) MarkerList() string {
	ms := c.markers()
	return strings.Join(ms, ", ")
}

// Where says how Locate found the corpus.
type Where string

const (
	FromCorpusDir Where = "corpus-dir" // the folder the user named
	FromShared    Where = "shared"     // ../shared/data/NAME
	FromCache     Where = "cache"      // data/NAME, downloaded before
	FromDownload  Where = "download"   // downloaded now
)

// Located is where Locate found (or put) the corpus.
type Located struct {
	Dir   string
	Where Where
	Fetch *Result // the download, when Where is FromDownload
}

// ErrNoCorpus is the error for a --corpus-dir that holds no copy.
var ErrNoCorpus = errors.New("no copy of the corpus")

// Locate finds the corpus as the recipes do: corpusDir when it is given
// (which must then hold a complete copy: a typo is never silently replaced
// by a download), else shared (../shared/data/NAME) when it holds one, else
// cache (data/NAME) when it holds one, else it downloads into cache with
// Fetch. shared may be "" to skip it.
func Locate(ctx context.Context, c *Corpus, corpusDir, shared, cache string, o Options) (Located, error) {
	if corpusDir != "" {
		if !c.Has(corpusDir) {
			return Located{}, fmt.Errorf("%w: %s lacks %s (leave the corpus folder out to use %s or %s, or to download %s)",
				ErrNoCorpus, corpusDir, c.MarkerList(), orNone(shared), cache, c.URL)
		}
		return Located{Dir: corpusDir, Where: FromCorpusDir}, nil
	}
	if c.Has(shared) {
		return Located{Dir: shared, Where: FromShared}, nil
	}
	if c.Has(cache) {
		return Located{Dir: cache, Where: FromCache}, nil
	}
	res, err := Fetch(ctx, c, cache, o)
	if err != nil {
		return Located{}, err
	}
	where := FromDownload
	if res.AlreadyPresent {
		where = FromCache
	}
	return Located{Dir: cache, Where: where, Fetch: &res}, nil
}

func orNone(s string) string {
	if s == "" {
		return "(no shared copy)"
	}
	return s
}

// Error is a failed Fetch: what went wrong, and how to place the files by hand.
type Error struct {
	URL, Dest, SumsPath string
	Err                 error
	corpus              *Corpus
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	return fmt.Sprintf("fetching %s from %s: %v\n%s", e.corpus.Title, e.URL, e.Err, e.corpus.ManualSteps(e.URL, e.Dest, e.SumsPath))
}

// ManualSteps is the text that tells a user how to place the files in dest
// by hand (download anywhere, copy the archive over, unpack, verify).
func (c *Corpus) ManualSteps(archiveURL, dest, sumsPath string) string {
	if abs, err := filepath.Abs(dest); err == nil {
		dest = abs
	}
	if sumsPath == "" {
		sumsPath = "<strode repository>/" + c.SumsRepo + "/" + c.SumsName
	} else if abs, err := filepath.Abs(sumsPath); err == nil {
		sumsPath = abs
	}
	if archiveURL == "" || !strings.Contains(archiveURL, "://") || strings.HasPrefix(archiveURL, "file:") {
		archiveURL = c.URL
	}
	member, checkDir := c.ArchiveFolder, dest
	if c.Subdir != "" {
		member += "/" + c.Subdir
		checkDir += "/" + c.Subdir
	}
	text := fmt.Sprintf(`Nothing was written to %[2]s. To place the files by hand, download the archive on a
machine with network access, copy it here, then unpack and verify it:
  curl -fL -o %[5]s %[1]s
      (or: wget -O %[5]s %[1]s)
  mkdir -p %[2]s
  tar -xzf %[5]s -C %[2]s --strip-components=1 %[3]s
  (cd %[6]s && sha256sum -c --quiet %[4]s)
or let strode unpack and verify it: strode %[7]s --url=file://$PWD/%[5]s %[2]s`,
		archiveURL, dest, member, sumsPath, c.ArchiveName, checkDir, c.Command)
	if c.Hint != "" {
		text += "\n" + c.Hint
	}
	return text
}

func (c *Corpus) sumsLabel(path string) string {
	if path == "" {
		return c.SumsName
	}
	return path
}
