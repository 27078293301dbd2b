#!/bin/sh
# The viewpoint is an argument (DESIGN.md, Players): an env holds no
# "viewer" that the observation functions, task checkers, agents and
# record writers would read, so no caller sets and restores one; and
# outside the game module every reader of a player goes through game.h's
# accessors (crafter_game_player, crafter_game_body), never the game's
# players array.  Each check is shown to catch what it looks for.
. "$(dirname "$0")/tap.sh"
plan 4

# viewer_uses DIR...: the lines of C files that use a member named viewer.
viewer_uses() {
  find "$@" -name '*.[ch]' -exec grep -nE '(\.|->)viewer\b' /dev/null {} + 2>/dev/null
}
# player_reads DIR...: the lines of C files, but the game module's own, that
# index a game's players array.
player_reads() {
  find "$@" -name '*.[ch]' ! -name game.c ! -name game.h \
    -exec grep -nE '(\.|->)players\[' /dev/null {} + 2>/dev/null
}

viewer_uses "$top/lib" "$top/bin" "$top/tests" >"$scratch/uses"
[ ! -s "$scratch/uses" ] && ! grep -qwE 'int +viewer;' "$top"/lib/game/env.h
status=$?
[ $status -ne 0 ] && diag <"$scratch/uses"
ok $status "no env has a viewer: lib/, bin/ and tests/ use none"

player_reads "$top/lib" "$top/bin" >"$scratch/reads"
status=$([ ! -s "$scratch/reads" ]; echo $?)
[ "$status" -ne 0 ] && diag <"$scratch/reads"
ok "$status" "outside the game module, lib/ and bin/ read players through the accessors"

mkdir -p "$scratch/planted/lib"
printf 'void f(crafter_env *env, int p) {\n  env->viewer = p;\n}\n' >"$scratch/planted/lib/look.c"
printf 'int g(const crafter_env *env) { return env->game.players[1].sleeping; }\n' \
  >"$scratch/planted/lib/read.c"
printf 'int h(const crafter_game *game) { return game->players[0].kills; }\n' \
  >"$scratch/planted/lib/game.c"
[ "$(viewer_uses "$scratch/planted" | wc -l)" -eq 1 ]
ok $? "a planted viewer is found"
[ "$(player_reads "$scratch/planted" | sed 's/:.*//' | xargs -n1 basename)" = "read.c" ]
ok $? "a planted read of the players array is found, the game module's own is not"
finish
