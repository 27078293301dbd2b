/* The play module without a terminal: keys out of the bytes terminals
 * send, Crafter's keyboard, the 256-colour palette, frames that fit the
 * terminal and leave the game untouched, a recorded game read back, and a
 * replay that moves both ways and notices a recording it does not match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/proto.h"
#include "run/traj.h"
#include "run/traj_reader.h"
#include "run/worldfile.h"
#include "tap.h"
#include "tools/play_game.h"
#include "tools/play_keys.h"
#include "tools/play_replay.h"
#include "tools/play_screen.h"
#include "view/textures.h"

static int decode_one(const char *bytes, int final, int *key) {
  return (int)crafter_play_decode_key((const uint8_t *)bytes, strlen(bytes), final, key);
}

static void test_keys(void) {
  int key = 0;
  ok(decode_one("a", 0, &key) == 1 && key == 'a', "a plain byte is its own key");
  ok(decode_one("\033[A", 0, &key) == 3 && key == CRAFTER_KEY_UP, "ESC [ A is up");
  ok(decode_one("\033OD", 0, &key) == 3 && key == CRAFTER_KEY_LEFT, "ESC O D is left");
  ok(decode_one("\033[1;2C", 0, &key) == 6 && key == CRAFTER_KEY_RIGHT,
     "a shifted arrow is still the arrow");
  ok(decode_one("\033[15~x", 0, &key) == 5 && key == CRAFTER_KEY_UNKNOWN,
     "another control sequence is one unknown key");
  ok(decode_one("\033", 0, &key) == 0, "a lone ESC waits for more");
  ok(decode_one("\033[", 0, &key) == 0, "half a sequence waits for more");
  ok(decode_one("\033", 1, &key) == 1 && key == CRAFTER_KEY_ESCAPE,
     "a lone ESC with nothing more is Escape");
  ok(decode_one("\033q", 0, &key) == 2 && key == CRAFTER_KEY_UNKNOWN, "Alt-q is not q");
  ok(decode_one("\xc3\xa9z", 0, &key) == 2 && key == CRAFTER_KEY_UNKNOWN,
     "a UTF-8 character is one unknown key");
  ok(decode_one("\xe2\x96", 0, &key) == 0, "half a UTF-8 character waits for more");

  /* Every action has a key; the mapping is run_gui.py's. */
  static const struct {
    int key, action;
  } keymap[] = {
      {'a', CRAFTER_MOVE_LEFT},       {'d', CRAFTER_MOVE_RIGHT},
      {'w', CRAFTER_MOVE_UP},         {'s', CRAFTER_MOVE_DOWN},
      {' ', CRAFTER_DO},              {'\t', CRAFTER_SLEEP},
      {'r', CRAFTER_PLACE_STONE},     {'t', CRAFTER_PLACE_TABLE},
      {'f', CRAFTER_PLACE_FURNACE},   {'p', CRAFTER_PLACE_PLANT},
      {'1', CRAFTER_MAKE_WOOD_PICKAXE}, {'2', CRAFTER_MAKE_STONE_PICKAXE},
      {'3', CRAFTER_MAKE_IRON_PICKAXE}, {'4', CRAFTER_MAKE_WOOD_SWORD},
      {'5', CRAFTER_MAKE_STONE_SWORD},  {'6', CRAFTER_MAKE_IRON_SWORD},
      {'.', CRAFTER_NOOP},            {'n', CRAFTER_NOOP},
      {CRAFTER_KEY_LEFT, CRAFTER_MOVE_LEFT}, {CRAFTER_KEY_RIGHT, CRAFTER_MOVE_RIGHT},
      {CRAFTER_KEY_UP, CRAFTER_MOVE_UP},     {CRAFTER_KEY_DOWN, CRAFTER_MOVE_DOWN},
      {'A', CRAFTER_MOVE_LEFT},       {'T', CRAFTER_PLACE_TABLE},
  };
  int right = 0, covered = 0;
  for (size_t i = 0; i < sizeof(keymap) / sizeof(keymap[0]); i++) {
    right += crafter_play_action_of_key(keymap[i].key) == keymap[i].action;
    covered |= 1 << keymap[i].action;
  }
  ok(right == (int)(sizeof(keymap) / sizeof(keymap[0])) &&
         covered == (1 << CRAFTER_ACTION_COUNT) - 1,
     "Crafter's keyboard: every one of the 17 actions has its key");
  ok(crafter_play_action_of_key('q') < 0 && crafter_play_action_of_key('7') < 0 &&
         crafter_play_action_of_key(CRAFTER_KEY_UNKNOWN) < 0,
     "q, 7 and unknown keys are no action");
  ok(crafter_play_command_of_key('q', 0) == CRAFTER_PLAY_QUIT &&
         crafter_play_command_of_key(CRAFTER_KEY_ESCAPE, 1) == CRAFTER_PLAY_QUIT &&
         crafter_play_command_of_key(' ', 0) == CRAFTER_PLAY_NOTHING &&
         crafter_play_command_of_key(' ', 1) == CRAFTER_PLAY_PAUSE &&
         crafter_play_command_of_key('.', 1) == CRAFTER_PLAY_FORWARD &&
         crafter_play_command_of_key(CRAFTER_KEY_RIGHT, 1) == CRAFTER_PLAY_FORWARD &&
         crafter_play_command_of_key(CRAFTER_KEY_LEFT, 1) == CRAFTER_PLAY_BACK &&
         crafter_play_command_of_key('+', 1) == CRAFTER_PLAY_FASTER &&
         crafter_play_command_of_key('-', 0) == CRAFTER_PLAY_SLOWER,
     "commands: quit in both modes, space pauses and arrows step in a replay only");
}

/* Real-time frames on a clock of the test's own, in milliseconds. */
static void test_frames_clock(void) {
  crafter_play_frames frames;
  memset(&frames, 0, sizeof(frames));
  crafter_play_frames_start(&frames, 5, 1000); /* 5 a second: a frame is 200 ms */
  ok(crafter_play_frames_wait(&frames, 1000) == 200 &&
         crafter_play_frames_wait(&frames, 1150) == 50,
     "at 5 frames a second the first frame ends 200 ms after the start");
  ok(crafter_play_frames_take(&frames, 1199) == -1, "no step before the frame ends");
  ok(crafter_play_frames_take(&frames, 1200) == CRAFTER_NOOP,
     "a frame without a key is a noop, as in Crafter's GUI");
  ok(crafter_play_frames_take(&frames, 1200) == -1 &&
         crafter_play_frames_wait(&frames, 1200) == 200,
     "one step a frame: the next ends 200 ms later");
  crafter_play_frames_key(&frames, CRAFTER_MOVE_LEFT);
  crafter_play_frames_key(&frames, CRAFTER_DO);
  ok(crafter_play_frames_take(&frames, 1399) == -1 &&
         crafter_play_frames_take(&frames, 1400) == CRAFTER_DO,
     "two keys in one frame: the last one is the frame's action");
  ok(crafter_play_frames_take(&frames, 1600) == CRAFTER_NOOP, "the key does not carry over");

  /* A frame of 1000/3 ms: the ends are counted from the start, so the
   * third frame ends at 1000 ms, not at 3 * 333. */
  crafter_play_frames_start(&frames, 3, 0);
  int first = crafter_play_frames_take(&frames, 333);
  int second = crafter_play_frames_take(&frames, 666);
  ok(first == CRAFTER_NOOP && second == CRAFTER_NOOP &&
         crafter_play_frames_take(&frames, 999) == -1 &&
         crafter_play_frames_take(&frames, 1000) == CRAFTER_NOOP,
     "at 3 frames a second the frames end at 333, 666 and 1000 ms");

  /* Late by many frames (the program was busy): one step, and the next
   * frame is a whole frame away; the time lost is not made up. */
  crafter_play_frames_start(&frames, 10, 0);
  crafter_play_frames_key(&frames, CRAFTER_SLEEP);
  ok(crafter_play_frames_take(&frames, 5000) == CRAFTER_SLEEP &&
         crafter_play_frames_take(&frames, 5000) == -1 &&
         crafter_play_frames_wait(&frames, 5000) == 100,
     "late by 49 frames: one step, then the next frame 100 ms on");
  crafter_play_frames_key(&frames, CRAFTER_DO);
  crafter_play_frames_start(&frames, 20, 6000);
  ok(crafter_play_frames_wait(&frames, 6000) == 50 &&
         crafter_play_frames_take(&frames, 6050) == CRAFTER_NOOP,
     "a new speed starts afresh: 50 ms frames, no key yet");
}

static void test_colours(void) {
  ok(crafter_play_rgb_to_256(0, 0, 0) == 16 && crafter_play_rgb_to_256(255, 255, 255) == 231 &&
         crafter_play_rgb_to_256(255, 0, 0) == 196 && crafter_play_rgb_to_256(95, 135, 175) == 67,
     "colours of the cube map to themselves");
  ok(crafter_play_rgb_to_256(128, 128, 128) == 244 && crafter_play_rgb_to_256(8, 8, 8) == 232,
     "greys map to the grey ramp");
  int dark_green = crafter_play_rgb_to_256(40, 90, 40);
  ok(dark_green >= 16 && dark_green < 232, "a dark green stays a colour, not a grey (%d)",
     dark_green);
  ok(crafter_play_mode_for_terminal(1, "truecolor", "xterm") == CRAFTER_PLAY_TRUECOLOR &&
         crafter_play_mode_for_terminal(1, "24bit", NULL) == CRAFTER_PLAY_TRUECOLOR &&
         crafter_play_mode_for_terminal(1, NULL, "xterm-256color") == CRAFTER_PLAY_COLOR_256 &&
         crafter_play_mode_for_terminal(1, "", "screen") == CRAFTER_PLAY_COLOR_256 &&
         crafter_play_mode_for_terminal(1, NULL, "dumb") == CRAFTER_PLAY_GLYPHS,
     "on a terminal the mode follows COLORTERM and TERM");
  ok(crafter_play_mode_for_terminal(0, "truecolor", "xterm-256color") == CRAFTER_PLAY_GLYPHS,
     "into a pipe or a file: glyphs, whatever the terminal variables say");
}

/* Columns of a line without escapes (UTF-8 characters count one). */
static int line_width(const char *start, const char *end) {
  int width = 0;
  for (const char *at = start; at < end; at++) {
    if (*at == '\033') {
      at++;
      if (at < end && *at == '[')
        while (at < end && !(*at >= 0x40 && *at <= 0x7e && *at != '[')) at++;
      continue;
    }
    if ((*at & 0xc0) != 0x80) width++;
  }
  return width;
}

/* Whether every line fits; the number of lines in *count. */
static int fits(const crafter_play_text *text, int columns, int *count) {
  int lines = 0, good = 1;
  const char *start = text->data;
  for (;;) {
    const char *end = strchr(start, '\n');
    if (!end) end = start + strlen(start);
    lines++;
    if (columns && line_width(start, end) > columns) good = 0;
    if (!*end) break;
    start = end + 1;
  }
  *count = lines;
  return good;
}

static void test_frames(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 1;
  crafter_env env, twin;
  char error[256];
  crafter_env_init(&env, &params, error, sizeof(error));
  crafter_env_init(&twin, &params, error, sizeof(error));
  crafter_env_reset(&env);
  crafter_env_reset(&twin);
  crafter_play_status status = {"Crafter  seed 1", NULL, 0.0, "a message", crafter_play_help,
                                NULL};
  crafter_play_text text = {0};

  crafter_play_screen *glyphs =
      crafter_play_screen_new(&params, CRAFTER_PLAY_GLYPHS, NULL, 0, error, sizeof(error));
  ok(glyphs && crafter_play_draw(glyphs, &env, 0, &status, 120, 40, &text) == 0, "a glyph frame");
  int lines = 0;
  ok(fits(&text, 120, &lines) && lines <= 40, "it fits 120x40 (%d lines)", lines);
  ok(strstr(text.data, "| . . . . @ . . . T |") != NULL,
     "the player is in the middle of the map, as crafter-gen draws it");
  ok(strchr(text.data, '\033') == NULL, "no escapes in glyphs");
  ok(strstr(text.data, "health   9 #########") && strstr(text.data, "facing  down, grass") &&
         strstr(text.data, "achievements 0 of 22") && strstr(text.data, "a message") &&
         strstr(text.data, "quit: q"),
     "vitals, facing, achievements, the message and the help");
  ok(crafter_play_draw(glyphs, &env, 0, &status, 30, 10, &text) == 0 && fits(&text, 30, &lines) &&
         lines <= 10 && strchr(text.data, '@'),
     "a 30x10 terminal gets a cropped frame, the player still in it (%d lines)", lines);

  crafter_textures textures;
  int have = crafter_textures_load_builtin(&textures, error, sizeof(error)) == 0;
  crafter_play_screen *colour = have ? crafter_play_screen_new(&params, CRAFTER_PLAY_TRUECOLOR,
                                                               &textures, 0, error, sizeof(error))
                                     : NULL;
  ok(colour && crafter_play_draw(colour, &env, 0, &status, 120, 40, &text) == 0 &&
         strstr(text.data, "\033[48;2;") && strstr(text.data, "\xe2\x96\x80"),
     "a truecolor frame: half blocks in 24-bit colour");
  ok(colour && fits(&text, 120, &lines) && lines <= 40 &&
         crafter_play_screen_cell_rows(colour) == 4,
     "it fits 120x40 with 4 rows a cell (%d)", colour ? crafter_play_screen_cell_rows(colour) : 0);
  /* 100 columns: 4 rows a cell make a view 9 * 8 = 72 wide, too wide for
   * the 32 columns of the panel beside it; 3 rows make it 54 wide. */
  ok(colour && crafter_play_draw(colour, &env, 0, &status, 100, 30, &text) == 0 &&
         fits(&text, 100, &lines) && lines <= 30 && crafter_play_screen_cell_rows(colour) == 3 &&
         crafter_play_screen_mode(colour) == CRAFTER_PLAY_TRUECOLOR,
     "100x30: colour at 3 rows a cell (%d)", colour ? crafter_play_screen_cell_rows(colour) : 0);
  /* 80 columns: even 3 rows (54 + 2 + 32 = 88 columns) do not fit, and 2
   * rows would show each cell as 4x4 blobs: letters instead. */
  ok(colour && crafter_play_draw(colour, &env, 0, &status, 80, 24, &text) == 0 &&
         fits(&text, 80, &lines) && lines <= 24 &&
         crafter_play_screen_mode(colour) == CRAFTER_PLAY_GLYPHS &&
         crafter_play_screen_cell_rows(colour) == 1 && !strchr(text.data, '\033') &&
         strstr(text.data, "| . . . . @ . . . T |"),
     "80x24: the colour screen draws letters (%d lines)", lines);
  ok(colour && crafter_play_draw(colour, &env, 0, &status, 120, 40, &text) == 0 &&
         crafter_play_screen_mode(colour) == CRAFTER_PLAY_TRUECOLOR,
     "a larger terminal again: colour again");
  crafter_play_screen *palette = have ? crafter_play_screen_new(&params, CRAFTER_PLAY_COLOR_256,
                                                                &textures, 2, error, sizeof(error))
                                      : NULL;
  ok(palette && crafter_play_draw(palette, &env, 0, &status, 0, 0, &text) == 0 &&
         strstr(text.data, "\033[48;5;") && !strstr(text.data, ";2;"),
     "a 256-colour frame uses the palette only");
  ok(palette && crafter_play_draw(palette, &env, 0, &status, 80, 24, &text) == 0 &&
         fits(&text, 80, &lines) && lines <= 24 &&
         crafter_play_screen_mode(palette) == CRAFTER_PLAY_COLOR_256 &&
         crafter_play_screen_cell_rows(palette) == 2,
     "rows a cell given (2): colour even at 80x24");

  /* Drawing at night takes its noise from a copy of the generator: the
   * game goes on exactly as a twin that is never drawn. */
  int same = 1;
  for (int t = 0; t < 260 && same; t++) {
    crafter_step_result a, b;
    int action = (t * 7) % CRAFTER_ACTION_COUNT;
    crafter_env_step(&env, action, &a);
    crafter_env_step(&twin, action, &b);
    if (colour && t % 10 == 0) crafter_play_draw(colour, &env, 0, &status, 120, 40, &text);
    same = memcmp(&env.game.rng, &twin.game.rng, sizeof(env.game.rng)) == 0 &&
           env.game.world.object_count == twin.game.world.object_count &&
           a.reward == b.reward;
  }
  ok(same && env.game.daylight < 0.5, "drawing by night and day leaves the game as it was");
  crafter_play_text_free(&text);
  crafter_play_screen_free(glyphs);
  crafter_play_screen_free(colour);
  crafter_play_screen_free(palette);
  if (have) crafter_textures_fini(&textures);
  crafter_env_fini(&env);
  crafter_env_fini(&twin);
}

/* 80x24 with everything to show: every item, every achievement, and a
 * message longer than a line. */
static void test_small_terminal(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 1;
  crafter_env env;
  char error[256];
  crafter_env_init(&env, &params, error, sizeof(error));
  crafter_env_reset(&env);
  for (int item = CRAFTER_SAPLING; item < CRAFTER_ITEM_COUNT; item++)
    env.game.players[0].inventory[item] = 9;
  env.unlocked[0] = (1u << CRAFTER_ACHIEVEMENT_COUNT) - 1;
  const char *message =
      "You died after 123 steps with a reward of 3.1.  Any key starts episode 2; q quits.";
  crafter_play_status status = {"Crafter  seed 1  episode 1  (recording)", NULL, 0.0, message,
                                crafter_play_help, NULL};
  crafter_play_screen *screen =
      crafter_play_screen_new(&params, CRAFTER_PLAY_GLYPHS, NULL, 0, error, sizeof(error));
  crafter_play_text text = {0};
  int lines = 0;
  ok(screen && crafter_play_draw(screen, &env, 0, &status, 80, 24, &text) == 0 &&
         fits(&text, 80, &lines) && lines <= 24,
     "80x24, everything to show: no line wider than 80, %d lines", lines);
  ok(strstr(text.data, "| . . . . @ . . . T |") && strstr(text.data, "health   9 #########") &&
         strstr(text.data, "energy   9 #########") && strstr(text.data, "facing  down, grass"),
     "the view, the vitals and the facing");
  ok(strstr(text.data, "inventory  sapling: 9") && strstr(text.data, "iron_sword: 9"),
     "the inventory from the first item to the last");
  ok(strstr(text.data, "achievements 22 of 22: collect_coal") && strstr(text.data, "wake_up"),
     "the achievements, counted and listed to the last");
  /* The message, its double space made one, is 81 columns: "quits." goes
   * to a second line. */
  ok(strstr(text.data, "\nYou died after 123 steps with a reward of 3.1. Any key starts episode "
                       "2; q\nquits.\n") &&
         strstr(text.data, "quit: q"),
     "the whole message, wrapped at a space, and the keys");
  /* Four rows fewer: the list of achievements gives way to its count. */
  ok(crafter_play_draw(screen, &env, 0, &status, 80, 20, &text) == 0 && fits(&text, 80, &lines) &&
         lines <= 20 && strstr(text.data, "achievements 22 of 22") &&
         !strstr(text.data, "wake_up") && strstr(text.data, "iron_sword: 9") &&
         strstr(text.data, "\nquits."),
     "80x20: the achievements as a count, the rest all there (%d lines)", lines);
  crafter_play_text_free(&text);
  crafter_play_screen_free(screen);
  crafter_env_fini(&env);
}

/* Options of a game of seed 1 that records to a new temporary file at
 * path (a mkstemp template). */
static void recording_options(crafter_run *options, char *path) {
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  crafter_run_init(options);
  options->params.seed = 1;
  options->record_path = path;
}

static void test_record_and_replay(void) {
  char path[] = "/tmp/test-play-XXXXXX";
  crafter_run options;
  recording_options(&options, path);
  options.params.length = 20;
  crafter_play_game game;
  char error[300];
  int status = crafter_play_game_init(&game, &options, error, sizeof(error));
  ok(status == 0, "a game that records starts");
  if (status != 0) return;
  static const int first[] = {CRAFTER_MOVE_LEFT, CRAFTER_MOVE_RIGHT, CRAFTER_MOVE_RIGHT,
                              CRAFTER_MOVE_RIGHT, CRAFTER_MOVE_RIGHT, CRAFTER_DO};
  for (int i = 0; i < 6; i++) crafter_play_game_act(&game, first[i]);
  ok(crafter_play_game_env(&game)->game.players[0].inventory[CRAFTER_WOOD] == 1 && game.reward == 1.0 &&
         strstr(game.message, "collect_wood"),
     "seed 1: a, d, d, d, d, space collects wood (%s)", game.message);
  for (int i = 0; i < 30 && !game.over; i++) crafter_play_game_act(&game, CRAFTER_NOOP);
  ok(game.over == CRAFTER_TRAJ_TIME_LIMIT && crafter_play_game_env(&game)->game.step == 20 &&
         strstr(game.message, "episode 2"),
     "the time limit ends the episode and says what comes next");
  crafter_play_game_act(&game, CRAFTER_NOOP);
  ok(crafter_play_game_env(&game)->game.step == 20, "an ended episode takes no more steps");
  crafter_play_game_next_episode(&game, error, sizeof(error));
  ok(crafter_play_game_env(&game)->episode == 2 && crafter_play_game_env(&game)->game.step == 0 && game.reward == 0 && !game.over,
     "the next episode starts");
  for (int i = 0; i < 3; i++) crafter_play_game_act(&game, CRAFTER_MOVE_UP);
  ok(crafter_play_game_finish(&game, error, sizeof(error)) == 0, "the recording closes");

  crafter_traj_reader *reader = crafter_traj_open(path, error, sizeof(error));
  ok(reader && crafter_traj_episode_count(reader) == 2, "the file holds both episodes");
  if (reader) {
    const crafter_traj_episode *one = crafter_traj_episode_at(reader, 0);
    const crafter_traj_episode *two = crafter_traj_episode_at(reader, 1);
    ok(one->steps == 20 && one->end == CRAFTER_TRAJ_TIME_LIMIT && one->episode == 1 &&
           two->steps == 3 && two->end == CRAFTER_TRAJ_CUT && two->episode == 2 &&
           strcmp(crafter_traj_header_of(reader)->agent, "human") == 0,
       "lengths, ends and episode counters as played; the agent is human");
    crafter_traj_close(reader);
  }

  crafter_play_replay replay;
  status = crafter_play_replay_open(&replay, path, 0, NULL, NULL, error, sizeof(error));
  ok(status == 0 && replay.t == 0 && replay.length == 20, "the replay opens");
  if (status == 0) {
    crafter_play_replay_seek(&replay, 6, error, sizeof(error));
    ok(replay.env.game.players[0].inventory[CRAFTER_WOOD] == 1 && replay.reward == 1.0 &&
           replay.mismatch < 0,
       "six steps in: the wood, as played");
    crafter_play_replay_seek(&replay, 20, error, sizeof(error));
    crafter_play_replay_seek(&replay, 5, error, sizeof(error));
    ok(replay.t == 5 && replay.env.game.players[0].inventory[CRAFTER_WOOD] == 0 &&
           replay.reward == 0.0,
       "back to step 5 by re-simulating: no wood yet");
    crafter_play_replay_seek(&replay, 99, error, sizeof(error));
    ok(replay.t == 20 && replay.mismatch < 0 && strstr(replay.message, "time limit"),
       "to the end, matching the recording: %s", replay.message);
    crafter_play_replay_free(&replay);
  }
  ok(crafter_play_replay_open(&replay, path, 2, NULL, NULL, error, sizeof(error)) == 1 &&
         strstr(error, "index 2"),
     "an index out of range: %s", error);

  /* The recording replayed on another world: the wood is not there. */
  crafter_env other;
  crafter_params params = options.params;
  params.seed = 2;
  crafter_env_init(&other, &params, error, sizeof(error));
  crafter_env_reset(&other);
  crafter_world_map map;
  crafter_world_map_from_game(&map, &other.game);
  status = crafter_play_replay_open(&replay, path, 0, NULL, &map, error, sizeof(error));
  if (status == 0) crafter_play_replay_seek(&replay, 20, error, sizeof(error));
  ok(status == 0 && replay.mismatch > 0 && strstr(replay.mismatch_reason, "differs"),
     "a replay on another world notices: %s", status == 0 ? replay.mismatch_reason : error);
  if (status == 0) crafter_play_replay_free(&replay);
  crafter_world_map_free(&map);
  crafter_env_fini(&other);
  unlink(path);
}

/* A failed action says why in the message, in play and in a replay; a
 * wait keeps it up. */
static void test_reasons(void) {
  char path[] = "/tmp/test-play-XXXXXX";
  crafter_run options;
  recording_options(&options, path);
  crafter_play_game game;
  char error[300];
  if (crafter_play_game_init(&game, &options, error, sizeof(error)) != 0) {
    ok(0, "a game starts: %s", error);
    return;
  }
  /* Seed 1 starts on grass facing grass, with nothing in the inventory
   * and the nearest tree four cells away (as the glyph frame shows). */
  crafter_play_game_act(&game, CRAFTER_PLACE_TABLE);
  ok(strcmp(game.message, "Cannot place a table: needs 2 wood (you have 0).") == 0,
     "t with no wood: %s", game.message);
  crafter_play_game_act(&game, CRAFTER_NOOP);
  ok(strstr(game.message, "needs 2 wood") != NULL, "a wait keeps the reason up");
  crafter_play_game_act(&game, CRAFTER_MAKE_WOOD_PICKAXE);
  ok(strcmp(game.message,
            "Cannot make a wood pickaxe: needs 1 wood (you have 0) and a table nearby.") == 0,
     "1 with neither wood nor table: %s", game.message);
  crafter_play_game_act(&game, CRAFTER_MOVE_LEFT);
  ok(game.message[0] == '\0', "a move that happens clears it");
  crafter_play_game_finish(&game, error, sizeof(error));

  crafter_play_replay replay;
  int status = crafter_play_replay_open(&replay, path, 0, NULL, NULL, error, sizeof(error));
  if (status == 0) crafter_play_replay_seek(&replay, 1, error, sizeof(error));
  ok(status == 0 && strcmp(replay.message, "Cannot place a table: needs 2 wood (you have 0).") == 0,
     "the replay says it too: %s", status == 0 ? replay.message : error);
  if (status == 0) crafter_play_replay_free(&replay);
  unlink(path);
}

/* Two players on one keyboard: every action has a key of each player
 * (noop is everyone's), no key is both players', none is a command. */
static void test_two_keys(void) {
  int keys[200], count = 0;
  for (int key = 0; key < 128; key++) keys[count++] = key;
  for (int key = CRAFTER_KEY_UP; key <= CRAFTER_KEY_UNKNOWN; key++) keys[count++] = key;
  unsigned covered[2] = {0, 0};
  int commands = 0, everyone = 0;
  for (int i = 0; i < count; i++) {
    int player = -2;
    int action = crafter_play_player_action_of_key(keys[i], 2, &player);
    if (action < 0) continue;
    if (player < 0) {
      everyone += action == CRAFTER_NOOP;
      covered[0] |= 1u << action;
      covered[1] |= 1u << action;
    } else {
      covered[player] |= 1u << action;
    }
    commands += crafter_play_command_of_key(keys[i], 0) != CRAFTER_PLAY_NOTHING;
  }
  unsigned all = (1u << CRAFTER_ACTION_COUNT) - 1;
  ok(covered[0] == all && covered[1] == all && everyone > 0 && commands == 0,
     "two players: each has a key for every action, a wait is everyone's, no key is a command");
  int player = -2;
  ok(crafter_play_player_action_of_key('w', 2, &player) == CRAFTER_MOVE_UP && player == 0 &&
         crafter_play_player_action_of_key(' ', 2, &player) == CRAFTER_DO && player == 0 &&
         crafter_play_player_action_of_key(CRAFTER_KEY_UP, 2, &player) == CRAFTER_MOVE_UP &&
         player == 1 &&
         crafter_play_player_action_of_key('\r', 2, &player) == CRAFTER_DO && player == 1 &&
         crafter_play_player_action_of_key(0x7f, 2, &player) == CRAFTER_SLEEP && player == 1 &&
         crafter_play_player_action_of_key('J', 2, &player) == CRAFTER_PLACE_TABLE &&
         player == 1 &&
         crafter_play_player_action_of_key('.', 2, &player) == CRAFTER_NOOP && player == -1 &&
         crafter_play_player_action_of_key('q', 2, &player) < 0,
     "w and space are player 0's; the arrows, Enter, Backspace and j player 1's");
  ok(crafter_play_player_action_of_key(CRAFTER_KEY_LEFT, 1, &player) == CRAFTER_MOVE_LEFT &&
         player == 0 && crafter_play_player_action_of_key('\r', 1, &player) < 0 &&
         crafter_play_player_action_of_key('j', 1, &player) < 0 &&
         crafter_play_player_action_of_key('.', 1, &player) == CRAFTER_NOOP && player == 0,
     "one player: Crafter's keyboard as before, the arrows player 0's");

  crafter_play_frames frames;
  crafter_play_frames_start(&frames, 5, 0);
  crafter_play_frames_key_player(&frames, 0, CRAFTER_MOVE_LEFT);
  crafter_play_frames_key_player(&frames, 1, CRAFTER_DO);
  crafter_play_frames_key_player(&frames, 1, CRAFTER_SLEEP);
  int actions[2] = {-1, -1};
  int early = crafter_play_frames_take_players(&frames, 199, 2, actions);
  int taken = crafter_play_frames_take_players(&frames, 200, 2, actions);
  ok(!early && taken && actions[0] == CRAFTER_MOVE_LEFT && actions[1] == CRAFTER_SLEEP,
     "real time with two players: each player's last key of the frame");
  ok(crafter_play_frames_take_players(&frames, 400, 2, actions) && actions[0] == CRAFTER_NOOP &&
         actions[1] == CRAFTER_NOOP,
     "a frame without keys is a noop for both");
}

/* A 64x64 world of grass: on row 32 lava at x 28, player 0 at x 31 and
 * player 1 at x 33. */
static int lava_world(crafter_world_map *map) {
  static char text[64 * 65 + 64];
  size_t used = (size_t)snprintf(text, sizeof(text), "crafter-world 1\nsize 64 64\nmap\n");
  for (int y = 0; y < 64; y++) {
    for (int x = 0; x < 64; x++)
      text[used++] = y == 32 && x == 28 ? '%' : y == 32 && (x == 31 || x == 33) ? '@' : '.';
    text[used++] = '\n';
  }
  char error[300];
  return crafter_world_map_parse(map, text, used, "lava", error, sizeof(error));
}

static void test_two_players(void) {
  crafter_world_map map;
  if (lava_world(&map) < 0) {
    ok(0, "the lava world parses");
    return;
  }
  crafter_run options;
  crafter_run_init(&options);
  options.params.length = 8;
  options.world = &map;
  options.players = 2;
  crafter_play_game game;
  char error[300];
  if (crafter_play_game_init(&game, &options, error, sizeof(error)) != 0) {
    ok(0, "a game of two starts: %s", error);
    crafter_world_map_free(&map);
    return;
  }
  crafter_env *env = crafter_play_game_env(&game);
  int moved[2] = {CRAFTER_NOOP, CRAFTER_MOVE_LEFT};
  crafter_play_game_act_players(&game, moved);
  ok(crafter_game_body(&env->game, 0)->x == 31 && crafter_game_body(&env->game, 1)->x == 32 &&
         env->game.step == 1,
     "player 1's move moves player 1 alone, in one step");
  for (int i = 0; i < 3; i++) crafter_play_game_act(&game, CRAFTER_MOVE_LEFT);
  ok(game.side[0].over == CRAFTER_TRAJ_DIED && !game.over && game.side[1].over == 0 &&
         strstr(game.side[0].message, "Player 0 died after 4 steps") &&
         !crafter_play_game_player_active(&game, 0) && crafter_play_game_player_active(&game, 1),
     "player 0 walks into the lava and dies; player 1 plays on (%s)", game.side[0].message);
  int right[2] = {CRAFTER_NOOP, CRAFTER_MOVE_RIGHT};
  crafter_play_game_act_players(&game, right);
  ok(!crafter_game_body(&env->game, 0) && crafter_game_body(&env->game, 1)->x == 33 &&
         env->game.step == 5 && !game.over,
     "the next step its body has left the world, and player 1 walks");

  crafter_play_status status[2] = {
      {"Player 0", NULL, game.side[0].reward, game.side[0].message, NULL, NULL},
      {"Player 1", NULL, game.side[1].reward, game.side[1].message, NULL, NULL}};
  crafter_play_screen *screen =
      crafter_play_screen_new(&env->params, CRAFTER_PLAY_GLYPHS, NULL, 0, error, sizeof(error));
  crafter_play_text text = {0};
  int lines = 0;
  int drawn = screen && crafter_play_draw_players(screen, env, 2, status, crafter_play_two_help,
                                                  0, 0, &text) == 0;
  /* The box's words and player 1 are in the middle row of the views. */
  const char *box = drawn ? strstr(text.data, "|   player 0 died   |") : NULL;
  const char *end = box ? strchr(box, '\n') : NULL;
  const char *view = box ? strstr(box, "| . . . . @ . . . . |") : NULL;
  ok(box && end && view && view < end && strstr(text.data, "+  Player 0") &&
         strstr(text.data, "+  Player 1"),
     "the frame: player 0's half says it died, player 1's view beside it");
  ok(screen &&
         crafter_play_draw_players(screen, env, 2, status, crafter_play_two_help, 120, 30,
                                   &text) == 0 &&
         fits(&text, 120, &lines) && lines <= 30 && strstr(text.data, "player 0 died") &&
         strstr(text.data, "player 1 (right)"),
     "it fits 120x30 (%d lines)", lines);
  env->game.players[1].sleeping = 1;
  ok(crafter_play_game_asleep(&game), "time passes by itself when the one left sleeps");
  env->game.players[1].sleeping = 0;
  ok(!crafter_play_game_asleep(&game), "and not while it is awake");
  for (int i = 0; i < 5 && !game.over; i++) crafter_play_game_act_players(&game, right);
  ok(game.over && game.side[1].over == CRAFTER_TRAJ_TIME_LIMIT && env->game.step == 8 &&
         strstr(game.side[1].message, "Any key starts episode 2") &&
         strstr(game.side[0].message, "Any key starts episode 2"),
     "the time limit ends player 1's episode, and the game: %s", game.side[1].message);
  crafter_play_game_next_episode(&game, error, sizeof(error));
  ok(!game.over && game.side[0].over == 0 && crafter_game_body(&env->game, 0) &&
         crafter_game_body(&env->game, 0)->x == 31 && env->episode == 2,
     "the next episode brings player 0 back");
  ok(crafter_play_game_finish(&game, error, sizeof(error)) == 0, "the game of two ends");
  crafter_play_screen_free(screen);

  /* At night in colour: both views draw their noise from one copy of the
   * generator, and the game goes on as a twin that is never drawn. */
  crafter_params params;
  crafter_params_default(&params);
  crafter_env one, twin;
  crafter_env_init(&one, &params, error, sizeof(error));
  crafter_env_init(&twin, &params, error, sizeof(error));
  crafter_env_set_players(&one, 2, error, sizeof(error));
  crafter_env_set_players(&twin, 2, error, sizeof(error));
  crafter_env_reset(&one);
  crafter_env_reset(&twin);
  crafter_textures textures;
  int have = crafter_textures_load_builtin(&textures, error, sizeof(error)) == 0;
  crafter_play_screen *colour = have ? crafter_play_screen_new(&params, CRAFTER_PLAY_TRUECOLOR,
                                                               &textures, 0, error, sizeof(error))
                                     : NULL;
  int same = colour != NULL, frames_drawn = 0;
  for (int t = 0; t < 260 && same; t++) {
    crafter_step_result a[2], b[2];
    int actions[2] = {(t * 7) % CRAFTER_ACTION_COUNT, (t * 5) % CRAFTER_ACTION_COUNT};
    crafter_env_step_players(&one, actions, a);
    crafter_env_step_players(&twin, actions, b);
    if (t % 10 == 0 && crafter_play_draw_players(colour, &one, 2, status, NULL, 200, 50,
                                                 &text) == 0)
      frames_drawn++;
    same = memcmp(&one.game.rng, &twin.game.rng, sizeof(one.game.rng)) == 0 &&
           one.game.world.object_count == twin.game.world.object_count &&
           a[0].reward == b[0].reward && a[1].reward == b[1].reward;
  }
  ok(same && frames_drawn == 26 && one.game.daylight < 0.5 && strstr(text.data, "\033[48;2;"),
     "drawing two views by night and day leaves the game as it was");
  crafter_play_text_free(&text);
  crafter_play_screen_free(colour);
  if (have) crafter_textures_fini(&textures);
  crafter_env_fini(&one);
  crafter_env_fini(&twin);
  crafter_world_map_free(&map);
}

int main(void) {
  test_keys();
  test_two_keys();
  test_frames_clock();
  test_colours();
  test_frames();
  test_small_terminal();
  test_record_and_replay();
  test_reasons();
  test_two_players();
  return tap_done();
}
