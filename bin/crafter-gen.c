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
          "\n"
          "What to show (default: the ASCII map):\n"
          "      --ascii             the map, one character per cell, and a legend\n"
          "      --semantic          the semantic grid: numbers as info['semantic'] holds\n"
          "                          them, one line per row of the map\n"
          "      --png=FILE          draw the whole map into the PNG file FILE\n"
          "  -u, --unit=N            pixels a cell in the picture (default 16)\n"
          "  -t, --textures=DIR      draw with the PNG files in DIR (Crafter's assets\n"
          "                          folder or one like it) instead of the built-in\n"
          "                          textures\n"
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
  int status = textures_dir ? crafter_textures_load_dir(&textures, textures_dir, error, sizeof(error))
                            : crafter_textures_load_builtin(&textures, error, sizeof(error));
  if (status < 0) {
    fprintf(stderr, PROGRAM ": %s%s\n", error,
            textures_dir ? "" : " (try --textures DIR with Crafter's assets folder)");
    return 1;
  }
  uint8_t *rgb;
  int width, height;
  status = crafter_gen_draw(map, &textures, unit, &rgb, &width, &height, error, sizeof(error));
  crafter_textures_free(&textures);
  if (status == 0) {
    status = crafter_write_png(path, rgb, width, height, error, sizeof(error));
    free(rgb);
  }
  if (status < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  crafter_params params;
  crafter_params_default(&params);
  int64_t episode = 1, first_seed = 1, last_seed = 1000, number;
  unsigned given = 0; /* enum crafter_given: --seed and --area */
  int given_episode = 0, given_seeds = 0, threads = 0;
  int unit = 16;
  int ascii = 0, semantic = 0, stats = 0, json = 0, given_format = 0;
  const char *config_path = NULL, *world_path = NULL, *png_path = NULL, *save_path = NULL,
             *textures_dir = NULL;
  enum { OPT_SEMANTIC = 256, OPT_STATS, OPT_SEEDS };
  static const struct option long_options[] = {
      CRAFTER_OPTION_SEED_ENTRY,
      {"episode", required_argument, NULL, 'e'},
      CRAFTER_OPTION_AREA_ENTRY,
      {"config", required_argument, NULL, 'c'},
      {"world", required_argument, NULL, 'w'},
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
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  while ((option = getopt_long(argc, argv, "s:c:w:u:t:T:f:hV", long_options, NULL)) !=
         -1) {
    switch (option) {
      case 'e':
        episode = crafter_option_int64(PROGRAM, "episode", optarg, 1, CRAFTER_EPISODE_MAX);
        given_episode = 1;
        break;
      case 'c': config_path = optarg; break;
      case 'w': world_path = optarg; break;
      case 'a': ascii = 1; break;
      case OPT_SEMANTIC: semantic = 1; break;
      case 'p': png_path = optarg; break;
      case 'u':
        if (crafter_parse_int64(optarg, 1, 256, &number) < 0)
          usage_error("invalid unit '%s' (expected 1..256 pixels)", optarg);
        unit = (int)number;
        break;
      case 't': textures_dir = optarg; break;
      case 'o': save_path = optarg; break;
      case OPT_STATS: stats = 1; break;
      case OPT_SEEDS:
        if (parse_seeds(optarg, &first_seed, &last_seed) < 0)
          usage_error("invalid seeds '%s' (expected A-B or N, from 0 to 2147483647)", optarg);
        given_seeds = 1;
        break;
      case 'T':
        if (crafter_parse_int64(optarg, 1, 1024, &number) < 0)
          usage_error("invalid number of threads '%s' (expected 1..1024)", optarg);
        threads = (int)number;
        break;
      case 'f':
        if (strcmp(optarg, "json") == 0)
          json = 1;
        else if (strcmp(optarg, "text") != 0)
          usage_error("invalid format '%s' (expected text or json)", optarg);
        given_format = 1;
        break;
      case 'h': usage(stdout); return crafter_close_stdout(PROGRAM, 0);
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        return crafter_close_stdout(PROGRAM, 0);
      default:
        if (crafter_env_option(PROGRAM, option, optarg, &params, &given)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        return 2;
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  int to_stdout = ascii + semantic + (save_path && strcmp(save_path, "-") == 0);
  if (to_stdout > 1)
    usage_error("%s", "--ascii, --semantic and --save - all write to standard output; pick one");
  if (stats &&
      (world_path || ascii || semantic || png_path || save_path || (given & CRAFTER_GIVEN_SEED)))
    usage_error("%s", "--stats counts over --seeds; it does not show one world");
  if (!stats && (given_seeds || given_format || threads))
    usage_error("%s", "--seeds, --threads and --format are for --stats");
  if (world_path && (config_path || given_episode || given))
    usage_error("%s", "--world shows a world file; --seed, --episode, --area and --config are "
                      "for generated worlds");
  if ((textures_dir || unit != 16) && !png_path)
    usage_error("%s", "--textures and --unit are for --png");

  char error[1024];
  crafter_config config;
  crafter_config_default(&config);
  if (config_path && crafter_config_load(config_path, &config, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  crafter_params_take_unset(&params, &config.params, given);
  if (crafter_params_check(&params, error, sizeof(error)) < 0) usage_error("%s", error);

  if (stats) {
    crafter_gen_stats_options options = {params, &config, first_seed, last_seed, episode, threads};
    if (!threads) {
      long cores = sysconf(_SC_NPROCESSORS_ONLN);
      options.threads = cores < 1 ? 1 : cores > 1024 ? 1024 : (int)cores;
    }
    crafter_gen_stats result;
    if (crafter_gen_stats_run(&options, &result, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    if (json)
      crafter_gen_stats_write_json(stdout, &options, &result);
    else
      crafter_gen_stats_write_text(stdout, &options, &result);
    return crafter_close_stdout(PROGRAM, 0);
  }

  crafter_world_map map;
  char comment[256];
  if (world_path) {
    if (crafter_world_map_load(&map, world_path, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    snprintf(comment, sizeof(comment), "Crafter world, from %s, saved by " PROGRAM " "
             CRAFTER_VERSION, world_path);
  } else {
    crafter_env env;
    if (crafter_env_init_config(&env, &params, &config, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    crafter_env_set_next_episode(&env, episode);
    if (crafter_env_reset(&env) < 0 || crafter_world_map_from_game(&map, &env.game) < 0) {
      fprintf(stderr, PROGRAM ": out of memory\n");
      crafter_env_free(&env);
      return 1;
    }
    snprintf(comment, sizeof(comment),
             "Crafter world of seed %lld, episode %lld (world seed %lld)%s%s, made by " PROGRAM
             " " CRAFTER_VERSION,
             (long long)params.seed, (long long)episode, (long long)env.world_seed,
             config_path ? " with config " : "", config_path ? config_path : "");
    crafter_env_free(&env);
  }

  int status = 0;
  if (png_path) status = write_png(&map, png_path, textures_dir, unit);
  if (status == 0 && save_path &&
      crafter_world_map_save(&map, save_path, comment, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    status = 1;
  }
  if (status == 0 && semantic) crafter_gen_write_semantic(stdout, &map);
  if (status == 0 && (ascii || (!semantic && !png_path && !save_path)))
    crafter_gen_write_ascii(stdout, &map);
  crafter_world_map_free(&map);
  return crafter_close_stdout(PROGRAM, status);
}
