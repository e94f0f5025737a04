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
package kaldiio
