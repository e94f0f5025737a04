package fetch

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// unpack reads a tar.gz stream and writes the listed files of
// c.ArchiveFolder/c.Subdir/ into dir (which it creates if needed), checking each
// against o.Sums as it goes. Everything else in the archive is read past,
// and so are members of the kept folder that the list does not name (they
// are returned in skipped, never written: the copy holds exactly the listed
// files). It fails on a checksum mismatch, on a member of the kept folder
// whose name is not a clean relative path, on a listed name that is not a
// regular file, for a Flat corpus on anything in the kept folder but plain
// files, on a stream that ends early or whose gzip checksum is wrong, and
// when a listed file never came. It returns the commit named by the
// archive's pax global header (GitHub's archives carry one), or "".
func unpack(r io.Reader, dir string, c *Corpus, o Options, files *atomic.Int64) (commit string, skipped []string, err error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return "", nil, fmt.Errorf("%w: not a gzip stream: %v", ErrArchive, truncated(err))
	}
	defer gz.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	prefix := c.ArchiveFolder + "/"
	if c.Subdir != "" {
		prefix += c.Subdir + "/"
	}
	noun := c.noun()
	seen := make(map[string]bool, len(o.Sums))
	made := map[string]bool{}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return commit, skipped, fmt.Errorf("%w: after %d %s: %v", ErrArchive, len(seen), noun, truncated(err))
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			commit = hdr.PAXRecords["comment"]
			continue
		}
		rel, ok := strings.CutPrefix(strings.TrimPrefix(hdr.Name, "./"), prefix)
		if !ok || rel == "" {
			continue // outside the kept folder, or the folder's own entry
		}
		if c.Flat {
			if hdr.Typeflag != tar.TypeReg || !PlainName(rel) {
				return commit, skipped, fmt.Errorf("%w: %s is not a plain file directly in %s (type %q)", ErrArchive, clip(hdr.Name), c.Subdir+"/", hdr.Typeflag)
			}
		} else {
			if hdr.Typeflag == tar.TypeDir {
				continue // folders are made for the listed files that need them
			}
			if !CleanPath(rel) {
				return commit, skipped, fmt.Errorf("%w: %s has an unsafe name (\".\", \"..\" or empty parts)", ErrArchive, clip(hdr.Name))
			}
		}
		want, listed := o.Sums[rel]
		switch {
		case !listed:
			skipped = append(skipped, rel)
			continue
		case hdr.Typeflag != tar.TypeReg:
			return commit, skipped, fmt.Errorf("%w: %s is listed but is not a plain file in the archive (type %q)", ErrArchive, clip(hdr.Name), hdr.Typeflag)
		case seen[rel]:
			return commit, skipped, fmt.Errorf("%w: the archive holds %s twice", ErrArchive, hdr.Name)
		case hdr.Size > o.MaxFileBytes:
			return commit, skipped, fmt.Errorf("%w: %s is %d bytes, more than the %d a file may have", ErrArchive, hdr.Name, hdr.Size, o.MaxFileBytes)
		}
		if sub := filepath.Dir(filepath.FromSlash(rel)); sub != "." && !made[sub] {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				return commit, skipped, err
			}
			made[sub] = true
		}
		sum, err := writeHashed(filepath.Join(dir, filepath.FromSlash(rel)), tr)
		if err != nil {
			return commit, skipped, fmt.Errorf("%w: %s: %v", ErrArchive, hdr.Name, truncated(err))
		}
		if sum != want {
			return commit, skipped, fmt.Errorf("%w: %s: sha256 %x, want %x", ErrChecksum, rel, sum, want)
		}
		seen[rel] = true
		files.Add(1)
	}
	// Read to the end of the gzip stream, which checks its CRC and length:
	// the tar reader stops at its end-of-archive blocks.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return commit, skipped, fmt.Errorf("%w: %v", ErrArchive, truncated(err))
	}
	if len(seen) < len(o.Sums) {
		var missing []string
		for _, name := range o.Sums.Names() {
			if !seen[name] {
				missing = append(missing, name)
			}
		}
		example := strings.Join(missing[:min(3, len(missing))], ", ")
		return commit, skipped, fmt.Errorf("%w: %d of the %d listed %s are not in %s (e.g. %s)", ErrIncomplete, len(missing), len(o.Sums), noun, prefix, example)
	}
	return commit, skipped, nil
}

// writeHashed copies r to a new file at path and returns the SHA-256 of
// what it wrote (Fetch syncs the whole folder once at the end).
func writeHashed(path string, r io.Reader) (sum [32]byte, err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return sum, err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
		f.Close()
		return sum, err
	}
	if err := f.Close(); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// truncated says what an unexpected end of the stream usually means.
func truncated(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w (the download ended early: truncated archive)", err)
	}
	return err
}
