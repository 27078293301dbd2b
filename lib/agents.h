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
 * An agent is deterministic: each episode it seeds its generator with
 * RandomState(world_seed + 2**31), so an episode's actions depend on
 * nothing but the episode, and shards of a dataset recorded apart equal
 * the dataset recorded at once. */
#ifndef CRAFTER_AGENTS_H
#define CRAFTER_AGENTS_H

#include "env.h"

enum crafter_agent_kind { CRAFTER_AGENT_RANDOM = 0, CRAFTER_AGENT_SCRIPTED, CRAFTER_AGENT_COUNT };

/* "random", "scripted"; and back, -1 if unknown. */
const char *crafter_agent_name(int kind);
int crafter_agent_from_name(const char *name);

typedef struct crafter_agent crafter_agent;

/* An agent for worlds of these parameters; NULL when out of memory. */
crafter_agent *crafter_agent_new(int kind, const crafter_params *params);
void crafter_agent_free(crafter_agent *agent);

/* Call after every crafter_env_reset. */
void crafter_agent_reset(crafter_agent *agent, const crafter_env *env);

/* The action for the env's current state. */
int crafter_agent_act(crafter_agent *agent, const crafter_env *env);

#endif
