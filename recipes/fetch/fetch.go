package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Errors an *Error wraps, for errors.Is.
var (
	ErrChecksum   = errors.New("checksum mismatch")
	ErrIncomplete = errors.New("archive lacks listed files")
	ErrArchive    = errors.New("bad archive")
	ErrStalled    = errors.New("download stalled")
	ErrNotEmpty   = errors.New("destination exists but holds no complete copy")
)

// Options says where to download from and how patiently. The zero value
// downloads the corpus's URL and checks it against its committed list.
type Options struct {
	URL      string // http(s)://, file:// or a local path to the tar.gz; "" means the corpus's URL
	Sums     Sums   // the files to expect; nil means the corpus's DefaultSums()
	SumsPath string // where Sums came from, for the manual commands; "" means the committed list

	ConnectTimeout time.Duration // connecting and the TLS handshake; 0 means 15 s
	StallTimeout   time.Duration // longest wait for the response or for the next byte; 0 means 60 s
	Timeout        time.Duration // the whole download; 0 means the corpus's Timeout
	MaxFileBytes   int64         // largest file accepted; 0 means 16 MiB

	Progress      io.Writer     // LOG lines while downloading; nil means none
	ProgressEvery time.Duration // 0 means every 2 s

	corpus *Corpus // DefaultOptions': labels Register's options, and says how LoadSums reads a list
}

func (o *Options) defaults(c *Corpus) {
	if o.URL == "" {
		o.URL = c.URL
	}
	if o.Sums == nil && c.DefaultSums != nil {
		o.Sums = c.DefaultSums()
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 15 * time.Second
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = 60 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = c.Timeout
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Minute
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 16 << 20
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 2 * time.Second
	}
}

// Result describes a finished Fetch.
type Result struct {
	Dir            string   // the destination
	AlreadyPresent bool     // Dir held a complete copy, nothing was downloaded
	Files          int      // files written and verified
	Bytes          int64    // compressed bytes downloaded
	Commit         string   // the commit the archive names in its pax header, if any
	Skipped        []string // members the list does not name, left out (relative to the kept folder)
}

// Fetch makes dest hold a verified copy of c. When it already holds one
// (c.Has) Fetch does nothing. Otherwise it downloads o.URL into a temporary
// folder beside dest, verifies every file against o.Sums, and renames the
// folder to dest; on any failure it removes the temporary folder and
// returns an *Error. dest may exist as an empty folder.
func Fetch(ctx context.Context, c *Corpus, dest string, o Options) (Result, error) {
	o.defaults(c)
	res := Result{Dir: dest}
	fail := func(err error) (Result, error) {
		return res, &Error{URL: o.URL, Dest: dest, SumsPath: o.SumsPath, Err: err, corpus: c}
	}
	if len(o.Sums) == 0 {
		return fail(fmt.Errorf("%w: no files to expect", ErrBadSums))
	}
	if c.Has(dest) {
		res.AlreadyPresent = true
		return res, nil
	}
	if ents, err := os.ReadDir(dest); err == nil {
		if len(ents) > 0 {
			return fail(fmt.Errorf("%w (no %s): %s %s", ErrNotEmpty, c.MarkerList(), dest, c.NotEmptyHint))
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fail(err)
	}
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if _, err := os.Stat(parent); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fail(err)
		}
		defer func() {
			if !isDir(dest) {
				os.Remove(parent) // ours, and empty after a failure
			}
		}()
	}
	// A run killed outright (SIGKILL, power loss) cannot clean up after
	// itself; its leftovers are only ever hidden folders with this prefix.
	partialPrefix := "." + base + ".partial-"
	if old, _ := filepath.Glob(filepath.Join(parent, partialPrefix+"*")); len(old) > 0 {
		for _, p := range old {
			os.RemoveAll(p)
		}
	}
	tmp, err := os.MkdirTemp(parent, partialPrefix)
	if err != nil {
		return fail(err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()

	ctx, cancel := context.WithTimeoutCause(ctx, o.Timeout, fmt.Errorf("%w: not finished after %v", ErrStalled, o.Timeout))
	defer cancel()
	ctx, cancelCause := context.WithCancelCause(ctx)
	defer cancelCause(nil)

	var got, files atomic.Int64
	size := atomic.Int64{}
	size.Store(-1)
	lastByte := atomic.Int64{}
	lastByte.Store(time.Now().UnixNano())
	watchDone := make(chan struct{})
	defer close(watchDone)
	go watch(ctx, cancelCause, watchDone, c, &o, &got, &files, &size, &lastByte)

	body, n, err := open(ctx, c, o)
	if err != nil {
		return fail(causeOf(ctx, err))
	}
	defer body.Close()
	size.Store(n)
	counted := &countingReader{r: body, n: &got, last: &lastByte}
	kept := tmp
	if c.Subdir != "" {
		kept = filepath.Join(tmp, c.Subdir)
	}
	commit, skipped, err := unpack(counted, kept, c, o, &files)
	if err != nil {
		return fail(causeOf(ctx, err))
	}
	res.Files, res.Bytes, res.Commit, res.Skipped = int(files.Load()), got.Load(), commit, skipped
	if len(skipped) > 0 {
		level, what := "LOG", "member(s)"
		if c.WarnUnlisted {
			level, what = "WARNING", "file(s)"
		}
		where := c.ArchiveFolder + "/"
		if c.Subdir != "" {
			where = c.Subdir + "/"
		}
		c.logf(&o, level, "left out %d %s of %s that %s does not list, e.g. %s",
			len(skipped), what, where, c.sumsLabel(o.SumsPath), strings.Join(skipped[:min(3, len(skipped))], ", "))
	}
	if c.Source != nil {
		text := c.Source(SourceInfo{URL: o.URL, Commit: commit, Sums: c.sumsLabel(o.SumsPath), Files: res.Files, When: time.Now().UTC()})
		if err := os.WriteFile(filepath.Join(tmp, "SOURCE"), []byte(text), 0o644); err != nil {
			return fail(err)
		}
	}
	if err := syncTree(tmp); err != nil {
		return fail(fmt.Errorf("flushing %s to disk: %w", tmp, err))
	}
	os.Remove(dest) // an empty folder (checked above) would block the rename
	if err := os.Rename(tmp, dest); err != nil {
		if c.Has(dest) {
			res.AlreadyPresent = true // another run got there first
			return res, nil
		}
		return fail(err)
	}
	done = true
	syncDir(parent)
	c.logf(&o, "LOG", "%d %s verified against %s, in %s", res.Files, c.noun(), c.sumsLabel(o.SumsPath), dest)
	return res, nil
}

// open starts reading the archive: a GET for http(s) URLs, the file for
// file:// URLs and plain paths. It returns the body and its size (-1 when
// unknown).
func open(ctx context.Context, c *Corpus, o Options) (io.ReadCloser, int64, error) {
	u, err := url.Parse(o.URL)
	if err != nil || u.Scheme == "" || len(u.Scheme) == 1 { // "C:" is a Windows drive, not a scheme
		return openFile(o.URL)
	}
	switch u.Scheme {
	case "file":
		return openFile(u.Path)
	case "http", "https":
	default:
		return nil, 0, fmt.Errorf("unsupported URL scheme %q (want http, https or file)", u.Scheme)
	}
	dialer := &net.Dialer{Timeout: o.ConnectTimeout}
	client := &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ResponseHeaderTimeout: o.StallTimeout,
		ForceAttemptHTTP2:     true,
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.URL, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("User-Agent", "strode-"+c.Command)
	resp, err := client.Do(req)
	if err != nil {
		// A server that takes the request and never answers is a stall
		// too, whatever the machine's load made of the header wait.
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
			return nil, 0, fmt.Errorf("%w: GET %s: no response for %v", ErrStalled, o.URL, o.StallTimeout)
		}
		return nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, 0, fmt.Errorf("GET %s: HTTP %s", o.URL, resp.Status)
	}
	return resp.Body, resp.ContentLength, nil
}

func openFile(path string) (io.ReadCloser, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// causeOf prefers the reason the context was cancelled (a stall, the
// overall timeout) over the error a read saw because of it.
func causeOf(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && errors.Is(cause, ErrStalled) {
		return cause
	}
	return err
}

// countingReader counts bytes and notes when the last one arrived.
type countingReader struct {
	r    io.Reader
	n    *atomic.Int64
	last *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.n.Add(int64(n))
		c.last.Store(time.Now().UnixNano())
	}
	return n, err
}

// watch cancels the download when no byte has come for o.StallTimeout and
// prints a LOG line every o.ProgressEvery.
func watch(ctx context.Context, cancel context.CancelCauseFunc, done <-chan struct{}, c *Corpus, o *Options, got, files, size, last *atomic.Int64) {
	tick := min(o.StallTimeout/4, o.ProgressEvery, time.Second)
	t := time.NewTicker(tick)
	defer t.Stop()
	nextLog := time.Now().Add(o.ProgressEvery)
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case now := <-t.C:
			if idle := now.Sub(time.Unix(0, last.Load())); idle > o.StallTimeout {
				cancel(fmt.Errorf("%w: no data for %v", ErrStalled, idle.Round(time.Second)))
				return
			}
			if now.After(nextLog) {
				nextLog = now.Add(o.ProgressEvery)
				amount := fmt.Sprintf("%.1f MB", float64(got.Load())/1e6)
				if total := size.Load(); total > 0 {
					amount += fmt.Sprintf(" of %.1f MB (%.0f%%)", float64(total)/1e6, 100*float64(got.Load())/float64(total))
				}
				c.logf(o, "LOG", "downloaded %s; %d of %d %s verified", amount, files.Load(), len(o.Sums), c.noun())
			}
		}
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// syncDir flushes a folder's entries to disk; best effort, as some file
// systems cannot sync a folder.
func syncDir(path string) {
	if d, err := os.Open(path); err == nil {
		d.Sync()
		d.Close()
	}
}
