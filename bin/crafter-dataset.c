/* crafter-dataset: record, inspect, convert, merge and verify trajectory
 * files.  Options are parsed here; the library does the rest. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agents.h"
#include "cli.h"
#include "envopts.h"
#include "dataset.h"
#include "outfile.h"
#include "proto.h"

#define PROGRAM "crafter-dataset"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " COMMAND [OPTION]... [FILE]...\n"
          "Record, inspect, convert, merge and verify Crafter trajectory files\n"
          "(crafter-trajectory(5)).\n"
          "\n"
          "Commands:\n"
          "  record -o FILE      record episodes of a built-in agent\n"
          "  info FILE...        describe files: settings, counts, success rates, damage\n"
          "  list FILE           one tab-separated line per episode\n"
          "  verify FILE...      check checksums and steps; --resimulate replays every\n"
          "                      episode and compares every stored field\n"
          "  merge -o FILE IN... merge shards into one file (the same bytes in any order)\n"
          "  export FILE         --format stats: Crafter's stats.jsonl on standard output\n"
          "                      (or -o FILE); --format npz -o DIR: Crafter's episode files\n"
          "  frames FILE         PNG images of steps of an episode\n"
          "  video -o OUT FILE   a video of steps of an episode: OUT.gif by the toolkit,\n"
          "                      .mp4 .m4v .mov .mkv .webm or .avi through ffmpeg\n"
          "\n"
          "record:\n"
          "  -a, --agent=NAME        random (default) or scripted\n"
          "  -n, --episodes=N        episodes in the whole dataset (default 100)\n"
          "      --steps=N           steps per episode at most: Crafter's length, the time\n"
          "                          limit that ends an episode (default 10000)\n"
          "  -s, --seed=N            the Env seed (default 0)\n"
          "  -e, --first-episode=E   episode counter of the first episode (default 1)\n"
          "      --shard=K/N         record only shard K of N (1 <= K <= N): the episodes\n"
          "                          whose index from 0 is K-1 modulo N; merging the N\n"
          "                          shards gives the file recorded at once\n"
          "      --players=P         P players a world (1..16), each played by an agent\n"
          "                          of --agent's kind; each player's episode is a chunk\n"
          "      --obs=KIND          store observations: none (default), pixels,\n"
          "                          semantic or symbolic\n"
          "  -t, --textures=DIR      draw pixels with the PNG files in DIR (default:\n"
          "                          the folder $CRAFTER_TEXTURES names, else built-in)\n"
          "      --area=W,H --view=W,H --size=W,H --no-reward   as in crafter-step(1)\n"
          "      --tasks=FILE        give each episode a goal from the task file FILE\n"
          "                          (crafter-task(5)), drawn from its seed and episode:\n"
          "                          the scripted agent pursues it, an episode ends when\n"
          "                          it is met\n"
          "      --split=NAME        only goals of the split train, test-paraphrase or\n"
          "                          test-new-objects\n"
          "      --task=ID           only the task ID\n"
          "      --levels=N|FILE     play on a level set (crafter-levels(5)): levels\n"
          "                          1..N of --seed or a level file; episode i's level\n"
          "                          depends on i alone\n"
          "      --start-level=K --level-order=random|sequential   as in crafter-step(1)\n"
          "  -c, --config=FILE       play by the configuration FILE (crafter-config(5)),\n"
          "                          stored in the file for replays\n"
          "  -w, --world=FILE        start every episode on the world file FILE\n"
          "                          (crafter-world(5))\n"
          "  -T, --threads=T         play T episodes at once (default 1); the file is the\n"
          "                          same bytes whatever T is\n"
          "  -o, --output=FILE       the file to write (required)\n"
          "  -q, --quiet             no progress bar (drawn only when stderr is a terminal)\n"
          "\n"
          "verify:      --resimulate     replay every episode and compare\n"
          "         -t, --textures=DIR   the textures stored pixels were drawn with\n"
          "merge:   -o, --output=FILE\n"
          "export:  -f, --format=KIND    stats or npz\n"
          "         -o, --output=PATH    a file for stats, a directory for npz\n"
          "         -t, --textures=DIR   draw images when the file stores no pixels\n"
          "frames:  -E, --episode=I      the episode's index in the file from 0 (default 0)\n"
          "         -S, --steps=LIST     all (default) or a list such as 0,10,20-30\n"
          "         -o, --output=DIR     where to write (default .)\n"
          "         -t, --textures=DIR   draw with these when the file stores no pixels\n"
          "         --size=W,H           scale to W x H (N: N x N) by nearest neighbour,\n"
          "                              as Pillow does (512: 8x8 blocks of 64x64)\n"
          "video:   -E, -S, -t, --size   as for frames\n"
          "         -o, --output=FILE    the video (required); its extension picks the\n"
          "                              format: gif here, others through ffmpeg\n"
          "         -f, --format=KIND    gif, mp4, m4v, mov, mkv, webm or avi, for a\n"
          "                              name without one (such as /dev/stdout)\n"
          "         --fps=N              frames a second, 1 to 100 (default 10)\n"
          "         CRAFTER_FFMPEG names the encoder (default ffmpeg)\n"
          "\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 on success; 1 on bad input or a failed check; 2 on bad options.\n"
          "See crafter-dataset(1) and crafter-trajectory(5).\n");
}

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

enum {
  OPT_STEPS = 256, OPT_SHARD, OPT_OBS, OPT_FPS, OPT_PLAYERS
};

static const struct option long_options[] = {
    {"agent", required_argument, NULL, 'a'},
    {"episodes", required_argument, NULL, 'n'},
    {"steps", required_argument, NULL, OPT_STEPS},
    CRAFTER_OPTION_SEED_ENTRY,
    {"first-episode", required_argument, NULL, 'e'},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"players", required_argument, NULL, OPT_PLAYERS},
    {"obs", required_argument, NULL, OPT_OBS},
    {"textures", required_argument, NULL, 't'},
    CRAFTER_OPTION_AREA_ENTRY,
    CRAFTER_OPTION_VIEW_ENTRY,
    CRAFTER_OPTION_SIZE_ENTRY,
    CRAFTER_OPTION_NO_REWARD_ENTRY,
    CRAFTER_OPTION_TASK_ENTRIES,
    CRAFTER_OPTION_LEVEL_ENTRIES,
    {"config", required_argument, NULL, 'c'},
    {"world", required_argument, NULL, 'w'},
    {"threads", required_argument, NULL, 'T'},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {"resimulate", no_argument, NULL, 'r'},
    {"format", required_argument, NULL, 'f'},
    {"episode", required_argument, NULL, 'E'},
    {"fps", required_argument, NULL, OPT_FPS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* What the options said, for the command that runs. */
typedef struct arguments {
  const char *command;
  crafter_record_options record;
  int quiet, resimulate, fps;
  const char *output, *textures, *format, *steps, *config_path, *world_path;
  long episode;
  unsigned given; /* enum crafter_given */
  crafter_task_options tasks;
  crafter_level_options levels;
  int first_episode_given;
  char **files;
  int file_count;
  char error[1024];
} arguments;

/* One command: its name, the options it takes (short letters or long
 * names), and the function that runs it; as git's commands, one each. */
typedef struct command {
  const char *name;
  const char *options;
  int (*run)(arguments *a);
} command;

static int report(arguments *a, int status) {
  if (status && a->error[0]) fprintf(stderr, PROGRAM ": %s\n", a->error);
  return crafter_close_stdout(PROGRAM, status);
}

static void need_files(const arguments *a, int most) {
  if (a->file_count < 1) usage_error("%s needs a trajectory file", a->command);
  if (most == 1 && a->file_count > 1) {
    char message[160];
    snprintf(message, sizeof(message), "%s takes one file", a->command);
    usage_error("%s", message);
  }
}

static int run_record(arguments *a) {
  crafter_record_options *record = &a->record;
  if (a->file_count > 0)
    usage_error("unexpected argument '%s' (the output is given with -o)", a->files[0]);
  if (!a->output) usage_error("%s", "record needs an output file: -o FILE");
  if (a->textures && record->obs_kind != CRAFTER_OBS_PIXELS)
    usage_error("%s", "--textures needs --obs pixels");
  if (record->shard_index > record->episodes)
    fprintf(stderr, PROGRAM ": note: shard %d of %d holds no episode of %lld\n",
            record->shard_index, record->shard_count, (long long)record->episodes);
  record->textures = a->textures;
  record->output = a->output;
  record->progress = !a->quiet && isatty(STDERR_FILENO) ? stderr : NULL;
  crafter_task_options_check(PROGRAM, &a->tasks);
  crafter_level_options_check(PROGRAM, &a->levels);
  int use_levels = crafter_level_options_wanted(&a->levels);
  if (use_levels && (a->first_episode_given || a->world_path))
    usage_error("%s", "--levels chooses each episode's world: not with --first-episode or --world");
  crafter_rules rules;
  int ruled = crafter_rules_open(a->config_path, a->world_path, &record->params, a->given, &rules,
                                 a->error, sizeof(a->error));
  if (ruled != 0) {
    crafter_rules_free(&rules);
    return report(a, ruled);
  }
  record->config = rules.config;
  record->config_text = rules.config_text;
  record->config_bytes = rules.config_bytes;
  record->world = rules.world;
  record->world_text = rules.world_text;
  record->world_bytes = rules.world_bytes;
  crafter_level_set levels;
  memset(&levels, 0, sizeof(levels));
  if (use_levels) {
    int opened = crafter_level_options_open(&a->levels, &record->params, a->given, record->config,
                                            &levels, a->error, sizeof(a->error));
    if (opened != 0) {
      crafter_rules_free(&rules);
      return report(a, opened);
    }
    record->levels = &levels;
    record->level_order = a->levels.order;
  }
  crafter_task_set set;
  crafter_task_pool pool;
  if (a->tasks.path) {
    int opened = crafter_tasks_open(a->tasks.path, a->tasks.split, a->tasks.id, &set, &pool,
                                    a->error, sizeof(a->error));
    if (opened < 0) {
      crafter_levels_free(&levels);
      crafter_rules_free(&rules);
      return report(a, opened == -2 ? 2 : 1);
    }
    record->tasks = &pool;
  }
  int status = crafter_dataset_record(record, a->error, sizeof(a->error));
  if (a->tasks.path) {
    crafter_task_pool_free(&pool);
    crafter_task_set_free(&set);
  }
  crafter_levels_free(&levels);
  crafter_rules_free(&rules);
  return report(a, status);
}

static int run_info(arguments *a) {
  need_files(a, 0);
  int status = 0;
  for (int i = 0; i < a->file_count; i++) {
    if (i) putchar('\n');
    if (crafter_dataset_info(a->files[i], stdout, a->error, sizeof(a->error)) != 0) {
      fprintf(stderr, PROGRAM ": %s\n", a->error);
      status = 1;
    }
  }
  return crafter_close_stdout(PROGRAM, status);
}

static int run_list(arguments *a) {
  need_files(a, 0);
  if (a->file_count > 1) usage_error("list takes one file, not '%s' too", a->files[1]);
  return report(a, crafter_dataset_list(a->files[0], stdout, stderr, a->error, sizeof(a->error)));
}

static int run_verify(arguments *a) {
  need_files(a, 0);
  int status = 0;
  for (int i = 0; i < a->file_count; i++) {
    a->error[0] = '\0';
    int result = crafter_dataset_verify(a->files[i], a->resimulate, a->textures, stdout, a->error,
                                        sizeof(a->error));
    if (result && a->error[0]) fprintf(stderr, PROGRAM ": %s\n", a->error);
    if (result) status = 1;
  }
  return crafter_close_stdout(PROGRAM, status);
}

static int run_merge(arguments *a) {
  need_files(a, 0);
  if (!a->output) usage_error("%s", "merge needs an output file: -o FILE");
  return report(a, crafter_dataset_merge((const char *const *)a->files, a->file_count, a->output,
                                         stderr, PROGRAM, a->error, sizeof(a->error)));
}

/* stats.jsonl to standard output or, whole or not at all, to -o FILE. */
static int export_stats(arguments *a) {
  FILE *out = stdout;
  crafter_outfile whole = {0};
  if (a->output && strcmp(a->output, "-") != 0) {
    if (crafter_outfile_open(&whole, a->output, a->error, sizeof(a->error)) < 0) return 1;
    out = whole.file;
  }
  int status = crafter_dataset_export_stats(a->files[0], out, stderr, a->error, sizeof(a->error));
  if (out != stdout) {
    if (status)
      crafter_outfile_abort(&whole);
    else if (crafter_outfile_commit(&whole, a->error, sizeof(a->error)) < 0)
      status = 1;
  }
  return status;
}

static int run_export(arguments *a) {
  need_files(a, 1);
  if (!a->format) usage_error("%s", "export needs --format stats or --format npz");
  if (strcmp(a->format, "stats") == 0) return report(a, export_stats(a));
  if (!a->output) usage_error("%s", "--format npz needs a directory: -o DIR");
  return report(a, crafter_dataset_export_npz(a->files[0], a->output, a->textures, stdout, stderr,
                                              a->error, sizeof(a->error)));
}

static crafter_frames_options frames_options(const arguments *a) {
  crafter_frames_options frames = {.episode = a->episode, .steps = a->steps,
                                   .textures = a->textures, .fps = a->fps, .format = a->format,
                                   .ffmpeg = getenv("CRAFTER_FFMPEG")};
  if (a->given & CRAFTER_GIVEN_SIZE) {
    frames.size[0] = a->record.params.size[0];
    frames.size[1] = a->record.params.size[1];
  }
  return frames;
}

static int run_frames(arguments *a) {
  need_files(a, 1);
  crafter_frames_options frames = frames_options(a);
  return report(a, crafter_dataset_frames(a->files[0], &frames, a->output ? a->output : ".",
                                          stdout, a->error, sizeof(a->error)));
}

static int run_video(arguments *a) {
  need_files(a, 1);
  if (!a->output) usage_error("%s", "video needs an output file: -o FILE.gif or -o FILE.mp4");
  crafter_frames_options frames = frames_options(a);
  return report(a, crafter_dataset_video(a->files[0], &frames, a->output, a->error,
                                         sizeof(a->error)));
}

static const command commands[] = {
    {"record", "a n steps s e shard players obs t area view size no-reward tasks split task levels start-level level-order c w T o q", run_record},
    {"info", "", run_info},
    {"list", "", run_list},
    {"verify", "r t", run_verify},
    {"merge", "o", run_merge},
    {"export", "f o t", run_export},
    {"frames", "E S steps o t size", run_frames},
    {"video", "E S steps o t size fps f", run_video},
};

static int option_allowed(const command *c, const struct option *option, int short_name) {
  char name[32];
  if (option)
    snprintf(name, sizeof(name), "%s", option->name);
  else
    snprintf(name, sizeof(name), "%c", short_name);
  char list[128];
  snprintf(list, sizeof(list), " %s ", c->options);
  char word[40];
  snprintf(word, sizeof(word), " %s ", name);
  if (strstr(list, word)) return 1;
  /* a long option is allowed when its short letter is */
  if (option && option->val < 256) {
    snprintf(word, sizeof(word), " %c ", option->val);
    return strstr(list, word) != NULL;
  }
  return 0;
}

/* Reads the options of command c into a; exits on a bad one. */
static void parse(const command *c, int count, char **args, arguments *a) {
  crafter_params_default(&a->record.params);
  a->record.first_episode = 1;
  a->record.episodes = 100;
  a->record.shard_index = a->record.shard_count = 1;
  a->steps = "all";
  a->fps = 10;
  crafter_task_options_init(&a->tasks);
  crafter_level_options_init(&a->levels);
  int64_t number;
  int option, index;
  optind = 1;
  /* getopt names the program by args[0]: the command's full name. */
  static char name[64];
  snprintf(name, sizeof(name), PROGRAM " %s", c->name);
  args[0] = name;
  while ((option = getopt_long(count, args, "a:n:s:e:t:o:qf:E:S:c:w:T:hV", long_options, &index)) != -1) {
    if (option == 'h') {
      usage(stdout);
      exit(crafter_close_stdout(PROGRAM, 0));
    }
    if (option == 'V') {
      printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
      exit(crafter_close_stdout(PROGRAM, 0));
    }
    if (option == '?') {
      fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
      exit(2);
    }
    const struct option *found = NULL;
    for (const struct option *o = long_options; o->name; o++)
      if (o->val == option) found = o;
    if (!option_allowed(c, found, option)) {
      char message[160];
      snprintf(message, sizeof(message), "%s does not take the option --%s", c->name,
               found ? found->name : "steps");
      usage_error("%s", message);
    }
    int for_frames = strcmp(c->name, "frames") == 0 || strcmp(c->name, "video") == 0;
    switch (option) {
      case 'a':
        a->record.agent = crafter_agent_from_name(optarg);
        if (a->record.agent < 0)
          usage_error("invalid agent '%s' (expected random or scripted)", optarg);
        break;
      case 'n':
        if (crafter_parse_int64(optarg, 1, INT32_MAX, &a->record.episodes) < 0)
          usage_error("invalid episode count '%s' (expected a positive integer)", optarg);
        break;
      case OPT_STEPS:
        if (for_frames) {
          a->steps = optarg;
          break;
        }
        number = crafter_option_int64(PROGRAM, "step limit", optarg, 1, CRAFTER_LENGTH_MAX);
        a->record.params.length = (long)number;
        a->given |= CRAFTER_GIVEN_LENGTH;
        break;
      case 'e':
        a->record.first_episode = crafter_option_int64(PROGRAM, "first episode", optarg, 1,
                                                       CRAFTER_EPISODE_MAX);
        a->first_episode_given = 1;
        break;
      case OPT_PLAYERS: {
        int64_t players;
        if (crafter_parse_int64(optarg, 1, CRAFTER_PLAYERS_MAX, &players) < 0)
          usage_error("invalid number of players '%s' (expected 1..16)", optarg);
        a->record.players = (int)players;
        break;
      }
      case OPT_SHARD: {
        int shard[2];
        const char *slash = strchr(optarg, '/');
        char text[64];
        snprintf(text, sizeof(text), "%s", optarg);
        char *separator = strchr(text, '/');
        if (separator) *separator = ',';
        if (!slash || crafter_parse_pair(text, 1, 1000000, shard) < 0 || shard[0] > shard[1])
          usage_error("invalid shard '%s' (expected K/N with 1 <= K <= N)", optarg);
        a->record.shard_index = shard[0];
        a->record.shard_count = shard[1];
        break;
      }
      case OPT_OBS:
        a->record.obs_kind = crafter_obs_kind_from_name(optarg);
        if (a->record.obs_kind < 0 || a->record.obs_kind == CRAFTER_OBS_TEXT)
          usage_error("invalid observation kind '%s' (expected none, pixels, semantic or symbolic)",
                      optarg);
        break;
      case 't': a->textures = optarg; break;
      case OPT_FPS:
        if (crafter_parse_int64(optarg, 1, 100, &number) < 0)
          usage_error("invalid frame rate '%s' (expected 1 to 100 frames a second)", optarg);
        a->fps = (int)number;
        break;
      case 'o': a->output = optarg; break;
      case 'c': a->config_path = optarg; break;
      case 'w': a->world_path = optarg; break;
      case 'T':
        a->record.threads = (int)crafter_option_int64(PROGRAM, "number of threads", optarg, 1, 1024);
        break;
      case 'q': a->quiet = 1; break;
      case 'r': a->resimulate = 1; break;
      case 'f':
        if (strcmp(c->name, "video") != 0 && strcmp(optarg, "stats") != 0 &&
            strcmp(optarg, "npz") != 0)
          usage_error("invalid format '%s' (expected stats or npz)", optarg);
        a->format = optarg;
        break;
      case 'E':
        if (crafter_parse_int64(optarg, 0, INT32_MAX, &number) < 0)
          usage_error("invalid episode '%s' (expected an index from 0)", optarg);
        a->episode = (long)number;
        break;
      case 'S': a->steps = optarg; break;
      default:
        if (crafter_env_option(PROGRAM, option, optarg, &a->record.params, &a->given)) break;
        if (crafter_task_option(PROGRAM, option, optarg, &a->tasks)) break;
        if (crafter_level_option(PROGRAM, option, optarg, &a->levels)) break;
        exit(2);
    }
  }
  a->files = args + optind;
  a->file_count = count - optind;
}

int main(int argc, char **argv) {
  if (argc < 2)
    usage_error("%s", "no command given (record, info, list, verify, merge, export, frames or "
                      "video)");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return crafter_close_stdout(PROGRAM, 0);
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
    printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
    return crafter_close_stdout(PROGRAM, 0);
  }
  /* A temporary being written goes when a signal ends the program. */
  crafter_outfile_remove_on_signals();
  const command *c = NULL;
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
    if (strcmp(commands[i].name, argv[1]) == 0) c = &commands[i];
  if (!c)
    usage_error("unknown command '%s' (expected record, info, list, verify, merge, export, "
                "frames or video)",
                argv[1]);
  static arguments a;
  a.command = c->name;
  parse(c, argc - 1, argv + 1, &a);
  return c->run(&a);
}
