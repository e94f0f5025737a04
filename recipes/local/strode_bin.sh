# strode_bin.sh — find or build the strode binary; sourced by every recipe and bench script
# (after parse_options.sh), never run. It sets $strode and exports STRODE=$strode, so the
# scripts it then runs take the same binary without looking again. In order:
#   $strode when the script already has one (its --strode option), else $STRODE;
#   else bin/strode of this repository, built with `go build -o bin/strode ./cmd/strode` when it
#     is missing or older than a Go source, go.mod or go.sum (once: a rebuilt binary is newer);
#   else strode on PATH (an installed toolkit, no Go);
#   else it stops, naming the commands that install Go.
# A --strode or $STRODE that names no executable file stops the script at once.

_sb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
strode=${strode:-${STRODE:-}}
if [ -z "$strode" ]; then
  _sb_bin=$_sb_root/bin/strode
  if command -v go >/dev/null 2>&1 && [ -f "$_sb_root/go.mod" ]; then
    if [ ! -x "$_sb_bin" ] || [ -n "$(find "$_sb_root" \( -name .git -o -name exp -o -name data -o -name bin -o -name testdata \) -prune \
        -o \( -name '*.go' -o -name go.mod -o -name go.sum \) -newer "$_sb_bin" -print -quit 2>/dev/null)" ]; then
      echo "$0: building $_sb_bin (go build -o bin/strode ./cmd/strode)" >&2
      (cd "$_sb_root" && mkdir -p bin && go build -o bin/strode ./cmd/strode) >&2 ||
        { echo "$0: go build -o bin/strode ./cmd/strode failed in $_sb_root" >&2; exit 1; }
    fi
  fi
  if [ -x "$_sb_bin" ]; then
    strode=$_sb_bin
  elif command -v strode >/dev/null 2>&1; then
    strode=$(command -v strode)
  else
    _sb_go=$(sed -n 's/^go \([0-9][0-9.]*\)$/\1/p' "$_sb_root/go.mod" 2>/dev/null)
    case "$_sb_go" in *.*.*) ;; ?*) _sb_go=$_sb_go.0 ;; *) _sb_go=1.26.8 ;; esac
    _sb_os=$(uname -s | tr 'A-Z' 'a-z')
    case "$(uname -m)" in x86_64|amd64) _sb_arch=amd64 ;; aarch64|arm64) _sb_arch=arm64 ;; *) _sb_arch=$(uname -m) ;; esac
    echo "$0: no strode binary, and no Go to build one. Install Go $_sb_go:" >&2
    echo "  curl -fsSL https://go.dev/dl/go$_sb_go.$_sb_os-$_sb_arch.tar.gz | sudo tar -C /usr/local -xz && export PATH=\$PATH:/usr/local/go/bin" >&2
    echo "then run $0 again (it builds bin/strode), or pass --strode PATH (or set STRODE) to use a strode binary you have." >&2
    exit 1
  fi
fi
[ -x "$strode" ] || [ -x "$(command -v "$strode" 2>/dev/null)" ] ||
  { echo "$0: no strode binary at $strode" >&2; exit 1; }
export STRODE=$strode
unset _sb_root _sb_bin _sb_go _sb_os _sb_arch
