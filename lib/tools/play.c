#include "tools/play.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/terminal.h"
#include "tools/play_game.h"
#include "tools/play_keys.h"
#include "tools/play_replay.h"
#include "tools/play_screen.h"

/* ---- the program: crafter-play ---- */

static const int speeds[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
enum { SPEED_COUNT = sizeof(speeds) / sizeof(speeds[0]) };

typedef struct app {
  int replaying;
  crafter_play_game game;
  crafter_play_replay replay;
  crafter_play_screen *screen;
  int interactive;  /* a terminal in raw mode, not --keys or --no-wait */
  int columns, rows;
  int paused;
  int speed;        /* steps per second: of a replay, of sleep, or in real time */
  int real_time;    /* play goes on by itself, a frame at a time (--fps) */
  crafter_play_frames frames;
  int quit;
  int clear;        /* clear the screen before the next frame */
  crafter_play_text frame;
  char title[200], progress[200];
  char error[512];
  int failed;       /* 1 on an error that ends the program */
  int suspend, continued, resized; /* what signals asked for, not yet done */
  int players;      /* sharing the world in play: 1, or 2 on one keyboard */
  char side_title[CRAFTER_PLAYERS_MAX][200], side_progress[CRAFTER_PLAYERS_MAX][200];
} app;

static crafter_env *app_env(app *a) {
  return a->replaying ? &a->replay.env : crafter_play_game_env(&a->game);
}

static void describe(app *a, crafter_play_status *status) {
  memset(status, 0, sizeof(*status));
  if (a->replaying) {
    const crafter_play_replay *replay = &a->replay;
    char player[48] = "";
    if (replay->players > 1)
      snprintf(player, sizeof(player), "  player %d", replay->player);
    snprintf(a->title, sizeof(a->title), "Replay  episode %lld  seed %lld%s  (index %zu)",
             (long long)replay->episode.episode, (long long)replay->episode.seed, player,
             replay->index);
    int at_end = replay->t == (long)replay->length;
    if (!a->interactive)
      snprintf(a->progress, sizeof(a->progress), "of %u", replay->length);
    else
      snprintf(a->progress, sizeof(a->progress), "of %u, %s at %d steps/s",
               replay->length,
               at_end ? "at the end" : a->paused ? "paused" : "playing", a->speed);
    status->reward = replay->reward;
    status->message = replay->message;
    status->help = crafter_play_replay_help;
    status->instruction = crafter_play_replay_instruction(replay);
  } else {
    crafter_play_game *game = &a->game;
    const crafter_env *env = crafter_play_game_env(game);
    if (game->run->level_set)
      snprintf(a->title, sizeof(a->title), "Crafter  seed %lld  level %lld%s",
               (long long)env->params.seed, (long long)env->episode,
               game->writer ? "  (recording)" : "");
    else
      snprintf(a->title, sizeof(a->title), "Crafter  seed %lld  episode %lld%s",
               (long long)env->params.seed, (long long)env->episode,
               game->writer ? "  (recording)" : "");
    a->progress[0] = '\0';
    if (a->real_time)
      snprintf(a->progress, sizeof(a->progress), "(real time, %d steps/s)", a->speed);
    else if (a->interactive && crafter_game_player_const(&env->game, 0)->sleeping && !game->over)
      snprintf(a->progress, sizeof(a->progress), "(time passes at %d steps/s)", a->speed);
    status->reward = game->reward;
    status->message = game->record_failed ? game->record_error : game->message;
    status->help = crafter_play_help;
    status->instruction = crafter_play_game_instruction(game);
  }
  status->title = a->title;
  status->progress = a->progress[0] ? a->progress : NULL;
}

/* What player p's half of the frame says in a game of several players. */
static void describe_side(app *a, int p, crafter_play_status *status) {
  memset(status, 0, sizeof(*status));
  crafter_play_game *game = &a->game;
  const crafter_env *env = crafter_play_game_env(game);
  const crafter_play_side *side = &game->side[p];
  snprintf(a->side_title[p], sizeof(a->side_title[p]), "Player %d  seed %lld  %s %lld", p,
           (long long)env->params.seed, game->run->level_set ? "level" : "episode",
           (long long)env->episode);
  const char *end = side->over == CRAFTER_TRAJ_DIED        ? "died"
                    : side->over == CRAFTER_TRAJ_GOAL      ? "goal met"
                    : side->over == CRAFTER_TRAJ_TIME_LIMIT ? "time is up"
                                                           : NULL;
  a->side_progress[p][0] = '\0';
  if (end)
    snprintf(a->side_progress[p], sizeof(a->side_progress[p]), "(%s)", end);
  else if (a->real_time)
    snprintf(a->side_progress[p], sizeof(a->side_progress[p]), "(real time, %d steps/s)",
             a->speed);
  else if (a->interactive && crafter_play_game_asleep(game))
    snprintf(a->side_progress[p], sizeof(a->side_progress[p]), "(time passes at %d steps/s)",
             a->speed);
  status->title = a->side_title[p];
  status->progress = a->side_progress[p][0] ? a->side_progress[p] : NULL;
  status->reward = side->reward;
  status->message = game->record_failed ? game->record_error : side->message;
  status->instruction = crafter_play_game_player_instruction(game, p);
}

/* The frame of play by several players into a->frame: 0, or -1 when
 * memory ran out. */
static int draw_sides(app *a) {
  crafter_play_status status[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < a->players; p++) describe_side(a, p, &status[p]);
  return crafter_play_draw_players(a->screen, app_env(a), a->players, status,
                                   crafter_play_two_help, a->columns, a->rows, &a->frame);
}

/* Draws the frame: over the whole terminal, or on standard output. */
static void show(app *a) {
  crafter_play_status status;
  describe(a, &status);
  if (a->interactive && crafter_terminal_take_window_change()) {
    crafter_terminal_size(&a->columns, &a->rows);
    a->clear = 1;
  }
  int drawn = a->players > 1 && !a->replaying
                  ? draw_sides(a)
                  : crafter_play_draw(a->screen, app_env(a), a->replaying ? a->replay.player : 0,
                                      &status, a->columns, a->rows, &a->frame);
  if (drawn < 0) {
    snprintf(a->error, sizeof(a->error), "out of memory");
    a->failed = 1;
    a->quit = 1;
    return;
  }
  if (!a->interactive) {
    fwrite(a->frame.data, 1, a->frame.length, stdout);
    fputc('\n', stdout);
    return;
  }
  /* Line by line from the top, each erased to its end, then the rest of
   * the screen: no flicker, and nothing scrolls. */
  char *text = a->frame.data;
  size_t size = a->frame.length + 64;
  for (size_t i = 0; i < a->frame.length; i++)
    if (text[i] == '\n') size += 8;
  char *buffer = malloc(size);
  if (!buffer) {
    snprintf(a->error, sizeof(a->error), "out of memory");
    a->failed = 1;
    a->quit = 1;
    return;
  }
  size_t used = 0;
  const char *home = a->clear ? "\033[0m\033[H\033[2J" : "\033[H";
  a->clear = 0;
  memcpy(buffer, home, strlen(home));
  used += strlen(home);
  for (size_t i = 0; i < a->frame.length; i++) {
    if (text[i] == '\n') {
      memcpy(buffer + used, "\033[0m\033[K\r\n", 9);
      used += 9;
    } else {
      buffer[used++] = text[i];
    }
  }
  memcpy(buffer + used, "\033[0m\033[K\033[J", 10);
  used += 10;
  crafter_terminal_write_all(STDOUT_FILENO, buffer, used);
  free(buffer);
}

static int faster(int speed) {
  for (int i = 0; i < SPEED_COUNT; i++)
    if (speeds[i] > speed) return speeds[i];
  return speed;
}

static int slower(int speed) {
  for (int i = SPEED_COUNT - 1; i >= 0; i--)
    if (speeds[i] < speed) return speeds[i];
  return speed;
}

static void replay_seek(app *a, long t) {
  if (crafter_play_replay_seek(&a->replay, t, a->error, sizeof(a->error)) < 0) {
    a->failed = 1;
    a->quit = 1;
  }
}

/* One key; returns 1 when the frame changed. */
static int press(app *a, int key) {
  int command = crafter_play_command_of_key(key, a->replaying);
  switch (command) {
    case CRAFTER_PLAY_QUIT: a->quit = 1; return 0;
    case CRAFTER_PLAY_REDRAW: a->clear = 1; return 1;
    case CRAFTER_PLAY_FASTER:
    case CRAFTER_PLAY_SLOWER:
      a->speed = command == CRAFTER_PLAY_FASTER ? faster(a->speed) : slower(a->speed);
      if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
      return 1;
    default: break;
  }
  if (a->replaying) {
    crafter_play_replay *replay = &a->replay;
    switch (command) {
      case CRAFTER_PLAY_PAUSE:
        if (replay->t == (long)replay->length) { /* again from the start */
          replay_seek(a, 0);
          a->paused = 0;
        } else {
          a->paused = !a->paused;
        }
        return 1;
      case CRAFTER_PLAY_FORWARD: a->paused = 1; replay_seek(a, replay->t + 1); return 1;
      case CRAFTER_PLAY_BACK: a->paused = 1; replay_seek(a, replay->t - 1); return 1;
      default: return 0;
    }
  }
  crafter_play_game *game = &a->game;
  if (game->over) { /* any key starts the next episode */
    if (crafter_play_game_next_episode(game, a->error, sizeof(a->error)) < 0) {
      a->failed = 1;
      a->quit = 1;
    }
    if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
    return 1;
  }
  if (a->players > 1) {
    int player;
    int action = crafter_play_player_action_of_key(key, a->players, &player);
    if (action < 0) return 0;
    if (player >= 0 && !crafter_play_game_player_active(game, player)) return 0; /* it died */
    if (a->real_time) { /* the frame takes it when it ends; a wait is everyone's */
      for (int p = 0; p < a->players; p++)
        if (p == player || player < 0) crafter_play_frames_key_player(&a->frames, p, action);
      return 0;
    }
    int actions[CRAFTER_PLAYERS_MAX] = {0};
    if (player >= 0) actions[player] = action;
    crafter_play_game_act_players(game, actions);
    return 1;
  }
  int action = crafter_play_action_of_key(key);
  if (action < 0) return 0;
  if (a->real_time) { /* the frame takes it when it ends */
    crafter_play_frames_key(&a->frames, action);
    return 0;
  }
  crafter_play_game_act(game, action);
  return 1;
}

/* Feeds bytes to the keys; returns the bytes used (an unfinished escape
 * sequence stays unless `final`). */
static size_t press_bytes(app *a, const uint8_t *bytes, size_t length, int final, int *changed) {
  size_t used = 0;
  while (used < length && !a->quit) {
    int key;
    size_t taken = crafter_play_decode_key(bytes + used, length - used, final, &key);
    if (taken == 0) break;
    used += taken;
    *changed |= press(a, key);
  }
  return used;
}

/* The interval until the next step that happens by itself, -1 for none. */
static long tick_interval(app *a) {
  if (a->replaying) {
    if (a->paused || a->replay.t >= (long)a->replay.length) return -1;
  } else if (a->game.over || !crafter_play_game_asleep(&a->game) || a->real_time) {
    return -1;
  }
  return 1000 / a->speed;
}

/* Real-time play: steps whose frames have ended.  Returns 1 when the
 * game moved. */
static int run_frames(app *a) {
  if (!a->real_time || a->replaying || a->game.over) return 0;
  int actions[CRAFTER_PLAYERS_MAX];
  if (!crafter_play_frames_take_players(&a->frames, crafter_terminal_now_ms(), a->players,
                                        actions))
    return 0;
  crafter_play_game_act_players(&a->game, actions);
  return 1;
}

static void tick(app *a) {
  if (a->replaying) {
    replay_seek(a, a->replay.t + 1);
    if (a->replay.t >= (long)a->replay.length) a->paused = 1;
  } else {
    int actions[CRAFTER_PLAYERS_MAX] = {0}; /* every player waits */
    crafter_play_game_act_players(&a->game, actions);
  }
}

static void run_interactive(app *a) {
  crafter_terminal_size(&a->columns, &a->rows);
  if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
  show(a);
  uint8_t pending[256];
  size_t pending_length = 0;
  long next_tick = -1;
  while (!a->quit) {
    long interval = tick_interval(a);
    if (interval < 0) {
      next_tick = -1;
    } else if (next_tick < 0) {
      next_tick = crafter_terminal_now_ms() + interval;
    }
    int timeout = -1;
    if (next_tick >= 0) {
      long left = next_tick - crafter_terminal_now_ms();
      timeout = left < 0 ? 0 : (int)left;
    }
    if (a->real_time && !a->replaying && !a->game.over) {
      long left = crafter_play_frames_wait(&a->frames, crafter_terminal_now_ms());
      if (timeout < 0 || left < timeout) timeout = (int)left;
    }
    /* Half an escape sequence waits a moment for the rest. */
    int waiting_for_sequence = pending_length > 0;
    if (waiting_for_sequence && (timeout < 0 || timeout > 30)) timeout = 30;
    struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {crafter_terminal_wake_fd(), POLLIN, 0}};
    int ready = 0;
    if (!crafter_terminal_quit_signal() && !a->suspend && !a->continued && !a->resized) {
      ready = poll(fds, 2, timeout);
      if (ready < 0 && errno != EINTR) {
        snprintf(a->error, sizeof(a->error), "waiting for keys: %s", strerror(errno));
        a->failed = 1;
        break;
      }
    }
    crafter_terminal_drain_wake();
    a->suspend |= crafter_terminal_take_suspend();
    a->continued |= crafter_terminal_take_continued();
    a->resized |= crafter_terminal_take_window_change();
    /* Keys that arrived before a signal are still the player's. */
    int changed = 0;
    if (crafter_terminal_input_waiting()) {
      ssize_t got = read(STDIN_FILENO, pending + pending_length, sizeof(pending) - pending_length);
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) { /* the terminal is gone */
        a->quit = 1;
        break;
      }
      if (got > 0) pending_length += (size_t)got;
      size_t used = press_bytes(a, pending, pending_length, pending_length == sizeof(pending),
                                &changed);
      memmove(pending, pending + used, pending_length - used);
      pending_length -= used;
    } else if (ready == 0 && waiting_for_sequence) {
      size_t used = press_bytes(a, pending, pending_length, 1, &changed);
      memmove(pending, pending + used, pending_length - used);
      pending_length -= used;
    }
    if (a->quit || crafter_terminal_quit_signal()) break;
    if (next_tick >= 0 && crafter_terminal_now_ms() >= next_tick && tick_interval(a) >= 0) {
      tick(a);
      changed = 1;
      next_tick += tick_interval(a) > 0 ? tick_interval(a) : 0;
      if (next_tick < crafter_terminal_now_ms()) next_tick = crafter_terminal_now_ms(); /* fell behind: do not hurry */
    }
    changed |= run_frames(a);
    if (changed) show(a);
    if (a->suspend) {
      a->suspend = 0;
      crafter_terminal_suspend();
      a->continued = 1;
    }
    if (a->continued || a->resized) {
      if (!crafter_terminal_raw()) crafter_terminal_setup();
      /* Back from ^Z: the time away is not played. */
      if (a->continued && a->real_time)
        crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
      a->continued = a->resized = 0;
      crafter_terminal_note_window_change();
      a->clear = 1;
      show(a);
    }
  }
}


/* The textures and the screen to draw on: 0, or 1 after saying why not. */
static int open_screen(app *p, const crafter_play_options *a, crafter_textures *textures,
                       int *have_textures) {
  char error[1024];
  /* Into a pipe or a file, letters unless an option asks for colour. */
  int colour_asked = a->cell_rows || a->run.textures;
  int mode = a->glyphs        ? CRAFTER_PLAY_GLYPHS
             : a->colors >= 0 ? a->colors
                              : crafter_play_mode_for_terminal(
                                    isatty(STDOUT_FILENO) || colour_asked, getenv("COLORTERM"),
                                    getenv("TERM"));
  if (mode != CRAFTER_PLAY_GLYPHS) {
    int loaded = crafter_textures_load(textures, a->run.textures, error, sizeof(error));
    if (loaded < 0) {
      fprintf(stderr, "%s: %s\n", a->program, error);
      return 1;
    }
    *have_textures = 1;
  }
  p->screen = crafter_play_screen_new(&app_env(p)->params, mode, *have_textures ? textures : NULL,
                                      a->cell_rows, error, sizeof(error));
  if (!p->screen) {
    fprintf(stderr, "%s: %s\n", a->program, error);
    return 1;
  }
  return 0;
}

/* Plays: in the terminal, or without one the keys given (or the whole
 * replay), then prints the last frame.  0, or 1 after saying what failed. */
static int play(app *p, const crafter_play_options *a) {
  if (!a->interactive) {
    /* On a terminal the frame fits it. */
    if (isatty(STDOUT_FILENO)) crafter_terminal_size(&p->columns, &p->rows);
    if (a->no_wait) replay_seek(p, (long)p->replay.length);
    if (a->keys) {
      int changed = 0;
      press_bytes(p, (const uint8_t *)a->keys, strlen(a->keys), 1, &changed);
    }
    if (!p->failed) show(p);
    if (fflush(stdout) != 0) {
      snprintf(p->error, sizeof(p->error), "writing standard output: %s", strerror(errno));
      p->failed = 1;
    }
  } else if (crafter_terminal_open() < 0) {
    snprintf(p->error, sizeof(p->error), "cannot set up the terminal: %s", strerror(errno));
    p->failed = 1;
  } else {
    run_interactive(p);
    crafter_terminal_restore();
  }
  int status = 0;
  if (p->failed) {
    fprintf(stderr, "%s: %s\n", a->program, p->error);
    status = 1;
  }
  if (p->replaying && p->replay.mismatch >= 0) {
    fprintf(stderr, "%s: %s: %s\n", a->program, a->replay_path, p->replay.mismatch_reason);
    status = 1;
  }
  return status;
}

int crafter_play_main(crafter_play_options *a) {
  char error[1024];
  crafter_run *run = &a->run;
  int status = crafter_run_open_rules(run, error, sizeof(error));
  if (status != 0) {
    fprintf(stderr, "%s: %s\n", a->program, error);
    crafter_run_free(run);
    return status;
  }
  if (!a->replay_path) {
    if (crafter_params_check(&run->params, error, sizeof(error)) < 0) {
      crafter_usage_error(a->program, "%s", error);
    }
    if ((status = crafter_run_open_tasks(run, error, sizeof(error))) == 0)
      status = crafter_run_open_levels(run, error, sizeof(error));
    if (status != 0) {
      fprintf(stderr, "%s: %s\n", a->program, error);
      crafter_run_free(run);
      return status;
    }
  }
  static app p;
  memset(&p, 0, sizeof(p));
  p.interactive = a->interactive;
  p.speed = a->fps ? a->fps : a->speed;
  p.real_time = a->fps > 0;
  p.replaying = a->replay_path != NULL;
  p.players = run->players > 1 && !p.replaying ? run->players : 1;
  status = 0;
  if (p.replaying) {
    if (crafter_play_replay_open(&p.replay, a->replay_path, (size_t)a->episode_index, run->config,
                                 run->world, error, sizeof(error)) != 0) {
      fprintf(stderr, "%s: %s\n", a->program, error);
      status = 1;
    }
    p.paused = a->keys != NULL;
  } else if (crafter_play_game_init(&p.game, run, error, sizeof(error)) < 0) {
    fprintf(stderr, "%s: %s\n", a->program, error);
    status = 1;
  }
  crafter_textures textures;
  int have_textures = 0;
  int started = status == 0;
  if (status == 0) status = open_screen(&p, a, &textures, &have_textures);
  if (status == 0) status = play(&p, a);
  if (started && p.replaying) {
    crafter_play_replay_free(&p.replay);
  } else if (started && crafter_play_game_finish(&p.game, error, sizeof(error)) < 0) {
    fprintf(stderr, "%s: %s: %s\n", a->program, run->record_path, error);
    status = 1;
  }
  crafter_play_screen_free(p.screen);
  if (have_textures) crafter_textures_fini(&textures);
  crafter_play_text_free(&p.frame);
  crafter_run_free(run);
  crafter_terminal_reraise(); /* finish as a signal would have, now that all is saved */
  return crafter_close_stdout(a->program, status);
}
