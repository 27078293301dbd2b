/* agents_moves: the scripted agent's moves on the world grid: finding its
 * way, placing blocks, walling itself in to sleep (agents_scripted.h has
 * the types).  Internal to the scripted agent's modules. */
#ifndef CRAFTER_AGENTS_MOVES_H
#define CRAFTER_AGENTS_MOVES_H

#include "tools/agents_scripted.h"

/* Amount of an item a place rule uses. */
int crafter_agent_amount_used(const crafter_place_rule *rule, int item);

/* Breadth-first search from the player for the nearest cell that reaches
 * the goal, walking free cells (and digging through minable ones when
 * `dig`), at most `limit` steps away.  Returns the distance, or -1;
 * *first is the direction of the first step (-1 when already there),
 * *face the direction to face there, or -1 when any will do. */
int crafter_agent_search(crafter_agent *agent, const view *v, const goal *g, int dig, int limit,
                         int *first, int *face);

/* The action that makes progress toward a goal found by
 * crafter_agent_search: the first step, digging when it is blocked, or
 * `act` facing the goal once there. */
int crafter_agent_approach(const view *v, int first, int face, int act);

/* Searches for the goal and approaches it: the action, or -1 when it is
 * out of reach. */
int crafter_agent_pursue(crafter_agent *agent, const view *v, const goal *g, int act);

/* Places something in front, or steps so that the cell ahead is free
 * (staying next to a table when near_table). */
int crafter_agent_place(crafter_agent *agent, const view *v, int action, int need_grass,
                        int near_table);

/* Whether the cells creatures could reach us from are at most two: ours
 * and one behind, walled in. */
int crafter_agent_sealed(const view *v);

/* Walls itself into a pocket of stone to sleep in: the next action, or -1
 * when it cannot (no stone, no pickaxe, no pocket near). */
int crafter_agent_shelter(crafter_agent *agent, const view *v);

#endif
