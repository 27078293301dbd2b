/* render: observations of an env.
 *
 * Pixels: the local view and inventory panel exactly as Crafter renders
 * them, for any view and size: textures scaled by nearest neighbour as
 * Pillow does, daylight, the night noise and vignette, the grey tint of
 * sleep, the inventory counts.  With Crafter's own textures the bytes equal
 * the reference's.  Rendering at night draws from the world's generator,
 * as in the reference, so a renderer attaches itself to its env and is
 * called at every reset and step. */
#ifndef CRAFTER_RENDER_H
#define CRAFTER_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "view/textures.h"

/* crafter/crafter.h declares the renderer, crafter_renderer_new, _free
 * and _attach, the symbolic size and observation and the text. */

/* Another renderer for envs of the same parameters, sharing the scaled
 * textures and the vignette of `original`, which must outlive it: a few
 * kilobytes of its own instead of tens.  NULL with a reason. */
crafter_renderer *crafter_renderer_share(const crafter_renderer *original, char *error,
                                         size_t error_size);

/* Bytes the renderer holds (scaled textures, vignette, canvas). */
size_t crafter_renderer_bytes(const crafter_renderer *renderer);

/* Every player's view into pixels, player p's at p * size[0] * size[1] * 3:
 * the players whose bodies are in the world in their order, each drawing
 * its night noise after the one before (crafter(7)); a view of a player
 * who left the world is black. */
void crafter_render_players(crafter_renderer *renderer, crafter_env *env, uint8_t *pixels);

/* The view, text and symbolic renderers below draw what player `player`
 * sees (0 in Crafter's game of one), the viewpoint: a player who must be
 * in the world (crafter_game_body not NULL): a player of several who died
 * and left it has no view to draw. */

/* Renders player `player`'s view of the env's current state into pixels,
 * drawing the night noise from its generator when it is night.  Called by
 * the env once attached; call it yourself only for an env without a
 * renderer attached. */
void crafter_render_pixels(crafter_renderer *renderer, crafter_env *env, int player,
                           uint8_t *pixels);

/* Pillow's nearest-neighbour source index, for each of `out` pixels of
 * an axis, among `in` pixels: what Image.resize(..., NEAREST) reads.
 * Textures are scaled by it, and so are frames (video.h). */
void crafter_nearest_map(int in, int out, int *map);


/* The same pixels by the plain path: compose the whole view, then light
 * every pixel.  crafter_render_pixels takes shortcuts by day; tests check
 * both give the same bytes. */
void crafter_render_pixels_reference(crafter_renderer *renderer, crafter_env *env, int player,
                                     uint8_t *pixels);

/* The symbolic observation of Craftax-Classic (crafter_render_symbolic):
 * 1345 floats.
 *   [0, 1323)  a 7-row, 9-column window centred on the player, row-major
 *              (rows are y, columns x), 21 channels a cell: 17 one-hot
 *              block types, then zombie, cow, skeleton, arrow;
 *   [1323, 1335) wood stone coal iron diamond sapling wood_pickaxe
 *              stone_pickaxe iron_pickaxe wood_sword stone_sword iron_sword,
 *              each count / 10 in float16 as Craftax computes it: the
 *              count times the half nearest 0.1 (0.0999755859375),
 *              rounded to half (3 gives 0.2998046875);
 *   [1335, 1339) health food drink energy, / 10 in float16 alike;
 *   [1339, 1343) facing one-hot: left right up down;
 *   1343 daylight, 1344 sleeping (0 or 1).
 * Block types (Craftax's order): 0 invalid, 1 out of bounds, 2 grass,
 * 3 water, 4 stone, 5 tree, 6 wood, 7 path, 8 coal, 9 iron, 10 diamond,
 * 11 table, 12 furnace, 13 sand, 14 lava, 15 plant, 16 ripe plant.  A
 * Crafter plant, an object, is shown as block 15 or 16 in its cell; the
 * player is not drawn (its cell is the window's centre). */
#define CRAFTER_SYMBOLIC_ROWS 7
#define CRAFTER_SYMBOLIC_COLUMNS 9
#define CRAFTER_SYMBOLIC_BLOCKS 17
#define CRAFTER_SYMBOLIC_SIZE                                                       \
  (CRAFTER_SYMBOLIC_ROWS * CRAFTER_SYMBOLIC_COLUMNS * (CRAFTER_SYMBOLIC_BLOCKS + 4) + \
   12 + 4 + 4 + 2) /* 1345 */
/* In a game of several players it has 63 values more: the 7x9 window
 * again, 1 where another player stands (crafter_symbolic_size). */

/* The IEEE binary16 value nearest to value (ties to even), as a float;
 * beyond the largest half, infinity. */
float crafter_round_to_half(float value);

/* count / 10 as Craftax-Classic computes it in float16: the count, as a
 * half, times the half nearest 0.1 (0.0999755859375), rounded to half,
 * as a float.  The inventory and vitals of the symbolic observation. */
float crafter_tenth_in_half(int count);

/* Block type of a Crafter material in the symbolic observation. */
int crafter_symbolic_block(int material);

/* The text description (crafter_render_text) says what stands where in
 * the view (a map of letters with a legend, and the creatures with their
 * offsets), inventory and vitals as `name: count`. */

#endif
