/* The JSON reader (values, escapes, refusal of malformed input) and the
 * one JSON writer every program writes with: escaping, numbers, layout,
 * misuse, and the JSON of proto, score, bench and gen read back.
 *
 * With --check FILE..., checks instead that every non-blank line of each
 * FILE is one JSON text the reader takes (tests/json-output.t runs the
 * programs' output through it). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "run/proto.h"
#include "tap.h"
#include "tools/bench.h"
#include "tools/gen.h"
#include "tools/score.h"
#include "tools/score_report.h"

static int parses(const char *text) {
  crafter_json_document document;
  char error[128];
  int status = crafter_json_parse(&document, text, strlen(text), error, sizeof(error));
  if (status == 0) crafter_json_free(&document);
  return status == 0;
}

/* ---- --check ---- */

static int check_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    perror(path);
    return 1;
  }
  size_t size = 1 << 16, length;
  char *line = malloc(size);
  long number = 0;
  int failed = 0;
  while (line && fgets(line, (int)size, file)) {
    length = strlen(line);
    /* A line longer than the buffer: grow it and read on. */
    while (length == size - 1 && line[length - 1] != '\n') {
      char *grown = realloc(line, size * 2);
      if (!grown) break;
      line = grown;
      if (!fgets(line + length, (int)(size * 2 - length), file)) break;
      size *= 2;
      length += strlen(line + length);
    }
    number++;
    if (strspn(line, " \t\r\n") == length) continue;
    crafter_json_document document;
    char error[200];
    if (crafter_json_parse(&document, line, length, error, sizeof(error)) < 0) {
      printf("%s:%ld: %s\n", path, number, error);
      failed = 1;
    } else {
      crafter_json_free(&document);
    }
  }
  free(line);
  fclose(file);
  return failed;
}

/* ---- the writers the toolkit had before json's writer ----
 *
 * Kept here, as they were, so that each escaping test below can show it
 * catches at least one of them.  proto.c (crafter-step's records): */
static void old_proto_string(FILE *out, const char *text, size_t length) {
  fputc('"', out);
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

/* score.c (crafter-score --format json): */
static void old_score_string(FILE *out, const char *text, size_t length) {
  fputc('"', out);
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

/* crafter-bench.c ("cpu": "%s"): */
static void old_bench_string(FILE *out, const char *text, size_t length) {
  fprintf(out, "\"%.*s\"", (int)length, text);
}

/* What `write` makes of text[0..length), in out[size]. */
static const char *old_output(void (*write)(FILE *, const char *, size_t), const char *text,
                              size_t length, char *out, size_t size) {
  FILE *file = tmpfile();
  out[0] = '\0';
  if (!file) return out;
  write(file, text, length);
  rewind(file);
  size_t got = fread(out, 1, size - 1, file);
  out[got] = '\0';
  fclose(file);
  return out;
}

/* What the writer makes of text[0..length) as a string, in out[size]. */
static const char *new_output(const char *text, size_t length, char *out, size_t size) {
  crafter_json_writer json;
  crafter_json_writer_init_buffer(&json);
  crafter_json_string_n(&json, text, length);
  snprintf(out, size, "%s",
           crafter_json_writer_status(&json) == 0 ? crafter_json_writer_text(&json, NULL)
                                                  : "(failed)");
  crafter_json_writer_free(&json);
  return out;
}

/* The string a JSON text of one string decodes to, in out[size]; -1 if it
 * does not parse. */
static int decoded(const char *json_text, char *out, size_t size, size_t *length) {
  crafter_json_document document;
  char error[128];
  if (crafter_json_parse(&document, json_text, strlen(json_text), error, sizeof(error)) < 0)
    return -1;
  int status = -1;
  if (document.root.type == CRAFTER_JSON_STRING && document.root.length < size) {
    memcpy(out, document.root.string, document.root.length + 1);
    *length = document.root.length;
    status = 0;
  }
  crafter_json_free(&document);
  return status;
}

typedef struct escape_case {
  const char *what;
  const char *text;
  size_t length;
  const char *expected;  /* the writer's text, quotes included */
  const char *reads_as;  /* what it decodes to, when not text itself (replaced bytes) */
} escape_case;

#define TEXT(literal) literal, sizeof(literal) - 1

static const escape_case escape_cases[] = {
    {"a newline is \\n (score wrote \\u000a, bench wrote it raw)", TEXT("line\nbreak"),
     "\"line\\nbreak\"", NULL},
    {"a tab is \\t (proto and score wrote \\u0009)", TEXT("a\tb"), "\"a\\tb\"", NULL},
    {"a quote is \\\" (bench wrote it raw)", TEXT("say \"hi\""), "\"say \\\"hi\\\"\"", NULL},
    {"a backslash is \\\\ (bench wrote it raw)", TEXT("C:\\dir\\"), "\"C:\\\\dir\\\\\"", NULL},
    {"control bytes: \\r \\b \\f short, others \\u00XX, NUL too (proto and score wrote "
     "\\u000d, \\u0008, \\u000c)",
     TEXT("\x01\x1f\r\b\f\0end"), "\"\\u0001\\u001f\\r\\b\\f\\u0000end\"", NULL},
    {"a CPU name with quotes and a backslash (bench wrote it raw: not JSON)",
     TEXT("Intel(R) \"Fake\" CPU \\ 2.0GHz"), "\"Intel(R) \\\"Fake\\\" CPU \\\\ 2.0GHz\"", NULL},
    {"well-formed UTF-8 passes through and every byte of broken UTF-8 becomes \\ufffd (all "
     "wrote it raw: not UTF-8)",
     TEXT("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\xb2 \xff \xc0\x80 \xed\xa0\x80 \xf4\x90\x80\x80 "
          "\xe2\x82"),
     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\xb2 \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd "
     "\\ufffd\\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\"",
     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\xb2 \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
     "\xef\xbf\xbd\xef\xbf\xbd"},
};

static void test_escaping(void) {
  for (size_t i = 0; i < sizeof(escape_cases) / sizeof(escape_cases[0]); i++) {
    const escape_case *c = &escape_cases[i];
    char written[512], old[512], back[512];
    new_output(c->text, c->length, written, sizeof(written));
    int right = strcmp(written, c->expected) == 0;
    if (!right) printf("# wrote    %s\n# expected %s\n", written, c->expected);
    size_t back_length = 0;
    const char *reads_as = c->reads_as ? c->reads_as : c->text;
    size_t reads_length = c->reads_as ? strlen(c->reads_as) : c->length;
    int reads_back = decoded(written, back, sizeof(back), &back_length) == 0 &&
                     back_length == reads_length && memcmp(back, reads_as, reads_length) == 0;
    /* The case catches the old writers: at least one wrote otherwise. */
    int catches = 0;
    void (*const olds[])(FILE *, const char *, size_t) = {old_proto_string, old_score_string,
                                                         old_bench_string};
    for (int o = 0; o < 3; o++)
      catches |=
          strcmp(old_output(olds[o], c->text, c->length, old, sizeof(old)), c->expected) != 0;
    ok(right && reads_back && catches, "%s", c->what);
  }

  /* DEL and the C1 range are JSON's to pass, as json.dumps does. */
  char written[64];
  ok(strcmp(new_output(TEXT("\x7f\xc2\x80"), written, sizeof(written)), "\"\x7f\xc2\x80\"") == 0,
     "DEL and U+0080 pass through");

  /* Every byte value, alone between letters: valid JSON, and what reads
   * back is the byte itself (ASCII) or U+FFFD (a lone byte >= 0x80). */
  int all = 1;
  for (int byte = 0; byte < 256; byte++) {
    char text[3] = {'a', (char)byte, 'z'}, back[64];
    size_t length;
    new_output(text, 3, written, sizeof(written));
    int good = decoded(written, back, sizeof(back), &length) == 0;
    if (good && byte < 0x80)
      good = length == 3 && memcmp(back, text, 3) == 0;
    else if (good)
      good = length == 5 && memcmp(back, "a\xef\xbf\xbdz", 5) == 0;
    if (!good) {
      printf("# byte 0x%02x: %s\n", byte, written);
      all = 0;
    }
  }
  ok(all, "every byte alone reads back as itself or as U+FFFD");

  /* Random strings of ASCII, controls and well-formed characters of 1 to
   * 4 bytes read back exactly. */
  static const char *const pieces[] = {"a", "\"", "\\", "\n", "\t", "\x01", "\x1f", "/",
                                       "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x8c\xb2", " "};
  uint32_t state = 12345;
  all = 1;
  for (int trial = 0; trial < 500 && all; trial++) {
    char text[256] = "", back[1024], json_text[1024];
    size_t used = 0;
    for (int n = 0; n < 40; n++) {
      state = state * 1103515245u + 12345u;
      const char *piece = pieces[(state >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
      memcpy(text + used, piece, strlen(piece));
      used += strlen(piece);
    }
    size_t length;
    new_output(text, used, json_text, sizeof(json_text));
    all = decoded(json_text, back, sizeof(back), &length) == 0 && length == used &&
          memcmp(back, text, used) == 0;
    if (!all) printf("# %s\n", json_text);
  }
  ok(all, "500 random strings of escapes and UTF-8 read back exactly");
}

/* ---- numbers, layout, misuse ---- */

/* The writer's text after `build`, or "(failed)". */
static const char *built(void (*build)(crafter_json_writer *), char *out, size_t size) {
  crafter_json_writer json;
  crafter_json_writer_init_buffer(&json);
  build(&json);
  snprintf(out, size, "%s",
           crafter_json_writer_status(&json) == 0 ? crafter_json_writer_text(&json, NULL)
                                                  : "(failed)");
  crafter_json_writer_free(&json);
  return out;
}

static void build_layout(crafter_json_writer *json) {
  crafter_json_begin_object(json);
  crafter_json_key(json, "a");
  crafter_json_begin_array(json);
  crafter_json_int(json, 1);
  crafter_json_int(json, -2);
  crafter_json_begin_array(json);
  crafter_json_end_array(json);
  crafter_json_begin_object(json);
  crafter_json_end_object(json);
  crafter_json_end_array(json);
  crafter_json_key(json, "b\"");
  crafter_json_bool(json, 1);
  crafter_json_key(json, "c");
  crafter_json_null(json);
  crafter_json_key(json, "d");
  crafter_json_double(json, 0.5);
  crafter_json_end_object(json);
  crafter_json_newline(json);
  crafter_json_bool(json, 0);
  crafter_json_newline(json);
}

static void build_integers(crafter_json_writer *json) {
  crafter_json_begin_array(json);
  crafter_json_int(json, INT64_MIN);
  crafter_json_int(json, INT64_MAX);
  crafter_json_int(json, 0);
  crafter_json_uint(json, UINT64_MAX);
  crafter_json_end_array(json);
}

static void build_fixed(crafter_json_writer *json) {
  crafter_json_begin_array(json);
  crafter_json_fixed(json, 0.0, 4);
  crafter_json_fixed(json, 1234.5678, 1);
  crafter_json_fixed(json, -0.126, 2);
  crafter_json_fixed(json, 3.0, 0);
  crafter_json_fixed(json, NAN, 2);
  crafter_json_double(json, INFINITY);
  crafter_json_double(json, -INFINITY);
  crafter_json_double(json, NAN);
  crafter_json_end_array(json);
}

static void build_python(crafter_json_writer *json) {
  crafter_json_begin_array(json);
  crafter_json_python_double(json, NAN);
  crafter_json_python_double(json, INFINITY);
  crafter_json_python_double(json, -INFINITY);
  crafter_json_python_double(json, 0.1);
  crafter_json_end_array(json);
}

static void build_base64(crafter_json_writer *json) {
  crafter_json_begin_array(json);
  for (size_t n = 0; n <= 6; n++) crafter_json_base64(json, (const uint8_t *)"foobar", n);
  crafter_json_end_array(json);
}

static void build_pieces(crafter_json_writer *json) {
  crafter_json_begin_object(json);
  crafter_json_key(json, "s");
  crafter_json_string_begin(json);
  crafter_json_string_append(json, "ab", 2);
  crafter_json_string_append(json, "\n", 1);
  crafter_json_string_append(json, "\xc3\xa9", 2);
  crafter_json_string_end(json);
  crafter_json_end_object(json);
}

static void misuse_key_in_array(crafter_json_writer *json) {
  crafter_json_begin_array(json);
  crafter_json_key(json, "a");
}
static void misuse_value_without_key(crafter_json_writer *json) {
  crafter_json_begin_object(json);
  crafter_json_int(json, 1);
}
static void misuse_wrong_end(crafter_json_writer *json) {
  crafter_json_begin_object(json);
  crafter_json_end_array(json);
}
static void misuse_end_after_key(crafter_json_writer *json) {
  crafter_json_begin_object(json);
  crafter_json_key(json, "a");
  crafter_json_end_object(json);
}
static void misuse_two_top_values(crafter_json_writer *json) {
  crafter_json_int(json, 1);
  crafter_json_int(json, 2);
}
static void misuse_too_deep(crafter_json_writer *json) {
  for (int i = 0; i < CRAFTER_JSON_WRITER_DEPTH + 1; i++) crafter_json_begin_array(json);
}
static void misuse_newline_inside(crafter_json_writer *json) {
  crafter_json_begin_array(json);
  crafter_json_newline(json);
}
static void misuse_value_in_string(crafter_json_writer *json) {
  crafter_json_string_begin(json);
  crafter_json_int(json, 1);
}

static void test_writer(void) {
  char text[512];
  ok(strcmp(built(build_layout, text, sizeof(text)),
            "{\"a\": [1, -2, [], {}], \"b\\\"\": true, \"c\": null, \"d\": 0.5}\nfalse\n") == 0,
     "layout as json.dumps: \", \" and \": \", keys escaped, one value a line");
  ok(strcmp(built(build_integers, text, sizeof(text)),
            "[-9223372036854775808, 9223372036854775807, 0, 18446744073709551615]") == 0,
     "integers to the ends of 64 bits: %s", text);
  ok(strcmp(built(build_fixed, text, sizeof(text)),
            "[0.0000, 1234.6, -0.13, 3, null, null, null, null]") == 0,
     "fixed decimals as printf's; NaN and infinities are null: %s", text);
  ok(strcmp(built(build_python, text, sizeof(text)), "[NaN, Infinity, -Infinity, 0.1]") == 0,
     "floats as Python writes them, for crafter-step's records: %s", text);
  crafter_json_document document;
  char error[128];
  int read = crafter_json_parse(&document, text, strlen(text), error, sizeof(error)) == 0;
  ok(read && document.root.length == 4 && isnan(document.root.items[0].number) &&
         document.root.items[1].number == INFINITY && document.root.items[2].number == -INFINITY,
     "the reader reads NaN, Infinity and -Infinity back");
  if (read) crafter_json_free(&document);
  ok(!parses("-Inf") && !parses("Infinit") && !parses("[Infinity1]") && !parses("-NaN") &&
         !parses("inf"),
     "and nothing else of the kind");
  ok(strcmp(built(build_base64, text, sizeof(text)),
            "[\"\", \"Zg==\", \"Zm8=\", \"Zm9v\", \"Zm9vYg==\", \"Zm9vYmE=\", \"Zm9vYmFy\"]") == 0,
     "base64 of RFC 4648's test vectors: %s", text);
  ok(strcmp(built(build_pieces, text, sizeof(text)), "{\"s\": \"ab\\n\xc3\xa9\"}") == 0,
     "a string written in pieces: %s", text);

  static const struct {
    void (*build)(crafter_json_writer *);
    const char *what;
  } misuses[] = {
      {misuse_key_in_array, "a key in an array"},
      {misuse_value_without_key, "a value without its key"},
      {misuse_wrong_end, "ending an object as an array"},
      {misuse_end_after_key, "ending an object after a key"},
      {misuse_two_top_values, "two top-level values without a newline"},
      {misuse_too_deep, "nesting past CRAFTER_JSON_WRITER_DEPTH"},
      {misuse_newline_inside, "a newline inside an array"},
      {misuse_value_in_string, "a value inside a string"},
  };
  for (size_t i = 0; i < sizeof(misuses) / sizeof(misuses[0]); i++)
    ok(strcmp(built(misuses[i].build, text, sizeof(text)), "(failed)") == 0,
       "misuse marks the writer failed: %s", misuses[i].what);

  /* Doubles: the shortest text that reads back, through the reader too. */
  uint64_t state = 88172645463325252ull;
  int all = 1;
  for (int i = 0; i < 20000 && all; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    double value;
    memcpy(&value, &state, sizeof(value));
    if (!isfinite(value)) continue;
    if (i % 2) value = (double)(state % 2000001) / 1000.0 - 1000.0; /* everyday numbers */
    crafter_json_writer json;
    crafter_json_writer_init_buffer(&json);
    crafter_json_double(&json, value);
    crafter_json_document document;
    char error[128];
    const char *written = crafter_json_writer_text(&json, NULL);
    all = crafter_json_parse(&document, written, strlen(written), error, sizeof(error)) == 0;
    if (all) {
      all = document.root.type == CRAFTER_JSON_NUMBER && document.root.number == value &&
            strtod(written, NULL) == value;
      crafter_json_free(&document);
    }
    if (!all) printf("# %.17g written as %s\n", value, written);
    crafter_json_writer_free(&json);
  }
  ok(all, "20000 doubles read back exactly, through strtod and through the reader");

  /* A stream writer writes what a buffer writer holds, a record whole. */
  FILE *file = tmpfile();
  crafter_json_writer to_file, to_buffer;
  crafter_json_writer_init_file(&to_file, file);
  crafter_json_writer_init_buffer(&to_buffer);
  crafter_json_writer *writers[2] = {&to_file, &to_buffer};
  char long_text[10000];
  for (size_t i = 0; i < sizeof(long_text); i++) long_text[i] = (char)('a' + i % 26);
  for (int w = 0; w < 2; w++) {
    crafter_json_begin_array(writers[w]);
    for (int i = 0; i < 3000; i++) crafter_json_int(writers[w], i);
    crafter_json_string_n(writers[w], long_text, sizeof(long_text));
    crafter_json_end_array(writers[w]);
    crafter_json_newline(writers[w]);
  }
  long size = file ? ftell(file) : -1;
  size_t length;
  const char *expected = crafter_json_writer_text(&to_buffer, &length);
  char *got = malloc(length + 1);
  int same = file && got && size == (long)length;
  if (same) {
    rewind(file);
    same = fread(got, 1, length, file) == length && memcmp(got, expected, length) == 0;
  }
  ok(same && crafter_json_writer_status(&to_file) == 0,
     "a stream gets what a buffer gets (%zu bytes)", length);
  free(got);
  crafter_json_writer_free(&to_buffer);
  if (file) fclose(file);
}

/* ---- the programs' JSON ---- */

/* What `file` holds, malloc'ed and NUL-terminated. */
static char *contents(FILE *file) {
  long size = ftell(file);
  char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
  if (!text) return NULL;
  rewind(file);
  size_t got = fread(text, 1, (size_t)size, file);
  text[got] = '\0';
  return text;
}

/* Parses text; the document's root, or NULL (the document then empty). */
static const crafter_json *parse_document(crafter_json_document *document, const char *text) {
  char error[200];
  if (!text || crafter_json_parse(document, text, strlen(text), error, sizeof(error)) < 0) {
    printf("# %s\n", text ? error : "no text");
    memset(document, 0, sizeof(*document));
    return NULL;
  }
  return &document->root;
}

static int string_is(const crafter_json *value, const char *expected) {
  return value && value->type == CRAFTER_JSON_STRING && strcmp(value->string, expected) == 0;
}

static void test_proto(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 3;
  crafter_env *env = malloc(sizeof(*env));
  char error[256];
  if (!env || crafter_env_init(env, &params, error, sizeof(error)) < 0 ||
      crafter_env_reset(env) < 0) {
    ok(0, "an env for the records: %s", env ? error : "out of memory");
    free(env);
    return;
  }
  const char *text = "You see:\n\ta \"tree\" \\ here\x01";
  crafter_proto_extra extra;
  memset(&extra, 0, sizeof(extra));
  extra.env_index = -1;
  extra.kind = CRAFTER_OBS_TEXT;
  extra.include = 1;
  extra.data = text;
  extra.size = strlen(text);
  extra.task_id = "task\t\"1\"";
  extra.instruction = "go\nnorth \xff";
  extra.goal = 0;
  FILE *file = tmpfile();
  crafter_proto_write_state(file, env, 0, NULL, &extra);
  crafter_step_result result;
  memset(&result, 0, sizeof(result));
  result.reward = 1.0;
  result.discount = 1.0;
  result.unlocked = 1;
  crafter_proto_write_short(file, env, &result, &extra);
  crafter_proto_write_step(file, env, 0, 5, &result, &extra);
  char *records = file ? contents(file) : NULL;
  int lines = 0, parsed = 0, right = 0;
  for (char *line = records, *end; line && *line; line = end + 1) {
    end = strchr(line, '\n');
    if (!end) break;
    *end = '\0';
    lines++;
    crafter_json_document document;
    const crafter_json *root = parse_document(&document, line);
    parsed += root != NULL;
    right += string_is(crafter_json_get(root, "obs"), text) &&
             string_is(crafter_json_get(root, "task"), "task\t\"1\"") &&
             string_is(crafter_json_get(root, "instruction"), "go\nnorth \xef\xbf\xbd") &&
             strstr(line, "\"obs\": \"You see:\\n\\ta \\\"tree\\\" \\\\ here\\u0001\"") &&
             strstr(line, "\"task\": \"task\\t\\\"1\\\"\"");
    crafter_json_free(&document);
  }
  ok(lines == 3 && parsed == 3, "proto: state, short and full records are JSON (%d of %d lines)",
     parsed, lines);
  ok(right == 3, "proto: text, task and instruction escaped as RFC 8259 says and read back");
  free(records);
  if (file) fclose(file);

  /* Craftax-Classic's float16 overflows to infinity on large counts: the
   * symbolic observation says so as Python would, not as null. */
  const float symbolic[5] = {1.0f, 0.5f, INFINITY, -INFINITY, NAN};
  memset(&extra, 0, sizeof(extra));
  extra.env_index = 2;
  extra.kind = CRAFTER_OBS_SYMBOLIC;
  extra.include = 1;
  extra.data = symbolic;
  extra.size = sizeof(symbolic);
  file = tmpfile();
  crafter_proto_write_short(file, env, NULL, &extra);
  records = file ? contents(file) : NULL;
  ok(records && strcmp(records, "{\"env\": 2, \"reset\": 1, \"obs\": [1.0, 0.5, Infinity, "
                                "-Infinity, NaN]}\n") == 0,
     "proto: a symbolic observation's infinities are Infinity, as in Python: %s",
     records ? records : "");
  free(records);
  if (file) fclose(file);
  crafter_env_fini(env);
  free(env);
}

static void test_score(void) {
  crafter_score_set set;
  crafter_score_set_init(&set, 1e6);
  char episode[2048];
  int used = snprintf(episode, sizeof(episode), "{\"length\": 10, \"reward\": 1.5");
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    used += snprintf(episode + used, sizeof(episode) - (size_t)used, ", \"achievement_%s\": %d",
                     crafter_achievement_names[k], k % 2);
  snprintf(episode + used, sizeof(episode) - (size_t)used, "}\n");
  const char *method = "we\"ird\nname\t\\ caf\xc3\xa9";
  char error[256];
  int read = crafter_score_read(&set, episode, strlen(episode), method, NULL, "s\x01", error,
                                sizeof(error));
  size_t count = 0;
  crafter_score_method *methods = read == 0 ? crafter_score_summarize(&set, &count) : NULL;
  FILE *file = tmpfile();
  if (methods && file) crafter_score_write_json(file, methods, count, &set);
  char *text = file ? contents(file) : NULL;
  crafter_json_document document;
  const crafter_json *root = parse_document(&document, text);
  const crafter_json *list = crafter_json_get(root, "methods");
  const crafter_json *runs = crafter_json_get(root, "runs");
  ok(list && list->length == 1 && string_is(crafter_json_get(&list->items[0], "name"), method) &&
         runs && runs->length == 1 && string_is(crafter_json_get(&runs->items[0], "seed"), "s\x01"),
     "score: --format json reads back, the method's name and seed exactly");
  ok(text && strstr(text, "\"name\": \"we\\\"ird\\nname\\t\\\\ caf\xc3\xa9\""),
     "score: a newline in a name is \\n, as in crafter-step's records (it was \\u000a)");
  crafter_json_free(&document);
  free(text);
  if (file) fclose(file);
  free(methods);
  crafter_score_set_free(&set);
}

static void test_bench(void) {
  /* A /proc/cpuinfo whose model name holds what JSON must escape. */
  const char *directory = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof(path), "%s/test-json-cpuinfo-XXXXXX",
           directory && *directory ? directory : "/tmp");
  int descriptor = mkstemp(path);
  FILE *info = descriptor >= 0 ? fdopen(descriptor, "w") : NULL;
  const char *name = "Fake \"Quoted\" CPU \\ 9000 \xff";
  if (info) {
    fprintf(info, "processor\t: 0\nvendor_id\t: Fake\nmodel name\t: %s\nflags\t\t: fpu\n", name);
    fclose(info);
  }
  char cpu[256];
  crafter_bench_cpu_name(path, cpu, sizeof(cpu));
  if (descriptor >= 0) unlink(path);
  ok(strcmp(cpu, name) == 0, "bench: the CPU's model name read: %s", cpu);
  crafter_bench_cpu_name("/nonexistent/cpuinfo", cpu, sizeof(cpu));
  ok(strcmp(cpu, "unknown") == 0, "bench: no cpuinfo: \"unknown\"");

  crafter_bench_options options;
  memset(&options, 0, sizeof(options));
  options.repeats = 3;
  crafter_bench_result result;
  memset(&result, 0, sizeof(result));
  result.steps_per_second = 123456.789;
  result.resets_per_second = 12.34;
  result.reset_microseconds = 567.891;
  result.seconds = 1.23456;
  result.steps = 1000;
  result.envs = result.threads = 2;
  result.bytes_per_env = 4096;
  crafter_json_writer json;
  crafter_json_writer_init_buffer(&json);
  crafter_bench_write_json(&json, &options, &result, name, "plain \"paths\"");
  const char *text = crafter_json_writer_text(&json, NULL);
  crafter_json_document document;
  const crafter_json *root = parse_document(&document, text);
  ok(root && string_is(crafter_json_get(root, "cpu"), "Fake \"Quoted\" CPU \\ 9000 \xef\xbf\xbd") &&
         string_is(crafter_json_get(root, "kernels"), "plain \"paths\""),
     "bench: --format json with a quote in the CPU's name is JSON and reads back (it was "
     "written raw)");
  const char *figures =
      "{\"sps\": 123456.8, \"resets_per_s\": 12.3, \"reset_us\": 567.89, \"envs\": 2, "
      "\"threads\": 2, \"obs\": \"none\", \"steps\": 1000, \"seconds\": 1.2346, \"resets\": 0, "
      "\"repeats\": 3, \"bytes_per_env\": 4096, \"cpu\": ";
  ok(strncmp(text, figures, strlen(figures)) == 0,
     "bench: the figures keep their decimals: %.110s", text);
  crafter_json_free(&document);
  crafter_json_writer_free(&json);
}

static void test_gen(void) {
  crafter_gen_stats_options options;
  memset(&options, 0, sizeof(options));
  crafter_params_default(&options.params);
  options.first_seed = 1;
  options.last_seed = 2;
  options.episode = 1;
  crafter_gen_stats stats;
  memset(&stats, 0, sizeof(stats));
  stats.worlds = 2;
  stats.threads = 1;
  stats.seconds = 0.5;
  stats.things[0].count_mean = 12.5;
  stats.things[0].nearest_median = 3;
  stats.things[1].nearest_median = -1;
  FILE *file = tmpfile();
  if (file) crafter_gen_stats_write_json(file, &options, &stats);
  char *text = file ? contents(file) : NULL;
  crafter_json_document document;
  const crafter_json *root = parse_document(&document, text);
  const crafter_json *things = crafter_json_get(root, "things");
  const crafter_json *nearest = crafter_json_get(crafter_json_get(things, "grass"), "nearest");
  ok(things && things->length == CRAFTER_GEN_THINGS && nearest &&
         nearest->type == CRAFTER_JSON_NULL &&
         strstr(text, "\"seconds\": 0.500000, \"threads\": 1, \"ms_per_world\": 250.000000") &&
         strstr(text, "\"water\": {\"count\": {\"mean\": 12.5000, "),
     "gen: --stats --format json is JSON, its figures with their decimals");
  crafter_json_free(&document);
  free(text);
  if (file) fclose(file);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--check") == 0) {
    int failed = 0;
    for (int i = 2; i < argc; i++) failed |= check_file(argv[i]);
    return failed;
  }
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
               {0.30000000000000004, "0.30000000000000004"}, {0.0, "0.0"}, {-0.0, "-0.0"},
               {1e300, "1e+300"}, {5e-324, "5e-324"},
               {1.7976931348623157e308, "1.7976931348623157e+308"}};
  int all = 1;
  for (size_t i = 0; i < sizeof(reprs) / sizeof(reprs[0]); i++) {
    crafter_format_double(number, reprs[i].value);
    char again[40];
    crafter_json_format_double(again, reprs[i].value);
    if (strcmp(number, reprs[i].text) != 0 || strcmp(again, number) != 0) {
      printf("# %s printed as %s\n", reprs[i].text, number);
      all = 0;
    }
  }
  ok(all, "floats print as Python's repr(), through proto and json alike");

  ok(crafter_proto_parse_action("5") == 5 && crafter_proto_parse_action(" move_left \r") == 1,
     "actions by number and by name");
  ok(crafter_proto_parse_action("17") == -1 && crafter_proto_parse_action("jump") == -1 &&
         crafter_proto_parse_action("3x") == -1 && crafter_proto_parse_action("-1") == -1,
     "bad actions are refused");

  test_escaping();
  test_writer();
  test_proto();
  test_score();
  test_bench();
  test_gen();
  return tap_done();
}
