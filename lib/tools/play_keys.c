#include "tools/play_keys.h"

#include <stddef.h>
#include <stdint.h>

/* ---- keys ---- */

static int arrow_of(uint8_t final_byte) {
  switch (final_byte) {
    case 'A': return CRAFTER_KEY_UP;
    case 'B': return CRAFTER_KEY_DOWN;
    case 'C': return CRAFTER_KEY_RIGHT;
    case 'D': return CRAFTER_KEY_LEFT;
    default: return CRAFTER_KEY_UNKNOWN;
  }
}

size_t crafter_play_decode_key(const uint8_t *bytes, size_t length, int final, int *key) {
  if (length == 0) return 0;
  uint8_t first = bytes[0];
  if (first != 0x1b) {
    if (first < 0x80) {
      *key = first;
      return 1;
    }
    /* A UTF-8 character: its lead byte says how long it is. */
    size_t need = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    size_t used = 1;
    while (used < need && used < length && (bytes[used] & 0xc0) == 0x80) used++;
    if (used < need && used == length && !final) return 0;
    *key = CRAFTER_KEY_UNKNOWN;
    return used;
  }
  if (length == 1) {
    if (!final) return 0;
    *key = CRAFTER_KEY_ESCAPE;
    return 1;
  }
  if (bytes[1] == '[') {
    /* A control sequence: parameter and intermediate bytes, then one
     * final byte. */
    size_t i = 2;
    while (i < length && bytes[i] >= 0x20 && bytes[i] <= 0x3f) i++;
    if (i == length) {
      if (!final) return 0;
      *key = CRAFTER_KEY_UNKNOWN;
      return length;
    }
    if (bytes[i] < 0x40 || bytes[i] > 0x7e) {
      *key = CRAFTER_KEY_UNKNOWN;
      return i;
    }
    *key = arrow_of(bytes[i]);
    return i + 1;
  }
  if (bytes[1] == 'O') {
    if (length == 2) {
      if (!final) return 0;
      *key = CRAFTER_KEY_UNKNOWN;
      return 2;
    }
    *key = arrow_of(bytes[2]);
    return 3;
  }
  if (bytes[1] == 0x1b) { /* Escape pressed twice, or before a sequence */
    *key = CRAFTER_KEY_ESCAPE;
    return 1;
  }
  *key = CRAFTER_KEY_UNKNOWN; /* Alt and a key */
  return 2;
}

int crafter_play_action_of_key(int key) {
  if (key >= 'A' && key <= 'Z') key += 'a' - 'A';
  switch (key) {
    case 'a': case CRAFTER_KEY_LEFT: return CRAFTER_MOVE_LEFT;
    case 'd': case CRAFTER_KEY_RIGHT: return CRAFTER_MOVE_RIGHT;
    case 'w': case CRAFTER_KEY_UP: return CRAFTER_MOVE_UP;
    case 's': case CRAFTER_KEY_DOWN: return CRAFTER_MOVE_DOWN;
    case ' ': return CRAFTER_DO;
    case '\t': return CRAFTER_SLEEP;
    case 'r': return CRAFTER_PLACE_STONE;
    case 't': return CRAFTER_PLACE_TABLE;
    case 'f': return CRAFTER_PLACE_FURNACE;
    case 'p': return CRAFTER_PLACE_PLANT;
    case '1': return CRAFTER_MAKE_WOOD_PICKAXE;
    case '2': return CRAFTER_MAKE_STONE_PICKAXE;
    case '3': return CRAFTER_MAKE_IRON_PICKAXE;
    case '4': return CRAFTER_MAKE_WOOD_SWORD;
    case '5': return CRAFTER_MAKE_STONE_SWORD;
    case '6': return CRAFTER_MAKE_IRON_SWORD;
    case '.': case 'n': return CRAFTER_NOOP;
    default: return -1;
  }
}

/* Player 1's keys in a game of two (crafter_play_player_action_of_key). */
static int second_player_action(int key) {
  if (key >= 'A' && key <= 'Z') key += 'a' - 'A';
  switch (key) {
    case CRAFTER_KEY_LEFT: return CRAFTER_MOVE_LEFT;
    case CRAFTER_KEY_RIGHT: return CRAFTER_MOVE_RIGHT;
    case CRAFTER_KEY_UP: return CRAFTER_MOVE_UP;
    case CRAFTER_KEY_DOWN: return CRAFTER_MOVE_DOWN;
    case '\r': case '\n': return CRAFTER_DO;
    case 0x7f: case '\b': return CRAFTER_SLEEP;
    case 'h': return CRAFTER_PLACE_STONE;
    case 'j': return CRAFTER_PLACE_TABLE;
    case 'k': return CRAFTER_PLACE_FURNACE;
    case 'l': return CRAFTER_PLACE_PLANT;
    case '7': return CRAFTER_MAKE_WOOD_PICKAXE;
    case '8': return CRAFTER_MAKE_STONE_PICKAXE;
    case '9': return CRAFTER_MAKE_IRON_PICKAXE;
    case 'u': return CRAFTER_MAKE_WOOD_SWORD;
    case 'i': return CRAFTER_MAKE_STONE_SWORD;
    case 'o': return CRAFTER_MAKE_IRON_SWORD;
    default: return -1;
  }
}

int crafter_play_player_action_of_key(int key, int players, int *player) {
  *player = 0;
  if (players < 2) return crafter_play_action_of_key(key);
  int action = second_player_action(key);
  if (action >= 0) {
    *player = 1;
    return action;
  }
  action = crafter_play_action_of_key(key);
  if (action == CRAFTER_NOOP) *player = -1;
  return action;
}

int crafter_play_command_of_key(int key, int replay) {
  switch (key) {
    case 'q': case 'Q': case CRAFTER_KEY_ESCAPE: case 3: case 4: return CRAFTER_PLAY_QUIT;
    case 12: return CRAFTER_PLAY_REDRAW;
    case '+': case '=': return CRAFTER_PLAY_FASTER;
    case '-': case '_': return CRAFTER_PLAY_SLOWER;
    default: break;
  }
  if (!replay) return CRAFTER_PLAY_NOTHING;
  switch (key) {
    case ' ': return CRAFTER_PLAY_PAUSE;
    case '.': case 'n': case 'N': case CRAFTER_KEY_RIGHT: return CRAFTER_PLAY_FORWARD;
    case ',': case 'b': case 'B': case CRAFTER_KEY_LEFT: return CRAFTER_PLAY_BACK;
    default: return CRAFTER_PLAY_NOTHING;
  }
}

/* ---- real time ---- */

void crafter_play_frames_start(crafter_play_frames *frames, int fps, long now) {
  frames->fps = fps < 1 ? 1 : fps > 1000 ? 1000 : fps;
  frames->start = now;
  frames->frame = 0;
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) frames->pending[p] = -1;
}

void crafter_play_frames_key(crafter_play_frames *frames, int action) {
  frames->pending[0] = action;
}

void crafter_play_frames_key_player(crafter_play_frames *frames, int p, int action) {
  if (p >= 0 && p < CRAFTER_PLAYERS_MAX) frames->pending[p] = action;
}

/* When the frame under way ends: frame k of a run ends k + 1 frames after
 * its start, counted from the start so that rounding never adds up. */
static long frame_end(const crafter_play_frames *frames) {
  return frames->start + (frames->frame + 1) * 1000 / frames->fps;
}

long crafter_play_frames_wait(const crafter_play_frames *frames, long now) {
  long left = frame_end(frames) - now;
  return left > 0 ? left : 0;
}

int crafter_play_frames_take(crafter_play_frames *frames, long now) {
  int action;
  return crafter_play_frames_take_players(frames, now, 1, &action) ? action : -1;
}

int crafter_play_frames_take_players(crafter_play_frames *frames, long now, int players,
                                     int *actions) {
  if (now < frame_end(frames)) return 0;
  if (players > CRAFTER_PLAYERS_MAX) players = CRAFTER_PLAYERS_MAX;
  for (int p = 0; p < players; p++)
    actions[p] = frames->pending[p] >= 0 ? frames->pending[p] : CRAFTER_NOOP;
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) frames->pending[p] = -1;
  frames->frame++;
  if (frame_end(frames) <= now) { /* late: the next frame is a whole one from now */
    frames->start = now;
    frames->frame = 0;
  }
  return 1;
}

/* ---- help ---- */

const char crafter_play_help[] =
    "move: w a s d or arrows  do: space  sleep: tab  place: t table, r stone, f furnace, "
    "p plant  make: 1 wood, 2 stone, 3 iron pickaxe; 4 wood, 5 stone, 6 iron sword  "
    "wait: . or n  quit: q";

const char crafter_play_two_help[] =
    "player 0 (left): move w a s d  do: space  sleep: tab  place: r stone, t table, "
    "f furnace, p plant  make: 1 2 3 wood, stone, iron pickaxe; 4 5 6 sword  "
    "player 1 (right): move arrows  do: enter  sleep: backspace  place: h stone, j table, "
    "k furnace, l plant  make: 7 8 9 pickaxe; u i o sword  both wait: . or n  quit: q";

const char crafter_play_replay_help[] =
    "pause/resume: space  step: . or right  back: , or left  faster: +  slower: -  quit: q";
