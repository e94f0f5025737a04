//go:build !linux

package fetch

import (
	"io/fs"
	"os"
	"path/filepath"
)

// syncTree flushes every file under dir to disk before the folder is
// renamed into place, one fsync per file.
func syncTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
}
