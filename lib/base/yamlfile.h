/* yamlfile: what every YAML reader of the toolkit does before it looks at
 * a document: read the file whole (refusing one too large), refuse
 * nesting deeper than the format needs, and say where libyaml found a
 * syntax error.  Messages start "NAME:LINE:COLUMN: ". */
#ifndef CRAFTER_YAMLFILE_H
#define CRAFTER_YAMLFILE_H

#include <stdarg.h>
#include <stddef.h>
#include <yaml.h>

/* Reads the file at `path` into a new buffer (*text, to be freed, with a
 * NUL after its *length bytes).  0, or -1 with "PATH: reason" in `error`,
 * the reason naming `what` ("a configuration is a few kilobytes") when
 * the file holds more than max_bytes. */
int crafter_yaml_read_file(const char *path, size_t max_bytes, const char *what, char **text,
                           size_t *length, char *error, size_t error_size);

/* A document being read, and where its reader's errors go. */
typedef struct crafter_yaml_reader {
  yaml_document_t *document;
  const char *name;  /* the file, as messages name it */
  char *error;
  size_t error_size;
} crafter_yaml_reader;

/* The document's node of an index (NULL for none). */
static inline yaml_node_t *crafter_yaml_node(const crafter_yaml_reader *reader, int index) {
  return yaml_document_get_node(reader->document, index);
}

/* crafter_yaml_vfail into the reader's error; returns -1. */
int crafter_yaml_fail(const crafter_yaml_reader *reader, const yaml_node_t *node,
                      const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Writes "NAME:LINE:COLUMN: " (the node's place; "NAME: " without a
 * node) and the formatted message into `error`; returns -1. */
int crafter_yaml_vfail(char *error, size_t error_size, const char *name, const yaml_node_t *node,
                       const char *format, va_list arguments);

/* libyaml's own account of a syntax error, with its marks; returns -1. */
int crafter_yaml_syntax_error(const yaml_parser_t *parser, const char *name, char *error,
                              size_t error_size);

/* Refuses YAML nested deeper than max_depth before building its tree:
 * libyaml takes time that grows faster than the depth, so a file nested
 * 100000 deep would take seconds only to be refused.  0, or -1 with the
 * place and `hint` ("a configuration is at most a few levels deep"). */
int crafter_yaml_check_depth(const char *text, size_t length, const char *name, int max_depth,
                             const char *hint, char *error, size_t error_size);

#endif
