#include "game/game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "game/config.h"

/* What the rules of config.h name by position: the achievement counted
 * for receiving an item by collecting, and the place and make actions'
 * results. */
static const int8_t collect_achievement[] = {
    -1, -1, CRAFTER_COLLECT_DRINK, -1, CRAFTER_COLLECT_SAPLING, CRAFTER_COLLECT_WOOD,
    CRAFTER_COLLECT_STONE, CRAFTER_COLLECT_COAL, CRAFTER_COLLECT_IRON, CRAFTER_COLLECT_DIAMOND,
    -1, -1, -1, -1, -1, -1,
};
_Static_assert(sizeof collect_achievement / sizeof collect_achievement[0] == CRAFTER_ITEM_COUNT,
               "an item without its collect achievement");
const int8_t crafter_place_material[4] = {CRAFTER_STONE, CRAFTER_TABLE, CRAFTER_FURNACE, -1};
const int8_t crafter_place_achievement[4] = {CRAFTER_PLACE_STONE_ACH, CRAFTER_PLACE_TABLE_ACH,
                                            CRAFTER_PLACE_FURNACE_ACH, CRAFTER_PLACE_PLANT_ACH};
const int8_t crafter_make_item[6] = {CRAFTER_WOOD_PICKAXE, CRAFTER_STONE_PICKAXE,
                                    CRAFTER_IRON_PICKAXE, CRAFTER_WOOD_SWORD,
                                    CRAFTER_STONE_SWORD,  CRAFTER_IRON_SWORD};
const int8_t crafter_make_achievement[6] = {
    CRAFTER_MAKE_WOOD_PICKAXE_ACH, CRAFTER_MAKE_STONE_PICKAXE_ACH, CRAFTER_MAKE_IRON_PICKAXE_ACH,
    CRAFTER_MAKE_WOOD_SWORD_ACH,   CRAFTER_MAKE_STONE_SWORD_ACH,   CRAFTER_MAKE_IRON_SWORD_ACH};

#define BIT(m) (1u << (m))

static const crafter_config *config_of(const crafter_game *game) {
  return game->config ? game->config : &crafter_config_builtin;
}

/* Who walks where: creatures on the walkable materials, the player also
 * into lava, arrows also over water and lava. */
static unsigned walkable(const crafter_game *game) { return config_of(game)->walkable; }
static unsigned player_walkable(const crafter_game *game) {
  return walkable(game) | BIT(CRAFTER_LAVA);
}
static unsigned arrow_walkable(const crafter_game *game) {
  return walkable(game) | BIT(CRAFTER_WATER) | BIT(CRAFTER_LAVA);
}

static const int directions[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

double crafter_daylight(long step) { return crafter_daylight_cycle(step, 300); }

double *crafter_daylight_table(long day_length, long steps) {
  double *table = malloc((size_t)(steps > 0 ? steps : 1) * sizeof(double));
  if (!table) return NULL;
  for (long step = 0; step < steps; step++) table[step] = crafter_daylight_cycle(step, day_length);
  return table;
}

int crafter_plant_ripe(const crafter_game *game, const crafter_object *plant) {
  return plant->counter > config_of(game)->plant.ripe;
}

static crafter_object *object(crafter_game *game, int slot) {
  return &game->world.objects[slot];
}

/* Bodies of players in the world: the first objects. */
static int bodies_of(const crafter_game *game) { return __builtin_popcount(game->present); }

/* The body nearest to (x, y) (Manhattan; ties: the lowest index) and its
 * distance: whom creatures chase, shoot and bite, and whom balancing keeps
 * its distance from.  With one player, the player. */
static inline int nearest_body(const crafter_game *game, int x, int y, int *distance) {
  const crafter_object *objects = game->world.objects;
  int best = 0, best_distance = abs(x - objects[0].x) + abs(y - objects[0].y);
  if (game->player_count == 1) {
    *distance = best_distance;
    return 0;
  }
  for (int slot = 1, bodies = bodies_of(game); slot < bodies; slot++) {
    int d = abs(x - objects[slot].x) + abs(y - objects[slot].y);
    if (d < best_distance) {
      best = slot;
      best_distance = d;
    }
  }
  *distance = best_distance;
  return best;
}

static int distance_to_player(const crafter_game *game, int x, int y) {
  int distance;
  nearest_body(game, x, y, &distance);
  return distance;
}

static int clamp_health(int value) { return value < 0 ? 0 : value; }

/* Four lanes of whole numbers: plain C that compilers turn into the
 * vector registers of their target (SSE2 on any x86-64). */
typedef int32_t lanes4 __attribute__((vector_size(16)));

/* `obj.health -= amount`: a player's health is its inventory entry. */
static void damage(crafter_game *game, int slot, int amount) {
  crafter_object *target = object(game, slot);
  if (target->kind == CRAFTER_PLAYER) {
    crafter_player *player = &game->players[crafter_game_player_of_slot(game, slot)];
    player->inventory[CRAFTER_HEALTH] = clamp_health(player->inventory[CRAFTER_HEALTH] - amount);
  } else
    target->health = clamp_health(target->health - amount);
}

static int is_free(const crafter_game *game, int x, int y, unsigned walkable) {
  if (!crafter_world_inside(&game->world, x, y)) return 0;
  return crafter_world_object_slot(&game->world, x, y) < 0 &&
         (walkable & BIT(crafter_world_material(&game->world, x, y)));
}

/* Object.move: true when the target was free, even for a removed object,
 * which the world then leaves where it is. */
static int move_object(crafter_game *game, int slot, int dx, int dy, unsigned walkable) {
  crafter_object *mover = object(game, slot);
  int x = mover->x + dx, y = mover->y + dy;
  if (!is_free(game, x, y, walkable)) return 0;
  crafter_world_move(&game->world, slot, x, y);
  return 1;
}

static int sign(int value) { return (value > 0) - (value < 0); }

/* Object.toward: a unit step along the longer (or shorter) axis, toward
 * the body in slot `target`. */
static void toward_player(const crafter_game *game, int target, const crafter_object *from,
                          int long_axis, int *dx, int *dy) {
  const crafter_object *body = &game->world.objects[target];
  int offset_x = body->x - from->x, offset_y = body->y - from->y;
  int along_x = long_axis ? abs(offset_x) > abs(offset_y) : abs(offset_x) <= abs(offset_y);
  *dx = along_x ? sign(offset_x) : 0;
  *dy = along_x ? 0 : sign(offset_y);
}

/* random.uniform() and random.randint(low, high) from the world's
 * generator, inline: creatures draw several times a step. */
static double uniform(crafter_game *game) { return crafter_rng_uniform_inline(&game->rng); }
static int randint(crafter_game *game, int low, int high) {
  return (int)crafter_rng_randint_inline(&game->rng, low, high);
}

static void random_direction(crafter_game *game, int *dx, int *dy) {
  int index = randint(game, 0, 4);
  *dx = directions[index][0];
  *dy = directions[index][1];
}

int crafter_game_add_creature(crafter_game *game, int kind, int x, int y) {
  crafter_object creature = {0};
  creature.kind = (uint8_t)kind;
  creature.x = x;
  creature.y = y;
  creature.health = crafter_config_health(config_of(game), kind);
  return crafter_world_add(&game->world, &creature);
}

/* A fresh Player: the config's initial inventory, facing down. */
static void fresh_player(crafter_game *game, crafter_player *player) {
  memset(player, 0, sizeof(*player));
  const crafter_config *config = config_of(game);
  for (int item = 0; item < CRAFTER_ITEM_COUNT; item++)
    player->inventory[item] = config->items[item].initial;
  player->facing_x = 0;
  player->facing_y = 1;
  player->last_health = player->inventory[CRAFTER_HEALTH];
}

int crafter_game_place_player(crafter_game *game, int x, int y) {
  fresh_player(game, &game->players[0]);
  game->player_count = 1;
  game->present = 1;
  crafter_object body = {0};
  body.kind = CRAFTER_PLAYER;
  body.x = x;
  body.y = y;
  return crafter_world_add(&game->world, &body) == 0 ? 0 : -1;
}

int crafter_game_add_player(crafter_game *game, int x, int y) {
  crafter_world *world = &game->world;
  int p = game->player_count;
  if (p >= CRAFTER_PLAYERS_MAX || crafter_world_reserve(world, world->object_count + 1) < 0)
    return -1;
  /* The body goes after the other bodies: the objects behind move up one
   * slot, keeping their order. */
  int slot = bodies_of(game);
  crafter_object body = {0};
  body.kind = CRAFTER_PLAYER;
  body.x = x;
  body.y = y;
  int last = crafter_world_add(world, &body);
  for (int at = last; at > slot; at--) {
    world->objects[at] = world->objects[at - 1];
    const crafter_object *moved = &world->objects[at];
    world->object_at[(size_t)moved->x * (size_t)world->height + (size_t)moved->y] =
        (uint32_t)at + 1;
  }
  world->objects[slot] = body;
  world->object_at[(size_t)x * (size_t)world->height + (size_t)y] = (uint32_t)slot + 1;
  fresh_player(game, &game->players[p]);
  game->player_count = p + 1;
  game->present |= 1u << p;
  return 0;
}

int crafter_game_spread_players(crafter_game *game, int players, char *error, size_t error_size) {
  if (players < 1 || players > CRAFTER_PLAYERS_MAX) {
    snprintf(error, error_size, "players must be 1 to %d, not %d", CRAFTER_PLAYERS_MAX, players);
    return -1;
  }
  const crafter_world *world = &game->world;
  /* Player 0's cell, copied: adding bodies may move the object table. */
  int first_x = crafter_game_body(game, 0)->x, first_y = crafter_game_body(game, 0)->y;
  int reach = world->width + world->height;
  for (int distance = 1; distance <= reach && game->player_count < players; distance++)
    for (int dx = -distance; dx <= distance && game->player_count < players; dx++) {
      int rest = distance - abs(dx);
      for (int side = 0; side < (rest ? 2 : 1) && game->player_count < players; side++) {
        int x = first_x + dx, y = first_y + (side ? rest : -rest);
        if (!is_free(game, x, y, walkable(game))) continue;
        if (crafter_game_add_player(game, x, y) < 0) {
          snprintf(error, error_size, "out of memory");
          return -1;
        }
      }
    }
  if (game->player_count < players) {
    crafter_game_no_room(game, players, error, error_size);
    return CRAFTER_PLAYERS_UNFIT;
  }
  return 0;
}

int crafter_game_no_room(const crafter_game *game, int players, char *error, size_t error_size) {
  const crafter_world *world = &game->world;
  unsigned ground = walkable(game);
  long cells = 0;
  for (int x = 0; x < world->width; x++)
    for (int y = 0; y < world->height; y++) {
      int slot = crafter_world_object_slot(world, x, y);
      cells += (ground & BIT(crafter_world_material(world, x, y))) &&
               (slot < 0 || world->objects[slot].kind == CRAFTER_PLAYER);
    }
  /* The materials by name: "grass, sand or path" for Crafter's rules. */
  char names[256] = "";
  size_t used = 0;
  int listed = 0, count = 0;
  for (int m = 0; m < CRAFTER_MATERIAL_COUNT; m++) count += (ground & BIT(m)) != 0;
  for (int m = 0; m < CRAFTER_MATERIAL_COUNT && used < sizeof(names); m++) {
    if (!(ground & BIT(m))) continue;
    listed++;
    const char *joint = listed == 1 ? "" : listed == count ? " or " : ", ";
    int wrote = snprintf(names + used, sizeof(names) - used, "%s%s", joint,
                         crafter_material_names[m]);
    if (wrote > 0) used += (size_t)wrote;
  }
  return crafter_fail(error, error_size,
                      "no room for %d players in the %dx%d world: each starts on a cell of %s "
                      "without a creature, and it has %ld",
                      players, world->width, world->height, count ? names : "no material",
                      cells);
}

/* ---- the player ---- */

static void player_do_object(crafter_game *game, crafter_player *player, int slot) {
  crafter_object *target = object(game, slot);
  const crafter_config *config = config_of(game);
  const crafter_player_rules *rules = &config->player;
  /* max(none, wood_sword and its damage, ...), as the reference writes it. */
  int strength = rules->damage_none;
  if (player->inventory[CRAFTER_WOOD_SWORD] && strength < rules->damage_wood_sword)
    strength = rules->damage_wood_sword;
  if (player->inventory[CRAFTER_STONE_SWORD] && strength < rules->damage_stone_sword)
    strength = rules->damage_stone_sword;
  if (player->inventory[CRAFTER_IRON_SWORD] && strength < rules->damage_iron_sword)
    strength = rules->damage_iron_sword;
  switch (target->kind) {
    case CRAFTER_PLANT:
      if (crafter_plant_ripe(game, target)) {
        target->counter = 0;
        player->inventory[CRAFTER_FOOD] += config->plant.food;
        player->achievements[CRAFTER_EAT_PLANT]++;
      }
      break;
    case CRAFTER_ZOMBIE:
      damage(game, slot, strength);
      if (target->health <= 0) player->achievements[CRAFTER_DEFEAT_ZOMBIE]++;
      break;
    case CRAFTER_SKELETON:
      damage(game, slot, strength);
      if (target->health <= 0) player->achievements[CRAFTER_DEFEAT_SKELETON]++;
      break;
    case CRAFTER_PLAYER: {
      /* Another player: hurt only when the config says by how much. */
      int damage_player = config->team.damage;
      crafter_player *victim = &game->players[crafter_game_player_of_slot(game, slot)];
      if (damage_player <= 0 || victim == player) break;
      int before = victim->inventory[CRAFTER_HEALTH];
      damage(game, slot, damage_player);
      if (before > 0 && victim->inventory[CRAFTER_HEALTH] <= 0) player->kills++;
      break;
    }
    case CRAFTER_COW:
      damage(game, slot, strength);
      if (target->health <= 0) {
        player->inventory[CRAFTER_FOOD] += config->cow.food;
        player->achievements[CRAFTER_EAT_COW]++;
        player->hunger = 0;
      }
      break;
    default: break;
  }
}

static void player_do_material(crafter_game *game, crafter_player *player, int x, int y,
                               int material) {
  if (material == CRAFTER_WATER) player->thirst = 0;
  const crafter_collect_rule *rule = &config_of(game)->collect[material];
  if (!rule->present) return;
  for (int i = 0; i < rule->require_count; i++)
    if (player->inventory[rule->require[i].item] < rule->require[i].amount) return;
  crafter_world_set_material(&game->world, x, y, rule->leaves);
  if (uniform(game) <= rule->probability) {
    for (int i = 0; i < rule->receive_count; i++) {
      int item = rule->receive[i].item;
      player->inventory[item] += rule->receive[i].amount;
      if (collect_achievement[item] >= 0) player->achievements[collect_achievement[item]]++;
    }
  }
}

static void player_place(crafter_game *game, crafter_player *player, int action, int x, int y,
                         int material) {
  if (crafter_world_object_slot(&game->world, x, y) >= 0) return;
  int index = action - CRAFTER_PLACE_STONE;
  const crafter_place_rule *rule = &config_of(game)->place[index];
  if (!rule->present) return;
  if (!crafter_world_inside(&game->world, x, y) || !(rule->where & BIT(material))) return;
  for (int i = 0; i < rule->use_count; i++)
    if (player->inventory[rule->uses[i].item] < rule->uses[i].amount) return;
  for (int i = 0; i < rule->use_count; i++)
    player->inventory[rule->uses[i].item] -= rule->uses[i].amount;
  if (crafter_place_material[index] >= 0)
    crafter_world_set_material(&game->world, x, y, crafter_place_material[index]);
  else
    crafter_game_add_creature(game, CRAFTER_PLANT, x, y);
  player->achievements[crafter_place_achievement[index]]++;
}

/* The bounds numpy gives a slice [start, stop) of an axis of length n. */
static void python_slice(int start, int stop, int n, int *low, int *high) {
  if (start < 0) start += n;
  if (start < 0) start = 0;
  if (stop > n) stop = n;
  *low = start;
  *high = stop > start ? stop : start;
}

/* World.nearby(pos, 1) as a bit set of materials, slicing quirks included:
 * at the low edge of the area the slice wraps and comes out empty. */
static unsigned materials_nearby(const crafter_game *game, int x, int y, int distance) {
  const crafter_world *world = &game->world;
  int x0, x1, y0, y1;
  python_slice(x - distance, x + distance + 1, world->width, &x0, &x1);
  python_slice(y - distance, y + distance + 1, world->height, &y0, &y1);
  unsigned found = 0;
  for (int i = x0; i < x1; i++)
    for (int j = y0; j < y1; j++) found |= BIT(crafter_world_material(world, i, j));
  return found;
}

static void player_make(crafter_game *game, crafter_player *player, const crafter_object *body,
                        int action) {
  int index = action - CRAFTER_MAKE_WOOD_PICKAXE;
  const crafter_make_rule *rule = &config_of(game)->make[index];
  if (!rule->present) return;
  unsigned nearby = materials_nearby(game, body->x, body->y, 1);
  if ((nearby & rule->nearby) != rule->nearby) return;
  for (int i = 0; i < rule->use_count; i++)
    if (player->inventory[rule->uses[i].item] < rule->uses[i].amount) return;
  for (int i = 0; i < rule->use_count; i++)
    player->inventory[rule->uses[i].item] -= rule->uses[i].amount;
  player->inventory[crafter_make_item[index]] += rule->gives;
  player->achievements[crafter_make_achievement[index]]++;
}

/* ---- why an action does nothing ---- */

/* A sentence being written into text[size], cut short when full. */
typedef struct sentence {
  char *text;
  size_t size;
} sentence;

static void say(sentence *out, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void say(sentence *out, const char *format, ...) {
  size_t length = strlen(out->text);
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(out->text + length, out->size - length, format, arguments);
  va_end(arguments);
}

/* A name for prose: underscores as spaces. */
static void say_name(sentence *out, const char *name) {
  for (const char *at = name; *at; at++) say(out, "%c", *at == '_' ? ' ' : *at);
}

/* "a tree", "an iron pickaxe", or a mass noun as it is ("water"). */
static void say_a(sentence *out, const char *name, int countable) {
  if (countable) say(out, strchr("aeiou", name[0]) ? "an " : "a ");
  say_name(out, name);
}

static int material_countable(int material) {
  return material == CRAFTER_TREE || material == CRAFTER_TABLE || material == CRAFTER_FURNACE ||
         material == CRAFTER_DIAMOND;
}

static void say_material(sentence *out, int material) {
  say_a(out, crafter_material_names[material], material_countable(material));
}

/* What stands at (x, y): an object, a material, or the edge of the world. */
static void say_target(sentence *out, const crafter_game *game, int x, int y) {
  int slot = crafter_world_object_slot(&game->world, x, y);
  if (slot >= 0)
    say_a(out, crafter_object_kind_names[game->world.objects[slot].kind], 1);
  else if (!crafter_world_inside(&game->world, x, y))
    say(out, "the edge of the world");
  else
    say_material(out, crafter_world_material(&game->world, x, y));
}

/* The items of a rule the player has too few of, as "needs 2 wood (you
 * have 1)", and the materials missing nearby, as "a table nearby", joined
 * with commas and a final "and".  Returns how many were missing. */
static int say_needs(sentence *out, const crafter_player *player, const crafter_item_amount *items,
                     int item_count, unsigned nearby_needed, unsigned nearby) {
  int parts[CRAFTER_ITEM_COUNT + CRAFTER_MATERIAL_COUNT], count = 0;
  for (int i = 0; i < item_count; i++)
    if (player->inventory[items[i].item] < items[i].amount) parts[count++] = i;
  for (int material = 0; material < CRAFTER_MATERIAL_COUNT; material++)
    if ((nearby_needed & BIT(material)) && !(nearby & BIT(material)))
      parts[count++] = CRAFTER_ITEM_COUNT + material;
  for (int i = 0; i < count; i++) {
    say(out, i == 0 ? "needs " : i == count - 1 ? " and " : ", ");
    if (parts[i] < CRAFTER_ITEM_COUNT) {
      const crafter_item_amount *need = &items[parts[i]];
      say(out, "%d ", (int)need->amount);
      say_name(out, crafter_item_names[need->item]);
      say(out, " (you have %d)", (int)player->inventory[need->item]);
    } else {
      say_material(out, parts[i] - CRAFTER_ITEM_COUNT);
      if (i == count - 1) say(out, " nearby");
    }
  }
  return count;
}

/* The materials of a bit set, as "grass, sand or path". */
static void say_materials(sentence *out, unsigned materials) {
  int count = 0, total = 0;
  for (int material = 0; material < CRAFTER_MATERIAL_COUNT; material++)
    total += (materials & BIT(material)) != 0;
  for (int material = 0; material < CRAFTER_MATERIAL_COUNT; material++)
    if (materials & BIT(material)) {
      if (count) say(out, count == total - 1 ? " or " : ", ");
      say_name(out, crafter_material_names[material]);
      count++;
    }
}

static int outlook_move(const crafter_game *game, const crafter_object *body, int action,
                        sentence *out) {
  const int *direction = directions[action - CRAFTER_MOVE_LEFT];
  int x = body->x + direction[0], y = body->y + direction[1];
  if (is_free(game, x, y, player_walkable(game))) return CRAFTER_ACTION_POSSIBLE;
  say(out, "Cannot move %s: ", action == CRAFTER_MOVE_LEFT    ? "left"
                               : action == CRAFTER_MOVE_RIGHT ? "right"
                               : action == CRAFTER_MOVE_UP    ? "up"
                                                              : "down");
  say_target(out, game, x, y);
  say(out, " is in the way.");
  return CRAFTER_ACTION_IMPOSSIBLE;
}

static int outlook_do(const crafter_game *game, const crafter_player *player, int x, int y,
                      sentence *out) {
  int slot = crafter_world_object_slot(&game->world, x, y);
  if (slot >= 0) {
    const crafter_object *target = &game->world.objects[slot];
    if (target->kind == CRAFTER_PLANT) {
      if (crafter_plant_ripe(game, target)) return CRAFTER_ACTION_POSSIBLE;
      say(out, "Cannot eat the plant: it is not ripe yet.");
      return CRAFTER_ACTION_IMPOSSIBLE;
    }
    if (target->kind != CRAFTER_ARROW && target->kind != CRAFTER_PLAYER)
      return CRAFTER_ACTION_POSSIBLE;
    if (target->kind == CRAFTER_PLAYER && config_of(game)->team.damage > 0)
      return CRAFTER_ACTION_POSSIBLE;
    say(out, "Nothing to do with ");
    say_target(out, game, x, y);
    say(out, ".");
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  if (!crafter_world_inside(&game->world, x, y)) {
    say(out, "Nothing to do: the edge of the world.");
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  int material = crafter_world_material(&game->world, x, y);
  const crafter_collect_rule *rule = &config_of(game)->collect[material];
  if (!rule->present) {
    say(out, "Nothing to collect from ");
    say_material(out, material);
    say(out, ".");
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  say(out, "Cannot collect ");
  say_name(out, crafter_material_names[material]);
  say(out, ": ");
  if (say_needs(out, player, rule->require, rule->require_count, 0, 0) > 0) {
    say(out, ".");
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  out->text[0] = '\0';
  if (rule->probability >= 1 || rule->receive_count == 0) return CRAFTER_ACTION_POSSIBLE;
  say(out, "No ");
  for (int i = 0; i < rule->receive_count; i++) {
    if (i) say(out, " or ");
    say_name(out, crafter_item_names[rule->receive[i].item]);
  }
  say(out, " this time: ");
  say_name(out, crafter_material_names[material]);
  say(out, " gives it with a probability of %g%%.", rule->probability * 100);
  return CRAFTER_ACTION_BY_CHANCE;
}

static int outlook_place(const crafter_game *game, const crafter_player *player, int action,
                         int x, int y, sentence *out) {
  int index = action - CRAFTER_PLACE_STONE;
  const crafter_place_rule *rule = &config_of(game)->place[index];
  const char *what = crafter_action_names[action] + strlen("place_");
  if (!rule->present) {
    say(out, "Cannot place ");
    say_a(out, what, 1);
    say(out, ": not in this game's rules.");
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  int blocked = crafter_world_object_slot(&game->world, x, y) >= 0 ||
                !crafter_world_inside(&game->world, x, y);
  int material = crafter_world_material(&game->world, x, y);
  int wrong_ground = !blocked && !(rule->where & BIT(material));
  say(out, "Cannot place ");
  say_a(out, what, 1);
  say(out, ": ");
  int missing = say_needs(out, player, rule->uses, rule->use_count, 0, 0);
  if (!missing && !blocked && !wrong_ground) return CRAFTER_ACTION_POSSIBLE;
  if (missing && (blocked || wrong_ground)) say(out, "; ");
  if (blocked) {
    say_target(out, game, x, y);
    say(out, " is in the way");
  } else if (wrong_ground) {
    say(out, "it goes on ");
    say_materials(out, rule->where);
    say(out, ", not ");
    say_name(out, crafter_material_names[material]);
  }
  say(out, ".");
  return CRAFTER_ACTION_IMPOSSIBLE;
}

static int outlook_make(const crafter_game *game, const crafter_player *player,
                        const crafter_object *body, int action, sentence *out) {
  int index = action - CRAFTER_MAKE_WOOD_PICKAXE;
  const crafter_make_rule *rule = &config_of(game)->make[index];
  say(out, "Cannot make ");
  say_a(out, crafter_item_names[crafter_make_item[index]], 1);
  say(out, ": ");
  if (!rule->present) {
    say(out, "not in this game's rules.");
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  unsigned nearby = materials_nearby(game, body->x, body->y, 1);
  if (say_needs(out, player, rule->uses, rule->use_count, rule->nearby, nearby) == 0)
    return CRAFTER_ACTION_POSSIBLE;
  say(out, ".");
  return CRAFTER_ACTION_IMPOSSIBLE;
}

int crafter_game_action_outlook(const crafter_game *game, int action, char *reason,
                                size_t reason_size) {
  return crafter_game_player_outlook(game, 0, action, reason, reason_size);
}

int crafter_game_player_outlook(const crafter_game *game, int p, int action, char *reason,
                                size_t reason_size) {
  char scratch[1];
  if (reason_size == 0) {
    reason = scratch;
    reason_size = sizeof(scratch);
  }
  reason[0] = '\0';
  sentence out = {reason, reason_size};
  const crafter_player *player = &game->players[p];
  const crafter_object *body = crafter_game_body(game, p);
  int energy = player->inventory[CRAFTER_ENERGY];
  int energy_max = config_of(game)->items[CRAFTER_ENERGY].max;
  int outlook = CRAFTER_ACTION_POSSIBLE;
  if (action < 0 || action >= CRAFTER_ACTION_COUNT || !body) return CRAFTER_ACTION_POSSIBLE;
  if (player->sleeping && energy < energy_max) {
    if (action == CRAFTER_NOOP || action == CRAFTER_SLEEP) return CRAFTER_ACTION_POSSIBLE;
    say(&out, "You are asleep (energy %d of %d): you wake when rested or hurt.", energy,
        energy_max);
    return CRAFTER_ACTION_IMPOSSIBLE;
  }
  int target_x = body->x + player->facing_x, target_y = body->y + player->facing_y;
  switch (action) {
    case CRAFTER_NOOP: break;
    case CRAFTER_MOVE_LEFT:
    case CRAFTER_MOVE_RIGHT:
    case CRAFTER_MOVE_UP:
    case CRAFTER_MOVE_DOWN: outlook = outlook_move(game, body, action, &out); break;
    case CRAFTER_DO: outlook = outlook_do(game, player, target_x, target_y, &out); break;
    case CRAFTER_SLEEP:
      if (energy < energy_max) break;
      say(&out, "You are not tired: energy %d of %d.", energy, energy_max);
      outlook = CRAFTER_ACTION_IMPOSSIBLE;
      break;
    case CRAFTER_PLACE_STONE:
    case CRAFTER_PLACE_TABLE:
    case CRAFTER_PLACE_FURNACE:
    case CRAFTER_PLACE_PLANT:
      outlook = outlook_place(game, player, action, target_x, target_y, &out);
      break;
    default: outlook = outlook_make(game, player, body, action, &out); break;
  }
  if (outlook == CRAFTER_ACTION_POSSIBLE) reason[0] = '\0';
  return outlook;
}

static void player_move(crafter_game *game, crafter_player *player, int slot, int action) {
  const int *direction = directions[action - CRAFTER_MOVE_LEFT];
  player->facing_x = direction[0];
  player->facing_y = direction[1];
  move_object(game, slot, direction[0], direction[1], player_walkable(game));
  const crafter_object *body = object(game, slot);
  if (crafter_world_material(&game->world, body->x, body->y) == CRAFTER_LAVA)
    player->inventory[CRAFTER_HEALTH] = 0;
}

/* Hunger and thirst: grow, and past the limit cost an item. */
static void player_counter(const crafter_counter_rule *rule, int sleeping, double *counter,
                           int32_t *item) {
  *counter += sleeping ? rule->sleeping : rule->rate;
  if (*counter > rule->limit) {
    *counter = 0;
    *item -= rule->amount;
  }
}

static void player_life_stats(const crafter_player_rules *rules, crafter_player *player) {
  player_counter(&rules->hunger, player->sleeping, &player->hunger,
                 &player->inventory[CRAFTER_FOOD]);
  player_counter(&rules->thirst, player->sleeping, &player->thirst,
                 &player->inventory[CRAFTER_DRINK]);
  const crafter_fatigue_rule *fatigue = &rules->fatigue;
  if (player->sleeping) {
    double rested = player->fatigue - fatigue->sleeping;
    player->fatigue = rested < 0 ? rested : 0;
  } else {
    player->fatigue += fatigue->rate;
  }
  if (player->fatigue < fatigue->rested) {
    player->fatigue = 0;
    player->inventory[CRAFTER_ENERGY] += fatigue->amount;
  }
  if (player->fatigue > fatigue->tired) {
    player->fatigue = 0;
    player->inventory[CRAFTER_ENERGY] -= fatigue->amount;
  }
}

static void player_health(const crafter_recover_rule *rule, crafter_player *player) {
  int necessities = player->inventory[CRAFTER_FOOD] > 0 && player->inventory[CRAFTER_DRINK] > 0 &&
                    (player->inventory[CRAFTER_ENERGY] > 0 || player->sleeping);
  if (necessities)
    player->recover += player->sleeping ? rule->sleeping : rule->rate;
  else
    player->recover -= player->sleeping ? rule->decay_sleeping : rule->decay;
  int32_t *health = &player->inventory[CRAFTER_HEALTH];
  if (player->recover > rule->heal) {
    player->recover = 0;
    *health = clamp_health(*health + rule->amount);
  }
  if (player->recover < rule->hurt) {
    player->recover = 0;
    *health = clamp_health(*health - rule->amount);
  }
}

/* Every count to [0, max] as the reference clamps after each update:
 * min(count, max), then max(0, that); four items at a time. */
static void clamp_inventory(int32_t *inventory, const crafter_item_rule *items) {
  _Static_assert(CRAFTER_ITEM_COUNT % 4 == 0 && sizeof(crafter_item_rule) == 8 &&
                     offsetof(crafter_item_rule, max) == 0,
                 "items in fours, each rule's max then initial");
  for (int item = 0; item < CRAFTER_ITEM_COUNT; item += 4) {
    lanes4 count, rules_low, rules_high;
    memcpy(&count, inventory + item, sizeof count);
    memcpy(&rules_low, &items[item], sizeof rules_low);
    memcpy(&rules_high, &items[item + 2], sizeof rules_high);
    lanes4 max = __builtin_shufflevector(rules_low, rules_high, 0, 2, 4, 6);
    lanes4 over = count > max;
    count = (count & ~over) | (max & over);
    count &= ~(count >> 31);
    memcpy(inventory + item, &count, sizeof count);
  }
}

static void update_player(crafter_game *game, int p, int slot, int action) {
  crafter_player *player = &game->players[p];
  const crafter_object *body = object(game, slot);
  int target_x = body->x + player->facing_x;
  int target_y = body->y + player->facing_y;
  int material = crafter_world_material(&game->world, target_x, target_y);
  int target_slot = crafter_world_object_slot(&game->world, target_x, target_y);
  const crafter_item_rule *items = config_of(game)->items;
  if (player->sleeping) {
    if (player->inventory[CRAFTER_ENERGY] < items[CRAFTER_ENERGY].max) {
      action = CRAFTER_SLEEP;
    } else {
      player->sleeping = 0;
      player->achievements[CRAFTER_WAKE_UP]++;
    }
  }
  switch (action) {
    case CRAFTER_NOOP: break;
    case CRAFTER_MOVE_LEFT:
    case CRAFTER_MOVE_RIGHT:
    case CRAFTER_MOVE_UP:
    case CRAFTER_MOVE_DOWN: player_move(game, player, slot, action); break;
    case CRAFTER_DO:
      if (target_slot >= 0)
        player_do_object(game, player, target_slot);
      else if (material != CRAFTER_NONE)
        player_do_material(game, player, target_x, target_y, material);
      break;
    case CRAFTER_SLEEP:
      if (player->inventory[CRAFTER_ENERGY] < items[CRAFTER_ENERGY].max) player->sleeping = 1;
      break;
    case CRAFTER_PLACE_STONE:
    case CRAFTER_PLACE_TABLE:
    case CRAFTER_PLACE_FURNACE:
    case CRAFTER_PLACE_PLANT:
      player_place(game, player, action, target_x, target_y, material);
      break;
    default: player_make(game, player, body, action); break;
  }
  player_life_stats(&config_of(game)->player, player);
  player_health(&config_of(game)->player.recover, player);
  clamp_inventory(player->inventory, items);
  /* After clamping, as the reference does: being hurt wakes the player. */
  if (player->inventory[CRAFTER_HEALTH] < player->last_health) player->sleeping = 0;
  player->last_health = player->inventory[CRAFTER_HEALTH];
}

/* ---- creatures and plants ---- */

static void update_cow(crafter_game *game, int slot) {
  if (object(game, slot)->health <= 0) crafter_world_remove(&game->world, slot);
  if (uniform(game) < config_of(game)->cow.move) {
    int dx, dy;
    random_direction(game, &dx, &dy);
    move_object(game, slot, dx, dy, walkable(game));
  }
}

static void update_zombie(crafter_game *game, int slot) {
  crafter_object *zombie = object(game, slot);
  const crafter_zombie_rules *rules = &config_of(game)->zombie;
  if (zombie->health <= 0) crafter_world_remove(&game->world, slot);
  int dx, dy, distance;
  /* The nearest player when its turn comes is the one it chases and bites. */
  int target = nearest_body(game, zombie->x, zombie->y, &distance);
  if (distance <= rules->chase_distance && uniform(game) < rules->chase_probability) {
    int long_axis = uniform(game) < rules->long_axis;
    toward_player(game, target, zombie, long_axis, &dx, &dy);
  } else {
    random_direction(game, &dx, &dy);
  }
  move_object(game, slot, dx, dy, walkable(game));
  const crafter_object *body = object(game, target);
  if (abs(zombie->x - body->x) + abs(zombie->y - body->y) <= rules->attack_distance) {
    if (zombie->counter) {
      zombie->counter -= 1;
    } else {
      const crafter_player *victim = &game->players[crafter_game_player_of_slot(game, target)];
      damage(game, target, victim->sleeping ? rules->damage_sleeping : rules->damage);
      zombie->counter = rules->cooldown;
    }
  }
}

static void update_skeleton(crafter_game *game, int slot) {
  crafter_object *skeleton = object(game, slot);
  const crafter_skeleton_rules *rules = &config_of(game)->skeleton;
  if (skeleton->health <= 0) crafter_world_remove(&game->world, slot);
  if (skeleton->counter > 0) skeleton->counter -= 1;
  int distance;
  int target = nearest_body(game, skeleton->x, skeleton->y, &distance);
  int dx, dy;
  if (distance <= rules->flee_distance) {
    toward_player(game, target, skeleton, uniform(game) < rules->flee_long_axis, &dx,
                  &dy);
    if (move_object(game, slot, -dx, -dy, walkable(game))) return;
  }
  if (distance <= rules->shoot_distance &&
      uniform(game) < rules->shoot_probability) {
    toward_player(game, target, skeleton, 1, &dx, &dy);
    if (skeleton->counter > 0 || (dx == 0 && dy == 0)) return;
    int x = skeleton->x + dx, y = skeleton->y + dy;
    if (is_free(game, x, y, arrow_walkable(game))) {
      crafter_object arrow = {0};
      arrow.kind = CRAFTER_ARROW;
      arrow.x = x;
      arrow.y = y;
      arrow.facing_x = (int8_t)dx;
      arrow.facing_y = (int8_t)dy;
      /* The table may move when it grows. */
      if (crafter_world_add(&game->world, &arrow) >= 0) object(game, slot)->counter = rules->reload;
    }
  } else if (distance <= rules->chase_distance &&
             uniform(game) < rules->chase_probability) {
    toward_player(game, target, skeleton, uniform(game) < rules->chase_long_axis, &dx,
                  &dy);
    move_object(game, slot, dx, dy, walkable(game));
  } else if (uniform(game) < rules->wander) {
    random_direction(game, &dx, &dy);
    move_object(game, slot, dx, dy, walkable(game));
  }
}

static void update_arrow(crafter_game *game, int slot) {
  crafter_object *arrow = object(game, slot);
  int x = arrow->x + arrow->facing_x, y = arrow->y + arrow->facing_y;
  int target_slot = crafter_world_object_slot(&game->world, x, y);
  int material = crafter_world_material(&game->world, x, y);
  if (target_slot >= 0) {
    damage(game, target_slot, config_of(game)->arrow.damage);
    crafter_world_remove(&game->world, slot);
  } else if (!crafter_world_inside(&game->world, x, y) || !(arrow_walkable(game) & BIT(material))) {
    crafter_world_remove(&game->world, slot);
    if (material == CRAFTER_TABLE || material == CRAFTER_FURNACE)
      crafter_world_set_material(&game->world, x, y, CRAFTER_PATH);
  } else {
    move_object(game, slot, arrow->facing_x, arrow->facing_y, arrow_walkable(game));
  }
}

static void update_plant(crafter_game *game, int slot) {
  crafter_object *plant = object(game, slot);
  plant->counter += 1;
  int threatened = 0;
  for (int i = 0; i < 4; i++) {
    int neighbour = crafter_world_object_slot(&game->world, plant->x + directions[i][0],
                                              plant->y + directions[i][1]);
    if (neighbour < 0) continue;
    int kind = object(game, neighbour)->kind;
    if (kind == CRAFTER_ZOMBIE || kind == CRAFTER_SKELETON || kind == CRAFTER_COW) threatened = 1;
  }
  if (threatened) plant->health = clamp_health(plant->health - config_of(game)->plant.damage);
  if (plant->health <= 0) crafter_world_remove(&game->world, slot);
}

/* ---- balancing ---- */

static const int balance_kinds[CRAFTER_BALANCE_COUNT] = {CRAFTER_ZOMBIE, CRAFTER_SKELETON,
                                                        CRAFTER_COW};
/* The cells [x0,x1) x [y0,y1) of a chunk, cut at the edge of the area. */
typedef struct chunk_area {
  int x0, x1, y0, y1;
} chunk_area;

static chunk_area chunk_area_of(const crafter_world *world, int chunk) {
  chunk_area area;
  area.x0 = chunk / world->chunks_y * world->chunk_width;
  area.y0 = chunk % world->chunks_y * world->chunk_height;
  area.x1 = area.x0 + world->chunk_width < world->width ? area.x0 + world->chunk_width
                                                        : world->width;
  area.y1 = area.y0 + world->chunk_height < world->height ? area.y0 + world->chunk_height
                                                          : world->height;
  return area;
}

/* How many of a creature a chunk should hold at the present daylight:
 * spawn below `minimum` (0 when the chunk has less than the rule's
 * min_space of its material), despawn above `maximum`.  Crafter's targets,
 * such as 3.5 - 3 * light, come out bit for bit as base + daylight * light;
 * they depend on nothing else, so each is worked out once a balancing. */
typedef struct balance_target {
  int minimum, maximum;
} balance_target;

static balance_target balance_target_of(const crafter_balance_rule *rule, double light) {
  balance_target target;
  target.minimum = (int)(rule->min_base + rule->min_daylight * light);
  target.maximum = (int)(rule->max_base + rule->max_daylight * light);
  return target;
}

/* Finds the pick-th (from 0) cell of a material in a chunk's area, in the
 * reference's order (x-major): 1 with the cell, 0 if there is none.
 * Columns with too few of it are passed by their count. */
static int find_cell(const crafter_world *world, const chunk_area *area, int material, int pick,
                     int *cell_x, int *cell_y) {
  for (int x = area->x0; x < area->x1; x++) {
    const uint8_t *column = &world->materials[(size_t)x * (size_t)world->height];
    int in_column = 0;
    for (int y = area->y0; y < area->y1; y++) in_column += column[y] == material;
    if (pick >= in_column) {
      pick -= in_column;
      continue;
    }
    for (int y = area->y0;; y++)
      if (column[y] == material && pick-- == 0) {
        *cell_x = x;
        *cell_y = y;
        return 1;
      }
  }
  return 0;
}

/* Balances one kind of creature in one chunk, whose creatures of that
 * kind are those of the world's last index of chunks: balancing a chunk
 * adds and removes only its own creatures, after their turn. */
static void balance_object(crafter_game *game, int chunk, int kind,
                           const crafter_balance_rule *rule, balance_target target) {
  crafter_world *world = &game->world;
  int count = crafter_world_indexed_count(world, chunk, kind);
  int space = crafter_world_chunk_count(world, chunk, rule->material);
  int minimum = space < rule->min_space ? 0 : target.minimum;
  if (count < minimum && uniform(game) < rule->spawn_probability) {
    chunk_area area = chunk_area_of(world, chunk);
    int x, y;
    if (find_cell(world, &area, rule->material, randint(game, 0, space), &x, &y) &&
        crafter_world_object_slot(world, x, y) < 0 &&
        distance_to_player(game, x, y) >= rule->spawn_distance)
      crafter_game_add_creature(game, kind, x, y);
  } else if (count > target.maximum && uniform(game) < rule->despawn_probability) {
    int slot = crafter_world_indexed_slot(world, chunk, kind, randint(game, 0, count));
    const crafter_object *candidate = &world->objects[slot];
    if (distance_to_player(game, candidate->x, candidate->y) >= rule->despawn_distance)
      crafter_world_remove(world, slot);
  }
}

static void balance_chunks(crafter_game *game) {
  crafter_world *world = &game->world;
  crafter_world_index_chunks(world);
  const crafter_balance_rule *rules = config_of(game)->balance;
  balance_target targets[CRAFTER_BALANCE_COUNT];
  for (int rule = 0; rule < CRAFTER_BALANCE_COUNT; rule++)
    targets[rule] = balance_target_of(&rules[rule], game->daylight);
  int chunk_count = world->chunk_touched;
  for (int i = 0; i < chunk_count; i++) {
    int chunk = world->chunk_order[i];
    for (int rule = 0; rule < CRAFTER_BALANCE_COUNT; rule++)
      balance_object(game, chunk, balance_kinds[rule], &rules[rule], targets[rule]);
  }
}

static void update_object(crafter_game *game, int slot) {
  switch (game->world.objects[slot].kind) {
    case CRAFTER_COW: update_cow(game, slot); break;
    case CRAFTER_ZOMBIE: update_zombie(game, slot); break;
    case CRAFTER_SKELETON: update_skeleton(game, slot); break;
    case CRAFTER_ARROW: update_arrow(game, slot); break;
    case CRAFTER_PLANT: update_plant(game, slot); break;
    default: break;
  }
}

static lanes4 absolute4(lanes4 value) {
  lanes4 sign = value >> 31;
  return (value ^ sign) - sign;
}

/* An object's x, y, health and counter, the 16 bytes from its x. */
static lanes4 position_lanes(const crafter_object *object) {
  lanes4 lanes;
  memcpy(&lanes, &object->x, sizeof lanes);
  return lanes;
}

/* Which of objects [0, count) (count <= 64) are closer to (x, y) than
 * `distance` (Manhattan): bit i for object i.  Four at a time, without a
 * branch each: most objects are far, and which ones is hard to predict. */
static uint64_t near_objects(const crafter_object *objects, int count, int x, int y,
                             int distance) {
  _Static_assert(offsetof(crafter_object, y) == offsetof(crafter_object, x) + 4 &&
                     sizeof(crafter_object) >= offsetof(crafter_object, x) + sizeof(lanes4),
                 "x, y and 8 more bytes in an object");
  const lanes4 player = {x, y, x, y};
  uint64_t near = 0;
  int i = 0;
  for (; i + 4 <= count; i += 4) {
    const crafter_object *o = objects + i;
    /* (|dx|, |dy|) of objects i, i+1 and of i+2, i+3, then |dx| + |dy|. */
    lanes4 first = absolute4(__builtin_shufflevector(position_lanes(o), position_lanes(o + 1),
                                                     0, 1, 4, 5) - player);
    lanes4 second = absolute4(__builtin_shufflevector(position_lanes(o + 2),
                                                      position_lanes(o + 3), 0, 1, 4, 5) - player);
    lanes4 sum = __builtin_shufflevector(first, second, 0, 2, 4, 6) +
                 __builtin_shufflevector(first, second, 1, 3, 5, 7);
    lanes4 bits = (sum < distance) & (lanes4){1, 2, 4, 8};
    bits |= __builtin_shufflevector(bits, bits, 2, 3, 0, 1);
    bits |= __builtin_shufflevector(bits, bits, 1, 0, 3, 2);
    near |= (uint64_t)(uint32_t)bits[0] << i;
  }
  for (; i < count; i++)
    near |= (uint64_t)(abs(objects[i].x - x) + abs(objects[i].y - y) < distance) << i;
  return near;
}

/* Bodies of dead players leave the world while some player lives, at the
 * start of the step after their death; with no player alive they stay and
 * play on, as Crafter's player does after its episode ended. */
static void leave_dead(crafter_game *game) {
  crafter_world *world = &game->world;
  int bodies = bodies_of(game), alive = 0;
  uint32_t dead = 0;
  for (int slot = 0; slot < bodies; slot++) {
    int p = crafter_game_player_of_slot(game, slot);
    if (game->players[p].inventory[CRAFTER_HEALTH] > 0)
      alive = 1;
    else
      dead |= 1u << p;
  }
  if (!alive || !dead) return;
  for (int slot = bodies - 1; slot >= 0; slot--)
    if ((dead >> crafter_game_player_of_slot(game, slot)) & 1u) crafter_world_remove(world, slot);
  crafter_world_compact(world);
  game->present &= ~dead;
}

/* Whether some player in the world has health left. */
static int anyone_alive(const crafter_game *game) {
  for (uint32_t rest = game->present; rest; rest &= rest - 1)
    if (game->players[__builtin_ctz(rest)].inventory[CRAFTER_HEALTH] > 0) return 1;
  return 0;
}

void crafter_game_update(crafter_game *game, int action) {
  crafter_game_update_players(game, &action);
}

void crafter_game_update_players(crafter_game *game, const int *actions) {
  crafter_world *world = &game->world;
  game->step += 1;
  const crafter_config *config = config_of(game);
  game->daylight = game->step >= 0 && game->step < game->daylight_steps
                       ? game->daylight_by_step[game->step]
                       : crafter_daylight_cycle(game->step, config->day_length);
  game->action = actions[0];
  world->change_count = 0;
  if (game->player_count > 1) leave_dead(game);
  /* The objects there were when the step began, in slot order, each if it
   * is near a player when its turn comes.  The players come first and
   * always act (a player is near itself); only they move anything but
   * themselves, so after their turns who is near is known for everyone, a
   * run of 64 at a time. */
  int snapshot = world->object_count;
  if (game->player_count == 1) { /* Crafter's game */
    if (snapshot > 0) update_player(game, 0, 0, actions[0]);
    /* Where the player stands now: creatures move only themselves (and
     * arrows may move the table, so the cell is copied). */
    int player_x = world->objects[0].x, player_y = world->objects[0].y;
    for (int start = 1; start < snapshot; start += 64) {
      int count = snapshot - start < 64 ? snapshot - start : 64;
      uint64_t near = near_objects(world->objects + start, count, player_x, player_y,
                                   game->update_distance);
      for (; near; near &= near - 1) update_object(game, start + __builtin_ctzll(near));
    }
  } else {
    int bodies = bodies_of(game);
    for (int slot = 0; slot < bodies && slot < snapshot; slot++) {
      int p = crafter_game_player_of_slot(game, slot);
      if (game->players[p].inventory[CRAFTER_HEALTH] > 0 || !anyone_alive(game))
        update_player(game, p, slot, actions[p]);
    }
    for (int start = bodies; start < snapshot; start += 64) {
      int count = snapshot - start < 64 ? snapshot - start : 64;
      uint64_t near = 0;
      for (int slot = 0; slot < bodies; slot++)
        near |= near_objects(world->objects + start, count, world->objects[slot].x,
                             world->objects[slot].y, game->update_distance);
      for (; near; near &= near - 1) update_object(game, start + __builtin_ctzll(near));
    }
  }
  crafter_world_compact(world);
  if (config->balance_interval > 0 && game->step % config->balance_interval == 0) {
    balance_chunks(game);
    crafter_world_compact(world);
  }
}
