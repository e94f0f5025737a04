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

// The upstream release the recipe uses.
const (
	DefaultURL    = "https://github.com/Jakobovski/free-spoken-digit-dataset/archive/refs/tags/v1.0.10.tar.gz"
	Commit        = "d6938f9bf1545aa66d8489fc9f1385a7abd64282"
	ArchiveFolder = "free-spoken-digit-dataset-1.0.10"
)

// Errors an *Error wraps, for errors.Is.
var (
	ErrChecksum   = errors.New("checksum mismatch")
	ErrIncomplete = errors.New("archive lacks listed recordings")
	ErrArchive    = errors.New("bad archive")
	ErrStalled    = errors.New("download stalled")
	ErrNotEmpty   = errors.New("destination exists but holds no recordings/")
)

// Options says where to download from and how patiently. The zero value
// downloads DefaultURL and checks it against UpstreamSums.
type Options struct {
	URL      string // http(s)://, file:// or a local path to the tar.gz; "" means DefaultURL
	Sums     Sums   // the recordings to expect; nil means UpstreamSums()
	SumsPath string // where Sums came from, for the manual commands; "" means the committed list

	ConnectTimeout time.Duration // connecting and the TLS handshake; 0 means 15 s
	StallTimeout   time.Duration // longest wait for the response or for the next byte; 0 means 60 s
	Timeout        time.Duration // the whole download; 0 means 30 min
	MaxFileBytes   int64         // largest recording accepted; 0 means 16 MiB

	Progress      io.Writer     // LOG lines while downloading; nil means none
	ProgressEvery time.Duration // 0 means every 2 s
}

func (o *Options) defaults() {
	if o.URL == "" {
		o.URL = DefaultURL
	}
	if o.Sums == nil {
		o.Sums = UpstreamSums()
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 15 * time.Second
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = 60 * time.Second
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
	Dir            string   // the destination; recordings are in Dir/recordings
	AlreadyPresent bool     // Dir/recordings existed, nothing was downloaded
	Files          int      // recordings written and verified
	Bytes          int64    // compressed bytes downloaded
	Commit         string   // the commit GitHub's archive names in its pax header, if any
	Skipped        []string // files of recordings/ the list does not name, left out
}

// Error is a failed Fetch: what went wrong, and how to place the files by hand.
type Error struct {
	URL, Dest, SumsPath string
	Err                 error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	return fmt.Sprintf("fetching the FSDD recordings from %s: %v\n%s", e.URL, e.Err, ManualSteps(e.URL, e.Dest, e.SumsPath))
}

// ManualSteps is the text that tells a user how to place the recordings in
// dest by hand (download anywhere, copy the archive over, unpack, verify).
func ManualSteps(archiveURL, dest, sumsPath string) string {
	if abs, err := filepath.Abs(dest); err == nil {
		dest = abs
	}
	if sumsPath == "" {
		sumsPath = "<strode repository>/recipes/fsdd/fetch/" + SumsFile
	} else if abs, err := filepath.Abs(sumsPath); err == nil {
		sumsPath = abs
	}
	if archiveURL == "" || !strings.Contains(archiveURL, "://") || strings.HasPrefix(archiveURL, "file:") {
		archiveURL = DefaultURL
	}
	return fmt.Sprintf(`Nothing was written to %[2]s. To place the files by hand, download the archive on a
machine with network access, copy it here, then unpack and verify it:
  curl -fL -o fsdd-v1.0.10.tar.gz %[1]s
      (or: wget -O fsdd-v1.0.10.tar.gz %[1]s)
  mkdir -p %[2]s
  tar -xzf fsdd-v1.0.10.tar.gz -C %[2]s --strip-components=1 %[3]s/recordings
  (cd %[2]s/recordings && sha256sum -c --quiet %[4]s)
or let strode unpack and verify it: strode fetch-fsdd --url=file://$PWD/fsdd-v1.0.10.tar.gz %[2]s
(./run.sh takes the same as --fsdd-url), or point ./run.sh --fsdd-dir at a copy that has recordings/.`,
		archiveURL, dest, ArchiveFolder, sumsPath)
}

// Fetch makes dest/recordings hold the verified recordings. When it already
// exists Fetch does nothing (a complete copy is only ever renamed into place,
// so one that exists is whole). Otherwise it downloads o.URL into a
// temporary folder beside dest, verifies every file against o.Sums, and
// renames the folder to dest; on any failure it removes the temporary folder
// and returns an *Error. dest may exist as an empty folder.
func Fetch(ctx context.Context, dest string, o Options) (Result, error) {
	o.defaults()
	res := Result{Dir: dest}
	fail := func(err error) (Result, error) {
		return res, &Error{URL: o.URL, Dest: dest, SumsPath: o.SumsPath, Err: err}
	}
	if fi, err := os.Stat(filepath.Join(dest, "recordings")); err == nil && fi.IsDir() {
		res.AlreadyPresent = true
		return res, nil
	}
	if ents, err := os.ReadDir(dest); err == nil {
		if len(ents) > 0 {
			return fail(fmt.Errorf("%w: %s (move it away, or pass it as --fsdd-dir if it is a copy of FSDD)", ErrNotEmpty, dest))
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
	size := int64(-1)
	lastByte := atomic.Int64{}
	lastByte.Store(time.Now().UnixNano())
	watchDone := make(chan struct{})
	defer close(watchDone)
	go watch(ctx, cancelCause, watchDone, &o, &got, &files, &size, &lastByte)

	body, n, err := open(ctx, o)
	if err != nil {
		return fail(causeOf(ctx, err))
	}
	defer body.Close()
	atomic.StoreInt64(&size, n)
	counted := &countingReader{r: body, n: &got, last: &lastByte}
	commit, skipped, err := unpack(counted, filepath.Join(tmp, "recordings"), o, &files)
	if err != nil {
		return fail(causeOf(ctx, err))
	}
	res.Files, res.Bytes, res.Commit, res.Skipped = int(files.Load()), got.Load(), commit, skipped
	if len(skipped) > 0 && o.Progress != nil {
		fmt.Fprintf(o.Progress, "WARNING (strode fetch-fsdd) left out %d file(s) of recordings/ that %s does not list, e.g. %s\n",
			len(skipped), sumsLabel(o.SumsPath), strings.Join(skipped[:min(3, len(skipped))], ", "))
	}
	if err := writeSource(filepath.Join(tmp, "SOURCE"), o.URL, commit, sumsLabel(o.SumsPath), res.Files); err != nil {
		return fail(err)
	}
	if err := syncTree(tmp); err != nil {
		return fail(fmt.Errorf("flushing %s to disk: %w", tmp, err))
	}
	os.Remove(dest) // an empty folder (checked above) would block the rename
	if err := os.Rename(tmp, dest); err != nil {
		if fi, serr := os.Stat(filepath.Join(dest, "recordings")); serr == nil && fi.IsDir() {
			res.AlreadyPresent = true // another run got there first
			return res, nil
		}
		return fail(err)
	}
	done = true
	syncDir(parent)
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "LOG (strode fetch-fsdd) %d recordings verified against %s, in %s\n", res.Files, sumsLabel(o.SumsPath), dest)
	}
	return res, nil
}

// open starts reading the archive: a GET for http(s) URLs, the file for
// file:// URLs and plain paths. It returns the body and its size (-1 when
// unknown).
func open(ctx context.Context, o Options) (io.ReadCloser, int64, error) {
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
	req.Header.Set("User-Agent", "strode-fetch-fsdd")
	resp, err := client.Do(req)
	if err != nil {
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
func watch(ctx context.Context, cancel context.CancelCauseFunc, done <-chan struct{}, o *Options, got, files *atomic.Int64, size *int64, last *atomic.Int64) {
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
			if o.Progress != nil && now.After(nextLog) {
				nextLog = now.Add(o.ProgressEvery)
				total := atomic.LoadInt64(size)
				amount := fmt.Sprintf("%.1f MB", float64(got.Load())/1e6)
				if total > 0 {
					amount += fmt.Sprintf(" of %.1f MB (%.0f%%)", float64(total)/1e6, 100*float64(got.Load())/float64(total))
				}
				fmt.Fprintf(o.Progress, "LOG (strode fetch-fsdd) downloaded %s; %d of %d recordings verified\n", amount, files.Load(), len(o.Sums))
			}
		}
	}
}

func sumsLabel(path string) string {
	if path == "" {
		return SumsFile
	}
	return path
}

func writeSource(path, archiveURL, commit, sums string, files int) error {
	if commit == "" {
		commit = "(the archive names none; expected " + Commit + ")"
	}
	text := fmt.Sprintf(`Free Spoken Digit Dataset (FSDD), release v1.0.10: recordings/ only (%d files).
Downloaded by strode fetch-fsdd on %s from
  %s
archive of commit %s; every file checked against %s.
License: Creative Commons Attribution-ShareAlike 4.0 International (CC BY-SA 4.0),
https://creativecommons.org/licenses/by-sa/4.0/ - Zohar Jackson, César Souza, Jason Flaks,
Yuxin Pan, Hereman Nicolas and Adhish Thite, "Jakobovski/free-spoken-digit-dataset",
https://github.com/Jakobovski/free-spoken-digit-dataset (Zenodo: doi:10.5281/zenodo.1342401).
`, files, time.Now().UTC().Format(time.RFC3339), archiveURL, commit, sums)
	return os.WriteFile(path, []byte(text), 0o644)
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
