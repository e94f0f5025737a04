package kaldiio

import (
	"fmt"
	"strings"
)

// TableKind says what a specifier names.
type TableKind int

const (
	// Archive: "ark:" — the objects themselves, key by key.
	Archive TableKind = iota + 1
	// Script: "scp:" — a script file whose lines map keys to rxfilenames.
	Script
	// ArchiveAndScript: "ark,scp:a.ark,a.scp" (wspecifiers only) — write
	// the archive and a script pointing into it.
	ArchiveAndScript
)

// Rspecifier is a parsed Kaldi rspecifier ("ark:foo.ark", "scp,p:feats.scp",
// "ark,s,cs:-", "ark:gunzip -c x.gz |").
type Rspecifier struct {
	Kind       TableKind // Archive or Script
	Path       string    // the rxfilename after the colon
	Once       bool      // "o": each key is asked for at most once (random access)
	Sorted     bool      // "s": keys are sorted (random access)
	CalledSort bool      // "cs": keys will be asked for in sorted order (random access)
	Permissive bool      // "p": skip entries that cannot be read instead of failing
	Background bool      // "bg": read ahead in the background (accepted; reading is already streamed)
}

// Wspecifier is a parsed Kaldi wspecifier ("ark:foo.ark", "ark,t:-",
// "ark,scp:a.ark,a.scp", "scp:out.scp").
type Wspecifier struct {
	Kind       TableKind // Archive, Script or ArchiveAndScript
	ArkPath    string    // wxfilename of the archive (Archive, ArchiveAndScript)
	ScpPath    string    // wxfilename of the script (ArchiveAndScript), or rxfilename of the script to follow (Script)
	Binary     bool      // "b" (default) or "t"
	Flush      bool      // "f": flush after every entry; "nf" (default): only on Close
	Permissive bool      // "p": (Script) skip keys missing from the script instead of failing
}

func specErr(spec, format string, a ...any) error {
	return &Error{File: spec, Offset: -1, Err: fmt.Errorf("%w: %s", ErrSpecifier, fmt.Sprintf(format, a...))}
}

// optionFields splits the part before the colon on ',' and ' ' as Kaldi's
// SplitStringToVector(before_colon, ", ", false) does: empty fields are
// kept, so "ark, t" is invalid there too.
func optionFields(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' || s[i] == ' ' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// ParseRspecifier parses an rspecifier with Kaldi's rules
// (ClassifyRspecifier): comma-separated options before the first colon, one
// of "ark" or "scp" among them, in any order, plus b, t (ignored), o/no, s/ns,
// cs/ncs, p/np, bg. The rxfilename after the colon is checked as an input.
func ParseRspecifier(spec string) (Rspecifier, error) {
	var rs Rspecifier
	i := strings.IndexByte(spec, ':')
	if i < 0 {
		return rs, specErr(spec, "rspecifier needs \"ark:\" or \"scp:\"")
	}
	if isSpace(spec[len(spec)-1]) {
		return rs, specErr(spec, "trailing whitespace in rspecifier")
	}
	for _, o := range optionFields(spec[:i]) {
		switch o {
		case "b", "t":
		case "o":
			rs.Once = true
		case "no":
			rs.Once = false
		case "p":
			rs.Permissive = true
		case "np":
			rs.Permissive = false
		case "s":
			rs.Sorted = true
		case "ns":
			rs.Sorted = false
		case "cs":
			rs.CalledSort = true
		case "ncs":
			rs.CalledSort = false
		case "bg":
			rs.Background = true
		case "ark", "scp":
			if rs.Kind != 0 {
				return Rspecifier{}, specErr(spec, "\"ark\" and \"scp\" given together or twice in an rspecifier")
			}
			rs.Kind = Archive
			if o == "scp" {
				rs.Kind = Script
			}
		default:
			return Rspecifier{}, specErr(spec, "unknown rspecifier option %q", o)
		}
	}
	if rs.Kind == 0 {
		return Rspecifier{}, specErr(spec, "rspecifier needs \"ark\" or \"scp\" before the colon")
	}
	rs.Path = spec[i+1:]
	if _, err := classifyRx(rs.Path); err != nil {
		return Rspecifier{}, specErr(spec, "%v", err)
	}
	return rs, nil
}

// ParseWspecifier parses a wspecifier with Kaldi's rules
// (ClassifyWspecifier): options b, t, f, nf, p and "ark", "scp" or
// "ark,scp" (in that order) before the first colon. For "ark,scp" the part
// after the colon is the archive and the script wxfilenames separated by the
// first comma.
func ParseWspecifier(spec string) (Wspecifier, error) {
	ws := Wspecifier{Binary: true}
	i := strings.IndexByte(spec, ':')
	if i < 0 {
		return ws, specErr(spec, "wspecifier needs \"ark:\", \"scp:\" or \"ark,scp:\"")
	}
	if isSpace(spec[len(spec)-1]) {
		return ws, specErr(spec, "trailing whitespace in wspecifier")
	}
	for _, o := range optionFields(spec[:i]) {
		switch o {
		case "b":
			ws.Binary = true
		case "t":
			ws.Binary = false
		case "f":
			ws.Flush = true
		case "nf":
			ws.Flush = false
		case "p":
			ws.Permissive = true
		case "ark":
			if ws.Kind != 0 {
				return Wspecifier{}, specErr(spec, "\"ark\" must come first and once (write \"ark,scp:\")")
			}
			ws.Kind = Archive
		case "scp":
			switch ws.Kind {
			case 0:
				ws.Kind = Script
			case Archive:
				ws.Kind = ArchiveAndScript
			default:
				return Wspecifier{}, specErr(spec, "\"scp\" given twice")
			}
		default:
			return Wspecifier{}, specErr(spec, "unknown wspecifier option %q", o)
		}
	}
	rest := spec[i+1:]
	switch ws.Kind {
	case 0:
		return Wspecifier{}, specErr(spec, "wspecifier needs \"ark\" or \"scp\" before the colon")
	case Archive:
		ws.ArkPath = rest
	case Script:
		ws.ScpPath = rest
		if _, err := classifyRx(rest); err != nil {
			return Wspecifier{}, specErr(spec, "%v", err)
		}
		return ws, nil
	case ArchiveAndScript:
		j := strings.IndexByte(rest, ',')
		if j < 0 {
			return Wspecifier{}, specErr(spec, "\"ark,scp:\" needs two file names separated by a comma")
		}
		ws.ArkPath, ws.ScpPath = rest[:j], rest[j+1:]
		if ws.ArkPath == "" {
			// Kaldi would take "" as standard output, where no script can
			// point; say so now rather than at open.
			return Wspecifier{}, specErr(spec, "\"ark,scp:\" needs an archive file name before the comma")
		}
		if _, err := classifyWx(ws.ScpPath); err != nil {
			return Wspecifier{}, specErr(spec, "%v", err)
		}
	}
	if _, err := classifyWx(ws.ArkPath); err != nil {
		return Wspecifier{}, specErr(spec, "%v", err)
	}
	return ws, nil
}
