// Package hmm is Kaldi's src/hmm: the HMM topology of each phone (Topology,
// lang/topo), the TransitionModel that numbers every transition of every
// (phone, HMM state, pdf) tuple with a transition-id and holds its
// log-probability, and the tools over them: AddSelfLoops (hmm-utils), the
// show-transitions and hmm-info listings (Print, PrintInfo), and Kaldi's
// Posterior helpers (posterior.h: ProbToPost, PostOnAli). TopologyCodec and
// TransitionModelCodec read and write Kaldi's binary and text forms
// byte-identically; ReadTransitionModel reads the transition model at the
// head of any final.mdl (GMM or nnet), which is all the decoder and the
// acoustic trainers need of it.
//
// It builds on packages fst (graphs, symbol tables) and tree (pdf-ids of
// context windows); align, mkgraph, search, gmm and acoustic/kaldinnet build
// on it. ErrModel is tree.ErrModel, one sentinel for both halves of the
// acoustic model.
package hmm
