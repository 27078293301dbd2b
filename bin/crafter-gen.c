/* crafter-gen: generate Crafter worlds and show them: an ASCII map, a
 * picture, the semantic grid, a world file to edit, or statistics over
 * many seeds.  Options are parsed here; the library does the rest. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "envopts.h"
#include "config.h"
#include "env.h"
#include "gen.h"
#include "levels.h"
#include "outfile.h"
#include "textures.h"
#include "worldfile.h"

#define PROGRAM "crafter-gen"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " [OPTION]...\n"
          "Generate the Crafter world of a seed and show it, or count what the worlds of\n"
          "many seeds hold.\n"
          "\n"
          "The world:\n"
          "  -s, --seed=N            the Env seed (default 0)\n"
          "      --episode=E         the episode of that seed (default 1, the first reset);\n"
          "                          the world seed is hash((seed, E)) %% (2**31-1)\n"
          "      --area=W,H          world size in cells (default 64,64)\n"
          "  -c, --config=FILE       generate by the configuration FILE (crafter-config(5))\n"
          "  -w, --world=FILE        show the world file FILE (crafter-world(5)) instead of\n"
          "                          generating one; checks it\n"
          "      --players=P         show the start cells of P players (1..16) as @, as an\n"
          "                          episode of P players starts (crafter(7)); --save\n"
          "                          writes them\n"
          "\n"
          "What to show (default: the ASCII map):\n"
          "      --ascii             the map, one character per cell, and a legend\n"
          "      --semantic          the semantic grid: numbers as info['semantic'] holds\n"
          "                          them, one line per row of the map\n"
          "      --png=FILE          draw the whole map into the PNG file FILE\n"
          "  -u, --unit=N            pixels a cell in the picture (default 16)\n"
          "  -t, --textures=DIR      draw with the PNG files in DIR (Crafter's assets\n"
          "                          folder or one like it) instead of the folder\n"
          "                          $CRAFTER_TEXTURES names, or the built-in textures\n"
          "      --save=FILE         write the world file (crafter-world(5)) to FILE, - for\n"
          "                          standard output; edit it and start episodes from it\n"
          "\n"
          "Statistics:\n"
          "      --stats             generate the world of every seed of --seeds and count\n"
          "                          each material and creature, and the distance from the\n"
          "                          spawn to the nearest of each\n"
          "      --seeds=A-B         the seeds (default 1-1000), each at --episode\n"
          "  -T, --threads=N         worker threads (default: one per core)\n"
          "  -f, --format=FORMAT     text (default) or json\n"
          "\n"
          "Level sets (crafter-levels(5)):\n"
          "      --levels=N|FILE     levels 1..N of --seed (each the world of that\n"
          "                          episode, stored as its start state), or the level\n"
          "                          file FILE, checked, and against --seed, --area,\n"
          "                          --view when given and the configuration; lists the\n"
          "                          levels\n"
          "      --start-level=K     with --levels N: levels K..K+N-1 (default 1)\n"
          "      --view=W,H          the view the levels are played with (default 9,9)\n"
          "      --save-levels=FILE  write the set to the level file FILE instead of\n"
          "                          listing it (with --threads for generation)\n"
          "\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 on a bad configuration or world file, 2 on bad\n"
          "options.  See crafter-gen(1).\n");
}

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
  crafter_textures_free(&textures);
  if (status < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  return 0;
}

/* What the command line asks for. */
typedef struct arguments {
  crafter_params params;
  unsigned given; /* enum crafter_given: --seed and --area */
  int64_t episode, first_seed, last_seed;
  int given_episode, given_seeds, given_format, threads, unit;
  int ascii, semantic, stats, json;
  int players;
  const char *config_path, *world_path, *png_path, *save_path, *textures_dir;
  crafter_level_options levels;
  const char *save_levels_path;
} arguments;

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, arguments *a) {
  crafter_params_default(&a->params);
  a->episode = 1;
  a->first_seed = 1;
  a->last_seed = 1000;
  a->unit = 16;
  crafter_level_options_init(&a->levels);
  int64_t number;
  enum { OPT_SEMANTIC = 256, OPT_STATS, OPT_SEEDS, OPT_SAVE_LEVELS, OPT_PLAYERS };
  static const struct option long_options[] = {
      CRAFTER_OPTION_SEED_ENTRY,
      {"episode", required_argument, NULL, 'e'},
      CRAFTER_OPTION_AREA_ENTRY,
      {"config", required_argument, NULL, 'c'},
      {"world", required_argument, NULL, 'w'},
      {"players", required_argument, NULL, OPT_PLAYERS},
      {"ascii", no_argument, NULL, 'a'},
      {"semantic", no_argument, NULL, OPT_SEMANTIC},
      {"png", required_argument, NULL, 'p'},
      {"unit", required_argument, NULL, 'u'},
      {"textures", required_argument, NULL, 't'},
      {"save", required_argument, NULL, 'o'},
      {"stats", no_argument, NULL, OPT_STATS},
      {"seeds", required_argument, NULL, OPT_SEEDS},
      {"threads", required_argument, NULL, 'T'},
      {"format", required_argument, NULL, 'f'},
      CRAFTER_OPTION_LEVEL_ENTRIES,
      CRAFTER_OPTION_VIEW_ENTRY,
      {"save-levels", required_argument, NULL, OPT_SAVE_LEVELS},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  while ((option = getopt_long(argc, argv, "s:c:w:u:t:T:f:hV", long_options, NULL)) !=
         -1) {
    switch (option) {
      case 'e':
        a->episode = crafter_option_int64(PROGRAM, "episode", optarg, 1, CRAFTER_EPISODE_MAX);
        a->given_episode = 1;
        break;
      case 'c': a->config_path = optarg; break;
      case 'w': a->world_path = optarg; break;
      case 'a': a->ascii = 1; break;
      case OPT_SEMANTIC: a->semantic = 1; break;
      case 'p': a->png_path = optarg; break;
      case 'u':
        if (crafter_parse_int64(optarg, 1, 256, &number) < 0)
          usage_error("invalid unit '%s' (expected 1..256 pixels)", optarg);
        a->unit = (int)number;
        break;
      case 't': a->textures_dir = optarg; break;
      case 'o': a->save_path = optarg; break;
      case OPT_STATS: a->stats = 1; break;
      case OPT_PLAYERS:
        if (crafter_parse_int64(optarg, 1, CRAFTER_PLAYERS_MAX, &number) < 0)
          usage_error("invalid number of players '%s' (expected 1..16)", optarg);
        a->players = (int)number;
        break;
      case OPT_SAVE_LEVELS:
        if (!*optarg) usage_error("%s", "the level file to write is empty");
        a->save_levels_path = optarg;
        break;
      case OPT_SEEDS:
        if (parse_seeds(optarg, &a->first_seed, &a->last_seed) < 0)
          usage_error("invalid seeds '%s' (expected A-B or N, from 0 to 2147483647)", optarg);
        a->given_seeds = 1;
        break;
      case 'T':
        if (crafter_parse_int64(optarg, 1, 1024, &number) < 0)
          usage_error("invalid number of threads '%s' (expected 1..1024)", optarg);
        a->threads = (int)number;
        break;
      case 'f':
        if (strcmp(optarg, "json") == 0)
          a->json = 1;
        else if (strcmp(optarg, "text") != 0)
          usage_error("invalid format '%s' (expected text or json)", optarg);
        a->given_format = 1;
        break;
      case 'h': usage(stdout); exit(crafter_close_stdout(PROGRAM, 0));
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        exit(crafter_close_stdout(PROGRAM, 0));
      default:
        if (crafter_env_option(PROGRAM, option, optarg, &a->params, &a->given)) break;
        if (crafter_level_option(PROGRAM, option, optarg, &a->levels)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        exit(2);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  crafter_level_options_check(PROGRAM, &a->levels);
  int levels = crafter_level_options_wanted(&a->levels);
  if (levels && (a->stats || a->world_path || a->given_episode || a->ascii || a->semantic ||
                 a->png_path || a->save_path || a->given_seeds || a->given_format))
    usage_error("%s", "--levels makes or reads a level set; it shows no single world and "
                      "counts no statistics");
  if (a->levels.order_given) usage_error("%s", "--level-order is for the programs that play");
  if (!levels && (a->save_levels_path || (a->given & CRAFTER_GIVEN_VIEW)))
    usage_error("%s", "--save-levels and --view need --levels");
  a->levels.threads = a->threads;
  if (a->players && (levels || a->stats))
    usage_error("%s", "--players shows the start cells of one world: not with --levels or --stats");
  if (levels) return;
  int to_stdout = a->ascii + a->semantic + (a->save_path && strcmp(a->save_path, "-") == 0);
  if (to_stdout > 1)
    usage_error("%s", "--ascii, --semantic and --save - all write to standard output; pick one");
  if (a->stats && (a->world_path || a->ascii || a->semantic || a->png_path || a->save_path ||
                   (a->given & CRAFTER_GIVEN_SEED)))
    usage_error("%s", "--stats counts over --seeds; it does not show one world");
  if (!a->stats && (a->given_seeds || a->given_format || a->threads))
    usage_error("%s", "--seeds, --threads and --format are for --stats");
  if (a->world_path && (a->config_path || a->given_episode || a->given))
    usage_error("%s", "--world shows a world file; --seed, --episode, --area and --config are "
                      "for generated worlds");
  if ((a->textures_dir || a->unit != 16) && !a->png_path)
    usage_error("%s", "--textures and --unit are for --png");
}

/* --stats: counts over the worlds of --seeds. */
static int run_stats(const arguments *a, const crafter_config *config) {
  char error[1024];
  crafter_gen_stats_options options = {a->params,     config,     a->first_seed,
                                       a->last_seed,  a->episode, a->threads};
  if (!a->threads) {
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
  if (a->world_path) {
    if (crafter_world_map_load(map, a->world_path, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    snprintf(comment, comment_size, "Crafter world, from %s, saved by " PROGRAM " "
             CRAFTER_VERSION, a->world_path);
    if (!a->players) return 0;
  }
  crafter_env env;
  crafter_params params = a->params;
  if (a->world_path) {
    params.area[0] = map->width;
    params.area[1] = map->height;
  }
  if (crafter_env_init_config(&env, &params, config, error, sizeof(error)) < 0 ||
      (a->players && crafter_env_set_players(&env, a->players, error, sizeof(error)) < 0)) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    if (a->world_path) crafter_world_map_free(map);
    return 1;
  }
  crafter_env_set_next_episode(&env, a->episode);
  int status;
  if (a->world_path) {
    status = crafter_env_reset_from_world(&env, map, error, sizeof(error));
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
    crafter_env_free(&env);
    return 1;
  }
  if (a->world_path) {
    crafter_env_free(&env);
    return 0;
  }
  snprintf(comment, comment_size,
           "Crafter world of seed %lld, episode %lld (world seed %lld)%s%s, made by " PROGRAM
           " " CRAFTER_VERSION,
           (long long)a->params.seed, (long long)a->episode, (long long)env.world_seed,
           a->config_path ? " with config " : "", a->config_path ? a->config_path : "");
  crafter_env_free(&env);
  return 0;
}

/* --levels: makes or reads the set, then saves or lists it. */
static int run_levels(arguments *a, const crafter_config *config) {
  char error[1024];
  if (a->levels.count) { /* made here: generated and written a batch at a time */
    if (crafter_params_check(&a->params, error, sizeof(error)) < 0) usage_error("%s", error);
    int64_t first = a->levels.start ? a->levels.start : 1;
    int made = a->save_levels_path
                   ? crafter_levels_generate_save(&a->params, config, first, a->levels.count,
                                                  a->levels.threads, a->save_levels_path, error,
                                                  sizeof(error))
                   : crafter_levels_generate_list(stdout, &a->params, config, first,
                                                  a->levels.count, a->levels.threads, error,
                                                  sizeof(error));
    if (made < 0) fprintf(stderr, PROGRAM ": %s\n", error);
    return crafter_close_stdout(PROGRAM, made < 0 ? 1 : 0);
  }
  crafter_level_set set;
  /* A file is checked against what the command line says of it. */
  int status = crafter_level_options_open(&a->levels, &a->params, a->given, config, &set, error,
                                          sizeof(error));
  if (status != 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return status;
  }
  if (a->save_levels_path) {
    if (crafter_levels_save(&set, a->save_levels_path, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      status = 1;
    }
  } else {
    crafter_levels_write_list(stdout, &set);
  }
  crafter_levels_free(&set);
  return crafter_close_stdout(PROGRAM, status);
}

static int run(arguments *a) {
  char error[1024];
  static crafter_config config;
  crafter_config_default(&config);
  if (a->config_path && crafter_config_load(a->config_path, &config, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  crafter_params_take_unset(&a->params, &config.params, a->given);
  if (crafter_params_check(&a->params, error, sizeof(error)) < 0) usage_error("%s", error);
  if (a->stats) return run_stats(a, &config);
  if (crafter_level_options_wanted(&a->levels)) return run_levels(a, &config);

  crafter_world_map map;
  char comment[256];
  if (load_or_generate(a, &config, &map, comment, sizeof(comment)) != 0) return 1;
  int status = 0;
  if (a->png_path) status = write_png(&map, a->png_path, a->textures_dir, a->unit);
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
