/* crafter-play: play Crafter in a terminal with the keyboard, record what
 * is played, or replay a recorded episode.  Options are parsed here, and
 * the terminal is owned here (raw mode, the alternate screen, signals,
 * timing); the game, the keys and the frame are the library's (play.h). */
#define _DEFAULT_SOURCE /* struct winsize and TIOCGWINSZ */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "envopts.h"
#include "config.h"
#include "env.h"
#include "play.h"
#include "textures.h"
#include "worldfile.h"

#define PROGRAM "crafter-play"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " [OPTION]...\n"
          "  or:  " PROGRAM " --replay=FILE [OPTION]...\n"
          "Play Crafter in the terminal, one step per key press (or in real time with\n"
          "--fps); or replay an episode of a trajectory file.\n"
          "\n"
          "Keys (as Crafter's own GUI): w a s d or the arrows move, space do, tab sleep,\n"
          "t place a table, r a stone, f a furnace, p a plant; 1 2 3 make a wood, stone,\n"
          "iron pickaxe, 4 5 6 a wood, stone, iron sword; . or n waits a step; q quits.\n"
          "While the player sleeps time passes by itself (+ and - change its speed).\n"
          "\n"
          "The game (as crafter.Env):\n"
          "  -s, --seed=N            the Env seed (default 0)\n"
          "  -e, --first-episode=E   episode counter of the first episode (default 1);\n"
          "                          --episode=E is the same\n"
          "      --area=W,H          world size in cells (default 64,64)\n"
          "      --view=W,H          view grid in cells (default 9,9); the local view shown\n"
          "                          is the grid less the inventory rows\n"
          "      --size=W,H          observation size in pixels (default 64,64): it decides\n"
          "                          the night's random draws, so keep it as recorded\n"
          "      --length=L          time limit in steps, 0 for none (default 10000)\n"
          "  -c, --config=FILE       the game's rules and numbers from FILE\n"
          "                          (crafter-config(5))\n"
          "  -w, --world=FILE        start every episode on the world in FILE\n"
          "                          (crafter-world(5))\n"
          "      --record=FILE       write every episode played to the trajectory file FILE\n"
          "                          (crafter-trajectory(5)), as crafter-step --record does\n"
          "      --fps=N             real time, as Crafter's own GUI: N steps a second\n"
          "                          (1..1000), each with the last key pressed during it,\n"
          "                          or noop when none was; + and - change N\n"
          "\n"
          "Replay:\n"
          "  -r, --replay=FILE       replay an episode of FILE, re-simulated from its seeds\n"
          "                          and actions: space pauses and resumes, . or right\n"
          "                          arrow steps, , or left arrow steps back, + and -\n"
          "                          change the speed\n"
          "      --episode-index=I   the episode of FILE to replay, from 0 (default 0)\n"
          "      --no-wait           replay to the end at once, print the last frame on\n"
          "                          standard output and exit; no terminal needed\n"
          "\n"
          "Screen:\n"
          "  -g, --glyphs            one letter per cell, no colour (as crafter-gen's map);\n"
          "                          the default when standard output is not a terminal\n"
          "      --colors=MODE       truecolor or 256; default: truecolor when $COLORTERM\n"
          "                          is truecolor or 24bit, letters when $TERM is dumb,\n"
          "                          else 256\n"
          "      --cell=N            terminal rows per cell in colour (a cell is 2N columns\n"
          "                          wide); default: 4 or 3 as fits, else letters (a\n"
          "                          terminal under about 90x26)\n"
          "  -t, --textures=DIR      draw with the PNG files in DIR (Crafter's assets\n"
          "                          folder) instead of the built-in textures\n"
          "      --speed=N           steps per second of a replay and of sleep (default 10)\n"
          "  -k, --keys=KEYS         play (or replay) these keys instead of reading the\n"
          "                          keyboard, print the last frame on standard output and\n"
          "                          exit; no terminal needed\n"
          "\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 on a bad file or a replay that differs from its\n"
          "recording, 2 on bad options or without a terminal.  See crafter-play(1).\n");
}

static void usage_error(const char *format, const char *argument) {
  fprintf(stderr, PROGRAM ": ");
  fprintf(stderr, format, argument);
  fprintf(stderr, "\nTry '" PROGRAM " --help' for more information.\n");
  exit(2);
}

/* ---- the terminal ----
 * The program's own state, so that an exit, a signal or a suspension can
 * give the terminal back as it was. */

static struct termios saved_termios;
static volatile sig_atomic_t terminal_raw;
static volatile sig_atomic_t quit_signal, suspend_requested, window_changed, continued;
static int wake_pipe[2] = {-1, -1};

static void write_all(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t written = write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    size -= (size_t)written;
  }
}

static const char enter_screen[] = "\033[?1049h\033[?25l\033[H\033[2J";
static const char leave_screen[] = "\033[0m\033[?25h\033[?1049l";

static void terminal_restore(void) {
  if (!terminal_raw) return;
  write_all(STDOUT_FILENO, leave_screen, sizeof(leave_screen) - 1);
  tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios);
  terminal_raw = 0;
}

/* Keys one by one without echo; ^C, ^Z and ^\ still make their signals. */
static int terminal_setup(void) {
  struct termios raw = saved_termios;
  raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
  raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT | INPCK);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) < 0) return -1;
  terminal_raw = 1;
  write_all(STDOUT_FILENO, enter_screen, sizeof(enter_screen) - 1);
  return 0;
}

static void wake(void) {
  if (wake_pipe[1] >= 0) {
    int saved_errno = errno;
    ssize_t ignored = write(wake_pipe[1], "x", 1);
    (void)ignored;
    errno = saved_errno;
  }
}

static void on_quit_signal(int signal_number) {
  quit_signal = signal_number;
  wake();
}
static void on_suspend(int signal_number) {
  (void)signal_number;
  suspend_requested = 1;
  wake();
}
static void on_window_change(int signal_number) {
  (void)signal_number;
  window_changed = 1;
  wake();
}
static void on_continue(int signal_number) {
  (void)signal_number;
  continued = 1;
  wake();
}

static void handle(int signal_number, void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; /* no SA_RESTART: a signal ends the wait in poll() */
  sigaction(signal_number, &action, NULL);
}

static int open_terminal(void) {
  if (tcgetattr(STDIN_FILENO, &saved_termios) < 0) return -1;
  if (pipe(wake_pipe) < 0) return -1;
  for (int i = 0; i < 2; i++) {
    fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
    fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
  }
  atexit(terminal_restore);
  handle(SIGINT, on_quit_signal);
  handle(SIGTERM, on_quit_signal);
  handle(SIGHUP, on_quit_signal);
  handle(SIGQUIT, on_quit_signal);
  handle(SIGTSTP, on_suspend);
  handle(SIGCONT, on_continue);
  handle(SIGWINCH, on_window_change);
  return terminal_setup();
}

/* Gives the terminal back, stops as ^Z asks, and takes it again once
 * continued. */
static void suspend(void) {
  suspend_requested = 0;
  terminal_restore();
  signal(SIGTSTP, SIG_DFL);
  raise(SIGTSTP); /* stops here until SIGCONT */
  handle(SIGTSTP, on_suspend);
  terminal_setup();
}

static void terminal_size(int *columns, int *rows) {
  struct winsize size;
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
    *columns = size.ws_col;
    *rows = size.ws_row;
  } else {
    *columns = 80;
    *rows = 24;
  }
}

static long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* ---- the program ---- */

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
} app;

static crafter_env *app_env(app *a) { return a->replaying ? &a->replay.env : &a->game.env; }

static void describe(app *a, crafter_play_status *status) {
  memset(status, 0, sizeof(*status));
  if (a->replaying) {
    const crafter_play_replay *replay = &a->replay;
    snprintf(a->title, sizeof(a->title), "Replay  episode %lld  seed %lld  (index %zu)",
             (long long)replay->episode.episode, (long long)replay->episode.seed, replay->index);
    int at_end = replay->t == (long)replay->data.steps_count;
    if (!a->interactive)
      snprintf(a->progress, sizeof(a->progress), "of %u", replay->data.steps_count);
    else
      snprintf(a->progress, sizeof(a->progress), "of %u, %s at %d steps/s",
               replay->data.steps_count,
               at_end ? "at the end" : a->paused ? "paused" : "playing", a->speed);
    status->reward = replay->reward;
    status->message = replay->message;
    status->help = crafter_play_replay_help;
  } else {
    const crafter_play_game *game = &a->game;
    snprintf(a->title, sizeof(a->title), "Crafter  seed %lld  episode %lld%s",
             (long long)game->env.params.seed, (long long)game->env.episode,
             game->writer ? "  (recording)" : "");
    a->progress[0] = '\0';
    if (a->real_time)
      snprintf(a->progress, sizeof(a->progress), "(real time, %d steps/s)", a->speed);
    else if (a->interactive && game->env.game.player.sleeping && !game->over)
      snprintf(a->progress, sizeof(a->progress), "(time passes at %d steps/s)", a->speed);
    status->reward = game->reward;
    status->message = game->record_failed ? game->record_error : game->message;
    status->help = crafter_play_help;
  }
  status->title = a->title;
  status->progress = a->progress[0] ? a->progress : NULL;
}

/* Draws the frame: over the whole terminal, or on standard output. */
static void show(app *a) {
  crafter_play_status status;
  describe(a, &status);
  if (a->interactive && window_changed) {
    window_changed = 0;
    terminal_size(&a->columns, &a->rows);
    a->clear = 1;
  }
  if (crafter_play_draw(a->screen, app_env(a), &status, a->columns, a->rows, &a->frame) < 0) {
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
  write_all(STDOUT_FILENO, buffer, used);
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
      if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, now_ms());
      return 1;
    default: break;
  }
  if (a->replaying) {
    crafter_play_replay *replay = &a->replay;
    switch (command) {
      case CRAFTER_PLAY_PAUSE:
        if (replay->t == (long)replay->data.steps_count) { /* again from the start */
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
    if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, now_ms());
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
    if (a->paused || a->replay.t >= (long)a->replay.data.steps_count) return -1;
  } else if (a->game.over || !a->game.env.game.player.sleeping || a->real_time) {
    return -1;
  }
  return 1000 / a->speed;
}

/* Real-time play: steps whose frames have ended.  Returns 1 when the
 * game moved. */
static int run_frames(app *a) {
  if (!a->real_time || a->replaying || a->game.over) return 0;
  int action = crafter_play_frames_take(&a->frames, now_ms());
  if (action < 0) return 0;
  crafter_play_game_act(&a->game, action);
  return 1;
}

static void tick(app *a) {
  if (a->replaying) {
    replay_seek(a, a->replay.t + 1);
    if (a->replay.t >= (long)a->replay.data.steps_count) a->paused = 1;
  } else {
    crafter_play_game_act(&a->game, CRAFTER_NOOP);
  }
}

static int input_waiting(void) {
  struct pollfd input = {STDIN_FILENO, POLLIN, 0};
  return poll(&input, 1, 0) > 0 && (input.revents & (POLLIN | POLLHUP | POLLERR));
}

static void run_interactive(app *a) {
  terminal_size(&a->columns, &a->rows);
  if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, now_ms());
  show(a);
  uint8_t pending[256];
  size_t pending_length = 0;
  long next_tick = -1;
  while (!a->quit) {
    long interval = tick_interval(a);
    if (interval < 0) {
      next_tick = -1;
    } else if (next_tick < 0) {
      next_tick = now_ms() + interval;
    }
    int timeout = -1;
    if (next_tick >= 0) {
      long left = next_tick - now_ms();
      timeout = left < 0 ? 0 : (int)left;
    }
    if (a->real_time && !a->replaying && !a->game.over) {
      long left = crafter_play_frames_wait(&a->frames, now_ms());
      if (timeout < 0 || left < timeout) timeout = (int)left;
    }
    /* Half an escape sequence waits a moment for the rest. */
    int waiting_for_sequence = pending_length > 0;
    if (waiting_for_sequence && (timeout < 0 || timeout > 30)) timeout = 30;
    struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {wake_pipe[0], POLLIN, 0}};
    int ready = 0;
    if (!quit_signal && !suspend_requested && !continued && !window_changed) {
      ready = poll(fds, 2, timeout);
      if (ready < 0 && errno != EINTR) {
        snprintf(a->error, sizeof(a->error), "waiting for keys: %s", strerror(errno));
        a->failed = 1;
        break;
      }
    }
    char drain[64];
    while (read(wake_pipe[0], drain, sizeof(drain)) > 0) {
    }
    /* Keys that arrived before a signal are still the player's. */
    int changed = 0;
    if (input_waiting()) {
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
    if (a->quit || quit_signal) break;
    if (next_tick >= 0 && now_ms() >= next_tick && tick_interval(a) >= 0) {
      tick(a);
      changed = 1;
      next_tick += tick_interval(a) > 0 ? tick_interval(a) : 0;
      if (next_tick < now_ms()) next_tick = now_ms(); /* fell behind: do not hurry */
    }
    changed |= run_frames(a);
    if (changed) show(a);
    if (suspend_requested) {
      suspend();
      continued = 1;
    }
    if (continued || window_changed) {
      if (!terminal_raw) terminal_setup();
      /* Back from ^Z: the time away is not played. */
      if (continued && a->real_time) crafter_play_frames_start(&a->frames, a->speed, now_ms());
      continued = 0;
      window_changed = 1;
      a->clear = 1;
      show(a);
    }
  }
}

/* enum crafter_given, and the episode, which configs do not set */
enum { GIVEN_EPISODE = 64 };

/* What the command line asks for. */
typedef struct arguments {
  crafter_params params;
  unsigned given;
  int64_t first_episode, episode_index;
  int glyphs, colors, cell_rows, speed, no_wait, given_index, fps, interactive;
  const char *config_path, *world_path, *record_path, *replay_path, *textures_dir, *keys;
} arguments;

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, arguments *a) {
  crafter_params_default(&a->params);
  a->first_episode = 1;
  a->colors = -1;
  a->speed = 10;
  int64_t number;
  enum { OPT_RECORD = 256, OPT_NO_WAIT, OPT_COLORS, OPT_CELL, OPT_SPEED, OPT_FPS };
  static const struct option long_options[] = {
      CRAFTER_OPTION_SEED_ENTRY,
      {"first-episode", required_argument, NULL, 'e'},
      {"episode", required_argument, NULL, 'e'},
      CRAFTER_OPTION_AREA_ENTRY,
      CRAFTER_OPTION_VIEW_ENTRY,
      CRAFTER_OPTION_SIZE_ENTRY,
      CRAFTER_OPTION_LENGTH_ENTRY,
      {"config", required_argument, NULL, 'c'},
      {"world", required_argument, NULL, 'w'},
      {"record", required_argument, NULL, OPT_RECORD},
      {"fps", required_argument, NULL, OPT_FPS},
      {"replay", required_argument, NULL, 'r'},
      {"episode-index", required_argument, NULL, 'i'},
      {"no-wait", no_argument, NULL, OPT_NO_WAIT},
      {"glyphs", no_argument, NULL, 'g'},
      {"colors", required_argument, NULL, OPT_COLORS},
      {"cell", required_argument, NULL, OPT_CELL},
      {"textures", required_argument, NULL, 't'},
      {"speed", required_argument, NULL, OPT_SPEED},
      {"keys", required_argument, NULL, 'k'},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  while ((option = getopt_long(argc, argv, "s:e:c:w:r:gt:k:hV", long_options, NULL)) != -1) {
    switch (option) {
      case 'e':
        a->first_episode = crafter_option_int64(PROGRAM, "first episode", optarg,
            1, CRAFTER_EPISODE_MAX);
        a->given |= GIVEN_EPISODE;
        break;
      case 'c': a->config_path = optarg; break;
      case 'w': a->world_path = optarg; break;
      case OPT_RECORD:
        if (!*optarg) usage_error("%s", "the file to record to is empty");
        a->record_path = optarg;
        break;
      case 'r':
        if (!*optarg) usage_error("%s", "the file to replay is empty");
        a->replay_path = optarg;
        break;
      case 'i':
        if (crafter_parse_int64(optarg, 0, INT32_MAX, &a->episode_index) < 0)
          usage_error("invalid episode index '%s' (expected 0 or more)", optarg);
        a->given_index = 1;
        break;
      case OPT_NO_WAIT: a->no_wait = 1; break;
      case 'g': a->glyphs = 1; break;
      case OPT_COLORS:
        if (strcmp(optarg, "truecolor") == 0 || strcmp(optarg, "24bit") == 0)
          a->colors = CRAFTER_PLAY_TRUECOLOR;
        else if (strcmp(optarg, "256") == 0)
          a->colors = CRAFTER_PLAY_COLOR_256;
        else
          usage_error("invalid colors '%s' (expected truecolor or 256)", optarg);
        break;
      case OPT_CELL:
        if (crafter_parse_int64(optarg, 1, 16, &number) < 0)
          usage_error("invalid cell '%s' (expected 1..16 rows)", optarg);
        a->cell_rows = (int)number;
        break;
      case 't': a->textures_dir = optarg; break;
      case OPT_SPEED:
        if (crafter_parse_int64(optarg, 1, 1000, &number) < 0)
          usage_error("invalid speed '%s' (expected 1..1000 steps per second)", optarg);
        a->speed = (int)number;
        break;
      case OPT_FPS:
        if (crafter_parse_int64(optarg, 1, 1000, &number) < 0)
          usage_error("invalid fps '%s' (expected 1..1000 steps per second)", optarg);
        a->fps = (int)number;
        break;
      case 'k': a->keys = optarg; break;
      case 'h': usage(stdout); exit(crafter_close_stdout(PROGRAM, 0));
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        exit(crafter_close_stdout(PROGRAM, 0));
      default:
        if (crafter_env_option(PROGRAM, option, optarg, &a->params, &a->given)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        exit(2);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  if (a->replay_path && (a->given || a->record_path))
    usage_error("%s", "--replay takes the seed, episode, area, view, size and length from "
                      "the file; --record is for play");
  if (!a->replay_path && (a->given_index || a->no_wait))
    usage_error("%s", "--episode-index and --no-wait are for --replay");
  if (a->no_wait && a->keys) usage_error("%s", "--no-wait and --keys do not go together");
  if (a->fps && (a->replay_path || a->keys))
    usage_error("%s", "--fps is for play in a terminal: a replay goes at --speed, and --keys "
                      "plays one step per key");
  if (a->glyphs && (a->colors >= 0 || a->cell_rows || a->textures_dir))
    usage_error("%s", "--colors, --cell and --textures are for colour, not --glyphs");
  a->interactive = !a->keys && !a->no_wait;
  if (a->interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
    usage_error("%s", isatty(STDIN_FILENO)
                          ? "standard output is not a terminal; play in a terminal, or use "
                            "--keys (or --replay with --no-wait) to print the last frame"
                          : "standard input is not a terminal; play in a terminal, or use "
                            "--keys (or --replay with --no-wait) to print the last frame");
}

/* The config of --config and the world of --world, with what they imply
 * for the env's parameters: 0, 1 on a bad file, 2 on a mismatch with the
 * options. */
static int load_inputs(arguments *a, crafter_config *config, crafter_world_map *map) {
  char error[1024];
  crafter_config_default(config);
  memset(map, 0, sizeof(*map));
  if (a->config_path) {
    if (crafter_config_load(a->config_path, config, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    crafter_params_take_unset(&a->params, &config->params, a->given);
  }
  if (a->world_path) {
    if (crafter_world_map_load(map, a->world_path, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    if ((a->given & CRAFTER_GIVEN_AREA) &&
        (a->params.area[0] != map->width || a->params.area[1] != map->height)) {
      fprintf(stderr, PROGRAM ": --area %d,%d does not match the %dx%d world of %s\n",
              a->params.area[0], a->params.area[1], map->width, map->height, a->world_path);
      return 2;
    }
    a->params.area[0] = map->width;
    a->params.area[1] = map->height;
  }
  if (!a->replay_path && crafter_params_check(&a->params, error, sizeof(error)) < 0) {
    crafter_world_map_free(map);
    usage_error("%s", error);
  }
  return 0;
}

/* The textures and the screen to draw on: 0, or 1 after saying why not. */
static int open_screen(app *p, const arguments *a, crafter_textures *textures,
                       int *have_textures) {
  char error[1024];
  /* Into a pipe or a file, letters unless an option asks for colour. */
  int colour_asked = a->cell_rows || a->textures_dir;
  int mode = a->glyphs        ? CRAFTER_PLAY_GLYPHS
             : a->colors >= 0 ? a->colors
                              : crafter_play_mode_for_terminal(
                                    isatty(STDOUT_FILENO) || colour_asked, getenv("COLORTERM"),
                                    getenv("TERM"));
  if (mode != CRAFTER_PLAY_GLYPHS) {
    int loaded = a->textures_dir ? crafter_textures_load_dir(textures, a->textures_dir, error,
                                                             sizeof(error))
                                 : crafter_textures_load_builtin(textures, error, sizeof(error));
    if (loaded < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    *have_textures = 1;
  }
  p->screen = crafter_play_screen_new(&app_env(p)->params, mode, *have_textures ? textures : NULL,
                                      a->cell_rows, error, sizeof(error));
  if (!p->screen) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    return 1;
  }
  return 0;
}

/* Plays: in the terminal, or without one the keys given (or the whole
 * replay), then prints the last frame.  0, or 1 after saying what failed. */
static int play(app *p, const arguments *a) {
  if (!a->interactive) {
    /* On a terminal the frame fits it. */
    if (isatty(STDOUT_FILENO)) terminal_size(&p->columns, &p->rows);
    if (a->no_wait) replay_seek(p, (long)p->replay.data.steps_count);
    if (a->keys) {
      int changed = 0;
      press_bytes(p, (const uint8_t *)a->keys, strlen(a->keys), 1, &changed);
    }
    if (!p->failed) show(p);
    if (fflush(stdout) != 0) {
      snprintf(p->error, sizeof(p->error), "writing standard output: %s", strerror(errno));
      p->failed = 1;
    }
  } else if (open_terminal() < 0) {
    snprintf(p->error, sizeof(p->error), "cannot set up the terminal: %s", strerror(errno));
    p->failed = 1;
  } else {
    run_interactive(p);
    terminal_restore();
  }
  int status = 0;
  if (p->failed) {
    fprintf(stderr, PROGRAM ": %s\n", p->error);
    status = 1;
  }
  if (p->replaying && p->replay.mismatch >= 0) {
    fprintf(stderr, PROGRAM ": %s: %s\n", a->replay_path, p->replay.mismatch_reason);
    status = 1;
  }
  return status;
}

static int run(arguments *a) {
  char error[1024];
  static crafter_config config;
  static crafter_world_map map;
  int status = load_inputs(a, &config, &map);
  if (status != 0) {
    crafter_world_map_free(&map);
    return status;
  }
  static app p;
  p.interactive = a->interactive;
  p.speed = a->fps ? a->fps : a->speed;
  p.real_time = a->fps > 0;
  p.replaying = a->replay_path != NULL;
  const crafter_config *given_config = a->config_path ? &config : NULL;
  const crafter_world_map *given_map = a->world_path ? &map : NULL;
  crafter_play_game_options game_options = {a->params, a->first_episode, given_config, given_map,
                                            a->record_path};
  if (p.replaying) {
    if (crafter_play_replay_open(&p.replay, a->replay_path, (size_t)a->episode_index,
                                 given_config, given_map, error, sizeof(error)) != 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      crafter_world_map_free(&map);
      return 1;
    }
    p.paused = a->keys != NULL;
  } else if (crafter_play_game_init(&p.game, &game_options, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s\n", error);
    crafter_world_map_free(&map);
    return 1;
  }
  crafter_textures textures;
  int have_textures = 0;
  status = open_screen(&p, a, &textures, &have_textures);
  if (status == 0) status = play(&p, a);

  if (p.replaying) {
    crafter_play_replay_free(&p.replay);
  } else if (crafter_play_game_finish(&p.game, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s: %s\n", a->record_path, error);
    status = 1;
  }
  crafter_play_screen_free(p.screen);
  if (have_textures) crafter_textures_free(&textures);
  crafter_play_text_free(&p.frame);
  crafter_world_map_free(&map);
  if (quit_signal) { /* finish as the signal would have, now that all is saved */
    int signal_number = quit_signal;
    signal(signal_number, SIG_DFL);
    raise(signal_number);
  }
  return crafter_close_stdout(PROGRAM, status);
}

int main(int argc, char **argv) {
  static arguments a;
  parse_options(argc, argv, &a);
  return run(&a);
}
