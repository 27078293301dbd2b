/* cc_render: Craftax-Classic's symbolic observation of a Craftax-Classic
 * state ("cc", as in game/cc_worldgen): the float32 vector craftax
 * 1.6.1's render_craftax_symbolic (craftax/craftax_classic/renderer.py)
 * returns, the observation of Craftax-Classic-Symbolic-v1.
 *
 * Its layout is view/render's symbolic observation's (render.h says it;
 * CRAFTER_SYMBOLIC_SIZE values, 1345), drawn from a crafter_cc_state
 * instead of Crafter's game:
 *   [0, 1323)  the 7x9 window of the map centred on the player, row-major,
 *              rows the state's first coordinate; 21 channels a cell:
 *              the block one-hot (Craftax's BlockType, the map's numbers),
 *              outside the map OUT_OF_BOUNDS; then zombie, cow, skeleton,
 *              arrow, from the creature slots as Craftax writes them;
 *   [1323, 1339) the inventory in Inventory's order, then health, food,
 *              drink, energy: each count / 10 in float16 as Craftax
 *              computes it (crafter_tenth_in_half);
 *   [1339, 1343) the direction one-hot, player_direction - 1 (LEFT RIGHT
 *              UP DOWN; a direction outside 1..4 sets none);
 *   1343 light_level as it is, 1344 is_sleeping as 0 or 1.
 *
 * The creatures are written slot by slot, zombies, cows, skeletons,
 * arrows, as Craftax's scatter does: each slot writes its mask (1 when
 * the slot is live and in the window, else 0) at its place relative to
 * the window; a negative row or column counts once from the window's end,
 * as numpy indexing does, and a place outside the window after that is
 * not written.  So a dead slot's 0 can clear an earlier creature's 1.
 *
 * Promise: for the first state of every episode crafter_cc_generate_world
 * makes, the vector is bit for bit the observation JAX returns from
 * env.reset with the pinned reference (tests/unit/test-cc-render.c
 * against CRC-32s JAX printed for seeds 0..9999, tests/craftax-obs.t
 * against JAX itself on fresh seeds, and on states with creatures,
 * inventory, vitals, direction, light and sleep changed at random).
 * Nothing here keeps state between calls. */
#ifndef CRAFTER_CC_RENDER_H
#define CRAFTER_CC_RENDER_H

#include <stddef.h>

#include "game/cc_worldgen.h"
#include "view/render.h"

/* Craftax-Classic's symbolic observation of *state into
 * out[CRAFTER_SYMBOLIC_SIZE] (view/render.h). */
void crafter_cc_render_symbolic(const crafter_cc_state *state, float *out);

/* What an observation drawn by crafter_cc_render_symbolic_memo holds, for
 * the next one drawn over it.  Zero it (valid 0) for a vector that holds
 * anything else. */
typedef struct crafter_cc_render_memo {
  int valid;                  /* the vector holds the last drawing made with this memo */
  int32_t player[2];          /* the player's place it was drawn for */
  uint8_t window[7][9];       /* the block numbers drawn (OUT_OF_BOUNDS off the map) */
  int16_t written[11];        /* where each creature slot wrote, slot by slot (-1 nowhere) */
} crafter_cc_render_memo;

/* crafter_cc_render_symbolic of *state into out, every value the same,
 * where out holds the observation this memo last drew (memo->valid) and
 * nothing has written it since: when the player has not moved, only the
 * values that can differ are written (the window's cells whose block
 * changed, the creatures' places, the values after the map), else the
 * whole vector.  *memo then says what out holds. */
void crafter_cc_render_symbolic_memo(const crafter_cc_state *state, crafter_cc_render_memo *memo,
                                     float *out);

/* Ways of drawing that Craftax does not take, for the tests to show they
 * are told apart (tests/unit/test-cc-render.c). */
enum crafter_cc_render_way {
  CRAFTER_CC_RENDER_AS_CRAFTAX = 0,
  CRAFTER_CC_RENDER_FLOAT32_TENTHS, /* count / 10.0f in float32, not float16 */
  CRAFTER_CC_RENDER_TRANSPOSED      /* the map read [column][row] */
};

/* crafter_cc_render_symbolic drawn the way `way` says. */
void crafter_cc_render_symbolic_way(const crafter_cc_state *state, enum crafter_cc_render_way way,
                                    float *out);

/* Craftax-Classic's pixel observation, that of Craftax-Classic-Pixels-v1:
 * render_craftax_pixels of craftax 1.6.1 at its agent's block size (7
 * pixels) divided by 255, CRAFTER_CC_PIXELS_ROWS x CRAFTER_CC_PIXELS_COLUMNS
 * x 3 float32 values, row-major, RGB last: the 7x9 window of the map (49
 * rows), then two rows of blocks of vitals and inventory (14 rows).
 *
 * It is drawn from textures in Craftax's assets' file names (grass.png,
 * player-left.png, 1.png, ...; 16x16 PNGs), loaded and scaled as Craftax
 * scales them: to 7, 5 (items) and 4 (digits) pixels, picking the source
 * pixel PIL's NEAREST resize picks; an alpha channel clamped to 0 or 1
 * where Craftax clamps it, kept as alpha / 255 for the player and the
 * creatures.  Craftax keeps its textures in a cache it made with these
 * steps; tests/craftax-pixels.t compares the whole observation with it.
 *
 * Night (a light_level below 0.5) blends the map with static first, as
 * Craftax does: jax.random.uniform(state_rng, (49, 63)) * 95 + 32 a pixel,
 * weighted by the night noise texture (crafter_cc_textures.night_noise)
 * times max(2 (0.5 - light_level), 0).
 *
 * Its arithmetic is float32 as XLA compiles it on x86-64 for env.reset and
 * env.step: / 255 as * (1/255), and the multiplies the code generator
 * fuses into the adds after them fused here with fmaf (the luminance, the
 * night version, the daylight blend, sleep's grey, the static and its
 * blend), each found in the code XLA generates and needed for the bits
 * (unfused or fused the other way, nights and sleep differ from JAX's by
 * up to 6 ulp).
 *
 * Promise: for every state Craftax-Classic's auto-resetting env.step can
 * produce, the observation is bit for bit the one JAX returns from
 * jit(env.step) of Craftax-Classic-Pixels-v1 with the pinned reference, 0
 * ulp: days and nights, sleep, creatures, arrows, plants, the inventory
 * and vitals, the first state of the next episode after an end
 * (tests/craftax-pixels.t on fresh seeds' random episodes and resets,
 * tests/unit-cc-pixels.t on CRC-32s of JAX's observations along seeds
 * 0..3's episodes, both with the textures of the installed craftax
 * package).  Nothing here keeps state
 * between calls. */
enum {
  CRAFTER_CC_BLOCK_PIXELS = 7,
  CRAFTER_CC_ITEM_PIXELS = 5,  /* int(7 * 0.8) */
  CRAFTER_CC_DIGIT_PIXELS = 4, /* int(7 * 0.6) */
  CRAFTER_CC_PIXELS_ROWS = 9 * CRAFTER_CC_BLOCK_PIXELS,
  CRAFTER_CC_PIXELS_COLUMNS = 9 * CRAFTER_CC_BLOCK_PIXELS,
  CRAFTER_CC_PIXELS_SIZE = CRAFTER_CC_PIXELS_ROWS * CRAFTER_CC_PIXELS_COLUMNS * 3
};

/* The textures, scaled, as float32 values of 0..255 (alphas as said). */
typedef struct crafter_cc_textures {
  float block[CRAFTER_SYMBOLIC_BLOCKS][CRAFTER_CC_BLOCK_PIXELS][CRAFTER_CC_BLOCK_PIXELS][3];
  float item_block[CRAFTER_SYMBOLIC_BLOCKS][CRAFTER_CC_ITEM_PIXELS][CRAFTER_CC_ITEM_PIXELS][3];
  /* player LEFT RIGHT UP DOWN, asleep; zombie, cow, skeleton; arrow (up) */
  float figure[9][CRAFTER_CC_BLOCK_PIXELS][CRAFTER_CC_BLOCK_PIXELS][3];
  float figure_alpha[9][CRAFTER_CC_BLOCK_PIXELS][CRAFTER_CC_BLOCK_PIXELS];
  /* health food drink energy, sapling, wood stone iron pickaxe, wood
   * stone iron sword */
  float item[11][CRAFTER_CC_ITEM_PIXELS][CRAFTER_CC_ITEM_PIXELS][3];
  float digit[10][CRAFTER_CC_DIGIT_PIXELS][CRAFTER_CC_DIGIT_PIXELS][3]; /* 0 is empty */
  float digit_alpha[10][CRAFTER_CC_DIGIT_PIXELS][CRAFTER_CC_DIGIT_PIXELS];
  /* Craftax's night_noise_intensity_texture, one value a pixel of the
   * map: 1 - exp(-2 (x^2 + y^2)) in double, x and y numpy's linspace(-1,
   * 1) over the rows and the columns, rounded to float32 */
  float night_noise[7 * CRAFTER_CC_BLOCK_PIXELS][9 * CRAFTER_CC_BLOCK_PIXELS];
} crafter_cc_textures;

/* Loads and scales the textures of `folder` (Craftax's assets folder).
 * Returns 0, or -1 with a sentence in `error` naming the file. */
int crafter_cc_textures_load(crafter_cc_textures *textures, const char *folder, char *error,
                             size_t error_size);

/* Loads and scales the toolkit's own textures (data/textures, built into
 * the library; view/textures.h) the same way, as Craftax's files: each
 * file of the same name, and for the three Crafter's names lack,
 * debug_tile.png is unknown.png (drawn for no cell: OUT_OF_BOUNDS is
 * grey, INVALID never on a map) and plant_on_grass.png and
 * ripe_plant_on_grass.png are plant.png and plant-ripe.png laid over
 * grass.png, as Craftax's two are its plant's over its grass.  The
 * pictures are then the toolkit's look of Craftax-Classic, not Craftax's:
 * the same layout, blending, night and sleep, other colours.  Returns 0,
 * or -1 with a sentence in `error`. */
int crafter_cc_textures_load_builtin(crafter_cc_textures *textures, char *error,
                                     size_t error_size);

/* The pixel observation of *state into out[CRAFTER_CC_PIXELS_SIZE].
 * Returns 0 (it draws every state). */
int crafter_cc_render_pixels(const crafter_cc_state *state, const crafter_cc_textures *textures,
                             float *out);

#endif
