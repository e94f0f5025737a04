// Package parallel trains acoustic models data-parallel, as Kaldi's nnet3
// does (steps/nnet3/train_dnn.py, train_rnn.py): the training examples are
// written once into archives (kaldinnet.GetEgs, `strode get-egs`); in each
// iteration N jobs start from the same model N.mdl, each trains on its own
// archive (`strode train-iter`, submitted as one array job through a Kaldi
// job runner: `<cmd> JOB=1:N log/train.N.JOB.log ...`, with run.pl,
// queue.pl, slurm.pl or strode's own), and the jobs' models are averaged
// (trainer.Average, `strode average-models`) into N+1.mdl. The number of jobs
// grows from --num-jobs-initial to --num-jobs-final, and each job's
// learning rate is the effective rate (decaying geometrically from
// --initial-effective-lrate to --final-effective-lrate) times the number
// of jobs, nnet3's rule: averaging N models that each took a step divides
// the step by N.
//
// Unlike nnet3, whose jobs run natural-gradient SGD, our jobs run Adam; its
// moments are averaged with the parameters and carried in N.mdl (see
// acoustic/trainer/average.go for why). Examples are whole utterances (the SRU
// is recurrent over an utterance), not fixed-size chunks. nnet3 picks the
// best job's model instead of averaging on iteration 0 and combines the
// last models at the end (nnet3-combine); we average on every iteration
// and take the last (or best held-out) model as final.mdl.
//
// After each iteration the driver computes the held-out cross-entropy and
// frame accuracy of the averaged model (nnet3's compute_prob on
// valid_diagnostic.egs) and logs `iter N: held-out CE x, frame accuracy
// y%`. An iteration is complete when its averaged model exists: a driver
// killed at any point, re-run with the same options, continues after the
// last complete iteration and ends with the same models as an
// uninterrupted run, every job being seeded by (seed, iteration, job).
package parallel
