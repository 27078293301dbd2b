/* The JSON reader: values, escapes, and refusal of malformed input. */
#include <string.h>

#include "json.h"
#include "proto.h"
#include "tap.h"

static int parses(const char *text) {
  crafter_json_document document;
  char error[128];
  int status = crafter_json_parse(&document, text, strlen(text), error, sizeof(error));
  if (status == 0) crafter_json_free(&document);
  return status == 0;
}

int main(void) {
  crafter_json_document document;
  char error[128];
  const char *text = "{\"a\": [1, -2.5e3, true, null], \"b\": \"x\\u00e9\\n\", \"c\": {}}";
  ok(crafter_json_parse(&document, text, strlen(text), error, sizeof(error)) == 0,
     "parses an object");
  const crafter_json *a = crafter_json_get(&document.root, "a");
  ok(a && a->type == CRAFTER_JSON_ARRAY && a->length == 4 && a->items[1].number == -2500,
     "array with numbers");
  const crafter_json *b = crafter_json_get(&document.root, "b");
  ok(b && strcmp(b->string, "x\xc3\xa9\n") == 0, "string escapes decode to UTF-8");
  ok(crafter_json_get(&document.root, "missing") == NULL, "missing key is NULL");
  crafter_json_free(&document);

  ok(!parses(""), "empty input is refused");
  ok(!parses("{\"a\": 1"), "truncated object is refused");
  ok(!parses("[1, 2,]"), "trailing comma is refused");
  ok(!parses("\"abc"), "unterminated string is refused");
  ok(!parses("[1] x"), "trailing garbage is refused");
  ok(!parses("{1: 2}"), "non-string key is refused");
  ok(!parses("-"), "a lone minus is refused");
  char deep[2000];
  memset(deep, '[', sizeof(deep) - 1);
  deep[sizeof(deep) - 1] = '\0';
  ok(!parses(deep), "deep nesting is refused, not a stack overflow");

  char number[40];
  crafter_format_double(number, 0.1);
  ok(strcmp(number, "0.1") == 0, "0.1 prints as 0.1");
  crafter_format_double(number, 1.0);
  ok(strcmp(number, "1.0") == 0, "1.0 keeps its .0 as in Python");
  crafter_format_double(number, 0.8056125421622267);
  ok(strcmp(number, "0.8056125421622267") == 0, "shortest round-trip digits");
  crafter_format_double(number, -0.2);
  ok(strcmp(number, "-0.2") == 0, "negative reward");
  /* Expected texts are Python's repr() of the same floats. */
  static const struct {
    double value;
    const char *text;
  } reprs[] = {{100.0, "100.0"}, {20.0, "20.0"}, {1e16, "1e+16"}, {1.5e16, "1.5e+16"},
               {1e-05, "1e-05"}, {0.0001, "0.0001"}, {123.456, "123.456"},
               {1234567890123456.0, "1234567890123456.0"}, {-7.25e-300, "-7.25e-300"},
               {0.30000000000000004, "0.30000000000000004"}, {0.0, "0.0"}, {-0.0, "-0.0"}};
  int all = 1;
  for (size_t i = 0; i < sizeof(reprs) / sizeof(reprs[0]); i++) {
    crafter_format_double(number, reprs[i].value);
    if (strcmp(number, reprs[i].text) != 0) {
      printf("# %s printed as %s\n", reprs[i].text, number);
      all = 0;
    }
  }
  ok(all, "floats print as Python's repr()");

  ok(crafter_proto_parse_action("5") == 5 && crafter_proto_parse_action(" move_left \r") == 1,
     "actions by number and by name");
  ok(crafter_proto_parse_action("17") == -1 && crafter_proto_parse_action("jump") == -1 &&
         crafter_proto_parse_action("3x") == -1 && crafter_proto_parse_action("-1") == -1,
     "bad actions are refused");
  return tap_done();
}
