#!/bin/sh
# Unit tests of the configuration, written in C (tests/unit/test-config.c).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-config" "$top/data/crafter.yaml"
