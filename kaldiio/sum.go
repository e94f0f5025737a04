package kaldiio

import (
	"flag"
	"fmt"
)

// MatrixSumRowsOptions are matrix-sum-rows' options.
type MatrixSumRowsOptions struct {
	DoAverage bool // --do-average: the mean row instead of the sum
}

// Register adds the options to fs.
func (o *MatrixSumRowsOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.DoAverage, "do-average", o.DoAverage, "Do average instead of sum")
}

// VectorSumOptions are vector-sum's options.
type VectorSumOptions struct {
	Binary bool // --binary [true]: the single output file's format
}

// DefaultVectorSumOptions are Kaldi's defaults.
func DefaultVectorSumOptions() VectorSumOptions { return VectorSumOptions{Binary: true} }

// Register adds the options to fs.
func (o *VectorSumOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "If true, write output as binary (only relevant for usage types two or three)")
}

// MatrixSumRows is matrix-sum-rows: every matrix of in summed over its rows
// (in double, as Kaldi does, to keep the roundoff small), or with
// --do-average divided by its number of rows, written as a float vector
// under the same key. It returns the matrices and rows read.
func MatrixSumRows(in, out string, o MatrixSumRowsOptions, opts ...Option) (done int, rows int64, err error) {
	r, err := OpenSequentialReader(in, MatrixCodec, opts...)
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	r.SetReuse(true)
	w, err := OpenTableWriter(out, VectorCodec, opts...)
	if err != nil {
		return 0, 0, err
	}
	for r.Next() {
		m := r.Value()
		sum := make([]float64, m.Cols)
		for i := 0; i < m.Rows; i++ {
			for j, v := range m.Row(i) {
				sum[j] += float64(v)
			}
		}
		scale := 1.0
		if o.DoAverage && m.Rows > 0 {
			scale = 1 / float64(m.Rows)
		}
		vec := make(Vector, m.Cols)
		for j, v := range sum {
			vec[j] = float32(v * scale)
		}
		if err := w.Write(r.Key(), vec); err != nil {
			w.Abort()
			return done, rows, err
		}
		done++
		rows += int64(m.Rows)
	}
	if err := r.Close(); err != nil {
		w.Abort()
		return done, rows, err
	}
	return done, rows, w.Close()
}

// VectorSumStats are what vector-sum reports.
type VectorSumStats struct {
	Done, Errors int
}

// VectorSumTable is vector-sum's first form: for every key of the first
// rspecifier, the sum of its vector and the others' of the same key, written
// to out. A key another table lacks, or with a vector of another dimension,
// is an error for that key (warned through warn and counted; the key is
// written with what was summed, as Kaldi's). ins must be rspecifiers.
func VectorSumTable(ins []string, out string, warn func(string, ...any), opts ...Option) (VectorSumStats, error) {
	var st VectorSumStats
	r, err := OpenSequentialReader(ins[0], VectorCodec, opts...)
	if err != nil {
		return st, err
	}
	defer r.Close()
	others := make([]*RandomAccessReader[Vector], 0, len(ins)-1)
	for _, in := range ins[1:] {
		o, err := OpenRandomAccessReader(in, VectorCodec, opts...)
		if err != nil {
			return st, err
		}
		defer o.Close()
		others = append(others, o)
	}
	w, err := OpenTableWriter(out, VectorCodec, opts...)
	if err != nil {
		return st, err
	}
	for r.Next() {
		key := r.Key()
		sum := append(Vector(nil), r.Value()...)
		for i, o := range others {
			ok, err := o.HasKey(key)
			if err != nil {
				w.Abort()
				return st, err
			}
			if !ok {
				warn("No vector found for utterance %s for system %d, rspecifier = %s", key, i+2, ins[i+1])
				st.Errors++
				continue
			}
			v, err := o.Value(key)
			if err != nil {
				w.Abort()
				return st, err
			}
			if len(v) != len(sum) {
				warn("Dimension mismatch for utterance %s : %d for system %d, rspecifier: %s vs %d for system 1", key, len(v), i+2, ins[i+1], len(sum))
				st.Errors++
				continue
			}
			for j, x := range v {
				sum[j] += x
			}
		}
		if err := w.Write(key, sum); err != nil {
			w.Abort()
			return st, err
		}
		st.Done++
	}
	if err := r.Close(); err != nil {
		w.Abort()
		return st, err
	}
	return st, w.Close()
}

// VectorSumArchive is vector-sum's second form: every vector of the
// rspecifier in summed (in double) into one vector, written to the
// wxfilename out (how make_priors.sh totals posteriors). A vector whose
// dimension is not the first one's, or empty, is warned about, counted and
// skipped.
// An empty archive writes an empty vector, as Kaldi's.
func VectorSumArchive(in, out string, o VectorSumOptions, warn func(string, ...any), opts ...Option) (VectorSumStats, error) {
	var st VectorSumStats
	r, err := OpenSequentialReader(in, VectorCodec, opts...)
	if err != nil {
		return st, err
	}
	defer r.Close()
	r.SetReuse(true)
	var sum []float64
	for r.Next() {
		v := r.Value()
		if len(v) == 0 {
			warn("Zero vector input for key %s", r.Key())
			st.Errors++
			continue
		}
		if sum == nil {
			sum = make([]float64, len(v))
		}
		if len(v) != len(sum) {
			warn("Mismatched vector dimensions %d vs %d (key %s)", len(v), len(sum), r.Key())
			st.Errors++
			continue
		}
		for j, x := range v {
			sum[j] += float64(x)
		}
		st.Done++
	}
	if err := r.Close(); err != nil {
		return st, err
	}
	vec := floatVector(sum)
	return st, WriteObject(out, VectorCodec, o.Binary, &vec, opts...)
}

// VectorSumFiles is vector-sum's third form: the vectors of the
// rxfilenames ins summed into the wxfilename out; their dimensions must
// agree.
func VectorSumFiles(ins []string, out string, o VectorSumOptions, opts ...Option) error {
	var sum []float64
	for i, in := range ins {
		var v Vector
		if err := ReadObject(in, VectorCodec, &v, opts...); err != nil {
			return err
		}
		if i == 0 {
			sum = make([]float64, len(v))
		}
		if len(v) != len(sum) {
			return fmt.Errorf("%s: vector of dimension %d, %s has %d", in, len(v), ins[0], len(sum))
		}
		for j, x := range v {
			sum[j] += float64(x)
		}
	}
	vec := floatVector(sum)
	return WriteObject(out, VectorCodec, o.Binary, &vec, opts...)
}

// floatVector is a double sum rounded to Kaldi's float vector.
func floatVector(sum []float64) Vector {
	vec := make(Vector, len(sum))
	for j, x := range sum {
		vec[j] = float32(x)
	}
	return vec
}
