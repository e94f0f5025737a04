// Package trainer trains the acoustic models of package acoustic/am with
// frame cross-entropy: Trainer runs epochs over minibatches of similar
// length (Batches) with Adam or SGD (optimizer.go), SpecAugment masking
// (MaskOptions) and label smoothing, evaluates a held-out set after each,
// and follows nnet1's newbob schedule or early stopping; it checkpoints
// every epoch, with the optimizer state, so that --resume continues bit for
// bit. For data-parallel training (package acoustic/parallel),
// Trainer.RunIteration trains one job's copy of a model on one archive and
// Average (nnet3-average's counterpart) averages the jobs' models, Adam's
// moments with the parameters (average.go says why). Teachers (teacher.go:
// strode train's --prior-teacher, --distill-teacher) are frozen models run
// once over the data, whose rows — encoder outputs for a STRODE prior,
// posteriors as distillation's soft targets — the student trains on; they
// are read, never stepped, and the student decodes without them. Sequence
// (sequence.go, mmi.go, smbr.go: strode train --den-lats) makes training
// nnet1's sequence training of a cross-entropy model, MMI or sMBR
// (--criterion): each minibatch's utterances are run forward with the
// current parameters, their denominator lattices rescored with those
// log-likelihoods, and the criterion's rows — MMI's onehot(alignment) −
// denominator posteriors, sMBR's accuracy-weighted posteriors γ·(c − c̄) —
// become the targets of the distillation term with weight 1; both sum to
// zero on every frame, so that term's gradient is exactly the criterion's.
// PlotHistory draws the
// training curves and ReadSummary reads a model file's history for reports.
//
// It depends only on am's model API, never on a model kind: a model is
// built into minibatch graphs (Model.BuildWith, kept in an
// am.GraphCache), loaded, run and read (Batch.Load, Run, Stats), its
// parameters stepped through Model.Params, and Model.HasTTilde says whether
// the held-out t̃ statistics go into the history. A new model kind needs
// nothing here.
package trainer
