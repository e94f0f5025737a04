// Package sru is the Simple Recurrent Unit of Lei et al. 2018 as the
// asappresearch/sru library defines it (DESIGN.md §3):
//
//	U = x·W                                  (one matrix product for all frames)
//	f_t = σ(U1_t + v_f⊙c_{t−1} + b_f)
//	r_t = σ(U2_t + v_r⊙c_{t−1} + b_r)
//	c_t = f_t⊙c_{t−1} + (1−f_t)⊙U0_t
//	h_t = r_t⊙g(c_t) + (1−r_t)⊙x′_t
//
// with g the identity (tanh as an option) and x′ = x when the input and
// hidden sizes agree, else the highway projection U3 (W then has 4h
// columns). Frames are laid out time-major: row t·B + b of every N×· matrix
// (N = T·B) is frame t of utterance b, so a batch of padded utterances is one
// block, and a 0/1 mask column says which rows are real. On a padded frame
// c is carried unchanged and h is 0.
//
// Training and forward passes run the whole stack as one fused graph
// operation in float32 (stack.go): per layer one SGEMM through
// internal/gemm for U = x·W, the recurrence with its gates kept for the
// reverse pass (recurrence32.go, σ vectorised with AVX2), dropout masks as
// float32 buffers (Dropout); the output layer is another fused float32
// operation (Affine). The surrounding graph stays float64. Setting
// Float32Products to false builds the same model from float64 graph nodes
// instead — per layer a graph multiply and the fused float64 Recurrence,
// whose hand-written backward pass recomputes c — which is what the
// finite-difference gradient checks run on; TestStackMatchesGraph ties the
// two together.
//
// Options.Bidirectional gives each layer a second recurrence with its own
// parameters (named NAME.reverse.*) that runs backwards over every
// utterance's real frames, as asappresearch/sru's bidirectional=True: each
// direction has Hidden units and the layer's output is [forward | reverse],
// 2·Hidden wide, the next layer's input. DESIGN.md does not cover it; we
// follow the library: a direction's highway x′ is its own half of x when
// the input is 2·Hidden wide (K = 3), else the projection U3 (K = 4). The
// reverse direction runs the unchanged recurrence on x with each
// utterance's real frames reversed (bidir.go), so it starts at that
// utterance's last real frame, not at the padded end of the batch.
//
// Stream (stream.go) runs a unidirectional encoder over an utterance whose
// frames arrive in pieces, carrying each layer's cell state from piece to
// piece: online decoding. Its outputs are the fused stack's bit for bit, for
// any split; a bidirectional encoder is refused (ErrBidirectional), since
// its reverse direction starts at the utterance's end.
//
// Initialisation follows the library's reset_parameters: W ~ U(±√(3/in)),
// the forget- and reset-gate columns scaled by √0.5, v ~ U(±√3)·√0.5, b_f = 0
// and the reset-gate bias b_r = the highway bias (0 by default); the
// library's rescale is off, as in its SRU module.
package sru
