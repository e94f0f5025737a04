package kaldiio

// Codec reads and writes one kind of object in Kaldi's binary and text forms.
// Tables (SequentialReader, RandomAccessReader, TableWriter) are generic over
// the object type and take a Codec, so other packages add their own objects
// (waves, FSTs, lattices) without this package importing them.
//
// The table layer reads and writes the "\0B" binary marker in front of each
// object and passes the mode as binary; the codec reads and writes only the
// object itself (from its token, e.g. "FM ", on). A codec whose objects carry
// no marker (a wave: the key is followed directly by "RIFF") also implements
// RawCodec.
//
// Read decodes into *v, reusing the storage v already holds where it can
// (that is what makes SequentialReader's reuse mode allocation-free). On bad
// input it returns an error from r.Errorf (or any error wrapping ErrFormat);
// the table layer adds the file and key. An unknown token must give an error
// wrapping ErrUnknownObject that names the token.
type Codec[T any] interface {
	Read(r *Reader, binary bool, v *T) error
	Write(w *Writer, binary bool, v *T) error
}

// RawCodec marks a codec whose objects have no "\0B" marker: the table layer
// neither expects nor writes one, and passes binary = true to Read. Kaldi's
// WaveHolder behaves this way; so do scp offsets of such entries, which point
// at the object itself (at "RIFF").
type RawCodec interface {
	RawObject()
}

// Codecs of Kaldi's basic objects.
var (
	// MatrixCodec: Matrix<BaseFloat>. Reads FM, DM (converted to float, as
	// Kaldi does), CM/CM2/CM3 (decompressed) and text; writes FM or text.
	MatrixCodec Codec[Matrix] = matrixCodec{}
	// DoubleMatrixCodec: Matrix<double>. Reads DM, FM (converted), CM* and
	// text; writes DM or text.
	DoubleMatrixCodec Codec[DoubleMatrix] = doubleMatrixCodec{}
	// VectorCodec: Vector<BaseFloat>. Reads FV, DV (converted) and text;
	// writes FV or text.
	VectorCodec Codec[Vector] = vectorCodec{}
	// DoubleVectorCodec: Vector<double>. Reads DV, FV (converted) and text;
	// writes DV or text.
	DoubleVectorCodec Codec[DoubleVector] = doubleVectorCodec{}
	// IntVectorCodec: Kaldi's BasicVectorHolder<int32> (alignments): binary
	// is an int32 length then every element as an int32 with its own size
	// byte; text is "1 2 3 \n".
	IntVectorCodec Codec[IntVector] = intVectorCodec{}
	// PosteriorCodec: Kaldi's PosteriorHolder.
	PosteriorCodec Codec[Posterior] = posteriorCodec{}
	// Int32Codec: BasicHolder<int32> (e.g. feat-to-len output): "129 \n".
	Int32Codec Codec[int32] = basicCodec[int32]{(*Reader).ReadInt32, (*Writer).WriteInt32}
	// FloatCodec: BasicHolder<BaseFloat>.
	FloatCodec Codec[float32] = basicCodec[float32]{(*Reader).ReadFloat32, (*Writer).WriteFloat32}
	// DoubleCodec: BasicHolder<double>.
	DoubleCodec Codec[float64] = basicCodec[float64]{(*Reader).ReadFloat64, (*Writer).WriteFloat64}
	// CompressedMatrixCodec: CompressedMatrix (CM, CM2, CM3) kept compressed.
	// Reads CM* as is, and FM/DM/text by compressing with method 1; writes
	// the compressed bytes (binary) or the decompressed matrix (text), as
	// Kaldi does.
	CompressedMatrixCodec Codec[CompressedMatrix] = compressedCodec{}
)

// unknownToken is the error for an object token no codec knows.
func (r *Reader) unknownToken(tok string, want string) error {
	if len(tok) > 20 {
		tok = tok[:17] + "..."
	}
	return &Error{File: r.name, Offset: r.tokOff, Line: r.tokLin + 1, Err: &tokenError{tok: tok, want: want}}
}

type tokenError struct{ tok, want string }

func (e *tokenError) Error() string {
	return "unknown object token \"" + e.tok + "\", expected " + e.want
}
func (e *tokenError) Unwrap() []error { return []error{ErrUnknownObject, ErrFormat} }
