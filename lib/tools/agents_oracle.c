#include "tools/agents_oracle.h"

#include <stdlib.h>
#include <string.h>

/* ---- the oracle: the scripted agent pursuing a task ---- */

/* obtain() and friends: what is asked for is at hand already. */
#define DONE (-2)
/* The window of localization and conditional goals. */
#define NEAR CRAFTER_TASK_NEAR_RADIUS

int crafter_agent_collect_achievement(int item) {
  switch (item) {
    case CRAFTER_SAPLING: return CRAFTER_COLLECT_SAPLING;
    case CRAFTER_WOOD: return CRAFTER_COLLECT_WOOD;
    case CRAFTER_ITEM_STONE: return CRAFTER_COLLECT_STONE;
    case CRAFTER_ITEM_COAL: return CRAFTER_COLLECT_COAL;
    case CRAFTER_ITEM_IRON: return CRAFTER_COLLECT_IRON;
    case CRAFTER_ITEM_DIAMOND: return CRAFTER_COLLECT_DIAMOND;
    case CRAFTER_DRINK: return CRAFTER_COLLECT_DRINK;
    default: return -1;
  }
}

/* The action that places a block (stone, table, furnace, plant), -1 for
 * anything else. */
int crafter_agent_block_action(crafter_thing thing) {
  if (thing.is_object) return thing.id == CRAFTER_PLANT ? CRAFTER_PLACE_PLANT : -1;
  switch (thing.id) {
    case CRAFTER_STONE: return CRAFTER_PLACE_STONE;
    case CRAFTER_TABLE: return CRAFTER_PLACE_TABLE;
    case CRAFTER_FURNACE: return CRAFTER_PLACE_FURNACE;
    default: return -1;
  }
}

static const crafter_place_rule *place_rule(const view *v, int action) {
  return &v->env->config->place[action - CRAFTER_PLACE_STONE];
}

/* Whether place `action` puts its block on (x, y) now... */
static int fits(const view *v, int action, int x, int y) {
  if (!crafter_world_inside(v->world, x, y) || object_at(v, x, y)) return 0;
  const crafter_place_rule *rule = place_rule(v, action);
  return rule->present && (rule->where >> material_at(v, x, y) & 1u);
}

/* ... or will once the creature standing there moves on. */
static int fits_later(const view *v, int action, int x, int y) {
  if (!crafter_world_inside(v->world, x, y)) return 0;
  const crafter_object *object = object_at(v, x, y);
  if (object && object->kind == CRAFTER_PLANT) return 0;
  const crafter_place_rule *rule = place_rule(v, action);
  return rule->present && (rule->where >> material_at(v, x, y) & 1u);
}

/* A cell to walk on: free, or ours. */
static int standable(const view *v, int x, int y) {
  if (!crafter_world_inside(v->world, x, y) || !walkable(material_at(v, x, y))) return 0;
  const crafter_object *object = object_at(v, x, y);
  return !object || object == crafter_game_body(&v->env->game, v->index);
}

/* Marks the cells holding `thing` (placed by the agent, with `placed`);
 * returns how many. */
static int mark_things(crafter_agent *agent, const view *v, crafter_thing thing, int placed) {
  int height = agent->height, count = 0;
  for (int x = 0; x < agent->width; x++)
    for (int y = 0; y < height; y++)
      count += agent->mark[x * height + y] = (uint8_t)thing_here(v, x, y, thing, placed);
  return count;
}

/* Prefix sums of the marks: sum[x * (height + 1) + y] counts [0, x) x [0, y). */
static void sum_marks(crafter_agent *agent) {
  int width = agent->width, height = agent->height, row = height + 1;
  int32_t *sum = agent->sum;
  for (int y = 0; y <= height; y++) sum[y] = 0;
  for (int x = 1; x <= width; x++) {
    sum[x * row] = 0;
    for (int y = 1; y <= height; y++)
      sum[x * row + y] = sum[(x - 1) * row + y] + sum[x * row + y - 1] -
                         sum[(x - 1) * row + y - 1] + agent->mark[(x - 1) * height + y - 1];
  }
}

/* The marks in [x0, x1] x [y0, y1] (inclusive, clipped to the world). */
static int marks_in(const crafter_agent *agent, int x0, int y0, int x1, int y1) {
  int row = agent->height + 1;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > agent->width - 1) x1 = agent->width - 1;
  if (y1 > agent->height - 1) y1 = agent->height - 1;
  if (x0 > x1 || y0 > y1) return 0;
  const int32_t *sum = agent->sum;
  return sum[(x1 + 1) * row + y1 + 1] - sum[x0 * row + y1 + 1] - sum[(x1 + 1) * row + y0] +
         sum[x0 * row + y0];
}

/* Walks to the nearest cell of the mask and, there, faces as it says by
 * stepping on (the cell ahead is free); `act` when standing right.  -1
 * when no cell of the mask can be reached. */
static int seek(crafter_agent *agent, const view *v, int act) {
  int first, face;
  goal g = {TARGET_MASK, 0};
  int dig = v->inventory[CRAFTER_WOOD_PICKAXE] > 0;
  if (crafter_agent_search(agent, v, &g, dig, agent->width + agent->height, &first, &face) < 0)
    return -1;
  if (first >= 0) return crafter_agent_approach(v, first, face, act);
  return face >= 0 ? move_action(face) : act;
}

/* Marks the standing cells from which a cell of the window (radius) around
 * them holds a mark. */
static void mask_near_marks(crafter_agent *agent, int radius, int at_least) {
  int height = agent->height;
  sum_marks(agent);
  for (int x = 0; x < agent->width; x++)
    for (int y = 0; y < height; y++)
      agent->mask[x * height + y] =
          marks_in(agent, x - radius, y - radius, x + radius, y + radius) >= at_least ? ANY_FACING
                                                                                      : 0;
}

/* Places a block with `action` on a marked cell: at once when one is
 * ahead, else walks to stand before one, stepping onto the cell in front
 * of it so as to face it.  -1 when no marked cell can be faced so. */
static int place_into(crafter_agent *agent, const view *v, int action) {
  int width = agent->width, height = agent->height;
  int fx = v->x + directions[v->facing][0], fy = v->y + directions[v->facing][1];
  if (crafter_world_inside(v->world, fx, fy) && agent->mark[fx * height + fy]) {
    if (fits(v, action, fx, fy)) return action;
    const crafter_object *object = object_at(v, fx, fy);
    if (object && object->kind != CRAFTER_PLANT) return CRAFTER_NOOP; /* wait for it to move on */
  }
  memset(agent->mask, 0, (size_t)width * (size_t)height);
  int any = 0;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      if (!agent->mark[x * height + y]) continue;
      for (int d = 0; d < 4; d++) {
        int sx = x - directions[d][0], sy = y - directions[d][1];
        int px = sx - directions[d][0], py = sy - directions[d][1];
        if (!standable(v, sx, sy) || !standable(v, px, py)) continue;
        agent->mask[px * height + py] |= (uint8_t)(1 << d);
        any = 1;
      }
    }
  return any ? seek(agent, v, CRAFTER_NOOP) : -1;
}

/* Places a block with `action` within `radius` cells of the player. */
static int place_near(crafter_agent *agent, const view *v, int action, int radius) {
  int height = agent->height;
  memset(agent->mark, 0, (size_t)agent->width * (size_t)height);
  for (int x = v->x - radius; x <= v->x + radius; x++)
    for (int y = v->y - radius; y <= v->y + radius; y++)
      if (fits(v, action, x, y)) agent->mark[x * height + y] = 1;
  int result = place_into(agent, v, action);
  return result >= 0 ? result
                     : crafter_agent_place(agent, v, action, action == CRAFTER_PLACE_PLANT, 0);
}

static int obtain(crafter_agent *agent, const view *v, int item, int amount, int depth);

/* Whether a creature of `kind` is within `radius` cells (either axis). */
static int creature_near(const view *v, int kind, int radius) {
  for (int i = 1; i < v->world->object_count; i++) {
    const crafter_object *object = &v->world->objects[i];
    if (!object->removed && object->kind == kind && abs(object->x - v->x) <= radius &&
        abs(object->y - v->y) <= radius)
      return 1;
  }
  return 0;
}

/* Collects `item` from the material that gives it, with the tools it needs. */
static int collect(crafter_agent *agent, const view *v, int item, int depth) {
  int achievement = crafter_agent_collect_achievement(item);
  if (achievement >= 0 && !allowed(v, achievement)) return -1;
  for (int material = 0; material < CRAFTER_MATERIAL_COUNT; material++) {
    const crafter_collect_rule *rule = &v->env->config->collect[material];
    int gives = 0;
    for (int i = 0; rule->present && i < rule->receive_count; i++)
      gives |= rule->receive[i].item == item;
    if (!gives) continue;
    int action = DONE;
    for (int i = 0; i < rule->require_count && action == DONE; i++)
      action = obtain(agent, v, rule->require[i].item, rule->require[i].amount, depth + 1);
    if (action >= 0) return action;
    if (action != DONE) continue;
    goal g = {TARGET_MATERIAL, material};
    if ((action = crafter_agent_pursue(agent, v, &g, CRAFTER_DO)) >= 0) return action;
  }
  return -1;
}

/* Makes tool `index` (its action - CRAFTER_MAKE_WOOD_PICKAXE): gathers what
 * it uses, goes to a table (and furnace), placing them where there are
 * none. */
static int make(crafter_agent *agent, const view *v, int index, int depth) {
  const crafter_config *config = v->env->config;
  const crafter_make_rule *rule = &config->make[index];
  if (!rule->present || !allowed(v, crafter_make_achievement[index])) return -1;
  int first, face, action;
  goal near = {TARGET_NEAR_SET, (int)rule->nearby};
  goal table = {TARGET_NEAR_SET, 1 << CRAFTER_TABLE};
  int here = crafter_agent_search(agent, v, &near, 0, 0, &first, &face) == 0;
  int reachable = here || crafter_agent_search(agent, v, &near, 0, 24, &first, &face) >= 0;
  int32_t need[CRAFTER_ITEM_COUNT] = {0};
  int station = -1;
  if (!reachable) {
    /* Only tables and furnaces can be put there. */
    if (rule->nearby & ~(1u << CRAFTER_TABLE | 1u << CRAFTER_FURNACE)) return -1;
    if ((rule->nearby >> CRAFTER_TABLE & 1u) &&
        crafter_agent_search(agent, v, &table, 0, 24, &first, &face) < 0)
      station = CRAFTER_PLACE_TABLE;
    else
      station = CRAFTER_PLACE_FURNACE;
    const crafter_place_rule *stand = place_rule(v, station);
    if (!stand->present || !allowed(v, crafter_place_achievement[station - CRAFTER_PLACE_STONE]))
      return -1;
    for (int i = 0; i < stand->use_count; i++) need[stand->uses[i].item] += stand->uses[i].amount;
  }
  for (int i = 0; i < rule->use_count; i++) need[rule->uses[i].item] += rule->uses[i].amount;
  /* A wood or stone sword with the pickaxe: fights end sooner. */
  int sword = index + 3;
  if (index < 2 && !v->inventory[crafter_make_item[sword]] && config->make[sword].present &&
      allowed(v, crafter_make_achievement[sword]))
    for (int i = 0; i < config->make[sword].use_count; i++)
      need[config->make[sword].uses[i].item] += config->make[sword].uses[i].amount;
  for (int item = 0; item < CRAFTER_ITEM_COUNT; item++)
    if (need[item] > 0 && (action = obtain(agent, v, item, need[item], depth + 1)) != DONE)
      return action;
  if (here) return CRAFTER_MAKE_WOOD_PICKAXE + index;
  if (reachable) {
    crafter_agent_search(agent, v, &near, 0, 24, &first, &face);
    return crafter_agent_approach(v, first, face, CRAFTER_NOOP);
  }
  if (station == CRAFTER_PLACE_TABLE)
    return crafter_agent_place(agent, v, CRAFTER_PLACE_TABLE, 0, 0);
  /* The furnace goes beside the table. */
  if (crafter_agent_search(agent, v, &table, 0, 24, &first, &face) > 0)
    return crafter_agent_approach(v, first, face, CRAFTER_NOOP);
  return crafter_agent_place(agent, v, CRAFTER_PLACE_FURNACE, 0, 1);
}

/* The action toward holding `amount` of `item`: DONE when held already,
 * -1 when there is no way (or only through an achievement to avoid). */
static int obtain(crafter_agent *agent, const view *v, int item, int amount, int depth) {
  int most = v->env->config->items[item].max;
  if (amount > most) amount = most;
  if (v->inventory[item] >= amount) return DONE;
  if (depth > 6) return -1;
  for (int i = 0; i < 6; i++)
    if (crafter_make_item[i] == item) return make(agent, v, i, depth);
  int action;
  goal g;
  switch (item) {
    case CRAFTER_FOOD:
      g = (goal){TARGET_RIPE_PLANT, CRAFTER_PLANT};
      if (allowed(v, CRAFTER_EAT_PLANT) &&
          (action = crafter_agent_pursue(agent, v, &g, CRAFTER_DO)) >= 0)
        return action;
      g = (goal){TARGET_OBJECT, CRAFTER_COW};
      if (allowed(v, CRAFTER_EAT_COW) &&
          (action = crafter_agent_pursue(agent, v, &g, CRAFTER_DO)) >= 0)
        return action;
      return -1;
    case CRAFTER_ENERGY:
      /* Sleep walled in, with stone to wall ourselves in if it can be
       * had; in the open only with no zombie about. */
      if (!allowed(v, CRAFTER_WAKE_UP)) return -1;
      if (allowed(v, CRAFTER_PLACE_STONE_ACH) &&
          (action = obtain(agent, v, CRAFTER_ITEM_STONE, 1, depth + 1)) >= 0)
        return action;
      if ((action = crafter_agent_shelter(agent, v)) >= 0) return action;
      if (creature_near(v, CRAFTER_ZOMBIE, 8)) return -1;
      return CRAFTER_SLEEP;
    case CRAFTER_HEALTH: return -1;
    default: return collect(agent, v, item, depth);
  }
}

/* What `count` blocks of place `action` use: DONE when at hand. */
static int gather_for(crafter_agent *agent, const view *v, int action, int count) {
  const crafter_place_rule *rule = place_rule(v, action);
  if (!rule->present || !allowed(v, crafter_place_achievement[action - CRAFTER_PLACE_STONE])) return -1;
  for (int i = 0; i < rule->use_count; i++) {
    int result = obtain(agent, v, rule->uses[i].item, rule->uses[i].amount * count, 0);
    if (result != DONE) return result;
  }
  return DONE;
}

/* -- achievements -- */

/* The order unlocking goes in: what comes first in the technology tree,
 * cheap ones early, those that need luck or the night last. */
static const int unlock_order[CRAFTER_ACHIEVEMENT_COUNT] = {
    CRAFTER_COLLECT_WOOD,           CRAFTER_COLLECT_SAPLING,      CRAFTER_PLACE_PLANT_ACH,
    CRAFTER_COLLECT_DRINK,          CRAFTER_EAT_COW,              CRAFTER_PLACE_TABLE_ACH,
    CRAFTER_MAKE_WOOD_PICKAXE_ACH,  CRAFTER_MAKE_WOOD_SWORD_ACH,  CRAFTER_COLLECT_STONE,
    CRAFTER_PLACE_STONE_ACH,        CRAFTER_MAKE_STONE_PICKAXE_ACH, CRAFTER_MAKE_STONE_SWORD_ACH,
    CRAFTER_PLACE_FURNACE_ACH,      CRAFTER_COLLECT_COAL,         CRAFTER_COLLECT_IRON,
    CRAFTER_MAKE_IRON_PICKAXE_ACH,  CRAFTER_MAKE_IRON_SWORD_ACH,  CRAFTER_COLLECT_DIAMOND,
    CRAFTER_DEFEAT_ZOMBIE,          CRAFTER_DEFEAT_SKELETON,      CRAFTER_EAT_PLANT,
    CRAFTER_WAKE_UP};

/* Walls in the plants near with stone, placed on the cells around them
 * creatures could step on; -1 when they are walled in (or cannot be). */
static int garden(crafter_agent *agent, const view *v) {
  int height = agent->height, walls = 0, action;
  if (!allowed(v, CRAFTER_PLACE_STONE_ACH)) return -1;
  memset(agent->mark, 0, (size_t)agent->width * (size_t)height);
  for (int i = 1; i < v->world->object_count; i++) {
    const crafter_object *plant = &v->world->objects[i];
    if (plant->removed || plant->kind != CRAFTER_PLANT || abs(plant->x - v->x) > 30 ||
        abs(plant->y - v->y) > 30)
      continue;
    for (int d = 0; d < 4; d++) {
      int x = plant->x + directions[d][0], y = plant->y + directions[d][1];
      if (crafter_world_inside(v->world, x, y) && walkable(material_at(v, x, y))) {
        walls += !agent->mark[x * height + y];
        agent->mark[x * height + y] = 1;
      }
    }
  }
  if (!walls) return -1;
  if ((action = gather_for(agent, v, CRAFTER_PLACE_STONE, walls)) != DONE) return action;
  return place_into(agent, v, CRAFTER_PLACE_STONE);
}

static int unlock(crafter_agent *agent, const view *v, int achievement) {
  int action, first, face;
  goal g;
  for (int item = 0; item < CRAFTER_ITEM_COUNT; item++)
    if (crafter_agent_collect_achievement(item) == achievement) return collect(agent, v, item, 0);
  for (int i = 0; i < 4; i++)
    if (crafter_place_achievement[i] == achievement) {
      int place_action = CRAFTER_PLACE_STONE + i;
      if ((action = gather_for(agent, v, place_action, 1)) != DONE) return action;
      return place_near(agent, v, place_action, 3);
    }
  for (int i = 0; i < 6; i++)
    if (crafter_make_achievement[i] == achievement) return make(agent, v, i, 0);
  switch (achievement) {
    case CRAFTER_EAT_COW:
      g = (goal){TARGET_OBJECT, CRAFTER_COW};
      return crafter_agent_pursue(agent, v, &g, CRAFTER_DO);
    case CRAFTER_EAT_PLANT:
      g = (goal){TARGET_RIPE_PLANT, CRAFTER_PLANT};
      if ((action = crafter_agent_pursue(agent, v, &g, CRAFTER_DO)) >= 0) return action;
      /* None ripe: plant one, and wall it in against the creatures
       * that trample it; a pickaxe opens the wall when it is ripe. */
      g = (goal){TARGET_OBJECT, CRAFTER_PLANT};
      if (crafter_agent_search(agent, v, &g, 0, 30, &first, &face) >= 0) return garden(agent, v);
      if ((action = gather_for(agent, v, CRAFTER_PLACE_PLANT, 1)) != DONE) return action;
      return place_near(agent, v, CRAFTER_PLACE_PLANT, 3);
    case CRAFTER_DEFEAT_ZOMBIE:
    case CRAFTER_DEFEAT_SKELETON: {
      /* Armed and healthy first. */
      int kind = achievement == CRAFTER_DEFEAT_ZOMBIE ? CRAFTER_ZOMBIE : CRAFTER_SKELETON;
      if ((action = obtain(agent, v, CRAFTER_WOOD_SWORD, 1, 0)) >= 0) return action;
      if (v->inventory[CRAFTER_HEALTH] < 6) return -1;
      g = (goal){TARGET_OBJECT, kind};
      if (kind == CRAFTER_ZOMBIE) {
        if (crafter_agent_search(agent, v, &g, 0, 30, &first, &face) < 0) return -1;
        return crafter_agent_approach(v, first, face, CRAFTER_DO);
      }
      if ((action = crafter_agent_pursue(agent, v, &g, CRAFTER_DO)) >= 0) return action;
      /* They keep to the tunnels: dig there. */
      action = obtain(agent, v, CRAFTER_WOOD_PICKAXE, 1, 0);
      return action >= 0 ? action : -1;
    }
    case CRAFTER_WAKE_UP: {
      action = obtain(agent, v, CRAFTER_ENERGY, v->env->config->items[CRAFTER_ENERGY].max, 0);
      return action >= 0 ? action : -1;
    }
    default: return -1;
  }
}

static int achievements_act(crafter_agent *agent, const view *v) {
  uint32_t wanted = agent->task->check.unlock & ~v->env->unlocked[v->index];
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++) {
    int achievement = unlock_order[i], action;
    if ((wanted >> achievement & 1u) && (action = unlock(agent, v, achievement)) >= 0)
      return action;
  }
  return -1;
}

/* -- localization -- */

/* Where the target lies from the object, by side (as tasks.c). */
static const int side_offsets[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

static int localization_act(crafter_agent *agent, const view *v) {
  const crafter_task_check *c = &agent->task->check;
  int width = agent->width, height = agent->height, action;
  int dx = side_offsets[c->side][0] * c->distance, dy = side_offsets[c->side][1] * c->distance;
  crafter_thing object = c->object, target = c->target;
  /* A pair there already: stand where the window holds both. */
  int any = 0;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++)
      any |= agent->mark[x * height + y] = (uint8_t)(thing_here(v, x, y, object, c->placed) &&
                                                     thing_here(v, x + dx, y + dy, target, 0));
  if (any) {
    sum_marks(agent);
    for (int x = 0; x < width; x++)
      for (int y = 0; y < height; y++) {
        /* Both the object's cell and the target's in the window. */
        int x0 = x - NEAR - (dx < 0 ? dx : 0), x1 = x + NEAR - (dx > 0 ? dx : 0);
        int y0 = y - NEAR - (dy < 0 ? dy : 0), y1 = y + NEAR - (dy > 0 ? dy : 0);
        agent->mask[x * height + y] = marks_in(agent, x0, y0, x1, y1) > 0 ? ANY_FACING : 0;
      }
    if ((action = seek(agent, v, CRAFTER_NOOP)) >= 0) return action;
  }
  int object_action = crafter_agent_block_action(object);
  int target_action = crafter_agent_block_action(target);
  /* The object placed beside a target that is there, or the target
   * beside an object that is there, or both. */
  for (int round = 0; round < 3; round++) {
    int put = round == 0 ? object_action : target_action;
    if (put < 0 || (round == 2 && object_action < 0)) continue;
    any = 0;
    for (int x = 0; x < width; x++)
      for (int y = 0; y < height; y++) {
        int good = fits_later(v, put, x, y);
        if (round == 0)
          good = good && thing_here(v, x + dx, y + dy, target, 0);
        else if (round == 1)
          good = good && thing_here(v, x - dx, y - dy, object, c->placed);
        else
          good = good && fits_later(v, object_action, x - dx, y - dy);
        any |= agent->mark[x * height + y] = (uint8_t)good;
      }
    if (!any) continue;
    if ((action = gather_for(agent, v, put, 1)) != DONE) {
      if (action >= 0) return action;
      continue;
    }
    if ((action = place_into(agent, v, put)) >= 0) return action;
  }
  return -1;
}

/* -- conditional -- */

/* Spends one lot of `item`: places a block or makes a tool that uses it;
 * food, drink and energy run down by themselves. */
static int spend(crafter_agent *agent, const view *v, int item) {
  if (item == CRAFTER_FOOD || item == CRAFTER_DRINK || item == CRAFTER_ENERGY) return CRAFTER_NOOP;
  int action;
  for (int put = CRAFTER_PLACE_STONE; put <= CRAFTER_PLACE_PLANT; put++) {
    if (!place_rule(v, put)->present || crafter_agent_amount_used(place_rule(v, put), item) == 0)
      continue;
    if ((action = gather_for(agent, v, put, 1)) != DONE) {
      if (action >= 0) return action;
      continue;
    }
    return place_near(agent, v, put, 2);
  }
  const crafter_config *config = v->env->config;
  for (int index = 0; index < 6; index++)
    for (int i = 0; config->make[index].present && i < config->make[index].use_count; i++)
      if (config->make[index].uses[i].item == item && (action = make(agent, v, index, 0)) >= 0)
        return action;
  return -1;
}

static int conditional_act(crafter_agent *agent, const view *v) {
  const crafter_task_check *c = &agent->task->check;
  int item = c->item, threshold = c->threshold, action;
  int most = v->env->config->items[item].max;
  if (threshold > most) return -1;
  int put = crafter_agent_block_action(c->object);
  int have = 0;
  for (int x = v->x - NEAR; x <= v->x + NEAR; x++)
    for (int y = v->y - NEAR; y <= v->y + NEAR; y++)
      have += thing_here(v, x, y, c->object, put >= 0);
  int need = c->count - have, held = v->inventory[item];
  if (need > 0 && put < 0) {
    /* Go where enough of them are in view. */
    mark_things(agent, v, c->object, 0);
    mask_near_marks(agent, NEAR, c->count);
    return seek(agent, v, CRAFTER_NOOP);
  }
  int use = put >= 0 ? crafter_agent_amount_used(place_rule(v, put), item) : 0;
  if (use > 0) {
    /* The blocks spend the item: enough in hand that the last one or a
     * later one takes it below the threshold. */
    int spare = need > 1 ? use * (need - 1) : 0;
    int target = threshold + spare > most ? most : threshold + spare;
    if (held >= threshold) {
      if (held - spare < threshold && held < target &&
          (action = obtain(agent, v, item, target, 0)) >= 0)
        return action;
    } else if (!(need > 0 && held >= use)) {
      action = obtain(agent, v, item, target, 0);
      return action >= 0 ? action : -1;
    }
    if ((action = gather_for(agent, v, put, 1)) != DONE) return action;
    return place_near(agent, v, put, 2);
  }
  if (need > 0) {
    if ((action = gather_for(agent, v, put, 1)) != DONE) return action;
    return place_near(agent, v, put, 2);
  }
  if (held < threshold) {
    action = obtain(agent, v, item, threshold, 0);
    return action >= 0 ? action : -1;
  }
  return spend(agent, v, item);
}

/* -- line, square, cross -- */

/* Whether the offset (dx, dy) from the anchor is a cell of the shape. */
static int in_shape(const crafter_task *task, int orientation, int dx, int dy) {
  const crafter_task_check *c = &task->check;
  switch (task->family) {
    case CRAFTER_TASK_LINE: {
      int along = orientation && !c->diagonal ? dy : dx;
      int across = c->diagonal ? (orientation ? dy + dx : dy - dx) : (orientation ? dx : dy);
      return across == 0 && along >= 0 && along < c->length;
    }
    case CRAFTER_TASK_SQUARE: return dx >= 0 && dy >= 0 && dx < c->size && dy < c->size;
    case CRAFTER_TASK_CROSS: {
      int ax = abs(dx), ay = abs(dy);
      if (c->diagonal) return ax == ay && ax <= c->length;
      return (ax == 0 && ay <= c->length) || (ay == 0 && ax <= c->length);
    }
    default: return 0;
  }
}

/* The cells of the task's shape in one orientation, from its anchor; how
 * many orientations there are in *orientations. */
static int shape_cells(const crafter_task *task, int orientation, int8_t (*cells)[2],
                       int *orientations) {
  int count = 0;
  *orientations = task->family == CRAFTER_TASK_LINE ? 2 : 1;
  for (int dx = -20; dx <= 20; dx++)
    for (int dy = -20; dy <= 20; dy++)
      if (count < CRAFTER_SHAPE_CELLS && in_shape(task, orientation, dx, dy)) {
        cells[count][0] = (int8_t)dx;
        cells[count][1] = (int8_t)dy;
        count++;
      }
  return count;
}

/* How deep in the shape each cell lies: 1 beside the outside, 2 beside
 * those, ... The deepest are placed first, while they can be reached. */
static void shape_depths(crafter_agent *agent) {
  int count = agent->shape_count;
  for (int i = 0; i < count; i++) {
    agent->depth[i] = 0;
    for (int d = 0; d < 4; d++)
      if (!in_shape(agent->task, agent->site_orientation, agent->shape[i][0] + directions[d][0],
                    agent->shape[i][1] + directions[d][1]))
        agent->depth[i] = 1;
  }
  for (int level = 1, changed = 1; changed && level < 255; level++) {
    changed = 0;
    for (int i = 0; i < count; i++) {
      if (agent->depth[i]) continue;
      for (int j = 0; j < count && !agent->depth[i]; j++) {
        int apart = abs(agent->shape[i][0] - agent->shape[j][0]) +
                    abs(agent->shape[i][1] - agent->shape[j][1]);
        if (agent->depth[j] == level && apart == 1) {
          agent->depth[i] = (uint8_t)(level + 1);
          changed = 1;
        }
      }
    }
  }
}

/* Whether the shape can be built with its anchor at (ax, ay): -1 if not,
 * else how many of its cells hold a block the agent placed.  Squares and
 * crosses want open ground around them (and a square a ring without the
 * block). */
static int site_value(const crafter_agent *agent, const view *v, int put, int ax, int ay,
                      int orientation, int8_t (*cells)[2], int count) {
  crafter_thing block = agent->task->check.object;
  int placed = 0, x0 = ax, x1 = ax, y0 = ay, y1 = ay;
  for (int i = 0; i < count; i++) {
    int x = ax + cells[i][0], y = ay + cells[i][1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (thing_here(v, x, y, block, 1))
      placed++;
    else if (!fits_later(v, put, x, y))
      return -1;
  }
  if (agent->task->family == CRAFTER_TASK_LINE) return placed;
  for (int x = x0 - 1; x <= x1 + 1; x++)
    for (int y = y0 - 1; y <= y1 + 1; y++) {
      if (in_shape(agent->task, orientation, x - ax, y - ay)) continue;
      if (!walkable(material_at(v, x, y)) || thing_here(v, x, y, block, 0)) return -1;
    }
  return placed;
}

/* Picks where to build the shape: the reachable site with the most
 * blocks placed already, then the nearest.  0 when there is none. */
static int choose_site(crafter_agent *agent, const view *v, int put) {
  int width = agent->width, height = agent->height, orientations;
  int8_t cells[2][CRAFTER_SHAPE_CELLS][2];
  int counts[2];
  counts[0] = shape_cells(agent->task, 0, cells[0], &orientations);
  counts[1] = orientations > 1 ? shape_cells(agent->task, 1, cells[1], &orientations) : 0;
  long best_score = 0;
  int best = -1, best_orientation = 0;
  for (int pass = 0; pass < 2 && best < 0; pass++) {
    int first, face;
    goal g = {TARGET_MASK, 0};
    memset(agent->mask, 0, (size_t)width * (size_t)height);
    crafter_agent_search(agent, v, &g, 0, pass ? width + height : 30, &first, &face);
    for (int cell = 0; cell < width * height; cell++) {
      if (agent->distance[cell] < 0) continue;
      for (int o = 0; o < orientations; o++) {
        int rejected = 0;
        for (int i = 0; i < agent->rejected_count; i++)
          rejected |= agent->rejected[i] == cell * 2 + o;
        if (rejected) continue;
        int value = site_value(agent, v, put, cell / height, cell % height, o, cells[o], counts[o]);
        if (value < 0) continue;
        long score = (long)value * 1000 - agent->distance[cell];
        if (best < 0 || score > best_score) {
          best = cell;
          best_orientation = o;
          best_score = score;
        }
      }
    }
  }
  if (best < 0) return 0;
  agent->site = 1;
  agent->site_x = best / height;
  agent->site_y = best % height;
  agent->site_orientation = best_orientation;
  agent->shape_count = counts[best_orientation];
  memcpy(agent->shape, cells[best_orientation],
         (size_t)agent->shape_count * sizeof(agent->shape[0]));
  shape_depths(agent);
  return 1;
}

/* Gives up the site (for a while: the last few given up are not taken again). */
static void reject_site(crafter_agent *agent) {
  int n = (int)(sizeof(agent->rejected) / sizeof(agent->rejected[0]));
  memmove(agent->rejected + 1, agent->rejected, (size_t)(n - 1) * sizeof(agent->rejected[0]));
  agent->rejected[0] =
      (agent->site_x * agent->height + agent->site_y) * 2 + agent->site_orientation;
  if (agent->rejected_count < n) agent->rejected_count++;
  agent->site = 0;
}

static int shape_act(crafter_agent *agent, const view *v) {
  crafter_thing block = agent->task->check.object;
  int put = crafter_agent_block_action(block), height = agent->height, action;
  if (put < 0) return -1;
  if (agent->site && site_value(agent, v, put, agent->site_x, agent->site_y,
                                agent->site_orientation, agent->shape, agent->shape_count) < 0)
    agent->site = 0;
  if (!agent->site) {
    /* Looking is dear: when there is no site, look again a while later. */
    if (v->env->game.step < agent->site_wait) return -1;
    if (!choose_site(agent, v, put)) {
      agent->site_wait = v->env->game.step + 20;
      return -1;
    }
  }
  int pending = 0, deepest = 0;
  for (int i = 0; i < agent->shape_count; i++)
    if (!thing_here(v, agent->site_x + agent->shape[i][0], agent->site_y + agent->shape[i][1],
                    block, 1)) {
      pending++;
      if (agent->depth[i] > deepest) deepest = agent->depth[i];
    }
  if (!pending) return -1;
  /* Blocks in hand: gather for as many as the inventory holds. */
  const crafter_place_rule *rule = place_rule(v, put);
  for (int i = 0; i < rule->use_count; i++)
    if (v->inventory[rule->uses[i].item] < rule->uses[i].amount) agent->stocking = 1;
  if (agent->stocking) {
    for (int i = 0; i < rule->use_count; i++) {
      int item = rule->uses[i].item, amount = rule->uses[i].amount;
      int most = v->env->config->items[item].max;
      int target = amount * pending;
      if (amount > 0 && target > most - most % amount) target = most - most % amount;
      if (target < amount) target = amount;
      action = obtain(agent, v, item, target, 0);
      if (action >= 0) return action;
      /* No more to be had: place what there is. */
      if (action != DONE && v->inventory[item] < amount) return -1;
    }
    agent->stocking = 0;
  }
  memset(agent->mark, 0, (size_t)agent->width * (size_t)height);
  for (int i = 0; i < agent->shape_count; i++) {
    int x = agent->site_x + agent->shape[i][0], y = agent->site_y + agent->shape[i][1];
    if (agent->depth[i] == deepest && !thing_here(v, x, y, block, 1))
      agent->mark[x * height + y] = 1;
  }
  if ((action = place_into(agent, v, put)) >= 0) return action;
  reject_site(agent);
  return -1;
}

/* -- timed, explore -- */

static int timed_act(crafter_agent *agent, const view *v) {
  const crafter_task_check *c = &agent->task->check;
  int put = crafter_agent_block_action(c->object), action;
  if (put < 0 || c->radius < 1) return -1;
  /* Near a block placed already: wait there for the time of day. */
  if (mark_things(agent, v, c->object, 1)) {
    mask_near_marks(agent, c->radius, 1);
    if (agent->mask[v->x * agent->height + v->y]) return CRAFTER_NOOP;
    if ((action = seek(agent, v, CRAFTER_NOOP)) >= 0) return action;
  }
  if ((action = gather_for(agent, v, put, 1)) != DONE) return action;
  return place_near(agent, v, put, 2);
}

static int explore_act(crafter_agent *agent, const view *v) {
  const crafter_task_check *c = &agent->task->check;
  int action;
  if (mark_things(agent, v, c->target, 0)) {
    mask_near_marks(agent, c->distance, 1);
    if (agent->mask[v->x * agent->height + v->y]) return CRAFTER_NOOP;
    if ((action = seek(agent, v, CRAFTER_NOOP)) >= 0) return action;
    /* Walled off: tools to dig through. */
    if ((action = obtain(agent, v, CRAFTER_WOOD_PICKAXE, 1, 0)) >= 0) return action;
    if ((action = obtain(agent, v, CRAFTER_STONE_PICKAXE, 1, 0)) >= 0) return action;
    return -1;
  }
  /* A block nowhere to be found: put one there. */
  int put = crafter_agent_block_action(c->target);
  if (put < 0 || c->distance < 1) return -1;
  if ((action = gather_for(agent, v, put, 1)) != DONE) return action;
  return place_near(agent, v, put, 1);
}

/* Before nightfall (zombies come out in the dark): a sword, and a
 * pickaxe and stone to wall ourselves in for the night. */
static int prepare(crafter_agent *agent, const view *v) {
  long day = v->env->config->day_length, step = v->env->game.step;
  if (day <= 0 || (crafter_daylight_cycle(step + 60, day) >= 0.35 && v->env->game.daylight >= 0.35))
    return -1;
  int action;
  if ((action = obtain(agent, v, CRAFTER_WOOD_SWORD, 1, 0)) >= 0) return action;
  /* A timed goal may ask to stay out in the night. */
  if (agent->task->family == CRAFTER_TASK_TIMED || !allowed(v, CRAFTER_WAKE_UP) ||
      !allowed(v, CRAFTER_PLACE_STONE_ACH))
    return -1;
  if ((action = obtain(agent, v, CRAFTER_ITEM_STONE, 2, 0)) >= 0) return action;
  return -1;
}

/* The task's action, or -1 to fall back on the technology tree. */
int crafter_agent_task_act(crafter_agent *agent, const view *v) {
  if (v->world->width != agent->width || v->world->height != agent->height) return -1;
  /* At a table with the stuff for a sword: make it, fights end sooner. */
  int first, face;
  goal table = {TARGET_NEAR_SET, 1 << CRAFTER_TABLE};
  for (int sword = 3; sword < 5; sword++) {
    const crafter_make_rule *rule = &v->env->config->make[sword];
    int ready = rule->present && !v->inventory[crafter_make_item[sword]] &&
                allowed(v, crafter_make_achievement[sword]);
    for (int i = 0; ready && i < rule->use_count; i++)
      ready = v->inventory[rule->uses[i].item] >= rule->uses[i].amount;
    if (ready && crafter_agent_search(agent, v, &table, 0, 0, &first, &face) == 0)
      return CRAFTER_MAKE_WOOD_PICKAXE + sword;
  }
  int action = prepare(agent, v);
  if (action >= 0) return action;
  switch (agent->task->family) {
    case CRAFTER_TASK_ACHIEVEMENTS: return achievements_act(agent, v);
    case CRAFTER_TASK_LOCALIZATION: return localization_act(agent, v);
    case CRAFTER_TASK_CONDITIONAL: return conditional_act(agent, v);
    case CRAFTER_TASK_LINE:
    case CRAFTER_TASK_SQUARE:
    case CRAFTER_TASK_CROSS: return shape_act(agent, v);
    case CRAFTER_TASK_TIMED: return timed_act(agent, v);
    case CRAFTER_TASK_EXPLORE: return explore_act(agent, v);
    default: return -1;
  }
}
