package fetch

import (
	"flag"
	"strconv"
	"strings"
	"time"
)

// DefaultOptions are a fetch command's defaults for c: its URL and its
// committed list, 15 s to connect, 60 s without data, and the corpus's
// overall timeout. Register labels the options with c's names.
func DefaultOptions(c *Corpus) Options {
	o := Options{URL: c.URL, ConnectTimeout: 15 * time.Second, StallTimeout: 60 * time.Second, Timeout: c.Timeout, corpus: c}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Minute
	}
	return o
}

// Register adds the download options of a fetch command to fs (the
// timeouts in seconds). A SumsPath given there is read by LoadSums.
func (o *Options) Register(fs *flag.FlagSet) {
	committed := "the committed list"
	if c := o.corpus; c != nil {
		committed = "the committed " + c.SumsRepo + "/" + c.SumsName
	}
	kind := "sha256sum format, plain file names"
	if c := o.corpus; c != nil && !c.Flat {
		kind = "sha256sum format, paths relative to " + c.ArchiveFolder + "/"
	}
	fs.StringVar(&o.URL, "url", o.URL, "Where to get the tar.gz: http(s)://, file:// or a local path")
	fs.StringVar(&o.SumsPath, "sums", o.SumsPath, "SHA-256 list to check against ("+kind+"); empty means "+committed)
	fs.Var((*seconds)(&o.Timeout), "timeout", "Give up after this many seconds in all")
	fs.Var((*seconds)(&o.StallTimeout), "stall-timeout", "Give up when no data arrives for this many seconds")
	fs.Var((*seconds)(&o.ConnectTimeout), "connect-timeout", "Give up connecting after this many seconds")
}

// LoadSums reads the list that SumsPath names, if any, into Sums.
func (o *Options) LoadSums() error {
	if o.SumsPath == "" {
		return nil
	}
	s, err := ReadSums(o.SumsPath, o.corpus == nil || o.corpus.Flat)
	if err != nil {
		return err
	}
	o.Sums = s
	return nil
}

// LocateOptions are where Locate looks before it downloads: a copy the
// user names, then the project's shared copy.
type LocateOptions struct {
	CorpusDir string // a copy to use as it is; it must be complete
	SharedDir string // the shared copy, when it is complete; "" skips it
	corpus    *Corpus
}

// DefaultLocateOptions look in ../shared/data/NAME for c's shared copy.
func DefaultLocateOptions(c *Corpus) LocateOptions {
	return LocateOptions{SharedDir: "../shared/data/" + c.Name, corpus: c}
}

// Register adds the options to fs.
func (o *LocateOptions) Register(fs *flag.FlagSet) {
	has := ""
	if o.corpus != nil {
		has = " (must hold " + o.corpus.MarkerList() + ")"
	}
	fs.StringVar(&o.CorpusDir, "corpus-dir", o.CorpusDir, "A copy of the corpus to use as it is"+has)
	fs.StringVar(&o.SharedDir, "shared-dir", o.SharedDir, "Where the project's shared copy is looked for; empty skips it")
}

// seconds is a duration option given in seconds, as the fetch commands
// have always taken them.
type seconds time.Duration

// Get makes seconds a flag.Getter of a float, as usage texts name it.
func (s *seconds) Get() any { return time.Duration(*s).Seconds() }

func (s *seconds) String() string {
	return strconv.FormatFloat(time.Duration(*s).Seconds(), 'g', -1, 64)
}

func (s *seconds) Set(v string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return err
	}
	*s = seconds(f * float64(time.Second))
	return nil
}
