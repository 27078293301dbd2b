/* terminal: a terminal taken for a full-screen program (crafter-play):
 * keys one by one without echo, the screen switched to its alternate
 * buffer, and given back as it was on exit, on ^C, ^\ and SIGTERM, and
 * while the program is suspended by ^Z.
 *
 * Signals belong to the process, so this module keeps the one state a
 * process has: which signals came, the terminal's settings to give back,
 * and a pipe that wakes the program's poll() when a signal comes. */
#ifndef CRAFTER_TERMINAL_H
#define CRAFTER_TERMINAL_H

#include <stddef.h>

/* Takes the terminal of standard input and output: raw keys, the
 * alternate screen, the signal handlers, and a restore at exit.  0, or -1
 * with errno. */
int crafter_terminal_open(void);

/* Gives the terminal back as it was (safe to call twice). */
void crafter_terminal_restore(void);

/* Takes it again after a restore (raw keys, the alternate screen). */
int crafter_terminal_setup(void);

/* Whether the terminal is taken now. */
int crafter_terminal_raw(void);

/* Gives the terminal back, stops as ^Z asks, and takes it again once
 * continued. */
void crafter_terminal_suspend(void);

/* What signals asked for since last looked at (each read clears it, but
 * the quit signal, which stays): the signal that asks to quit (0 for
 * none), a suspension (^Z), a change of the window's size, a
 * continuation after a stop. */
int crafter_terminal_quit_signal(void);
int crafter_terminal_take_suspend(void);
int crafter_terminal_take_window_change(void);
int crafter_terminal_take_continued(void);
void crafter_terminal_note_window_change(void);

/* The descriptor a signal makes readable (for poll()), and emptying it. */
int crafter_terminal_wake_fd(void);
void crafter_terminal_drain_wake(void);

/* Columns and rows of the terminal on standard output (80x24 without). */
void crafter_terminal_size(int *columns, int *rows);

/* Milliseconds of a monotonic clock. */
long crafter_terminal_now_ms(void);

/* Writes all of data to fd, retrying short writes. */
void crafter_terminal_write_all(int fd, const char *data, size_t size);

/* Whether standard input has bytes (or its end) to read now. */
int crafter_terminal_input_waiting(void);

/* Ends the process as the quit signal that came would have, once the
 * program has saved what it must (no signal: nothing happens). */
void crafter_terminal_reraise(void);

#endif
