# jobs.sh — helpers shared by strode's stage-based recipes (sourced, never run).
#
# resolve_cmd CMD   prints the job runner to use for a Kaldi-style --cmd value. "run.pl",
#                   "queue.pl" and "slurm.pl" (with any options after them) are the user's
#                   utils/ copies when the experiment has Kaldi's utils/, and otherwise
#                   strode's own runners of the same interface ("strode run.pl ...").
#                   Anything else (a path to a runner script) is used as given.
# find_strode ROOT  prints the strode binary: $STRODE, else ROOT/bin/strode (built with go
#                   when missing or older than the sources), else strode on PATH.
# unit_done DIR / mark_done DIR / reset_unit DIR
#                   a unit of work (one data dir's features, one model, one decode dir)
#                   is finished when DIR/.done exists; an unfinished one is redone from a
#                   clean start (reset_unit removes the partial outputs listed by the caller).
# log_stage N TEXT  prints "== stage N: TEXT" with the time of day.
# quietly LOG CMD   runs CMD with its output in LOG; on failure prints the end of LOG.
# quietly LOG CMD   runs CMD with its output in LOG; on failure prints the end of LOG.

resolve_cmd() {
  local first rest
  read -r first rest <<<"$1"
  case "$first" in
    run.pl|queue.pl|slurm.pl)
      if [ -x "utils/$first" ]; then
        echo "utils/$first${rest:+ $rest}"
      else
        echo "$strode $first${rest:+ $rest}"
      fi ;;
    ssh.pl)
      if [ -x "utils/ssh.pl" ]; then echo "utils/ssh.pl${rest:+ $rest}"
      else echo "$0: --cmd ssh.pl needs Kaldi's utils/ssh.pl (strode provides run.pl, queue.pl and slurm.pl)" >&2; return 1
      fi ;;
    "") echo "$0: --cmd is empty (use run.pl for local jobs)" >&2; return 1 ;;
    *) echo "$1" ;;
  esac
}

find_strode() {
  local root=$1
  if [ -n "${STRODE:-}" ]; then echo "$STRODE"; return; fi
  if command -v go >/dev/null 2>&1 && [ -f "$root/go.mod" ]; then
    if [ ! -x "$root/bin/strode" ] || [ -n "$(find "$root" -name '*.go' -newer "$root/bin/strode" -print -quit 2>/dev/null)" ]; then
      echo "$0: building $root/bin/strode" >&2
      (cd "$root" && go build -o bin/strode ./cmd/strode) >&2 || return 1
    fi
  fi
  if [ -x "$root/bin/strode" ]; then echo "$root/bin/strode"; return; fi
  if command -v strode >/dev/null 2>&1; then command -v strode; return; fi
  echo "$0: no strode binary: install Go (https://go.dev/doc/install) so the recipe can build it, or pass --strode PATH" >&2
  return 1
}

unit_done() { [ -f "$1/.done" ]; }
mark_done() { date '+%F %T' > "$1/.done"; }
log_stage() { local n=$1; shift; echo "== stage $n: $* ($(date '+%T'))"; }
# quietly LOG COMMAND...: runs COMMAND with its output in LOG; on failure shows the end of LOG.
quietly() {
  local log=$1; shift
  mkdir -p "$(dirname "$log")"
  "$@" > "$log" 2>&1 || { echo "$0: failed: $*" >&2; tail -n 20 "$log" | sed 's/^/  /' >&2; return 1; }
}
