/* Craftax's text observation (view/cx_text.h): hand-built states whose
 * text follows from the header's rules, written out here in full; the
 * snprintf-like sizes; and on generated and stepped worlds, and on the
 * crafted first states JAX made (given the file of them), every line of
 * the documented forms and its facts those of the state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "game/cx_game.h"
#include "game/cx_words.h"
#include "tap.h"
#include "view/cx_text.h"

static crafter_cx_state s;
static char text[16384];

/* A floor of one block, lit by `light`, the rest of the state zero. */
static void plain(int level, int block, float light) {
  memset(&s, 0, sizeof s);
  s.player_level = level;
  for (int r = 0; r < CRAFTER_CX_MAP_SIZE; r++)
    for (int c = 0; c < CRAFTER_CX_MAP_SIZE; c++) {
      s.map[level][r][c] = (uint8_t)block;
      s.light_map[level][r][c] = light;
    }
  for (int p = 0; p < CRAFTER_CX_POTIONS; p++) s.potion_mapping[p] = p;
}

static void place(crafter_cx_mobs *m, int level, int slot, int row, int column, int type) {
  m->mask[level][slot] = 1;
  m->position[level][slot][0] = row;
  m->position[level][slot][1] = column;
  m->type_id[level][slot] = type;
  m->health[level][slot] = 3;
}

/* The first line where two texts differ, for the diagnosis. */
static void compare(const char *got, const char *want, const char *what) {
  int same = strcmp(got, want) == 0;
  ok(same, "%s: the text is the one the rules give", what);
  if (same) return;
  int line = 1;
  const char *g = got, *w = want;
  while (*g && *g == *w) {
    if (*g == '\n') line++;
    g++, w++;
  }
  const char *gl = g, *wl = w;
  while (gl > got && gl[-1] != '\n') gl--;
  while (wl > want && wl[-1] != '\n') wl--;
  printf("#   line %d: got  \"%.*s\"\n#           want \"%.*s\"\n", line,
         (int)strcspn(gl, "\n"), gl, (int)strcspn(wl, "\n"), wl);
}

static void overworld(void) {
  plain(CRAFTER_CX_OVERWORLD, CRAFTER_CX_GRASS, 1.0f);
  s.player_position[0] = 10, s.player_position[1] = 20;
  s.player_direction = 2;
  s.player_health = 7.5f;
  s.player_food = 6, s.player_drink = 5, s.player_energy = 4, s.player_mana = 3;
  s.player_xp = 2, s.player_dexterity = 1, s.player_strength = 3, s.player_intelligence = 2;
  s.timestep = 123;
  s.light_level = 0.25f;
  s.map[0][10][21] = CRAFTER_CX_TREE;
  s.map[0][6][15] = CRAFTER_CX_WATER;
  s.item_map[0][14][25] = CRAFTER_CX_ITEM_TORCH;
  place(&s.melee_mobs, 0, 1, 8, 19, 0);
  place(&s.passive_mobs, 0, 0, 11, 20, 0);
  place(&s.ranged_mobs, 0, 1, 20, 20, 0);  /* out of the view */
  place(&s.melee_mobs, 1, 0, 9, 20, 0);    /* on another floor */
  place(&s.player_projectiles, 0, 2, 10, 22, 2);
  s.player_projectile_directions[0][2][1] = 1;
  place(&s.mob_projectiles, 0, 0, 10, 18, 0);
  s.mob_projectile_directions[0][0][1] = 1;
  s.down_ladders[0][0] = 30, s.down_ladders[0][1] = 5;
  s.monsters_killed[0] = 3;
  s.inventory.wood = 5, s.inventory.iron = 2, s.inventory.sapphire = 1, s.inventory.arrows = 4;
  s.inventory.pickaxe = 3, s.inventory.sword = 4, s.sword_enchantment = 2;
  s.inventory.bow = 1;
  s.inventory.armour[0] = 1, s.inventory.armour[2] = 2, s.armour_enchantments[2] = 1;
  s.armour_enchantments[1] = 2; /* no chestplate: not said */
  s.inventory.potions[1] = 2, s.inventory.potions[5] = 1;
  s.inventory.books = 1;
  s.learned_spells[1] = 1;
  static const char want[] =
      "Floor 0: the overworld.\n"
      "Step 123. Daylight 0.25 (night).\n"
      "Health 7.5, food 6, drink 5, energy 4, mana 3.\n"
      "XP 2; dexterity 1, strength 3, intelligence 2.\n"
      "You face right; you are awake.\n"
      "Facing: tree.\n"
      "View (9 rows, 11 columns; you are @ in the middle):\n"
      "~..........\n"
      "...........\n"
      "....Z......\n"
      "...........\n"
      "...*.@t*...\n"
      ".....C.....\n"
      "...........\n"
      "...........\n"
      "..........!\n"
      "Legend: @ you, . grass, ~ water, t tree, ! torch, Z zombie, C cow, * projectile.\n"
      "Creature: zombie, 2 up and 1 left (3 steps).\n"
      "Creature: cow, 1 down (1 step).\n"
      "Projectile: arrow (a creature's), 2 left (2 steps), moving right.\n"
      "Projectile: fireball (yours), 2 right (2 steps), moving right.\n"
      "Ladder down: 20 down and 15 left (35 steps); blocked (3 of 8 creatures killed here).\n"
      "Inventory: wood 5, iron 2, sapphire 1, arrows 4.\n"
      "Tools: iron pickaxe, diamond sword (ice), bow.\n"
      "Armour: iron helmet, diamond leggings (fire).\n"
      "Potions: green 2, yellow 1.\n"
      "Books: 1. Spells: iceball.\n";
  size_t length = crafter_cx_render_text(&s, text, sizeof text);
  ok(length == strlen(want) && length == strlen(text), "the overworld's text is %zu bytes",
     length);
  compare(text, want, "the overworld by night, creatures, projectiles and an inventory");

  /* snprintf's sizes. */
  char small[40];
  memset(small, 'z', sizeof small);
  ok(crafter_cx_render_text(&s, small, 30) == length && small[29] == '\0' &&
         strncmp(small, want, 29) == 0 && small[30] == 'z',
     "a short buffer holds the text's first 29 bytes and a NUL, and the length is whole");
  ok(crafter_cx_render_text(&s, NULL, 0) == length, "size 0 writes nothing and says the length");

  /* Asleep, a ladder opened by 8 kills, an empty inventory. */
  s.is_sleeping = 1;
  s.monsters_killed[0] = 8;
  memset(&s.inventory, 0, sizeof s.inventory);
  s.learned_spells[0] = 1;
  crafter_cx_render_text(&s, text, sizeof text);
  ok(strstr(text, "\nYou face right; you are asleep.\n") &&
         strstr(text, "\nLadder down: 20 down and 15 left (35 steps); open.\n") &&
         strstr(text, "\nInventory: nothing.\nTools: none.\nArmour: none.\nPotions: none.\n"
                      "Books: 0. Spells: fireball, iceball.\n"),
     "asleep, the ladder open, nothing carried, both spells");
}

static void sewers(void) {
  plain(CRAFTER_CX_SEWERS, CRAFTER_CX_PATH, 0.0f);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++) s.light_map[3][r][c] = 0.5f;
  s.light_map[3][1][4] = 0.05f; /* not above 0.05: unseen */
  s.map[3][2][0] = CRAFTER_CX_WALL;
  s.map[3][0][0] = CRAFTER_CX_CHEST;
  s.item_map[3][1][2] = CRAFTER_CX_ITEM_LADDER_UP;
  s.player_position[0] = 0, s.player_position[1] = 1;
  s.player_direction = 3;
  s.is_resting = 1;
  s.player_health = 9.0f;
  s.light_level = 1.0f;
  s.timestep = 7;
  place(&s.melee_mobs, 3, 2, 2, 3, 3);  /* a lizard in the light */
  place(&s.ranged_mobs, 3, 0, 1, 5, 3); /* a kobold in the dark */
  s.up_ladders[3][0] = 1, s.up_ladders[3][1] = 2;
  s.down_ladders[3][0] = 40, s.down_ladders[3][1] = 40;
  s.monsters_killed[3] = 9;
  static const char want[] =
      "Floor 3: the sewers.\n"
      "Step 7. Daylight 1.00 (day).\n"
      "Health 9.0, food 0, drink 0, energy 0, mana 0.\n"
      "XP 0; dexterity 0, strength 0, intelligence 0.\n"
      "You face up; you are resting.\n"
      "Facing: outside the map.\n"
      "View (9 rows, 11 columns; you are @ in the middle):\n"
      "XXXXXXXXXXX\n"
      "XXXXXXXXXXX\n"
      "XXXXXXXXXXX\n"
      "XXXXXXXXXXX\n"
      "XXXX$@__???\n"
      "XXXX__<_???\n"
      "XXXX=__L???\n"
      "XXXX???????\n"
      "XXXX???????\n"
      "Legend: @ you, _ path, = wall, $ chest, < ladder up, L lizard, ? unseen, X outside the "
      "map.\n"
      "Creature: lizard, 2 down and 2 right (4 steps).\n"
      "Ladder down: 40 down and 39 right (79 steps); open.\n"
      "Ladder up: 1 down and 1 right (2 steps).\n"
      "Inventory: nothing.\n"
      "Tools: none.\n"
      "Armour: none.\n"
      "Potions: none.\n"
      "Books: 0. Spells: none.\n";
  crafter_cx_render_text(&s, text, sizeof text);
  compare(text, want, "the sewers' corner: darkness, the map's edge, a creature hidden");
  s.player_direction = 1;
  crafter_cx_render_text(&s, text, sizeof text);
  ok(strstr(text, "\nFacing: chest.\n") != NULL, "facing left: the chest");
  s.player_direction = 2;
  s.player_position[1] = 3; /* the lizard's column is 3: face right from (0, 3) into the dark */
  crafter_cx_render_text(&s, text, sizeof text);
  ok(strstr(text, "\nFacing: unseen.\n") != NULL, "facing a cell in the dark: unseen");
}

static void graveyard(void) {
  plain(CRAFTER_CX_BOSS_LEVEL, CRAFTER_CX_PATH, 1.0f);
  s.player_position[0] = 20, s.player_position[1] = 20;
  s.player_direction = 3;
  s.map[8][19][20] = CRAFTER_CX_NECROMANCER;
  s.map[8][24][15] = CRAFTER_CX_GRAVE;
  s.map[8][24][16] = CRAFTER_CX_GRAVE3;
  s.up_ladders[8][0] = 20, s.up_ladders[8][1] = 20;
  s.boss_progress = 3;
  crafter_cx_render_text(&s, text, sizeof text);
  ok(strstr(text, "\nFacing: vulnerable necromancer.\n") &&
         strstr(text, "\n_____@_____\n") && strstr(text, "\n_____V_____\n") &&
         strstr(text, "\nxx_________\n") &&
         strstr(text, "Legend: @ you, _ path, x grave, V vulnerable necromancer.\n") &&
         strstr(text, "\nNecromancer: hit 3 of 8 times; vulnerable.\n") &&
         strstr(text, "\nLadder up: here (0 steps).\n") && !strstr(text, "Ladder down"),
     "the graveyard: the necromancer vulnerable, graves, no ladder down");
  s.boss_timesteps_to_spawn_this_round = 2;
  crafter_cx_render_text(&s, text, sizeof text);
  ok(strstr(text, "\nFacing: necromancer.\n") && strstr(text, "\n_____N_____\n") &&
         strstr(text, "hit 3 of 8 times; shielded.\n"),
     "while its creatures are still to come, the necromancer is shielded");
  s.boss_timesteps_to_spawn_this_round = 0;
  place(&s.ranged_mobs, 8, 1, 40, 40, 7);
  crafter_cx_render_text(&s, text, sizeof text);
  ok(strstr(text, "shielded.\n") && strstr(text, "Nothing moves in sight.\n"),
     "a ranged creature anywhere on the floor shields it, seen or not");
}

/* An offset as the text says it ("2 up and 1 right (3 steps)", "1 left
 * (1 step)", "here (0 steps)") into rows and columns: 1, or 0 when it is
 * not of that form or its steps are not the sum. */
static int parse_offset(const char *p, int *rows, int *columns) {
  *rows = *columns = 0;
  if (strncmp(p, "here ", 5) == 0) return strncmp(p + 5, "(0 steps)", 9) == 0;
  for (int part = 0; part < 2; part++) {
    int count, used;
    char word[8];
    if (sscanf(p, "%d %7[a-z]%n", &count, word, &used) != 2 || count <= 0) return 0;
    if (strcmp(word, "up") == 0 || strcmp(word, "down") == 0) {
      if (part == 1) return 0;
      *rows = word[0] == 'u' ? -count : count;
    } else if (strcmp(word, "left") == 0 || strcmp(word, "right") == 0) {
      *columns = word[0] == 'l' ? -count : count;
    } else {
      return 0;
    }
    p += used;
    if (strncmp(p, " and ", 5) != 0) break;
    if (*columns) return 0;
    p += 5;
  }
  int steps = abs(*rows) + abs(*columns);
  char want[32];
  snprintf(want, sizeof want, " (%d step%s)", steps, steps == 1 ? "" : "s");
  return strncmp(p, want, strlen(want)) == 0;
}

/* Generated and stepped worlds: every line of a documented form, and
 * what it says the state's. */
static int check_generated(const crafter_cx_state *st, int *moving, char *why, size_t why_size) {
  crafter_cx_render_text(st, text, sizeof text);
  char *lines[64];
  int count = 0;
  for (char *at = text; *at && count < 64;) {
    lines[count++] = at;
    char *end = strchr(at, '\n');
    if (!end) {
      snprintf(why, why_size, "no newline at the end");
      return 0;
    }
    *end = '\0';
    at = end + 1;
  }
  int n = 0, level, timestep, food, drink, energy, mana, xp, dex, str, intel;
  double health, daylight;
  char word[32], rest[128];
#define NEED(cond, ...)                          \
  do {                                           \
    if (!(cond)) {                               \
      snprintf(why, why_size, __VA_ARGS__);      \
      return 0;                                  \
    }                                            \
  } while (0)
  NEED(count >= 24, "%d lines", count);
  NEED(sscanf(lines[n++], "Floor %d: %127[^.].", &level, rest) == 2 && level == st->player_level,
       "floor line: %s", lines[n - 1]);
  NEED(sscanf(lines[n++], "Step %d. Daylight %lf (%31[a-z]).", &timestep, &daylight, word) == 3 &&
           timestep == st->timestep && fabs(daylight - st->light_level) <= 0.005 + 1e-9 &&
           strcmp(word, st->light_level >= 0.5f ? "day" : "night") == 0,
       "step line: %s (timestep %d, light level %.9g)", lines[n - 1], st->timestep,
       (double)st->light_level);
  NEED(sscanf(lines[n++], "Health %lf, food %d, drink %d, energy %d, mana %d.", &health, &food,
              &drink, &energy, &mana) == 5 &&
           fabs(health - st->player_health) <= 0.05 + 1e-6 && food == st->player_food &&
           drink == st->player_drink && energy == st->player_energy && mana == st->player_mana,
       "vitals: %s", lines[n - 1]);
  NEED(sscanf(lines[n++], "XP %d; dexterity %d, strength %d, intelligence %d.", &xp, &dex, &str,
              &intel) == 4 && xp == st->player_xp && dex == st->player_dexterity &&
           str == st->player_strength && intel == st->player_intelligence,
       "attributes: %s", lines[n - 1]);
  NEED(strncmp(lines[n++], "You face ", 9) == 0, "facing: %s", lines[n - 1]);
  NEED(strncmp(lines[n++], "Facing: ", 8) == 0, "facing: %s", lines[n - 1]);
  NEED(strcmp(lines[n++], "View (9 rows, 11 columns; you are @ in the middle):") == 0,
       "view: %s", lines[n - 1]);
  int movers_seen = 0;
  for (int r = 0; r < 9; r++, n++) {
    NEED(strlen(lines[n]) == 11, "a view row of %zu characters", strlen(lines[n]));
    for (int c = 0; c < 11; c++) {
      int row = st->player_position[0] + r - 4, column = st->player_position[1] + c - 5;
      char letter = lines[n][c];
      int inside = row >= 0 && row < 48 && column >= 0 && column < 48;
      if (r == 4 && c == 5)
        NEED(letter == '@', "no @ in the middle");
      else if (!inside)
        NEED(letter == 'X', "a cell off the map is %c", letter);
      else if (!(st->light_map[level][row][column] > 0.05f))
        NEED(letter == '?', "a dark cell is %c", letter);
      else
        NEED(letter != '?' && letter != 'X' && letter != '@', "a lit cell is %c", letter);
      if (strchr("ZGOLKTPFCBUSAMYRDEI*", letter)) movers_seen++;
    }
  }
  NEED(strncmp(lines[n++], "Legend: @ you", 13) == 0, "legend: %s", lines[n - 1]);
  /* The creatures and projectiles in sight, counted from the state. */
  int expected = 0;
  const crafter_cx_mobs *kinds[5] = {&st->melee_mobs, &st->passive_mobs, &st->ranged_mobs,
                                     &st->mob_projectiles, &st->player_projectiles};
  static const int slots[5] = {3, 3, 2, 3, 3};
  for (int k = 0; k < 5; k++)
    for (int slot = 0; slot < slots[k]; slot++) {
      const crafter_cx_mobs *m = kinds[k];
      int row = m->position[level][slot][0], column = m->position[level][slot][1];
      if (m->mask[level][slot] && abs(row - st->player_position[0]) <= 4 &&
          abs(column - st->player_position[1]) <= 5 && row >= 0 && row < 48 && column >= 0 &&
          column < 48 && st->light_map[level][row][column] > 0.05f)
        expected++;
    }
  int listed = 0;
  while (n < count && (strncmp(lines[n], "Creature: ", 10) == 0 ||
                       strncmp(lines[n], "Projectile: ", 12) == 0)) {
    const char *comma = strstr(lines[n], ", "); /* the offset follows the name */
    int rows, columns;
    NEED(comma && parse_offset(comma + 2, &rows, &columns) && abs(rows) <= 4 &&
             abs(columns) <= 5,
         "a creature's line: %s", lines[n]);
    listed++, n++;
  }
  if (!listed)
    NEED(strcmp(lines[n++], "Nothing moves in sight.") == 0, "nothing: %s", lines[n - 1]);
  *moving = listed;
  NEED(listed == expected && movers_seen <= expected, "%d creatures listed, %d in sight", listed,
       expected);
  if (level == 8) NEED(strncmp(lines[n++], "Necromancer: hit ", 17) == 0, "boss: %s", lines[n - 1]);
  if (level < 8) {
    int rows, columns;
    const char *line = lines[n++];
    NEED(strncmp(line, "Ladder down: ", 13) == 0 && parse_offset(line + 13, &rows, &columns),
         "ladder down: %s", line);
    int dr = st->down_ladders[level][0] - st->player_position[0];
    int dc = st->down_ladders[level][1] - st->player_position[1];
    NEED(rows == dr && columns == dc, "ladder down at %d %d, said: %s", dr, dc, line);
  }
  if (level > 0) {
    int rows, columns;
    const char *line = lines[n++];
    NEED(strncmp(line, "Ladder up: ", 11) == 0 && parse_offset(line + 11, &rows, &columns) &&
             rows == st->up_ladders[level][0] - st->player_position[0] &&
             columns == st->up_ladders[level][1] - st->player_position[1],
         "ladder up: %s", line);
  }
  {
    const crafter_cx_inventory *v = &st->inventory;
    const struct {
      const char *name;
      int32_t count;
    } carried[] = {{"wood", v->wood},       {"stone", v->stone},     {"coal", v->coal},
                   {"iron", v->iron},       {"diamond", v->diamond}, {"sapphire", v->sapphire},
                   {"ruby", v->ruby},       {"sapling", v->sapling}, {"torches", v->torches},
                   {"arrows", v->arrows}};
    char want[256] = "Inventory:";
    int any = 0;
    for (size_t k = 0; k < sizeof carried / sizeof carried[0]; k++)
      if (carried[k].count)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s %s %d", any++ ? "," : "",
                 carried[k].name, carried[k].count);
    strcat(want, any ? "." : " nothing.");
    NEED(strcmp(lines[n++], want) == 0, "inventory: %s, not %s", lines[n - 1], want);
  }
  NEED(strncmp(lines[n++], "Tools: ", 7) == 0, "tools: %s", lines[n - 1]);
  NEED(strncmp(lines[n++], "Armour: ", 8) == 0, "armour: %s", lines[n - 1]);
  NEED(strncmp(lines[n++], "Potions: ", 9) == 0, "potions: %s", lines[n - 1]);
  {
    char want[96];
    snprintf(want, sizeof want, "Books: %d. Spells:%s%s%s.", st->inventory.books,
             st->learned_spells[0] ? " fireball" : "",
             st->learned_spells[1] ? (st->learned_spells[0] ? ", iceball" : " iceball") : "",
             st->learned_spells[0] || st->learned_spells[1] ? "" : " none");
    NEED(strcmp(lines[n++], want) == 0, "books: %s, not %s", lines[n - 1], want);
  }
  NEED(n == count, "%d lines more than the form's", count - n);
#undef NEED
  return 1;
}

/* The crafted first states JAX made (every item, potion and book; the
 * records of tests/data/craftax/cx-crafted-starts.gz: 7 words, then the
 * state's words) and 100 random steps from each. */
static void crafted(const char *starts) {
  gzFile in = gzopen(starts, "rb");
  if (!in) {
    ok(0, "%s opens", starts);
    return;
  }
  static uint32_t record[7 + CRAFTER_CX_STATE_WORDS];
  int states = 0, good = 0, records = 0, carrying = 0;
  char first_bad[600] = "";
  uint32_t rng = 77;
  while (gzread(in, record, sizeof record) == (int)sizeof record) {
    char error[200];
    if (crafter_cx_state_from_words(&s, record + 7, error, sizeof error) != 0) {
      snprintf(first_bad, sizeof first_bad, "seed %u refused: %s", record[0], error);
      break;
    }
    records++;
    crafter_jaxkey key;
    crafter_cx_schedule_start(record[0], &key);
    for (int t = 0; t <= 100; t++) {
      if (t > 0) {
        rng = rng * 1103515245u + 12345u;
        float reward;
        int done;
        crafter_cx_env_step(&s, crafter_cx_schedule_next(&key), (int)((rng >> 16) % 43),
                            &reward, &done);
      }
      char why[300];
      int moving;
      states++;
      carrying += s.inventory.potions[0] > 0 && s.inventory.armour[0] > 0;
      if (check_generated(&s, &moving, why, sizeof why))
        good++;
      else if (!first_bad[0])
        snprintf(first_bad, sizeof first_bad, "seed %u step %d: %s", record[0], t, why);
    }
  }
  gzclose(in);
  ok(records > 0 && good == states,
     "%d of %d texts of JAX's %d crafted first states and their steps (%d with potions and "
     "armour) have the documented lines, their facts the state's%s%s",
     good, states, records, carrying, first_bad[0] ? ": " : "", first_bad);
}

int main(int argc, char **argv) {
  overworld();
  sewers();
  graveyard();

  int states = 0, good = 0, floors = 0, creatures = 0;
  char first_bad[600] = "";
  uint32_t rng = 5;
  for (long seed = 0; seed < 4; seed++) {
    crafter_jaxkey key;
    crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
    crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &s);
    for (int t = 0; t <= 400; t++) {
      if (t > 0) {
        rng = rng * 1103515245u + 12345u;
        float reward;
        int done;
        crafter_cx_env_step(&s, crafter_cx_schedule_next(&key), (int)((rng >> 16) % 43),
                            &reward, &done);
      }
      /* Each floor too, the player put on its ladder up. */
      for (int level = 0; level < (t == 0 ? CRAFTER_CX_LEVELS : 1); level++) {
        crafter_cx_state copy = s;
        if (t == 0 && level > 0) {
          copy.player_level = level;
          copy.player_position[0] = copy.up_ladders[level][0];
          copy.player_position[1] = copy.up_ladders[level][1];
        }
        char why[300];
        states++;
        floors |= 1 << copy.player_level;
        int moving = 0;
        if (check_generated(&copy, &moving, why, sizeof why)) {
          good++;
          creatures += moving > 0;
        } else if (!first_bad[0]) {
          snprintf(first_bad, sizeof first_bad, "seed %ld step %d floor %d: %s", seed, t,
                   copy.player_level, why);
        }
      }
    }
  }
  ok(good == states && floors == 0x1FF,
     "%d of %d texts of generated and stepped worlds (every floor; %d with creatures in "
     "sight) have the documented lines, their facts the state's%s%s",
     good, states, creatures, first_bad[0] ? ": " : "", first_bad);
  if (argc > 1)
    crafted(argv[1]);
  else
    skip("no file of JAX's crafted states named");
  return tap_done();
}
