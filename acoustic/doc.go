// Package acoustic is the STRODE core and the acoustic models built on it: the
// monotone posterior boundary network Φ, the point-process prior φ, the KL term
// of Theorem 1, differentiable ODE solvers, the SRU encoder, the regenerative
// STRODE head for speech, training, the forward pass and model files.
//
// It works on plain matrices and must not know Kaldi's file syntax: only the
// sub-package acoustic/kaldinnet reads Kaldi tables into training batches.
//
// The STRODE core is split by concern:
//
//	acoustic/autodiff   the one place that imports gorgonia: graph building,
//	                    tape machines, broadcasting, stop-gradient, fused ops
//	acoustic/nn         parameters bound to a graph, Linear, MLP and their
//	                    fused forms: the generic layers every model uses
//	acoustic/strode     Φ (Boundary), φ (Prior), the KL term, the
//	                    sequential STRODE model and its variants, CS and gap r
//	acoustic/ode        Euler (fused node, AVX2 kernel) and RK4 solvers
//	acoustic/optim      parameters with sign sets, Adam, SGD, clipping
//	acoustic/modelfile  safetensors model files
//	acoustic/pointproc  Poisson and Hawkes processes (Ogata thinning)
//
// The acoustic models for speech are built from them:
//
//	acoustic/sru        the SRU encoder (fused recurrence, streaming form)
//	acoustic/strodehead the regenerative STRODE head on any encoder's frames
//	acoustic/odernn     the ODE-RNN layer of the paper's baseline
//	acoustic/am         the models, one type per kind behind one interface
//	                    (sru, strode, odernn, dnn), graphs, streams, files
//	acoustic/trainer    training through am's model API alone: schedules,
//	                    checkpoints, data-parallel iterations, averaging
//	acoustic/kaldinnet  training and forward passes over Kaldi tables
//	acoustic/parallel   nnet3-style data-parallel training over a job queue
package acoustic
