#include "base/yamlfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int crafter_yaml_read_file(const char *path, size_t max_bytes, const char *what, char **text,
                           size_t *length, char *error, size_t error_size) {
  *text = NULL;
  *length = 0;
  FILE *file = fopen(path, "rb");
  if (!file) {
    snprintf(error, error_size, "%s: %s", path, strerror(errno));
    return -1;
  }
  /* One byte more than allowed tells a file that is too large. */
  char *buffer = malloc(max_bytes + 2);
  if (!buffer) {
    fclose(file);
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  size_t got = fread(buffer, 1, max_bytes + 1, file);
  int failed = ferror(file);
  fclose(file);
  if (failed) {
    free(buffer);
    snprintf(error, error_size, "%s: cannot be read", path);
    return -1;
  }
  if (got > max_bytes) {
    free(buffer);
    snprintf(error, error_size, "%s: larger than %zu bytes; %s", path, max_bytes, what);
    return -1;
  }
  buffer[got] = '\0';
  *text = buffer;
  *length = got;
  return 0;
}

int crafter_yaml_vfail(char *error, size_t error_size, const char *name, const yaml_node_t *node,
                       const char *format, va_list arguments) {
  int used = node ? snprintf(error, error_size, "%s:%zu:%zu: ", name, node->start_mark.line + 1,
                             node->start_mark.column + 1)
                  : snprintf(error, error_size, "%s: ", name);
  if (used < 0 || (size_t)used >= error_size) return -1;
  vsnprintf(error + used, error_size - (size_t)used, format, arguments);
  return -1;
}

int crafter_yaml_syntax_error(const yaml_parser_t *parser, const char *name, char *error,
                              size_t error_size) {
  const char *problem = parser->problem ? parser->problem : "not valid YAML";
  if (parser->context)
    snprintf(error, error_size, "%s:%zu:%zu: %s (%s that starts on line %zu)", name,
             parser->problem_mark.line + 1, parser->problem_mark.column + 1, problem,
             parser->context, parser->context_mark.line + 1);
  else
    snprintf(error, error_size, "%s:%zu:%zu: %s", name, parser->problem_mark.line + 1,
             parser->problem_mark.column + 1, problem);
  return -1;
}

int crafter_yaml_check_depth(const char *text, size_t length, const char *name, int max_depth,
                             const char *hint, char *error, size_t error_size) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
  int depth = 0, status = 0;
  for (;;) {
    yaml_event_t event;
    if (!yaml_parser_parse(&parser, &event)) {
      status = crafter_yaml_syntax_error(&parser, name, error, error_size);
      break;
    }
    yaml_event_type_t type = event.type;
    if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) depth++;
    if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) depth--;
    if (depth > max_depth) {
      snprintf(error, error_size, "%s:%zu:%zu: nested more than %d deep; %s", name,
               event.start_mark.line + 1, event.start_mark.column + 1, max_depth, hint);
      status = -1;
    }
    yaml_event_delete(&event);
    if (status < 0 || type == YAML_STREAM_END_EVENT) break;
  }
  yaml_parser_delete(&parser);
  return status;
}

int crafter_yaml_fail(const crafter_yaml_reader *reader, const yaml_node_t *node,
                      const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  crafter_yaml_vfail(reader->error, reader->error_size, reader->name, node, format, arguments);
  va_end(arguments);
  return -1;
}
