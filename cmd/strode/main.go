// Command strode is the one binary of the toolkit: Kaldi-named subcommands
// (copy-feats, compute-fbank-feats, latgen-faster-mapped, train, forward, ...)
// that read and write Kaldi tables, so each can stand in a Kaldi pipeline.
//
// This package is glue only: each subcommand lives in its own file, registers
// itself in init with register, and calls into the library packages.
//
// A file is named AREA_COMMAND.go after the package it fronts and the Kaldi
// command it is (a command that starts with the area's word does not repeat
// it: align_compiled_mapped.go is align-compiled-mapped): kaldiio, features,
// nnet (the acoustic models: train, forward, get-egs, …), fst, tree, hmm,
// gmm, align, mkgraph, lm, decode, lattice, scoring, datadir, jobs, and
// recipe for the corpus front ends and the experiment summaries.
package main

import (
	"flag"
	"os"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

var app = &kaldicmd.App{
	Name:    "strode",
	Usage:   "STRODE acoustic models and time-series recipes, with Kaldi-compatible tools",
	Version: "0.1.0-dev",
}

// register adds subcommands; each subcommand file calls it from init.
func register(cmds ...*kaldicmd.Command) { app.Add(cmds...) }

func main() {
	stop := startProfiles()
	status := app.Run(os.Args, kaldicmd.StdStreams())
	stop()
	os.Exit(status)
}

// flagSet reports whether the command line (or --config) set the flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
