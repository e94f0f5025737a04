// Package odernn is the ODE-RNN layer (Rubanova et al. 2019) of the STRODE
// paper's ODE-RNN baseline (acoustic/am's "odernn" kind; BASELINES.md gives
// every choice the paper leaves open): per frame, the previous state
// evolves by dz/dτ = f_o(z) over the unit interval in K Euler steps, then
// an SRU-like gate takes the frame's input,
//
//	p_i = z_{i−1} after K steps,  g_i = σ(F_i + v⊙p_i),  z_i = g_i⊙p_i + (1−g_i)⊙C_i.
//
// NewCell is the layer over a minibatch as one fused graph operation with
// its reverse pass by hand; Stream is the same cell on one utterance's
// frames as they arrive. Only the frames are sequential: each Euler step is
// three products over the minibatch's utterances at once.
package odernn
