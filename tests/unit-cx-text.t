#!/bin/sh
# Craftax's text observation (view/cx_text.h): hand-built states on the
# overworld, the sewers and the graveyard against the text the header's
# rules give, and the texts of generated and stepped worlds on every
# floor and of the crafted first states JAX made (every item, potion and
# book) read back line by line against their states
# (tests/unit/test-cx-text.c).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-text" "$top/tests/data/craftax/cx-crafted-starts.gz"
