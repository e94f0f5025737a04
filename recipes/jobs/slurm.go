package jobs

import (
	"fmt"
	"regexp"
)

// Slurm is slurm.pl: sbatch with Kaldi's default configuration (or
// conf/slurm.conf, or --config FILE, in Kaldi's syntax). The default maps
// --mem 4G to --mem-per-cpu 4G, --num-threads N to --cpus-per-task N
// --ntasks-per-node=1, --time T to --time T and --gpu N (N > 0) to
// --gres=gpu:N, as slurm.pl's default configuration does, except that it
// picks no partition: slurm.pl's `-p shared` / `-p gpu` name partitions few
// clusters have, so the cluster's default partition is used (give `-p NAME`,
// or a configuration, to choose one). --max-jobs-run M (or -tc M) becomes
// the array limit `--array=A-B%M`. Jobs are submitted as one array with
// `sbatch --parsable --wait`.
var Slurm = &Queue{
	Prog:       "slurm.pl",
	System:     "Slurm",
	ConfigPath: "conf/slurm.conf",
	DefaultConfig: `# strode slurm.pl's default configuration (Kaldi's, without partitions)
command sbatch --export=PATH --ntasks-per-node=1
option time=* --time $0
option mem=* --mem-per-cpu $0
option mem=0          # Do not add anything to qsub_opts
option num_threads=* --cpus-per-task $0 --ntasks-per-node=1
option num_threads=1 --cpus-per-task 1 --ntasks-per-node=1
default gpu=0
option gpu=0
option gpu=* --gres=gpu:$0
`,
	TaskVar:         "SLURM_ARRAY_TASK_ID",
	JobIDVar:        "SLURM_JOB_ID",
	IDLabel:         "Slurm job id",
	CancelCommand:   "scancel",
	AccountingCmd:   "sacct -j",
	MissingFix:      "slurm.pl needs Slurm's client commands (sbatch, scancel) on PATH on a machine that can reach the cluster (Debian/Ubuntu: apt-get install slurm-client, with the cluster's slurm.conf and munge key); to run the jobs on this machine instead use run.pl (cmd=\"strode run.pl\")",
	MaxJobsBySubmit: true,
	StarAsValue:     true,
	SubmitArgs: func(qlog, script string, array bool, start, end, maxJobs int) []string {
		args := []string{"--open-mode=append", "-e", qlog, "-o", qlog}
		if array {
			a := fmt.Sprintf("--array=%d-%d", start, end)
			if maxJobs > 0 {
				a += fmt.Sprintf("%%%d", maxJobs)
			}
			args = append(args, a)
		}
		return append(args, "--parsable", "--wait", script)
	},
	// --parsable prints "jobid" or "jobid;cluster"; without it sbatch says
	// "Submitted batch job N".
	JobID: regexp.MustCompile(`^(?:Submitted batch job )?(\d+)(?:;\S*)?\s*$`),
}

// GridEngine is queue.pl: qsub with Kaldi's default configuration (or
// conf/queue.conf, or --config FILE): --mem 4G becomes -l
// mem_free=4G,ram_free=4G, --num-threads N -pe smp N, --max-jobs-run M -tc
// M (array jobs only), --gpu N (N > 0) -l gpu=N -q g.q. Jobs are submitted
// as one array (-t A:B) with -sync y, so qsub returns when all have ended.
var GridEngine = &Queue{
	Prog:       "queue.pl",
	System:     "GridEngine",
	ConfigPath: "conf/queue.conf",
	DefaultConfig: `# Kaldi queue.pl's default configuration
command qsub -v PATH -cwd -S /bin/bash -j y -l arch=*64*
option mem=* -l mem_free=$0,ram_free=$0
option mem=0          # Do not add anything to qsub_opts
option num_threads=* -pe smp $0
option num_threads=1  # Do not add anything to qsub_opts
option max_jobs_run=* -tc $0
default gpu=0
option gpu=0
option gpu=* -l gpu=$0 -q g.q
`,
	TaskVar:       "SGE_TASK_ID",
	JobIDVar:      "JOB_ID",
	IDLabel:       "SGE job id",
	CancelCommand: "qdel",
	AccountingCmd: "qacct -j",
	MissingFix:    "queue.pl needs GridEngine's qsub (and qdel) on PATH on a submit host of the cluster (Debian: apt-get install gridengine-client); to run the jobs on this machine instead use run.pl (cmd=\"strode run.pl\")",
	SubmitArgs: func(qlog, script string, array bool, start, end, maxJobs int) []string {
		args := []string{"-o", qlog}
		if array {
			args = append(args, "-t", fmt.Sprintf("%d:%d", start, end))
		}
		return append(args, "-sync", "y", script)
	},
	// "Your job 123 ("x.sh") has been submitted", "Your job-array 123.1-4:1 ..."
	JobID: regexp.MustCompile(`Your job\S* (\d+)`),
}
