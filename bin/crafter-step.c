/* crafter-step: run Crafter driven by actions on stdin, observations and
 * records on stdout.  Options are parsed here; the library does the rest. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "game/config.h"
#include "run/envopts.h"
#include "run/proto.h"
#include "game/games.h"
#include "tools/jsession.h"
#include "tools/session.h"

#define PROGRAM "crafter-step"

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

static void read_info(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  crafter_session_options *options = parser->own;
  options->info = crafter_info_kind_from_name(argument);
  if (options->info < 0) crafter_opt_fail(parser, entry, entry->invalid, argument);
}

static void read_balrog(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  crafter_session_options *options = parser->own;
  char problem[256];
  if (crafter_balrog_settings_read(&options->run.obs_settings.balrog, argument, problem,
                                   sizeof(problem)) < 0)
    crafter_opt_fail(parser, entry, "invalid BALROG settings: %s", problem);
}

#define OWN(field) .offset = offsetof(crafter_session_options, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT(
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
        "Environment (as crafter.Env):\n"),
    CRAFTER_SHARED(GAME),
    CRAFTER_SHARED(SEED),
    CRAFTER_SHARED(FIRST_EPISODE),
    CRAFTER_SHARED(EPISODES),
    CRAFTER_SHARED(AREA),
    CRAFTER_SHARED(VIEW),
    CRAFTER_SHARED(SIZE),
    CRAFTER_SHARED(LENGTH),
    CRAFTER_SHARED(NO_REWARD),
    CRAFTER_SHARED(CONFIG),
    CRAFTER_SHARED(WORLD),
    CRAFTER_SHARED(TASKS),
    CRAFTER_SHARED(SPLIT),
    CRAFTER_SHARED(TASK),
    CRAFTER_SHARED(LEVELS),
    CRAFTER_SHARED(START_LEVEL),
    CRAFTER_SHARED(LEVEL_ORDER),
    CRAFTER_SHARED(ENVS),
    CRAFTER_SHARED(PLAYERS),
    CRAFTER_SHARED(THREADS),
    CRAFTER_OPT_TEXT("\n"
                     "Observations:\n"),
    CRAFTER_SHARED(OBS, .help = "none (default), pixels, semantic, symbolic, text\n"
                                "or balrog (BALROG's long and short context);\n"
                                "craftax-classic: none, symbolic or pixels (its\n"
                                "own, 63x63x3 float32)"),
    {.name = "balrog", .argument = "SETTINGS", .store = read_balrog,
     .help = "with --obs balrog, BALROG's settings other than its\n"
             "defaults, as key=value,...: unique_items=false,\n"
             "precise_location=true, skip_items=grass+sand+path,\n"
             "edge_only_items=water+lava"},
    CRAFTER_SHARED(TEXTURES, .help = "draw pixels with the PNG files in DIR (Crafter's\n"
                                     "assets folder or one like it) instead of the\n"
                                     "folder $CRAFTER_TEXTURES names, or the built-in\n"
                                     "textures; with --game craftax-classic, Craftax's\n"
                                     "assets folder (craftax_classic/assets of the\n"
                                     "craftax package: Craftax's pixels exactly), else\n"
                                     "the built-in textures"),
    CRAFTER_OPT_TEXT("\n"
                     "Output:\n"),
    {.letter = 'i', .name = "info", .argument = "KIND", .store = read_info,
     .invalid = "invalid info kind '%s' (expected short, full or state)",
     .help = "short (default): t, reward, done, discount,\n"
             "unlocked; state: also the player's position,\n"
             "inventory and achievements as name-to-count\n"
             "objects, and a record at every reset; full: reset\n"
             "records and the whole state in the layout of the\n"
             "reference traces"},
    {.letter = 'b', .name = "binary", .store = crafter_opt_flag, OWN(binary),
     .help = "the binary protocol of crafter-protocol(5): a\n"
             "header, then fixed-size frames answered by one\n"
             "action byte per env (255 resets that env; 253\n"
             "and 12 bytes ask for an env's view at any size)"},
    {.name = "manual-reset", .store = crafter_opt_flag, OWN(manual_reset),
     .help = "binary: an ended episode waits for the reset\n"
             "action (the env plays on meanwhile, as\n"
             "crafter.Env does, or craftax-classic's env without\n"
             "auto-reset) instead of restarting at once"},
    {.name = "semantic", .store = crafter_opt_flag, OWN(semantic_info),
     .help = "binary: frames carry the semantic map too\n"
             "(Crafter's only)"},
    {.name = "final-obs", .store = crafter_opt_flag, OWN(final_obs),
     .help = "binary, without --manual-reset: frames also carry\n"
             "the final observation of each episode that ended\n"
             "at the step"},
    {.name = "shm-fd", .argument = "FD", .store = crafter_opt_int, OWN(shm_fd), .minimum = 0,
     .maximum = 1 << 20, .invalid = "invalid descriptor '%s' (expected 0..1048576)",
     .help = "binary: write frames to a ring in the shared\n"
             "memory open as descriptor FD (sized here); the\n"
             "pipe carries only 8 bytes a frame"},
    {.name = "shm-slots", .argument = "K", .store = crafter_opt_int, OWN(shm_slots),
     .minimum = 1, .maximum = 64, .invalid = "invalid number of slots '%s' (expected 1..64)",
     .help = "frames in that ring, 1..64 (default 2)"},
    CRAFTER_SHARED(RECORD),
    CRAFTER_SHARED(HELP),
    CRAFTER_SHARED(VERSION),
    CRAFTER_OPT_TEXT("\n"
                     "Exit status: 0 when the episodes or the input ended, 1 on bad input,\n"
                     "2 on bad options.  See crafter-step(1) and crafter-protocol(5).\n"),
    CRAFTER_OPT_END,
};

static const crafter_opt_table table = {PROGRAM, 26, entries, NULL};

/* Reads the options; exits on --help, --version or a bad option. */
static void parse_options(int argc, char **argv, crafter_session_options *options) {
  crafter_run *run = &options->run;
  crafter_run_init(run);
  run->episodes = -1; /* not given */
  options->shm_fd = -1;
  options->shm_slots = 2;
  int operands = crafter_opt_parse(&table, argc, argv, run, options);
  if (operands < argc) usage_error("unexpected argument '%s'", argv[operands]);
  crafter_game_options_check_allowing(PROGRAM, run,
                                      CRAFTER_GAME_ALLOW_PIXELS | CRAFTER_GAME_ALLOW_LEVELS);
  crafter_task_options_check(PROGRAM, &run->tasks);
  crafter_level_options_check(PROGRAM, &run->levels);
  if (crafter_level_options_wanted(&run->levels) && (run->world_path || run->first_episode_given))
    usage_error("%s", "--levels chooses each episode's world: not with --world or --first-episode");
  if (run->episodes < 0) run->episodes = run->envs == 1 && !options->binary ? 1 : 0;
  if (run->players > 1 && options->final_obs)
    usage_error("%s", "--final-obs is not available with several players");
  if (run->players > 1 && run->envs * run->players > 65536)
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
  static const crafter_balrog_settings balrog_defaults;
  if (memcmp(&run->obs_settings.balrog, &balrog_defaults, sizeof(balrog_defaults)) != 0 &&
      run->obs_kind != CRAFTER_OBS_BALROG)
    usage_error("%s", "--balrog sets BALROG's texts: it needs --obs balrog");
  if (run->textures && run->obs_kind != CRAFTER_OBS_PIXELS && !options->binary)
    usage_error("%s", "--textures needs --obs pixels (or the binary protocol, for render requests)");
}

/* Opens the configuration, world, tasks and levels, and runs the session. */
static int run(crafter_session_options *options) {
  crafter_run *run = &options->run;
  char error[512];
  int status = crafter_run_open_rules(run, error, sizeof(error));
  if (status == 0) status = crafter_run_open_tasks(run, error, sizeof(error));
  if (status == 0 && crafter_level_options_wanted(&run->levels))
    status = crafter_params_check(&run->params, error, sizeof(error)) < 0
                 ? 2
                 : crafter_run_open_levels(run, error, sizeof(error));
  if (status == 0)
    status = run->game == CRAFTER_GAME_CRAFTER
                 ? crafter_session_run(options, STDIN_FILENO, stdout, error, sizeof(error))
                 : crafter_jsession_run(options, STDIN_FILENO, stdout, error, sizeof(error));
  if (status != 0) fprintf(stderr, PROGRAM ": %s\n", error);
  crafter_run_free(run);
  return crafter_close_stdout(PROGRAM, status);
}

int main(int argc, char **argv) {
  static crafter_session_options options;
  parse_options(argc, argv, &options);
  /* A temporary being written goes when a signal ends the program. */
  crafter_outfile_remove_on_signals();
  return run(&options);
}
