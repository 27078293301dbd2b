#include "tools/jplay.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/terminal.h"
#include "crafter/ids.h"
#include "game/cc_env.h"
#include "game/cx_env.h"
#include "view/cx_text.h"
#include "run/worldfile.h"
#include "tools/play_game.h"
#include "tools/play_keys.h"

enum { VIEW_COLUMNS = 9, VIEW_ROWS = 7 };

/* The letters of the view: the map of the state in Crafter's terms
 * (crafter-gen's letters), outside the map blank. */
static void view_letters(const crafter_cc_state *state, char out[VIEW_ROWS][VIEW_COLUMNS]) {
  crafter_world_map map;
  memset(out, ' ', VIEW_ROWS * VIEW_COLUMNS);
  if (crafter_world_map_from_cc(&map, state) != 0) return;
  int top = state->player_position[0] - VIEW_ROWS / 2;
  int left = state->player_position[1] - VIEW_COLUMNS / 2;
  for (int r = 0; r < VIEW_ROWS; r++)
    for (int c = 0; c < VIEW_COLUMNS; c++) {
      int y = top + r, x = left + c;
      if (x < 0 || y < 0 || x >= map.width || y >= map.height) continue;
      char letter = crafter_material_char(map.materials[x * map.height + y]);
      out[r][c] = letter ? letter : '?';
    }
  for (int i = map.object_count - 1; i >= 0; i--) { /* the player last, on top */
    const crafter_object *o = &map.objects[i];
    int r = o->y - top, c = o->x - left;
    if (r >= 0 && r < VIEW_ROWS && c >= 0 && c < VIEW_COLUMNS) out[r][c] = crafter_object_char(o);
  }
  crafter_world_map_free(&map);
}

static void bar(char *out, size_t size, const char *name, int value) {
  char marks[16] = "";
  int shown = value < 0 ? 0 : value > 9 ? 9 : value;
  memset(marks, '#', (size_t)shown);
  marks[shown] = '\0';
  snprintf(out, size, "%-8s %2d %s", name, value, marks);
}

/* Craftax-Classic's frame: the view in crafter-gen's letters, the
 * vitals as bars, inventory and achievements, Crafter's keys. */
static void cc_frame(FILE *out, const crafter_jgame *g, void *e, const crafter_jgame_outcome *last,
                     const char *message) {
  (void)g;
  const crafter_cc_env *env = e;
  const crafter_cc_state *s = &env->state;
  char view[VIEW_ROWS][VIEW_COLUMNS];
  view_letters(s, view);
  char side[VIEW_ROWS + 2][96];
  memset(side, 0, sizeof side);
  snprintf(side[0], sizeof side[0], "Craftax-Classic  seed %lld  episode %lld",
           (long long)env->seed, (long long)env->episode);
  snprintf(side[1], sizeof side[1], "step %d", s->timestep);
  snprintf(side[2], sizeof side[2], "%s (light %.2f)%s",
           s->light_level >= 0.5f ? "day" : "night", (double)s->light_level,
           s->is_sleeping ? ", asleep" : "");
  snprintf(side[3], sizeof side[3], "reward %g", last ? (double)last->reward : 0.0);
  bar(side[5], sizeof side[5], "health", s->player_health);
  bar(side[6], sizeof side[6], "food", s->player_food);
  bar(side[7], sizeof side[7], "drink", s->player_drink);
  bar(side[8], sizeof side[8], "energy", s->player_energy);
  fprintf(out, "+-------------------+  %s\n", side[0]);
  for (int r = 0; r < VIEW_ROWS; r++) {
    fputs("| ", out);
    for (int c = 0; c < VIEW_COLUMNS; c++) fprintf(out, "%c ", view[r][c]);
    fprintf(out, "|  %s\n", side[r + 1]);
  }
  fprintf(out, "+-------------------+  %s\n", side[8]);
  int32_t inventory[CRAFTER_ITEM_COUNT];
  crafter_cc_report_inventory(s, inventory);
  fputs("\ninventory ", out);
  int any = 0;
  for (int k = CRAFTER_SAPLING; k < CRAFTER_ITEM_COUNT; k++)
    if (inventory[k] > 0) {
      fprintf(out, " %s %d", crafter_item_names[k], inventory[k]);
      any = 1;
    }
  fputs(any ? "\n" : " (empty)\n", out);
  uint8_t achievements[CRAFTER_ACHIEVEMENT_COUNT];
  crafter_cc_report_achievements(s, achievements);
  uint32_t bits = 0;
  int count = 0;
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    if (achievements[k]) bits |= 1u << k, count++;
  char list[1024];
  crafter_play_achievement_list(bits, list, sizeof list);
  fprintf(out, "achievements %d of %d%s%s\n", count, CRAFTER_ACHIEVEMENT_COUNT, count ? ": " : "",
          count ? list : "");
  if (message && *message) fprintf(out, "%s\n", message);
  fputs("move: w a s d or arrows   do: space   sleep: tab\n"
        "place: t table, r stone, f furnace, p plant\n"
        "make: 1 wood, 2 stone, 3 iron pickaxe; 4 wood, 5 stone, 6 iron sword\n"
        "wait: . or n   quit: q\n",
        out);
}

static int cc_asleep(const void *state) { return ((const crafter_cc_state *)state)->is_sleeping; }

/* Craftax's frame: the header, the text observation (view/cx_text.h) and
 * Craftax's keys. */
static void cx_frame(FILE *out, const crafter_jgame *g, void *e, const crafter_jgame_outcome *last,
                     const char *message) {
  (void)g;
  const crafter_cx_env *env = e;
  fprintf(out, "Craftax  seed %lld  episode %lld  reward %g\n", (long long)env->seed,
          (long long)env->episode, last ? (double)last->reward : 0.0);
  size_t size = crafter_cx_render_text(&env->state, NULL, 0) + 1;
  char *text = malloc(size);
  if (text) {
    crafter_cx_render_text(&env->state, text, size);
    fputs(text, out);
    free(text);
  }
  uint8_t achievements[CRAFTER_CX_ACHIEVEMENTS];
  crafter_cx_report(&env->state, achievements, NULL);
  int count = 0;
  for (int k = 0; k < CRAFTER_CX_ACHIEVEMENTS; k++) count += achievements[k];
  fprintf(out, "achievements %d of %d\n", count, CRAFTER_CX_ACHIEVEMENTS);
  if (message && *message) fprintf(out, "%s\n", message);
  fputs("move: w a s d or arrows   do: space   sleep: tab   rest: e   wait: .   quit: q\n"
        "place: t table, r stone, f furnace, p plant, j torch   ladders: > down, < up\n"
        "make: 1 wood, 2 stone, 3 iron, 4 diamond pickaxe; 5 wood, 6 stone, 7 iron, 8 diamond "
        "sword;\n"
        "      y iron, u diamond armour; o arrow, [ torch   shoot: i   spells: g fire, h ice\n"
        "drink: z red, x green, c blue, v pink, b cyan, n yellow   read: m   enchant: k sword, "
        "l armour, ; bow\n"
        "level up: ] dexterity, - strength, = intelligence\n",
        out);
}

/* Craftax's keys (its Action's, as its own player binds them), arrows
 * and '.' too. */
static int cx_action_of_key(int key) {
  static const char keys[] = "\0adws \trtfp123567e><48yuiogh"
                             "jzxcvbnmkl[]-=;";
  switch (key) {
    case '.': return 0;
    case CRAFTER_KEY_LEFT: return 1;
    case CRAFTER_KEY_RIGHT: return 2;
    case CRAFTER_KEY_UP: return 3;
    case CRAFTER_KEY_DOWN: return 4;
    default: break;
  }
  if (key <= 0 || key > 127) return -1;
  for (int a = 1; a < CRAFTER_CX_ACTIONS; a++)
    if (keys[a] == key) return a;
  return -1;
}

static int cx_asleep(const void *state) {
  const crafter_cx_state *s = state;
  return s->is_sleeping || s->is_resting;
}

/* How crafter-play shows each JAX game. */
typedef struct look {
  int game;
  void (*frame)(FILE *out, const crafter_jgame *g, void *env, const crafter_jgame_outcome *last,
                const char *message);
  int (*action_of_key)(int key);
  int (*asleep)(const void *state); /* time passes by itself */
  int32_t time_limit;
} look;

static const look looks[] = {
    {CRAFTER_GAME_CRAFTAX_CLASSIC, cc_frame, crafter_play_action_of_key, cc_asleep,
     CRAFTER_CC_MAX_TIMESTEPS},
    {CRAFTER_GAME_CRAFTAX, cx_frame, cx_action_of_key, cx_asleep, CRAFTER_CX_MAX_TIMESTEPS},
};

typedef struct cc_app {
  const crafter_jgame *g;
  const look *look;
  void *env;
  crafter_jgame_outcome last;
  int stepped, quit, failed;
  char message[640];
} cc_app;

/* The names of the achievements an outcome unlocked, ", " between. */
static void unlocked_list(const crafter_jgame *g, const crafter_jgame_outcome *o, char *out,
                          size_t size) {
  const crafter_game_info *info = crafter_jgame_info(g);
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < info->achievements; k++)
    if (crafter_jgame_unlocked(o, k)) {
      int written = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                             info->achievement_names[k]);
      if (written < 0 || (size_t)written >= size - used) break;
      used += (size_t)written;
    }
}

static void act(cc_app *a, int action) {
  a->g->act_only_many(a->env, &action, 1, &a->last);
  if (a->g->reset_due(a->env) != 0) {
    a->failed = a->quit = 1;
    return;
  }
  a->stepped = 1;
  a->message[0] = '\0';
  int any = 0;
  for (int w = 0; w < CRAFTER_JGAME_UNLOCKED_WORDS; w++) any |= a->last.unlocked[w] != 0;
  if (any) {
    char list[512];
    unlocked_list(a->g, &a->last, list, sizeof list);
    snprintf(a->message, sizeof a->message, "Unlocked: %s.", list);
  }
  int64_t episode = *a->g->fields(a->env).episode;
  if (a->last.done)
    snprintf(a->message, sizeof a->message,
             "Episode %lld ended at step %d%s; episode %lld begins (Craftax's auto-reset).",
             (long long)episode - 1, a->last.length,
             a->last.length >= a->look->time_limit ? " (the time limit)" : "", (long long)episode);
}

/* Takes the keys in bytes[0..length): 0, or the bytes of a sequence cut
 * short that wait for more. */
static size_t press(cc_app *a, const uint8_t *bytes, size_t length, int final) {
  size_t at = 0;
  while (at < length && !a->quit) {
    int key;
    size_t used = crafter_play_decode_key(bytes + at, length - at, final, &key);
    if (!used) break;
    at += used;
    if (key == 'q' || key == 'Q') {
      a->quit = 1;
      break;
    }
    int action = a->look->action_of_key(key);
    if (action >= 0) act(a, action);
  }
  return at;
}

static void show(cc_app *a) {
  static char *buffer;
  static size_t size;
  FILE *frame = open_memstream(&buffer, &size);
  if (!frame) return;
  fputs("\033[H\033[2J", frame);
  a->look->frame(frame, a->g, a->env, a->stepped ? &a->last : NULL, a->message);
  fclose(frame);
  for (size_t k = 0; k < size; k++) /* raw mode: lines end with CR LF */
    if (buffer[k] == '\n') crafter_terminal_write_all(STDOUT_FILENO, "\r\n", 2);
    else crafter_terminal_write_all(STDOUT_FILENO, buffer + k, 1);
}

static void run_terminal(cc_app *a, int speed) {
  show(a);
  uint8_t pending[64];
  size_t pending_length = 0;
  while (!a->quit && !crafter_terminal_quit_signal()) {
    /* Asleep, time passes by itself; a half escape sequence waits a
     * moment for the rest. */
    int asleep = a->look->asleep(a->g->state(a->env));
    int timeout = asleep ? 1000 / (speed > 0 ? speed : 10) : -1;
    if (pending_length && (timeout < 0 || timeout > 30)) timeout = 30;
    struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {crafter_terminal_wake_fd(), POLLIN, 0}};
    int ready = poll(fds, 2, timeout);
    crafter_terminal_drain_wake();
    if (ready < 0 && errno != EINTR) break;
    if (crafter_terminal_take_suspend()) {
      crafter_terminal_suspend();
      crafter_terminal_setup();
    }
    if (crafter_terminal_input_waiting()) {
      ssize_t got = read(STDIN_FILENO, pending + pending_length, sizeof pending - pending_length);
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) break;
      if (got > 0) pending_length += (size_t)got;
      size_t used = press(a, pending, pending_length, pending_length == sizeof pending);
      memmove(pending, pending + used, pending_length - used);
      pending_length -= used;
    } else if (ready == 0 && pending_length) {
      size_t used = press(a, pending, pending_length, 1);
      memmove(pending, pending + used, pending_length - used);
      pending_length -= used;
    } else if (ready == 0 && asleep) {
      act(a, 0);
    }
    show(a);
  }
}

int crafter_jplay_main(crafter_play_options *options) {
  static cc_app a;
  memset(&a, 0, sizeof a);
  a.g = crafter_jgame_of(options->run.game);
  for (size_t k = 0; k < sizeof looks / sizeof looks[0]; k++)
    if (looks[k].game == options->run.game) a.look = &looks[k];
  a.env = a.g && a.look ? calloc(1, a.g->env_size) : NULL;
  if (!a.env || a.g->start(a.env, options->run.params.seed) != 0) {
    fprintf(stderr, "%s: out of memory\n", options->program);
    free(a.env);
    return 1;
  }
  if (options->run.first_episode_given) *a.g->fields(a.env).episode = options->run.first_episode;
  int status = 0;
  if (!options->interactive) {
    if (options->keys)
      press(&a, (const uint8_t *)options->keys, strlen(options->keys), 1);
    if (!a.failed) a.look->frame(stdout, a.g, a.env, a.stepped ? &a.last : NULL, a.message);
  } else if (crafter_terminal_open() < 0) {
    fprintf(stderr, "%s: cannot set up the terminal: %s\n", options->program, strerror(errno));
    status = 1;
  } else {
    run_terminal(&a, options->speed);
    crafter_terminal_restore();
  }
  if (a.failed) {
    fprintf(stderr, "%s: out of memory\n", options->program);
    status = 1;
  }
  free(a.env);
  crafter_run_free(&options->run);
  crafter_terminal_reraise();
  return crafter_close_stdout(options->program, status);
}
