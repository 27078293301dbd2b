#!/bin/sh
# Craftax's state as JAX's words (game/cx_words.h): generated and stepped
# states to words equal to the reference's field list and back byte for
# byte, and every kind of value no state can hold refused
# (tests/unit/test-cx-words.c), and the crafted first states JAX made
# (tests/data/craftax/cx-crafted-starts.gz) taken and given back.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-words" "$top/tests/data/craftax/cx-crafted-starts.gz"
