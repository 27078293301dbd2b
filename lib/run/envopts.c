#include "run/envopts.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "game/games.h"
#include "game/tasks.h"
#include "run/levels.h"
#include "run/proto.h"

static void pair(const crafter_opt_parser *parser, const crafter_opt *entry, const char *argument,
                 int out[2], unsigned mark) {
  if (crafter_parse_pair(argument, 1, 4096, out) < 0) {
    char format[96];
    snprintf(format, sizeof(format), "invalid %s '%%s' (expected W,H from 1 to 4096)",
             entry->name);
    crafter_opt_fail(parser, entry, format, argument);
  }
  parser->run->given |= mark;
}

static void read_game(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  int game = crafter_game_from_name(argument);
  if (game < 0) {
    char format[160];
    snprintf(format, sizeof(format), "unknown game '%%s' (the games are %s)",
             crafter_game_names());
    crafter_opt_fail(parser, entry, format, argument);
  }
  parser->run->game = game;
  parser->run->game_given = 1;
}

static void read_seed(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  crafter_opt_int64(parser, entry, argument);
  parser->run->given |= CRAFTER_GIVEN_SEED;
}

static void read_area(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  pair(parser, entry, argument, parser->run->params.area, CRAFTER_GIVEN_AREA);
}

static void read_view(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  pair(parser, entry, argument, parser->run->params.view, CRAFTER_GIVEN_VIEW);
}

static void read_size(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  pair(parser, entry, argument, parser->run->params.size, CRAFTER_GIVEN_SIZE);
}

static void read_length(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  crafter_run *run = parser->run;
  run->params.length = (long)crafter_option_int64(parser->program, entry->what, argument,
                                                  entry->minimum, entry->maximum);
  run->given |= CRAFTER_GIVEN_LENGTH;
}

static void read_no_reward(const crafter_opt_parser *parser, const crafter_opt *entry,
                           const char *argument) {
  (void)entry, (void)argument;
  parser->run->params.reward = 0;
  parser->run->given |= CRAFTER_GIVEN_REWARD;
}

static void read_first_episode(const crafter_opt_parser *parser, const crafter_opt *entry,
                               const char *argument) {
  crafter_opt_int64(parser, entry, argument);
  parser->run->first_episode_given = 1;
}

static void read_split(const crafter_opt_parser *parser, const crafter_opt *entry,
                       const char *argument) {
  crafter_task_options *tasks = &parser->run->tasks;
  tasks->split = crafter_task_split_from_name(argument);
  if (tasks->split < 0) crafter_opt_fail(parser, entry, entry->invalid, argument);
}

static void read_levels(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  crafter_level_options *levels = &parser->run->levels;
  if (!*argument) crafter_opt_fail(parser, entry, "%s", entry->invalid);
  if (strspn(argument, "0123456789") == strlen(argument)) {
    levels->count = (int)crafter_option_int64(parser->program, entry->what, argument,
                                              entry->minimum, entry->maximum);
    levels->path = NULL;
  } else {
    levels->path = argument;
    levels->count = 0;
  }
}

static void read_level_order(const crafter_opt_parser *parser, const crafter_opt *entry,
                             const char *argument) {
  crafter_level_options *levels = &parser->run->levels;
  levels->order = crafter_level_order_from_name(argument);
  if (levels->order < 0) crafter_opt_fail(parser, entry, entry->invalid, argument);
  levels->order_given = 1;
}

static void read_obs(const crafter_opt_parser *parser, const crafter_opt *entry,
                     const char *argument) {
  int kind = crafter_obs_kind_from_name(argument);
  if (kind < entry->minimum || kind > entry->maximum)
    crafter_opt_fail(parser, entry, entry->invalid, argument);
  parser->run->obs_kind = kind;
}

#define IN_RUN(field) .offset = offsetof(crafter_run, field)

const crafter_opt crafter_shared_options[CRAFTER_OPTION_COUNT] = {
    [CRAFTER_OPTION_GAME] = {.name = "game", .argument = "NAME",
                             .help = "crafter (default), craftax-classic or craftax\n"
                                     "(crafter-games(7))",
                             .store = read_game},
    [CRAFTER_OPTION_SEED] = {.letter = 's', .name = "seed", .argument = "N",
                             .help = "the Env seed (default 0); env i uses N+i",
                             .store = read_seed, IN_RUN(params.seed), .what = "seed",
                             .minimum = CRAFTER_SEED_MIN, .maximum = CRAFTER_SEED_MAX},
    [CRAFTER_OPTION_FIRST_EPISODE] = {.letter = 'e', .name = "first-episode", .argument = "E",
                                      .help = "episode counter of the first episode (default 1)",
                                      .store = read_first_episode, IN_RUN(first_episode),
                                      .what = "first episode", .minimum = 1,
                                      .maximum = CRAFTER_EPISODE_MAX},
    [CRAFTER_OPTION_EPISODES] = {.letter = 'n', .name = "episodes", .argument = "N",
                                 .help = "stop after N episodes in all, resetting after each\n"
                                         "(default 1 with one env in JSON lines, else 0:\n"
                                         "run until the input ends)",
                                 .store = crafter_opt_int64, IN_RUN(episodes), .minimum = 0,
                                 .maximum = INT64_MAX,
                                 .invalid = "invalid episode count '%s' (expected 0 or more)"},
    [CRAFTER_OPTION_AREA] = {.name = "area", .argument = "W,H",
                             .help = "world size in cells (default 64,64)", .store = read_area},
    [CRAFTER_OPTION_VIEW] = {.name = "view", .argument = "W,H",
                             .help = "view grid in cells (default 9,9)", .store = read_view},
    [CRAFTER_OPTION_SIZE] = {.name = "size", .argument = "W,H",
                             .help = "observation size in pixels (default 64,64)",
                             .store = read_size},
    [CRAFTER_OPTION_LENGTH] = {.name = "length", .argument = "L",
                               .help = "time limit in steps, 0 for none (default 10000)",
                               .store = read_length, .what = "length", .minimum = 0,
                               .maximum = CRAFTER_LENGTH_MAX},
    [CRAFTER_OPTION_NO_REWARD] = {.name = "no-reward",
                                  .help = "report a reward of 0 on every step",
                                  .store = read_no_reward},
    [CRAFTER_OPTION_CONFIG] = {.letter = 'c', .name = "config", .argument = "FILE",
                               .help = "the game's rules and numbers from FILE\n"
                                       "(crafter-config(5)); the options above override\n"
                                       "its env section",
                               .store = crafter_opt_string, IN_RUN(config_path)},
    [CRAFTER_OPTION_WORLD] = {.letter = 'w', .name = "world", .argument = "FILE",
                              .help = "start every episode on the world in FILE\n"
                                      "(crafter-world(5), made or edited with crafter-gen);\n"
                                      "the area is the map's",
                              .store = crafter_opt_string, IN_RUN(world_path)},
    [CRAFTER_OPTION_TASKS] = {.name = "tasks", .argument = "FILE",
                              .help = "give every episode a goal from the task file FILE\n"
                                      "(crafter-task(5)), drawn from the env's seed and\n"
                                      "the episode: records carry its id and instruction,\n"
                                      "text observations start with it; the step that\n"
                                      "meets it adds its reward and ends the episode",
                              .store = crafter_opt_string, IN_RUN(tasks.path),
                              .invalid = "the task file is empty"},
    [CRAFTER_OPTION_SPLIT] = {.name = "split", .argument = "NAME",
                              .help = "only goals of the split train, test-paraphrase or\n"
                                      "test-new-objects",
                              .store = read_split,
                              .invalid = "invalid split '%s' (expected train, test-paraphrase "
                                         "or test-new-objects)"},
    [CRAFTER_OPTION_TASK] = {.name = "task", .argument = "ID", .help = "only the task ID",
                             .store = crafter_opt_string, IN_RUN(tasks.id),
                             .invalid = "the task id is empty"},
    [CRAFTER_OPTION_LEVELS] = {.name = "levels", .argument = "N|FILE",
                               .help = "play on a level set: level k is the world of episode\n"
                                       "k of --seed, stored once and copied at each reset;\n"
                                       "N makes levels 1..N, FILE loads a set saved by\n"
                                       "crafter-gen (crafter-levels(5));\n"
                                       "every env shares the set, records carry \"level\";\n"
                                       "craftax-classic: level k is the first world of\n"
                                       "seed --seed+k-1, env i keeping seed+i's keys",
                               .store = read_levels, .what = "level count", .minimum = 1,
                               .maximum = CRAFTER_LEVELS_MAX,
                               .invalid = "the level file is empty"},
    [CRAFTER_OPTION_START_LEVEL] = {.name = "start-level", .argument = "K",
                                    .help = "with --levels N: the levels are K..K+N-1 (default 1)",
                                    .store = crafter_opt_int64, IN_RUN(levels.start),
                                    .what = "start level", .minimum = 1,
                                    .maximum = CRAFTER_EPISODE_MAX},
    [CRAFTER_OPTION_LEVEL_ORDER] = {.name = "level-order", .argument = "O",
                                    .help = "random (default): each episode draws its level\n"
                                            "from its env's own generator; sequential: env i of\n"
                                            "E plays levels i+1, i+1+E, ... cycling",
                                    .store = read_level_order,
                                    .invalid = "invalid level order '%s' (expected random or "
                                               "sequential)"},
    [CRAFTER_OPTION_ENVS] = {.letter = 'N', .name = "envs", .argument = "N",
                             .help = "run N environments side by side (default 1)",
                             .store = crafter_opt_int, IN_RUN(envs), .minimum = 1,
                             .maximum = 65536,
                             .invalid = "invalid number of envs '%s' (expected 1..65536)"},
    [CRAFTER_OPTION_PLAYERS] = {.name = "players", .argument = "P",
                                .help = "P players share each world (1..16, default 1:\n"
                                        "Crafter); a line (a frame) holds one action per\n"
                                        "player of each env, and each player gets its own\n"
                                        "record (frame entry), see crafter-step(1)",
                                .store = crafter_opt_int, IN_RUN(players), .minimum = 1,
                                .maximum = CRAFTER_PLAYERS_MAX,
                                .invalid = "invalid number of players '%s' (expected 1..16)"},
    [CRAFTER_OPTION_THREADS] = {.letter = 'T', .name = "threads", .argument = "T",
                                .help = "step them on T threads (default 1), with every\n"
                                        "other option; results do not depend on T",
                                .store = crafter_opt_int, IN_RUN(threads),
                                .what = "number of threads", .minimum = 1, .maximum = 1024,
                                .invalid = "invalid number of threads '%s' (expected 1..1024)"},
    [CRAFTER_OPTION_OBS] = {.letter = 'O', .name = "obs", .argument = "KIND",
                            .help = "none (default), pixels, semantic, symbolic, text\n"
                                    "or balrog (BALROG's long and short context)",
                            .store = read_obs, .minimum = CRAFTER_OBS_NONE,
                            .maximum = CRAFTER_OBS_BALROG,
                            .invalid = "invalid observation kind '%s' (expected none, pixels, "
                                       "semantic, symbolic, text or balrog)"},
    [CRAFTER_OPTION_TEXTURES] = {.letter = 't', .name = "textures", .argument = "DIR",
                                 .help = "draw pixels with the PNG files in DIR (Crafter's\n"
                                         "assets folder or one like it) instead of the\n"
                                         "folder $CRAFTER_TEXTURES names, or the built-in\n"
                                         "textures",
                                 .store = crafter_opt_string, IN_RUN(textures)},
    [CRAFTER_OPTION_RECORD] = {.name = "record", .argument = "FILE",
                               .help = "also write every episode to the trajectory file\n"
                                       "FILE (crafter-trajectory(5)), with the observations\n"
                                       "of --obs unless they are text or balrog",
                               .store = crafter_opt_string, IN_RUN(record_path),
                               .invalid = "the file to record to is empty"},
    [CRAFTER_OPTION_HELP] = {.letter = 'h', .name = "help", .help = "show this help and exit",
                             .store = crafter_opt_help},
    [CRAFTER_OPTION_VERSION] = {.letter = 'V', .name = "version",
                                .help = "show the version and exit", .store = crafter_opt_version},
};

void crafter_task_options_check(const char *program, const crafter_task_options *options) {
  if (!options->path && (options->split >= 0 || options->id))
    crafter_usage_error(program, "%s", "--split and --task need --tasks FILE");
}

void crafter_level_options_check(const char *program, const crafter_level_options *options) {
  if (!crafter_level_options_wanted(options) && (options->start || options->order_given))
    crafter_usage_error(program, "%s", "--start-level and --level-order need --levels N or FILE");
  if (options->count && options->start &&
      options->start > (int64_t)CRAFTER_EPISODE_MAX - (options->count - 1))
    crafter_usage_error(program, "%s",
                        "--start-level and --levels go past episode 2**31-1");
}

void crafter_game_options_check(const char *program, const crafter_run *run) {
  crafter_game_options_check_allowing(program, run, 0);
}

void crafter_game_options_check_allowing(const char *program, const crafter_run *run,
                                         unsigned allowed) {
  if (run->game == CRAFTER_GAME_CRAFTER) return;
  const crafter_game_info *game = crafter_game_info_of(run->game);
  static const struct {
    unsigned given;
    const char *option;
  } parameters[] = {{CRAFTER_GIVEN_AREA, "--area"},     {CRAFTER_GIVEN_VIEW, "--view"},
                    {CRAFTER_GIVEN_SIZE, "--size"},     {CRAFTER_GIVEN_LENGTH, "--length"},
                    {CRAFTER_GIVEN_REWARD, "--no-reward"}};
  const char *option = NULL;
  for (size_t k = 0; k < sizeof parameters / sizeof parameters[0] && !option; k++)
    if (run->given & parameters[k].given) option = parameters[k].option;
  if (!option) option = run->config_path                        ? "--config"
                        : run->world_path                       ? "--world"
                        : run->tasks.path                       ? "--tasks"
                        : crafter_level_options_wanted(&run->levels) &&
                                  !(allowed & CRAFTER_GAME_ALLOW_LEVELS)
                            ? "--levels"
                        : run->players > 1                      ? "--players"
                                                                : NULL;
  char message[256];
  int has_pixels = (game->obs_kinds & (1u << CRAFTER_OBS_PIXELS)) != 0;
  int draws = has_pixels && (allowed & CRAFTER_GAME_ALLOW_PIXELS);
  if (!option && run->textures && !(allowed & CRAFTER_GAME_ALLOW_TEXTURES)) {
    if (draws && run->obs_kind != CRAFTER_OBS_PIXELS) {
      snprintf(message, sizeof(message),
               "--textures is for --obs pixels with --game %s (the textures they are drawn "
               "with)",
               game->name);
      crafter_usage_error(program, "%s", message);
    }
    if (!draws) option = "--textures";
  }
  if (!option && run->obs_kind == CRAFTER_OBS_PIXELS && has_pixels && !draws) {
    snprintf(message, sizeof(message),
             "--obs pixels: %s's pixel observations are drawn by crafter-step, not by this "
             "program (crafter-games(7))",
             game->title);
    crafter_usage_error(program, "%s", message);
  }
  if (option) {
    snprintf(message, sizeof(message),
             "%s is Crafter's, not an option of --game %s (crafter-games(7) says what each "
             "game takes)",
             option, game->name);
    crafter_usage_error(program, "%s", message);
  }
  if (!(game->obs_kinds & (1u << run->obs_kind))) {
    char kinds[128] = "";
    for (int kind = 0; kind < CRAFTER_OBS_KIND_COUNT; kind++)
      if (game->obs_kinds & (1u << kind))
        snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds), "%s%s", *kinds ? ", " : "",
                 crafter_obs_kind_name(kind));
    snprintf(message, sizeof(message), "%s has no %s observations (it has %s)", game->title,
             crafter_obs_kind_name(run->obs_kind), kinds);
    crafter_usage_error(program, "%s", message);
  }
}
