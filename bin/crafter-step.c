/* crafter-step: run Crafter driven by actions on stdin, observations and
 * records on stdout.  Options are parsed here; the library does the rest. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "envopts.h"
#include "outfile.h"
#include "config.h"
#include "proto.h"
#include "session.h"

#define PROGRAM "crafter-step"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " [OPTION]...\n"
          "Run Crafter with actions on standard input and one record per step on\n"
          "standard output: JSON lines by default, or the binary protocol.\n"
          "\n"
          "In JSON lines an action is a number 0..16 or a name (noop, move_left,\n"
          "move_right, move_up, move_down, do, sleep, place_stone, place_table,\n"
          "place_furnace, place_plant, make_wood_pickaxe, make_stone_pickaxe,\n"
          "make_iron_pickaxe, make_wood_sword, make_stone_sword, make_iron_sword);\n"
          "with several envs a line holds one action per env.  Blank lines and lines\n"
          "starting with # are ignored.\n"
          "\n"
          "Environment (as crafter.Env):\n"
          "  -s, --seed=N            the Env seed (default 0); env i uses N+i\n"
          "  -e, --first-episode=E   episode counter of the first episode (default 1)\n"
          "  -n, --episodes=N        stop after N episodes in all, resetting after each\n"
          "                          (default 1 with one env in JSON lines, else 0:\n"
          "                          run until the input ends)\n"
          "      --area=W,H          world size in cells (default 64,64)\n"
          "      --view=W,H          view grid in cells (default 9,9)\n"
          "      --size=W,H          observation size in pixels (default 64,64)\n"
          "      --length=L          time limit in steps, 0 for none (default 10000)\n"
          "      --no-reward         report a reward of 0 on every step\n"
          "  -c, --config=FILE       the game's rules and numbers from FILE\n"
          "                          (crafter-config(5)); the options above override\n"
          "                          its env section\n"
          "  -w, --world=FILE        start every episode on the world in FILE\n"
          "                          (crafter-world(5), made or edited with crafter-gen);\n"
          "                          the area is the map's\n"
          "      --tasks=FILE        give every episode a goal from the task file FILE\n"
          "                          (crafter-task(5)), drawn from the env's seed and\n"
          "                          the episode: records carry its id and instruction,\n"
          "                          text observations start with it; the step that\n"
          "                          meets it adds its reward and ends the episode\n"
          "      --split=NAME        only goals of the split train, test-paraphrase or\n"
          "                          test-new-objects\n"
          "      --task=ID           only the task ID\n"
          "      --levels=N|FILE     play on a level set: level k is the world of episode\n"
          "                          k of --seed, stored once and copied at each reset;\n"
          "                          N makes levels 1..N, FILE loads a set saved by\n"
          "                          crafter-gen (crafter-levels(5));\n"
          "                          every env shares the set, records carry \"level\"\n"
          "      --start-level=K     with --levels N: the levels are K..K+N-1 (default 1)\n"
          "      --level-order=O     random (default): each episode draws its level\n"
          "                          from its env's own generator; sequential: env i of\n"
          "                          E plays levels i+1, i+1+E, ... cycling\n"
          "  -N, --envs=N            run N environments side by side (default 1)\n"
          "      --players=P         P players share each world (1..16, default 1:\n"
          "                          Crafter); a line (a frame) holds one action per\n"
          "                          player of each env, and each player gets its own\n"
          "                          record (frame entry), see crafter-step(1)\n"
          "  -T, --threads=T         step them on T threads (default 1), with every\n"
          "                          other option; results do not depend on T\n"
          "\n"
          "Observations:\n"
          "  -O, --obs=KIND          none (default), pixels, semantic, symbolic or text\n"
          "  -t, --textures=DIR      draw pixels with the PNG files in DIR (Crafter's\n"
          "                          assets folder or one like it) instead of the\n"
          "                          folder $CRAFTER_TEXTURES names, or the built-in\n"
          "                          textures\n"
          "\n"
          "Output:\n"
          "  -i, --info=KIND         short (default): t, reward, done, discount,\n"
          "                          unlocked; state: also the player's position,\n"
          "                          inventory and achievements as name-to-count\n"
          "                          objects, and a record at every reset; full: reset\n"
          "                          records and the whole state in the layout of the\n"
          "                          reference traces\n"
          "  -b, --binary            the binary protocol of crafter-protocol(5): a\n"
          "                          header, then fixed-size frames answered by one\n"
          "                          action byte per env (255 resets that env; 253\n"
          "                          and 12 bytes ask for an env's view at any size)\n"
          "      --manual-reset      binary: an ended episode waits for the reset\n"
          "                          action (the env plays on meanwhile, as\n"
          "                          crafter.Env does) instead of restarting at once\n"
          "      --semantic          binary: frames carry the semantic map too\n"
          "      --final-obs         binary, without --manual-reset: frames also carry\n"
          "                          the final observation of each episode that ended\n"
          "                          at the step\n"
          "      --shm-fd=FD         binary: write frames to a ring in the shared\n"
          "                          memory open as descriptor FD (sized here); the\n"
          "                          pipe carries only 8 bytes a frame\n"
          "      --shm-slots=K       frames in that ring, 1..64 (default 2)\n"
          "      --record=FILE       also write every episode to the trajectory file\n"
          "                          FILE (crafter-trajectory(5)), with the observations\n"
          "                          of --obs unless they are text\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 when the episodes or the input ended, 1 on bad input,\n"
          "2 on bad options.  See crafter-step(1) and crafter-protocol(5).\n");
}

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

/* What the command line says. */
typedef struct arguments {
  crafter_session_options options;
  /* Environment options given on the command line, laid over the config
   * once it is read. */
  unsigned given; /* enum crafter_given */
  const char *config_path, *world_path;
  crafter_task_options tasks;
  crafter_level_options levels;
  int first_episode_given;
} arguments;

/* Reads the options into a; exits on --help, --version or a bad option. */
static void parse_options(int argc, char **argv, arguments *a) {
  crafter_session_options *options = &a->options;
  crafter_params_default(&options->params);
  options->first_episode = 1;
  options->episodes = -1; /* not given */
  options->envs = 1;
  options->shm_fd = -1;
  options->shm_slots = 2;
  crafter_task_options_init(&a->tasks);
  crafter_level_options_init(&a->levels);
  enum {
    OPT_RECORD = 256, OPT_MANUAL_RESET, OPT_SEMANTIC, OPT_SHM_FD, OPT_SHM_SLOTS, OPT_FINAL_OBS,
    OPT_PLAYERS
  };
  static const struct option long_options[] = {
      CRAFTER_OPTION_SEED_ENTRY,
      {"first-episode", required_argument, NULL, 'e'},
      {"episodes", required_argument, NULL, 'n'},
      CRAFTER_OPTION_AREA_ENTRY,
      CRAFTER_OPTION_VIEW_ENTRY,
      CRAFTER_OPTION_SIZE_ENTRY,
      CRAFTER_OPTION_LENGTH_ENTRY,
      CRAFTER_OPTION_NO_REWARD_ENTRY,
      {"config", required_argument, NULL, 'c'},
      {"world", required_argument, NULL, 'w'},
      CRAFTER_OPTION_TASK_ENTRIES,
      CRAFTER_OPTION_LEVEL_ENTRIES,
      {"envs", required_argument, NULL, 'N'},
      {"players", required_argument, NULL, OPT_PLAYERS},
      {"threads", required_argument, NULL, 'T'},
      {"obs", required_argument, NULL, 'O'},
      {"textures", required_argument, NULL, 't'},
      {"info", required_argument, NULL, 'i'},
      {"binary", no_argument, NULL, 'b'},
      {"record", required_argument, NULL, OPT_RECORD},
      {"manual-reset", no_argument, NULL, OPT_MANUAL_RESET},
      {"semantic", no_argument, NULL, OPT_SEMANTIC},
      {"final-obs", no_argument, NULL, OPT_FINAL_OBS},
      {"shm-fd", required_argument, NULL, OPT_SHM_FD},
      {"shm-slots", required_argument, NULL, OPT_SHM_SLOTS},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  int64_t number;
  while ((option = getopt_long(argc, argv, "s:e:n:N:T:O:t:i:c:w:bhV", long_options, NULL)) != -1) {
    switch (option) {
      case 'e':
        options->first_episode = crafter_option_int64(PROGRAM, "first episode", optarg,
            1, CRAFTER_EPISODE_MAX);
        a->first_episode_given = 1;
        break;
      case 'n':
        if (crafter_parse_int64(optarg, 0, INT64_MAX, &options->episodes) < 0)
          usage_error("invalid episode count '%s' (expected 0 or more)", optarg);
        break;
      case 'c': a->config_path = optarg; break;
      case 'w': a->world_path = optarg; break;
      case 'N':
        if (crafter_parse_int64(optarg, 1, 65536, &number) < 0)
          usage_error("invalid number of envs '%s' (expected 1..65536)", optarg);
        options->envs = (int)number;
        break;
      case OPT_PLAYERS:
        if (crafter_parse_int64(optarg, 1, CRAFTER_PLAYERS_MAX, &number) < 0)
          usage_error("invalid number of players '%s' (expected 1..16)", optarg);
        options->players = (int)number;
        break;
      case 'T':
        if (crafter_parse_int64(optarg, 1, 1024, &number) < 0)
          usage_error("invalid number of threads '%s' (expected 1..1024)", optarg);
        options->threads = (int)number;
        break;
      case 'O':
        options->obs_kind = crafter_obs_kind_from_name(optarg);
        if (options->obs_kind < 0)
          usage_error("invalid observation kind '%s' (expected none, pixels, semantic, "
                      "symbolic or text)",
                      optarg);
        break;
      case 't': options->textures = optarg; break;
      case 'i':
        options->info = crafter_info_kind_from_name(optarg);
        if (options->info < 0)
          usage_error("invalid info kind '%s' (expected short, full or state)", optarg);
        break;
      case 'b': options->binary = 1; break;
      case OPT_MANUAL_RESET: options->manual_reset = 1; break;
      case OPT_SEMANTIC: options->semantic_info = 1; break;
      case OPT_FINAL_OBS: options->final_obs = 1; break;
      case OPT_SHM_FD: {
        int64_t fd;
        if (crafter_parse_int64(optarg, 0, 1 << 20, &fd) < 0)
          usage_error("invalid descriptor '%s' (expected 0..1048576)", optarg);
        options->shm_fd = (int)fd;
        break;
      }
      case OPT_SHM_SLOTS: {
        int64_t slots;
        if (crafter_parse_int64(optarg, 1, 64, &slots) < 0)
          usage_error("invalid number of slots '%s' (expected 1..64)", optarg);
        options->shm_slots = (int)slots;
        break;
      }
      case OPT_RECORD:
        if (!*optarg) usage_error("%s", "the file to record to is empty");
        options->record = optarg;
        break;
      case 'h': usage(stdout); exit(crafter_close_stdout(PROGRAM, 0));
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        exit(crafter_close_stdout(PROGRAM, 0));
      default:
        if (crafter_env_option(PROGRAM, option, optarg, &options->params, &a->given)) break;
        if (crafter_task_option(PROGRAM, option, optarg, &a->tasks)) break;
        if (crafter_level_option(PROGRAM, option, optarg, &a->levels)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        exit(2);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  crafter_task_options_check(PROGRAM, &a->tasks);
  crafter_level_options_check(PROGRAM, &a->levels);
  if (crafter_level_options_wanted(&a->levels) && (a->world_path || a->first_episode_given))
    usage_error("%s", "--levels chooses each episode's world: not with --world or --first-episode");
  options->level_order = a->levels.order;
  if (options->episodes < 0) options->episodes = options->envs == 1 && !options->binary ? 1 : 0;
  if (options->players > 1 && options->final_obs)
    usage_error("%s", "--final-obs is not available with several players");
  if (options->players > 1 && options->envs * options->players > 65536)
    usage_error("%s", "--envs times --players is more than 65536");
  if (options->binary && options->info != CRAFTER_INFO_SHORT)
    usage_error("--info %s is for JSON lines, not the binary protocol",
                crafter_info_kind_name(options->info));
  if (!options->binary &&
      (options->manual_reset || options->semantic_info || options->shm_fd >= 0 || options->final_obs))
    usage_error("%s",
                "--manual-reset, --semantic, --final-obs and --shm-fd are for the binary protocol");
  if (options->final_obs && options->manual_reset)
    usage_error("%s", "--final-obs is for auto-reset: with --manual-reset a frame's observation "
                      "is the final one");
  if (options->textures && options->obs_kind != CRAFTER_OBS_PIXELS && !options->binary)
    usage_error("%s", "--textures needs --obs pixels (or the binary protocol, for render requests)");
}

/* Loads the configuration and the world file, and runs the session. */
static int run(arguments *a) {
  crafter_session_options *options = &a->options;
  char error[512];
  crafter_rules rules;
  int opened = crafter_rules_open(a->config_path, a->world_path, &options->params, a->given,
                                  &rules, error, sizeof(error));
  if (opened != 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    crafter_rules_free(&rules);
    return opened;
  }
  options->config = rules.config;
  options->config_text = rules.config_text;
  options->config_bytes = rules.config_bytes;
  options->world = rules.world;
  options->world_text = rules.world_text;
  options->world_bytes = rules.world_bytes;
  crafter_task_set set;
  crafter_task_pool pool;
  if (a->tasks.path) {
    int opened = crafter_tasks_open(a->tasks.path, a->tasks.split, a->tasks.id, &set, &pool,
                                    error, sizeof(error));
    if (opened < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      crafter_rules_free(&rules);
      return opened == -2 ? 2 : 1;
    }
    options->tasks = &pool;
  }
  crafter_level_set levels;
  memset(&levels, 0, sizeof(levels));
  int status = 0;
  if (crafter_level_options_wanted(&a->levels)) {
    status = crafter_params_check(&options->params, error, sizeof(error)) < 0
                 ? 2
                 : crafter_level_options_open(&a->levels, &options->params, a->given,
                                              options->config, &levels, error, sizeof(error));
    options->levels = &levels;
  }
  if (status == 0) status = crafter_session_run(options, STDIN_FILENO, stdout, error, sizeof(error));
  if (status != 0) fprintf(stderr, PROGRAM ": %s\n", error);
  crafter_levels_free(&levels);
  if (a->tasks.path) {
    crafter_task_pool_free(&pool);
    crafter_task_set_free(&set);
  }
  crafter_rules_free(&rules);
  return crafter_close_stdout(PROGRAM, status);
}

int main(int argc, char **argv) {
  static arguments a;
  parse_options(argc, argv, &a);
  /* A temporary being written goes when a signal ends the program. */
  crafter_outfile_remove_on_signals();
  return run(&a);
}
