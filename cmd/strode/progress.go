package main

import (
	"bufio"
	"os"
	"strings"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/internal/progress"
	"github.com/strode-asr/strode/kaldiio"
)

// utteranceProgress starts the report of a command's loop over the
// utterances of rspec (internal/progress: a bar on a terminal, a LOG line
// every 10 s in a log). The total is known when rspec is an scp file. While
// it runs, the command's own log lines go through the reporter's writer so
// that they do not land in the middle of the bar.
func utteranceProgress(ctx *kaldicmd.Context, name, rspec string) *progress.Reporter {
	r := progress.New(ctx.Stderr, ctx.Log, progress.Task{Name: name, Unit: "utterances", Total: scpEntries(rspec)}, progress.Options{})
	ctx.Stderr = r.Writer()
	return r
}

// scpEntries is the number of entries of an "scp:FILE" rspecifier (its
// non-blank lines), or 0 when rspec is an archive, a pipe, standard input
// or unreadable: the progress then counts without a total.
func scpEntries(rspec string) int64 {
	rs, err := kaldiio.ParseRspecifier(rspec)
	if err != nil || rs.Kind != kaldiio.Script {
		return 0
	}
	path := strings.TrimSpace(rs.Path)
	if path == "" || path == "-" || strings.HasSuffix(path, "|") {
		return 0
	}
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := int64(0)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			n++
		}
	}
	if sc.Err() != nil {
		return 0
	}
	return n
}
