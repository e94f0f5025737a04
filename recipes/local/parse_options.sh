# parse_options.sh — the command-line options of every strode recipe script, sourced once the
# script has set its defaults, with the semantics of Kaldi's utils/parse_options.sh:
#   --some-name VALUE and --some-name=VALUE set the shell variable some_name (dashes in the name
#     become underscores, as Kaldi maps them, so --some_name works too). The variable must
#     already exist (the script's default), so a misspelt option is an error, not a new variable.
#   A variable whose default is true or false takes only true or false. Given with no value (the
#     last argument, or followed by another --option) it becomes true: --quick is --quick true,
#     the one extension to Kaldi's rules, for the switches (--quick) the recipes have always had.
#     Any other option takes the next argument, whatever it is (--train-opts "--foo=1").
#   --config FILE sources FILE (shell assignments such as nj=8) before the command line is read,
#     so the command line's options win, as in Kaldi; several --config are read left to right.
#   --help (or -h) prints the script's header comment (line 2 up to the first line that is not
#     a comment) and exits; print_usage prints it too (for a script's wrong argument count).
#   An empty --cmd is an error, as in Kaldi.
# The options end at the first argument that does not start with --, or at "--", which stays in
# $@ for the scripts that hand what follows it on (recipes/sine, recipes/rotmnist). What remains
# in $@ are the positional arguments.
#
# A script that hands the options it does not know on to another recipe (the top-level ./run.sh
# to recipes/fsdd/run.sh) declares the array forward_options=() before sourcing this file: an
# unknown option is then appended to it, with the argument after it unless that starts with --,
# instead of stopping the script (the order of the arguments handed on is kept).

print_usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

# --config files first: the command line overrides what they set.
_po_prev=
for _po_arg in "$@"; do
  case "$_po_prev/$_po_arg" in
    --config/*) _po_config=$_po_arg ;;
    */--config=*) _po_config=${_po_arg#--config=} ;;
    *) _po_config= ;;
  esac
  if [ -n "$_po_config" ]; then
    [ -r "$_po_config" ] || { echo "$0: missing config '$_po_config'" >&2; exit 1; }
    . "$_po_config"
  fi
  _po_prev=$_po_arg
done

_po_forward=false
[[ "$(declare -p forward_options 2>/dev/null)" == "declare -a"* ]] && _po_forward=true
while [ $# -gt 0 ]; do
  case "$1" in
    --help|-h) print_usage; exit 0 ;;
    --) break ;;
    --config) [ $# -ge 2 ] || { echo "$0: option --config needs a value" >&2; exit 1; }
              shift 2; continue ;;
    --config=*) shift; continue ;;
    --*=*) _po_name=${1%%=*}; _po_value=${1#*=}; _po_eq=true ;;
    --*) _po_name=$1; _po_value=${2-}; _po_eq=false ;;
    *) break ;;
  esac
  _po_var=${_po_name#--}; _po_var=${_po_var//-/_}
  case "$_po_var" in *[!a-zA-Z0-9_]*|""|_po_*|forward_options)
    echo "$0: invalid option $_po_name" >&2; exit 1 ;;
  esac
  if [ -z "${!_po_var+set}" ]; then
    $_po_forward || { echo "$0: unknown option $_po_name (see $0 --help)" >&2; exit 1; }
    forward_options+=("$1"); shift
    if ! $_po_eq && [ $# -gt 0 ] && [[ "$1" != --* ]]; then forward_options+=("$1"); shift; fi
    continue
  fi
  _po_args=2; $_po_eq && _po_args=1
  case "${!_po_var}" in
    true|false)
      if ! $_po_eq && { [ $# -lt 2 ] || [[ "$2" == --* ]]; }; then _po_value=true; _po_args=1; fi
      case "$_po_value" in true|false) ;; *)
        echo "$0: $_po_name takes true or false, not '$_po_value'" >&2; exit 1 ;;
      esac ;;
    *) $_po_eq || [ $# -ge 2 ] || { echo "$0: option $_po_name needs a value" >&2; exit 1; } ;;
  esac
  printf -v "$_po_var" '%s' "$_po_value"
  shift $_po_args
done
if [ -n "${cmd+set}" ] && [ -z "$cmd" ]; then
  echo "$0: empty argument to --cmd option" >&2; exit 1
fi
unset _po_name _po_value _po_var _po_eq _po_args _po_forward _po_prev _po_arg _po_config
