/* crafter-step: run Crafter driven by actions on stdin, one record per
 * step on stdout.  Options are parsed here; everything else is the
 * library's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "env.h"
#include "proto.h"

#define PROGRAM "crafter-step"
#define MAX_LINE 4096

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " [OPTION]...\n"
          "Run Crafter with one action per line on standard input and one JSON\n"
          "record per step on standard output.\n"
          "\n"
          "An action is a number 0..16 or a name (noop, move_left, move_right, move_up,\n"
          "move_down, do, sleep, place_stone, place_table, place_furnace, place_plant,\n"
          "make_wood_pickaxe, make_stone_pickaxe, make_iron_pickaxe, make_wood_sword,\n"
          "make_stone_sword, make_iron_sword).  Blank lines are ignored.\n"
          "\n"
          "Environment (as crafter.Env):\n"
          "  -s, --seed=N            the Env seed (default 0)\n"
          "  -e, --first-episode=E   episode counter of the first episode (default 1)\n"
          "  -n, --episodes=N        stop after N episodes, resetting after each\n"
          "                          (default 1; 0 runs until input ends)\n"
          "      --area=W,H          world size in cells (default 64,64)\n"
          "      --view=W,H          view grid in cells (default 9,9)\n"
          "      --size=W,H          observation size in pixels (default 64,64)\n"
          "      --length=L          time limit in steps, 0 for none (default 10000)\n"
          "      --no-reward         report a reward of 0 on every step\n"
          "\n"
          "Output:\n"
          "  -i, --info=KIND         short (default): t, reward, done, unlocked;\n"
          "                          full: a reset record per episode and full step\n"
          "                          records, the fields of the reference traces\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 when the episodes or the input ended, 1 on bad input,\n"
          "2 on bad options.  See crafter-step(1).\n");
}

static void usage_error(const char *format, const char *argument) {
  fprintf(stderr, PROGRAM ": ");
  fprintf(stderr, format, argument);
  fprintf(stderr, "\nTry '" PROGRAM " --help' for more information.\n");
  exit(2);
}

/* Line reader on a file descriptor that flushes stdout before it blocks,
 * so an agent waiting for a record never deadlocks while piped input is
 * still answered in bulk. */
typedef struct line_reader {
  int fd;
  char buffer[65536];
  size_t start, end;
  int eof;
} line_reader;

/* Returns 1 with a line in `line`, 0 at end of input, -1 for a line that
 * is too long, -2 on a read error. */
static int read_line(line_reader *reader, char *line, size_t line_size) {
  for (;;) {
    char *newline = memchr(reader->buffer + reader->start, '\n', reader->end - reader->start);
    size_t available = reader->end - reader->start;
    if (newline || (reader->eof && available > 0)) {
      size_t length = newline ? (size_t)(newline - (reader->buffer + reader->start)) : available;
      if (length >= line_size) return -1;
      memcpy(line, reader->buffer + reader->start, length);
      line[length] = '\0';
      reader->start += length + (newline ? 1 : 0);
      return 1;
    }
    if (reader->eof) return 0;
    if (available >= line_size) return -1;
    memmove(reader->buffer, reader->buffer + reader->start, available);
    reader->start = 0;
    reader->end = available;
    fflush(stdout);
    ssize_t got;
    do {
      got = read(reader->fd, reader->buffer + reader->end, sizeof(reader->buffer) - reader->end);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -2;
    if (got == 0) reader->eof = 1;
    reader->end += (size_t)got;
  }
}

int main(int argc, char **argv) {
  crafter_params params;
  crafter_params_default(&params);
  int64_t first_episode = 1, episodes = 1;
  int full_info = 0;
  enum { OPT_AREA = 256, OPT_VIEW, OPT_SIZE, OPT_LENGTH, OPT_NO_REWARD };
  static const struct option options[] = {
      {"seed", required_argument, NULL, 's'},
      {"first-episode", required_argument, NULL, 'e'},
      {"episodes", required_argument, NULL, 'n'},
      {"area", required_argument, NULL, OPT_AREA},
      {"view", required_argument, NULL, OPT_VIEW},
      {"size", required_argument, NULL, OPT_SIZE},
      {"length", required_argument, NULL, OPT_LENGTH},
      {"no-reward", no_argument, NULL, OPT_NO_REWARD},
      {"info", required_argument, NULL, 'i'},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  int64_t number;
  while ((option = getopt_long(argc, argv, "s:e:n:i:hV", options, NULL)) != -1) {
    switch (option) {
      case 's':
        if (crafter_parse_int64(optarg, INT64_MIN, INT64_MAX, &params.seed) < 0)
          usage_error("invalid seed '%s' (expected an integer)", optarg);
        break;
      case 'e':
        if (crafter_parse_int64(optarg, 1, INT64_MAX / 2, &first_episode) < 0)
          usage_error("invalid first episode '%s' (expected a positive integer)", optarg);
        break;
      case 'n':
        if (crafter_parse_int64(optarg, 0, INT64_MAX, &episodes) < 0)
          usage_error("invalid episode count '%s' (expected 0 or more)", optarg);
        break;
      case OPT_AREA:
        if (crafter_parse_pair(optarg, 1, 4096, params.area) < 0)
          usage_error("invalid area '%s' (expected W,H)", optarg);
        break;
      case OPT_VIEW:
        if (crafter_parse_pair(optarg, 1, 4096, params.view) < 0)
          usage_error("invalid view '%s' (expected W,H)", optarg);
        break;
      case OPT_SIZE:
        if (crafter_parse_pair(optarg, 1, 4096, params.size) < 0)
          usage_error("invalid size '%s' (expected W,H)", optarg);
        break;
      case OPT_LENGTH:
        if (crafter_parse_int64(optarg, 0, 1000000000, &number) < 0)
          usage_error("invalid length '%s' (expected 0 or a positive integer)", optarg);
        params.length = (long)number;
        break;
      case OPT_NO_REWARD: params.reward = 0; break;
      case 'i':
        if (strcmp(optarg, "full") == 0)
          full_info = 1;
        else if (strcmp(optarg, "short") == 0)
          full_info = 0;
        else
          usage_error("invalid info kind '%s' (expected short or full)", optarg);
        break;
      case 'h': usage(stdout); return 0;
      case 'V': printf(PROGRAM " (crafter toolkit) " CRAFTER_VERSION "\n"); return 0;
      default: fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n"); return 2;
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);

  char error[256];
  crafter_env env;
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 2;
  }
  crafter_env_set_next_episode(&env, first_episode);
  int status = 0;
  int64_t finished = 0;
  if (crafter_env_reset(&env) < 0) {
    fprintf(stderr, PROGRAM ": out of memory\n");
    crafter_env_free(&env);
    return 1;
  }
  if (full_info) crafter_proto_write_reset(stdout, &env, NULL);

  static line_reader reader;
  reader.fd = STDIN_FILENO;
  char line[MAX_LINE];
  long line_number = 0;
  for (;;) {
    int got = read_line(&reader, line, sizeof(line));
    if (got == 0) break;
    line_number++;
    if (got == -1) {
      fprintf(stderr, PROGRAM ": line %ld: line too long\n", line_number);
      status = 1;
      break;
    }
    if (got == -2) {
      fprintf(stderr, PROGRAM ": reading standard input: %s\n", strerror(errno));
      status = 1;
      break;
    }
    if (line[strspn(line, " \t\r")] == '\0') continue;
    int action = crafter_proto_parse_action(line);
    if (action < 0) {
      fprintf(stderr,
              PROGRAM ": line %ld: invalid action '%.40s' (expected 0..16 or a name such as "
              "move_left)\n",
              line_number, line);
      status = 1;
      break;
    }
    crafter_step_result result;
    crafter_env_step(&env, action, &result);
    if (full_info)
      crafter_proto_write_step(stdout, &env, action, &result, NULL);
    else
      crafter_proto_write_short(stdout, &env, &result);
    if (!result.done) continue;
    finished++;
    if (episodes && finished >= episodes) break;
    if (crafter_env_reset(&env) < 0) {
      fprintf(stderr, PROGRAM ": out of memory\n");
      status = 1;
      break;
    }
    if (full_info) crafter_proto_write_reset(stdout, &env, NULL);
  }
  crafter_env_free(&env);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, PROGRAM ": writing standard output: %s\n", strerror(errno));
    return 1;
  }
  return status;
}
