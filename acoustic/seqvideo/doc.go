// Package seqvideo is the four models of the STRODE paper's Rotating MNIST
// experiment (ICML 2021, Table 1) on the shared STRODE core: NODE, ODE-RNN,
// STRODE and STRODE-RNN, each predicting the next frame of a video of
// 64×64 frames. It follows the reference code (Waffle-Liu/STRODE,
// rotatingMNIST/model.py) except where this comment says otherwise.
//
// All four encode every frame with the reference's DCGAN-style CNN
// (acoustic/conv: conv 5×5 stride 4 → LeakyReLU 0.2, two conv 5×5 stride 2
// → BatchNorm → LeakyReLU 0.2, conv 4×4 to a 4·ndf latent z_i, no biases)
// and decode with its mirror (three transposed conv → BatchNorm → ReLU,
// transposed conv → tanh). Between them a latent ODE dh/dτ = f_o(h),
// f_o = Linear → tanh → Linear → tanh → Linear (hidden 100, weights
// N(0, 0.1²) as the reference's init_network_weights), restarts from z_i at
// every frame and runs 10 Euler steps over [t_i, t_{i+1}]:
//
//   - NODE: index times t_i = i, so every interval is 1 (the last frame's
//     is empty, t_N := t_{N−1}, as the reference pads its list of times
//     with the last one, so the last output reconstructs the last frame);
//   - ODE-RNN: NODE, then a two-layer SRU (acoustic/sru, hidden 4·ndf, the
//     reference's SRU(num_layers=2)) runs over the N ODE outputs and its
//     outputs are decoded: the "RNN update at each observation";
//   - STRODE: times from the boundary network of acoustic/strode,
//     t_i = Φ(t_{i−1}, z_i) with t_{−1} = 0 (so t_0 = Φ(0, z_0) > 0, as the
//     reference starts its recurrence at 0 and keeps every output), Φ's
//     hidden size 64 (the reference's time_dim); loss = MSE + w_kl·KL term;
//   - STRODE-RNN: STRODE with the SRU of ODE-RNN.
//
// Options.Variant phase-state (node and strode) draws each prediction as dec(z_i) turned by ω times the
// elapsed inferred time (rotation.go), and its Φ reads the turn that
// registers each frame onto the next (FrameTurns, a label-free,
// rotation-equivariant feature of the pixels), with a loss term asking
// ω·gap to equal that turn: DESIGN.md §3 has the equations. Variant pose
// (strode only, VariantPose) carries the angle across the video from
// φ(0) = 0: every frame is dec(z_i) turned by ω·t_j, the absolute time, so
// dec(z_i) draws one canonical pose and the first time t_0 is the first
// frame's turn from it, which Φ reads and a loss term pins to PoseAngle of
// the first frame (pose.go), as the gaps are pinned to FrameTurns; it is
// recipes/rotmnist's default for strode.
//
// The loss's MSE is the reference's: the mean over every pixel of the N
// outputs against x_{min(i+1, N−1)}, i.e. N−1 next-frame predictions and
// one reconstruction; Batch.NextFrameMSE gives the predictions' own.
//
// Where we differ from the reference, following DESIGN.md §3:
//
//   - the prior φ is unconditional (a proper point-process density), where
//     the reference conditions it on x through a second CNN encoder;
//   - the KL term is Theorem 1's on quadrature nodes (strode.KL) with its
//     |·|, where the reference evaluates q and p only at the sampled t and
//     drops the |·|; w_kl = 5e-5 as the reference;
//   - the reference's Φ derivative by autograd is our tangent propagation.
//
// Width: --ndf scales every layer (the paper's 128; the default here is 16
// for CPUs, latent 64). Products run in float32 (the convolutions through
// internal/gemm, the Euler solve and the SRU fused), as the reference trains;
// Options.Float64 switches the convolutions and the solve to float64 for
// the gradient checks (the SRU follows sru.Float32Products).
//
// BatchNorm has PyTorch's training and evaluation modes (Model.SetTraining,
// like model.train() / model.eval()); the running statistics are saved with
// the parameters (Model.Save, Load) and copied by Snapshot for keeping the
// best epoch.
package seqvideo
