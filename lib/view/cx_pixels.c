/* cx_pixels: Craftax's pixel observation of a Craftax state.  cx_pixels.h
 * says the layout, the arithmetic and what is promised. */
#include "view/cx_pixels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/jaxrng.h"
#include "kernels/kernels.h"
#include "view/textures.h"

enum {
  BP = CRAFTER_CX_BLOCK_PIXELS,
  IP = CRAFTER_CX_ICON_PIXELS,
  DP = CRAFTER_CX_DIGIT_PIXELS,
  VR = CRAFTER_CX_VIEW_ROWS,
  VC = CRAFTER_CX_VIEW_COLUMNS,
  MAP = CRAFTER_CX_MAP_SIZE,
  WIDTH = CRAFTER_CX_PIXELS_COLUMNS
};

typedef uint8_t rgba16[16][16][4];

/* ---- reading the pictures ---- */

/* A 16x16 image as RGBA bytes (an image without alpha opaque); `what`
 * names it in an error. */
static int image_rgba(const crafter_image *image, const char *what, rgba16 rgba, char *error,
                      size_t error_size) {
  if (image->width != 16 || image->height != 16) {
    snprintf(error, error_size, "%s is %dx%d, not 16x16", what, image->width, image->height);
    return -1;
  }
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      for (int c = 0; c < 4; c++)
        rgba[y][x][c] = c < image->channels ? image->pixels[(y * 16 + x) * image->channels + c] : 255;
  return 0;
}

static int folder_rgba(const char *folder, const char *name, rgba16 rgba, char *error,
                       size_t error_size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.png", folder, name);
  crafter_image image = {0};
  if (crafter_image_read_png(&image, path, error, error_size) != 0) return -1;
  int status = image_rgba(&image, path, rgba, error, error_size);
  free(image.pixels);
  return status;
}

/* One of the toolkit's own textures by its name, as RGBA bytes; 1 when
 * there is none of that name. */
static int builtin_file(const char *name, rgba16 rgba, char *error, size_t error_size) {
  const uint8_t *data;
  size_t size;
  if (crafter_builtin_texture_png(name, &data, &size) != 0) return 1;
  crafter_image image = {0};
  char reason[200];
  if (crafter_image_decode_png(&image, data, size, reason, sizeof reason) != 0) {
    snprintf(error, error_size, "built-in texture %s: %s", name, reason);
    return -1;
  }
  char what[80];
  snprintf(what, sizeof what, "built-in texture %s", name);
  int status = image_rgba(&image, what, rgba, error, error_size);
  free(image.pixels);
  return status;
}

/* ---- the toolkit's own pictures for Craftax's names ---- */

/* The colour of every pixel not wholly transparent moved toward (r, g,
 * b) by weight w of 255, in integers rounded to nearest. */
static void tint(rgba16 p, int r, int g, int b, int w) {
  const int to[3] = {r, g, b};
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      for (int c = 0; c < 3; c++)
        if (p[y][x][3]) p[y][x][c] = (uint8_t)((p[y][x][c] * (255 - w) + to[c] * w + 127) / 255);
}

static void clear(rgba16 p) { memset(p, 0, sizeof(rgba16)); }

static void dot(rgba16 p, int y, int x, int r, int g, int b) {
  if (y < 0 || y > 15 || x < 0 || x > 15) return;
  p[y][x][0] = (uint8_t)r, p[y][x][1] = (uint8_t)g, p[y][x][2] = (uint8_t)b, p[y][x][3] = 255;
}

static void box(rgba16 p, int y0, int x0, int y1, int x1, int r, int g, int b) {
  for (int y = y0; y <= y1; y++)
    for (int x = x0; x <= x1; x++) dot(p, y, x, r, g, b);
}

/* A disc of radius about 5 around the centre, lighter at its core. */
static void ball(rgba16 p, int r, int g, int b) {
  clear(p);
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++) {
      int d = (2 * y - 15) * (2 * y - 15) + (2 * x - 15) * (2 * x - 15);
      if (d <= 100) dot(p, y, x, r, g, b);
      if (d <= 30) dot(p, y, x, (r + 255) / 2, (g + 255) / 2, (b + 255) / 2);
    }
}

/* A ladder: two rails and rungs, on nothing, or crossed out. */
static void ladder(rgba16 p, int up, int blocked) {
  clear(p);
  box(p, 1, 3, 14, 4, 150, 100, 50);
  box(p, 1, 11, 14, 12, 150, 100, 50);
  for (int y = up ? 2 : 3; y < 15; y += 3) box(p, y, 5, y, 10, 190, 140, 80);
  if (blocked)
    for (int k = 1; k < 15; k++) dot(p, k, k, 200, 30, 30), dot(p, k, 15 - k, 200, 30, 30);
}

/* The flask of a potion. */
static void potion(rgba16 p, int r, int g, int b) {
  clear(p);
  box(p, 2, 6, 5, 9, 200, 200, 210);
  box(p, 6, 4, 13, 11, r, g, b);
  box(p, 7, 5, 8, 6, (r + 255) / 2, (g + 255) / 2, (b + 255) / 2);
}

/* A piece of armour: 0 helmet, 1 chestplate, 2 pants, 3 boots. */
static void armour(rgba16 p, int piece, int r, int g, int b) {
  clear(p);
  switch (piece) {
  case 0: box(p, 3, 3, 6, 12, r, g, b); box(p, 7, 3, 11, 5, r, g, b); box(p, 7, 10, 11, 12, r, g, b); break;
  case 1: box(p, 2, 2, 5, 13, r, g, b); box(p, 6, 4, 13, 11, r, g, b); break;
  case 2: box(p, 2, 3, 5, 12, r, g, b); box(p, 6, 3, 13, 6, r, g, b); box(p, 6, 9, 13, 12, r, g, b); break;
  default: box(p, 6, 2, 12, 5, r, g, b); box(p, 10, 2, 12, 7, r, g, b);
    box(p, 6, 10, 12, 13, r, g, b); box(p, 10, 10, 12, 15, r, g, b); break;
  }
}

/* An enchantment's sparks: a few pixels of its colour along a diagonal. */
static void sparks(rgba16 p, int offset, int r, int g, int b) {
  clear(p);
  for (int k = 1; k < 15; k += 3) dot(p, k, (k + offset) % 16, r, g, b), dot(p, 15 - k, (k + offset + 7) % 16, r, g, b);
}

struct derived {
  const char *name, *base; /* base NULL: drawn */
  int r, g, b, w;          /* the tint of the base */
};

/* Craftax's names the toolkit has no file for, and what stands for each. */
static const struct derived derived_textures[] = {
    {"debug_tile", "unknown", 0, 0, 0, 0},
    {"wall2", "stone", 60, 60, 70, 120},
    {"wall_moss", "stone", 40, 120, 40, 110},
    {"stalagmite", "stone", 150, 140, 120, 90},
    {"sapphire", "diamond", 30, 60, 220, 150},
    {"ruby", "diamond", 220, 30, 50, 150},
    {"chest", "table", 200, 150, 40, 110},
    {"fountain", "water", 200, 230, 255, 90},
    {"fire_grass", "grass", 220, 80, 20, 150},
    {"ice_grass", "grass", 200, 230, 255, 170},
    {"gravel", "path", 120, 120, 120, 140},
    {"fire_tree", "tree", 230, 90, 20, 140},
    {"ice_shrub", "tree", 180, 220, 255, 150},
    {"enchantment_table_fire", "table", 230, 60, 30, 120},
    {"enchantment_table_ice", "table", 60, 120, 240, 120},
    {"necromancer", "player-down", 90, 20, 120, 150},
    {"necromancer_vulnerable", "player-down", 230, 200, 255, 150},
    {"grave", "stone", 200, 200, 200, 90},
    {"grave2", "stone", 170, 170, 190, 120},
    {"grave3", "stone", 140, 140, 160, 150},
    {"torch_in_inventory", "sapling", 240, 160, 30, 170},
    {"mana", "drink", 150, 60, 220, 150},
    {"diamond_pickaxe", "iron_pickaxe", 80, 220, 230, 130},
    {"diamond_sword", "iron_sword", 80, 220, 230, 130},
    {"bow", "wood_sword", 150, 90, 40, 100},
    {"xp", "energy", 120, 240, 60, 150},
    {"dexterity", "arrow-right", 80, 200, 80, 120},
    {"strength", "stone_sword", 220, 60, 60, 120},
    {"intelligence", "diamond", 170, 90, 220, 150},
    {"gnome_warrior", "zombie", 200, 60, 60, 120},
    {"orc_soldier", "zombie", 80, 110, 40, 120},
    {"lizard", "zombie", 60, 170, 60, 140},
    {"knight", "zombie", 170, 170, 190, 150},
    {"troll", "zombie", 110, 90, 60, 140},
    {"pigman", "zombie", 230, 140, 150, 140},
    {"frost_troll", "zombie", 170, 220, 255, 150},
    {"bat", "cow", 60, 40, 70, 170},
    {"snail", "cow", 190, 160, 90, 150},
    {"gnome_archer", "skeleton", 200, 60, 60, 120},
    {"orc_mage", "skeleton", 80, 110, 40, 120},
    {"kobold", "skeleton", 170, 110, 60, 130},
    {"knight_archer", "skeleton", 150, 150, 180, 130},
    {"deep_thing", "skeleton", 40, 60, 110, 150},
    {"fire_elemental", "skeleton", 240, 100, 20, 150},
    {"ice_elemental", "skeleton", 150, 210, 255, 150},
    {"dagger", "arrow-up", 190, 190, 200, 150},
};

/* The toolkit's picture standing for Craftax's file `name` (without
 * .png). */
static int builtin_rgba(const char *name, rgba16 p, char *error, size_t error_size) {
  int found = builtin_file(name, p, error, error_size);
  if (found <= 0) return found;
  for (size_t k = 0; k < sizeof derived_textures / sizeof derived_textures[0]; k++) {
    const struct derived *d = &derived_textures[k];
    if (strcmp(d->name, name) != 0) continue;
    found = builtin_file(d->base, p, error, error_size);
    if (found > 0) snprintf(error, error_size, "built-in texture %s is missing", d->base);
    if (found != 0) return -1;
    tint(p, d->r, d->g, d->b, d->w);
    return 0;
  }
  /* the plants over grass, as Craftax's two files are its plant's over
   * its grass: colour * alpha + grass * (255 - alpha), / 255 rounded to
   * nearest, opaque */
  const char *plant = strcmp(name, "plant_on_grass") == 0        ? "plant"
                      : strcmp(name, "ripe_plant_on_grass") == 0 ? "plant-ripe"
                                                                 : NULL;
  if (plant) {
    rgba16 over;
    if (builtin_file("grass", p, error, error_size) != 0 ||
        builtin_file(plant, over, error, error_size) != 0) {
      snprintf(error, error_size, "built-in texture grass or %s is missing", plant);
      return -1;
    }
    for (int y = 0; y < 16; y++)
      for (int x = 0; x < 16; x++) {
        int a = over[y][x][3];
        for (int c = 0; c < 3; c++)
          p[y][x][c] = (uint8_t)((over[y][x][c] * a + p[y][x][c] * (255 - a) + 127) / 255);
        p[y][x][3] = 255;
      }
    return 0;
  }
  static const char *const potions[6] = {"red", "green", "blue", "pink", "cyan", "yellow"};
  static const int potion_colours[6][3] = {{220, 40, 40},  {40, 190, 60},  {40, 80, 230},
                                           {240, 120, 200}, {40, 220, 220}, {230, 210, 40}};
  static const char *const pieces[4] = {"helmet", "chestplate", "pants", "boots"};
  char want[64];
  for (int k = 0; k < 6; k++) {
    snprintf(want, sizeof want, "potion_%s", potions[k]);
    if (strcmp(name, want) == 0) {
      potion(p, potion_colours[k][0], potion_colours[k][1], potion_colours[k][2]);
      return 0;
    }
  }
  for (int k = 0; k < 4; k++) {
    const char *metals[2] = {"iron", "diamond"};
    for (int m = 0; m < 2; m++) {
      snprintf(want, sizeof want, "%s_%s", metals[m], pieces[k]);
      if (strcmp(name, want) == 0) {
        armour(p, k, m ? 90 : 170, m ? 220 : 170, m ? 230 : 175);
        return 0;
      }
    }
    for (int e = 0; e < 2; e++) {
      snprintf(want, sizeof want, "%s_%s_enchantment", pieces[k], e ? "ice" : "fire");
      if (strcmp(name, want) == 0) {
        sparks(p, k, e ? 90 : 250, e ? 170 : 90, e ? 255 : 20);
        return 0;
      }
    }
  }
  if (strcmp(name, "sword_fire_enchantment") == 0) sparks(p, 5, 250, 90, 20);
  else if (strcmp(name, "sword_ice_enchantment") == 0) sparks(p, 5, 90, 170, 255);
  else if (strcmp(name, "arrow_fire_enchantment") == 0) sparks(p, 9, 250, 90, 20);
  else if (strcmp(name, "arrow_ice_enchantment") == 0) sparks(p, 9, 90, 170, 255);
  else if (strcmp(name, "ladder_down") == 0) ladder(p, 0, 0);
  else if (strcmp(name, "ladder_up") == 0) ladder(p, 1, 0);
  else if (strcmp(name, "ladder_down_blocked") == 0) ladder(p, 0, 1);
  else if (strcmp(name, "fireball") == 0) ball(p, 240, 100, 20);
  else if (strcmp(name, "iceball") == 0) ball(p, 90, 170, 255);
  else if (strcmp(name, "slimeball") == 0) ball(p, 80, 200, 60);
  else if (strcmp(name, "book") == 0) {
    clear(p);
    box(p, 2, 3, 13, 12, 120, 50, 40);
    box(p, 3, 10, 12, 11, 235, 230, 210);
  } else if (strcmp(name, "0") == 0) { /* a ring, as the digits 1..9 are drawn */
    if (builtin_file("1", p, error, error_size) != 0) {
      snprintf(error, error_size, "built-in texture 1 is missing");
      return -1;
    }
    int r = 255, g = 255, b = 255; /* the colour of the 1's most opaque pixel */
    for (int y = 0; y < 16; y++)
      for (int x = 0; x < 16; x++)
        if (p[y][x][3] == 255) r = p[y][x][0], g = p[y][x][1], b = p[y][x][2];
    clear(p);
    for (int y = 2; y < 14; y++) dot(p, y, 3, r, g, b), dot(p, y, 4, r, g, b), dot(p, y, 11, r, g, b), dot(p, y, 12, r, g, b);
    box(p, 2, 3, 3, 12, r, g, b);
    box(p, 12, 3, 13, 12, r, g, b);
  } else {
    snprintf(error, error_size, "no built-in texture stands for %s.png", name);
    return -1;
  }
  return 0;
}

/* ---- scaling ---- */

/* The source pixel of each of n pixels in PIL's NEAREST resize from 16:
 * the centre of each pixel stepped by 16 / n in double, truncated. */
static void nearest(int n, int source[BP]) {
  double step = 16.0 / n, at = step * 0.5;
  for (int k = 0; k < n; k++, at += step) source[k] = (int)at;
}

/* What load_texture gives at n pixels: the alpha made 0 or 1 first, then
 * the NEAREST resize; rgb[n*n*3] the colour as it is (times the alpha
 * when `times_alpha`), alpha[n*n]. */
static int load_scaled(const char *folder, const char *name, int n, int times_alpha, float *rgb,
                       float *alpha, char *error, size_t error_size) {
  rgba16 rgba;
  int status = folder ? folder_rgba(folder, name, rgba, error, error_size)
                      : builtin_rgba(name, rgba, error, error_size);
  if (status != 0) return -1;
  int source[BP];
  nearest(n, source);
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      const uint8_t *p = rgba[source[y]][source[x]];
      int a = p[3] / 255;
      for (int c = 0; c < 3; c++) rgb[(y * n + x) * 3 + c] = (float)(times_alpha ? p[c] * a : p[c]);
      if (alpha) alpha[y * n + x] = (float)a;
    }
  return 0;
}

static int sprite(const char *folder, const char *name, int times_alpha, crafter_cx_sprite *s,
                  char *error, size_t error_size) {
  return load_scaled(folder, name, BP, times_alpha, &s->rgb[0][0][0], &s->alpha[0][0], error,
                     error_size);
}

static int icon(const char *folder, const char *name, int times_alpha, float out[IP][IP][3],
                char *error, size_t error_size) {
  return load_scaled(folder, name, IP, times_alpha, &out[0][0][0], NULL, error, error_size);
}

static const char *const block_files[CRAFTER_CX_BLOCK_TYPES] = {
    "debug_tile", "debug_tile", "grass", "water", "stone", "tree", "wood", "path", "coal",
    "iron", "diamond", "table", "furnace", "sand", "lava", "plant_on_grass",
    "ripe_plant_on_grass", "wall2", "debug_tile", "wall_moss", "stalagmite", "sapphire", "ruby",
    "chest", "fountain", "fire_grass", "ice_grass", "gravel", "fire_tree", "ice_shrub",
    "enchantment_table_fire", "enchantment_table_ice", "necromancer", "grave", "grave2",
    "grave3", "necromancer_vulnerable"};

static int load_textures(crafter_cx_textures *t, const char *folder, char *error,
                         size_t error_size) {
  memset(t, 0, sizeof *t);
  for (int b = 0; b < CRAFTER_CX_BLOCK_TYPES; b++)
    if (load_scaled(folder, block_files[b], BP, 0, &t->block[b][0][0][0], NULL, error,
                    error_size) != 0 ||
        icon(folder, block_files[b], 0, t->block_icon[b], error, error_size) != 0)
      return -1;
  for (int k = 0; k < BP * BP * 3; k++) {
    (&t->block[CRAFTER_CX_OUT_OF_BOUNDS][0][0][0])[k] = 128.0f;
    (&t->block[CRAFTER_CX_DARKNESS][0][0][0])[k] = 0.0f;
  }

  static const char *const items[CRAFTER_CX_ITEM_TYPES] = {
      "debug", "torch_in_inventory", "ladder_down", "ladder_up", "ladder_down_blocked"};
  for (int i = 0; i < CRAFTER_CX_ITEM_TYPES; i++)
    if (sprite(folder, items[i], 0, &t->item[i], error, error_size) != 0) return -1;
  static const char *const players[5] = {"player-left", "player-right", "player-up",
                                         "player-down", "player-sleep"};
  for (int i = 0; i < 5; i++)
    if (sprite(folder, players[i], 0, &t->player[i], error, error_size) != 0) return -1;
  static const char *const melee[CRAFTER_CX_MOB_TYPES] = {
      "zombie", "gnome_warrior", "orc_soldier", "lizard", "knight", "troll", "pigman",
      "frost_troll"};
  static const char *const passive[CRAFTER_CX_PASSIVE_TYPES] = {"cow", "bat", "snail"};
  static const char *const ranged[CRAFTER_CX_MOB_TYPES] = {
      "skeleton", "gnome_archer", "orc_mage", "kobold", "knight_archer", "deep_thing",
      "fire_elemental", "ice_elemental"};
  static const char *const projectiles[CRAFTER_CX_MOB_TYPES] = {
      "arrow-up", "dagger", "fireball", "iceball", "arrow-up", "slimeball", "fireball",
      "iceball"};
  for (int i = 0; i < CRAFTER_CX_MOB_TYPES; i++)
    if (sprite(folder, melee[i], 1, &t->melee[i], error, error_size) != 0 ||
        sprite(folder, ranged[i], 1, &t->ranged[i], error, error_size) != 0 ||
        sprite(folder, projectiles[i], 1, &t->projectile[i], error, error_size) != 0)
      return -1;
  for (int i = 0; i < CRAFTER_CX_PASSIVE_TYPES; i++)
    if (sprite(folder, passive[i], 1, &t->passive[i], error, error_size) != 0) return -1;

  static const struct {
    int icon;
    const char *name;
    int times_alpha;
  } icons[] = {
      {CRAFTER_CX_ICON_HEALTH, "health", 0},        {CRAFTER_CX_ICON_FOOD, "food", 0},
      {CRAFTER_CX_ICON_DRINK, "drink", 0},          {CRAFTER_CX_ICON_ENERGY, "energy", 0},
      {CRAFTER_CX_ICON_MANA, "mana", 0},            {CRAFTER_CX_ICON_SAPLING, "sapling", 0},
      {CRAFTER_CX_ICON_TORCH, "torch_in_inventory", 0}, {CRAFTER_CX_ICON_BOW, "bow", 0},
      {CRAFTER_CX_ICON_BOOK, "book", 0},            {CRAFTER_CX_ICON_FIREBALL, "fireball", 0},
      {CRAFTER_CX_ICON_ICEBALL, "iceball", 0},      {CRAFTER_CX_ICON_XP, "xp", 0},
      {CRAFTER_CX_ICON_DEXTERITY, "dexterity", 0},  {CRAFTER_CX_ICON_STRENGTH, "strength", 0},
      {CRAFTER_CX_ICON_INTELLIGENCE, "intelligence", 0}, {CRAFTER_CX_ICON_ARROW, "arrow-up", 1},
      {CRAFTER_CX_ICON_PICKAXE + 0, "wood_pickaxe", 1},
      {CRAFTER_CX_ICON_PICKAXE + 1, "stone_pickaxe", 1},
      {CRAFTER_CX_ICON_PICKAXE + 2, "iron_pickaxe", 1},
      {CRAFTER_CX_ICON_PICKAXE + 3, "diamond_pickaxe", 1},
      {CRAFTER_CX_ICON_SWORD + 0, "wood_sword", 1},
      {CRAFTER_CX_ICON_SWORD + 1, "stone_sword", 1},
      {CRAFTER_CX_ICON_SWORD + 2, "iron_sword", 1},
      {CRAFTER_CX_ICON_SWORD + 3, "diamond_sword", 1},
      {CRAFTER_CX_ICON_ARMOUR + 0, "iron_helmet", 1},
      {CRAFTER_CX_ICON_ARMOUR + 1, "iron_chestplate", 1},
      {CRAFTER_CX_ICON_ARMOUR + 2, "iron_pants", 1},
      {CRAFTER_CX_ICON_ARMOUR + 3, "iron_boots", 1},
      {CRAFTER_CX_ICON_ARMOUR + 4, "diamond_helmet", 1},
      {CRAFTER_CX_ICON_ARMOUR + 5, "diamond_chestplate", 1},
      {CRAFTER_CX_ICON_ARMOUR + 6, "diamond_pants", 1},
      {CRAFTER_CX_ICON_ARMOUR + 7, "diamond_boots", 1},
      {CRAFTER_CX_ICON_POTION + 0, "potion_red", 0},
      {CRAFTER_CX_ICON_POTION + 1, "potion_green", 0},
      {CRAFTER_CX_ICON_POTION + 2, "potion_blue", 0},
      {CRAFTER_CX_ICON_POTION + 3, "potion_pink", 0},
      {CRAFTER_CX_ICON_POTION + 4, "potion_cyan", 0},
      {CRAFTER_CX_ICON_POTION + 5, "potion_yellow", 0},
  };
  _Static_assert(sizeof icons / sizeof icons[0] == CRAFTER_CX_ICONS, "every icon named");
  for (size_t i = 0; i < sizeof icons / sizeof icons[0]; i++)
    if (icon(folder, icons[i].name, icons[i].times_alpha, t->icon[icons[i].icon], error,
             error_size) != 0)
      return -1;

  static const char *const overlays[CRAFTER_CX_OVERLAYS] = {
      "sword_fire_enchantment", "sword_ice_enchantment", "arrow_fire_enchantment",
      "arrow_ice_enchantment", "helmet_fire_enchantment", "chestplate_fire_enchantment",
      "pants_fire_enchantment", "boots_fire_enchantment", "helmet_ice_enchantment",
      "chestplate_ice_enchantment", "pants_ice_enchantment", "boots_ice_enchantment"};
  for (int i = 0; i < CRAFTER_CX_OVERLAYS; i++) {
    float rgb[IP * IP * 3], alpha[IP * IP];
    if (load_scaled(folder, overlays[i], IP, 0, rgb, alpha, error, error_size) != 0) return -1;
    for (int k = 0; k < IP * IP; k++) {
      for (int c = 0; c < 3; c++) (&t->overlay[i][0][0][0])[k * 4 + c] = rgb[k * 3 + c];
      (&t->overlay[i][0][0][0])[k * 4 + 3] = alpha[k];
    }
  }

  for (int d = 0; d <= 9; d++) {
    char name[8];
    snprintf(name, sizeof name, "%d", d);
    float *rgb = d ? &t->digit[d][0][0][0] : &t->zero[0][0][0];
    float *alpha = d ? &t->digit_alpha[d][0][0] : &t->zero_alpha[0][0];
    if (load_scaled(folder, name, DP, 1, rgb, alpha, error, error_size) != 0) return -1;
  }

  /* sqrt of the squared distance from pixel (45, 55) in float32, over the
   * largest, sqrtf(5050) at pixel (0, 0): times its reciprocal, as XLA
   * divides by a scalar (true division differs on 2,265 of the 9,900) */
  const int cy = VR * BP / 2, cx = VC * BP / 2;
  const float reciprocal = 1.0f / sqrtf((float)(cy * cy + cx * cx));
  for (int y = 0; y < VR * BP; y++)
    for (int x = 0; x < VC * BP; x++)
      t->night_noise[y][x] = sqrtf((float)((y - cy) * (y - cy) + (x - cx) * (x - cx))) * reciprocal;
  return 0;
}

int crafter_cx_textures_load(crafter_cx_textures *t, const char *folder, char *error,
                             size_t error_size) {
  if (!folder) {
    snprintf(error, error_size, "no folder of textures named");
    return -1;
  }
  return load_textures(t, folder, error, error_size);
}

int crafter_cx_textures_load_builtin(crafter_cx_textures *t, char *error, size_t error_size) {
  return load_textures(t, NULL, error, error_size);
}

/* ---- drawing ---- */

typedef float picture[CRAFTER_CX_PIXELS_ROWS][WIDTH][3];

/* An index as JAX's gather takes it: a negative one counts once from the
 * end, then it is clamped into 0..n-1. */
static int pick(int64_t index, int n) {
  if (index < 0) index += n;
  return index < 0 ? 0 : index >= n ? n - 1 : (int)index;
}

/* A sprite over the block at window cell (row, column): background * (1 -
 * alpha) + colour * alpha, the alpha 0 or 1; flipped upside down, then
 * transposed, as said. */
static void draw_sprite(picture p, int row, int column, const crafter_cx_sprite *s, int flip,
                        int transpose) {
  for (int y = 0; y < BP; y++)
    for (int x = 0; x < BP; x++) {
      int sy = transpose ? x : y, sx = transpose ? y : x;
      if (flip) sy = BP - 1 - sy;
      float a = s->alpha[sy][sx];
      float *q = p[row * BP + y][column * BP + x];
      for (int c = 0; c < 3; c++) q[c] = q[c] * (1.0f - a) + s->rgb[sy][sx][c] * a;
    }
}

/* The window cell of a position, or 0 when it is off the window. */
static int in_window(const crafter_cx_state *s, const int32_t position[2], int *row, int *column) {
  *row = position[0] - s->player_position[0] + VR / 2;
  *column = position[1] - s->player_position[1] + VC / 2;
  return *row >= 0 && *row < VR && *column >= 0 && *column < VC;
}

static void draw_mobs(picture p, const crafter_cx_state *s, const crafter_cx_mobs *mobs,
                      int slots, const crafter_cx_sprite *sprites, int types) {
  int level = s->player_level;
  for (int k = 0; k < slots; k++) {
    int row, column;
    if (!mobs->mask[level][k] || !in_window(s, mobs->position[level][k], &row, &column)) continue;
    draw_sprite(p, row, column, &sprites[pick(mobs->type_id[level][k], types)], 0, 0);
  }
}

static void draw_projectiles(picture p, const crafter_cx_state *s, const crafter_cx_mobs *mobs,
                             const int32_t directions[][3][2], int slots,
                             const crafter_cx_textures *t) {
  int level = s->player_level;
  for (int k = 0; k < slots; k++) {
    int row, column;
    if (!mobs->mask[level][k] || !in_window(s, mobs->position[level][k], &row, &column)) continue;
    const int32_t *d = directions[level][k];
    draw_sprite(p, row, column, &t->projectile[pick(mobs->type_id[level][k], CRAFTER_CX_MOB_TYPES)],
                d[0] > 0 || d[1] > 0, d[1] != 0);
  }
}

/* The region of the inventory at block (x, y) from pixel (dy, dx) on. */
static float *at(picture p, int x, int y, int dy, int dx) {
  return p[VR * BP + y * BP + dy][x * BP + dx];
}

static void put_icon(picture p, const float texture[IP][IP][3], int x, int y) {
  for (int r = 0; r < IP; r++)
    for (int c = 0; c < IP; c++)
      for (int k = 0; k < 3; k++) at(p, x, y, 1 + r, 1 + c)[k] = texture ? texture[r][c][k] : 0.0f;
}

/* An icon drawn only when `shown`, else the empty icon. */
static void put_icon_if(picture p, int shown, const float texture[IP][IP][3], int x, int y) {
  put_icon(p, shown ? texture : NULL, x, y);
}

static void put_overlay(picture p, const float texture[IP][IP][4], int x, int y) {
  if (!texture) return; /* the empty enchantment: alpha 0 */
  for (int r = 0; r < IP; r++)
    for (int c = 0; c < IP; c++) {
      float a = texture[r][c][3];
      float *q = at(p, x, y, 1 + r, 1 + c);
      for (int k = 0; k < 3; k++) q[k] = q[k] * (1.0f - a) + texture[r][c][k] * a;
    }
}

static void put_digit(picture p, const float rgb[DP][DP][3], const float alpha[DP][DP], int x,
                      int y, int dx) {
  for (int r = 0; r < DP; r++)
    for (int c = 0; c < DP; c++) {
      float *q = at(p, x, y, BP - DP + r, dx + c);
      for (int k = 0; k < 3; k++) q[k] = q[k] * (1.0f - alpha[r][c]) + rgb[r][c][k];
    }
}

/* _render_digit: one digit at the block's (6, 6), 0 drawn as nothing. */
static void put_number1(picture p, const crafter_cx_textures *t, int32_t number, int x, int y) {
  int d = pick(number, 10);
  put_digit(p, t->digit[d], t->digit_alpha[d], x, y, BP - DP);
}

/* _render_two_digit_number: the ones at (6, 6) (a 0 drawn unless the
 * number is 0), the tens at (6, 2) (0 drawn as nothing), with Python's
 * floor division. */
static void put_number2(picture p, const crafter_cx_textures *t, int32_t number, int x, int y) {
  int64_t tens = number / 10, ones = number % 10;
  if (ones < 0) ones += 10, tens -= 1;
  int o = pick(ones, 10), d = pick(tens, 10);
  if (o == 0 && number != 0)
    put_digit(p, t->zero, t->zero_alpha, x, y, BP - DP);
  else
    put_digit(p, t->digit[o], t->digit_alpha[o], x, y, BP - DP);
  put_digit(p, t->digit[d], t->digit_alpha[d], x, y, BP - 2 * DP);
}

static void put_count(picture p, const crafter_cx_textures *t, const float texture[IP][IP][3],
                      int32_t count, int x, int y) {
  put_icon_if(p, count > 0, texture, x, y);
  put_number2(p, t, count, x, y);
}

static int boss_vulnerable(const crafter_cx_state *s) {
  int level = s->player_level, alive = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_MELEE_MOBS; k++) alive += s->melee_mobs.mask[level][k];
  for (int k = 0; k < CRAFTER_CX_MAX_RANGED_MOBS; k++) alive += s->ranged_mobs.mask[level][k];
  return alive == 0 && s->boss_timesteps_to_spawn_this_round <= 0;
}

static void draw_map(picture p, const crafter_cx_state *s, const crafter_cx_textures *t) {
  int level = s->player_level;
  int boss = boss_vulnerable(s) ? CRAFTER_CX_NECROMANCER_VULNERABLE : CRAFTER_CX_NECROMANCER;
  int ladder = s->monsters_killed[level] >= 8 ? CRAFTER_CX_ITEM_LADDER_DOWN
                                              : CRAFTER_CX_ITEM_LADDER_DOWN_BLOCKED;
  for (int row = 0; row < VR; row++)
    for (int column = 0; column < VC; column++) {
      int y = s->player_position[0] + row - VR / 2, x = s->player_position[1] + column - VC / 2;
      int inside = y >= 0 && y < MAP && x >= 0 && x < MAP;
      int block = inside ? s->map[level][y][x] : CRAFTER_CX_OUT_OF_BOUNDS;
      int item = inside ? s->item_map[level][y][x] : CRAFTER_CX_ITEM_NONE;
      if (block == CRAFTER_CX_NECROMANCER) block = boss;
      if (item == CRAFTER_CX_ITEM_LADDER_DOWN) item = ladder;
      for (int r = 0; r < BP; r++)
        for (int c = 0; c < BP; c++)
          for (int k = 0; k < 3; k++)
            p[row * BP + r][column * BP + c][k] =
                block < CRAFTER_CX_BLOCK_TYPES ? t->block[block][r][c][k] : 0.0f;
      if (item >= 1 && item < CRAFTER_CX_ITEM_TYPES) {
        const crafter_cx_sprite *sp = &t->item[item];
        for (int r = 0; r < BP; r++)
          for (int c = 0; c < BP; c++) {
            float a = sp->alpha[r][c];
            float *q = p[row * BP + r][column * BP + c];
            for (int k = 0; k < 3; k++) q[k] = q[k] * (1.0f - a) + sp->rgb[r][c][k] * a;
          }
      }
    }
  int player = s->is_sleeping ? 4 : pick(s->player_direction - 1, 5);
  draw_sprite(p, VR / 2, VC / 2, &t->player[player], 0, 0);
  draw_mobs(p, s, &s->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS, t->melee, CRAFTER_CX_MOB_TYPES);
  draw_mobs(p, s, &s->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS, t->passive,
            CRAFTER_CX_PASSIVE_TYPES);
  draw_mobs(p, s, &s->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS, t->ranged, CRAFTER_CX_MOB_TYPES);
  draw_projectiles(p, s, &s->mob_projectiles, s->mob_projectile_directions,
                   CRAFTER_CX_MAX_MOB_PROJECTILES, t);
  draw_projectiles(p, s, &s->player_projectiles, s->player_projectile_directions,
                   CRAFTER_CX_MAX_PLAYER_PROJECTILES, t);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* A copy for processors with FMA instructions beside the plain one,
 * chosen when the program starts: fmaf rounds once in both, so both give
 * the same bits; the FMA copy is several times faster. */
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif

/* The light, night and sleep of a run of n <= 10 pixels (rgb[3n]) of one cell,
 * its light `light`, in float32 as XLA compiles them (cx_pixels.h says
 * the arithmetic): the fmaf calls are the multiply-adds XLA's code
 * generator fuses.  At night (noise not NULL) noise[n] are the static's
 * uniform draws and weight[n] the night noise texture's values. */
FMA_CLONES static void shade_run(float *rgb, int n, float light, float daylight, float asleep,
                                 const float *noise, const float *weight, float intensity) {
  /* (0, 16, 64) * 0.5 a pixel, and each pixel's static and its weight
   * a value, so that the loops below run over values alike */
  static const float half_tint[3 * BP] = {0, 8, 32, 0, 8, 32, 0, 8, 32, 0, 8, 32, 0, 8, 32,
                                          0, 8, 32, 0, 8, 32, 0, 8, 32, 0, 8, 32, 0, 8, 32};
  float value[3 * BP], mask[3 * BP];
  if (noise)
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 3; k++) {
        value[3 * i + k] = fmaf(noise[i], 95.0f, 32.0f);
        mask[3 * i + k] = weight[i] * intensity;
      }
  for (int v = 0; v < 3 * n; v++) {
    float lit = light * rgb[v];
    float dark = noise ? fmaf(mask[v], value[v], (1.0f - mask[v]) * lit) : lit;
    dark = dark * 0.5f + half_tint[v];
    rgb[v] = fmaf(daylight, lit, (1.0f - daylight) * dark) * asleep;
  }
}

/* jax.random.uniform(key, (count,)) into out[count]: the bits of element
 * i are the threefry2x32 hash of the counter (0, i), its two words
 * xored, hashed CRAFTER_JAX_WIDE at a time by the kernels in use. */
static void uniform_wide(crafter_jaxkey key, float *out, int count) {
  uint32_t k0[CRAFTER_JAX_WIDE], k1[CRAFTER_JAX_WIDE], x0[CRAFTER_JAX_WIDE], x1[CRAFTER_JAX_WIDE];
  int level = crafter_kernels_level();
  for (int lane = 0; lane < CRAFTER_JAX_WIDE; lane++) k0[lane] = key.word[0], k1[lane] = key.word[1];
  for (int first = 0; first < count; first += CRAFTER_JAX_WIDE) {
    for (int lane = 0; lane < CRAFTER_JAX_WIDE; lane++) x0[lane] = 0, x1[lane] = (uint32_t)(first + lane);
    crafter_jax_threefry2x32_wide(level, k0, k1, x0, x1);
    for (int lane = 0; lane < CRAFTER_JAX_WIDE && first + lane < count; lane++)
      out[first + lane] = crafter_jax_unit_of_bits(x0[lane] ^ x1[lane]);
  }
}

static void light_map(picture p, const crafter_cx_state *s, const crafter_cx_textures *t) {
  int level = s->player_level;
  float daylight = level == 0 ? s->light_level : 1.0f;
  float intensity = fmaxf(2.0f * (0.5f - daylight), 0.0f);
  int night = intensity > 0.0f;
  float asleep = s->is_sleeping ? 0.5f : 1.0f;
  float static_noise[VR * BP * VC * BP];
  if (night) uniform_wide(s->state_rng, static_noise, VR * BP * VC * BP);
  for (int row = 0; row < VR; row++)
    for (int column = 0; column < VC; column++) {
      int y = s->player_position[0] + row - VR / 2, x = s->player_position[1] + column - VC / 2;
      float light = y >= 0 && y < MAP && x >= 0 && x < MAP ? s->light_map[level][y][x] : 0.0f;
      for (int r = 0; r < BP; r++) {
        int py = row * BP + r, px = column * BP;
        float *rgb = p[py][px];
        if (daylight == 1.0f) {
          /* fmaf(1, lit, 0 * dark) is lit: the light alone */
          for (int k = 0; k < 3 * BP; k++) rgb[k] = light * rgb[k] * asleep;
          continue;
        }
        shade_run(rgb, BP, light, daylight, asleep, night ? static_noise + py * VC * BP + px : NULL,
                  t->night_noise[py] + px, intensity);
      }
    }
}

static void draw_inventory(picture p, const crafter_cx_state *s, const crafter_cx_textures *t) {
  memset(p[VR * BP], 0, sizeof(float) * CRAFTER_CX_INVENTORY_ROWS * BP * WIDTH * 3);
  const crafter_cx_inventory *v = &s->inventory;
  float floor_health = floorf(s->player_health);
  int32_t health = (int32_t)(floor_health > 1.0f ? floor_health : 1.0f);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_HEALTH], health, 0, 0);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_FOOD], s->player_food, 1, 0);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_DRINK], s->player_drink, 2, 0);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_ENERGY], s->player_energy, 3, 0);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_MANA], s->player_mana, 4, 0);
  put_count(p, t, t->block_icon[CRAFTER_CX_WOOD], v->wood, 0, 2);
  put_count(p, t, t->block_icon[CRAFTER_CX_STONE], v->stone, 1, 2);
  put_count(p, t, t->block_icon[CRAFTER_CX_COAL], v->coal, 0, 1);
  put_count(p, t, t->block_icon[CRAFTER_CX_IRON], v->iron, 1, 1);
  put_count(p, t, t->block_icon[CRAFTER_CX_DIAMOND], v->diamond, 2, 1);
  put_count(p, t, t->block_icon[CRAFTER_CX_SAPPHIRE], v->sapphire, 3, 1);
  put_count(p, t, t->block_icon[CRAFTER_CX_RUBY], v->ruby, 4, 1);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_SAPLING], v->sapling, 5, 1);
  /* tools: index 0 the empty icon */
  int pickaxe = pick(v->pickaxe, 5), sword = pick(v->sword, 5), bow = pick(v->bow, 2);
  put_icon_if(p, pickaxe > 0, t->icon[CRAFTER_CX_ICON_PICKAXE + pickaxe - (pickaxe > 0)], 8, 2);
  put_icon_if(p, sword > 0, t->icon[CRAFTER_CX_ICON_SWORD + sword - (sword > 0)], 8, 1);
  put_icon_if(p, bow > 0, t->icon[CRAFTER_CX_ICON_BOW], 6, 1);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_ARROW], v->arrows, 6, 2);
  for (int i = 0; i < 4; i++) {
    int metal = pick(v->armour[i], 3);
    put_icon_if(p, metal > 0, t->icon[CRAFTER_CX_ICON_ARMOUR + 4 * (metal - (metal > 0)) + i], 7, i);
  }
  put_count(p, t, t->icon[CRAFTER_CX_ICON_TORCH], v->torches, 2, 2);
  for (int i = 0; i < CRAFTER_CX_POTIONS; i++)
    put_count(p, t, t->icon[CRAFTER_CX_ICON_POTION + i], v->potions[i], i, 3);
  put_count(p, t, t->icon[CRAFTER_CX_ICON_BOOK], v->books, 3, 2);
  put_icon_if(p, s->learned_spells[0], t->icon[CRAFTER_CX_ICON_FIREBALL], 4, 2);
  put_icon_if(p, s->learned_spells[1], t->icon[CRAFTER_CX_ICON_ICEBALL], 5, 2);
  /* enchantments: index 0 the empty one */
  int e = pick(s->sword_enchantment, 3);
  put_overlay(p, e ? t->overlay[CRAFTER_CX_OVERLAY_SWORD + e - 1] : NULL, 8, 1);
  e = pick((int64_t)s->bow_enchantment * (v->arrows > 0), 3);
  put_overlay(p, e ? t->overlay[CRAFTER_CX_OVERLAY_ARROW + e - 1] : NULL, 6, 2);
  for (int i = 0; i < 4; i++) {
    e = pick(s->armour_enchantments[i], 3);
    put_overlay(p, e ? t->overlay[CRAFTER_CX_OVERLAY_ARMOUR + 4 * (e - 1) + i] : NULL, 7, i);
  }
  put_number1(p, t, s->player_level, 6, 0);
  put_icon_if(p, s->player_xp > 0, t->icon[CRAFTER_CX_ICON_XP], 9, 0);
  put_number1(p, t, s->player_xp, 9, 0);
  put_icon(p, t->icon[CRAFTER_CX_ICON_DEXTERITY], 9, 1);
  put_number1(p, t, s->player_dexterity, 9, 1);
  put_icon(p, t->icon[CRAFTER_CX_ICON_STRENGTH], 9, 2);
  put_number1(p, t, s->player_strength, 9, 2);
  put_icon(p, t->icon[CRAFTER_CX_ICON_INTELLIGENCE], 9, 3);
  put_number1(p, t, s->player_intelligence, 9, 3);
}

int crafter_cx_render_pixels(const crafter_cx_state *state, const crafter_cx_textures *t,
                             float *out) {
  _Static_assert(sizeof(picture) == sizeof(float) * CRAFTER_CX_PIXELS_SIZE, "packed");
  float(*p)[WIDTH][3] = (float(*)[WIDTH][3])out;
  draw_map(p, state, t);
  light_map(p, state, t);
  draw_inventory(p, state, t);
  const float scale = 1.0f / 255.0f;
  for (int k = 0; k < CRAFTER_CX_PIXELS_SIZE; k++) out[k] = out[k] * scale; /* / 255 as XLA compiles it */
  return 0;
}

/* A cell of the map picture at (row, column) in the picture's pixels. */
static void floors_cell(uint8_t *rgb, int width, int top, int left, const float block[BP][BP][3],
                        const crafter_cx_sprite *over[3]) {
  for (int y = 0; y < BP; y++)
    for (int x = 0; x < BP; x++) {
      float q[3] = {block[y][x][0], block[y][x][1], block[y][x][2]};
      for (int k = 0; k < 3; k++) {
        const crafter_cx_sprite *s = over[k];
        if (!s) continue;
        float a = s->alpha[y][x];
        for (int c = 0; c < 3; c++) q[c] = q[c] * (1.0f - a) + s->rgb[y][x][c] * a;
      }
      uint8_t *out = rgb + ((size_t)(top + y) * (size_t)width + (size_t)(left + x)) * 3;
      for (int c = 0; c < 3; c++) {
        float v = q[c] + 0.5f;
        out[c] = (uint8_t)(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
      }
    }
}

int crafter_cx_draw_floors(const crafter_cx_state *s, const crafter_cx_textures *t, uint8_t *rgb) {
  enum { SIDE = CRAFTER_CX_MAP_SIZE * BP };
  const int width = CRAFTER_CX_FLOORS_PICTURE_SIDE;
  memset(rgb, 0, (size_t)width * (size_t)width * 3);
  for (int floor = 0; floor < CRAFTER_CX_LEVELS; floor++) {
    int top0 = (floor / 3) * (SIDE + BP), left0 = (floor % 3) * (SIDE + BP);
    for (int row = 0; row < CRAFTER_CX_MAP_SIZE; row++)
      for (int column = 0; column < CRAFTER_CX_MAP_SIZE; column++) {
        const crafter_cx_sprite *over[3] = {NULL, NULL, NULL};
        int item = s->item_map[floor][row][column];
        if (item > 0 && item < CRAFTER_CX_ITEM_TYPES) over[0] = &t->item[item];
        const crafter_cx_mobs *kinds[3] = {&s->melee_mobs, &s->passive_mobs, &s->ranged_mobs};
        const crafter_cx_sprite *sprites[3] = {t->melee, t->passive, t->ranged};
        const int types[3] = {CRAFTER_CX_MOB_TYPES, CRAFTER_CX_PASSIVE_TYPES, CRAFTER_CX_MOB_TYPES};
        const int slots[3] = {CRAFTER_CX_MAX_MELEE_MOBS, CRAFTER_CX_MAX_PASSIVE_MOBS,
                              CRAFTER_CX_MAX_RANGED_MOBS};
        for (int kind = 0; kind < 3 && !over[1]; kind++)
          for (int k = 0; k < slots[kind]; k++)
            if (kinds[kind]->mask[floor][k] && kinds[kind]->position[floor][k][0] == row &&
                kinds[kind]->position[floor][k][1] == column) {
              over[1] = &sprites[kind][pick(kinds[kind]->type_id[floor][k], types[kind])];
              break;
            }
        if (floor == s->player_level && row == s->player_position[0] &&
            column == s->player_position[1])
          over[2] = &t->player[s->is_sleeping ? 4 : pick(s->player_direction - 1, 4)];
        int block = s->map[floor][row][column];
        block = block >= 0 && block < CRAFTER_CX_BLOCK_TYPES ? block : CRAFTER_CX_INVALID;
        floors_cell(rgb, width, top0 + row * BP, left0 + column * BP, t->block[block], over);
      }
  }
  return 0;
}
