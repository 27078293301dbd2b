/* The cli helpers: escaping what a message echoes of the user's input;
 * option tables: --help printed from a table, shared rows under a
 * program's own fields, and a command line read into the run and the
 * program's options, refusing bad values with the entry's message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cli.h"
#include "run/envopts.h"
#include "run/proto.h"
#include "tap.h"

/* Escapes text[0..length) into a buffer of out_size bytes and compares. */
static int escapes_to(const char *text, size_t length, size_t out_size, const char *expected) {
  char out[256];
  crafter_escape(out, out_size, text, length);
  if (strcmp(out, expected) == 0) return 1;
  printf("# got \"%s\", expected \"%s\"\n", out, expected);
  return 0;
}

/* A program's own options in the tests' tables. */
typedef struct own {
  int quiet;
  const char *name, *list;
  int64_t count;
} own;

#define OWN(field) .offset = offsetof(own, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT("Usage: t [OPTION]...\n"),
    CRAFTER_SHARED(SEED),
    CRAFTER_SHARED(AREA, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(THREADS, .argument = "N", .help = "two\nlines"),
    CRAFTER_SHARED(OBS, .flags = CRAFTER_OPT_NO_LETTER | CRAFTER_OPT_LIMITS,
                   .minimum = CRAFTER_OBS_NONE, .maximum = CRAFTER_OBS_SYMBOLIC,
                   .invalid = "no kind '%s' here"),
    CRAFTER_SHARED(FIRST_EPISODE, .help = "first"),
    CRAFTER_SHARED(FIRST_EPISODE, .name = "episode", .flags = CRAFTER_OPT_HIDDEN),
    {.letter = 'x', .name = "a-rather-long-one", .argument = "VALUE", .store = crafter_opt_string,
     OWN(name), .help = "on a line of its own"},
    {.name = "fits", .argument = "ABCDE", .store = crafter_opt_string, OWN(name),
     .help = "two spaces"},
    {.name = "over", .argument = "ABCDEF", .store = crafter_opt_string, OWN(name),
     .help = "one space would be too few"},
    {.letter = 'q', .name = "quiet", .store = crafter_opt_flag, OWN(quiet), .help = "a flag"},
    {.letter = 'S', .argument = "LIST", .store = crafter_opt_string, OWN(list),
     .help = "a letter alone"},
    {.letter = 'c', .name = "count", .argument = "C", .store = crafter_opt_int64, OWN(count),
     .minimum = 1, .maximum = 9, .invalid = "bad count '%s'", .flags = CRAFTER_OPT_RAW},
    CRAFTER_OPT_TEXT("\n"),
    CRAFTER_SHARED(HELP),
    CRAFTER_OPT_END,
};

/* By the layout rule: the option padded to column 20 when two spaces or
 * more are left, else alone on its line; help lines after the first
 * indented to the column. */
static const char expected_usage[] =
    "Usage: t [OPTION]...\n"
    "  -s, --seed=N      the Env seed (default 0); env i uses N+i\n"
    "  -T, --threads=N   two\n"
    "                    lines\n"
    "      --obs=KIND    none (default), pixels, semantic, symbolic, text\n"
    "                    or balrog (BALROG's long and short context)\n"
    "  -e, --first-episode=E\n"
    "                    first\n"
    "  -x, --a-rather-long-one=VALUE\n"
    "                    on a line of its own\n"
    "      --fits=ABCDE  two spaces\n"
    "      --over=ABCDEF\n"
    "                    one space would be too few\n"
    "  -q, --quiet       a flag\n"
    "  -S LIST           a letter alone\n"
    "\n"
    "  -h, --help        show this help and exit\n";

static const crafter_opt_table table = {"t", 20, entries, NULL};

static void test_usage(void) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  if (out) {
    crafter_opt_usage(&table, out);
    fclose(out);
  }
  int same = text && strcmp(text, expected_usage) == 0;
  ok(same, "--help from a table: text rows, padding, long options on their own line, "
           "hidden entries left out");
  if (!same && text) printf("# got:\n%s", text);
  free(text);
}

static void test_resolve(void) {
  crafter_opt obs = crafter_opt_resolve(&entries[4]);
  const crafter_opt *row = &crafter_shared_options[CRAFTER_OPTION_OBS];
  ok(obs.letter == 0 && strcmp(obs.name, "obs") == 0 && obs.help == row->help &&
         obs.store == row->store && obs.maximum == CRAFTER_OBS_SYMBOLIC &&
         strcmp(obs.invalid, "no kind '%s' here") == 0 && obs.shared == row,
     "a shared entry takes the row's name, help and reading, and the program's letter and "
     "limits");
  crafter_opt alias = crafter_opt_resolve(&entries[6]);
  ok(strcmp(alias.name, "episode") == 0 && alias.letter == 'e' &&
         (alias.flags & CRAFTER_OPT_HIDDEN),
     "a shared entry under another name keeps the row's letter");
  int complete = 1;
  for (int id = 1; id < CRAFTER_OPTION_COUNT; id++) {
    const crafter_opt *shared = &crafter_shared_options[id];
    complete &= shared->name && shared->help && shared->store && !shared->shared;
  }
  ok(complete, "every shared row has a name, help and a reading");
}

/* argv of a command line in writable strings, as main() gets it. */
static char **arguments_of(const char *const *words, int count) {
  static char copies[16][64];
  static char *argv[17];
  for (int i = 0; i < count; i++) {
    snprintf(copies[i], sizeof(copies[i]), "%s", words[i]);
    argv[i] = copies[i];
  }
  argv[count] = NULL;
  return argv;
}

static void test_parse(void) {
  static const char *const words[] = {"t",  "-s",     "7",  "--thr=3", "--obs", "semantic",
                                      "-q", "--epi",  "5",  "-S",      "1,2",   "--area",
                                      "5,6", "operand", "-x", "v"};
  int count = (int)(sizeof(words) / sizeof(words[0]));
  crafter_run run;
  crafter_run_init(&run);
  own mine = {0};
  optind = 0;
  int operands = crafter_opt_parse(&table, count, arguments_of(words, count), &run, &mine);
  ok(run.params.seed == 7 && run.threads == 3 && run.obs_kind == CRAFTER_OBS_SEMANTIC &&
         run.first_episode == 5 && run.first_episode_given && run.params.area[0] == 5 &&
         run.params.area[1] == 6 && run.given == (CRAFTER_GIVEN_SEED | CRAFTER_GIVEN_AREA),
     "shared entries fill the run, an abbreviation and an alias too");
  ok(mine.quiet == 1 && strcmp(mine.list, "1,2") == 0 && strcmp(mine.name, "v") == 0 &&
         operands == count - 1,
     "the program's own entries fill its options; the operand is left after them");

  static const char *const order[] = {"quiet", "seed", NULL};
  crafter_opt_table ordered = table;
  ordered.order = order;
  crafter_opt_parser parser;
  crafter_opt_start(&parser, &ordered, &run, &mine);
  int first_episode = -1, alias = -1;
  for (int i = 0; parser.longopts[i].name; i++) {
    if (strcmp(parser.longopts[i].name, "first-episode") == 0) first_episode = i;
    if (strcmp(parser.longopts[i].name, "episode") == 0) alias = i;
  }
  ok(strcmp(parser.longopts[0].name, "quiet") == 0 && strcmp(parser.longopts[1].name, "seed") == 0 &&
         strcmp(parser.longopts[2].name, "area") == 0,
     "getopt is given the long options named first in that order, the others in the table's");
  ok(first_episode >= 0 && alias >= 0 &&
         parser.longopts[first_episode].val == parser.longopts[alias].val &&
         strchr(parser.shortopts, 'e') == strrchr(parser.shortopts, 'e'),
     "an alias is the same option to getopt, its letter once in the short options");
}

/* Runs crafter_opt_parse over words in a child; its standard error and
 * exit status. */
static int refused(const char *const *words, int count, char *said, size_t size) {
  int pipe_ends[2];
  said[0] = '\0';
  if (pipe(pipe_ends) < 0) return -1;
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    dup2(pipe_ends[1], STDERR_FILENO);
    close(pipe_ends[0]);
    crafter_run run;
    crafter_run_init(&run);
    own mine = {0};
    optind = 0;
    crafter_opt_parse(&table, count, arguments_of(words, count), &run, &mine);
    _exit(0);
  }
  close(pipe_ends[1]);
  size_t used = 0;
  ssize_t got;
  while (used + 1 < size && (got = read(pipe_ends[0], said + used, size - 1 - used)) > 0)
    used += (size_t)got;
  said[used] = '\0';
  close(pipe_ends[0]);
  int status;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

static void test_refusals(void) {
  char said[512];
  static const char *const text[] = {"t", "--obs", "text"};
  ok(refused(text, 3, said, sizeof(said)) == 2 &&
         strcmp(said, "t: no kind 'text' here\nTry 't --help' for more information.\n") == 0,
     "a value beyond the program's limits is refused with its message, status 2");
  static const char *const seed[] = {"t", "--seed", "a\\b"};
  ok(refused(seed, 3, said, sizeof(said)) == 2 && strstr(said, "invalid seed 'a\\\\b' "),
     "a shared entry's message escapes the argument");
  static const char *const count[] = {"t", "-c", "a\\b"};
  ok(refused(count, 3, said, sizeof(said)) == 2 && strstr(said, "bad count 'a\\b'\n"),
     "a CRAFTER_OPT_RAW entry's message shows it as typed");
  static const char *const unknown[] = {"t", "--zzz"};
  ok(refused(unknown, 2, said, sizeof(said)) == 2 &&
         strstr(said, "Try 't --help' for more information.\n"),
     "an option getopt does not know ends with the hint, status 2");
}

int main(void) {
  test_usage();
  test_resolve();
  test_parse();
  test_refusals();
  ok(escapes_to("move_left", 9, 64, "move_left"), "printable ASCII stays");
  ok(escapes_to("5\0garbage", 9, 64, "5\\x00garbage"), "a NUL byte shows as \\x00");
  ok(escapes_to("\x1b[31mred", 8, 64, "\\x1b[31mred"), "the escape that starts a colour shows");
  ok(escapes_to("a\tb\r\x7f", 5, 64, "a\\x09b\\x0d\\x7f"), "tab, carriage return and DEL");
  ok(escapes_to("a\\x41", 5, 64, "a\\\\x41"), "a backslash doubles, so \\xHH is never ambiguous");
  /* U+00E9 is C3 A9; U+20AC is E2 82 AC; U+1F600 is F0 9F 98 80. */
  ok(escapes_to("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9, 64, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
     "well-formed UTF-8 stays");
  /* U+009B (C2 9B) is CSI, a control sequence start to some terminals. */
  ok(escapes_to("\xc2\x9b" "2J", 4, 64, "\\xc2\\x9b2J"), "a C1 control in UTF-8 is escaped");
  ok(escapes_to("\xff\xc3", 2, 64, "\\xff\\xc3"), "a stray byte and a cut sequence are escaped");
  ok(escapes_to("\xc0\xaf\xed\xa0\x80", 5, 64, "\\xc0\\xaf\\xed\\xa0\\x80"),
     "an overlong form and a surrogate are escaped");
  /* 8 bytes hold 7 characters: "abcdefg" fits whole; "abcdefghij"
   * keeps 4 and "..." . */
  ok(escapes_to("abcdefg", 7, 8, "abcdefg"), "what fits exactly is not cut");
  ok(escapes_to("abcdefghij", 10, 8, "abcd..."), "what does not fit ends in ...");
  /* a, b, then \x01 (4 characters) would leave no room for "...". */
  ok(escapes_to("ab\x01" "cdef", 7, 8, "ab..."), "an escape is never cut in half");
  return tap_done();
}
