#!/bin/sh
# The modules of lib/ (x.c and x.h are module x) include one another
# without a cycle, as DESIGN.md's layers require; and the check does find
# a cycle that is there.
. "$(dirname "$0")/tap.sh"
plan 3
check=$top/tests/include-cycles.sh

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
finish
