// Package features computes Kaldi-compatible acoustic features: WAV reading as
// Kaldi's WaveData (and the wave codec for tables), framing and windowing as
// FrameExtractionOptions, mel filter banks, fbank and MFCC, CMVN statistics and
// their application, deltas and frame splicing. Options structs carry Kaldi's
// option names and defaults, so a model trained on Kaldi's features decodes
// ours and the other way round.
//
// It must not know about models or decoding: it turns samples into matrices.
//
// # API
//
//   - Waves: ReadWave (RIFF/WAVE or FLAC), (*WaveData).Write, (*WaveData).Channel; WaveCodec for
//     kaldiio tables (archives of waves, wav.scp paths, pipes, wav.ark:OFFSET).
//   - HTK feature files: HtkMatrixCodec (Kaldi's HtkMatrixHolder, read and
//     write), NewHtkFeatures (the header compute-*-feats --output-format=htk
//     writes).
//   - Options (each with Register(fs) under Kaldi's names and a Default…
//     constructor): FrameExtractionOptions, MelBanksOptions, FbankOptions,
//     MfccOptions, DeltaFeaturesOptions, ComputeFeatsOptions,
//     ExtractSegmentsOptions, ApplyCmvnOptions.
//   - Computers (one per feature type, Kaldi's FbankComputer/MfccComputer):
//     NewFbank, NewMfcc, both satisfying Computer; MelBanks.
//   - The offline driver: NewOffline(c).Compute(dst, key, samples, rate, warp)
//     returns the row-major feature matrix; training calls it on the fly.
//   - Online (streaming) features, Kaldi's online-feature.h: NewOnline(c, key,
//     warp) takes samples piece by piece (AcceptWaveform, InputFinished) and
//     hands out each frame once its last sample is in (Take), bit for bit the
//     frames of Offline; OnlineCmvn (OnlineCmvnOptions, OnlineCmvnState) is
//     Kaldi's causal CMVN: a sliding window topped up with the speaker's
//     earlier utterances and global stats; WaveStream (OpenWaveStream,
//     NewRawPCMStream) reads samples from a pipe as they arrive.
//   - Post-processing: NewCmvnStats, AccCmvnStats, AccCmvnStatsWeighted,
//     ApplyCmvn, ApplyCmvnReverse,
//     NewDeltaFeatures(…).Compute, SpliceFrames, ResampleWaveform.
//   - Table drivers behind the strode subcommands: ComputeFeats (worker pool,
//     output in input order, Kaldi or HTK output, utt2dur, progress lines),
//     ComputeCmvnStatsTable(Weighted), ApplyCmvnTable,
//     MapFeatures, ExtractSegments, CopyWaves, SpeedPerturbWaves (tables, or one
//     wave file or stream: the form a wav.scp pipe uses), WavToDuration.
//
// # Numerics
//
// Kaldi computes in float. Where a low-energy mel bin sits next to strong
// ones, Kaldi's own float FFT rounding dominates that bin, so an exact FFT
// would differ from Kaldi by more than Kaldi differs from itself. We
// therefore perform Kaldi's float operations in Kaldi's order: the
// split-radix real FFT (srfft.go, with AVX kernels that round identically),
// the mixed-radix FFT for other lengths (mixedfft.go), glibc's cosf/sinf for
// the twiddle tables (sincosf.go), Kaldi's float DC removal, pre-emphasis
// and windowing. The mel scale, the log mel energies and the log-energy use
// glibc's logf (logf.go), which Kaldi's Log(float) calls and which is not
// always the correctly rounded log. The mel filters sum in double (an
// emulation of OpenBLAS's sdot order gained 0.1 % at two to three times the
// cost) and the DCT follows the order of OpenBLAS's C sgemv_t kernel
// (blas.go), chosen by measurement since the golden data do not record
// which OpenBLAS kernels ran. On the golden data 97.5 % (23 bins) and
// 97.6 % (40 bins) of Kaldi's binary fbank values are reproduced bit for
// bit, the rest within 1.9e-6; kaldi-mini's MFCCs 47 %, within 2.8e-5
// (TestBitExactFraction pins these fractions).
//
// # Speed
//
// Offline.Compute extracts frames in order and hands them to the computer
// eight at a time. The eight frames are transposed so that each lane of an
// AVX register holds one frame (srfft_batch.go): every step of Kaldi's
// split-radix FFT then runs on whole vectors, and each lane sees exactly
// Kaldi's float operations, so the spectra are bit-identical to the
// one-frame code while the small sub-transforms, which the one-frame code
// runs in scalar, use the full vector width. DC removal, pre-emphasis and
// the window are one AVX pass per frame, with the DC sums of eight frames
// in eight interleaved sequential chains (frame.go). Table drivers recycle
// sample and feature buffers (bufpool.go), and in the worker pool (pool.go)
// every goroutine reads, computes and writes, so no core waits for a
// producer or writer goroutine to be scheduled.
//
// # WAV input beyond Kaldi
//
// Kaldi reads 16-bit PCM only. We also read 8-bit (unsigned), 24- and 32-bit
// integer and 32-bit float PCM (plain or WAVE_FORMAT_EXTENSIBLE), scaled to
// the 16-bit range: 8-bit as (x−128)·256, 24-bit as x/256, 32-bit as
// x/65536, float as x·32768. A float sample that is NaN or Inf is an error.
// µ-law, A-law, 12-bit and other encodings are Kaldi's errors.
//
// FLAC, which Kaldi reads only through a pipe ("flac -c -d -s x.flac |"),
// is read directly too (flac.go, with github.com/mewkiz/flac), so a wav.scp
// may name .flac files where the flac program is not installed. ReadWave
// tells FLAC from RIFF by the first four bytes; frame CRCs, the MD5
// signature and the sample count are checked as `flac -d` does. A FLAC
// stream must be a whole file or pipe, not a member of a wave archive.
//
// # Dither
//
// --dither noise is Gaussian from a PCG generator seeded by --dither-seed
// and the utterance key, so results do not depend on thread scheduling.
package features
