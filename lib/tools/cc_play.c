#include "tools/cc_play.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/terminal.h"
#include "crafter/ids.h"
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

void crafter_cc_play_frame(FILE *out, const crafter_cc_env *env, const crafter_cc_outcome *last,
                           const char *message) {
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

typedef struct cc_app {
  crafter_cc_env env;
  crafter_cc_outcome last;
  int stepped, quit, failed;
  char message[640];
} cc_app;

static void act(cc_app *a, int action) {
  if (crafter_cc_env_act(&a->env, action, &a->last) != 0) {
    a->failed = a->quit = 1;
    return;
  }
  a->stepped = 1;
  a->message[0] = '\0';
  if (a->last.unlocked) {
    char list[512];
    crafter_play_achievement_list(a->last.unlocked, list, sizeof list);
    snprintf(a->message, sizeof a->message, "Unlocked: %s.", list);
  }
  if (a->last.done)
    snprintf(a->message, sizeof a->message,
             "Episode %lld ended at step %d%s; episode %lld begins (Craftax's auto-reset).",
             (long long)a->env.episode - 1, a->last.length,
             a->last.length >= CRAFTER_CC_MAX_TIMESTEPS ? " (the time limit)" : "",
             (long long)a->env.episode);
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
    int action = crafter_play_action_of_key(key);
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
  crafter_cc_play_frame(frame, &a->env, a->stepped ? &a->last : NULL, a->message);
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
    int timeout = a->env.state.is_sleeping ? 1000 / (speed > 0 ? speed : 10) : -1;
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
    } else if (ready == 0 && a->env.state.is_sleeping) {
      act(a, CRAFTER_NOOP);
    }
    show(a);
  }
}

int crafter_cc_play_main(crafter_play_options *options) {
  static cc_app a;
  memset(&a, 0, sizeof a);
  if (crafter_cc_env_start(&a.env, options->run.params.seed) != 0) {
    fprintf(stderr, "%s: out of memory\n", options->program);
    return 1;
  }
  if (options->run.first_episode_given) a.env.episode = options->run.first_episode;
  int status = 0;
  if (!options->interactive) {
    if (options->keys)
      press(&a, (const uint8_t *)options->keys, strlen(options->keys), 1);
    if (!a.failed) crafter_cc_play_frame(stdout, &a.env, a.stepped ? &a.last : NULL, a.message);
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
  crafter_run_free(&options->run);
  crafter_terminal_reraise();
  return crafter_close_stdout(options->program, status);
}
