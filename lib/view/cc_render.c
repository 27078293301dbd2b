/* cc_render: Craftax-Classic's symbolic observation of a Craftax-Classic
 * state.  cc_render.h says the layout and what is promised. */
#include "view/cc_render.h"

#include <string.h>

#include "view/render.h"

enum {
  ROWS = CRAFTER_SYMBOLIC_ROWS,
  COLUMNS = CRAFTER_SYMBOLIC_COLUMNS,
  BLOCKS = CRAFTER_SYMBOLIC_BLOCKS,
  CHANNELS = CRAFTER_SYMBOLIC_BLOCKS + 4,
  MAP = CRAFTER_CC_MAP_SIZE
};
_Static_assert(CRAFTER_CC_RIPE_PLANT + 1 == CRAFTER_SYMBOLIC_BLOCKS,
               "Craftax-Classic's block types are the symbolic observation's");

/* A window index as numpy's indexing takes it: a negative one counts once
 * from the end; -1 when it is outside even so (the scatter drops it). */
static int window_index(int32_t index, int size) {
  if (index < 0) index += size;
  return index >= 0 && index < size ? (int)index : -1;
}

static void put_mobs(const crafter_cc_state *state, const crafter_cc_mobs *mobs, int slots,
                     int channel, float *out) {
  for (int k = 0; k < slots; k++) {
    int32_t row = mobs->position[k][0] - state->player_position[0] + ROWS / 2;
    int32_t column = mobs->position[k][1] - state->player_position[1] + COLUMNS / 2;
    int visible = row >= 0 && row < ROWS && column >= 0 && column < COLUMNS && mobs->mask[k];
    int r = window_index(row, ROWS), c = window_index(column, COLUMNS);
    if (r >= 0 && c >= 0) out[(r * COLUMNS + c) * CHANNELS + BLOCKS + channel] = visible ? 1.0f : 0.0f;
  }
}

static float tenth(int32_t count, enum crafter_cc_render_way way) {
  return way == CRAFTER_CC_RENDER_FLOAT32_TENTHS ? (float)count / 10.0f
                                                 : crafter_tenth_in_half(count);
}

void crafter_cc_render_symbolic_way(const crafter_cc_state *state, enum crafter_cc_render_way way,
                                    float *out) {
  memset(out, 0, sizeof(float) * CRAFTER_SYMBOLIC_SIZE);
  for (int row = 0; row < ROWS; row++)
    for (int column = 0; column < COLUMNS; column++) {
      int y = state->player_position[0] + row - ROWS / 2;
      int x = state->player_position[1] + column - COLUMNS / 2;
      int block = CRAFTER_CC_OUT_OF_BOUNDS;
      if (y >= 0 && y < MAP && x >= 0 && x < MAP)
        block = way == CRAFTER_CC_RENDER_TRANSPOSED ? state->map[x][y] : state->map[y][x];
      /* one_hot of a number outside its classes is all zeros */
      if (block < BLOCKS) out[(row * COLUMNS + column) * CHANNELS + block] = 1.0f;
    }
  put_mobs(state, &state->zombies, CRAFTER_CC_MAX_ZOMBIES, 0, out);
  put_mobs(state, &state->cows, CRAFTER_CC_MAX_COWS, 1, out);
  put_mobs(state, &state->skeletons, CRAFTER_CC_MAX_SKELETONS, 2, out);
  put_mobs(state, &state->arrows, CRAFTER_CC_MAX_ARROWS, 3, out);

  float *rest = out + ROWS * COLUMNS * CHANNELS;
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) *rest++ = tenth(state->inventory[k], way);
  *rest++ = tenth(state->player_health, way);
  *rest++ = tenth(state->player_food, way);
  *rest++ = tenth(state->player_drink, way);
  *rest++ = tenth(state->player_energy, way);
  int facing = state->player_direction - 1;
  if (facing >= 0 && facing < 4) rest[facing] = 1.0f;
  rest += 4;
  *rest++ = state->light_level;
  *rest = state->is_sleeping ? 1.0f : 0.0f;
}

void crafter_cc_render_symbolic(const crafter_cc_state *state, float *out) {
  crafter_cc_render_symbolic_way(state, CRAFTER_CC_RENDER_AS_CRAFTAX, out);
}
