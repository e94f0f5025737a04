// Package jobs runs the parallel jobs of a Kaldi-style recipe the way Kaldi's
// utils/run.pl, utils/slurm.pl and utils/queue.pl do, so a recipe that sends
// every job through `$cmd` works unchanged with Kaldi's scripts or with
// `strode run.pl`, `strode slurm.pl` and `strode queue.pl`.
//
// All three take run.pl's command line: options first (`--max-jobs-run 4`,
// `-tc 4`, `--mem 4G`, `--num-threads 2`, `--gpu 0`, `--time 1:00:00`,
// `--config conf/x.conf`), then an optional job range `JOB=1:N` (any
// identifier left of '='), the log file, and the command words. The words are
// joined with run.pl's quoting rule, the identifier is replaced by the job
// number in the log name and the command, and each job's stdout and stderr go
// to its log between run.pl's header (`# <cmd>`, `# Started at <date>`, `#`)
// and footer (`# Accounting: time=N threads=T`, `# Ended (code N) at <date>,
// elapsed time N seconds`). Local runs jobs on this machine with at most
// --max-jobs-run at once; Grid submits one array job through sbatch (Slurm) or
// qsub (GridEngine), waits for it, and reads each job's status from the
// `# Ended` line of its log, which the generated job script writes in the
// same layout plus a `# Slurm job id: N` (or `# SGE job id: N`) header line.
// As with Kaldi's scripts, the exit status is 0 when every job succeeded and 1
// otherwise, after `<prog>: K / N failed, log is in <log>`.
package jobs
