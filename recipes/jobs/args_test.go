package jobs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    Spec
		warning string
	}{
		{"single job", []string{"exp/log/a.log", "echo", "hi"},
			Spec{Start: 1, End: 1, LogFile: "exp/log/a.log", Words: []string{"echo", "hi"}}, ""},
		{"job range", []string{"JOB=1:4", "exp/log/a.JOB.log", "echo", "JOB"},
			Spec{JobName: "JOB", Start: 1, End: 4, LogFile: "exp/log/a.JOB.log", Words: []string{"echo", "JOB"}}, ""},
		{"any identifier, single number", []string{"N=3", "a.N.log", "echo"},
			Spec{JobName: "N", Start: 3, End: 3, LogFile: "a.N.log", Words: []string{"echo"}}, ""},
		{"options before and after the range", []string{"--max-jobs-run", "4", "-tc", "2", "JOB=2:3", "--mem", "4G", "--num-threads", "2", "-V", "x.JOB.log", "true"},
			Spec{JobName: "JOB", Start: 2, End: 3, LogFile: "x.JOB.log", Words: []string{"true"}, Options: []Option{
				{Name: "max_jobs_run", Value: "4"}, {Words: []string{"-tc", "2"}}, {Name: "mem", Value: "4G"},
				{Name: "num_threads", Value: "2"}, {Words: []string{"-V"}}}}, ""},
		{"equals form, -pe, config, time, gpu", []string{"--gpu=0", "-pe", "smp", "5", "--config", "conf/x.conf", "--time", "1:00:00", "l", "c"},
			Spec{Start: 1, End: 1, LogFile: "l", Words: []string{"c"}, Options: []Option{
				{Name: "gpu", Value: "0"}, {Words: []string{"-pe", "smp", "5"}}, {Name: "config", Value: "conf/x.conf"},
				{Name: "time", Value: "1:00:00"}}}, ""},
		{"options stop at the log file", []string{"x.log", "ls", "-l", "--all"},
			Spec{Start: 1, End: 1, LogFile: "x.log", Words: []string{"ls", "-l", "--all"}}, ""},
		{"suspicious value", []string{"-q", "--mem", "x.log", "true"},
			Spec{Start: 1, End: 1, LogFile: "x.log", Words: []string{"true"}, Options: []Option{{Words: []string{"-q", "--mem"}}}},
			"run.pl: WARNING: suspicious argument '--mem' to -q; starts with '-'"},
		{"suspicious range", []string{"JOB=a:b", "x.log", "true"},
			Spec{Start: 1, End: 1, LogFile: "JOB=a:b", Words: []string{"x.log", "true"}},
			"run.pl: Warning: suspicious first argument to run.pl: JOB=a:b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("run.pl", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			w := strings.Join(got.Warnings, "\n")
			got.Warnings, got.Prog = nil, ""
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("got %+v\nwant %+v", *got, tc.want)
			}
			if w != tc.warning {
				t.Errorf("warnings %q, want %q", w, tc.warning)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"JOB=3:1", "x.JOB.log", "true"}, "run.pl: invalid job range JOB=3:1"},
		{[]string{"JOB=0:3", "x.JOB.log", "true"}, "run.pl: invalid job range JOB=0:3, start must be strictly positive"},
		{[]string{"JOB=1:3", "x.log", "true"}, "run.pl: you are trying to run a parallel job but you are putting the output into just one log file (x.log)"},
		{[]string{"x.log"}, "usage: run.pl [options] [JOB=1:n] <log-file> <command>"},
		{[]string{"JOB=1:2", "x.JOB.log"}, "usage"},
		{[]string{"-pe", "smp"}, "-pe needs two values"},
	}
	for _, tc := range tests {
		_, err := Parse("run.pl", tc.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// run.pl's quoting: words without white space as they are (so a pipe given
// as `\|` stays a pipe), others in double quotes, or single quotes when they
// hold a double quote; a space after every word.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"echo", "hi"}, "echo hi "},
		{[]string{"copy-feats", "ark:gunzip -c a.gz |", "ark,t:-", "|", "head"}, `copy-feats "ark:gunzip -c a.gz |" ark,t:- | head `},
		{[]string{"echo", `say "x" now`}, `echo 'say "x" now' `},
		{[]string{"echo", ""}, `echo "" `},
		{[]string{"awk", "{print $1}"}, `awk "{print $1}" `}, // bash expands $1: Kaldi's behaviour
		{[]string{"a\tb"}, "\"a\tb\" "},
	}
	for _, tc := range tests {
		if got := CommandLine(tc.words); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.want)
		}
	}
}

func TestJobsAndFailureMessage(t *testing.T) {
	s, err := Parse("run.pl", []string{"JOB=1:3", "exp/log/f.JOB.log", "echo", "JOB", "JOBS"})
	if err != nil {
		t.Fatal(err)
	}
	js := s.Jobs()
	if len(js) != 3 || js[1] != (Job{ID: 2, LogFile: "exp/log/f.2.log", Command: "echo 2 2S "}) {
		t.Errorf("jobs %+v", js)
	}
	if m := s.FailureMessage(2); m != "run.pl: 2 / 3 failed, log is in exp/log/f.*.log" {
		t.Errorf("message %q", m)
	}
	s, _ = Parse("run.pl", []string{"JOB=4", "exp/log/f.JOB.log", "false"})
	if m := s.FailureMessage(1); m != "run.pl: job failed, log is in exp/log/f.4.log" {
		t.Errorf("message %q", m)
	}
	s, _ = Parse("run.pl", []string{"exp/log/f.JOB.log", "false"})
	if m := s.FailureMessage(1); !strings.Contains(m, "probably you forgot to put JOB=1:$nj in your script.") {
		t.Errorf("message %q", m)
	}
}
