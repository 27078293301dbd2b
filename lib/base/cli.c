#include "base/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

int crafter_parse_int64(const char *text, int64_t minimum, int64_t maximum, int64_t *out) {
  if (!text || !*text) return -1;
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  if (errno || *end != '\0' || value < minimum || value > maximum) return -1;
  *out = value;
  return 0;
}

int64_t crafter_option_int64(const char *program, const char *what, const char *text,
                             int64_t minimum, int64_t maximum) {
  int64_t value;
  if (crafter_parse_int64(text, minimum, maximum, &value) == 0) return value;
  char format[200];
  snprintf(format, sizeof(format), "invalid %s '%%s' (expected an integer from %lld to %lld)",
           what, (long long)minimum, (long long)maximum);
  crafter_usage_error(program, format, text);
}

int crafter_parse_pair(const char *text, int minimum, int maximum, int out[2]) {
  if (!text || !*text) return -1;
  char *end;
  errno = 0;
  long first = strtol(text, &end, 10);
  long second = first;
  if (errno || end == text) return -1;
  if (*end == ',' || *end == 'x') {
    const char *rest = end + 1;
    second = strtol(rest, &end, 10);
    if (errno || end == rest) return -1;
  }
  if (*end != '\0' || first < minimum || first > maximum || second < minimum ||
      second > maximum)
    return -1;
  out[0] = (int)first;
  out[1] = (int)second;
  return 0;
}

void crafter_usage_error(const char *program, const char *format, const char *argument) {
  /* The argument is the user's text: shown, never obeyed by the terminal. */
  char shown[1024];
  fprintf(stderr, "%s: ", program);
  fprintf(stderr, format, crafter_escape(shown, sizeof(shown), argument, strlen(argument)));
  fprintf(stderr, "\nTry '%s --help' for more information.\n", program);
  exit(2);
}

/* Bytes in the well-formed UTF-8 character at text[0..length) that a
 * terminal prints (not a C1 control), or 0 when there is none. */
static size_t printable_utf8(const unsigned char *text, size_t length) {
  size_t bytes = crafter_utf8_character(text, length);
  return bytes && !(text[0] == 0xc2 && text[1] < 0xa0) ? bytes : 0; /* not U+0080..U+009F */
}

const char *crafter_escape(char *out, size_t out_size, const char *text, size_t length) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *bytes = (const unsigned char *)text;
  size_t limit = out_size - 1, used = 0, cut = 0;
  for (size_t i = 0; i < length;) {
    char piece[4];
    size_t consumed = printable_utf8(bytes + i, length - i), size = consumed;
    if (consumed > 0) {
      memcpy(piece, bytes + i, size);
    } else if (bytes[i] == '\\') {
      memcpy(piece, "\\\\", size = 2);
    } else if (bytes[i] >= 0x20 && bytes[i] < 0x7f) {
      piece[0] = (char)bytes[i];
      size = 1;
    } else {
      piece[0] = '\\';
      piece[1] = 'x';
      piece[2] = hex[bytes[i] >> 4];
      piece[3] = hex[bytes[i] & 15];
      size = 4;
    }
    if (used + size > limit) {
      memcpy(out + cut, "...", 4);
      return out;
    }
    memcpy(out + used, piece, size);
    used += size;
    if (used + 3 <= limit) cut = used;
    i += consumed ? consumed : 1;
  }
  out[used] = '\0';
  return out;
}

int crafter_close_stdout(const char *program, int status) {
  int ferror_before = ferror(stdout) != 0;
  int failed = ferror_before;
  int reason = 0;
  errno = 0;
  if (fflush(stdout) != 0) {
    failed = 1;
    reason = errno;
  }
  /* Closing a stdout that was never open (>&-) is no failure when nothing
   * was written to it. */
  errno = 0;
  if (fclose(stdout) != 0 && !(errno == EBADF && !failed)) {
    if (!failed) reason = errno;
    failed = 1;
  }
  if (!failed) return status;
  /* A program that failed with its output already in error has said why. */
  if (status != 0 && ferror_before) return status;
  if (reason)
    fprintf(stderr, "%s: write error: %s\n", program, strerror(reason));
  else
    fprintf(stderr, "%s: write error\n", program);
  return 1;
}

/* ---- option tables ---- */

static int table_end(const crafter_opt *entry) {
  return !entry->text && !entry->letter && !entry->name && !entry->shared;
}

crafter_opt crafter_opt_resolve(const crafter_opt *entry) {
  if (!entry->shared) return *entry;
  crafter_opt resolved = *entry->shared;
  resolved.shared = entry->shared;
  if (entry->name) resolved.name = entry->name;
  if (entry->argument) resolved.argument = entry->argument;
  if (entry->help) resolved.help = entry->help;
  if (entry->flags & CRAFTER_OPT_NO_LETTER) resolved.letter = 0;
  if (entry->flags & CRAFTER_OPT_LIMITS) {
    resolved.minimum = entry->minimum;
    resolved.maximum = entry->maximum;
    resolved.invalid = entry->invalid;
  }
  resolved.flags |= entry->flags;
  return resolved;
}

void crafter_opt_usage(const crafter_opt_table *table, FILE *out) {
  for (const crafter_opt *entry = table->entries; !table_end(entry); entry++) {
    if (entry->text) {
      fputs(entry->text, out);
      continue;
    }
    crafter_opt option = crafter_opt_resolve(entry);
    if (!option.help || (option.flags & CRAFTER_OPT_HIDDEN)) continue;
    int used = option.letter ? fprintf(out, "  -%c%s", option.letter, option.name ? ", " : "")
                             : fprintf(out, "      ");
    if (option.name)
      used += fprintf(out, "--%s%s%s", option.name, option.argument ? "=" : "",
                      option.argument ? option.argument : "");
    else if (option.argument)
      used += fprintf(out, " %s", option.argument);
    if (used + 2 > table->column) {
      fputc('\n', out);
      used = 0;
    }
    fprintf(out, "%*s", table->column - used, "");
    for (const char *help = option.help; *help; help++) {
      fputc(*help, out);
      if (*help == '\n') fprintf(out, "%*s", table->column, "");
    }
    fputc('\n', out);
  }
}

/* The code getopt_long returns for entry i of a parser: its letter, else
 * one of its own beyond every character. */
static int entry_code(const crafter_opt_parser *parser, int i) {
  return parser->entries[i].letter ? parser->entries[i].letter : 256 + i;
}

static void add_long(crafter_opt_parser *parser, int *count, int i) {
  const crafter_opt *entry = &parser->entries[i];
  struct option *option = &parser->longopts[*count];
  option->name = entry->name;
  option->has_arg = entry->argument ? required_argument : no_argument;
  option->flag = NULL;
  option->val = entry_code(parser, i);
  parser->long_entry[(*count)++] = i;
}

void crafter_opt_start(crafter_opt_parser *parser, const crafter_opt_table *table,
                       struct crafter_run *run, void *own) {
  memset(parser, 0, sizeof(*parser));
  parser->table = table;
  parser->program = table->program;
  parser->run = run;
  parser->own = own;
  size_t letters = 0;
  for (const crafter_opt *entry = table->entries; !table_end(entry); entry++) {
    if (entry->text) continue;
    if (parser->count == CRAFTER_OPT_MOST) {
      fprintf(stderr, "%s: more than %d options in a table\n", parser->program, CRAFTER_OPT_MOST);
      abort();
    }
    crafter_opt *option = &parser->entries[parser->count++];
    *option = crafter_opt_resolve(entry);
    if (option->letter && !memchr(parser->shortopts, option->letter, letters)) {
      parser->shortopts[letters++] = (char)option->letter;
      if (option->argument) parser->shortopts[letters++] = ':';
    }
  }
  /* The long options in the order asked for, then the others. */
  uint8_t given[CRAFTER_OPT_MOST] = {0};
  int count = 0;
  for (const char *const *name = table->order; name && *name; name++)
    for (int i = 0; i < parser->count; i++)
      if (!given[i] && parser->entries[i].name && strcmp(parser->entries[i].name, *name) == 0) {
        given[i] = 1;
        add_long(parser, &count, i);
        break;
      }
  for (int i = 0; i < parser->count; i++)
    if (!given[i] && parser->entries[i].name) add_long(parser, &count, i);
}

const crafter_opt *crafter_opt_next(crafter_opt_parser *parser, int argc, char **argv,
                                    const char **argument) {
  int index = -1;
  int code = getopt_long(argc, argv, parser->shortopts, parser->longopts, &index);
  if (code == -1) return NULL;
  const crafter_opt *entry = NULL;
  if (code != '?') {
    if (index >= 0)
      entry = &parser->entries[parser->long_entry[index]];
    else
      for (int i = 0; i < parser->count && !entry; i++)
        if (entry_code(parser, i) == code) entry = &parser->entries[i];
  }
  if (!entry) {
    fprintf(stderr, "Try '%s --help' for more information.\n", parser->program);
    exit(2);
  }
  *argument = optarg;
  if (entry->store == crafter_opt_help || entry->store == crafter_opt_version)
    entry->store(parser, entry, optarg);
  return entry;
}

void crafter_opt_store_entry(const crafter_opt_parser *parser, const crafter_opt *entry,
                             const char *argument) {
  if (entry->store) entry->store(parser, entry, argument);
}

int crafter_opt_parse(const crafter_opt_table *table, int argc, char **argv,
                      struct crafter_run *run, void *own) {
  crafter_opt_parser parser;
  crafter_opt_start(&parser, table, run, own);
  const crafter_opt *entry;
  const char *argument;
  while ((entry = crafter_opt_next(&parser, argc, argv, &argument)))
    crafter_opt_store_entry(&parser, entry, argument);
  return optind;
}

void crafter_opt_fail(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *format, const char *argument) {
  if (!(entry->flags & CRAFTER_OPT_RAW)) crafter_usage_error(parser->program, format, argument);
  fprintf(stderr, "%s: ", parser->program);
  fprintf(stderr, format, argument);
  fprintf(stderr, "\nTry '%s --help' for more information.\n", parser->program);
  exit(2);
}

/* Where the generic stores put an entry's value. */
static void *field(const crafter_opt_parser *parser, const crafter_opt *entry) {
  return (char *)(entry->shared ? (void *)parser->run : parser->own) + entry->offset;
}

void crafter_opt_flag(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  (void)argument;
  *(int *)field(parser, entry) = 1;
}

void crafter_opt_string(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  if (entry->invalid && !*argument) crafter_opt_fail(parser, entry, "%s", entry->invalid);
  *(const char **)field(parser, entry) = argument;
}

/* The argument as a number of the entry's range, or the entry's message
 * (else the standard one) and exit. */
static int64_t number(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  int64_t value;
  if (crafter_parse_int64(argument, entry->minimum, entry->maximum, &value) == 0) return value;
  if (entry->invalid) crafter_opt_fail(parser, entry, entry->invalid, argument);
  return crafter_option_int64(parser->program, entry->what, argument, entry->minimum,
                              entry->maximum);
}

void crafter_opt_int(const crafter_opt_parser *parser, const crafter_opt *entry,
                     const char *argument) {
  *(int *)field(parser, entry) = (int)number(parser, entry, argument);
}

void crafter_opt_int64(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument) {
  *(int64_t *)field(parser, entry) = number(parser, entry, argument);
}

void crafter_opt_keyword(const crafter_opt_parser *parser, const crafter_opt *entry,
                         const char *argument) {
  for (const crafter_opt_word *word = entry->words; word->name; word++)
    if (strcmp(argument, word->name) == 0) {
      *(int *)field(parser, entry) = word->value;
      return;
    }
  crafter_opt_fail(parser, entry, entry->invalid, argument);
}

void crafter_opt_help(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  (void)entry, (void)argument;
  crafter_opt_usage(parser->table, stdout);
  exit(crafter_close_stdout(parser->program, 0));
}

void crafter_opt_version(const crafter_opt_parser *parser, const crafter_opt *entry,
                         const char *argument) {
  (void)entry, (void)argument;
  printf("%s (Crafter toolkit) %s\n", parser->program, CRAFTER_VERSION);
  exit(crafter_close_stdout(parser->program, 0));
}
