/* json: a small, strict JSON reader (RFC 8259) for the files the toolkit
 * reads: reference traces, Crafter's stats.jsonl and run files.
 *
 * Values are parsed into one arena owned by the document; nothing is
 * allocated per value.  Input of any length or content is safe: errors
 * come back as a message with the byte offset, never as a crash. */
#ifndef CRAFTER_JSON_H
#define CRAFTER_JSON_H

#include <stddef.h>

typedef enum crafter_json_type {
  CRAFTER_JSON_NULL,
  CRAFTER_JSON_FALSE,
  CRAFTER_JSON_TRUE,
  CRAFTER_JSON_NUMBER,
  CRAFTER_JSON_STRING,
  CRAFTER_JSON_ARRAY,
  CRAFTER_JSON_OBJECT
} crafter_json_type;

typedef struct crafter_json crafter_json;
struct crafter_json {
  crafter_json_type type;
  double number;
  char *string;        /* NUL-terminated; for strings and object keys */
  size_t length;       /* string length, or element count */
  crafter_json *items; /* array elements or object values */
  char **keys;         /* object keys, parallel to items */
};

typedef struct crafter_json_document {
  crafter_json root;
  void *arena;
} crafter_json_document;

/* Parses text[0..length); returns 0, or -1 with a message in `error`. */
int crafter_json_parse(crafter_json_document *document, const char *text, size_t length,
                       char *error, size_t error_size);
void crafter_json_free(crafter_json_document *document);

/* Member of an object by key, NULL if absent or not an object. */
const crafter_json *crafter_json_get(const crafter_json *object, const char *key);

#endif
