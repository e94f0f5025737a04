// Package kaldicmd gives every strode subcommand the command-line behaviour of a
// Kaldi binary, so a Kaldi user can swap `copy-feats` for `strode copy-feats`
// without relearning anything.
//
// It owns option parsing as Kaldi's ParseOptions does it: named options come
// before positional arguments and are written `--opt=value` (non-boolean options
// also take `--opt value`; a bare `--flag` sets a boolean to true); underscores in
// option names are read as dashes; a lone `--` ends the options; `--config=FILE`
// reads Kaldi-style option files (one `--opt=value` a line, `#` comments), which
// the command line then overrides; `--help` prints Kaldi-style usage and exits 0;
// `--verbose` and `--print-args` are the standard options of every command.
// Failures print `ERROR (strode <cmd>) ...` and exit 255 (a Kaldi binary's
// `return -1` after KALDI_ERR); an unknown option or a wrong number of
// arguments prints the usage and exits 1, as Kaldi binaries do. A Command with
// RawArgs set skips all of this and receives its arguments untouched, for the
// stand-ins of Kaldi scripts (run.pl, queue.pl) that have their own conventions.
//
// Options are registered on a standard library flag.FlagSet, so library packages
// can offer `Register(fs *flag.FlagSet)` on their options structs without
// depending on this package. The package knows nothing about tables, features,
// models or decoding; urfave/cli/v2 dispatches the subcommands.
package kaldicmd
