/* agents_oracle: the scripted agent pursuing a task, on its moves.
 * Internal to the scripted agent's modules. */
#ifndef CRAFTER_AGENTS_ORACLE_H
#define CRAFTER_AGENTS_ORACLE_H

#include "tools/agents_moves.h"
#include "tools/agents_scripted.h"


/* The achievement of collecting an item, -1 for none. */
int crafter_agent_collect_achievement(int item);

/* The action that places a block (stone, table, furnace, plant), -1 for
 * anything else. */
int crafter_agent_block_action(crafter_thing thing);

/* The next action toward the agent's task, or -1 when the task gives it
 * nothing to do now. */
int crafter_agent_task_act(crafter_agent *agent, const view *v);

#endif
