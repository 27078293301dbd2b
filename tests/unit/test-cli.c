/* The cli helpers: escaping what a message echoes of the user's input. */
#include <string.h>

#include "cli.h"
#include "tap.h"

/* Escapes text[0..length) into a buffer of out_size bytes and compares. */
static int escapes_to(const char *text, size_t length, size_t out_size, const char *expected) {
  char out[256];
  crafter_escape(out, out_size, text, length);
  if (strcmp(out, expected) == 0) return 1;
  printf("# got \"%s\", expected \"%s\"\n", out, expected);
  return 0;
}

int main(void) {
  ok(escapes_to("move_left", 9, 64, "move_left"), "printable ASCII stays");
  ok(escapes_to("5\0garbage", 9, 64, "5\\x00garbage"), "a NUL byte shows as \\x00");
  ok(escapes_to("\x1b[31mred", 8, 64, "\\x1b[31mred"), "the escape that starts a colour shows");
  ok(escapes_to("a\tb\r\x7f", 5, 64, "a\\x09b\\x0d\\x7f"), "tab, carriage return and DEL");
  ok(escapes_to("a\\x41", 5, 64, "a\\\\x41"), "a backslash doubles, so \\xHH is never ambiguous");
  /* U+00E9 is C3 A9; U+20AC is E2 82 AC; U+1F600 is F0 9F 98 80. */
  ok(escapes_to("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9, 64, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
     "well-formed UTF-8 stays");
  /* U+009B (C2 9B) is CSI, a control sequence start to some terminals. */
  ok(escapes_to("\xc2\x9b" "2J", 4, 64, "\\xc2\\x9b2J"), "a C1 control in UTF-8 is escaped");
  ok(escapes_to("\xff\xc3", 2, 64, "\\xff\\xc3"), "a stray byte and a cut sequence are escaped");
  ok(escapes_to("\xc0\xaf\xed\xa0\x80", 5, 64, "\\xc0\\xaf\\xed\\xa0\\x80"),
     "an overlong form and a surrogate are escaped");
  /* 8 bytes hold 7 characters: "abcdefg" fits whole; "abcdefghij"
   * keeps 4 and "..." . */
  ok(escapes_to("abcdefg", 7, 8, "abcdefg"), "what fits exactly is not cut");
  ok(escapes_to("abcdefghij", 10, 8, "abcd..."), "what does not fit ends in ...");
  /* a, b, then \x01 (4 characters) would leave no room for "...". */
  ok(escapes_to("ab\x01" "cdef", 7, 8, "ab..."), "an escape is never cut in half");
  return tap_done();
}
