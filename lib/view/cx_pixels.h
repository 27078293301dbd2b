/* cx_pixels: Craftax's pixel observation ("cx": the full game, nine
 * floors), that of Craftax-Pixels-v1: what craftax 1.6.1's
 * render_craftax_pixels (craftax/craftax/renderer.py) draws at the
 * agent's block size (10 pixels) divided by 255, as the env returns it.
 *
 * Layout: CRAFTER_CX_PIXELS_ROWS x CRAFTER_CX_PIXELS_COLUMNS x 3 float32
 * values (130 x 110 x 3), row-major, RGB last:
 *   rows [0, 90)   the 9x11 window of the player's floor centred on the
 *                  player, a block 10x10 pixels: the block (outside the
 *                  map OUT_OF_BOUNDS, grey; DARKNESS black; the
 *                  necromancer drawn vulnerable when no melee or ranged
 *                  creature is left on its floor and no wave is to come),
 *                  the item over it (a torch, a ladder; the ladder down
 *                  drawn blocked until 8 monsters of the floor are
 *                  killed), the player (asleep, or facing its
 *                  direction), then the melee, passive and ranged
 *                  creatures, the creatures' projectiles and the player's,
 *                  slot by slot, each by its type's texture (projectiles
 *                  flipped and turned to their direction);
 *   rows [90, 130) four rows of blocks of the inventory, each icon 8x8
 *                  pixels at a block's (1, 1), each count's digits 4x4 at
 *                  its (6, 6) and (6, 2): row 0 health (at least 1),
 *                  food, drink, energy, mana, the floor's number at
 *                  column 6, experience at 9; row 1 coal, iron, diamond,
 *                  sapphire, ruby, sapling, the bow, the sword (its
 *                  enchantment over it), dexterity; row 2 wood, stone,
 *                  torches, books, the two spells learnt, arrows (their
 *                  enchantment over them), the pickaxe, strength; row 3
 *                  the six potions, intelligence; column 7 the four
 *                  pieces of armour, their enchantments over them.  A
 *                  count of 0 draws no icon; Craftax's index clamping is
 *                  kept (a digit past 9 is 9; a negative index counts
 *                  once from the end).
 *
 * Textures: Craftax's assets' file names (grass.png, gnome_warrior.png,
 * ...; 16x16 PNGs), loaded and scaled as Craftax does: the alpha made 0
 * or 1 (alpha / 255 in integers) first, then PIL's NEAREST resize to 10
 * pixels (the map), 8 (icons) or 4 (digits); blocks and most icons keep
 * their colour where transparent, creatures, projectiles, tools and
 * armour have it multiplied by the alpha, as Craftax's own textures.
 *
 * Arithmetic: everything drawn is a whole number 0..255 and exact but
 * the light of the map, which is float32 as XLA compiles it on x86-64
 * for env.step: each pixel of the window times its cell's light_map
 * value (0 outside the map), P; daylight d is light_level on the
 * overworld, 1 below it; at night (d < 0.5, the overworld only) P is
 * first blended with static, jax.random.uniform(state_rng, (90, 110)) *
 * 95 + 32 a pixel (one fused multiply-add) weighted by m = the night
 * noise texture times max(2 (0.5 - d), 0): fmaf(m, static, (1 - m) P),
 * Q; then the picture is fmaf(d, P, (1 - d)(0.5 Q + tint / 2)), tint
 * (0, 16, 64); asleep it is halved; and every value is multiplied by
 * 1/255 (XLA's x / 255).  The two multiply-adds are fused as XLA's code
 * generator fuses them (the static's blend its second product, the
 * daylight blend its first); the night noise texture is sqrtf of each
 * pixel's squared distance from pixel (45, 55) times the reciprocal of
 * the largest, sqrtf(5050), in float32 (as XLA divides by a scalar).
 *
 * Promise: for every state Craftax's auto-resetting env.step can produce
 * the observation is bit for bit the one JAX returns from jit(env.step)
 * of Craftax-Pixels-v1 with the pinned reference (craftax 1.6.1, jax
 * 0.10.1 on the CPU), 0 ulp, drawn with the textures of the installed
 * craftax package: days, nights and their static, sleep, dark floors and
 * torches' light, every floor's creatures and projectiles, the boss, the
 * inventory, potions, armour and enchantments, the first state of the
 * next episode after an end.  That env's states are
 * crafter_cx_env_step_of(CRAFTER_CX_PIXELS_ENV, ...)'s (game/cx_game.h:
 * its resets make other worlds than the symbolic env's).  Shown on 5,567
 * of 5,567 recorded states (tests/unit-cx-pixels.t: seeds 10-12 of 1,000
 * random steps, crafted first states on each of the nine floors and
 * beside the boss, its floor dark or lit; 943 at night, 1,499 asleep,
 * 466 with dark cells in view, 817 with torches, 1,401 with ladders, 49
 * with the necromancer lit, vulnerable or not, 3,847 with creatures, 291
 * with projectiles, 17 episode ends) and on fresh seeds
 * (tests/cx-pixels.t against JAX itself).  Every scaled texture equals
 * Craftax's own (tests/cx-pixels.t).  Nothing here keeps state between
 * calls. */
#ifndef CRAFTER_CX_PIXELS_H
#define CRAFTER_CX_PIXELS_H

#include <stddef.h>

#include "game/cx_worldgen.h"

enum {
  CRAFTER_CX_BLOCK_PIXELS = 10,
  CRAFTER_CX_ICON_PIXELS = 8,  /* int(10 * 0.8) */
  CRAFTER_CX_DIGIT_PIXELS = 4, /* int(10 * 0.4) */
  CRAFTER_CX_INVENTORY_ROWS = 4,
  CRAFTER_CX_BLOCK_TYPES = 37, /* BlockType: INVALID .. NECROMANCER_VULNERABLE */
  CRAFTER_CX_ITEM_TYPES = 5,   /* ItemType: NONE .. LADDER_DOWN_BLOCKED */
  CRAFTER_CX_MOB_TYPES = 8,    /* type_id of a melee or ranged creature or a projectile */
  CRAFTER_CX_PASSIVE_TYPES = 3,
  CRAFTER_CX_PIXELS_ROWS = (CRAFTER_CX_VIEW_ROWS + CRAFTER_CX_INVENTORY_ROWS) * CRAFTER_CX_BLOCK_PIXELS,
  CRAFTER_CX_PIXELS_COLUMNS = CRAFTER_CX_VIEW_COLUMNS * CRAFTER_CX_BLOCK_PIXELS,
  CRAFTER_CX_PIXELS_SIZE = CRAFTER_CX_PIXELS_ROWS * CRAFTER_CX_PIXELS_COLUMNS * 3
};

/* The icons of the inventory, each 8x8, as float32 values 0..255. */
enum crafter_cx_icon {
  CRAFTER_CX_ICON_HEALTH, CRAFTER_CX_ICON_FOOD, CRAFTER_CX_ICON_DRINK, CRAFTER_CX_ICON_ENERGY,
  CRAFTER_CX_ICON_MANA, CRAFTER_CX_ICON_SAPLING, CRAFTER_CX_ICON_TORCH, CRAFTER_CX_ICON_BOW,
  CRAFTER_CX_ICON_BOOK, CRAFTER_CX_ICON_FIREBALL, CRAFTER_CX_ICON_ICEBALL, CRAFTER_CX_ICON_XP,
  CRAFTER_CX_ICON_DEXTERITY, CRAFTER_CX_ICON_STRENGTH, CRAFTER_CX_ICON_INTELLIGENCE,
  CRAFTER_CX_ICON_ARROW,                            /* times its alpha */
  CRAFTER_CX_ICON_PICKAXE,                          /* wood stone iron diamond, times alpha */
  CRAFTER_CX_ICON_SWORD = CRAFTER_CX_ICON_PICKAXE + 4,  /* the same */
  CRAFTER_CX_ICON_ARMOUR = CRAFTER_CX_ICON_SWORD + 4,   /* iron helmet chestplate pants boots,
                                                     * then diamond's, times alpha */
  CRAFTER_CX_ICON_POTION = CRAFTER_CX_ICON_ARMOUR + 8,  /* red green blue pink cyan yellow */
  CRAFTER_CX_ICONS = CRAFTER_CX_ICON_POTION + 6
};

/* The enchantments drawn over the sword, the arrows and the armour, 8x8
 * with their alpha (0 or 1). */
enum crafter_cx_overlay {
  CRAFTER_CX_OVERLAY_SWORD,                            /* fire, ice */
  CRAFTER_CX_OVERLAY_ARROW = CRAFTER_CX_OVERLAY_SWORD + 2,  /* fire, ice */
  CRAFTER_CX_OVERLAY_ARMOUR = CRAFTER_CX_OVERLAY_ARROW + 2, /* fire: helmet .. boots; ice */
  CRAFTER_CX_OVERLAYS = CRAFTER_CX_OVERLAY_ARMOUR + 8
};

/* A picture of the map with its alpha (0 or 1). */
typedef struct crafter_cx_sprite {
  float rgb[CRAFTER_CX_BLOCK_PIXELS][CRAFTER_CX_BLOCK_PIXELS][3];
  float alpha[CRAFTER_CX_BLOCK_PIXELS][CRAFTER_CX_BLOCK_PIXELS];
} crafter_cx_sprite;

/* The textures, scaled, as float32 values 0..255. */
typedef struct crafter_cx_textures {
  /* each BlockType's (OUT_OF_BOUNDS grey 128, DARKNESS black) */
  float block[CRAFTER_CX_BLOCK_TYPES][CRAFTER_CX_BLOCK_PIXELS][CRAFTER_CX_BLOCK_PIXELS][3];
  /* each BlockType's at the icons' size (wood, stone, ... in the inventory) */
  float block_icon[CRAFTER_CX_BLOCK_TYPES][CRAFTER_CX_ICON_PIXELS][CRAFTER_CX_ICON_PIXELS][3];
  crafter_cx_sprite item[CRAFTER_CX_ITEM_TYPES]; /* ItemType's; NONE never drawn */
  crafter_cx_sprite player[5];                   /* LEFT RIGHT UP DOWN, asleep */
  crafter_cx_sprite melee[CRAFTER_CX_MOB_TYPES]; /* colours times alpha, by type_id */
  crafter_cx_sprite passive[CRAFTER_CX_PASSIVE_TYPES];
  crafter_cx_sprite ranged[CRAFTER_CX_MOB_TYPES];
  crafter_cx_sprite projectile[CRAFTER_CX_MOB_TYPES]; /* pointing up */
  float icon[CRAFTER_CX_ICONS][CRAFTER_CX_ICON_PIXELS][CRAFTER_CX_ICON_PIXELS][3];
  float overlay[CRAFTER_CX_OVERLAYS][CRAFTER_CX_ICON_PIXELS][CRAFTER_CX_ICON_PIXELS][4];
  /* 0..9 times their alpha, and their alphas; 0 of digit is empty, and
   * zero is the 0 a number's ones draw when the number is not 0 */
  float digit[10][CRAFTER_CX_DIGIT_PIXELS][CRAFTER_CX_DIGIT_PIXELS][3];
  float digit_alpha[10][CRAFTER_CX_DIGIT_PIXELS][CRAFTER_CX_DIGIT_PIXELS];
  float zero[CRAFTER_CX_DIGIT_PIXELS][CRAFTER_CX_DIGIT_PIXELS][3];
  float zero_alpha[CRAFTER_CX_DIGIT_PIXELS][CRAFTER_CX_DIGIT_PIXELS];
  /* Craftax's night_noise_intensity_texture, one value a pixel of the map */
  float night_noise[CRAFTER_CX_VIEW_ROWS * CRAFTER_CX_BLOCK_PIXELS]
                   [CRAFTER_CX_VIEW_COLUMNS * CRAFTER_CX_BLOCK_PIXELS];
} crafter_cx_textures;

/* Loads and scales the textures of `folder` (Craftax's assets folder,
 * craftax/craftax/assets of the installed package).  Returns 0, or -1
 * with a sentence in `error` naming the file. */
int crafter_cx_textures_load(crafter_cx_textures *textures, const char *folder, char *error,
                             size_t error_size);

/* Loads and scales the toolkit's own textures (data/textures, built into
 * the library; view/textures.h) the same way, each standing for
 * Craftax's file of the same name; where the toolkit has none, a picture
 * made here from one of its own (recoloured: the creatures of the deeper
 * floors from the zombie, the cow and the skeleton, the new blocks from
 * stone, grass, tree, table, diamond, water and path) or drawn (ladders,
 * balls, books, potions, armour, enchantments, the digit 0).  The
 * observation has Craftax's layout, light, night and sleep with the
 * toolkit's look.  Returns 0, or -1 with a sentence in `error`. */
int crafter_cx_textures_load_builtin(crafter_cx_textures *textures, char *error,
                                     size_t error_size);

/* The pixel observation of *state into out[CRAFTER_CX_PIXELS_SIZE].
 * Returns 0 (it draws every state). */
int crafter_cx_render_pixels(const crafter_cx_state *state, const crafter_cx_textures *textures,
                             float *out);

/* crafter-gen's picture of a world (not an observation): the whole map
 * of each of the nine floors, 10 pixels a cell, every cell shown whatever
 * its light, the blocks with their items, creatures and the player (on
 * its floor) over them as the observation draws them; the floors in a
 * grid of three by three (floor 0 top left, row by row), 10 black pixels
 * between them.  RGB bytes (each value rounded to nearest), row-major,
 * CRAFTER_CX_FLOORS_PICTURE_SIDE pixels a side.  Returns 0. */
enum { CRAFTER_CX_FLOORS_PICTURE_SIDE =
           3 * CRAFTER_CX_MAP_SIZE * CRAFTER_CX_BLOCK_PIXELS + 2 * CRAFTER_CX_BLOCK_PIXELS };
int crafter_cx_draw_floors(const crafter_cx_state *s, const crafter_cx_textures *t, uint8_t *rgb);

#endif
