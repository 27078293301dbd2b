/* json: a small, strict JSON reader (RFC 8259) for the files the toolkit
 * reads -- reference traces, Crafter's stats.jsonl and run files -- and
 * the one writer of every JSON text the toolkit writes: crafter-step's
 * records, crafter-score's, crafter-bench's and crafter-gen's results.
 *
 * Reading: values are parsed into one arena owned by the document;
 * nothing is allocated per value.  Input of any length or content is
 * safe: errors come back as a message with the byte offset, never as a
 * crash. */
#ifndef CRAFTER_JSON_H
#define CRAFTER_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Parses text[0..length); returns 0, or -1 with a message in `error`.
 * Beyond RFC 8259 it reads NaN, Infinity and -Infinity, as Python's json
 * writes non-finite floats. */
int crafter_json_parse(crafter_json_document *document, const char *text, size_t length,
                       char *error, size_t error_size);
void crafter_json_free(crafter_json_document *document);

/* Member of an object by key, NULL if absent or not an object. */
const crafter_json *crafter_json_get(const crafter_json *object, const char *key);

/* ---- writing ----
 *
 * A writer lays its text out as Python's json.dumps() does by default:
 * ", " between members and elements, ": " after a key, no other space,
 * so records read the same as the reference's.  It puts the separators
 * itself: the caller says what comes (begin an object, a key, a number,
 * end it) and the writer knows where it stands.
 *
 * Strings are escaped as RFC 8259 asks and json.dumps(ensure_ascii=False)
 * does: '"' and '\\' with a backslash; backspace, form feed, newline,
 * carriage return and tab as \b \f \n \r \t; the other bytes below
 * 0x20 as \u00XX (lowercase hex); everything else, well-formed UTF-8
 * included (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), as it is.  A byte that is not part of well-formed UTF-8
 * becomes \ufffd, the replacement character, one for each such byte, so
 * the text is always valid UTF-8 and valid JSON, whatever bytes a file
 * name, an agent's name or a CPU's name holds.
 *
 * Numbers: integers in decimal; doubles with the fewest digits that read
 * back to the same double, laid out as Python's repr() lays them out
 * (crafter_json_format_double); or with a fixed number of decimals where
 * a program promises that.  JSON has no NaN or infinity: a non-finite
 * double is written as null (or, for crafter-step's records, as Python
 * writes it: crafter_json_python_double).
 *
 * A writer writes to a stream or into a buffer it grows.  To a stream it
 * writes a top-level value whole once it is complete (a record in one
 * piece), or when asked to with crafter_json_writer_flush.  Misuse (a key
 * outside an object, a value without its key, a second top-level value
 * without crafter_json_newline before it, more than
 * CRAFTER_JSON_WRITER_DEPTH - 1 containers open at once, ending what is
 * not open) and running out of memory mark it failed: what follows is not
 * written, and crafter_json_writer_status says so. */

#define CRAFTER_JSON_WRITER_DEPTH 64
#define CRAFTER_JSON_WRITER_STAGING 4096

typedef struct crafter_json_writer {
  FILE *file;     /* where the text goes; NULL: into buffer */
  char *buffer;   /* the text so far, NUL-terminated, when file is NULL */
  size_t length, capacity;
  char staging[CRAFTER_JSON_WRITER_STAGING]; /* text not yet written to file */
  size_t staged;
  int depth;      /* containers open */
  unsigned char is_object[CRAFTER_JSON_WRITER_DEPTH]; /* the open containers' kinds */
  unsigned char has_items[CRAFTER_JSON_WRITER_DEPTH]; /* whether each has a value yet */
  int after_key;  /* a key was written: its value comes next */
  int in_string;  /* between crafter_json_string_begin and _end */
  int failed;
} crafter_json_writer;

/* A writer to `out`. */
void crafter_json_writer_init_file(crafter_json_writer *writer, FILE *out);

/* Writes what a stream writer holds of an unfinished value to its stream
 * (then fflush the stream to show it). */
void crafter_json_writer_flush(crafter_json_writer *writer);

/* A writer into a buffer of its own; free it with crafter_json_writer_free. */
void crafter_json_writer_init_buffer(crafter_json_writer *writer);
void crafter_json_writer_free(crafter_json_writer *writer);

/* A buffer writer's text so far (NUL-terminated; "" when empty), its
 * length in *length when length is not NULL. */
const char *crafter_json_writer_text(const crafter_json_writer *writer, size_t *length);

/* 0, or -1 when the writer failed (see above) or its stream is in error. */
int crafter_json_writer_status(const crafter_json_writer *writer);

void crafter_json_begin_object(crafter_json_writer *writer);
void crafter_json_end_object(crafter_json_writer *writer);
void crafter_json_begin_array(crafter_json_writer *writer);
void crafter_json_end_array(crafter_json_writer *writer);

/* The key of the next member of the open object. */
void crafter_json_key(crafter_json_writer *writer, const char *key);

/* Values. */
void crafter_json_string(crafter_json_writer *writer, const char *text);
void crafter_json_string_n(crafter_json_writer *writer, const char *text, size_t length);
void crafter_json_int(crafter_json_writer *writer, int64_t value);
void crafter_json_uint(crafter_json_writer *writer, uint64_t value);
void crafter_json_double(crafter_json_writer *writer, double value);
/* A double as Python's json.dumps writes a float: as crafter_json_double,
 * but NaN, Infinity and -Infinity for the non-finite ones.  Not RFC 8259:
 * for crafter-step's records, which keep the format of the reference
 * traces (Python's json, and this reader, read them back). */
void crafter_json_python_double(crafter_json_writer *writer, double value);
/* printf's %.Nf, N = decimals (0..17). */
void crafter_json_fixed(crafter_json_writer *writer, double value, int decimals);
void crafter_json_bool(crafter_json_writer *writer, int value);
void crafter_json_null(crafter_json_writer *writer);
/* Bytes as a string of base64 (RFC 4648, with padding). */
void crafter_json_base64(crafter_json_writer *writer, const uint8_t *data, size_t size);

/* The bytes of text[0..length), base64 as crafter_json_base64 writes it
 * (RFC 4648, padded, nothing else), into out, which holds length / 4 * 3
 * bytes; their count in *size.  0, or -1 for text that is not that. */
int crafter_base64_decode(const char *text, size_t length, uint8_t *out, size_t *size);

/* One string written in pieces, each escaped as above (a multi-byte
 * character may not be split between pieces). */
void crafter_json_string_begin(crafter_json_writer *writer);
void crafter_json_string_append(crafter_json_writer *writer, const char *text, size_t length);
void crafter_json_string_end(crafter_json_writer *writer);

/* Ends a top-level value with a newline: records as JSON lines. */
void crafter_json_newline(crafter_json_writer *writer);

/* Writes a double as Python's repr() would: the shortest text that reads
 * back to the same value, positional from 1e-4 up to 1e16 and always with
 * a decimal point ("1.0"), else in scientific notation with at least two
 * exponent digits ("1e-05", "1.5e+16"); "NaN", "Infinity" and
 * "-Infinity" for the others (not JSON: the writer writes null for
 * them).  out holds at least 32 bytes; returns the length. */
int crafter_json_format_double(char *out, double value);

#endif
