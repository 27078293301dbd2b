/* Symbolic, text and semantic observations, checked against what their
 * documented layouts imply for a known scene. */
#include <math.h>
#include <string.h>

#include "game/env.h"
#include "tap.h"
#include "view/render.h"

#define CHANNELS 21

/* A half's value from its bits, as IEEE 754 defines binary16. */
static double half_value(unsigned bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 31, fraction = bits & 1023;
  double magnitude = exponent == 0 ? ldexp(fraction, -24)
                     : exponent == 31 ? (fraction ? NAN : INFINITY)
                                      : ldexp(1024 + fraction, exponent - 25);
  return sign ? -magnitude : magnitude;
}

/* Every half is kept; between two neighbours a float goes to the nearer,
 * a midpoint to the one with an even last bit; past the largest half
 * by half a step, to infinity. */
static void check_round_to_half(void) {
  int kept = 1, between = 1;
  for (unsigned bits = 0; bits < 0x7c00; bits++) {
    float low = (float)half_value(bits), high = (float)half_value(bits + 1);
    kept &= crafter_round_to_half(low) == low && crafter_round_to_half(-low) == -low;
    if (bits + 1 == 0x7c00) high = (float)ldexp(2.0, 15); /* the step past 65504 */
    float middle = (float)(((double)low + (double)high) / 2);
    float even = bits & 1 ? high : low;
    if (bits + 1 == 0x7c00) even = INFINITY;
    between &= crafter_round_to_half(middle) == even &&
               crafter_round_to_half(nextafterf(middle, 0)) == low &&
               crafter_round_to_half(nextafterf(middle, INFINITY)) == (bits + 1 == 0x7c00 ? INFINITY : high);
  }
  ok(kept, "every finite half rounds to itself");
  ok(between, "floats between halves go to the nearer, midpoints to the even one");
  ok(crafter_round_to_half(1e6f) == INFINITY && crafter_round_to_half(-1e6f) == -INFINITY,
     "beyond the largest half: infinity");
  ok(crafter_round_to_half(0.1f) == 0.0999755859375f, "0.1 as a half is 0.0999755859375");
  int tenths_agree = 1;
  for (int count = -20; count <= 100; count++) {
    float half = crafter_round_to_half((float)count) * crafter_round_to_half(0.1f);
    tenths_agree &= crafter_tenth_in_half(count) == crafter_round_to_half(half);
  }
  ok(tenths_agree && crafter_tenth_in_half(3) == 0.2998046875f,
     "count / 10 in half is the product with 0.1's half, rounded (3 gives 0.2998046875)");
}

int main(void) {
  check_round_to_half();
  crafter_env env;
  crafter_params params;
  char error[200];
  crafter_params_default(&params);
  params.seed = 4;
  ok(crafter_env_init(&env, &params, error, sizeof(error)) == 0 && crafter_env_reset(&env) == 0,
     "env of seed 4");
  crafter_world *world = &env.game.world;

  /* Make a known scene around the player at (32, 32): grass all round,
   * water to the left, a cow below, the player facing up. */
  for (int x = 28; x <= 36; x++)
    for (int y = 29; y <= 35; y++) {
      world->materials[x * 64 + y] = CRAFTER_GRASS;
      int slot = crafter_world_object_slot(world, x, y);
      if (slot > 0) crafter_world_remove(world, slot);
    }
  crafter_world_compact(world);
  world->materials[31 * 64 + 32] = CRAFTER_WATER;
  crafter_game_add_creature(&env.game, CRAFTER_COW, 32, 33);
  env.game.players[0].facing_x = 0;
  env.game.players[0].facing_y = -1;
  env.game.players[0].inventory[CRAFTER_WOOD] = 3;

  float symbolic[CRAFTER_SYMBOLIC_SIZE];
  crafter_render_symbolic(&env, 0, symbolic);
  int one_hot = 1;
  for (int cell = 0; cell < 63; cell++) {
    float sum = 0;
    for (int block = 0; block < 17; block++) sum += symbolic[cell * CHANNELS + block];
    one_hot &= sum == 1.0f;
  }
  ok(one_hot, "every cell has exactly one block type");
  /* Row 3, column 4 is the player; column 3 is one to the left. */
  ok(symbolic[(3 * 9 + 3) * CHANNELS + 3] == 1.0f, "water one to the left is block 3");
  ok(symbolic[(3 * 9 + 4) * CHANNELS + 2] == 1.0f, "the player's cell shows its grass");
  ok(symbolic[(4 * 9 + 4) * CHANNELS + 17 + 1] == 1.0f, "the cow below is in the cow channel");
  /* Craftax multiplies by the half nearest 0.1, 1638/16384 (0.1 * 16384
   * = 1638.4), and rounds to half: 3 * 1638/16384 = 1228.5/4096, a tie,
   * goes to 1228/4096; 9 * 1638/16384 = 1842.75/2048 to 1843/2048. */
  ok(symbolic[1323] == 1228.0f / 4096 && symbolic[1335] == 1843.0f / 2048,
     "wood 3 -> 0.2998046875, health 9 -> 0.89990234375 (float16)");
  ok(symbolic[1339 + 2] == 1.0f && symbolic[1339] == 0.0f, "facing up is one-hot index 2");
  ok(symbolic[1343] == (float)env.game.daylight && symbolic[1344] == 0.0f,
     "daylight and sleeping close the vector");

  char text[4096];
  size_t length = crafter_render_text(&env, 0, text, sizeof(text));
  ok(length == strlen(text), "text fits and is NUL-terminated");
  ok(strstr(text, "cow: 1 down\n") != NULL, "the cow is one down");
  ok(strstr(text, "Vitals: health: 9, food: 9, drink: 9, energy: 9") != NULL, "vitals");
  ok(strstr(text, "Inventory: wood: 3\n") != NULL, "inventory as name: count");
  ok(strstr(text, "facing up") != NULL && strstr(text, "Facing: grass.") != NULL, "facing");
  ok(strstr(text, "...~@....") != NULL, "the map row of the player");
  char small[10];
  size_t needed = crafter_render_text(&env, 0, small, sizeof(small));
  ok(needed == length && strlen(small) == 9, "a small buffer is filled and terminated");

  uint8_t semantic[64 * 64];
  crafter_env_semantic(&env, 0, semantic);
  ok(semantic[32 * 64 + 32] == 13 && semantic[32 * 64 + 33] == 14 &&
         semantic[31 * 64 + 32] == CRAFTER_WATER,
     "semantic: player 13, cow 14, materials as ids");

  /* In a corner the window reaches outside the world. */
  world->object_at[32 * 64 + 32] = 0;
  world->objects[0].x = 0;
  world->objects[0].y = 0;
  world->object_at[0] = 1;
  crafter_render_symbolic(&env, 0, symbolic);
  ok(symbolic[(0 * 9 + 0) * CHANNELS + 1] == 1.0f && symbolic[(3 * 9 + 4) * CHANNELS + 1] == 0.0f,
     "cells outside the world are block 1");
  crafter_env_fini(&env);
  return tap_done();
}
