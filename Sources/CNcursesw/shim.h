#ifndef APPSHELL_CNCURSESW_SHIM_H
#define APPSHELL_CNCURSESW_SHIM_H

// The shim of both ncurses modules: CNcursesw (Linux, libncursesw) and CNcurses (macOS, the
// system's libncurses, whose wide-character functions are in the same library).
//
// SwiftPM drops pkg-config's -D flags, so ask for the wide-character API here.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

// Macros and globals that do not import into Swift 6, wrapped as functions.
static inline WINDOW *appshell_stdscr(void) { return stdscr; }
static inline FILE *appshell_stdin(void) { return stdin; }
static inline FILE *appshell_stdout(void) { return stdout; }
static inline int appshell_lines(void) { return LINES; }
static inline int appshell_cols(void) { return COLS; }
static inline attr_t appshell_a_bold(void) { return A_BOLD; }
static inline attr_t appshell_a_reverse(void) { return A_REVERSE; }
static inline attr_t appshell_a_dim(void) { return A_DIM; }
static inline attr_t appshell_a_normal(void) { return A_NORMAL; }
static inline attr_t appshell_color_pair(short pair) { return COLOR_PAIR(pair); }

// The terminal's size from the kernel (rows, columns); 0 when unknown.
static inline void appshell_window_size(int fd, int *rows, int *columns) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) == 0) {
    *rows = size.ws_row;
    *columns = size.ws_col;
  } else {
    *rows = 0;
    *columns = 0;
  }
}

#endif
