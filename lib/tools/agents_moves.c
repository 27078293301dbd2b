#include "tools/agents_moves.h"

#include <stdlib.h>

/* Amount of an item a place rule uses. */
int crafter_agent_amount_used(const crafter_place_rule *rule, int item) {
  int amount = 0;
  for (int i = 0; i < rule->use_count && i < CRAFTER_ITEM_COUNT; i++)
    if (rule->uses[i].item == item) amount += rule->uses[i].amount;
  return amount;
}

/* ---- the scripted agent's moves ---- */

/* Whether the agent placed the block on (x, y) (with a task): it never
 * collects those, which would undo its work. */
static int placed_here(const view *v, int x, int y) {
  return v->placed && v->placed[(size_t)x * (size_t)v->world->height + (size_t)y];
}

/* A block the agent placed for its task, which it must not mine. */
static int kept(const view *v, int x, int y) {
  return v->keeping && thing_here(v, x, y, v->keep, 1);
}

/* Can be dug out of the way with the tools at hand. */
static int is_minable(const view *v, int x, int y) {
  if (!crafter_world_inside(v->world, x, y) || object_at(v, x, y) || kept(v, x, y)) return 0;
  switch (material_at(v, x, y)) {
    case CRAFTER_STONE:
      return v->inventory[CRAFTER_WOOD_PICKAXE] > 0 && allowed(v, CRAFTER_COLLECT_STONE);
    case CRAFTER_COAL:
      return v->inventory[CRAFTER_WOOD_PICKAXE] > 0 && allowed(v, CRAFTER_COLLECT_COAL);
    case CRAFTER_IRON:
      return v->inventory[CRAFTER_STONE_PICKAXE] > 0 && allowed(v, CRAFTER_COLLECT_IRON);
    case CRAFTER_DIAMOND:
      return v->inventory[CRAFTER_IRON_PICKAXE] > 0 && allowed(v, CRAFTER_COLLECT_DIAMOND);
    default: return 0;
  }
}

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
    case TARGET_MASK: {
      int bits = v->mask[x * v->world->height + y];
      if (!bits) return 0;
      if (!(bits & ANY_FACING))
        for (int d = 3; d >= 0; d--)
          if (bits >> d & 1) *face = d;
      return 1;
    }
    case TARGET_NEAR_SET: {
      /* As TARGET_NEAR_TABLE, for every material of the set. */
      unsigned found = 0;
      for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++)
          if (x - 1 >= 0 && y - 1 >= 0) found |= 1u << material_at(v, x + dx, y + dy);
      return (found & (unsigned)g->what) == (unsigned)g->what;
    }
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
      hit = !object && material_at(v, nx, ny) == g->what && !placed_here(v, nx, ny);
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
int crafter_agent_search(crafter_agent *agent, const view *v, const goal *g, int dig, int limit,
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

/* The action that makes progress toward a goal found by crafter_agent_search(). */
int crafter_agent_approach(const view *v, int first, int face, int act) {
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
int crafter_agent_pursue(crafter_agent *agent, const view *v, const goal *g, int act) {
  int first, face;
  int dig = v->inventory[CRAFTER_WOOD_PICKAXE] > 0;
  if (crafter_agent_search(agent, v, g, dig, agent->width + agent->height, &first, &face) < 0)
    return -1;
  return crafter_agent_approach(v, first, face, act);
}

static int placeable(const view *v, int x, int y, int stone) {
  if (!crafter_world_inside(v->world, x, y) || object_at(v, x, y)) return 0;
  int material = material_at(v, x, y);
  return walkable(material) || (stone && (material == CRAFTER_WATER || material == CRAFTER_LAVA));
}

/* Places something in front, or steps so that the cell ahead is free
 * (staying next to a table when near_table). */
int crafter_agent_place(crafter_agent *agent, const view *v, int action, int need_grass,
                        int near_table) {
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
int crafter_agent_sealed(const view *v) {
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
int crafter_agent_shelter(crafter_agent *agent, const view *v) {
  if (v->inventory[CRAFTER_ITEM_STONE] < 1 || v->inventory[CRAFTER_WOOD_PICKAXE] < 1 ||
      !allowed(v, CRAFTER_PLACE_STONE_ACH))
    return -1;
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
    if (crafter_agent_search(agent, v, &g, 1, 40, &first, &face) < 0) return -1;
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
  int action = crafter_agent_pursue(agent, v, &g, CRAFTER_NOOP);
  if (action < 0 || action == CRAFTER_NOOP) agent->pocket = 0;
  return action == CRAFTER_NOOP ? -1 : action;
}
