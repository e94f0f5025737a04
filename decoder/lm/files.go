package lm

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// OpenFile opens a file to read, decompressing it when its name ends in
// .gz, as SRILM's File does.
func OpenFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrInput, path, err)
	}
	return &gzipFile{z, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g *gzipFile) Close() error {
	err := g.Reader.Close()
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteFile writes path atomically (a temporary file renamed into place),
// gzip-compressed when the name ends in .gz.
func WriteFile(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		if !strings.HasSuffix(path, ".gz") {
			bw := bufio.NewWriterSize(w, 1<<20)
			if err := write(bw); err != nil {
				return err
			}
			return bw.Flush()
		}
		z := gzip.NewWriter(w)
		bw := bufio.NewWriterSize(z, 1<<20)
		if err := write(bw); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return z.Close()
	})
}
