/* crafter-gen: generate Crafter worlds and show them: an ASCII map, a
 * picture, the semantic grid, a world file to edit, or statistics over
 * many seeds.  Options are parsed here; the library does the rest. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "game/config.h"
#include "game/env.h"
#include "game/games.h"
#include "run/envopts.h"
#include "run/levels.h"
#include "run/worldfile.h"
#include "tools/gen.h"
#include "view/cx_pixels.h"
#include "view/cx_text.h"
#include "view/textures.h"

#define PROGRAM "crafter-gen"

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

static int parse_seeds(const char *text, int64_t *first, int64_t *last) {
  const char *dash = strchr(text, '-');
  if (!dash) {
    if (crafter_parse_int64(text, 0, INT32_MAX, first) < 0) return -1;
    *last = *first;
    return 0;
  }
  char head[32];
  size_t length = (size_t)(dash - text);
  if (length == 0 || length >= sizeof(head)) return -1;
  memcpy(head, text, length);
  head[length] = '\0';
  if (crafter_parse_int64(head, 0, INT32_MAX, first) < 0 ||
      crafter_parse_int64(dash + 1, 0, INT32_MAX, last) < 0 || *last < *first)
    return -1;
  return 0;
}

static int write_png(const crafter_world_map *map, const char *path, const char *textures_dir,
                     int unit) {
  char error[600];
  crafter_textures textures;
  int status = crafter_textures_load(&textures, textures_dir, error, sizeof(error));
  if (status < 0) {
    fprintf(stderr, PROGRAM ": %s%s\n", error,
            textures_dir ? "" : " (try --textures DIR with Crafter's assets folder)");
    return 1;
  }
  status = crafter_gen_write_png(map, &textures, unit, path, error, sizeof(error));
  crafter_textures_fini(&textures);
  if (status < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  return 0;
}

/* What the command line asks for. */
typedef struct arguments {
  crafter_run run; /* the env parameters (given: --seed and --area), --config, --world,
                      --players, --threads, --textures and the level set */
  int64_t episode, first_seed, last_seed;
  int given_episode, given_seeds, given_format, unit;
  int ascii, semantic, stats, json;
  const char *png_path, *save_path, *save_levels_path;
} arguments;

static void read_episode(const crafter_opt_parser *parser, const crafter_opt *entry,
                         const char *argument) {
  arguments *a = parser->own;
  crafter_opt_int64(parser, entry, argument);
  a->given_episode = 1;
}

static void read_seeds(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument) {
  arguments *a = parser->own;
  if (parse_seeds(argument, &a->first_seed, &a->last_seed) < 0)
    crafter_opt_fail(parser, entry, entry->invalid, argument);
  a->given_seeds = 1;
}

static void read_format(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  arguments *a = parser->own;
  if (strcmp(argument, "json") == 0)
    a->json = 1;
  else if (strcmp(argument, "text") != 0)
    crafter_opt_fail(parser, entry, entry->invalid, argument);
  a->given_format = 1;
}

#define OWN(field) .offset = offsetof(arguments, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT(
        "Usage: " PROGRAM " [OPTION]...\n"
        "Generate the Crafter world of a seed and show it, or count what the worlds of\n"
        "many seeds hold.\n"
        "\n"
        "The world:\n"),
    CRAFTER_SHARED(GAME),
    CRAFTER_SHARED(SEED, .help = "the Env seed (default 0)"),
    {.name = "episode", .argument = "E", .store = read_episode, OWN(episode), .what = "episode",
     .minimum = 1, .maximum = CRAFTER_EPISODE_MAX,
     .help = "the episode of that seed (default 1, the first reset);\n"
             "the world seed is hash((seed, E)) % (2**31-1)"},
    CRAFTER_SHARED(AREA),
    CRAFTER_SHARED(CONFIG, .help = "generate by the configuration FILE (crafter-config(5))"),
    CRAFTER_SHARED(WORLD, .help = "show the world file FILE (crafter-world(5)) instead of\n"
                                  "generating one; checks it"),
    CRAFTER_SHARED(PLAYERS, .help = "show the start cells of P players (1..16) as @, as an\n"
                                    "episode of P players starts (crafter(7)); --save\n"
                                    "writes them"),
    CRAFTER_OPT_TEXT("\n"
                     "What to show (default: the ASCII map):\n"),
    {.name = "ascii", .store = crafter_opt_flag, OWN(ascii),
     .help = "the map, one character per cell, and a legend"},
    {.name = "semantic", .store = crafter_opt_flag, OWN(semantic),
     .help = "the semantic grid: numbers as info['semantic'] holds\n"
             "them, one line per row of the map"},
    {.name = "png", .argument = "FILE", .store = crafter_opt_string, OWN(png_path),
     .help = "draw the whole map into the PNG file FILE"},
    {.letter = 'u', .name = "unit", .argument = "N", .store = crafter_opt_int, OWN(unit),
     .minimum = 1, .maximum = 256, .invalid = "invalid unit '%s' (expected 1..256 pixels)",
     .help = "pixels a cell in the picture (default 16)"},
    CRAFTER_SHARED(TEXTURES, .help = "draw with the PNG files in DIR (Crafter's assets\n"
                                     "folder or one like it) instead of the folder\n"
                                     "$CRAFTER_TEXTURES names, or the built-in textures"),
    {.name = "save", .argument = "FILE", .store = crafter_opt_string, OWN(save_path),
     .help = "write the world file (crafter-world(5)) to FILE, - for\n"
             "standard output; edit it and start episodes from it"},
    CRAFTER_OPT_TEXT("\n"
                     "Statistics:\n"),
    {.name = "stats", .store = crafter_opt_flag, OWN(stats),
     .help = "generate the world of every seed of --seeds and count\n"
             "each material and creature, and the distance from the\n"
             "spawn to the nearest of each"},
    {.name = "seeds", .argument = "A-B", .store = read_seeds,
     .invalid = "invalid seeds '%s' (expected A-B or N, from 0 to 2147483647)",
     .help = "the seeds (default 1-1000), each at --episode"},
    CRAFTER_SHARED(THREADS, .argument = "N", .help = "worker threads (default: one per core)"),
    {.letter = 'f', .name = "format", .argument = "FORMAT", .store = read_format,
     .invalid = "invalid format '%s' (expected text or json)",
     .help = "text (default) or json"},
    CRAFTER_OPT_TEXT("\n"
                     "Level sets (crafter-levels(5)):\n"),
    CRAFTER_SHARED(LEVELS, .help = "levels 1..N of --seed (each the world of that\n"
                                   "episode, stored as its start state), or the level\n"
                                   "file FILE, checked, and against --seed, --area,\n"
                                   "--view when given and the configuration; lists the\n"
                                   "levels (craftax-classic: level k is the first\n"
                                   "world of seed --seed+k-1)"),
    CRAFTER_SHARED(START_LEVEL, .help = "with --levels N: levels K..K+N-1 (default 1)"),
    CRAFTER_SHARED(LEVEL_ORDER, .flags = CRAFTER_OPT_HIDDEN), /* refused: gen plays none */
    CRAFTER_SHARED(VIEW, .help = "the view the levels are played with (default 9,9)"),
    {.name = "save-levels", .argument = "FILE", .store = crafter_opt_string,
     OWN(save_levels_path), .invalid = "the level file to write is empty",
     .help = "write the set to the level file FILE instead of\n"
             "listing it (with --threads for generation)"},
    CRAFTER_OPT_TEXT("\n"),
    CRAFTER_SHARED(HELP),
    CRAFTER_SHARED(VERSION),
    CRAFTER_OPT_TEXT("\n"
                     "Exit status: 0 on success, 1 on a bad configuration or world file, 2 on bad\n"
                     "options.  See crafter-gen(1).\n"),
    CRAFTER_OPT_END,
};

static const crafter_opt_table table = {PROGRAM, 26, entries, NULL};

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, arguments *a) {
  crafter_run *run = &a->run;
  crafter_run_init(run);
  a->episode = 1;
  a->first_seed = 1;
  a->last_seed = 1000;
  a->unit = 16;
  int operands = crafter_opt_parse(&table, argc, argv, run, a);
  if (operands < argc) usage_error("unexpected argument '%s'", argv[operands]);
  if (run->game != CRAFTER_GAME_CRAFTER) {
    /* A JAX game: the first world of a seed, statistics over seeds
     * (Craftax-Classic's), or its level sets; its worlds are not
     * Crafter's world files. */
    const char *title = crafter_game_info_of(run->game)->title;
    char message[256];
    crafter_game_options_check_allowing(PROGRAM, run,
                                        CRAFTER_GAME_ALLOW_TEXTURES | CRAFTER_GAME_ALLOW_LEVELS);
    if (a->given_episode && a->episode != 1) {
      snprintf(message, sizeof message,
               "--episode: a %s world after the first depends on the steps played before it "
               "(crafter-games(7)); only episode 1 is shown",
               title);
      usage_error("%s", message);
    }
    if (a->save_path) {
      snprintf(message, sizeof message, "--save writes Crafter's world files, not %s's worlds",
               title);
      usage_error("%s", message);
    }
    if (run->game == CRAFTER_GAME_CRAFTAX && (a->stats || a->semantic))
      usage_error("%s", "--game craftax shows a world's nine floors (maps, --png) and makes or "
                        "reads level sets: --stats and --semantic are Crafter's and "
                        "Craftax-Classic's");
    if (run->game == CRAFTER_GAME_CRAFTAX && a->png_path && a->unit != 16)
      usage_error("%s", "--unit: Craftax's picture is drawn at its observation's 10 pixels a "
                        "cell");
  }
  crafter_level_options_check(PROGRAM, &run->levels);
  int levels = crafter_level_options_wanted(&run->levels);
  if (levels && (a->stats || run->world_path || a->given_episode || a->ascii || a->semantic ||
                 a->png_path || a->save_path || a->given_seeds || a->given_format))
    usage_error("%s", "--levels makes or reads a level set; it shows no single world and "
                      "counts no statistics");
  if (run->levels.order_given) usage_error("%s", "--level-order is for the programs that play");
  if (!levels && (a->save_levels_path || (run->given & CRAFTER_GIVEN_VIEW)))
    usage_error("%s", "--save-levels and --view need --levels");
  run->levels.threads = run->threads;
  if (run->players && (levels || a->stats))
    usage_error("%s", "--players shows the start cells of one world: not with --levels or --stats");
  if (levels) return;
  int to_stdout = a->ascii + a->semantic + (a->save_path && strcmp(a->save_path, "-") == 0);
  if (to_stdout > 1)
    usage_error("%s", "--ascii, --semantic and --save - all write to standard output; pick one");
  if (a->stats && (run->world_path || a->ascii || a->semantic || a->png_path || a->save_path ||
                   (run->given & CRAFTER_GIVEN_SEED)))
    usage_error("%s", "--stats counts over --seeds; it does not show one world");
  if (!a->stats && (a->given_seeds || a->given_format || run->threads))
    usage_error("%s", "--seeds, --threads and --format are for --stats");
  if (run->world_path && (run->config_path || a->given_episode || run->given))
    usage_error("%s", "--world shows a world file; --seed, --episode, --area and --config are "
                      "for generated worlds");
  if ((run->textures || a->unit != 16) && !a->png_path)
    usage_error("%s", "--textures and --unit are for --png");
}

/* --stats: counts over the worlds of --seeds. */
static int run_stats(const arguments *a, const crafter_config *config) {
  char error[1024];
  const crafter_run *run = &a->run;
  crafter_gen_stats_options options = {run->game,    run->params, config,      a->first_seed,
                                       a->last_seed, a->episode,  run->threads};
  if (!run->threads) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options.threads = cores < 1 ? 1 : cores > 1024 ? 1024 : (int)cores;
  }
  crafter_gen_stats result;
  if (crafter_gen_stats_run(&options, &result, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  if (a->json)
    crafter_gen_stats_write_json(stdout, &options, &result);
  else
    crafter_gen_stats_write_text(stdout, &options, &result);
  return crafter_close_stdout(PROGRAM, 0);
}

/* The world to show: the file of --world, or the one generated; a
 * comment for its world file.  0, or 1 after saying what went wrong. */
static int load_or_generate(const arguments *a, const crafter_config *config,
                            crafter_world_map *map, char *comment, size_t comment_size) {
  char error[1024];
  const crafter_run *run = &a->run;
  if (run->world_path) {
    if (crafter_world_map_load(map, run->world_path, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    snprintf(comment, comment_size, "Crafter world, from %s, saved by " PROGRAM " "
             CRAFTER_VERSION, run->world_path);
    if (!run->players) return 0;
  }
  crafter_env env;
  crafter_params params = run->params;
  if (run->world_path) {
    params.area[0] = map->width;
    params.area[1] = map->height;
  }
  if (crafter_env_init_config(&env, &params, config, error, sizeof(error)) < 0 ||
      (run->players && crafter_env_set_players(&env, run->players, error, sizeof(error)) < 0)) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    if (run->world_path) crafter_world_map_free(map);
    return 1;
  }
  crafter_env_set_next_episode(&env, a->episode);
  int status;
  if (run->world_path) {
    status = crafter_world_map_start(&env, map, error, sizeof(error));
    crafter_world_map_free(map);
  } else {
    status = crafter_env_reset(&env);
    if (status == CRAFTER_PLAYERS_UNFIT)
      crafter_env_no_room(&env, error, sizeof(error));
    else if (status < 0)
      snprintf(error, sizeof(error), "out of memory");
  }
  if (status == 0 && crafter_world_map_from_game(map, &env.game) < 0) {
    snprintf(error, sizeof(error), "out of memory");
    status = -1;
  }
  if (status < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    crafter_env_fini(&env);
    return 1;
  }
  if (run->world_path) {
    crafter_env_fini(&env);
    return 0;
  }
  snprintf(comment, comment_size,
           "Crafter world of seed %lld, episode %lld (world seed %lld)%s%s, made by " PROGRAM
           " " CRAFTER_VERSION,
           (long long)run->params.seed, (long long)a->episode, (long long)env.world_seed,
           run->config_path ? " with config " : "", run->config_path ? run->config_path : "");
  crafter_env_fini(&env);
  return 0;
}

/* --png for Craftax: the nine floors drawn with the textures of
 * --textures (Craftax's assets folder) or the built-in ones. */
static int floors_png(arguments *a, const crafter_cx_state *state) {
  char error[4096 + 200];
  crafter_cx_textures *textures = malloc(sizeof *textures);
  uint8_t *rgb = malloc((size_t)CRAFTER_CX_FLOORS_PICTURE_SIDE * CRAFTER_CX_FLOORS_PICTURE_SIDE * 3);
  int status = 0;
  if (!textures || !rgb) {
    fprintf(stderr, PROGRAM ": out of memory\n");
    status = 1;
  } else if ((a->run.textures
                  ? crafter_cx_textures_load(textures, a->run.textures, error, sizeof error)
                  : crafter_cx_textures_load_builtin(textures, error, sizeof error)) != 0) {
    fprintf(stderr, PROGRAM ": %s%s\n", a->run.textures ? "--textures: " : "", error);
    status = 1;
  } else {
    crafter_cx_draw_floors(state, textures, rgb);
    if (crafter_write_png(a->png_path, rgb, CRAFTER_CX_FLOORS_PICTURE_SIDE,
                          CRAFTER_CX_FLOORS_PICTURE_SIDE, error, sizeof error) != 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      status = 1;
    }
  }
  free(textures);
  free(rgb);
  return status;
}

/* Craftax's first world of the seed: each floor's name and map
 * (crafter_cx_render_floor's letters), or with --png its picture (and
 * the maps only with --ascii). */
static int show_floors(arguments *a) {
  static crafter_cx_state state;
  static char map[CRAFTER_CX_MAP_SIZE * (CRAFTER_CX_MAP_SIZE + 1) + 1];
  if (crafter_cx_generate_world(crafter_cx_reset_key(a->run.params.seed), &state) != 0) {
    fprintf(stderr, PROGRAM ": out of memory\n");
    return 1;
  }
  if (a->png_path) {
    int status = floors_png(a, &state);
    if (status != 0 || !a->ascii) {
      crafter_run_free(&a->run);
      return crafter_close_stdout(PROGRAM, status);
    }
  }
  printf("Craftax world of seed %lld: the player on floor %d at row %d, column %d\n",
         (long long)a->run.params.seed, state.player_level, state.player_position[0],
         state.player_position[1]);
  for (int floor = 0; floor < CRAFTER_CX_LEVELS; floor++) {
    crafter_cx_render_floor(&state, floor, map, sizeof map);
    printf("\nfloor %d: %s\n%s", floor, crafter_cx_floor_name(floor), map);
  }
  crafter_run_free(&a->run);
  return crafter_close_stdout(PROGRAM, 0);
}

/* --levels for a JAX game (run/jlevels.h): the set made or read
 * whole, then saved or listed. */
static int run_cc_levels(arguments *a) {
  char error[1024];
  crafter_run *run = &a->run;
  int status = crafter_run_open_levels(run, error, sizeof(error));
  if (status == 0 && a->save_levels_path &&
      crafter_jlevels_save(run->jlevel_set, a->save_levels_path, error, sizeof(error)) < 0)
    status = 1;
  else if (status == 0 && !a->save_levels_path)
    crafter_jlevels_write_list(stdout, run->jlevel_set);
  if (status != 0) fprintf(stderr, PROGRAM ": %s\n", error);
  crafter_run_free(run);
  return crafter_close_stdout(PROGRAM, status);
}

/* --levels: makes or reads the set, then saves or lists it. */
static int run_levels(arguments *a, const crafter_config *config) {
  char error[1024];
  crafter_run *run = &a->run;
  const crafter_level_options *levels = &run->levels;
  if (run->game != CRAFTER_GAME_CRAFTER) return run_cc_levels(a);
  if (levels->count) { /* made here: generated and written a batch at a time */
    if (crafter_params_check(&run->params, error, sizeof(error)) < 0) usage_error("%s", error);
    int64_t first = levels->start ? levels->start : 1;
    int made = a->save_levels_path
                   ? crafter_levels_generate_save(&run->params, config, first, levels->count,
                                                  levels->threads, a->save_levels_path, error,
                                                  sizeof(error))
                   : crafter_levels_generate_list(stdout, &run->params, config, first,
                                                  levels->count, levels->threads, error,
                                                  sizeof(error));
    if (made < 0) fprintf(stderr, PROGRAM ": %s\n", error);
    return crafter_close_stdout(PROGRAM, made < 0 ? 1 : 0);
  }
  /* A file is checked against what the command line says of it. */
  run->config = config;
  int status = crafter_run_open_levels(run, error, sizeof(error));
  if (status != 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    crafter_run_free(run);
    return status;
  }
  if (a->save_levels_path) {
    if (crafter_levels_save(run->level_set, a->save_levels_path, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      status = 1;
    }
  } else {
    crafter_levels_write_list(stdout, run->level_set);
  }
  crafter_run_free(run);
  return crafter_close_stdout(PROGRAM, status);
}

static int run(arguments *a) {
  char error[1024];
  crafter_run *run = &a->run;
  static crafter_config config;
  crafter_config_default(&config);
  if (run->config_path &&
      crafter_config_load(run->config_path, &config, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  crafter_params_take_unset(&run->params, &config.params, run->given);
  if (run->game != CRAFTER_GAME_CRAFTER) run->params.area[0] = run->params.area[1] = CRAFTER_CC_MAP_SIZE;
  if (crafter_params_check(&run->params, error, sizeof(error)) < 0) usage_error("%s", error);
  if (a->stats) return run_stats(a, &config);
  if (crafter_level_options_wanted(&run->levels)) return run_levels(a, &config);

  if (run->game == CRAFTER_GAME_CRAFTAX) return show_floors(a);
  crafter_world_map map;
  char comment[256];
  if (run->game == CRAFTER_GAME_CRAFTAX_CLASSIC) {
    static crafter_cc_state state;
    if (crafter_cc_generate_world(crafter_cc_reset_key(run->params.seed), &state) != 0 ||
        crafter_world_map_from_cc(&map, &state) != 0) {
      fprintf(stderr, PROGRAM ": out of memory\n");
      return 1;
    }
  } else if (load_or_generate(a, &config, &map, comment, sizeof(comment)) != 0) {
    return 1;
  }
  int status = 0;
  if (a->png_path) status = write_png(&map, a->png_path, a->run.textures, a->unit);
  if (status == 0 && a->save_path &&
      crafter_world_map_save(&map, a->save_path, comment, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    status = 1;
  }
  if (status == 0 && a->semantic) crafter_gen_write_semantic(stdout, &map);
  if (status == 0 && (a->ascii || (!a->semantic && !a->png_path && !a->save_path)))
    crafter_gen_write_ascii(stdout, &map);
  crafter_world_map_free(&map);
  return crafter_close_stdout(PROGRAM, status);
}

int main(int argc, char **argv) {
  static arguments a;
  parse_options(argc, argv, &a);
  /* A temporary being written goes when a signal ends the program. */
  crafter_outfile_remove_on_signals();
  return run(&a);
}
