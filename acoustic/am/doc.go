// Package am is the acoustic model of DESIGN.md §3: an SRU encoder with
// either an affine + log-softmax output ("sru") or the regenerative STRODE
// postdictive head ("strode"), both from one code path:
//
//	e_i = SRU(x)_i
//	sru:    logits_i = W·e_i + b
//	strode: t̃_i = Φ(ε0, e_i);  h(0) = P·e_i;  h̃_i = h(t̃_i) by K Euler steps of f_o;
//	        logits_i = W·[e_i ; h̃_i] + b
//	loss = mean_i CE_i + w_kl·mean_i KL_i − w_p·mean_i mean_d log N(h̃_i,d; μ_d, σ²_d)
//
// where (μ, σ² = softplus(s) + 1e-3) come from an MLP of the next frame's
// input features (the last frame of an utterance uses its own; padded
// frames are masked out of every term). The prior is used in training only,
// so decoding needs no look-ahead.
//
// The STRODE paper's baselines come from the same code path (BASELINES.md
// gives every choice the paper leaves open): "odernn", an SRU encoder, an
// ODE-RNN layer whose state evolves by f_o over the unit interval between
// frames, and an SRU decoder (odernn.go, the fused cell in odernn_cell.go);
// "dnn", Kaldi nnet1's feed-forward network on spliced features (dnn.go).
// Shapes and CountParts give parameter counts per part without a model.
//
// It gets plain matrices (Utterance) and knows nothing of Kaldi tables;
// package acoustic/kaldinnet reads those. The model file (File) is a
// safetensors file whose metadata holds the options, the feature pipeline
// the model was trained on, the number of pdfs and the training history.
//
// A causal model (one SRU direction, no right splicing, no target delay:
// CheckCausal, Lookahead) can run on frames as they arrive: Stream is its
// incremental forward pass, the recurrent state carried from call to call,
// bit for bit Forwarder's logits for any split (online decoding; look-ahead
// 0 frames, so a frame's output is final once its own 25 ms window is in).
//
// For data-parallel training (package acoustic/parallel), RunIteration
// trains one job's copy of a model on one archive and Average (nnet3-average's
// counterpart) averages the jobs' models. Adam's moments are averaged with the
// parameters (the step count is the rounded mean) and carried to the next
// iteration in the model file, rather than reset or kept per job: see
// average.go for why.
package am
