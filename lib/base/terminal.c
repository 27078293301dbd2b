#include "base/terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* The process's state: what a signal handler may touch, and what an exit
 * or a signal needs to give the terminal back. */
static struct termios saved_termios;
static volatile sig_atomic_t terminal_raw;
static volatile sig_atomic_t quit_signal, suspend_requested, window_changed, continued;
static int wake_pipe[2] = {-1, -1};

void crafter_terminal_write_all(int fd, const char *data, size_t size) {
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

void crafter_terminal_restore(void) {
  if (!terminal_raw) return;
  crafter_terminal_write_all(STDOUT_FILENO, leave_screen, sizeof(leave_screen) - 1);
  tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios);
  terminal_raw = 0;
}

/* Keys one by one without echo; ^C, ^Z and ^\ still make their signals. */
int crafter_terminal_setup(void) {
  struct termios raw = saved_termios;
  raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
  raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT | INPCK);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) < 0) return -1;
  terminal_raw = 1;
  crafter_terminal_write_all(STDOUT_FILENO, enter_screen, sizeof(enter_screen) - 1);
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

int crafter_terminal_open(void) {
  if (tcgetattr(STDIN_FILENO, &saved_termios) < 0) return -1;
  if (pipe(wake_pipe) < 0) return -1;
  for (int i = 0; i < 2; i++) {
    fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
    fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
  }
  atexit(crafter_terminal_restore);
  handle(SIGINT, on_quit_signal);
  handle(SIGTERM, on_quit_signal);
  handle(SIGHUP, on_quit_signal);
  handle(SIGQUIT, on_quit_signal);
  handle(SIGTSTP, on_suspend);
  handle(SIGCONT, on_continue);
  handle(SIGWINCH, on_window_change);
  return crafter_terminal_setup();
}

/* Gives the terminal back, stops as ^Z asks, and takes it again once
 * continued. */
void crafter_terminal_suspend(void) {
  suspend_requested = 0;
  crafter_terminal_restore();
  signal(SIGTSTP, SIG_DFL);
  raise(SIGTSTP); /* stops here until SIGCONT */
  handle(SIGTSTP, on_suspend);
  crafter_terminal_setup();
}

void crafter_terminal_size(int *columns, int *rows) {
  struct winsize size;
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
    *columns = size.ws_col;
    *rows = size.ws_row;
  } else {
    *columns = 80;
    *rows = 24;
  }
}

long crafter_terminal_now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int crafter_terminal_raw(void) { return terminal_raw != 0; }

int crafter_terminal_quit_signal(void) { return quit_signal; }

int crafter_terminal_take_suspend(void) {
  int asked = suspend_requested;
  suspend_requested = 0;
  return asked;
}

int crafter_terminal_take_window_change(void) {
  int changed = window_changed;
  window_changed = 0;
  return changed;
}

int crafter_terminal_take_continued(void) {
  int came = continued;
  continued = 0;
  return came;
}

void crafter_terminal_note_window_change(void) { window_changed = 1; }

int crafter_terminal_wake_fd(void) { return wake_pipe[0]; }

void crafter_terminal_drain_wake(void) {
  char drain[64];
  while (wake_pipe[0] >= 0 && read(wake_pipe[0], drain, sizeof(drain)) > 0) {
  }
}

int crafter_terminal_input_waiting(void) {
  struct pollfd input = {STDIN_FILENO, POLLIN, 0};
  return poll(&input, 1, 0) > 0 && (input.revents & (POLLIN | POLLHUP | POLLERR));
}

void crafter_terminal_reraise(void) {
  if (!quit_signal) return;
  int signal_number = quit_signal;
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}
