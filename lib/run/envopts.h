/* envopts: the options the programs share, one row each in one table
 * (crafter_shared_options): its letter, long name, argument, help and the
 * one function that reads it into the run (run.h), so that every program
 * reads --seed, --area, ..., --config, --world, --players and --threads
 * alike and refuses a bad value with the same message.  A program's own
 * table (cli.h) names the rows it takes, with CRAFTER_SHARED; the checks
 * of how they combine are here too. */
#ifndef CRAFTER_ENVOPTS_H
#define CRAFTER_ENVOPTS_H

#include "base/cli.h"
#include "run/run.h"

enum crafter_shared_option {
  CRAFTER_OPTION_GAME = 1,   /* --game=NAME: the game (game/games.h) */
  CRAFTER_OPTION_SEED,       /* -s, --seed=N: params.seed */
  CRAFTER_OPTION_FIRST_EPISODE, /* -e, --first-episode=E */
  CRAFTER_OPTION_EPISODES,   /* -n, --episodes=N */
  CRAFTER_OPTION_AREA,       /* --area=W,H, --view=W,H, --size=W,H, --length=L,
                                --no-reward: crafter.Env's arguments, into params */
  CRAFTER_OPTION_VIEW,
  CRAFTER_OPTION_SIZE,
  CRAFTER_OPTION_LENGTH,
  CRAFTER_OPTION_NO_REWARD,
  CRAFTER_OPTION_CONFIG,     /* -c, --config=FILE */
  CRAFTER_OPTION_WORLD,      /* -w, --world=FILE */
  CRAFTER_OPTION_TASKS,      /* --tasks=FILE, --split=NAME, --task=ID */
  CRAFTER_OPTION_SPLIT,
  CRAFTER_OPTION_TASK,
  CRAFTER_OPTION_LEVELS,     /* --levels=N|FILE (digits only are a count: write ./200
                                for a file named 200), --start-level=K, --level-order=O */
  CRAFTER_OPTION_START_LEVEL,
  CRAFTER_OPTION_LEVEL_ORDER,
  CRAFTER_OPTION_ENVS,       /* -N, --envs=N */
  CRAFTER_OPTION_PLAYERS,    /* --players=P */
  CRAFTER_OPTION_THREADS,    /* -T, --threads=T */
  CRAFTER_OPTION_OBS,        /* -O, --obs=KIND */
  CRAFTER_OPTION_TEXTURES,   /* -t, --textures=DIR */
  CRAFTER_OPTION_RECORD,     /* --record=FILE */
  CRAFTER_OPTION_HELP,       /* -h, --help */
  CRAFTER_OPTION_VERSION,    /* -V, --version */
  CRAFTER_OPTION_COUNT
};

/* The rows, by enum crafter_shared_option; their help is crafter-step's. */
extern const crafter_opt crafter_shared_options[CRAFTER_OPTION_COUNT];

/* An entry of a program's table that is a shared row: CRAFTER_SHARED(SEED)
 * as the row has it, or with the program's fields after the name:
 * CRAFTER_SHARED(SEED, .help = "...") for its own help,
 * CRAFTER_SHARED(AREA, .flags = CRAFTER_OPT_HIDDEN) to take it without
 * showing it, CRAFTER_OPT_LIMITS with .minimum, .maximum and .invalid for
 * its own range and message. */
#define CRAFTER_SHARED(id, ...) \
  {.shared = &crafter_shared_options[CRAFTER_OPTION_##id], __VA_ARGS__}

/* Checks that the options given are ones the run's game has (Crafter has
 * them all): a game other than Crafter takes --seed, --first-episode,
 * --episodes, --envs, --threads, --record and the observation kinds of
 * its row in the games table but pixels, no more.  Exits with status 2, naming the
 * option and the game, if not. */
void crafter_game_options_check(const char *program, const crafter_run *run);

/* The same, taking also the options of `allowed` (CRAFTER_GAME_ALLOW_...)
 * that a program gives a meaning of its own for every game. */
#define CRAFTER_GAME_ALLOW_TEXTURES 1u /* crafter-gen: the textures of a map's picture */
#define CRAFTER_GAME_ALLOW_PIXELS 2u   /* crafter-step: the pixel observations of a game that
                                          has them, and --textures with them */
#define CRAFTER_GAME_ALLOW_LEVELS 4u   /* --levels, --start-level, --level-order: the
                                          game's level sets (crafter-levels(5)) */
void crafter_game_options_check_allowing(const char *program, const crafter_run *run,
                                         unsigned allowed);

/* Checks that --split and --task come with --tasks (exits with status 2
 * if not). */
void crafter_task_options_check(const char *program, const crafter_task_options *options);

/* Checks that --start-level and --level-order come with --levels, and
 * that the levels stay within episode 2**31-1 (exits with status 2 if
 * not). */
void crafter_level_options_check(const char *program, const crafter_level_options *options);

#endif
