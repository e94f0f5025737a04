// Package am is the acoustic model of DESIGN.md §3: one model kind per
// type behind one interface (arch.go), every kind ending in the same
// affine output layer under the log-softmax (Model.Out) and trained on the
// same frame cross-entropy:
//
//	e_i = SRU(x)_i
//	sru:    logits_i = W·e_i + b                                  (kind_sru.go)
//	strode: t̃_i = Φ(ε0, e_i);  h(0) = P·e_i;  h̃_i = h(t̃_i) by K Euler steps of f_o;
//	        logits_i = W·e_i + W_h·h̃_i + b                       (kind_strode.go)
//	loss = mean_i CE_i + w_kl·mean_i KL_i − w_p·mean_i mean_d log N(h̃_i,d; μ_d, σ²_d)
//
// where the STRODE head is package acoustic/strodehead, (μ, σ²) come from
// an MLP of the next frame's input features (the last frame of an
// utterance uses its own; padded frames are masked out of every term), and
// the prior is used in training only, so decoding needs no look-ahead.
// With Options.PriorInput "teacher" the MLP reads instead a frozen
// bidirectional teacher's encoder output at frame i (Utterance.PriorIn,
// filled by acoustic/trainer's teachers). A training graph's targets can
// also be smoothed or mixed with a teacher's posteriors (TrainTerms:
// (1−λ)·CE(alignment) + λ·CE(Utterance.Soft), BuildWith).
//
// The STRODE paper's baselines are kinds too (BASELINES.md gives every
// choice the paper leaves open): "odernn", an SRU encoder, an ODE-RNN layer
// whose state evolves by f_o over the unit interval between frames (package
// acoustic/odernn) and an SRU decoder (kind_odernn.go); "dnn", Kaldi
// nnet1's feed-forward network on spliced features (kind_dnn.go). A new
// kind is a type implementing arch in a file of its own and one line in
// the registry (arch.go's kinds); nothing else in the package names a kind.
// Shapes and CountParts give parameter counts per part without a model.
//
// Model.Build gives a kind's graph for a minibatch (Batch: Load, Run,
// Stats); Forwarder runs one utterance at a time as nnet-forward does. It
// gets plain matrices (Utterance) and knows nothing of Kaldi tables;
// package acoustic/kaldinnet reads those. The model file (File) is a
// safetensors file whose metadata holds the options, the feature pipeline
// the model was trained on, the number of pdfs and the training history.
// Training — schedules, checkpoints, data-parallel iterations and model
// averaging — is package acoustic/trainer, which sees only this model API.
//
// A causal model (one SRU direction, no right splicing, no target delay:
// CheckCausal, Lookahead) can run on frames as they arrive: Stream is its
// incremental forward pass, the recurrent state carried from call to call,
// bit for bit Forwarder's logits for any split (online decoding; look-ahead
// 0 frames, so a frame's output is final once its own 25 ms window is in).
package am
