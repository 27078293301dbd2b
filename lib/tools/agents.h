/* agents: the built-in agents of crafter-dataset record.
 *
 *   random    uniform actions, as the reference's random agent: each step
 *             randint(0, 17) from numpy's RandomState;
 *   scripted  climbs the technology tree with the env's privileged state:
 *             breadth-first search on the world grid to the nearest tree,
 *             water, cow, stone, coal, iron or diamond (tunnelling through
 *             stone once it has a pickaxe), wood, a table, wood tools,
 *             stone, stone tools, a furnace, coal and iron, iron tools,
 *             diamonds; it drinks when thirsty, eats cows when hungry,
 *             sleeps when tired (walling itself in with stone when it can),
 *             plants a sapling and fights creatures next to it.
 *
 * Given an instruction task (crafter_agent_set_task, crafter-task(5)) the
 * scripted agent is an oracle that pursues it.  It keeps its survival
 * (drinking, eating, sleeping walled in, fighting), arms itself with a
 * sword before nightfall, and gathers what the goal needs through a
 * planner over the game's rules (collect with the tools a material asks
 * for, make at a table and furnace, placing them where there are none);
 * then, by family:
 *
 *   achievements  unlocks the `unlock` set in technology-tree order, and
 *                 never takes an action that could unlock an `avoid`
 *                 achievement (a last check turns such an action into a
 *                 step aside); eat_plant walls a sapling in and waits;
 *   localization  walks to where the object and the target are both in
 *                 view, else places the object (or the target, or both)
 *                 on a cell with the other at the distance on the side,
 *                 arriving on the cell before it so as to face it;
 *   conditional   goes where enough of a natural object are in view, or
 *                 places blocks of it, gathering the item so that the
 *                 last spend takes it below the threshold; then spends
 *                 it (a block or a tool that uses it; food, drink and
 *                 energy run down by themselves, survival leaves them
 *                 to the task);
 *   line, square, cross
 *                 picks open reachable ground for the shape (a square's
 *                 ring free of the block), gathers as many blocks as the
 *                 inventory holds, and places cell by cell, the deepest
 *                 in the shape first, never mining what it placed;
 *   timed         places the block and stays within the radius until the
 *                 daylight enters the window (out in the night if need be);
 *   explore       walks, digging with a pickaxe if walled off, to within
 *                 the distance of the nearest target (placing one when it
 *                 is a block found nowhere).
 *
 * When the goal gives it nothing to do it climbs the technology tree.
 * Without a task it plays exactly as it always has.
 *
 * An agent is deterministic: each episode it seeds its generator with
 * RandomState(world_seed + 2**31), so an episode's actions depend on
 * nothing but the episode, and shards of a dataset recorded apart equal
 * the dataset recorded at once. */
#ifndef CRAFTER_AGENTS_H
#define CRAFTER_AGENTS_H

#include "game/env.h"
#include "game/tasks.h"

enum crafter_agent_kind { CRAFTER_AGENT_RANDOM = 0, CRAFTER_AGENT_SCRIPTED, CRAFTER_AGENT_COUNT };

/* "random", "scripted"; and back, -1 if unknown. */
const char *crafter_agent_name(int kind);
int crafter_agent_from_name(const char *name);

typedef struct crafter_agent crafter_agent;

/* An agent for worlds of these parameters; NULL when out of memory. */
crafter_agent *crafter_agent_new(int kind, const crafter_params *params);
void crafter_agent_free(crafter_agent *agent);

/* Call after every crafter_env_reset.  It forgets any task. */
void crafter_agent_reset(crafter_agent *agent, const crafter_env *env);

/* Seeds the agent's own generator from a world seed and a play number,
 * after crafter_agent_reset: for worlds played more than once (level
 * sets), so that each play draws its own actions. */
void crafter_agent_reseed(crafter_agent *agent, uint64_t world_seed, uint64_t play);

/* Gives the scripted agent the episode's task to pursue (see above), with
 * the caller's tracker of it: call after crafter_agent_reset and
 * crafter_task_begin, and keep observing every step with
 * crafter_task_observe, since the agent reads which blocks it placed from
 * the tracker.  Both must outlive the episode.  NULL: no task, the agent
 * plays as it does without one.  The random agent ignores tasks. */
void crafter_agent_set_task(crafter_agent *agent, const crafter_task *task,
                            const crafter_task_tracker *tracker);

/* The action of player `player` (0 in Crafter's game of one; the agent's
 * player, whose body must be in the world) for the env's current state. */
int crafter_agent_act(crafter_agent *agent, const crafter_env *env, int player);

#endif
