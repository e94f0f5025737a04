# parse_options.sh — command-line options for strode's recipes, sourced as Kaldi's
# utils/parse_options.sh is: every "--some-name VALUE" or "--some-name=VALUE" sets the shell
# variable some_name, which the recipe must already have defined (its default), so a
# misspelt option is an error, not a silently new variable. "--help" prints the recipe's
# header comment (the lines from line 2 up to the first line that is not a comment).
# What remains ($@) are the positional arguments.
#
# Boolean variables (whose default is true or false) accept only true or false.

_po_usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --help|-h) _po_usage; exit 0 ;;
    --*=*) _po_name=${1%%=*}; _po_value=${1#*=}; shift ;;
    --*) _po_name=$1
         [ $# -ge 2 ] || { echo "$0: option $1 needs a value" >&2; exit 1; }
         _po_value=$2; shift 2 ;;
    *) break ;;
  esac
  _po_var=${_po_name#--}; _po_var=${_po_var//-/_}
  case "$_po_var" in *[!a-zA-Z0-9_]*|"") echo "$0: invalid option $_po_name" >&2; exit 1 ;; esac
  if [ -z "${!_po_var+set}" ]; then
    echo "$0: unknown option $_po_name (see $0 --help)" >&2; exit 1
  fi
  case "${!_po_var}" in
    true|false)
      case "$_po_value" in true|false) ;; *)
        echo "$0: $_po_name takes true or false, not '$_po_value'" >&2; exit 1 ;;
      esac ;;
  esac
  printf -v "$_po_var" '%s' "$_po_value"
done
unset _po_name _po_value _po_var
