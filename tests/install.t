#!/bin/sh
# make install as a C user meets it: the programs, the public headers and
# no internal ones, and a crafter.pc with which pkg-config builds a program
# against libcrafter that plays exactly as crafter-step does.
. "$(dirname "$0")/tap.sh"
plan 6

root=$scratch/root
# Not the sanitizer flags of a calling make: everything is built already.
env -u MAKEFLAGS -u MFLAGS make -s -C "$top" install DESTDIR="$root" PREFIX=/opt/crafter \
  >"$scratch/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/opt/crafter"
diag <"$scratch/log"

prefix=$root/opt/crafter
[ -x "$prefix/bin/crafter-step" ] && [ -f "$prefix/share/man/man1/crafter-step.1" ] &&
  [ -f "$prefix/share/man/man5/crafter-trajectory.5" ] && [ -f "$prefix/lib/libcrafter.a" ] &&
  [ -f "$prefix/share/crafter/crafter.yaml" ] && [ -f "$prefix/share/crafter/crafter-tasks.yaml" ]
ok $? "programs, manual pages, the library and the data files are installed"

ls "$prefix/include/crafter" >"$scratch/headers"
internal=$(grep -x -e cli.h -e json.h -e fastgen.h -e session.h -e dataset.h -e play.h \
  -e proto.h -e agents.h -e bench.h -e noise.h -e npmath.h -e outfile.h "$scratch/headers")
[ -f "$prefix/include/crafter/crafter.h" ] && [ -z "$internal" ]
ok $? "crafter.h and the public headers, no internal header"
echo "$internal" | diag

# Every header crafter.h reaches is installed.
missing=""
for header in $(cat "$scratch/headers"); do
  for included in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$prefix/include/crafter/$header"); do
    [ -f "$prefix/include/crafter/$included" ] || missing="$missing $header:$included"
  done
done
[ -z "$missing" ]
ok $? "every header the public headers include is installed"
echo "$missing" | diag

if ! command -v pkg-config >/dev/null 2>&1; then
  skip "pkg-config is not installed"
  skip "pkg-config is not installed"
  finish
fi
cat >"$scratch/play.c" <<'C'
#include <crafter/crafter.h>
#include <stdio.h>

int main(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 1;
  crafter_env env;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof error) < 0) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  crafter_env_reset(&env);
  int action, t = 0;
  crafter_step_result result;
  while (scanf("%d", &action) == 1) {
    crafter_env_step(&env, action, &result);
    printf("%d %.1f %d\n", ++t, result.reward, result.done);
    if (result.done) break;
  }
  crafter_env_fini(&env);
  return 0;
}
C
sanitize=""
nm "$prefix/lib/libcrafter.a" 2>/dev/null | grep -q __asan_init && sanitize="-fsanitize=address,undefined"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -Wall -Wextra -Werror $sanitize -o "$scratch/play" "$scratch/play.c" \
  $(pkg-config --cflags --libs crafter) >"$scratch/log" 2>&1
ok $? "a C program builds with pkg-config --cflags --libs crafter"
diag <"$scratch/log"

awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) print int(rand() * 17) }' >"$scratch/actions"
"$scratch/play" <"$scratch/actions" >"$scratch/ours"
"$top/bin/crafter-step" --seed 1 --episodes 1 <"$scratch/actions" |
  sed -n 's/^{"t": \([0-9]*\), "reward": \([-0-9.]*\), "done": \([a-z]*\).*/\1 \2 \3/p' |
  sed 's/ true$/ 1/; s/ false$/ 0/' >"$scratch/theirs"
[ -s "$scratch/ours" ] && cmp -s "$scratch/ours" "$scratch/theirs"
ok $? "it plays the episode crafter-step plays, step for step"
finish
