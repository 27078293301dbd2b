# Sourced by the tests.  report KIND TEXT: a line for the summary that
# `make check` prints after prove (tests/run-all), so that what was not
# checked is said plainly.
report() {
  [ -n "${TEST_REPORT_LOG:-}" ] && printf '%s\t%s\t%s\n' "$1" "${0##*/}" "$2" >>"$TEST_REPORT_LOG"
  return 0
}
