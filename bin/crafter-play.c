/* crafter-play: play Crafter in a terminal with the keyboard, record what
 * is played, or replay a recorded episode.  Options are parsed here, and
 * the terminal is owned here (raw mode, the alternate screen, signals,
 * timing); the game, the keys and the frame are the library's (play.h). */
#define _DEFAULT_SOURCE /* struct winsize and TIOCGWINSZ */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "game/games.h"
#include "run/envopts.h"
#include "tools/cc_play.h"
#include "tools/play.h"
#include "tools/play_screen.h" /* the colour modes */

#define PROGRAM "crafter-play"

static void usage_error(const char *format, const char *argument) {
  fprintf(stderr, PROGRAM ": ");
  fprintf(stderr, format, argument);
  fprintf(stderr, "\nTry '" PROGRAM " --help' for more information.\n");
  exit(2);
}

#define OWN(field) .offset = offsetof(crafter_play_options, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT(
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
        "The game (as crafter.Env):\n"),
    CRAFTER_SHARED(GAME),
    CRAFTER_SHARED(SEED, .help = "the Env seed (default 0)"),
    CRAFTER_SHARED(FIRST_EPISODE, .help = "episode counter of the first episode (default 1);\n"
                                          "--episode=E is the same"),
    CRAFTER_SHARED(FIRST_EPISODE, .name = "episode", .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(AREA),
    CRAFTER_SHARED(VIEW, .help = "view grid in cells (default 9,9); the local view shown\n"
                                 "is the grid less the inventory rows"),
    CRAFTER_SHARED(SIZE, .help = "observation size in pixels (default 64,64): it decides\n"
                                 "the night's random draws, so keep it as recorded"),
    CRAFTER_SHARED(LENGTH),
    CRAFTER_SHARED(CONFIG, .help = "the game's rules and numbers from FILE\n"
                                   "(crafter-config(5))"),
    CRAFTER_SHARED(WORLD, .help = "start every episode on the world in FILE\n"
                                  "(crafter-world(5))"),
    CRAFTER_SHARED(TASKS, .help = "give every episode a goal from the task file FILE\n"
                                  "(crafter-task(5)), shown above the view; an episode\n"
                                  "ends when its goal is met"),
    CRAFTER_SHARED(SPLIT),
    CRAFTER_SHARED(TASK),
    CRAFTER_SHARED(LEVELS, .help = "play on a level set (crafter-levels(5)): levels 1..N\n"
                                   "of --seed, or a level file"),
    CRAFTER_OPT_TEXT(
        "      --start-level=K --level-order=random|sequential   as crafter-step's\n"),
    CRAFTER_SHARED(START_LEVEL, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(LEVEL_ORDER, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(RECORD, .help = "write every episode played to the trajectory file FILE\n"
                                   "(crafter-trajectory(5)), as crafter-step --record does"),
    {.name = "fps", .argument = "N", .store = crafter_opt_int, OWN(fps), .minimum = 1,
     .maximum = 1000, .invalid = "invalid fps '%s' (expected 1..1000 steps per second)",
     .flags = CRAFTER_OPT_RAW,
     .help = "real time, as Crafter's own GUI: N steps a second\n"
             "(1..1000), each with the last key pressed during it,\n"
             "or noop when none was; + and - change N"},
    CRAFTER_SHARED(PLAYERS, .help = "P players on one keyboard (1 or 2, default 1): their\n"
                                    "views side by side; a key is a step of its player,\n"
                                    "the other waiting (with --fps both act each frame)",
                   .flags = CRAFTER_OPT_LIMITS | CRAFTER_OPT_RAW, .minimum = 1, .maximum = 2,
                   .invalid = "invalid number of players '%s' (expected 1 or 2)"),
    CRAFTER_OPT_TEXT("\n"
                     "Replay:\n"),
    {.letter = 'r', .name = "replay", .argument = "FILE", .store = crafter_opt_string,
     OWN(replay_path), .invalid = "the file to replay is empty",
     .help = "replay an episode of FILE, re-simulated from its seeds\n"
             "and actions: space pauses and resumes, . or right\n"
             "arrow steps, , or left arrow steps back, + and -\n"
             "change the speed"},
    {.name = "episode-index", .argument = "I", .store = crafter_opt_int64, OWN(episode_index),
     .minimum = 0, .maximum = INT32_MAX, .flags = CRAFTER_OPT_RAW,
     .invalid = "invalid episode index '%s' (expected 0 or more)",
     .help = "the episode of FILE to replay, from 0 (default 0)"},
    {.name = "no-wait", .store = crafter_opt_flag, OWN(no_wait),
     .help = "replay to the end at once, print the last frame on\n"
             "standard output and exit; no terminal needed"},
    CRAFTER_OPT_TEXT("\n"
                     "Screen:\n"),
    {.letter = 'g', .name = "glyphs", .store = crafter_opt_flag, OWN(glyphs),
     .help = "one letter per cell, no colour (as crafter-gen's map);\n"
             "the default when standard output is not a terminal"},
    {.name = "colors", .argument = "MODE", .store = crafter_opt_keyword, OWN(colors),
     .flags = CRAFTER_OPT_RAW,
     .words = (const crafter_opt_word[]){{"truecolor", CRAFTER_PLAY_TRUECOLOR},
                                         {"24bit", CRAFTER_PLAY_TRUECOLOR},
                                         {"256", CRAFTER_PLAY_COLOR_256}, {NULL}},
     .invalid = "invalid colors '%s' (expected truecolor or 256)",
     .help = "truecolor or 256; default: truecolor when $COLORTERM\n"
             "is truecolor or 24bit, letters when $TERM is dumb,\n"
             "else 256"},
    {.name = "cell", .argument = "N", .store = crafter_opt_int, OWN(cell_rows), .minimum = 1,
     .maximum = 16, .flags = CRAFTER_OPT_RAW, .invalid = "invalid cell '%s' (expected 1..16 rows)",
     .help = "terminal rows per cell in colour (a cell is 2N columns\n"
             "wide); default: 4 or 3 as fits, else letters (a\n"
             "terminal under about 90x26)"},
    CRAFTER_SHARED(TEXTURES, .help = "draw with the PNG files in DIR (Crafter's assets\n"
                                     "folder) instead of the folder $CRAFTER_TEXTURES\n"
                                     "names, or the built-in textures"),
    {.name = "speed", .argument = "N", .store = crafter_opt_int, OWN(speed), .minimum = 1,
     .maximum = 1000, .flags = CRAFTER_OPT_RAW,
     .invalid = "invalid speed '%s' (expected 1..1000 steps per second)",
     .help = "steps per second of a replay and of sleep (default 10)"},
    {.letter = 'k', .name = "keys", .argument = "KEYS", .store = crafter_opt_string, OWN(keys),
     .help = "play (or replay) these keys instead of reading the\n"
             "keyboard, print the last frame on standard output and\n"
             "exit; no terminal needed"},
    CRAFTER_OPT_TEXT("\n"),
    CRAFTER_SHARED(HELP),
    CRAFTER_SHARED(VERSION),
    CRAFTER_OPT_TEXT(
        "\n"
        "Exit status: 0 on success, 1 on a bad file or a replay that differs from its\n"
        "recording, 2 on bad options or without a terminal.  See crafter-play(1).\n"),
    CRAFTER_OPT_END,
};

/* The order getopt_long has always been given the long options in, which
 * is the order it lists an ambiguous abbreviation's candidates in; the
 * goals and levels follow. */
static const char *const getopt_order[] = {
    "seed",   "first-episode", "episode", "area",    "view",   "size",   "length",
    "config", "world",         "record",  "fps",     "players", "replay", "episode-index",
    "no-wait", "glyphs",       "colors",  "cell",    "textures", "speed", "keys",
    NULL,
};

static const crafter_opt_table table = {PROGRAM, 26, entries, getopt_order};

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, crafter_play_options *a) {
  a->program = PROGRAM;
  crafter_run *run = &a->run;
  crafter_run_init(run);
  a->episode_index = -1; /* not given */
  a->colors = -1;
  a->speed = 10;
  int operands = crafter_opt_parse(&table, argc, argv, run, a);
  if (operands < argc) usage_error("unexpected argument '%s'", argv[operands]);
  if (a->replay_path && (run->given || run->first_episode_given || run->record_path))
    usage_error("%s", "--replay takes the seed, episode, area, view, size and length from "
                      "the file; --record is for play");
  if (run->players > 1 && run->record_path)
    usage_error("%s", "--record does not store games of several players yet: play --players 2 "
                      "without it");
  if (run->players > 1 && a->replay_path)
    usage_error("%s", "--replay plays back one player's recording: not with --players 2");
  if (run->game == CRAFTER_GAME_CRAFTAX)
    usage_error("%s", "--game craftax: Craftax plays in crafter-step and crafter-bench; this "
                      "program takes crafter and craftax-classic (crafter-games(7))");
  if (run->game != CRAFTER_GAME_CRAFTER) {
    crafter_game_options_check(PROGRAM, run);
    if (a->replay_path || run->record_path || a->fps || a->colors >= 0 || a->cell_rows)
      usage_error("%s", "--replay, --record, --fps, --colors and --cell are Crafter's: "
                        "Craftax-Classic is played one step per key, in letters");
  }
  crafter_task_options_check(PROGRAM, &run->tasks);
  crafter_level_options_check(PROGRAM, &run->levels);
  if (a->replay_path && (run->tasks.path || crafter_level_options_wanted(&run->levels)))
    usage_error("%s", "--replay takes the goals and levels from the file; --tasks and --levels "
                      "are for play");
  if (crafter_level_options_wanted(&run->levels) && (run->first_episode_given || run->world_path))
    usage_error("%s", "--levels chooses each episode's world: not with --first-episode or "
                      "--world");
  if (!a->replay_path && (a->episode_index >= 0 || a->no_wait))
    usage_error("%s", "--episode-index and --no-wait are for --replay");
  if (a->episode_index < 0) a->episode_index = 0;
  if (a->no_wait && a->keys) usage_error("%s", "--no-wait and --keys do not go together");
  if (a->fps && (a->replay_path || a->keys))
    usage_error("%s", "--fps is for play in a terminal: a replay goes at --speed, and --keys "
                      "plays one step per key");
  if (a->glyphs && (a->colors >= 0 || a->cell_rows || run->textures))
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
  if (options.run.game == CRAFTER_GAME_CRAFTAX_CLASSIC) return crafter_cc_play_main(&options);
  return crafter_play_main(&options);
}
