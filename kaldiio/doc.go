// Package kaldiio reads and writes Kaldi tables: rspecifier/wspecifier parsing
// (`ark:`, `scp:`, `ark,t:`, `ark,scp:`, `-`, `cmd |`, `| cmd` and Kaldi's
// option letters), streaming archive readers, random access by key, script
// files with byte offsets and end-inclusive row/column ranges, and writers that
// produce files Kaldi's own tools read. It holds the codecs of Kaldi's basic
// objects — float and double matrices and vectors, compressed matrices (CM,
// CM2, CM3), int32 vectors (alignments) and posteriors — and a codec interface
// through which other packages add their objects (waves, FSTs, lattices)
// without this package importing them.
//
// It must not know about features, models or decoding: it moves Kaldi objects
// between bytes and Go values, nothing more.
//
// # Layers
//
// Primitives (Kaldi's io-funcs): Reader and Writer read and write tokens
// ("<TransitionModel>", "FM"), basic types with their size bytes
// (ReadInt32/WriteInt32, ReadFloat32, ReadFloat64, ReadBool, ReadBasicInt for
// other integer widths), the binary marker "\0B" and int32 vectors
// (ReadIntVector, Kaldi's ReadIntegerVector), in binary or text mode chosen per
// call as in Kaldi. Reader counts bytes and lines, so its errors name the
// stream, the byte offset and the line.
//
// Objects: Matrix, DoubleMatrix, Vector, DoubleVector, IntVector, Posterior,
// CompressedMatrix; the Codec interface and the codecs of those objects
// (MatrixCodec, DoubleMatrixCodec, ...). Codecs convert as Kaldi does: a "DM"
// read with MatrixCodec becomes float, compressed matrices are decompressed.
//
// Tables: OpenSequentialReader (streaming, Next/Key/Value/Err/Close, with an
// allocation-free reuse mode), OpenRandomAccessReader (HasKey/Value by key),
// OpenTableWriter (Write/Flush/Close); single objects with ReadObject and
// WriteObject; raw streams with OpenInput and OpenOutput.
//
// # Errors
//
// Bad input never panics. Every error names its place as an *Error (file,
// key, byte offset, line) wrapping a sentinel: ErrFormat, ErrUnknownObject,
// ErrSpecifier, ErrNotFound, ErrPipe (or io.ErrUnexpectedEOF for truncation).
// A corrupt dimension cannot allocate more than the file holds: sizes are
// checked against the bytes left in a regular file, and read in growing chunks
// from pipes.
//
// # Kaldi's text numbers
//
// Kaldi's text streams print floats like C++ `os << x` at precision 7, which is
// printf("%.7g"); AppendFloat reproduces that byte for byte (tested against
// Kaldi's copy-feats output).
package kaldiio
