/* cli: small helpers the programs share for parsing options and reporting
 * errors the same way: `program: what went wrong` on stderr. */
#ifndef CRAFTER_CLI_H
#define CRAFTER_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/params.h"

/* Parses "W,H" (or a single "N" for N,N) into two ints in [minimum, maximum].
 * Returns 0, or -1 if the text is not of that form. */
int crafter_parse_pair(const char *text, int minimum, int maximum, int out[2]);

/* Parses a whole decimal integer in [minimum, maximum]; 0 or -1. */
int crafter_parse_int64(const char *text, int64_t minimum, int64_t maximum, int64_t *out);

/* Parses the argument of an option as a whole decimal integer in
 * [minimum, maximum], or prints `program: invalid WHAT 'TEXT' (expected an
 * integer from MINIMUM to MAXIMUM)` and a hint to --help, and exits with
 * status 2. */
int64_t crafter_option_int64(const char *program, const char *what, const char *text,
                             int64_t minimum, int64_t maximum);

/* Prints `program: message` (format with one string argument, shown as
 * crafter_escape shows it) and a hint to --help on stderr, and exits with
 * status 2. */
void crafter_usage_error(const char *program, const char *format, const char *argument)
    __attribute__((noreturn));

/* Copies text[0..length) into out[out_size] (at least 4 bytes) for an
 * error message, so that input echoed to a terminal cannot drive it:
 * printable ASCII and well-formed UTF-8 stay as they are, a backslash
 * becomes \\, and every other byte (NUL, control characters, DEL, C1
 * controls, broken UTF-8) becomes \xHH.  When the result does not fit it
 * is cut at a whole character and ends in "...".  Returns out. */
const char *crafter_escape(char *out, size_t out_size, const char *text, size_t length);

/* Finishes standard output at the end of a program: flushes and closes it
 * and checks that everything written reached its destination (a full
 * disk, a closed pipe with SIGPIPE ignored).  On a failure prints
 * `program: write error: reason` on stderr and returns 1; otherwise
 * returns STATUS, so that `return crafter_close_stdout(PROGRAM, status);`
 * ends a main().  A STATUS already non-zero with the stream already in
 * error is taken as reported and returned quietly.  Nothing may be
 * written to stdout afterwards. */
int crafter_close_stdout(const char *program, int status);

/* ---- option tables ----
 *
 * A program's options are one table, as git's parse-options keeps them:
 * each entry gives its letter, long name, argument and help lines, and how
 * its argument is read, so the same table reads the command line (through
 * getopt_long, whose messages and abbreviations stay) and prints --help.
 * Rows of plain text between them make the rest of --help.  An entry may
 * be one of the options the programs share (envopts.h: one row each in
 * crafter_shared_options, read into the run the program describes,
 * run.h): it takes that row's letter, name, argument, reading, limits and
 * help, and may give its own help, argument name or limits instead. */

struct crafter_run;
typedef struct crafter_opt crafter_opt;
typedef struct crafter_opt_parser crafter_opt_parser;

/* A word an option's argument may be, and the int it stands for
 * (crafter_opt_keyword). */
typedef struct crafter_opt_word {
  const char *name;
  int value;
} crafter_opt_word;

/* Reads `argument` (NULL for an option that takes none) for `entry`;
 * exits with status 2 through crafter_opt_fail when it is bad. */
typedef void (*crafter_opt_store)(const crafter_opt_parser *parser, const crafter_opt *entry,
                                  const char *argument);

/* Flags of an entry. */
enum {
  CRAFTER_OPT_HIDDEN = 1,    /* read but not shown in --help (another row speaks of it) */
  CRAFTER_OPT_LIMITS = 2,    /* a shared entry with this program's minimum, maximum and
                                invalid instead of the row's */
  CRAFTER_OPT_NO_LETTER = 4, /* a shared entry without the row's letter */
  CRAFTER_OPT_RAW = 8        /* the entry's message shows the argument as typed instead of
                                escaped (crafter-play's own options always have) */
};

struct crafter_opt {
  const char *text;          /* a row of --help printed as it is; no option */
  int letter;                /* the short option, 0 for none */
  const char *name;          /* the long option, NULL for none */
  const char *argument;      /* its argument's name in --help ("N", "W,H"); NULL: it takes
                                none */
  const char *help;          /* its lines in --help, '\n' between them; NULL: the shared
                                row's, or none (the entry is then not shown) */
  crafter_opt_store store;
  size_t offset;             /* where the generic stores put the value: in the run for a
                                shared entry, else in the program's options */
  int64_t minimum, maximum;  /* the values a number may take (an observation kind: its
                                enum's) */
  const char *what;          /* a number's name in the standard message: "invalid WHAT
                                'ARG' (expected an integer from MIN to MAX)" */
  const char *invalid;       /* else the message for a bad argument (a format with one %s);
                                a string's when it is empty (NULL: an empty one is taken) */
  const crafter_opt_word *words; /* the words crafter_opt_keyword takes, ending with {NULL} */
  unsigned flags;            /* CRAFTER_OPT_... */
  const crafter_opt *shared; /* the row of crafter_shared_options this entry is, or NULL */
};

/* A row of text; the end of a table. */
#define CRAFTER_OPT_TEXT(text_) {.text = (text_)}
#define CRAFTER_OPT_END {0}

typedef struct crafter_opt_table {
  const char *program;        /* names the program in messages and --version */
  int column;                 /* where an option's help begins in --help */
  const crafter_opt *entries; /* ending with CRAFTER_OPT_END */
  const char *const *order;   /* the long options in the order getopt_long is given them
                                 (which is the order its message lists the candidates of an
                                 ambiguous abbreviation in), the others after them in the
                                 table's; NULL: the table's */
} crafter_opt_table;

/* The entry as it reads: a shared one with the row's fields under its
 * own.  A text row or a program's own entry is returned as it is. */
crafter_opt crafter_opt_resolve(const crafter_opt *entry);

/* Prints --help: the text rows as they are, and each option that is shown
 * as "  -x, --name=ARG" (or "      --name=ARG") padded to the column, or
 * on a line of its own when that leaves fewer than two spaces, then its
 * help lines, every one after the first indented to the column. */
void crafter_opt_usage(const crafter_opt_table *table, FILE *out);

#define CRAFTER_OPT_MOST 64 /* entries with an option in a table (more abort the program) */

struct crafter_opt_parser {
  const crafter_opt_table *table;
  const char *program;
  struct crafter_run *run;    /* what shared entries fill (NULL when there are none) */
  void *own;                  /* what the program's own entries fill */
  int count;
  crafter_opt entries[CRAFTER_OPT_MOST];  /* the table's options, resolved */
  struct option longopts[CRAFTER_OPT_MOST + 1]; /* getopt_long's, in the table's order
                                                   (or the one it asks for) */
  int long_entry[CRAFTER_OPT_MOST];       /* the entry of each */
  char shortopts[2 * CRAFTER_OPT_MOST + 1];
};

/* Makes the parser of a table for a run and a program's own options. */
void crafter_opt_start(crafter_opt_parser *parser, const crafter_opt_table *table,
                       struct crafter_run *run, void *own);

/* The next option of argv (getopt_long's optind and optarg), its argument
 * in *argument; NULL when the options end.  --help and --version are
 * answered here (printed, and the program exits with status 0), and an
 * option getopt refuses ends the program with status 2 after a hint to
 * --help. */
const crafter_opt *crafter_opt_next(crafter_opt_parser *parser, int argc, char **argv,
                                    const char **argument);

/* Reads the argument into the run or the program's options. */
void crafter_opt_store_entry(const crafter_opt_parser *parser, const crafter_opt *entry,
                             const char *argument);

/* Every option of argv by the table; returns optind, where the operands
 * begin.  Exits as crafter_opt_next does, or on a bad argument. */
int crafter_opt_parse(const crafter_opt_table *table, int argc, char **argv,
                      struct crafter_run *run, void *own);

/* `program: ` and the message (a format with one string argument), with
 * the argument escaped as crafter_usage_error shows it unless the entry
 * is CRAFTER_OPT_RAW, and a hint to --help; exits with status 2. */
void crafter_opt_fail(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *format, const char *argument) __attribute__((noreturn));

/* The generic ways of reading an argument, at the entry's offset: a flag
 * set to 1 (an int); a string kept as it is (refused when empty if the
 * entry has an invalid message); a number in [minimum, maximum] into an
 * int or an int64_t. */
void crafter_opt_flag(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument);
void crafter_opt_string(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument);
void crafter_opt_int(const crafter_opt_parser *parser, const crafter_opt *entry,
                     const char *argument);
void crafter_opt_int64(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument);

/* One of the entry's words, whose value goes into an int; any other
 * argument is refused with the entry's invalid message. */
void crafter_opt_keyword(const crafter_opt_parser *parser, const crafter_opt *entry,
                         const char *argument);

/* --help and --version: print, then exit with status 0. */
void crafter_opt_help(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument);
void crafter_opt_version(const crafter_opt_parser *parser, const crafter_opt *entry,
                         const char *argument);

#endif
