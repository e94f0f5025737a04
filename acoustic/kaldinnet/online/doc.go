// Package online is streaming recognition with a causal acoustic model, as
// Kaldi's online2 (online2-wav-nnet3-latgen-faster) does it: audio arrives
// in chunks; base features are computed as their samples come in
// (features.Online, bit for bit the whole-utterance features); online CMVN
// (features.OnlineCmvn: a sliding window topped up with the speaker's
// earlier utterances and global stats) and left splicing follow; the causal
// model runs on the new frames with its recurrent state carried
// (am.Stream); its outputs become pseudo log-likelihoods as forward makes
// them (output options, priors); the lattice search advances over them
// (search.LatticeDecoder's AdvanceDecoding); partial results are printed
// as the best path changes, Kaldi's endpoint rules can end an utterance,
// and the final lattice is written as latgen-faster-mapped writes it.
//
// The model must be causal (am.CheckCausal; `strode train --causal`): its
// look-ahead is then 0 frames and frame t's output is final once frame t's
// samples are in — an algorithmic latency of one analysis window, 25 ms at
// Kaldi's 25 ms window and 10 ms shift. A model trained with right context
// or a target delay decodes too, each frame of look-ahead adding 10 ms; a
// bidirectional one is refused. The chunk length and the compute time come
// on top (TimingStats).
//
// For any chunk length the lattice is the one the whole-utterance chain
// gives on the same features — compute the features with online CMVN,
// forward, latgen-faster-mapped — because every stage is causal and
// computes each frame with the same operations whatever the split
// (TestOnlineMatchesOffline checks lattices byte for byte).
//
// The pieces: FeatureConfig/FeatureInfo/FeaturePipeline (Kaldi's
// OnlineNnet2FeaturePipeline), Model/Decoder (DecodableNnetSimpleLoopedInfo
// and SingleUtteranceNnet3Decoder), EndpointConfig (OnlineEndpointConfig),
// Timer/TimingStats (OnlineTimer, OnlineTimingStats) and Recognizer, the
// command's loop over spk2utt and wav tables (DecodeTables) or over live
// audio from a pipe (DecodeStream).
//
// It lives under acoustic/kaldinnet, the one acoustic package that may use
// Kaldi tables and the decoder: it needs features, the model, the
// transition model and the search together.
package online
