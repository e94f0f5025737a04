package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// Every registered subcommand must print Kaldi-style usage and exit 0 on --help.
func TestEverySubcommandHasUsage(t *testing.T) {
	for _, c := range app.Commands() {
		var out, errb bytes.Buffer
		code := app.Run([]string{"strode", c.Name, "--help"}, kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code != 0 || !strings.Contains(out.String(), "Usage: strode "+c.Name) {
			t.Errorf("%s --help: exit %d\n%s%s", c.Name, code, out.String(), errb.String())
		}
		if c.Summary == "" || c.Description == "" {
			t.Errorf("%s: Summary and Description are required", c.Name)
		}
	}
}

func TestUnknownSubcommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := app.Run([]string{"strode", "copy-everything"}, kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code == 0 || !strings.Contains(errb.String(), "unknown command") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
