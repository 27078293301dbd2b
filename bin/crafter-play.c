/* crafter-play: play Crafter in a terminal with the keyboard, record what
 * is played, or replay a recorded episode.  Options are parsed here, and
 * the terminal is owned here (raw mode, the alternate screen, signals,
 * timing); the game, the keys and the frame are the library's (play.h). */
#define _DEFAULT_SOURCE /* struct winsize and TIOCGWINSZ */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "envopts.h"
#include "play.h"

#define PROGRAM "crafter-play"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " [OPTION]...\n"
          "  or:  " PROGRAM " --replay=FILE [OPTION]...\n"
          "Play Crafter in the terminal, one step per key press (or in real time with\n"
          "--fps); or replay an episode of a trajectory file.\n"
          "\n"
          "Keys (as Crafter's own GUI): w a s d or the arrows move, space do, tab sleep,\n"
          "t place a table, r a stone, f a furnace, p a plant; 1 2 3 make a wood, stone,\n"
          "iron pickaxe, 4 5 6 a wood, stone, iron sword; . or n waits a step; q quits.\n"
          "While the player sleeps time passes by itself (+ and - change its speed).\n"
          "With --players 2, player 1 has the arrows, Enter do, Backspace sleep, h j k l\n"
          "place a stone, table, furnace, plant, 7 8 9 make the pickaxes and u i o the\n"
          "swords; player 0 keeps the other keys.\n"
          "\n"
          "The game (as crafter.Env):\n"
          "  -s, --seed=N            the Env seed (default 0)\n"
          "  -e, --first-episode=E   episode counter of the first episode (default 1);\n"
          "                          --episode=E is the same\n"
          "      --area=W,H          world size in cells (default 64,64)\n"
          "      --view=W,H          view grid in cells (default 9,9); the local view shown\n"
          "                          is the grid less the inventory rows\n"
          "      --size=W,H          observation size in pixels (default 64,64): it decides\n"
          "                          the night's random draws, so keep it as recorded\n"
          "      --length=L          time limit in steps, 0 for none (default 10000)\n"
          "  -c, --config=FILE       the game's rules and numbers from FILE\n"
          "                          (crafter-config(5))\n"
          "  -w, --world=FILE        start every episode on the world in FILE\n"
          "                          (crafter-world(5))\n"
          "      --tasks=FILE        give every episode a goal from the task file FILE\n"
          "                          (crafter-task(5)), shown above the view; an episode\n"
          "                          ends when its goal is met\n"
          "      --split=NAME        only goals of the split train, test-paraphrase or\n"
          "                          test-new-objects\n"
          "      --task=ID           only the task ID\n"
          "      --levels=N|FILE     play on a level set (crafter-levels(5)): levels 1..N\n"
          "                          of --seed, or a level file\n"
          "      --start-level=K --level-order=random|sequential   as crafter-step's\n"
          "      --record=FILE       write every episode played to the trajectory file FILE\n"
          "                          (crafter-trajectory(5)), as crafter-step --record does\n"
          "      --fps=N             real time, as Crafter's own GUI: N steps a second\n"
          "                          (1..1000), each with the last key pressed during it,\n"
          "                          or noop when none was; + and - change N\n"
          "      --players=P         P players on one keyboard (1 or 2, default 1): their\n"
          "                          views side by side; a key is a step of its player,\n"
          "                          the other waiting (with --fps both act each frame)\n"
          "\n"
          "Replay:\n"
          "  -r, --replay=FILE       replay an episode of FILE, re-simulated from its seeds\n"
          "                          and actions: space pauses and resumes, . or right\n"
          "                          arrow steps, , or left arrow steps back, + and -\n"
          "                          change the speed\n"
          "      --episode-index=I   the episode of FILE to replay, from 0 (default 0)\n"
          "      --no-wait           replay to the end at once, print the last frame on\n"
          "                          standard output and exit; no terminal needed\n"
          "\n"
          "Screen:\n"
          "  -g, --glyphs            one letter per cell, no colour (as crafter-gen's map);\n"
          "                          the default when standard output is not a terminal\n"
          "      --colors=MODE       truecolor or 256; default: truecolor when $COLORTERM\n"
          "                          is truecolor or 24bit, letters when $TERM is dumb,\n"
          "                          else 256\n"
          "      --cell=N            terminal rows per cell in colour (a cell is 2N columns\n"
          "                          wide); default: 4 or 3 as fits, else letters (a\n"
          "                          terminal under about 90x26)\n"
          "  -t, --textures=DIR      draw with the PNG files in DIR (Crafter's assets\n"
          "                          folder) instead of the folder $CRAFTER_TEXTURES\n"
          "                          names, or the built-in textures\n"
          "      --speed=N           steps per second of a replay and of sleep (default 10)\n"
          "  -k, --keys=KEYS         play (or replay) these keys instead of reading the\n"
          "                          keyboard, print the last frame on standard output and\n"
          "                          exit; no terminal needed\n"
          "\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 on a bad file or a replay that differs from its\n"
          "recording, 2 on bad options or without a terminal.  See crafter-play(1).\n");
}

static void usage_error(const char *format, const char *argument) {
  fprintf(stderr, PROGRAM ": ");
  fprintf(stderr, format, argument);
  fprintf(stderr, "\nTry '" PROGRAM " --help' for more information.\n");
  exit(2);
}

/* enum crafter_given, and the episode, which configs do not set */
enum { GIVEN_EPISODE = 64 };

typedef crafter_play_options arguments;

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, arguments *a) {
  a->program = PROGRAM;
  crafter_params_default(&a->params);
  crafter_task_options_init(&a->tasks);
  crafter_level_options_init(&a->levels);
  int given_index = 0;
  a->first_episode = 1;
  a->colors = -1;
  a->speed = 10;
  int64_t number;
  enum { OPT_RECORD = 256, OPT_NO_WAIT, OPT_COLORS, OPT_CELL, OPT_SPEED, OPT_FPS,
         OPT_PLAYERS };
  static const struct option long_options[] = {
      CRAFTER_OPTION_SEED_ENTRY,
      {"first-episode", required_argument, NULL, 'e'},
      {"episode", required_argument, NULL, 'e'},
      CRAFTER_OPTION_AREA_ENTRY,
      CRAFTER_OPTION_VIEW_ENTRY,
      CRAFTER_OPTION_SIZE_ENTRY,
      CRAFTER_OPTION_LENGTH_ENTRY,
      {"config", required_argument, NULL, 'c'},
      {"world", required_argument, NULL, 'w'},
      {"record", required_argument, NULL, OPT_RECORD},
      {"fps", required_argument, NULL, OPT_FPS},
      {"players", required_argument, NULL, OPT_PLAYERS},
      {"replay", required_argument, NULL, 'r'},
      {"episode-index", required_argument, NULL, 'i'},
      {"no-wait", no_argument, NULL, OPT_NO_WAIT},
      {"glyphs", no_argument, NULL, 'g'},
      {"colors", required_argument, NULL, OPT_COLORS},
      {"cell", required_argument, NULL, OPT_CELL},
      {"textures", required_argument, NULL, 't'},
      {"speed", required_argument, NULL, OPT_SPEED},
      {"keys", required_argument, NULL, 'k'},
      CRAFTER_OPTION_TASK_ENTRIES,
      CRAFTER_OPTION_LEVEL_ENTRIES,
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  while ((option = getopt_long(argc, argv, "s:e:c:w:r:gt:k:hV", long_options, NULL)) != -1) {
    switch (option) {
      case 'e':
        a->first_episode = crafter_option_int64(PROGRAM, "first episode", optarg,
            1, CRAFTER_EPISODE_MAX);
        a->given |= GIVEN_EPISODE;
        break;
      case 'c': a->config_path = optarg; break;
      case 'w': a->world_path = optarg; break;
      case OPT_RECORD:
        if (!*optarg) usage_error("%s", "the file to record to is empty");
        a->record_path = optarg;
        break;
      case 'r':
        if (!*optarg) usage_error("%s", "the file to replay is empty");
        a->replay_path = optarg;
        break;
      case 'i':
        if (crafter_parse_int64(optarg, 0, INT32_MAX, &a->episode_index) < 0)
          usage_error("invalid episode index '%s' (expected 0 or more)", optarg);
        given_index = 1;
        break;
      case OPT_NO_WAIT: a->no_wait = 1; break;
      case 'g': a->glyphs = 1; break;
      case OPT_COLORS:
        if (strcmp(optarg, "truecolor") == 0 || strcmp(optarg, "24bit") == 0)
          a->colors = CRAFTER_PLAY_TRUECOLOR;
        else if (strcmp(optarg, "256") == 0)
          a->colors = CRAFTER_PLAY_COLOR_256;
        else
          usage_error("invalid colors '%s' (expected truecolor or 256)", optarg);
        break;
      case OPT_CELL:
        if (crafter_parse_int64(optarg, 1, 16, &number) < 0)
          usage_error("invalid cell '%s' (expected 1..16 rows)", optarg);
        a->cell_rows = (int)number;
        break;
      case 't': a->textures_dir = optarg; break;
      case OPT_SPEED:
        if (crafter_parse_int64(optarg, 1, 1000, &number) < 0)
          usage_error("invalid speed '%s' (expected 1..1000 steps per second)", optarg);
        a->speed = (int)number;
        break;
      case OPT_FPS:
        if (crafter_parse_int64(optarg, 1, 1000, &number) < 0)
          usage_error("invalid fps '%s' (expected 1..1000 steps per second)", optarg);
        a->fps = (int)number;
        break;
      case OPT_PLAYERS:
        if (crafter_parse_int64(optarg, 1, 2, &number) < 0)
          usage_error("invalid number of players '%s' (expected 1 or 2)", optarg);
        a->players = (int)number;
        break;
      case 'k': a->keys = optarg; break;
      case 'h': usage(stdout); exit(crafter_close_stdout(PROGRAM, 0));
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        exit(crafter_close_stdout(PROGRAM, 0));
      default:
        if (crafter_env_option(PROGRAM, option, optarg, &a->params, &a->given)) break;
        if (crafter_task_option(PROGRAM, option, optarg, &a->tasks)) break;
        if (crafter_level_option(PROGRAM, option, optarg, &a->levels)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        exit(2);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  if (a->replay_path && (a->given || a->record_path))
    usage_error("%s", "--replay takes the seed, episode, area, view, size and length from "
                      "the file; --record is for play");
  if (a->players > 1 && a->record_path)
    usage_error("%s", "--record does not store games of several players yet: play --players 2 "
                      "without it");
  if (a->players > 1 && a->replay_path)
    usage_error("%s", "--replay plays back one player's recording: not with --players 2");
  crafter_task_options_check(PROGRAM, &a->tasks);
  crafter_level_options_check(PROGRAM, &a->levels);
  if (a->replay_path && (a->tasks.path || crafter_level_options_wanted(&a->levels)))
    usage_error("%s", "--replay takes the goals and levels from the file; --tasks and --levels "
                      "are for play");
  if (crafter_level_options_wanted(&a->levels) && (a->given & GIVEN_EPISODE || a->world_path))
    usage_error("%s", "--levels chooses each episode's world: not with --first-episode or "
                      "--world");
  if (!a->replay_path && (given_index || a->no_wait))
    usage_error("%s", "--episode-index and --no-wait are for --replay");
  if (a->no_wait && a->keys) usage_error("%s", "--no-wait and --keys do not go together");
  if (a->fps && (a->replay_path || a->keys))
    usage_error("%s", "--fps is for play in a terminal: a replay goes at --speed, and --keys "
                      "plays one step per key");
  if (a->glyphs && (a->colors >= 0 || a->cell_rows || a->textures_dir))
    usage_error("%s", "--colors, --cell and --textures are for colour, not --glyphs");
  a->interactive = !a->keys && !a->no_wait;
  if (a->interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
    usage_error("%s", isatty(STDIN_FILENO)
                          ? "standard output is not a terminal; play in a terminal, or use "
                            "--keys (or --replay with --no-wait) to print the last frame"
                          : "standard input is not a terminal; play in a terminal, or use "
                            "--keys (or --replay with --no-wait) to print the last frame");
}

int main(int argc, char **argv) {
  static crafter_play_options options;
  parse_options(argc, argv, &options);
  return crafter_play_main(&options);
}
