#!/bin/sh
# Unit tests of the numbers of Crafter's objects as config keys, written in
# C (tests/unit/test-objects.c).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-objects"
