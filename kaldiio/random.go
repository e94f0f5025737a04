package kaldiio

import (
	"fmt"
)

// RandomAccessReader looks objects up by key (Kaldi's
// RandomAccessTableReader).
//
// For a script, the script is read into an index at Open and each Value
// opens (or seeks in) the file its entry names. For an archive in a regular
// file, the archive is scanned forward only as far as needed, remembering
// the byte offset of every key passed (an index, not the objects), and
// objects are read back by seeking. For an archive on standard input or a
// pipe, which cannot seek, the objects passed are held in memory (as Kaldi
// does); with the "o" (once) option each is dropped once returned, and with
// "s,cs" (sorted, called in sorted order) keys before the one asked for are
// dropped.
type RandomAccessReader[T any] struct {
	spec  Rspecifier
	name  string
	codec Codec[T]
	raw   bool
	env   *env

	// script
	entries map[string]ScpEntry
	data    *Input
	dataRx  string

	// archive
	scan     *Input           // forward scanner
	seekable bool             // scan is a regular file: read values back by offset
	offsets  map[string]int64 // key -> offset of the object (after "KEY ")
	held     map[string]*T    // non-seekable: objects passed
	scanned  bool             // scan reached the end
	scanErr  error
	scratch  T
	reader   *Input // second handle on the archive for reading values back
}

// OpenRandomAccessReader opens an rspecifier for lookups by key.
func OpenRandomAccessReader[T any](rspecifier string, c Codec[T], opts ...Option) (*RandomAccessReader[T], error) {
	spec, err := ParseRspecifier(rspecifier)
	if err != nil {
		return nil, err
	}
	_, raw := c.(RawCodec)
	a := &RandomAccessReader[T]{spec: spec, name: rspecifier, codec: c, raw: raw, env: newEnv(opts)}
	if spec.Kind == Script {
		if err := a.loadScript(); err != nil {
			return nil, err
		}
		return a, nil
	}
	a.scan, err = openInput(spec.Path, a.env)
	if err != nil {
		return nil, err
	}
	a.seekable = a.scan.file != nil && a.scan.r.remain >= 0
	a.offsets = map[string]int64{}
	if !a.seekable {
		a.held = map[string]*T{}
	}
	return a, nil
}

func (a *RandomAccessReader[T]) loadScript() error {
	in, err := openInput(a.spec.Path, a.env)
	if err != nil {
		return err
	}
	defer in.Close()
	r := in.Reader()
	a.entries = map[string]ScpEntry{}
	for line := 1; !r.AtEOF(); line++ {
		off := r.off
		text, err := r.readLine("script line")
		if err != nil {
			return err
		}
		e, err := ParseScpLine(string(text))
		if err != nil {
			return &Error{File: a.spec.Path, Offset: off, Line: line, Err: err}
		}
		e.Line = line
		if _, dup := a.entries[e.Key]; dup {
			return &Error{File: a.spec.Path, Key: e.Key, Offset: off, Line: line, Err: fmt.Errorf("%w: duplicate key in script file", ErrFormat)}
		}
		a.entries[e.Key] = e
	}
	return in.Close()
}

// HasKey reports whether the table holds key. For an archive it may scan
// forward to find out; an error met while scanning is returned.
func (a *RandomAccessReader[T]) HasKey(key string) (bool, error) {
	if a.spec.Kind == Script {
		_, ok := a.entries[key]
		return ok, nil
	}
	found, err := a.scanTo(key)
	if err != nil {
		return false, err
	}
	return found, nil
}

// Value returns the object for key; a missing key is an error wrapping
// ErrNotFound. Each call decodes afresh (except for archives held in memory,
// where the held object is returned: do not modify it).
func (a *RandomAccessReader[T]) Value(key string) (T, error) {
	var v T
	if a.spec.Kind == Script {
		e, ok := a.entries[key]
		if !ok {
			return v, &Error{File: a.spec.Path, Key: key, Offset: -1, Err: ErrNotFound}
		}
		err := a.readScriptEntry(e, &v)
		return v, withKey(err, e.Rx, key)
	}
	found, err := a.scanTo(key)
	if err != nil {
		return v, err
	}
	if !found {
		return v, &Error{File: a.spec.Path, Key: key, Offset: -1, Err: ErrNotFound}
	}
	if !a.seekable {
		p := a.held[key]
		if a.spec.Once {
			delete(a.held, key)
		}
		return *p, nil
	}
	off := a.offsets[key]
	if a.reader == nil {
		if a.reader, err = openInput(a.spec.Path, a.env); err != nil {
			return v, err
		}
	}
	if err := a.reader.seek(off); err != nil {
		return v, withKey(err, a.spec.Path, key)
	}
	if err := readObject(a.reader.Reader(), a.codec, a.raw, &v); err != nil {
		return v, withKey(err, a.spec.Path, key)
	}
	return v, nil
}

func (a *RandomAccessReader[T]) readScriptEntry(e ScpEntry, v *T) error {
	kind, _ := classifyRx(e.Rx)
	path, off := e.Rx, int64(0)
	if kind == xOffset {
		path, off, _ = splitOffset(e.Rx)
	}
	reuse := (kind == xFile || kind == xOffset) && a.data != nil && a.dataRx == path && a.data.seek(off) == nil
	if !reuse {
		if a.data != nil {
			a.data.Close()
			a.data, a.dataRx = nil, ""
		}
		in, err := openInput(e.Rx, a.env)
		if err != nil {
			return err
		}
		a.data = in
		if kind == xFile || kind == xOffset {
			a.dataRx = path
		}
	}
	dst := v
	var tmp T
	if e.Range != "" {
		dst = &tmp
	}
	if err := readObject(a.data.Reader(), a.codec, a.raw, dst); err != nil {
		return err
	}
	if a.data.cmd != nil {
		a.data.Reader().Discard(1 << 62)
		err := a.data.Close()
		a.data, a.dataRx = nil, ""
		if err != nil {
			return err
		}
	}
	if e.Range != "" {
		return applyRange(a.codec, v, &tmp, e, a.spec.Path)
	}
	return nil
}

// scanTo scans the archive forward until key has been seen or the end.
func (a *RandomAccessReader[T]) scanTo(key string) (bool, error) {
	if a.seekable {
		if _, ok := a.offsets[key]; ok {
			return true, nil
		}
	} else if _, ok := a.held[key]; ok {
		return true, nil
	}
	if a.scanErr != nil {
		return false, a.scanErr
	}
	// Sorted archives: a key below the last one scanned is absent.
	for !a.scanned {
		r := a.scan.Reader()
		kb, err := readKey(r)
		if err != nil {
			a.scanErr = err
			return false, err
		}
		k := string(kb)
		if kb == nil {
			a.scanned = true
			if err := a.scan.Close(); err != nil {
				a.scanErr = err
				return false, err
			}
			break
		}
		off := r.Offset()
		if a.seekable {
			if err := readObject(r, a.codec, a.raw, &a.scratch); err != nil {
				a.scanErr = withKey(err, r.name, k)
				return false, a.scanErr
			}
			if _, dup := a.offsets[k]; !dup {
				a.offsets[k] = off
			}
		} else {
			v := new(T)
			if err := readObject(r, a.codec, a.raw, v); err != nil {
				a.scanErr = withKey(err, r.name, k)
				return false, a.scanErr
			}
			if a.spec.Sorted && a.spec.CalledSort {
				for old := range a.held {
					if old < key {
						delete(a.held, old)
					}
				}
			}
			if _, dup := a.held[k]; !dup {
				a.held[k] = v
			}
		}
		if k == key {
			return true, nil
		}
		if a.spec.Sorted && k > key {
			return false, nil
		}
	}
	return false, nil
}

// Close releases the table.
func (a *RandomAccessReader[T]) Close() error {
	var err error
	for _, in := range []*Input{a.scan, a.reader, a.data} {
		if in != nil {
			if cerr := in.Close(); err == nil && a.scanned {
				err = cerr
			}
		}
	}
	a.scan, a.reader, a.data = nil, nil, nil
	return err
}
