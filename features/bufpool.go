package features

import "sync"

// Buffers the table drivers recycle between utterances. Without them every
// utterance allocates its samples (4 bytes a sample), its raw bytes and its
// feature matrix; at ~100k frames/s that is hundreds of MB/s of garbage, and
// the collector's stop-the-world preemptions cost a tenth of a one-core run.

// floatPool recycles float32 slices of one kind (samples or features, so
// that sizes stay alike).
type floatPool struct{ p sync.Pool }

// get returns a slice of length n, from the pool when one with the
// capacity is there. Its contents are undefined.
func (fp *floatPool) get(n int) []float32 {
	if p, ok := fp.p.Get().(*[]float32); ok {
		if cap(*p) >= n {
			return (*p)[:n]
		}
		fp.p.Put(p)
	}
	return make([]float32, n, n+n/4)
}

// put gives s back; the caller must not use it afterwards.
func (fp *floatPool) put(s []float32) {
	if cap(s) > 0 {
		fp.p.Put(&s)
	}
}

var (
	samplePool floatPool // mono 16-bit waves read by ReadWave
	featPool   floatPool // feature matrices of ComputeFeats
)

// readBlock is the size of the blocks in which readPCM16 reads raw bytes
// (rounded down to whole sample frames).
const readBlock = 16 << 10

var blockPool = sync.Pool{New: func() any { b := make([]byte, readBlock); return &b }}
