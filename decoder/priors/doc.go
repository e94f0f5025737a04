// Package priors turns pdf frame counts into log priors and subtracts them
// from a network's outputs, as Kaldi's nnet1 PdfPrior does for
// `nnet-forward --class-frame-counts`: the outputs (log-posteriors or
// pre-softmax activations) become pseudo log-likelihoods for the decoder.
//
// Numerics, as nnet1: relative frequencies f_i = c_i / Σc in double
// precision; log prior = log(f_i + 1e-20); a pdf with f_i < --prior-floor gets
// log prior √FLT_MAX ≈ 1.8447e19 (not +Inf, so no NaN appears downstream),
// which after subtraction bans it from decoding. The log priors are then
// stored in single precision and subtracted scaled by --prior-scale.
package priors
