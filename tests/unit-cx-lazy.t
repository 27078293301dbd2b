#!/bin/sh
# Craftax's auto-reset step makes only the overworld of a new world and
# each floor below it when the player first goes there: eight seeds of
# 300 steps, the player put on its floor's ladder down every 10 steps and
# taking ladders 4 steps in 10, stepped that way and from the whole world,
# equal in every field, reward and done after every step
# (tests/unit/test-cx-game.c, --lazy).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-game" --lazy 8 300
