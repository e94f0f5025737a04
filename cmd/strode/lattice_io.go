package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

// Local table glue for the lattice commands: archives only ("ark:", "ark,t:",
// files, "-", "cmd |"), until kaldiio's table layer is wired in.

// wspecIsText reports whether a wspecifier asks for text output ("ark,t:").
func wspecIsText(wspec string) bool {
	kind, _, ok := strings.Cut(wspec, ":")
	if !ok {
		return false
	}
	for _, o := range strings.Split(kind, ",") {
		if o == "t" {
			return true
		}
	}
	return false
}

// latticeSource reads lattice archives from an rspecifier.
type latticeSource struct {
	*lattice.ArchiveReader
	close func() error
}

func openLattices(ctx *kaldicmd.Context, rspec string) (*latticeSource, error) {
	in, closer, err := openTextTable(ctx, rspec)
	if err != nil {
		return nil, err
	}
	return &latticeSource{lattice.NewArchiveReader(in, rspec), closer}, nil
}

// next returns the next lattice as a CompactLattice (Kaldi's
// SequentialCompactLatticeReader converts a Lattice on reading; here only
// compact input is supported), or io.EOF.
func (s *latticeSource) next() (string, *lattice.CompactLattice, error) {
	e, err := s.Next()
	if err != nil {
		return "", nil, err
	}
	if e.Compact == nil {
		return "", nil, fmt.Errorf("lattice %s is a Lattice (not a CompactLattice); reading it as a CompactLattice is not supported yet", e.Key)
	}
	return e.Key, e.Compact, nil
}

// latticeSink writes a lattice archive to a wspecifier ("" writes nothing).
type latticeSink struct {
	w      io.Writer
	text   bool
	commit func() error
}

func createLattices(ctx *kaldicmd.Context, wspec string) (*latticeSink, error) {
	if wspec == "" {
		return &latticeSink{}, nil
	}
	w, commit, err := createTextTable(ctx, wspec)
	if err != nil {
		return nil, err
	}
	return &latticeSink{w: w, text: wspecIsText(wspec), commit: commit}, nil
}

func (s *latticeSink) writeCompact(key string, c *lattice.CompactLattice) error {
	if s.w == nil {
		return nil
	}
	return lattice.WriteEntry(s.w, key, !s.text, c, nil)
}

func (s *latticeSink) writeLattice(key string, l *lattice.Lattice) error {
	if s.w == nil {
		return nil
	}
	return lattice.WriteEntry(s.w, key, !s.text, nil, l)
}

func (s *latticeSink) close() error {
	if s.commit == nil {
		return nil
	}
	return s.commit()
}

// intVectorSink writes Kaldi int32-vector archives (words, alignments):
// text "key 1 2 3 \n" with ",t", else binary ("\0B", int32 length and
// elements, each with its size byte 4).
type intVectorSink struct {
	w      *bufio.Writer
	text   bool
	commit func() error
	buf    []byte
}

func createIntVectors(ctx *kaldicmd.Context, wspec string) (*intVectorSink, error) {
	if wspec == "" {
		return &intVectorSink{}, nil
	}
	w, commit, err := createTextTable(ctx, wspec)
	if err != nil {
		return nil, err
	}
	return &intVectorSink{w: bufio.NewWriter(w), text: wspecIsText(wspec), commit: commit}, nil
}

func (s *intVectorSink) write(key string, v []int32) error {
	if s.w == nil {
		return nil
	}
	b := append(s.buf[:0], key...)
	b = append(b, ' ')
	if s.text {
		for _, x := range v {
			b = strconv.AppendInt(b, int64(x), 10)
			b = append(b, ' ')
		}
		b = append(b, '\n')
	} else {
		b = append(b, 0, 'B', 4)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		for _, x := range v {
			b = append(b, 4)
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
	}
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

func (s *intVectorSink) close() error {
	if s.w == nil {
		return nil
	}
	if err := s.w.Flush(); err != nil {
		return err
	}
	return s.commit()
}

// fmtG prints a float as a default C++ stream does (6 significant digits).
func fmtG(f float32) string { return strconv.FormatFloat(float64(f), 'g', 6, 64) }
