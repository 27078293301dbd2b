#include "base/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

#define MAX_DEPTH 256

typedef struct arena_block {
  struct arena_block *next;
  size_t used, capacity;
  max_align_t data[];
} arena_block;

typedef struct parser {
  const char *text;
  size_t length, position;
  arena_block *arena;
  char *error;
  size_t error_size;
  int failed;
} parser;

static void *arena_alloc(parser *p, size_t size) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (size == 0) size = sizeof(max_align_t);
  arena_block *block = p->arena;
  if (!block || block->capacity - block->used < size) {
    size_t capacity = size > 65536 ? size : 65536;
    block = malloc(sizeof(arena_block) + capacity);
    if (!block) return NULL;
    block->next = p->arena;
    block->used = 0;
    block->capacity = capacity;
    p->arena = block;
  }
  void *memory = (char *)block->data + block->used;
  block->used += size;
  return memory;
}

static int fail(parser *p, const char *what) {
  if (!p->failed) snprintf(p->error, p->error_size, "%s at byte %zu", what, p->position);
  p->failed = 1;
  return -1;
}

static void skip_space(parser *p) {
  while (p->position < p->length) {
    char c = p->text[p->position];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    p->position++;
  }
}

static int literal(parser *p, const char *word) {
  size_t n = strlen(word);
  if (p->length - p->position < n || memcmp(p->text + p->position, word, n) != 0)
    return fail(p, "invalid literal");
  p->position += n;
  return 0;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int read_hex4(parser *p, unsigned *out) {
  if (p->length - p->position < 4) return fail(p, "truncated \\u escape");
  unsigned value = 0;
  for (int i = 0; i < 4; i++) {
    int digit = hex_value(p->text[p->position + (size_t)i]);
    if (digit < 0) return fail(p, "bad \\u escape");
    value = value * 16 + (unsigned)digit;
  }
  p->position += 4;
  *out = value;
  return 0;
}

static size_t put_utf8(char *out, unsigned code) {
  if (code < 0x80) {
    out[0] = (char)code;
    return 1;
  }
  if (code < 0x800) {
    out[0] = (char)(0xc0 | (code >> 6));
    out[1] = (char)(0x80 | (code & 0x3f));
    return 2;
  }
  if (code < 0x10000) {
    out[0] = (char)(0xe0 | (code >> 12));
    out[1] = (char)(0x80 | ((code >> 6) & 0x3f));
    out[2] = (char)(0x80 | (code & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | (code >> 18));
  out[1] = (char)(0x80 | ((code >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((code >> 6) & 0x3f));
  out[3] = (char)(0x80 | (code & 0x3f));
  return 4;
}

static int parse_string(parser *p, char **out, size_t *out_length) {
  p->position++; /* opening quote */
  size_t start = p->position;
  /* The decoded string is never longer than its source. */
  size_t end = start;
  while (end < p->length && p->text[end] != '"') end += p->text[end] == '\\' ? 2 : 1;
  if (end >= p->length) return fail(p, "unterminated string");
  char *buffer = arena_alloc(p, end - start + 1);
  if (!buffer) return fail(p, "out of memory");
  size_t n = 0;
  while (p->position < p->length) {
    unsigned char c = (unsigned char)p->text[p->position];
    if (c == '"') {
      p->position++;
      buffer[n] = '\0';
      *out = buffer;
      *out_length = n;
      return 0;
    }
    if (c < 0x20) return fail(p, "control character in string");
    if (c != '\\') {
      buffer[n++] = (char)c;
      p->position++;
      continue;
    }
    p->position++;
    if (p->position >= p->length) break;
    char escape = p->text[p->position++];
    switch (escape) {
      case '"': buffer[n++] = '"'; break;
      case '\\': buffer[n++] = '\\'; break;
      case '/': buffer[n++] = '/'; break;
      case 'b': buffer[n++] = '\b'; break;
      case 'f': buffer[n++] = '\f'; break;
      case 'n': buffer[n++] = '\n'; break;
      case 'r': buffer[n++] = '\r'; break;
      case 't': buffer[n++] = '\t'; break;
      case 'u': {
        unsigned code;
        if (read_hex4(p, &code) < 0) return -1;
        if (code >= 0xd800 && code < 0xdc00 && p->length - p->position >= 6 &&
            p->text[p->position] == '\\' && p->text[p->position + 1] == 'u') {
          unsigned low;
          p->position += 2;
          if (read_hex4(p, &low) < 0) return -1;
          if (low < 0xdc00 || low > 0xdfff) return fail(p, "bad surrogate pair");
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        /* An escape of six bytes decodes to at most four. */
        n += put_utf8(buffer + n, code);
        break;
      }
      default: return fail(p, "bad escape in string");
    }
  }
  return fail(p, "unterminated string");
}

static int parse_number(parser *p, crafter_json *value) {
  size_t start = p->position;
  if (p->text[p->position] == '-') p->position++;
  /* Python's json writes -Infinity for the negative infinity. */
  if (p->position < p->length && p->text[p->position] == 'I') {
    if (literal(p, "Infinity") < 0) return -1;
    value->type = CRAFTER_JSON_NUMBER;
    value->number = -INFINITY;
    return 0;
  }
  size_t digits = p->position;
  while (p->position < p->length && p->text[p->position] >= '0' && p->text[p->position] <= '9')
    p->position++;
  if (p->position == digits) return fail(p, "bad number");
  if (p->position < p->length && p->text[p->position] == '.') {
    p->position++;
    size_t fraction = p->position;
    while (p->position < p->length && p->text[p->position] >= '0' &&
           p->text[p->position] <= '9')
      p->position++;
    if (p->position == fraction) return fail(p, "bad number");
  }
  if (p->position < p->length && (p->text[p->position] == 'e' || p->text[p->position] == 'E')) {
    p->position++;
    if (p->position < p->length && (p->text[p->position] == '+' || p->text[p->position] == '-'))
      p->position++;
    size_t exponent = p->position;
    while (p->position < p->length && p->text[p->position] >= '0' &&
           p->text[p->position] <= '9')
      p->position++;
    if (p->position == exponent) return fail(p, "bad number");
  }
  char local[64];
  size_t n = p->position - start;
  if (n >= sizeof(local)) {
    char *copy = arena_alloc(p, n + 1);
    if (!copy) return fail(p, "out of memory");
    memcpy(copy, p->text + start, n);
    copy[n] = '\0';
    value->number = strtod(copy, NULL);
  } else {
    memcpy(local, p->text + start, n);
    local[n] = '\0';
    value->number = strtod(local, NULL);
  }
  value->type = CRAFTER_JSON_NUMBER;
  return 0;
}

/* Growable list of values used while reading one array or object; it is
 * copied into the arena when complete. */
typedef struct value_list {
  crafter_json *items;
  char **keys;
  size_t count, capacity;
} value_list;

static int list_push(value_list *list, const crafter_json *item, char *key) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 8;
    crafter_json *items = realloc(list->items, capacity * sizeof(*items));
    if (!items) return -1;
    list->items = items;
    char **keys = realloc(list->keys, capacity * sizeof(*keys));
    if (!keys) return -1;
    list->keys = keys;
    list->capacity = capacity;
  }
  list->items[list->count] = *item;
  list->keys[list->count] = key;
  list->count++;
  return 0;
}

static int parse_value(parser *p, crafter_json *value, int depth);

static int finish_list(parser *p, value_list *list, crafter_json *value, int with_keys) {
  value->length = list->count;
  value->items = NULL;
  value->keys = NULL;
  if (list->count) {
    value->items = arena_alloc(p, list->count * sizeof(crafter_json));
    if (!value->items) return fail(p, "out of memory");
    memcpy(value->items, list->items, list->count * sizeof(crafter_json));
    if (with_keys) {
      value->keys = arena_alloc(p, list->count * sizeof(char *));
      if (!value->keys) return fail(p, "out of memory");
      memcpy(value->keys, list->keys, list->count * sizeof(char *));
    }
  }
  return 0;
}

static int parse_container(parser *p, crafter_json *value, int depth, int is_object) {
  char close = is_object ? '}' : ']';
  value->type = is_object ? CRAFTER_JSON_OBJECT : CRAFTER_JSON_ARRAY;
  p->position++;
  value_list list = {0};
  int status = 0;
  skip_space(p);
  if (p->position < p->length && p->text[p->position] == close) {
    p->position++;
  } else {
    for (;;) {
      char *key = NULL;
      if (is_object) {
        skip_space(p);
        size_t key_length;
        if (p->position >= p->length || p->text[p->position] != '"') {
          status = fail(p, "expected a string key");
          break;
        }
        if ((status = parse_string(p, &key, &key_length)) < 0) break;
        skip_space(p);
        if (p->position >= p->length || p->text[p->position] != ':') {
          status = fail(p, "expected ':'");
          break;
        }
        p->position++;
      }
      crafter_json item;
      if ((status = parse_value(p, &item, depth + 1)) < 0) break;
      if (list_push(&list, &item, key) < 0) {
        status = fail(p, "out of memory");
        break;
      }
      skip_space(p);
      if (p->position < p->length && p->text[p->position] == ',') {
        p->position++;
        continue;
      }
      if (p->position < p->length && p->text[p->position] == close) {
        p->position++;
        break;
      }
      status = fail(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
      break;
    }
  }
  if (status == 0) status = finish_list(p, &list, value, is_object);
  free(list.items);
  free(list.keys);
  return status;
}

static int parse_value(parser *p, crafter_json *value, int depth) {
  memset(value, 0, sizeof(*value));
  if (depth > MAX_DEPTH) return fail(p, "nesting too deep");
  skip_space(p);
  if (p->position >= p->length) return fail(p, "unexpected end of input");
  char c = p->text[p->position];
  switch (c) {
    case '{': return parse_container(p, value, depth, 1);
    case '[': return parse_container(p, value, depth, 0);
    case '"':
      value->type = CRAFTER_JSON_STRING;
      return parse_string(p, &value->string, &value->length);
    case 't': value->type = CRAFTER_JSON_TRUE; return literal(p, "true");
    case 'f': value->type = CRAFTER_JSON_FALSE; return literal(p, "false");
    case 'n': value->type = CRAFTER_JSON_NULL; return literal(p, "null");
    default:
      if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p, value);
      /* Python's json writes these for non-finite floats. */
      if ((c == 'N' && literal(p, "NaN") == 0) || (c == 'I' && literal(p, "Infinity") == 0)) {
        value->type = CRAFTER_JSON_NUMBER;
        value->number = c == 'N' ? NAN : INFINITY;
        return 0;
      }
      return fail(p, "unexpected character");
  }
}

int crafter_json_parse(crafter_json_document *document, const char *text, size_t length,
                       char *error, size_t error_size) {
  parser p = {text, length, 0, NULL, error, error_size, 0};
  memset(document, 0, sizeof(*document));
  int status = parse_value(&p, &document->root, 0);
  if (status == 0) {
    skip_space(&p);
    if (p.position != p.length) status = fail(&p, "trailing characters");
  }
  document->arena = p.arena;
  if (status < 0) crafter_json_free(document);
  return status;
}

void crafter_json_free(crafter_json_document *document) {
  arena_block *block = document->arena;
  while (block) {
    arena_block *next = block->next;
    free(block);
    block = next;
  }
  memset(document, 0, sizeof(*document));
}

const crafter_json *crafter_json_get(const crafter_json *object, const char *key) {
  if (!object || object->type != CRAFTER_JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->length; i++)
    if (strcmp(object->keys[i], key) == 0) return &object->items[i];
  return NULL;
}

/* ---- writing ---- */

/* Everything but the staging area, which needs no clearing. */
static void writer_reset(crafter_json_writer *writer, FILE *out) {
  writer->file = out;
  writer->buffer = NULL;
  writer->length = writer->capacity = 0;
  writer->staged = 0;
  writer->depth = 0;
  writer->is_object[0] = 0;
  writer->has_items[0] = 0;
  writer->after_key = 0;
  writer->in_string = 0;
  writer->failed = 0;
}

void crafter_json_writer_init_file(crafter_json_writer *writer, FILE *out) {
  writer_reset(writer, out);
}

void crafter_json_writer_init_buffer(crafter_json_writer *writer) { writer_reset(writer, NULL); }

void crafter_json_writer_flush(crafter_json_writer *writer) {
  if (writer->file && writer->staged) fwrite(writer->staging, 1, writer->staged, writer->file);
  writer->staged = 0;
}

void crafter_json_writer_free(crafter_json_writer *writer) {
  free(writer->buffer);
  writer->buffer = NULL;
  writer->length = writer->capacity = 0;
}

const char *crafter_json_writer_text(const crafter_json_writer *writer, size_t *length) {
  if (length) *length = writer->buffer ? writer->length : 0;
  return writer->buffer ? writer->buffer : "";
}

int crafter_json_writer_status(const crafter_json_writer *writer) {
  if (writer->failed || (writer->file && ferror(writer->file))) return -1;
  return 0;
}

static void put(crafter_json_writer *writer, const char *text, size_t length) {
  if (writer->failed || length == 0) return;
  if (writer->file) {
    /* Many small writes to a stream each take its lock: gather them. */
    if (writer->staged + length > sizeof(writer->staging)) {
      crafter_json_writer_flush(writer);
      if (length > sizeof(writer->staging)) {
        fwrite(text, 1, length, writer->file);
        return;
      }
    }
    memcpy(writer->staging + writer->staged, text, length);
    writer->staged += length;
    return;
  }
  if (writer->capacity - writer->length <= length) {
    size_t capacity = writer->capacity ? writer->capacity : 256;
    while (capacity - writer->length <= length) {
      if (capacity > SIZE_MAX / 2) {
        writer->failed = 1;
        return;
      }
      capacity *= 2;
    }
    char *grown = realloc(writer->buffer, capacity);
    if (!grown) {
      writer->failed = 1;
      return;
    }
    writer->buffer = grown;
    writer->capacity = capacity;
  }
  memcpy(writer->buffer + writer->length, text, length);
  writer->length += length;
  writer->buffer[writer->length] = '\0';
}

static void put_text(crafter_json_writer *writer, const char *text) {
  put(writer, text, strlen(text));
}

/* Makes room for a value: the separator after the one before it in an
 * array, nothing after a key; a value in an object without its key, or
 * a second value at the top level without a newline between, is misuse. */
static int begin_value(crafter_json_writer *writer) {
  if (writer->failed || writer->in_string) {
    writer->failed = 1;
    return -1;
  }
  if (writer->after_key) {
    writer->after_key = 0;
    return 0;
  }
  if (writer->depth == 0) {
    if (writer->has_items[0]) writer->failed = 1;
    writer->has_items[0] = 1;
    return writer->failed ? -1 : 0;
  }
  int level = writer->depth;
  if (writer->is_object[level]) {
    writer->failed = 1;
    return -1;
  }
  if (writer->has_items[level]) put(writer, ", ", 2);
  writer->has_items[level] = 1;
  return 0;
}

/* After a value: a complete top-level value goes out to the stream. */
static void end_value(crafter_json_writer *writer) {
  if (writer->depth == 0 && !writer->in_string) crafter_json_writer_flush(writer);
}

/* Level 0 is the top; containers open at levels 1..depth. */
static void begin_container(crafter_json_writer *writer, int is_object) {
  if (begin_value(writer) < 0) return;
  if (writer->depth + 1 >= CRAFTER_JSON_WRITER_DEPTH) {
    writer->failed = 1;
    return;
  }
  writer->depth++;
  writer->is_object[writer->depth] = (unsigned char)is_object;
  writer->has_items[writer->depth] = 0;
  put(writer, is_object ? "{" : "[", 1);
}

static void end_container(crafter_json_writer *writer, int is_object) {
  if (writer->failed) return;
  if (writer->depth == 0 || writer->is_object[writer->depth] != is_object || writer->after_key ||
      writer->in_string) {
    writer->failed = 1;
    return;
  }
  writer->depth--;
  put(writer, is_object ? "}" : "]", 1);
  end_value(writer);
}

void crafter_json_begin_object(crafter_json_writer *writer) { begin_container(writer, 1); }
void crafter_json_end_object(crafter_json_writer *writer) { end_container(writer, 1); }
void crafter_json_begin_array(crafter_json_writer *writer) { begin_container(writer, 0); }
void crafter_json_end_array(crafter_json_writer *writer) { end_container(writer, 0); }


static void put_escaped(crafter_json_writer *writer, const char *text, size_t length) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *bytes = (const unsigned char *)text;
  size_t plain = 0; /* start of the bytes that go out as they are */
  for (size_t i = 0; i < length;) {
    unsigned char c = bytes[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      i++;
      continue;
    }
    if (c >= 0x80) {
      size_t character = crafter_utf8_character(bytes + i, length - i);
      if (character) {
        i += character;
        continue;
      }
    }
    put(writer, text + plain, i - plain);
    char escape[7] = {'\\', 0, 0, 0, 0, 0, 0};
    size_t size = 2;
    switch (c) {
      case '"': escape[1] = '"'; break;
      case '\\': escape[1] = '\\'; break;
      case '\b': escape[1] = 'b'; break;
      case '\f': escape[1] = 'f'; break;
      case '\n': escape[1] = 'n'; break;
      case '\r': escape[1] = 'r'; break;
      case '\t': escape[1] = 't'; break;
      default:
        if (c < 0x20)
          memcpy(escape + 1, (char[]){'u', '0', '0', hex[c >> 4], hex[c & 15]}, 5);
        else /* not part of well-formed UTF-8 */
          memcpy(escape + 1, "ufffd", 5);
        size = 6;
        break;
    }
    put(writer, escape, size);
    i++;
    plain = i;
  }
  put(writer, text + plain, length - plain);
}

void crafter_json_string_begin(crafter_json_writer *writer) {
  if (begin_value(writer) < 0) return;
  put(writer, "\"", 1);
  writer->in_string = 1;
}

void crafter_json_string_append(crafter_json_writer *writer, const char *text, size_t length) {
  if (!writer->in_string) {
    writer->failed = 1;
    return;
  }
  put_escaped(writer, text, length);
}

void crafter_json_string_end(crafter_json_writer *writer) {
  if (!writer->in_string) {
    writer->failed = 1;
    return;
  }
  writer->in_string = 0;
  put(writer, "\"", 1);
  end_value(writer);
}

void crafter_json_string_n(crafter_json_writer *writer, const char *text, size_t length) {
  crafter_json_string_begin(writer);
  crafter_json_string_append(writer, text, length);
  crafter_json_string_end(writer);
}

void crafter_json_string(crafter_json_writer *writer, const char *text) {
  crafter_json_string_n(writer, text, strlen(text));
}

void crafter_json_key(crafter_json_writer *writer, const char *key) {
  if (writer->failed) return;
  int level = writer->depth;
  if (level == 0 || !writer->is_object[level] || writer->after_key || writer->in_string) {
    writer->failed = 1;
    return;
  }
  if (writer->has_items[level]) put(writer, ", ", 2);
  writer->has_items[level] = 1;
  put(writer, "\"", 1);
  put_escaped(writer, key, strlen(key));
  put(writer, "\": ", 3);
  writer->after_key = 1;
}

/* Decimal digits of magnitude, with a minus sign before them when
 * negative, ending at end; returns where they start.  (Records are mostly
 * small integers: printf would be most of their cost.) */
static char *decimal(char *end, uint64_t magnitude, int negative) {
  char *at = end;
  do {
    *--at = (char)('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude);
  if (negative) *--at = '-';
  return at;
}

void crafter_json_int(crafter_json_writer *writer, int64_t value) {
  if (begin_value(writer) < 0) return;
  char text[24];
  /* The magnitude in unsigned arithmetic: -INT64_MIN does not fit. */
  uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
  char *start = decimal(text + sizeof(text), magnitude, value < 0);
  put(writer, start, (size_t)(text + sizeof(text) - start));
  end_value(writer);
}

void crafter_json_uint(crafter_json_writer *writer, uint64_t value) {
  if (begin_value(writer) < 0) return;
  char text[24];
  char *start = decimal(text + sizeof(text), value, 0);
  put(writer, start, (size_t)(text + sizeof(text) - start));
  end_value(writer);
}

int crafter_json_format_double(char *out, double value) {
  if (isnan(value)) return sprintf(out, "NaN");
  if (isinf(value)) return sprintf(out, value > 0 ? "Infinity" : "-Infinity");
  /* The fewest significant digits that read back to the same value... */
  char scientific[40];
  int digits = 1;
  for (; digits < 17; digits++) {
    snprintf(scientific, sizeof(scientific), "%.*e", digits - 1, value);
    if (strtod(scientific, NULL) == value) break;
  }
  snprintf(scientific, sizeof(scientific), "%.*e", digits - 1, value);
  char *mark = strchr(scientific, 'e');
  int exponent = atoi(mark + 1);
  /* ...laid out as Python's repr(): positional from 1e-4 up to 1e16,
   * always with a decimal point, else scientific with two exponent
   * digits at least. */
  if (exponent >= -4 && exponent < 16) {
    int decimals = digits - 1 - exponent;
    return sprintf(out, "%.*f", decimals > 0 ? decimals : 1, value);
  }
  int length = (int)(mark - scientific);
  memcpy(out, scientific, (size_t)length);
  return length + sprintf(out + length, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
}

void crafter_json_double(crafter_json_writer *writer, double value) {
  if (!isfinite(value)) {
    crafter_json_null(writer);
    return;
  }
  if (begin_value(writer) < 0) return;
  char text[40];
  put(writer, text, (size_t)crafter_json_format_double(text, value));
  end_value(writer);
}

void crafter_json_python_double(crafter_json_writer *writer, double value) {
  if (begin_value(writer) < 0) return;
  char text[40];
  put(writer, text, (size_t)crafter_json_format_double(text, value));
  end_value(writer);
}

void crafter_json_fixed(crafter_json_writer *writer, double value, int decimals) {
  if (!isfinite(value)) {
    crafter_json_null(writer);
    return;
  }
  if (begin_value(writer) < 0) return;
  if (decimals < 0) decimals = 0;
  if (decimals > 17) decimals = 17;
  /* The widest: 309 digits of DBL_MAX, a sign, a point and 17 decimals. */
  char text[340];
  put(writer, text, (size_t)snprintf(text, sizeof(text), "%.*f", decimals, value));
  end_value(writer);
}

void crafter_json_bool(crafter_json_writer *writer, int value) {
  if (begin_value(writer) < 0) return;
  put_text(writer, value ? "true" : "false");
  end_value(writer);
}

void crafter_json_null(crafter_json_writer *writer) {
  if (begin_value(writer) < 0) return;
  put(writer, "null", 4);
  end_value(writer);
}

void crafter_json_base64(crafter_json_writer *writer, const uint8_t *data, size_t size) {
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (begin_value(writer) < 0) return;
  put(writer, "\"", 1);
  /* Four characters for every three bytes, written a block at a time. */
  char block[1024];
  size_t used = 0, i = 0;
  for (; i + 3 <= size; i += 3) {
    uint32_t bits = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
    block[used++] = alphabet[bits >> 18];
    block[used++] = alphabet[(bits >> 12) & 63];
    block[used++] = alphabet[(bits >> 6) & 63];
    block[used++] = alphabet[bits & 63];
    if (used == sizeof(block)) {
      put(writer, block, used);
      used = 0;
    }
  }
  if (i < size) {
    uint32_t bits = (uint32_t)data[i] << 16 | (i + 1 < size ? (uint32_t)data[i + 1] << 8 : 0);
    block[used++] = alphabet[bits >> 18];
    block[used++] = alphabet[(bits >> 12) & 63];
    block[used++] = i + 1 < size ? alphabet[(bits >> 6) & 63] : '=';
    block[used++] = '=';
  }
  put(writer, block, used);
  put(writer, "\"", 1);
  end_value(writer);
}

/* A base64 character's six bits, or -1. */
static int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int crafter_base64_decode(const char *text, size_t length, uint8_t *out, size_t *size) {
  if (length % 4) return -1;
  size_t made = 0;
  for (size_t i = 0; i < length; i += 4) {
    int last = i + 4 == length;
    int pad = last && text[i + 3] == '=' ? (text[i + 2] == '=' ? 2 : 1) : 0;
    uint32_t bits = 0;
    for (int k = 0; k < 4; k++) {
      int value = k >= 4 - pad ? 0 : sextet(text[i + (size_t)k]);
      if (value < 0) return -1;
      bits = bits << 6 | (uint32_t)value;
    }
    /* Padding leaves the bits it stands for at zero (the canonical form). */
    if ((pad == 1 && (bits & 0xff)) || (pad == 2 && (bits & 0xffff))) return -1;
    out[made++] = (uint8_t)(bits >> 16);
    if (pad < 2) out[made++] = (uint8_t)(bits >> 8);
    if (pad < 1) out[made++] = (uint8_t)bits;
  }
  *size = made;
  return 0;
}

void crafter_json_newline(crafter_json_writer *writer) {
  if (writer->failed) return;
  if (writer->depth != 0 || writer->after_key || writer->in_string) {
    writer->failed = 1;
    return;
  }
  writer->has_items[0] = 0;
  put(writer, "\n", 1);
  crafter_json_writer_flush(writer);
}
