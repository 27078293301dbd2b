#!/bin/sh
# include-cycles.sh DIR: the modules of DIR and its folders (x.c and x.h
# are module x, wherever they are) that take part in a cycle of
# #include "..." lines, one a line, as "module: the modules it includes
# that are in cycles too"; nothing when the graph is acyclic.  An include
# names a header by its file name or by its path under DIR.  Exit status 1
# when there is a cycle.
dir=${1:?usage: include-cycles.sh DIR}
headers=$(find "$dir" -name '*.h' -exec basename {} .h \; | sort -u)
cycles=$(find "$dir" -name '*.[ch]' | sort | while read -r file; do
  from=$(basename "$file"); from=${from%.*}
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$file" |
    while read -r to; do
      to=${to##*/}
      [ "$to" != "$from" ] && echo "$headers" | grep -qx "$to" && echo "$from $to"
    done
done | sort -u | awk '
  { edges[NR] = $0; out[$1]++; nodes[$1] = 1; nodes[$2] = 1; from[NR] = $1; to[NR] = $2 }
  END {
    # Take away, again and again, the modules that include no module left:
    # what cannot be taken away lies on a cycle or leads into one...
    do {
      removed = 0
      for (n in nodes) if (!(n in gone) && !out[n]) {
        gone[n] = 1; removed = 1
        for (e = 1; e <= NR; e++) if (to[e] == n && !(e in cut)) { cut[e] = 1; out[from[e]]-- }
      }
    } while (removed)
    # ...and taking away the modules nothing left includes keeps the cycles.
    do {
      removed = 0
      for (n in nodes) if (!(n in gone)) {
        included = 0
        for (e = 1; e <= NR; e++) if (!(e in cut) && to[e] == n && !(from[e] in gone)) included = 1
        if (!included) { gone[n] = 1; removed = 1 }
      }
    } while (removed)
    for (n in nodes) if (!(n in gone)) {
      line = n ":"
      for (e = 1; e <= NR; e++) if (from[e] == n && !(to[e] in gone) && !(e in cut)) line = line " " to[e]
      print line
    }
  }' | sort)
[ -z "$cycles" ] && exit 0
echo "$cycles"
exit 1
