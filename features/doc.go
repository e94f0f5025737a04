// Package features computes Kaldi-compatible acoustic features: WAV reading as
// Kaldi's WaveData (and the wave codec for tables), framing and windowing as
// FrameExtractionOptions, mel filter banks, fbank and MFCC, CMVN statistics and
// their application, deltas and frame splicing. Options structs carry Kaldi's
// option names and defaults, so a model trained on Kaldi's features decodes
// ours and the other way round.
//
// It must not know about models or decoding: it turns samples into matrices.
package features
