#!/bin/sh
# JAX's random draws against the values JAX printed for them
# (tests/unit/test-jaxrng.c, tests/data/jaxrng/golden.txt).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-jaxrng" "$top/tests/data/jaxrng/golden.txt"
