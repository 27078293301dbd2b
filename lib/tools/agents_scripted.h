/* agents_scripted: the scripted agent's insides, shared by the modules
 * that make it up (agents.h says what it does): agents.c (its life, the
 * technology tree it climbs, the last check of an action) on
 * agents_oracle.c (pursuing a task) on agents_moves.c (finding its way on
 * the world grid, placing blocks, walling itself in to sleep), each using
 * only those below it.  The types and small helpers they share, and no
 * function of theirs: each module's header declares its own.  Internal to
 * those. */
#ifndef CRAFTER_AGENTS_SCRIPTED_H
#define CRAFTER_AGENTS_SCRIPTED_H

#include <stddef.h>
#include <stdint.h>

#include "game/config.h"
#include "game/env.h"
#include "game/game.h"
#include "game/tasks.h"
#include "kernels/rng.h"

/* Beyond what the tools take: stone kept for walls and place_stone. */
#define STONE_RESERVE 4
/* The most cells a shape of a task has: a square of 19 x 19. */
#define CRAFTER_SHAPE_CELLS 361

/* The agent behind agents.h's handle. */
typedef struct crafter_agent crafter_agent;
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
  /* The task pursued (crafter_agent_set_task), NULL for none. */
  const crafter_task *task;
  const crafter_task_tracker *tracker;
  uint32_t avoid;       /* achievements never to unlock */
  int hold_item;        /* an item survival leaves to the task, -1: none */
  int keeping;          /* blocks of `keep` the agent placed are not mined */
  crafter_thing keep;
  int stocking;         /* gathering for the blocks of a shape */
  int shape_count;
  int8_t shape[CRAFTER_SHAPE_CELLS][2]; /* cells of the shape from its anchor */
  uint8_t depth[CRAFTER_SHAPE_CELLS];   /* steps from the shape's outside */
  int site, site_x, site_y, site_orientation; /* where the shape is built */
  long site_wait;       /* no site found: the step to look again */
  int rejected_count;   /* sites given up, the latest first */
  int32_t rejected[8];
  uint8_t *mask;        /* per cell: where to stand (bits: the facing) */
  uint8_t *mark;        /* per cell: scratch marks */
  int32_t *sum;         /* (width + 1) * (height + 1) prefix sums of `mark` */
};

/* ---- the view the scripted agent plans on (agents_moves.c) ---- */

static const int directions[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

typedef struct view {
  const crafter_env *env;
  const crafter_world *world;
  int index;         /* the player the agent plays: its index in the game */
  const crafter_player *player;
  int x, y;          /* the player */
  int facing;        /* index into directions */
  const int32_t *inventory;
  /* With a task: achievements never to unlock, the cells the agent
   * placed a block on, and the block it keeps (never mines). */
  uint32_t avoid;
  const uint8_t *placed;
  int keeping;
  crafter_thing keep;
  /* TARGET_MASK: per cell, bit d: stand there facing direction d,
   * ANY_FACING: stand there facing anywhere. */
  const uint8_t *mask;
} view;

static inline int direction_index(int dx, int dy) {
  for (int i = 0; i < 4; i++)
    if (directions[i][0] == dx && directions[i][1] == dy) return i;
  return 3;
}

static inline int material_at(const view *v, int x, int y) {
  return crafter_world_material(v->world, x, y);
}

static inline const crafter_object *object_at(const view *v, int x, int y) {
  int slot = crafter_world_object_slot(v->world, x, y);
  return slot >= 0 ? &v->world->objects[slot] : NULL;
}

/* Whether an action may unlock `achievement` (never, with no task). */
static inline int allowed(const view *v, int achievement) { return !(v->avoid >> achievement & 1u); }

/* Whether `thing` is at (x, y); with `placed`, only one the agent placed
 * (the rule of the task checkers, crafter-task(5)). */
static inline int thing_here(const view *v, int x, int y, crafter_thing thing, int placed) {
  if (!crafter_world_inside(v->world, x, y)) return 0;
  int mine = v->placed && v->placed[(size_t)x * (size_t)v->world->height + (size_t)y];
  if (thing.is_object) {
    int slot = crafter_world_object_slot(v->world, x, y);
    if (slot < 0 || v->world->objects[slot].kind != thing.id) return 0;
  } else if (crafter_world_material(v->world, x, y) != thing.id) {
    return 0;
  }
  return !placed || mine;
}

static inline int walkable(int material) {
  return material == CRAFTER_GRASS || material == CRAFTER_SAND || material == CRAFTER_PATH;
}

static inline int is_free(const view *v, int x, int y) {
  return crafter_world_inside(v->world, x, y) && walkable(material_at(v, x, y)) &&
         !object_at(v, x, y);
}

enum target_kind { TARGET_MATERIAL, TARGET_OBJECT, TARGET_NEAR_TABLE, TARGET_NEAR_BOTH,
                   TARGET_RIPE_PLANT, TARGET_POCKET, TARGET_CELL, TARGET_NEAR_SET, TARGET_MASK };

typedef struct goal {
  int kind;
  int what; /* material or object kind; TARGET_CELL: the cell x * height + y;
               TARGET_NEAR_SET: a set of materials; TARGET_MASK: the view's
               mask says where */
} goal;

#define ANY_FACING 16

static inline int move_action(int direction) { return CRAFTER_MOVE_LEFT + direction; }

#endif
