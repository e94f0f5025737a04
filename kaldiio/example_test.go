package kaldiio_test

import (
	"fmt"
	"os"

	"github.com/strode-asr/strode/kaldiio"
)

// Stream a feature archive written by Kaldi, decoding each matrix into the
// previous one's storage.
func ExampleOpenSequentialReader() {
	r, err := kaldiio.OpenSequentialReader("ark:testdata/mat.ark", kaldiio.MatrixCodec)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	r.SetReuse(true)
	for r.Next() {
		m := r.Value()
		fmt.Printf("%s: %d x %d, first %g\n", r.Key(), m.Rows, m.Cols, m.At(0, 0))
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// m1: 2 x 3, first 1
	// m2: 3 x 4, first -1.5
	// m_row: 1 x 3, first 7
}

// Write a text archive to standard output, as `copy-matrix ... ark,t:-`.
func ExampleOpenTableWriter() {
	w, err := kaldiio.OpenTableWriter("ark,t:-", kaldiio.VectorCodec, kaldiio.WithStdout(os.Stdout))
	if err != nil {
		fmt.Println(err)
		return
	}
	w.Write("utt1", kaldiio.Vector{1, 2.5, -3.25})
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// utt1  [ 1 2.5 -3.25 ]
}

// Look CMVN statistics up by key in an archive (scanned once, read back by
// byte offset).
func ExampleOpenRandomAccessReader() {
	r, err := kaldiio.OpenRandomAccessReader("ark:testdata/cmvn23.ark", kaldiio.DoubleMatrixCodec)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	stats, err := r.Value("s_utt2")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d x %d, frames %g\n", stats.Rows, stats.Cols, stats.At(0, stats.Cols-1))
	_, err = r.Value("nobody")
	fmt.Println(err)
	// Output:
	// 2 x 24, frames 175
	// testdata/cmvn23.ark: key "nobody": key not found
}
