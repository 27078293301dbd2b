#!/bin/sh
# The library keeps its plan (DESIGN.md, Layout; lib/README): the modules
# of lib/ (x.c and x.h are module x) include one another without a cycle,
# and a header declares only its own module's functions;
# each lives in the folder of its layer and includes the headers of its
# own layer and of those below it in lib/LAYERS, naming their folders; no
# file lies in lib/ outside a layer; lib/README lists every module where
# it lives; and the public headers include nothing of lib/.  Each check is
# shown to find what it looks for.
. "$(dirname "$0")/tap.sh"
plan 12
check=$top/tests/include-cycles.sh
layers=$top/tests/include-layers.sh
declarations=$top/tests/include-declarations.sh

sh "$check" "$top/lib" >"$scratch/out" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/out"
ok $status "the include graph of lib/ is acyclic ($(find "$top/lib" -name '*.h' | wc -l | tr -d ' ') headers)"

mkdir "$scratch/lib"
printf '#include "low.h"\n' >"$scratch/lib/top.h"
printf '#include "top.h"\n' >"$scratch/lib/base.c"
printf '#include <stdio.h>\n#include "base.h"\n' >"$scratch/lib/low.c"
: >"$scratch/lib/low.h"
: >"$scratch/lib/base.h"
sh "$check" "$scratch/lib" >"$scratch/out" 2>&1
status=$?
[ $status -eq 1 ] && [ "$(cat "$scratch/out")" = "base: top
low: base
top: low" ]
ok $? "a planted cycle through three modules is found: $(tr '\n' ';' <"$scratch/out")"

: >"$scratch/lib/base.c"
sh "$check" "$scratch/lib" >"$scratch/out" 2>&1
ok $? "and once broken, is not"

# A header declares only its own module's functions, so that the include
# graph above is the graph of which module calls which.
sh "$declarations" "$top/lib" >"$scratch/out" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/out"
ok $status "every function a header of lib/ declares is defined in its own module's .c"

mkdir "$scratch/declared"
printf 'int shared(int x);
static inline int here(void) { return 1; }
typedef int (*hook)(int);
' \
  >"$scratch/declared/common.h"
printf 'int own(int x,\n        int y);
int borrowed(void);
' >"$scratch/declared/mod.h"
printf '#include "mod.h"\nint own(int x,\n        int y) {\n  return x + y;\n}\n' \
  >"$scratch/declared/mod.c"
sh "$declarations" "$scratch/declared" >"$scratch/out" 2>&1
status=$?
[ $status -eq 1 ] && [ "$(cat "$scratch/out")" = 'common.h: shared
mod.h: borrowed' ]
status=$?
ok $status "a function declared in a header without its module, and one its module lacks, are found"
[ $status -ne 0 ] && diag <"$scratch/out"

sh "$layers" "$top/lib" >"$scratch/out" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/out"
ok $status "every file of lib/ is in a layer's folder and includes its own layer or those below ($(sed -e 's/#.*//' -e '/^ *$/d' "$top/lib/LAYERS" | awk '{ printf "%s%s", sep, $1; sep = " < " }'))"

# A library of three layers, low < mid < high, and what may break them.
planted=$scratch/layered
mkdir -p "$planted/low" "$planted/mid" "$planted/high"
printf '# a planted table\nlow   the first\nmid   the second\nhigh  the third\n' >"$planted/LAYERS"
printf '#include "low/a.h"\n#include "crafter/crafter.h"\n' >"$planted/mid/b.c"
printf '#include "mid/b.h"\n#include "low/a.h"\n' >"$planted/high/c.c"
: >"$planted/low/a.h"
: >"$planted/mid/b.h"
sh "$layers" "$planted" >"$scratch/out" 2>&1
status=$?
ok $status "a library whose files include their own layer or below passes"
[ $status -ne 0 ] && diag <"$scratch/out"
printf '#include "high/c.h"\n' >"$planted/low/a.c"
printf '#include "a.h"\n' >"$planted/mid/d.c"
printf 'int e;\n' >"$planted/e.c"
mkdir "$planted/extra" && : >"$planted/extra/f.h"
sh "$layers" "$planted" >"$scratch/out" 2>&1
status=$?
[ $status -eq 1 ] && [ "$(cat "$scratch/out")" = 'e.c: a file directly in lib/, in no layer
extra/f.h: in extra/, which is no layer of LAYERS
low/a.c: includes "high/c.h", of high, a layer above low
mid/d.c: includes "a.h", which names no folder' ]
status=$?
ok $status "an include of a higher layer, an include without its folder, a file outside the layers are found"
[ $status -ne 0 ] && diag <"$scratch/out"

# unlisted LIB: the modules of LIB's layers that LIB/README does not list
# as "| FOLDER/NAME |", and the rows that name no module.  A module is a
# .c or .h file in a layer's folder, or one the Makefile's LIB_MODULES
# names (view/builtin_textures is made by the build).
unlisted() {
  { find "$1" -mindepth 2 -name '*.[ch]' | sed "s|^$1/||; s|\\.[ch]\$||"
    [ -f "$1/../Makefile" ] && sed -n '/^LIB_MODULES =/,/[^\\]$/p' "$1/../Makefile" |
      tr ' \t\\' '\n\n\n' | grep '/'
  } | sort -u >"$scratch/modules"
  sed -n 's/^| \([a-z_]*\/[a-z_]*\) |.*/\1/p' "$1/README" | sort >"$scratch/listed"
  comm -23 "$scratch/modules" "$scratch/listed" | sed 's/$/: not listed in README/'
  comm -13 "$scratch/modules" "$scratch/listed" | sed 's/$/: listed in README, not there/'
}
unlisted "$top/lib" >"$scratch/out"
[ ! -s "$scratch/out" ]
ok $? "lib/README lists every module where it lives ($(wc -l <"$scratch/modules" | tr -d ' ') modules), and none that is not there"
diag <"$scratch/out"

printf '| module | concern |\n| --- | --- |\n| low/a | the a |\n| mid/gone | a module moved away |\n' \
  >"$planted/README"
unlisted "$planted" >"$scratch/out"
[ "$(cat "$scratch/out")" = 'extra/f: not listed in README
high/c: not listed in README
mid/b: not listed in README
mid/d: not listed in README
mid/gone: listed in README, not there' ]
status=$?
ok $status "a module the list lacks, and a row of one that is not there, are found"
[ $status -ne 0 ] && diag <"$scratch/out"

# The public headers: what a C user includes from make install.
sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
  "$top"/include/crafter/*.h >"$scratch/public"
! grep -v -x -e 'ids.h' -e 'crafter.h' "$scratch/public" >"$scratch/out"
ok $? "the public headers include only one another"
diag <"$scratch/out"

ls "$top"/lib/*.c >"$scratch/out" 2>/dev/null
[ ! -s "$scratch/out" ]
ok $? "no .c file lies directly in lib/"
finish
