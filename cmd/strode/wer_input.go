package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// openTextTable opens a text rspecifier ("ark:file", "ark,t:-", "ark:cmd |",
// or a bare file name) for the scoring commands, which read Kaldi text token
// tables only. Kaldi options after "ark" (t, p, s, cs, o) do not change how a
// text token table is read here. The returned closer waits for a pipe
// command and reports its failure.
func openTextTable(ctx *kaldicmd.Context, rspec string) (io.Reader, func() error, error) {
	name := rspec
	if kind, rest, ok := strings.Cut(rspec, ":"); ok && (kind == "ark" || strings.HasPrefix(kind, "ark,")) {
		name = rest
	} else if ok && (kind == "scp" || strings.HasPrefix(kind, "scp,")) {
		return nil, nil, fmt.Errorf("scp: token tables are not supported here; give the transcripts as ark:FILE (%s)", rspec)
	}
	switch {
	case name == "-" || name == "":
		return ctx.Stdin, func() error { return nil }, nil
	case strings.HasSuffix(strings.TrimRight(name, " "), "|"):
		cmdline := strings.TrimSuffix(strings.TrimRight(name, " "), "|")
		cmd := exec.Command("/bin/bash", "-c", cmdline)
		cmd.Stdin = ctx.Stdin
		cmd.Stderr = ctx.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, nil, fmt.Errorf("running %q: %w", cmdline, err)
		}
		return out, func() error {
			io.Copy(io.Discard, out)
			if err := cmd.Wait(); err != nil {
				return fmt.Errorf("command %q failed: %w", cmdline, err)
			}
			return nil
		}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open %s: %w", rspec, err)
	}
	return f, f.Close, nil
}
