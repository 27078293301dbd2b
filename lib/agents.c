#include "agents.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "rng.h"

/* Beyond what the tools take: stone kept for walls and place_stone. */
#define STONE_RESERVE 4

static const char *const agent_names[CRAFTER_AGENT_COUNT] = {"random", "scripted"};

const char *crafter_agent_name(int kind) {
  return kind >= 0 && kind < CRAFTER_AGENT_COUNT ? agent_names[kind] : "unknown";
}

int crafter_agent_from_name(const char *name) {
  for (int i = 0; i < CRAFTER_AGENT_COUNT; i++)
    if (strcmp(name, agent_names[i]) == 0) return i;
  return -1;
}

struct crafter_agent {
  int kind;
  crafter_rng rng;
  int width, height;
  int32_t *distance; /* per cell, -1 unseen */
  int32_t *parent;   /* per cell, the cell it was reached from */
  int32_t *queue;
  int drinking, eating; /* keep at it until full */
  int stuck_steps;      /* steps without a reachable goal */
  int pocket;           /* 1 while walking into a pocket to sleep in */
  int pocket_x, pocket_y, pocket_d; /* its entrance and direction */
  int table_wood;       /* what the game's rules ask for a table */
  int furnace_stone;    /* and for a furnace */
};

/* Amount of an item a place rule uses. */
static int amount_used(const crafter_place_rule *rule, int item) {
  int amount = 0;
  for (int i = 0; i < rule->use_count && i < CRAFTER_ITEM_COUNT; i++)
    if (rule->uses[i].item == item) amount += rule->uses[i].amount;
  return amount;
}

crafter_agent *crafter_agent_new(int kind, const crafter_params *params) {
  crafter_agent *agent = calloc(1, sizeof(*agent));
  if (!agent) return NULL;
  agent->kind = kind;
  agent->width = params->area[0];
  agent->height = params->area[1];
  size_t cells = (size_t)agent->width * (size_t)agent->height;
  if (kind == CRAFTER_AGENT_SCRIPTED) {
    agent->distance = malloc(cells * sizeof(int32_t));
    agent->parent = malloc(cells * sizeof(int32_t));
    agent->queue = malloc(cells * sizeof(int32_t));
    if (!agent->distance || !agent->parent || !agent->queue) {
      crafter_agent_free(agent);
      return NULL;
    }
  }
  crafter_rng_seed(&agent->rng, 0);
  return agent;
}

void crafter_agent_free(crafter_agent *agent) {
  if (!agent) return;
  free(agent->distance);
  free(agent->parent);
  free(agent->queue);
  free(agent);
}

void crafter_agent_reset(crafter_agent *agent, const crafter_env *env) {
  /* world seeds are below 2**31 - 1, so this stays below 2**32 and apart
   * from every world seed. */
  crafter_rng_seed(&agent->rng, (uint32_t)(env->world_seed + 2147483648LL));
  agent->drinking = agent->eating = 0;
  agent->stuck_steps = 0;
  agent->pocket = 0;
  if (agent->kind == CRAFTER_AGENT_SCRIPTED) {
    crafter_config *rules = malloc(sizeof(*rules));
    if (rules) {
      if (env->game.config)
        *rules = *env->game.config;
      else
        crafter_config_default(rules);
      agent->table_wood = amount_used(&rules->place[CRAFTER_PLACE_TABLE - CRAFTER_PLACE_STONE], CRAFTER_WOOD);
      agent->furnace_stone =
          amount_used(&rules->place[CRAFTER_PLACE_FURNACE - CRAFTER_PLACE_STONE], CRAFTER_ITEM_STONE);
      free(rules);
    }
    if (agent->table_wood < 1) agent->table_wood = 1;
    if (agent->furnace_stone < 1) agent->furnace_stone = 1;
    if (agent->table_wood > 9) agent->table_wood = 9;
    if (agent->furnace_stone > 9) agent->furnace_stone = 9;
  }
}

/* ---- the scripted agent ---- */

static const int directions[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

typedef struct view {
  const crafter_env *env;
  const crafter_world *world;
  const crafter_player *player;
  int x, y;          /* the player */
  int facing;        /* index into directions */
  const int32_t *inventory;
} view;

static int direction_index(int dx, int dy) {
  for (int i = 0; i < 4; i++)
    if (directions[i][0] == dx && directions[i][1] == dy) return i;
  return 3;
}

static int material_at(const view *v, int x, int y) {
  return crafter_world_material(v->world, x, y);
}

static const crafter_object *object_at(const view *v, int x, int y) {
  int slot = crafter_world_object_slot(v->world, x, y);
  return slot >= 0 ? &v->world->objects[slot] : NULL;
}

static int walkable(int material) {
  return material == CRAFTER_GRASS || material == CRAFTER_SAND || material == CRAFTER_PATH;
}

static int is_free(const view *v, int x, int y) {
  return crafter_world_inside(v->world, x, y) && walkable(material_at(v, x, y)) &&
         !object_at(v, x, y);
}

/* Can be dug out of the way with the tools at hand. */
static int is_minable(const view *v, int x, int y) {
  if (!crafter_world_inside(v->world, x, y) || object_at(v, x, y)) return 0;
  switch (material_at(v, x, y)) {
    case CRAFTER_STONE:
    case CRAFTER_COAL: return v->inventory[CRAFTER_WOOD_PICKAXE] > 0;
    case CRAFTER_IRON: return v->inventory[CRAFTER_STONE_PICKAXE] > 0;
    case CRAFTER_DIAMOND: return v->inventory[CRAFTER_IRON_PICKAXE] > 0;
    default: return 0;
  }
}

enum target_kind { TARGET_MATERIAL, TARGET_OBJECT, TARGET_NEAR_TABLE, TARGET_NEAR_BOTH,
                   TARGET_RIPE_PLANT, TARGET_POCKET, TARGET_CELL };

typedef struct goal {
  int kind;
  int what; /* material or object kind; TARGET_CELL: the cell x * height + y */
} goal;

/* Creatures cannot walk here (and it stays so while we sleep). */
static int blocked(const view *v, int x, int y) {
  return !crafter_world_inside(v->world, x, y) || !walkable(material_at(v, x, y));
}

/* Free now, or free once dug out; never lava. */
static int enterable(const view *v, int x, int y) { return is_free(v, x, y) || is_minable(v, x, y); }

/* A pocket from (x, y) in direction d: two cells X, Y ahead that can be
 * entered, walled on every other side, so that stepping back from Y to X
 * and placing stone on (x, y) seals us in. */
static int pocket_at(const view *v, int x, int y, int d) {
  int dx = directions[d][0], dy = directions[d][1];
  int ex = dy, ey = dx; /* perpendicular */
  int x1 = x + dx, y1 = y + dy, x2 = x1 + dx, y2 = y1 + dy;
  return enterable(v, x1, y1) && enterable(v, x2, y2) && blocked(v, x1 + ex, y1 + ey) &&
         blocked(v, x1 - ex, y1 - ey) && blocked(v, x2 + ex, y2 + ey) &&
         blocked(v, x2 - ex, y2 - ey) && blocked(v, x2 + dx, y2 + dy);
}

/* Whether standing at (x, y) reaches the goal; *face is the direction to
 * face, or -1 when any will do. */
static int reaches(const view *v, const goal *g, int x, int y, int *face) {
  *face = -1;
  switch (g->kind) {
    case TARGET_CELL: return x * v->world->height + y == g->what;
    case TARGET_POCKET:
      for (int d = 0; d < 4; d++)
        if (pocket_at(v, x, y, d)) {
          *face = d;
          return 1;
        }
      return 0;
    case TARGET_NEAR_TABLE:
    case TARGET_NEAR_BOTH: {
      int table = 0, furnace = 0;
      for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++) {
          /* The reference's slice comes out empty at the low edge. */
          if (x - 1 < 0 || y - 1 < 0) continue;
          int material = material_at(v, x + dx, y + dy);
          table |= material == CRAFTER_TABLE;
          furnace |= material == CRAFTER_FURNACE;
        }
      return table && (g->kind == TARGET_NEAR_TABLE || furnace);
    }
    default: break;
  }
  for (int d = 0; d < 4; d++) {
    int nx = x + directions[d][0], ny = y + directions[d][1];
    if (!crafter_world_inside(v->world, nx, ny)) continue;
    const crafter_object *object = object_at(v, nx, ny);
    int hit = 0;
    if (g->kind == TARGET_MATERIAL)
      hit = !object && material_at(v, nx, ny) == g->what;
    else if (g->kind == TARGET_OBJECT)
      hit = object && object->kind == g->what;
    else if (g->kind == TARGET_RIPE_PLANT)
      hit = object && object->kind == CRAFTER_PLANT && crafter_plant_ripe(&v->env->game, object);
    if (hit) {
      *face = d;
      return 1;
    }
  }
  return 0;
}

/* Breadth-first search from the player for the nearest cell that reaches
 * the goal, walking free cells (and digging through minable ones when
 * `dig`).  Returns the distance, or -1; *first is the direction of the
 * first step (-1 when already there), *face as in reaches(). */
static int search(crafter_agent *agent, const view *v, const goal *g, int dig, int limit,
                  int *first, int *face) {
  int width = agent->width, height = agent->height;
  for (int i = 0; i < width * height; i++) agent->distance[i] = -1;
  int start = v->x * height + v->y;
  int head = 0, tail = 0;
  agent->queue[tail++] = start;
  agent->distance[start] = 0;
  agent->parent[start] = -1;
  while (head < tail) {
    int cell = agent->queue[head++];
    int x = cell / height, y = cell % height;
    if (reaches(v, g, x, y, face)) {
      *first = -1;
      while (agent->parent[cell] >= 0 && agent->parent[cell] != start) cell = agent->parent[cell];
      if (cell != start) {
        int cx = cell / height, cy = cell % height;
        *first = direction_index(cx - v->x, cy - v->y);
      }
      return agent->distance[agent->queue[head - 1]];
    }
    if (agent->distance[cell] >= limit) continue;
    for (int d = 0; d < 4; d++) {
      int nx = x + directions[d][0], ny = y + directions[d][1];
      if (!crafter_world_inside(v->world, nx, ny)) continue;
      int next = nx * height + ny;
      if (agent->distance[next] >= 0) continue;
      if (!is_free(v, nx, ny) && !(dig && is_minable(v, nx, ny))) continue;
      agent->distance[next] = agent->distance[cell] + 1;
      agent->parent[next] = cell;
      agent->queue[tail++] = next;
    }
  }
  return -1;
}

static int move_action(int direction) { return CRAFTER_MOVE_LEFT + direction; }

/* The action that makes progress toward a goal found by search(). */
static int approach(const view *v, int first, int face, int act) {
  if (first >= 0) {
    int nx = v->x + directions[first][0], ny = v->y + directions[first][1];
    if (is_free(v, nx, ny)) return move_action(first);
    /* Dig: face the cell, then collect it. */
    if (v->facing == first) return CRAFTER_DO;
    return move_action(first);
  }
  if (face < 0 || v->facing == face) return act;
  return move_action(face); /* the target is not free, so this only turns */
}

/* Pursues a goal; returns the action, or -1 when it cannot be reached. */
static int pursue(crafter_agent *agent, const view *v, const goal *g, int act) {
  int first, face;
  int dig = v->inventory[CRAFTER_WOOD_PICKAXE] > 0;
  if (search(agent, v, g, dig, agent->width + agent->height, &first, &face) < 0) return -1;
  return approach(v, first, face, act);
}

static int placeable(const view *v, int x, int y, int stone) {
  if (!crafter_world_inside(v->world, x, y) || object_at(v, x, y)) return 0;
  int material = material_at(v, x, y);
  return walkable(material) || (stone && (material == CRAFTER_WATER || material == CRAFTER_LAVA));
}

/* Places something in front, or steps so that the cell ahead is free
 * (staying next to a table when near_table). */
static int place(crafter_agent *agent, const view *v, int action, int need_grass, int near_table) {
  int fx = v->x + directions[v->facing][0], fy = v->y + directions[v->facing][1];
  int stone = action == CRAFTER_PLACE_STONE;
  if (placeable(v, fx, fy, stone) && (!need_grass || material_at(v, fx, fy) == CRAFTER_GRASS))
    return action;
  int offset = (int)crafter_rng_randint(&agent->rng, 0, 4);
  for (int k = 0; k < 4; k++) {
    int d = (k + offset) % 4;
    int nx = v->x + directions[d][0], ny = v->y + directions[d][1];
    int ax = nx + directions[d][0], ay = ny + directions[d][1];
    int face;
    goal table = {TARGET_NEAR_TABLE, 0};
    if (is_free(v, nx, ny) && placeable(v, ax, ay, 0) &&
        (!need_grass || material_at(v, ax, ay) == CRAFTER_GRASS) &&
        (!near_table || reaches(v, &table, nx, ny, &face)))
      return move_action(d);
  }
  return move_action((int)crafter_rng_randint(&agent->rng, 0, 4));
}

/* Whether the cells creatures could reach us from are at most two: ours
 * and one behind, walled in. */
static int sealed(const view *v) {
  int cells[4][2] = {{v->x, v->y}}, count = 1;
  for (int i = 0; i < count; i++)
    for (int d = 0; d < 4; d++) {
      int x = cells[i][0] + directions[d][0], y = cells[i][1] + directions[d][1];
      if (blocked(v, x, y)) continue;
      int seen = 0;
      for (int j = 0; j < count; j++) seen |= cells[j][0] == x && cells[j][1] == y;
      if (seen) continue;
      if (count == 3) return 0;
      cells[count][0] = x;
      cells[count][1] = y;
      count++;
    }
  return count <= 2;
}

/* Walks into a pocket and seals it; -1 when there is none to be had. */
static int shelter(crafter_agent *agent, const view *v) {
  if (v->inventory[CRAFTER_ITEM_STONE] < 1 || v->inventory[CRAFTER_WOOD_PICKAXE] < 1) return -1;
  if (agent->pocket && !pocket_at(v, agent->pocket_x, agent->pocket_y, agent->pocket_d)) {
    /* Dug out already, or it changed: fine if we stand inside it. */
    int d = agent->pocket_d;
    int inside = (v->x == agent->pocket_x + directions[d][0] && v->y == agent->pocket_y + directions[d][1]) ||
                 (v->x == agent->pocket_x + 2 * directions[d][0] && v->y == agent->pocket_y + 2 * directions[d][1]);
    if (!inside) agent->pocket = 0;
  }
  if (!agent->pocket) {
    int first, face;
    goal g = {TARGET_POCKET, 0};
    if (search(agent, v, &g, 1, 40, &first, &face) < 0) return -1;
    int height = agent->height;
    agent->pocket = 1;
    agent->pocket_d = face;
    /* The nearest cell searched with a pocket in that direction. */
    int best = -1;
    for (int c = 0; c < agent->width * height; c++) {
      if (agent->distance[c] < 0) continue;
      if (!pocket_at(v, c / height, c % height, face)) continue;
      if (best < 0 || agent->distance[c] < agent->distance[best]) best = c;
    }
    if (best < 0) {
      agent->pocket = 0;
      return -1;
    }
    agent->pocket_x = best / height;
    agent->pocket_y = best % height;
  }
  int d = agent->pocket_d, dx = directions[d][0], dy = directions[d][1];
  int ex = agent->pocket_x, ey = agent->pocket_y;
  int x1 = ex + dx, y1 = ey + dy, x2 = x1 + dx, y2 = y1 + dy;
  int back = d ^ 1; /* left<->right, up<->down */
  if (v->x == x2 && v->y == y2) return move_action(back);
  if (v->x == x1 && v->y == y1) {
    if (v->facing == back) {
      if (is_free(v, ex, ey)) return CRAFTER_PLACE_STONE;
      const crafter_object *object = object_at(v, ex, ey);
      if (object) return CRAFTER_DO;
      agent->pocket = 0;
      return CRAFTER_SLEEP;
    }
    if (v->facing != d) return move_action(d);
    if (is_free(v, x2, y2)) return move_action(d);
    if (is_minable(v, x2, y2)) return CRAFTER_DO;
    agent->pocket = 0;
    return -1;
  }
  if (v->x == ex && v->y == ey) {
    if (is_free(v, x1, y1)) return move_action(d);
    if (v->facing != d) return move_action(d);
    if (is_minable(v, x1, y1)) return CRAFTER_DO;
    agent->pocket = 0;
    return -1;
  }
  goal g = {TARGET_CELL, ex * agent->height + ey};
  int action = pursue(agent, v, &g, CRAFTER_NOOP);
  if (action < 0 || action == CRAFTER_NOOP) agent->pocket = 0;
  return action == CRAFTER_NOOP ? -1 : action;
}

static int scripted_act(crafter_agent *agent, const crafter_env *env) {
  view v;
  v.env = env;
  v.world = &env->game.world;
  v.player = &env->game.player;
  v.x = v.world->objects[0].x;
  v.y = v.world->objects[0].y;
  v.facing = direction_index(v.player->facing_x, v.player->facing_y);
  v.inventory = v.player->inventory;
  const int32_t *inv = v.inventory;
  const int32_t *done = v.player->achievements;
  if (v.player->sleeping) return CRAFTER_NOOP;

  /* Fight whatever stands next to us. */
  for (int d = 0; d < 4; d++) {
    const crafter_object *object = object_at(&v, v.x + directions[d][0], v.y + directions[d][1]);
    if (object && (object->kind == CRAFTER_ZOMBIE || object->kind == CRAFTER_SKELETON))
      return v.facing == d ? CRAFTER_DO : move_action(d);
  }

  int action, first, face;
  goal g;
  /* Skeletons shoot from afar: fight the ones close by. */
  g = (goal){TARGET_OBJECT, CRAFTER_SKELETON};
  if (inv[CRAFTER_HEALTH] > 3 && search(agent, &v, &g, 0, 5, &first, &face) >= 0)
    return approach(&v, first, face, CRAFTER_DO);
  /* Tired, hurt, or night: sleep walled in where creatures cannot reach. */
  int night = env->game.daylight < 0.3;
  int urgent = inv[CRAFTER_DRINK] <= 2 || inv[CRAFTER_FOOD] <= 2;
  int want_rest = inv[CRAFTER_ENERGY] <= 3 || inv[CRAFTER_HEALTH] <= 3 ||
                  (night && inv[CRAFTER_ENERGY] < 9);
  if (!urgent && sealed(&v)) {
    agent->pocket = 0;
    if (inv[CRAFTER_ENERGY] < 9) return CRAFTER_SLEEP;
    if (night || inv[CRAFTER_HEALTH] <= 5) return CRAFTER_NOOP;
  }
  if (!urgent && want_rest && (action = shelter(agent, &v)) >= 0) return action;
  if (inv[CRAFTER_ENERGY] <= 2) {
    int fx = v.x + directions[v.facing][0], fy = v.y + directions[v.facing][1];
    if (inv[CRAFTER_ITEM_STONE] > 0 && is_free(&v, fx, fy)) return CRAFTER_PLACE_STONE;
    return CRAFTER_SLEEP;
  }
  /* Thirst and hunger first, with some slack: keep at it until full. */
  if (inv[CRAFTER_DRINK] <= 4) agent->drinking = 1;
  if (inv[CRAFTER_DRINK] >= 9) agent->drinking = 0;
  if (inv[CRAFTER_FOOD] <= 4) agent->eating = 1;
  if (inv[CRAFTER_FOOD] >= 9) agent->eating = 0;
  if (agent->drinking) {
    g = (goal){TARGET_MATERIAL, CRAFTER_WATER};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (agent->eating) {
    g = (goal){TARGET_RIPE_PLANT, CRAFTER_PLANT};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
    g = (goal){TARGET_OBJECT, CRAFTER_COW};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }

  int have_wood_pickaxe = inv[CRAFTER_WOOD_PICKAXE] > 0, have_stone_pickaxe = inv[CRAFTER_STONE_PICKAXE] > 0;
  int have_iron_pickaxe = inv[CRAFTER_IRON_PICKAXE] > 0;
  int tools_wood = !have_wood_pickaxe + (inv[CRAFTER_WOOD_SWORD] == 0) + !have_stone_pickaxe +
                   (inv[CRAFTER_STONE_SWORD] == 0) + !have_iron_pickaxe + (inv[CRAFTER_IRON_SWORD] == 0);
  int tools_stone = !have_stone_pickaxe + (inv[CRAFTER_STONE_SWORD] == 0);
  int iron_tools = !have_iron_pickaxe + (inv[CRAFTER_IRON_SWORD] == 0);

  /* A sapling, early: plants cost little and give two achievements. */
  int ahead_x = v.x + directions[v.facing][0], ahead_y = v.y + directions[v.facing][1];
  if (!done[CRAFTER_COLLECT_SAPLING] && is_free(&v, ahead_x, ahead_y) &&
      material_at(&v, ahead_x, ahead_y) == CRAFTER_GRASS)
    return CRAFTER_DO;
  if (!done[CRAFTER_PLACE_PLANT_ACH] && inv[CRAFTER_SAPLING] > 0)
    return place(agent, &v, CRAFTER_PLACE_PLANT, 1, 0);

  /* Crafting at a table (and furnace) within reach. */
  int near_table = search(agent, &v, &(goal){TARGET_NEAR_TABLE, 0}, 0, 0, &first, &face) == 0;
  int near_both = search(agent, &v, &(goal){TARGET_NEAR_BOTH, 0}, 0, 0, &first, &face) == 0;
  if (near_table) {
    if (!have_wood_pickaxe && inv[CRAFTER_WOOD] >= 1) return CRAFTER_MAKE_WOOD_PICKAXE;
    if (inv[CRAFTER_WOOD_SWORD] == 0 && inv[CRAFTER_WOOD] >= 1) return CRAFTER_MAKE_WOOD_SWORD;
    if (!have_stone_pickaxe && inv[CRAFTER_WOOD] >= 1 && inv[CRAFTER_ITEM_STONE] >= 1)
      return CRAFTER_MAKE_STONE_PICKAXE;
    if (inv[CRAFTER_STONE_SWORD] == 0 && inv[CRAFTER_WOOD] >= 1 && inv[CRAFTER_ITEM_STONE] >= 1)
      return CRAFTER_MAKE_STONE_SWORD;
    if (near_both) {
      int ready = inv[CRAFTER_WOOD] >= 1 && inv[CRAFTER_ITEM_COAL] >= 1 && inv[CRAFTER_ITEM_IRON] >= 1;
      if (!have_iron_pickaxe && ready) return CRAFTER_MAKE_IRON_PICKAXE;
      if (inv[CRAFTER_IRON_SWORD] == 0 && ready) return CRAFTER_MAKE_IRON_SWORD;
    } else if (have_stone_pickaxe && inv[CRAFTER_ITEM_STONE] >= agent->furnace_stone) {
      return place(agent, &v, CRAFTER_PLACE_FURNACE, 0, 1);
    }
  }

  /* Gather what the next tools need. */
  int table_reachable = search(agent, &v, &(goal){TARGET_NEAR_TABLE, 0}, 0, 24, &first, &face) >= 0;
  int wood_wanted = tools_wood + (table_reachable ? 0 : agent->table_wood);
  if (wood_wanted > 9) wood_wanted = 9;
  if (inv[CRAFTER_WOOD] < wood_wanted && !(table_reachable && inv[CRAFTER_WOOD] >= 1 &&
                                           !have_wood_pickaxe)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_TREE};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (!table_reachable && inv[CRAFTER_WOOD] >= agent->table_wood)
    return place(agent, &v, CRAFTER_PLACE_TABLE, 0, 0);

  int craft_wood = inv[CRAFTER_WOOD] >= 1;
  int want_table = (!have_wood_pickaxe || inv[CRAFTER_WOOD_SWORD] == 0) && craft_wood;
  if (have_wood_pickaxe && tools_stone && craft_wood && inv[CRAFTER_ITEM_STONE] >= 1) want_table = 1;
  if (have_stone_pickaxe && iron_tools && craft_wood && inv[CRAFTER_ITEM_COAL] >= 1 &&
      inv[CRAFTER_ITEM_IRON] >= 1)
    want_table = 1;
  if (have_stone_pickaxe && !near_both && inv[CRAFTER_ITEM_STONE] >= agent->furnace_stone) want_table = 1;
  if (want_table) {
    int both = have_stone_pickaxe && iron_tools && inv[CRAFTER_ITEM_COAL] >= 1 &&
               inv[CRAFTER_ITEM_IRON] >= 1;
    g = (goal){both ? TARGET_NEAR_BOTH : TARGET_NEAR_TABLE, 0};
    if (both && search(agent, &v, &g, 0, 24, &first, &face) < 0) g.kind = TARGET_NEAR_TABLE;
    if ((action = pursue(agent, &v, &g, CRAFTER_NOOP)) >= 0 && action != CRAFTER_NOOP)
      return action;
  }

  if (have_wood_pickaxe) {
    int stone_wanted = tools_stone + (near_both ? 0 : agent->furnace_stone) + STONE_RESERVE;
    if (stone_wanted > 9) stone_wanted = 9;
    if (!done[CRAFTER_PLACE_STONE_ACH] && inv[CRAFTER_ITEM_STONE] > 0)
      return place(agent, &v, CRAFTER_PLACE_STONE, 0, 0);
    if (inv[CRAFTER_ITEM_STONE] < stone_wanted) {
      g = (goal){TARGET_MATERIAL, CRAFTER_STONE};
      if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
    }
    if (inv[CRAFTER_ITEM_COAL] < iron_tools) {
      g = (goal){TARGET_MATERIAL, CRAFTER_COAL};
      if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
    }
  }
  if (have_stone_pickaxe && inv[CRAFTER_ITEM_IRON] < iron_tools) {
    g = (goal){TARGET_MATERIAL, CRAFTER_IRON};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (have_iron_pickaxe) {
    g = (goal){TARGET_MATERIAL, CRAFTER_DIAMOND};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  /* Nothing better to do: drink, eat, look for a sapling in the grass. */
  if (inv[CRAFTER_DRINK] < 9) {
    g = (goal){TARGET_MATERIAL, CRAFTER_WATER};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (inv[CRAFTER_FOOD] < 6) {
    g = (goal){TARGET_OBJECT, CRAFTER_COW};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (!done[CRAFTER_COLLECT_SAPLING]) {
    g = (goal){TARGET_MATERIAL, CRAFTER_GRASS};
    if ((action = pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  agent->stuck_steps++;
  return move_action((int)crafter_rng_randint(&agent->rng, 0, 4));
}

int crafter_agent_act(crafter_agent *agent, const crafter_env *env) {
  if (agent->kind == CRAFTER_AGENT_SCRIPTED) return scripted_act(agent, env);
  return (int)crafter_rng_randint(&agent->rng, 0, CRAFTER_ACTION_COUNT);
}
