#!/bin/sh
# include-declarations.sh DIR: the functions a header of DIR declares that
# the .c file of its module (x.h and x.c, side by side) does not define,
# one a line as "header: name"; nothing when every header declares only
# its own module's functions.  So an include says which module a file
# calls, and the include graph (include-cycles.sh) is the call graph of
# the modules.  Exit status 1 when a header declares another's function.
dir=${1:?usage: include-declarations.sh DIR}
status=0
for header in $(find "$dir" -name '*.h' | sort); do
  source=${header%.h}.c
  # A declaration starts at the left margin with its type and names the
  # function before its first "(": not static (an inline function is its
  # own definition), not a typedef, a macro (in capitals) or a comment.
  names=$(awk '
    /^[A-Za-z]/ && !/^(static|typedef)/ && /\(/ {
      line = $0; sub(/\(.*/, "", line); n = split(line, word, /[ *]+/); name = word[n]
      if (name ~ /^[A-Za-z_][A-Za-z_0-9]*$/ && name !~ /^[A-Z_0-9]*$/) print name
    }' "$header" | sort -u)
  for name in $names; do
    # A definition: the name at the start of a line's declarator, and the
    # line goes on to its parameters or its body, not a semicolon.
    if [ -f "$source" ] && grep -q "^[A-Za-z].*[ *]$name(\\(.*[^;]\\)\\{0,1\\}\$" "$source"; then
      continue
    fi
    echo "${header#"$dir"/}: $name"
    status=1
  done
done
exit $status
