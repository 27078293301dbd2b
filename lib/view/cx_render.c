/* cx_render: Craftax's symbolic observation of a Craftax state.
 * cx_render.h says the layout and what is promised. */
#include "view/cx_render.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum {
  ROWS = CRAFTER_CX_SYMBOLIC_ROWS,
  COLUMNS = CRAFTER_CX_SYMBOLIC_COLUMNS,
  CHANNELS = CRAFTER_CX_SYMBOLIC_CHANNELS,
  ITEM_CHANNEL = CRAFTER_CX_SYMBOLIC_BLOCKS,
  MOB_CHANNEL = CRAFTER_CX_SYMBOLIC_BLOCKS + CRAFTER_CX_SYMBOLIC_ITEMS,
  LIGHT_CHANNEL = CHANNELS - 1,
  MAP = CRAFTER_CX_MAP_SIZE,
  TYPES = 8, /* the types of a class of creatures */
  CLEARED = 8 /* MONSTERS_KILLED_TO_CLEAR_LEVEL */
};
_Static_assert(CRAFTER_CX_NECROMANCER_VULNERABLE + 1 == CRAFTER_CX_SYMBOLIC_BLOCKS,
               "Craftax's block types are the observation's block channels");
_Static_assert(CRAFTER_CX_ITEM_LADDER_DOWN_BLOCKED + 1 == CRAFTER_CX_SYMBOLIC_ITEMS,
               "Craftax's item types are the observation's item channels");
_Static_assert(MOB_CHANNEL + CRAFTER_CX_SYMBOLIC_MOBS + 1 == CHANNELS, "the channels of a cell");
_Static_assert(CRAFTER_CX_SYMBOLIC_MAP == ROWS * COLUMNS * CHANNELS, "the map's values");

/* x / 10 as XLA compiles it: the product x * (1/10) in float32 where x
 * is a variable of the graph; the quotient, correctly rounded, where XLA
 * folds a constant x (`divided`). */
static float tenth(float x, int divided) {
  return divided ? x / 10.0f : x * (1.0f / 10.0f);
}

/* sqrt(count) / 10, the count made float32 first. */
static float root_tenth(int32_t count, int divided) {
  return tenth(sqrtf((float)count), divided);
}

/* An index as numpy's indexing takes it: a negative one counts once from
 * the end; -1 when it is outside even so (the scatter drops it). */
static int wrapped(int32_t index, int size, enum crafter_cx_render_way way) {
  if (index < 0 && way != CRAFTER_CX_RENDER_NO_WRAP) index += size;
  return index >= 0 && index < size ? (int)index : -1;
}

/* One class of creatures or projectiles of the player's floor, slot by
 * slot, into the map part.  The light masks what the scatter wrote, so a
 * dark cell's channels stay the zeros they are. */
static void put_mobs(const crafter_cx_state *state, const crafter_cx_mobs *mobs, int slots,
                     int class_index, const uint8_t lit[CRAFTER_CX_SYMBOLIC_ROWS][CRAFTER_CX_SYMBOLIC_COLUMNS],
                     enum crafter_cx_render_way way, float *out) {
  int level = state->player_level;
  for (int k = 0; k < slots; k++) {
    int32_t row = mobs->position[level][k][0] - state->player_position[0] + ROWS / 2;
    int32_t column = mobs->position[level][k][1] - state->player_position[1] + COLUMNS / 2;
    int32_t channel = class_index * TYPES + mobs->type_id[level][k];
    int visible = row >= 0 && row < ROWS && column >= 0 && column < COLUMNS &&
                  mobs->mask[level][k];
    int r = wrapped(row, ROWS, way), c = wrapped(column, COLUMNS, way);
    int m = wrapped(channel, CRAFTER_CX_SYMBOLIC_MOBS, way);
    if (r >= 0 && c >= 0 && m >= 0 && lit[r][c])
      out[(r * COLUMNS + c) * CHANNELS + MOB_CHANNEL + m] = visible ? 1.0f : 0.0f;
  }
}

void crafter_cx_render_symbolic_way(const crafter_cx_state *state, enum crafter_cx_render_way way,
                                    float *out) {
  const int level = state->player_level;
  /* A first state (timestep 0, only reset makes one) has constants for
   * every value divided by 10 in the graph that makes it: XLA folds the
   * quotients.  A step's values are variables. */
  const int divided = way == CRAFTER_CX_RENDER_DIVIDED ||
                      (way == CRAFTER_CX_RENDER_AS_ENV && state->timestep == 0);
  /* Every value of the map is written: zeros first, the few ones after.
   * The one-hots and the creatures of a dark cell are masked, so a cell
   * is lit or all zeros. */
  memset(out, 0, sizeof(float) * CRAFTER_CX_SYMBOLIC_MAP);
  uint8_t lit[ROWS][COLUMNS];
  memset(lit, 0, sizeof lit); /* no light outside the floor */
  const int transposed = way == CRAFTER_CX_RENDER_TRANSPOSED;
  for (int row = 0; row < ROWS; row++) {
    int y = state->player_position[0] + row - ROWS / 2;
    if (y < 0 || y >= MAP) continue;
    /* the columns of the window on the floor */
    int first = COLUMNS / 2 - state->player_position[1], last = first + MAP;
    if (first < 0) first = 0;
    if (last > COLUMNS) last = COLUMNS;
    for (int column = first; column < last; column++) {
      int x = state->player_position[1] + column - COLUMNS / 2;
      int a = transposed ? x : y, b = transposed ? y : x;
      /* Without branches on the light: a dark cell's writes are zeros
       * onto its zeros. */
      float light = state->light_map[level][a][b] > 0.05f ? 1.0f : 0.0f;
      lit[row][column] = light != 0.0f;
      float *cell = out + (row * COLUMNS + column) * CHANNELS;
      int block = state->map[level][a][b], item = state->item_map[level][a][b];
      /* one_hot of a number outside its classes is all zeros */
      if (block < CRAFTER_CX_SYMBOLIC_BLOCKS) cell[block] = light;
      if (item < CRAFTER_CX_SYMBOLIC_ITEMS) cell[ITEM_CHANNEL + item] = light;
      cell[LIGHT_CHANNEL] = light;
    }
  }
  put_mobs(state, &state->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS, 0, lit, way, out);
  put_mobs(state, &state->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS, 1, lit, way, out);
  put_mobs(state, &state->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS, 2, lit, way, out);
  put_mobs(state, &state->mob_projectiles, CRAFTER_CX_MAX_MOB_PROJECTILES, 3, lit, way, out);
  put_mobs(state, &state->player_projectiles, CRAFTER_CX_MAX_PLAYER_PROJECTILES, 4, lit, way, out);

  const crafter_cx_inventory *inv = &state->inventory;
  float *rest = out + CRAFTER_CX_SYMBOLIC_MAP;
  const int32_t rooted[10] = {inv->wood,    inv->stone,    inv->coal, inv->iron,
                              inv->diamond, inv->sapphire, inv->ruby, inv->sapling,
                              inv->torches, inv->arrows};
  for (int k = 0; k < 10; k++) *rest++ = root_tenth(rooted[k], divided);
  *rest++ = (float)inv->books * 0.5f;
  *rest++ = (float)inv->pickaxe * 0.25f;
  *rest++ = (float)inv->sword * 0.25f;
  *rest++ = (float)state->sword_enchantment;
  *rest++ = (float)state->bow_enchantment;
  *rest++ = (float)inv->bow;
  for (int k = 0; k < CRAFTER_CX_POTIONS; k++) *rest++ = root_tenth(inv->potions[k], divided);
  *rest++ = tenth(state->player_health, divided);
  const int32_t tenths[8] = {state->player_food,      state->player_drink,
                             state->player_energy,    state->player_mana,
                             state->player_xp,        state->player_dexterity,
                             state->player_strength,  state->player_intelligence};
  for (int k = 0; k < 8; k++) *rest++ = tenth((float)tenths[k], divided);
  int facing = state->player_direction - 1;
  for (int d = 0; d < 4; d++) *rest++ = d == facing ? 1.0f : 0.0f;
  for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) *rest++ = (float)inv->armour[k] * 0.5f;
  for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) *rest++ = (float)state->armour_enchantments[k];
  *rest++ = state->light_level;
  *rest++ = state->is_sleeping ? 1.0f : 0.0f;
  *rest++ = state->is_resting ? 1.0f : 0.0f;
  *rest++ = state->learned_spells[0] ? 1.0f : 0.0f;
  *rest++ = state->learned_spells[1] ? 1.0f : 0.0f;
  *rest++ = tenth((float)level, divided);
  *rest++ = state->monsters_killed[level] >= CLEARED ? 1.0f : 0.0f;
  int alive = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_MELEE_MOBS; k++) alive += state->melee_mobs.mask[level][k];
  for (int k = 0; k < CRAFTER_CX_MAX_RANGED_MOBS; k++) alive += state->ranged_mobs.mask[level][k];
  *rest = alive == 0 && state->boss_timesteps_to_spawn_this_round <= 0 ? 1.0f : 0.0f;
}

void crafter_cx_render_symbolic(const crafter_cx_state *state, float *out) {
  crafter_cx_render_symbolic_way(state, CRAFTER_CX_RENDER_AS_ENV, out);
}
