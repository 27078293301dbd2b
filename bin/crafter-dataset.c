/* crafter-dataset: record, inspect, convert, merge and verify trajectory
 * files.  Options are parsed here; the library does the rest. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "game/games.h"
#include "run/envopts.h"
#include "run/proto.h"
#include "tools/agents.h"
#include "tools/dataset.h"

#define PROGRAM "crafter-dataset"

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

/* What the options said, for the command that runs. */
typedef struct arguments {
  const char *command;
  crafter_dataset_record_options record; /* record's run: its textures also those of the others */
  int quiet, resimulate, fps;
  const char *output, *format, *steps;
  int64_t episode;
  char **files;
  int file_count;
  char error[1024];
} arguments;

static void read_agent(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument) {
  arguments *a = parser->own;
  a->record.agent = crafter_agent_from_name(argument);
  if (a->record.agent < 0) crafter_opt_fail(parser, entry, entry->invalid, argument);
}

/* --steps: record's step limit (the run's length), or the steps frames
 * and video draw. */
static void read_steps(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument) {
  arguments *a = parser->own;
  if (strcmp(a->command, "frames") == 0 || strcmp(a->command, "video") == 0) {
    a->steps = argument;
    return;
  }
  crafter_run *run = parser->run;
  run->params.length = (long)crafter_option_int64(PROGRAM, entry->what, argument, entry->minimum,
                                                  entry->maximum);
  run->given |= CRAFTER_GIVEN_LENGTH;
}

static void read_shard(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument) {
  arguments *a = parser->own;
  int shard[2];
  const char *slash = strchr(argument, '/');
  char text[64];
  snprintf(text, sizeof(text), "%s", argument);
  char *separator = strchr(text, '/');
  if (separator) *separator = ',';
  if (!slash || crafter_parse_pair(text, 1, 1000000, shard) < 0 || shard[0] > shard[1])
    crafter_opt_fail(parser, entry, entry->invalid, argument);
  a->record.shard_index = shard[0];
  a->record.shard_count = shard[1];
}

static void read_format(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  arguments *a = parser->own;
  if (strcmp(a->command, "video") != 0 && strcmp(argument, "stats") != 0 &&
      strcmp(argument, "npz") != 0)
    crafter_opt_fail(parser, entry, entry->invalid, argument);
  a->format = argument;
}

#define OWN(field) .offset = offsetof(arguments, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT(
        "Usage: " PROGRAM " COMMAND [OPTION]... [FILE]...\n"
        "Record, inspect, convert, merge and verify trajectory files of Crafter and\n"
        "Craftax-Classic (crafter-trajectory(5), crafter-games(7)).\n"
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
        "record:\n"),
    {.letter = 'a', .name = "agent", .argument = "NAME", .store = read_agent,
     .invalid = "invalid agent '%s' (expected random or scripted)",
     .help = "random (default) or scripted (Crafter's only)"},
    CRAFTER_SHARED(EPISODES, .help = "episodes in the whole dataset (default 100)",
                   .flags = CRAFTER_OPT_LIMITS, .minimum = 1, .maximum = INT32_MAX,
                   .invalid = "invalid episode count '%s' (expected a positive integer)"),
    {.name = "steps", .argument = "N", .store = read_steps, .what = "step limit", .minimum = 1,
     .maximum = CRAFTER_LENGTH_MAX,
     .help = "steps per episode at most: Crafter's length, the time\n"
             "limit that ends an episode (default 10000)"},
    CRAFTER_SHARED(GAME, .help = "crafter (default) or craftax-classic\n"
                                 "(crafter-games(7)); the other commands: the game\n"
                                 "the files must hold"),
    CRAFTER_SHARED(SEED, .help = "the Env seed (default 0)"),
    CRAFTER_SHARED(FIRST_EPISODE),
    {.name = "shard", .argument = "K/N", .store = read_shard,
     .invalid = "invalid shard '%s' (expected K/N with 1 <= K <= N)",
     .help = "record only shard K of N (1 <= K <= N): the episodes\n"
             "whose index from 0 is K-1 modulo N; merging the N\n"
             "shards gives the file recorded at once"},
    CRAFTER_SHARED(ENVS, .help = "craftax-classic: N envs, env e playing seed S+e's\n"
                                 "episodes one after the other; episode i of the dataset\n"
                                 "is env i % N's; a shard takes whole envs (default 1)"),
    CRAFTER_SHARED(PLAYERS, .help = "P players a world (1..16), each played by an agent\n"
                                    "of --agent's kind; each player's episode is a chunk"),
    CRAFTER_SHARED(OBS, .help = "store observations: none (default), pixels,\n"
                                "semantic or symbolic",
                   .flags = CRAFTER_OPT_NO_LETTER | CRAFTER_OPT_LIMITS,
                   .minimum = CRAFTER_OBS_NONE, .maximum = CRAFTER_OBS_SYMBOLIC,
                   .invalid = "invalid observation kind '%s' (expected none, pixels, semantic "
                              "or symbolic)"),
    CRAFTER_SHARED(TEXTURES, .help = "draw pixels with the PNG files in DIR (default:\n"
                                     "the folder $CRAFTER_TEXTURES names, else built-in)"),
    CRAFTER_OPT_TEXT(
        "      --area=W,H --view=W,H --size=W,H --no-reward   as in crafter-step(1)\n"),
    CRAFTER_SHARED(AREA, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(VIEW, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(SIZE, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(NO_REWARD, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(TASKS, .help = "give each episode a goal from the task file FILE\n"
                                  "(crafter-task(5)), drawn from its seed and episode:\n"
                                  "the scripted agent pursues it, an episode ends when\n"
                                  "it is met"),
    CRAFTER_SHARED(SPLIT),
    CRAFTER_SHARED(TASK),
    CRAFTER_SHARED(LEVELS, .help = "play on a level set (crafter-levels(5)): levels\n"
                                   "1..N of --seed or a level file; episode i's level\n"
                                   "depends on i alone"),
    CRAFTER_OPT_TEXT("      --start-level=K --level-order=random|sequential   as in "
                     "crafter-step(1)\n"),
    CRAFTER_SHARED(START_LEVEL, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(LEVEL_ORDER, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(CONFIG, .help = "play by the configuration FILE (crafter-config(5)),\n"
                                   "stored in the file for replays"),
    CRAFTER_SHARED(WORLD, .help = "start every episode on the world file FILE\n"
                                  "(crafter-world(5))"),
    CRAFTER_SHARED(THREADS, .help = "play T episodes at once (default 1); the file is the\n"
                                    "same bytes whatever T is",
                   .flags = CRAFTER_OPT_LIMITS, .minimum = 1, .maximum = 1024),
    {.letter = 'o', .name = "output", .argument = "FILE", .store = crafter_opt_string,
     OWN(output), .help = "the file to write (required)"},
    {.letter = 'q', .name = "quiet", .store = crafter_opt_flag, OWN(quiet),
     .help = "no progress bar (drawn only when stderr is a terminal)"},
    CRAFTER_OPT_TEXT(
        "\n"
        "--game=NAME (not record): the game the files must hold (default: any)\n"
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
        "                              (craftax-classic: Craftax's assets folder, its\n"
        "                              episodes replayed; default: the built-in ones)\n"
        "         --size=W,H           scale to W x H (N: N x N) by nearest neighbour,\n"
        "                              as Pillow does (512: 8x8 blocks of 64x64)\n"
        "video:   -E, -S, -t, --size   as for frames\n"
        "         -o, --output=FILE    the video (required); its extension picks the\n"
        "                              format: gif here, others through ffmpeg\n"
        "         -f, --format=KIND    gif, mp4, m4v, mov, mkv, webm or avi, for a\n"
        "                              name without one (such as /dev/stdout)\n"
        "         --fps=N              frames a second, 1 to 100 (default 10)\n"
        "         CRAFTER_FFMPEG names the encoder (default ffmpeg)\n"
        "\n"),
    {.name = "resimulate", .store = crafter_opt_flag, OWN(resimulate)},
    {.letter = 'f', .name = "format", .argument = "KIND", .store = read_format,
     .invalid = "invalid format '%s' (expected stats or npz)"},
    {.letter = 'E', .name = "episode", .argument = "I", .store = crafter_opt_int64, OWN(episode),
     .minimum = 0, .maximum = INT32_MAX,
     .invalid = "invalid episode '%s' (expected an index from 0)"},
    {.name = "fps", .argument = "N", .store = crafter_opt_int, OWN(fps), .minimum = 1,
     .maximum = 100, .invalid = "invalid frame rate '%s' (expected 1 to 100 frames a second)"},
    {.letter = 'S', .argument = "LIST", .store = crafter_opt_string, OWN(steps)},
    CRAFTER_SHARED(HELP),
    CRAFTER_SHARED(VERSION),
    CRAFTER_OPT_TEXT(
        "\n"
        "Exit status: 0 on success; 1 on bad input or a failed check; 2 on bad options.\n"
        "See crafter-dataset(1) and crafter-trajectory(5).\n"),
    CRAFTER_OPT_END,
};

static const crafter_opt_table table = {PROGRAM, 26, entries, NULL};

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
  crafter_dataset_record_options *record = &a->record;
  crafter_run *run = &record->run;
  if (a->file_count > 0)
    usage_error("unexpected argument '%s' (the output is given with -o)", a->files[0]);
  if (!a->output) usage_error("%s", "record needs an output file: -o FILE");
  if (run->textures && run->obs_kind != CRAFTER_OBS_PIXELS)
    usage_error("%s", "--textures needs --obs pixels");
  record->progress = !a->quiet && isatty(STDERR_FILENO) ? stderr : NULL;
  if (run->game == CRAFTER_GAME_CRAFTAX)
    usage_error("%s", "--game craftax: Craftax plays in crafter-step and crafter-bench; this "
                      "program takes crafter and craftax-classic (crafter-games(7))");
  if (run->game != CRAFTER_GAME_CRAFTER) {
    char message[256];
    const char *name = crafter_game_info_of(run->game)->name;
    if (record->agent != CRAFTER_AGENT_RANDOM) {
      snprintf(message, sizeof(message),
               "--agent %s plays Crafter (it reads Crafter's state): --game %s records the "
               "random agent only",
               crafter_agent_name(record->agent), name);
      usage_error("%s", message);
    }
    if (run->given & CRAFTER_GIVEN_LENGTH) {
      snprintf(message, sizeof(message),
               "--steps is Crafter's time limit: the episodes of --game %s end by its own "
               "rules (at 10000 steps at most)",
               name);
      usage_error("%s", message);
    }
    crafter_game_options_check(PROGRAM, run);
    if (record->shard_index > run->envs || record->shard_index > run->episodes)
      fprintf(stderr, PROGRAM ": note: shard %d of %d holds no env of %d with an episode\n",
              record->shard_index, record->shard_count, run->envs);
  } else if (run->envs != 1) {
    usage_error("%s", "--envs is Craftax-Classic's (its episodes are chains): Crafter's are "
                      "recorded on --threads");
  } else if (record->shard_index > run->episodes) {
    fprintf(stderr, PROGRAM ": note: shard %d of %d holds no episode of %lld\n",
            record->shard_index, record->shard_count, (long long)run->episodes);
  }
  run->record_path = a->output;
  crafter_task_options_check(PROGRAM, &run->tasks);
  crafter_level_options_check(PROGRAM, &run->levels);
  if (crafter_level_options_wanted(&run->levels) && (run->first_episode_given || run->world_path))
    usage_error("%s", "--levels chooses each episode's world: not with --first-episode or --world");
  int status = crafter_run_open_rules(run, a->error, sizeof(a->error));
  if (status == 0) status = crafter_run_open_levels(run, a->error, sizeof(a->error));
  if (status == 0) status = crafter_run_open_tasks(run, a->error, sizeof(a->error));
  if (status == 0) status = crafter_dataset_record(record, a->error, sizeof(a->error));
  crafter_run_free(run);
  return report(a, status);
}

/* The game the files must hold: --game's, or -1 for any. */
static int wanted_game(const arguments *a) {
  return a->record.run.game_given ? a->record.run.game : -1;
}

static int run_info(arguments *a) {
  need_files(a, 0);
  int status = 0;
  for (int i = 0; i < a->file_count; i++) {
    if (i) putchar('\n');
    if (crafter_dataset_info(a->files[i], wanted_game(a), stdout, a->error, sizeof(a->error)) != 0) {
      fprintf(stderr, PROGRAM ": %s\n", a->error);
      status = 1;
    }
  }
  return crafter_close_stdout(PROGRAM, status);
}

static int run_list(arguments *a) {
  need_files(a, 0);
  if (a->file_count > 1) usage_error("list takes one file, not '%s' too", a->files[1]);
  return report(a, crafter_dataset_list(a->files[0], wanted_game(a), stdout, stderr, a->error, sizeof(a->error)));
}

static int run_verify(arguments *a) {
  need_files(a, 0);
  int status = 0;
  for (int i = 0; i < a->file_count; i++) {
    a->error[0] = '\0';
    int result = crafter_dataset_verify(a->files[i], wanted_game(a), a->resimulate, a->record.run.textures, stdout,
                                        a->error,
                                        sizeof(a->error));
    if (result && a->error[0]) fprintf(stderr, PROGRAM ": %s\n", a->error);
    if (result) status = 1;
  }
  return crafter_close_stdout(PROGRAM, status);
}

static int run_merge(arguments *a) {
  need_files(a, 0);
  if (!a->output) usage_error("%s", "merge needs an output file: -o FILE");
  return report(a, crafter_dataset_merge((const char *const *)a->files, a->file_count, wanted_game(a), a->output,
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
  int status = crafter_dataset_export_stats(a->files[0], wanted_game(a), out, stderr, a->error, sizeof(a->error));
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
  return report(a, crafter_dataset_export_npz(a->files[0], wanted_game(a), a->output, a->record.run.textures,
                                              stdout, stderr,
                                              a->error, sizeof(a->error)));
}

static crafter_frames_options frames_options(const arguments *a) {
  crafter_frames_options frames = {.episode = a->episode, .steps = a->steps,
                                   .textures = a->record.run.textures, .fps = a->fps,
                                   .format = a->format,
                                   .ffmpeg = getenv("CRAFTER_FFMPEG"), .game = wanted_game(a)};
  const crafter_run *run = &a->record.run;
  if (run->given & CRAFTER_GIVEN_SIZE) {
    frames.size[0] = run->params.size[0];
    frames.size[1] = run->params.size[1];
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
    {"record", "game a n steps s e shard N players obs t area view size no-reward tasks split task levels start-level level-order c w T o q", run_record},
    {"info", "game", run_info},
    {"list", "game", run_list},
    {"verify", "game resimulate t", run_verify},
    {"merge", "game o", run_merge},
    {"export", "game f o t", run_export},
    {"frames", "game E S steps o t size", run_frames},
    {"video", "game E S steps o t size fps f", run_video},
};

/* Whether `word` is one of the space-separated words of `list`. */
static int listed(const char *list, const char *word) {
  size_t length = strlen(word);
  for (const char *at = list + strspn(list, " "); *at; at += strspn(at, " ")) {
    size_t span = strcspn(at, " ");
    if (span == length && strncmp(at, word, length) == 0) return 1;
    at += span;
  }
  return 0;
}

/* Whether command c takes the option: its list names its long name or
 * its letter. */
static int option_allowed(const command *c, const crafter_opt *entry) {
  const char letter[2] = {(char)entry->letter, '\0'};
  return (entry->name && listed(c->options, entry->name)) ||
         (entry->letter && listed(c->options, letter));
}

/* Reads the options of command c into a; exits on a bad one. */
static void parse(const command *c, int count, char **args, arguments *a) {
  crafter_run *run = &a->record.run;
  crafter_run_init(run);
  run->episodes = 100;
  a->record.shard_index = a->record.shard_count = 1;
  a->steps = "all";
  a->fps = 10;
  optind = 1;
  /* getopt names the program by args[0]: the command's full name. */
  static char name[64];
  snprintf(name, sizeof(name), PROGRAM " %s", c->name);
  args[0] = name;
  crafter_opt_parser parser;
  crafter_opt_start(&parser, &table, run, a);
  const crafter_opt *entry;
  const char *argument;
  while ((entry = crafter_opt_next(&parser, count, args, &argument))) {
    if (!option_allowed(c, entry)) {
      char message[160];
      /* -S is the only option without a long name */
      snprintf(message, sizeof(message), "%s does not take the option --%s", c->name,
               entry->name ? entry->name : "steps");
      usage_error("%s", message);
    }
    crafter_opt_store_entry(&parser, entry, argument);
  }
  a->files = args + optind;
  a->file_count = count - optind;
}

int main(int argc, char **argv) {
  if (argc < 2)
    usage_error("%s", "no command given (record, info, list, verify, merge, export, frames or "
                      "video)");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    crafter_opt_usage(&table, stdout);
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
