#include "view/cx_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCKS = CRAFTER_CX_NECROMANCER_VULNERABLE + 1, ITEMS = 5, KILLS_TO_OPEN = 8 };

static const char *const floor_names[CRAFTER_CX_LEVELS] = {
    "the overworld", "the dungeon",  "the gnomish mines", "the sewers",   "the vaults",
    "the troll mines", "the fire realm", "the ice realm", "the graveyard"};

static const char block_letters[BLOCKS] = {
    '0', 'X', '.', '~', '#', 't', 'w', '_', 'c', 'i', 'd', '+', 'f', ':', '%', 'p', 'q', '=', '"',
    'm', '^', 's', 'r', '$', 'o', ',', ';', 'g', 'y', 'b', 'e', 'n', 'N', 'x', 'x', 'x', 'V'};
static const char *const block_names[BLOCKS] = {
    "invalid", "outside the map", "grass", "water", "stone", "tree", "wood", "path", "coal",
    "iron", "diamond", "crafting table", "furnace", "sand", "lava", "plant", "ripe plant",
    "wall", "darkness", "mossy wall", "stalagmite", "sapphire", "ruby", "chest", "fountain",
    "fire grass", "ice grass", "gravel", "fire tree", "ice shrub", "fire enchantment table",
    "ice enchantment table", "necromancer", "grave", "grave", "grave", "vulnerable necromancer"};

/* Items 1 to 3 as they are, and a ladder down drawn blocked (4). */
static const char item_letters[ITEMS] = {0, '!', '>', '<', ')'};
static const char *const item_names[ITEMS] = {"", "torch", "ladder down", "ladder up",
                                              "ladder down (blocked)"};

/* The kinds of things that move, in the view's order. */
enum { MELEE, PASSIVE, RANGED, MOB_SHOTS, PLAYER_SHOTS, KINDS };
static const int kind_types[KINDS] = {8, 3, 8, 8, 8};
static const int kind_slots[KINDS] = {CRAFTER_CX_MAX_MELEE_MOBS, CRAFTER_CX_MAX_PASSIVE_MOBS,
                                      CRAFTER_CX_MAX_RANGED_MOBS, CRAFTER_CX_MAX_MOB_PROJECTILES,
                                      CRAFTER_CX_MAX_PLAYER_PROJECTILES};
static const char mob_letters[3][8] = {{'Z', 'G', 'O', 'L', 'K', 'T', 'P', 'F'},
                                       {'C', 'B', 'U'},
                                       {'S', 'A', 'M', 'Y', 'R', 'D', 'E', 'I'}};
static const char *const mob_names[KINDS][8] = {
    {"zombie", "gnome warrior", "orc soldier", "lizard", "knight", "troll", "pigman",
     "frost troll"},
    {"cow", "bat", "snail"},
    {"skeleton", "gnome archer", "orc mage", "kobold", "archer", "deep thing", "fire elemental",
     "ice elemental"},
    {"arrow", "dagger", "fireball", "iceball", "arrow", "slimeball", "fireball", "iceball"},
    {"arrow", "dagger", "fireball", "iceball", "arrow", "slimeball", "fireball", "iceball"}};

static const char *const enchantments[3] = {"", " (fire)", " (ice)"};
static const char *const tiers[5] = {"", "wood", "stone", "iron", "diamond"};
static const char *const armour_pieces[CRAFTER_CX_ARMOUR] = {"helmet", "chestplate", "leggings",
                                                             "boots"};
static const char *const potion_colours[CRAFTER_CX_POTIONS] = {"red",  "green", "blue",
                                                               "pink", "cyan",  "yellow"};

typedef struct text {
  char *out;
  size_t size, used;
} text;

static void put(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *format, ...) {
  char line[512];
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(line, sizeof line, format, arguments);
  va_end(arguments);
  if (length < 0) return;
  if ((size_t)length >= sizeof line) length = (int)sizeof line - 1;
  if (t->used < t->size) {
    size_t room = t->size - t->used - 1;
    size_t copy = (size_t)length < room ? (size_t)length : room;
    memcpy(t->out + t->used, line, copy);
    t->out[t->used + copy] = '\0';
  }
  t->used += (size_t)length;
}

static const crafter_cx_mobs *mobs_of(const crafter_cx_state *s, int kind) {
  switch (kind) {
  case MELEE: return &s->melee_mobs;
  case PASSIVE: return &s->passive_mobs;
  case RANGED: return &s->ranged_mobs;
  case MOB_SHOTS: return &s->mob_projectiles;
  default: return &s->player_projectiles;
  }
}

static const char *mob_name(int kind, int32_t type) {
  if (type < 0 || type >= kind_types[kind]) return "unknown";
  return mob_names[kind][type];
}

static char mob_letter(int kind, int32_t type) {
  if (type < 0 || type >= kind_types[kind]) return '0';
  return kind >= MOB_SHOTS ? '*' : mob_letters[kind][type];
}

/* Whether the necromancer can be struck: no melee or ranged creature on
 * the player's floor and the spawn timer run out (is_boss_vulnerable). */
static int boss_vulnerable(const crafter_cx_state *s) {
  int level = s->player_level;
  for (int k = 0; k < CRAFTER_CX_MAX_MELEE_MOBS; k++)
    if (s->melee_mobs.mask[level][k]) return 0;
  for (int k = 0; k < CRAFTER_CX_MAX_RANGED_MOBS; k++)
    if (s->ranged_mobs.mask[level][k]) return 0;
  return s->boss_timesteps_to_spawn_this_round <= 0;
}

static int on_map(int32_t row, int32_t column) {
  return row >= 0 && row < CRAFTER_CX_MAP_SIZE && column >= 0 && column < CRAFTER_CX_MAP_SIZE;
}

static int lit(const crafter_cx_state *s, int32_t row, int32_t column) {
  return on_map(row, column) && s->light_map[s->player_level][row][column] > 0.05f;
}

/* The item drawn at a cell: a ladder down drawn blocked while fewer than
 * 8 creatures were killed on the floor. */
static int item_at(const crafter_cx_state *s, int32_t row, int32_t column) {
  int item = s->item_map[s->player_level][row][column];
  if (item == CRAFTER_CX_ITEM_LADDER_DOWN &&
      s->monsters_killed[s->player_level] < KILLS_TO_OPEN)
    item = CRAFTER_CX_ITEM_LADDER_DOWN_BLOCKED;
  return item < ITEMS ? item : 0;
}

/* The block drawn at a cell: the necromancer drawn vulnerable when it is. */
static int block_at(const crafter_cx_state *s, int32_t row, int32_t column, int vulnerable) {
  int block = s->map[s->player_level][row][column];
  if (block == CRAFTER_CX_NECROMANCER && vulnerable) block = CRAFTER_CX_NECROMANCER_VULNERABLE;
  return block;
}

/* The first thing that moves at a cell (kind and slot), or -1. */
static int mover_at(const crafter_cx_state *s, int32_t row, int32_t column, int *slot) {
  int level = s->player_level;
  for (int kind = 0; kind < KINDS; kind++) {
    const crafter_cx_mobs *m = mobs_of(s, kind);
    for (int k = 0; k < kind_slots[kind]; k++)
      if (m->mask[level][k] && m->position[level][k][0] == row &&
          m->position[level][k][1] == column) {
        *slot = k;
        return kind;
      }
  }
  return -1;
}

static void offset(text *t, int rows, int columns) {
  int steps = abs(rows) + abs(columns);
  if (rows) put(t, "%d %s", abs(rows), rows < 0 ? "up" : "down");
  if (rows && columns) put(t, " and ");
  if (columns) put(t, "%d %s", abs(columns), columns < 0 ? "left" : "right");
  if (!rows && !columns) put(t, "here");
  put(t, " (%d step%s)", steps, steps == 1 ? "" : "s");
}

static const char *direction_name(int32_t rows, int32_t columns) {
  if (rows < 0 && columns == 0) return "up";
  if (rows > 0 && columns == 0) return "down";
  if (rows == 0 && columns < 0) return "left";
  if (rows == 0 && columns > 0) return "right";
  return rows == 0 && columns == 0 ? "nowhere" : "diagonally";
}

size_t crafter_cx_render_text(const crafter_cx_state *s, char *out, size_t size) {
  text t = {out, size, 0};
  if (size) out[0] = '\0';
  int level = s->player_level;
  int32_t row0 = s->player_position[0], column0 = s->player_position[1];
  int vulnerable = boss_vulnerable(s);

  put(&t, "Floor %d: %s.\n", level, level >= 0 && level < CRAFTER_CX_LEVELS ?
                                        floor_names[level] : "unknown");
  put(&t, "Step %d. Daylight %.2f (%s).\n", s->timestep, (double)s->light_level,
      s->light_level >= 0.5f ? "day" : "night");
  put(&t, "Health %.1f, food %d, drink %d, energy %d, mana %d.\n", (double)s->player_health,
      s->player_food, s->player_drink, s->player_energy, s->player_mana);
  put(&t, "XP %d; dexterity %d, strength %d, intelligence %d.\n", s->player_xp,
      s->player_dexterity, s->player_strength, s->player_intelligence);
  static const char *const faces[5] = {"nowhere", "left", "right", "up", "down"};
  static const int face_rows[5] = {0, 0, 0, -1, 1}, face_columns[5] = {0, -1, 1, 0, 0};
  int direction = s->player_direction >= 0 && s->player_direction <= 4 ? s->player_direction : 0;
  put(&t, "You face %s; you are %s.\n", faces[direction],
      s->is_sleeping ? "asleep" : s->is_resting ? "resting" : "awake");

  /* What the player faces. */
  int32_t row = row0 + face_rows[direction], column = column0 + face_columns[direction];
  const char *facing;
  int slot, kind;
  if (!on_map(row, column))
    facing = "outside the map";
  else if (!lit(s, row, column))
    facing = "unseen";
  else if ((kind = mover_at(s, row, column, &slot)) >= 0)
    facing = mob_name(kind, mobs_of(s, kind)->type_id[level][slot]);
  else if (item_at(s, row, column))
    facing = item_names[item_at(s, row, column)];
  else {
    int block = block_at(s, row, column, vulnerable);
    facing = block < BLOCKS ? block_names[block] : "unknown";
  }
  put(&t, "Facing: %s.\n", facing);

  /* The view, and which characters it holds. */
  put(&t, "View (%d rows, %d columns; you are @ in the middle):\n", CRAFTER_CX_VIEW_ROWS,
      CRAFTER_CX_VIEW_COLUMNS);
  int seen[128] = {0};
  for (int r = 0; r < CRAFTER_CX_VIEW_ROWS; r++) {
    char line[CRAFTER_CX_VIEW_COLUMNS + 1];
    for (int c = 0; c < CRAFTER_CX_VIEW_COLUMNS; c++) {
      row = row0 + r - CRAFTER_CX_VIEW_ROWS / 2;
      column = column0 + c - CRAFTER_CX_VIEW_COLUMNS / 2;
      char letter;
      if (row == row0 && column == column0)
        letter = '@';
      else if (!on_map(row, column))
        letter = 'X';
      else if (!lit(s, row, column))
        letter = '?';
      else if ((kind = mover_at(s, row, column, &slot)) >= 0)
        letter = mob_letter(kind, mobs_of(s, kind)->type_id[level][slot]);
      else if (item_at(s, row, column))
        letter = item_letters[item_at(s, row, column)];
      else {
        int block = block_at(s, row, column, vulnerable);
        letter = block < BLOCKS ? block_letters[block] : '0';
      }
      line[c] = letter;
      seen[(unsigned char)letter] = 1;
    }
    line[CRAFTER_CX_VIEW_COLUMNS] = '\0';
    put(&t, "%s\n", line);
  }
  put(&t, "Legend: @ you");
  for (int b = 0; b < BLOCKS; b++)
    if (b != CRAFTER_CX_OUT_OF_BOUNDS && seen[(unsigned char)block_letters[b]]) {
      put(&t, ", %c %s", block_letters[b], block_names[b]);
      seen[(unsigned char)block_letters[b]] = 0;
    }
  for (int i = 1; i < ITEMS; i++)
    if (seen[(unsigned char)item_letters[i]]) put(&t, ", %c %s", item_letters[i], item_names[i]);
  for (int k = 0; k < 3; k++)
    for (int type = 0; type < kind_types[k]; type++)
      if (seen[(unsigned char)mob_letters[k][type]])
        put(&t, ", %c %s", mob_letters[k][type], mob_names[k][type]);
  if (seen['*']) put(&t, ", * projectile");
  if (seen['?']) put(&t, ", ? unseen");
  if (seen['X']) put(&t, ", X outside the map");
  put(&t, ".\n");

  /* The creatures and projectiles in sight. */
  int any = 0;
  for (kind = 0; kind < KINDS; kind++) {
    const crafter_cx_mobs *m = mobs_of(s, kind);
    for (int k = 0; k < kind_slots[kind]; k++) {
      if (!m->mask[level][k]) continue;
      int rows = m->position[level][k][0] - row0, columns = m->position[level][k][1] - column0;
      if (abs(rows) > CRAFTER_CX_VIEW_ROWS / 2 || abs(columns) > CRAFTER_CX_VIEW_COLUMNS / 2 ||
          !lit(s, m->position[level][k][0], m->position[level][k][1]))
        continue;
      any = 1;
      const char *name = mob_name(kind, m->type_id[level][k]);
      if (kind < MOB_SHOTS) {
        put(&t, "Creature: %s, ", name);
        offset(&t, rows, columns);
        put(&t, ".\n");
      } else {
        const int32_t *d = kind == MOB_SHOTS ? s->mob_projectile_directions[level][k]
                                             : s->player_projectile_directions[level][k];
        put(&t, "Projectile: %s (%s), ", name, kind == MOB_SHOTS ? "a creature's" : "yours");
        offset(&t, rows, columns);
        put(&t, ", moving %s.\n", direction_name(d[0], d[1]));
      }
    }
  }
  if (!any) put(&t, "Nothing moves in sight.\n");

  if (level == CRAFTER_CX_BOSS_LEVEL)
    put(&t, "Necromancer: hit %d of 8 times; %s.\n", s->boss_progress,
        vulnerable ? "vulnerable" : "shielded");
  if (level >= 0 && level < CRAFTER_CX_LEVELS - 1) {
    put(&t, "Ladder down: ");
    offset(&t, s->down_ladders[level][0] - row0, s->down_ladders[level][1] - column0);
    if (s->monsters_killed[level] >= KILLS_TO_OPEN)
      put(&t, "; open.\n");
    else
      put(&t, "; blocked (%d of 8 creatures killed here).\n", s->monsters_killed[level]);
  }
  if (level > 0 && level < CRAFTER_CX_LEVELS) {
    put(&t, "Ladder up: ");
    offset(&t, s->up_ladders[level][0] - row0, s->up_ladders[level][1] - column0);
    put(&t, ".\n");
  }

  /* The inventory. */
  const crafter_cx_inventory *v = &s->inventory;
  const struct {
    const char *name;
    int32_t count;
  } materials[] = {{"wood", v->wood},       {"stone", v->stone},     {"coal", v->coal},
                   {"iron", v->iron},       {"diamond", v->diamond}, {"sapphire", v->sapphire},
                   {"ruby", v->ruby},       {"sapling", v->sapling}, {"torches", v->torches},
                   {"arrows", v->arrows}};
  put(&t, "Inventory:");
  any = 0;
  for (size_t k = 0; k < sizeof materials / sizeof materials[0]; k++)
    if (materials[k].count) {
      put(&t, "%s %s %d", any ? "," : "", materials[k].name, materials[k].count);
      any = 1;
    }
  put(&t, "%s.\n", any ? "" : " nothing");

  put(&t, "Tools:");
  any = 0;
  if (v->pickaxe >= 1 && v->pickaxe <= 4) {
    put(&t, " %s pickaxe", tiers[v->pickaxe]);
    any = 1;
  }
  int sword_enchantment = s->sword_enchantment >= 0 && s->sword_enchantment <= 2 ?
                              s->sword_enchantment : 0;
  int bow_enchantment = s->bow_enchantment >= 0 && s->bow_enchantment <= 2 ?
                            s->bow_enchantment : 0;
  if (v->sword >= 1 && v->sword <= 4) {
    put(&t, "%s %s sword%s", any ? "," : "", tiers[v->sword], enchantments[sword_enchantment]);
    any = 1;
  }
  if (v->bow) {
    put(&t, "%s bow%s", any ? "," : "", enchantments[bow_enchantment]);
    any = 1;
  }
  put(&t, "%s.\n", any ? "" : " none");

  put(&t, "Armour:");
  any = 0;
  for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) {
    int tier = v->armour[k], enchantment = s->armour_enchantments[k];
    if (tier != 1 && tier != 2) continue;
    if (enchantment < 0 || enchantment > 2) enchantment = 0;
    put(&t, "%s %s %s%s", any ? "," : "", tier == 1 ? "iron" : "diamond", armour_pieces[k],
        enchantments[enchantment]);
    any = 1;
  }
  put(&t, "%s.\n", any ? "" : " none");

  put(&t, "Potions:");
  any = 0;
  for (int k = 0; k < CRAFTER_CX_POTIONS; k++)
    if (v->potions[k]) {
      put(&t, "%s %s %d", any ? "," : "", potion_colours[k], v->potions[k]);
      any = 1;
    }
  put(&t, "%s.\n", any ? "" : " none");

  put(&t, "Books: %d. Spells:", v->books);
  if (s->learned_spells[0]) put(&t, " fireball");
  if (s->learned_spells[1]) put(&t, "%s iceball", s->learned_spells[0] ? "," : "");
  put(&t, "%s.\n", s->learned_spells[0] || s->learned_spells[1] ? "" : " none");
  return t.used;
}
