#!/bin/sh
# The scripted agent as an oracle of instruction tasks, written in C
# (tests/unit/test-oracle.c): it meets goals of every family on generated
# worlds, far more often than the random agent, avoids what a goal says
# to avoid, and without a task plays exactly as before.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-oracle"
