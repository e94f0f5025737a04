# jobs.sh — helpers shared by strode's stage-based recipes (sourced, never run).
#
# resolve_cmd CMD   prints the job runner to use for a Kaldi-style --cmd value. "run.pl",
#                   "queue.pl" and "slurm.pl" (with any options after them) are the user's
#                   utils/ copies when the experiment has Kaldi's utils/, and otherwise
#                   strode's own runners of the same interface ("strode run.pl ...").
#                   Anything else (a path to a runner script) is used as given.
# unit_done DIR / mark_done DIR
#                   a unit of work (one data dir's features, one model, one decode dir)
#                   is finished when DIR/.done exists; an unfinished one is redone from a
#                   clean start: the caller removes DIR (rm -rf) before making it again.
# log_stage N TEXT  prints "== stage N: TEXT" with the time of day.
# quietly LOG CMD   runs CMD with its output in LOG; on failure prints the end of LOG.
# The strode binary ($strode in resolve_cmd) comes from strode_bin.sh.

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

unit_done() { [ -f "$1/.done" ]; }
mark_done() { date '+%F %T' > "$1/.done"; }
log_stage() { local n=$1; shift; echo "== stage $n: $* ($(date '+%T'))"; }
quietly() {
  local log=$1; shift
  mkdir -p "$(dirname "$log")"
  "$@" > "$log" 2>&1 || { echo "$0: failed: $*" >&2; tail -n 20 "$log" | sed 's/^/  /' >&2; return 1; }
}
