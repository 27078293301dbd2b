#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
      if (c == 'N' && literal(p, "NaN") == 0) {
        value->type = CRAFTER_JSON_NUMBER;
        value->number = NAN;
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
