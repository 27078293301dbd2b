#include "tools/agents.h"

#include <stdlib.h>
#include <string.h>

#include "tools/agents_moves.h"
#include "tools/agents_oracle.h"
#include "tools/agents_scripted.h"

static const char *const agent_names[CRAFTER_AGENT_COUNT] = {"random", "scripted"};

const char *crafter_agent_name(int kind) {
  return kind >= 0 && kind < CRAFTER_AGENT_COUNT ? agent_names[kind] : "unknown";
}

int crafter_agent_from_name(const char *name) {
  for (int i = 0; i < CRAFTER_AGENT_COUNT; i++)
    if (strcmp(name, agent_names[i]) == 0) return i;
  return -1;
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
    agent->mask = malloc(cells);
    agent->mark = malloc(cells);
    agent->sum = malloc(((size_t)agent->width + 1) * ((size_t)agent->height + 1) * sizeof(int32_t));
    if (!agent->distance || !agent->parent || !agent->queue || !agent->mask || !agent->mark ||
        !agent->sum) {
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
  free(agent->mask);
  free(agent->mark);
  free(agent->sum);
  free(agent);
}

void crafter_agent_reseed(crafter_agent *agent, uint64_t world_seed, uint64_t play) {
  uint64_t mixed = (world_seed + 0x9e3779b97f4a7c15ULL * play) * 0xbf58476d1ce4e5b9ULL;
  crafter_rng_seed(&agent->rng, (uint32_t)(mixed >> 32));
}

void crafter_agent_reset(crafter_agent *agent, const crafter_env *env) {
  /* world seeds are below 2**31 - 1, so this stays below 2**32 and apart
   * from every world seed. */
  crafter_rng_seed(&agent->rng, (uint32_t)(env->world_seed + 2147483648LL));
  agent->drinking = agent->eating = 0;
  agent->stuck_steps = 0;
  agent->pocket = 0;
  agent->task = NULL;
  agent->tracker = NULL;
  agent->avoid = 0;
  agent->hold_item = -1;
  agent->keeping = 0;
  if (agent->kind == CRAFTER_AGENT_SCRIPTED) {
    crafter_config *rules = malloc(sizeof(*rules));
    if (rules) {
      if (env->game.config)
        *rules = *env->game.config;
      else
        crafter_config_default(rules);
      agent->table_wood = crafter_agent_amount_used(
          &rules->place[CRAFTER_PLACE_TABLE - CRAFTER_PLACE_STONE], CRAFTER_WOOD);
      agent->furnace_stone = crafter_agent_amount_used(
          &rules->place[CRAFTER_PLACE_FURNACE - CRAFTER_PLACE_STONE], CRAFTER_ITEM_STONE);
      free(rules);
    }
    if (agent->table_wood < 1) agent->table_wood = 1;
    if (agent->furnace_stone < 1) agent->furnace_stone = 1;
    if (agent->table_wood > 9) agent->table_wood = 9;
    if (agent->furnace_stone > 9) agent->furnace_stone = 9;
  }
}

/* The achievements an action may unlock in the present state. */
static uint32_t unlocks(const view *v, int action) {
  if (action == CRAFTER_SLEEP) return 1u << CRAFTER_WAKE_UP;
  if (action >= CRAFTER_PLACE_STONE && action <= CRAFTER_PLACE_PLANT)
    return 1u << crafter_place_achievement[action - CRAFTER_PLACE_STONE];
  if (action >= CRAFTER_MAKE_WOOD_PICKAXE && action <= CRAFTER_MAKE_IRON_SWORD)
    return 1u << crafter_make_achievement[action - CRAFTER_MAKE_WOOD_PICKAXE];
  if (action != CRAFTER_DO) return 0;
  int x = v->x + directions[v->facing][0], y = v->y + directions[v->facing][1];
  if (!crafter_world_inside(v->world, x, y)) return 0;
  const crafter_object *object = object_at(v, x, y);
  if (object) {
    switch (object->kind) {
      case CRAFTER_COW: return 1u << CRAFTER_EAT_COW;
      case CRAFTER_ZOMBIE: return 1u << CRAFTER_DEFEAT_ZOMBIE;
      case CRAFTER_SKELETON: return 1u << CRAFTER_DEFEAT_SKELETON;
      case CRAFTER_PLANT: return 1u << CRAFTER_EAT_PLANT;
      default: return 0;
    }
  }
  const crafter_collect_rule *rule = &v->env->config->collect[material_at(v, x, y)];
  uint32_t bits = 0;
  for (int i = 0; rule->present && i < rule->receive_count; i++) {
    int achievement = crafter_agent_collect_achievement(rule->receive[i].item);
    if (achievement >= 0) bits |= 1u << achievement;
  }
  return bits;
}

static void make_view(const crafter_agent *agent, const crafter_env *env, int player, view *v) {
  v->env = env;
  v->world = &env->game.world;
  v->index = player;
  v->player = crafter_game_player_const(&env->game, player);
  v->x = crafter_game_body(&env->game, player)->x;
  v->y = crafter_game_body(&env->game, player)->y;
  v->facing = direction_index(v->player->facing_x, v->player->facing_y);
  v->inventory = v->player->inventory;
  v->avoid = agent->task ? agent->avoid : 0;
  v->placed = agent->task && agent->tracker ? agent->tracker->placed : NULL;
  v->keeping = agent->task ? agent->keeping : 0;
  v->keep = agent->keep;
  v->mask = agent->mask;
}

static int scripted_act(crafter_agent *agent, const crafter_env *env, int player) {
  view v;
  make_view(agent, env, player, &v);
  const int32_t *inv = v.inventory;
  const int32_t *done = v.player->achievements;
  if (v.player->sleeping) return CRAFTER_NOOP;

  /* Fight whatever stands next to us. */
  for (int d = 0; d < 4; d++) {
    const crafter_object *object = object_at(&v, v.x + directions[d][0], v.y + directions[d][1]);
    if (object && ((object->kind == CRAFTER_ZOMBIE && allowed(&v, CRAFTER_DEFEAT_ZOMBIE)) ||
                   (object->kind == CRAFTER_SKELETON && allowed(&v, CRAFTER_DEFEAT_SKELETON))))
      return v.facing == d ? CRAFTER_DO : move_action(d);
  }

  int action, first, face;
  goal g;
  /* Skeletons shoot from afar: fight the ones close by. */
  g = (goal){TARGET_OBJECT, CRAFTER_SKELETON};
  if (allowed(&v, CRAFTER_DEFEAT_SKELETON) && inv[CRAFTER_HEALTH] > 3 &&
      crafter_agent_search(agent, &v, &g, 0, 5, &first, &face) >= 0)
    return crafter_agent_approach(&v, first, face, CRAFTER_DO);
  /* Tired, hurt, or night: sleep walled in where creatures cannot reach. */
  int night = env->game.daylight < 0.3;
  /* A task to be somewhere at a time of day stays out at night. */
  if (agent->task && agent->task->family == CRAFTER_TASK_TIMED) night = 0;
  int may_sleep = allowed(&v, CRAFTER_WAKE_UP) && agent->hold_item != CRAFTER_ENERGY;
  int urgent = inv[CRAFTER_DRINK] <= 2 || inv[CRAFTER_FOOD] <= 2;
  int want_rest = inv[CRAFTER_ENERGY] <= 3 || inv[CRAFTER_HEALTH] <= 3 ||
                  (night && inv[CRAFTER_ENERGY] < 9);
  if (!urgent && crafter_agent_sealed(&v)) {
    agent->pocket = 0;
    if (inv[CRAFTER_ENERGY] < 9 && may_sleep) return CRAFTER_SLEEP;
    if (night || inv[CRAFTER_HEALTH] <= 5) return CRAFTER_NOOP;
  }
  if (!urgent && want_rest && may_sleep && (action = crafter_agent_shelter(agent, &v)) >= 0)
    return action;
  if (inv[CRAFTER_ENERGY] <= 2 && may_sleep) {
    int fx = v.x + directions[v.facing][0], fy = v.y + directions[v.facing][1];
    if (inv[CRAFTER_ITEM_STONE] > 0 && is_free(&v, fx, fy)) return CRAFTER_PLACE_STONE;
    return CRAFTER_SLEEP;
  }
  /* Thirst and hunger first, with some slack: keep at it until full. */
  if (inv[CRAFTER_DRINK] <= 4) agent->drinking = 1;
  if (inv[CRAFTER_DRINK] >= 9) agent->drinking = 0;
  if (inv[CRAFTER_FOOD] <= 4) agent->eating = 1;
  if (inv[CRAFTER_FOOD] >= 9) agent->eating = 0;
  /* An item the task spends is the task's to keep up. */
  if (agent->hold_item == CRAFTER_DRINK) agent->drinking = 0;
  if (agent->hold_item == CRAFTER_FOOD) agent->eating = 0;
  if (agent->drinking && allowed(&v, CRAFTER_COLLECT_DRINK)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_WATER};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (agent->eating) {
    g = (goal){TARGET_RIPE_PLANT, CRAFTER_PLANT};
    if (allowed(&v, CRAFTER_EAT_PLANT) &&
        (action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0)
      return action;
    g = (goal){TARGET_OBJECT, CRAFTER_COW};
    if (allowed(&v, CRAFTER_EAT_COW) &&
        (action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0)
      return action;
  }

  /* The task's goal; the technology tree when it has nothing to do. */
  if (agent->task && (action = crafter_agent_task_act(agent, &v)) >= 0) return action;

  int have_wood_pickaxe = inv[CRAFTER_WOOD_PICKAXE] > 0, have_stone_pickaxe = inv[CRAFTER_STONE_PICKAXE] > 0;
  int have_iron_pickaxe = inv[CRAFTER_IRON_PICKAXE] > 0;
  int tools_wood = !have_wood_pickaxe + (inv[CRAFTER_WOOD_SWORD] == 0) + !have_stone_pickaxe +
                   (inv[CRAFTER_STONE_SWORD] == 0) + !have_iron_pickaxe + (inv[CRAFTER_IRON_SWORD] == 0);
  int tools_stone = !have_stone_pickaxe + (inv[CRAFTER_STONE_SWORD] == 0);
  int iron_tools = !have_iron_pickaxe + (inv[CRAFTER_IRON_SWORD] == 0);

  /* A sapling, early: plants cost little and give two achievements. */
  int ahead_x = v.x + directions[v.facing][0], ahead_y = v.y + directions[v.facing][1];
  if (!done[CRAFTER_COLLECT_SAPLING] && allowed(&v, CRAFTER_COLLECT_SAPLING) &&
      is_free(&v, ahead_x, ahead_y) &&
      material_at(&v, ahead_x, ahead_y) == CRAFTER_GRASS)
    return CRAFTER_DO;
  if (!done[CRAFTER_PLACE_PLANT_ACH] && inv[CRAFTER_SAPLING] > 0 &&
      allowed(&v, CRAFTER_PLACE_PLANT_ACH))
    return crafter_agent_place(agent, &v, CRAFTER_PLACE_PLANT, 1, 0);

  /* Crafting at a table (and furnace) within reach. */
  int near_table =
      crafter_agent_search(agent, &v, &(goal){TARGET_NEAR_TABLE, 0}, 0, 0, &first, &face) == 0;
  int near_both =
      crafter_agent_search(agent, &v, &(goal){TARGET_NEAR_BOTH, 0}, 0, 0, &first, &face) == 0;
  if (near_table) {
    if (!have_wood_pickaxe && inv[CRAFTER_WOOD] >= 1 && allowed(&v, CRAFTER_MAKE_WOOD_PICKAXE_ACH))
      return CRAFTER_MAKE_WOOD_PICKAXE;
    if (inv[CRAFTER_WOOD_SWORD] == 0 && inv[CRAFTER_WOOD] >= 1 &&
        allowed(&v, CRAFTER_MAKE_WOOD_SWORD_ACH))
      return CRAFTER_MAKE_WOOD_SWORD;
    if (!have_stone_pickaxe && inv[CRAFTER_WOOD] >= 1 && inv[CRAFTER_ITEM_STONE] >= 1 &&
        allowed(&v, CRAFTER_MAKE_STONE_PICKAXE_ACH))
      return CRAFTER_MAKE_STONE_PICKAXE;
    if (inv[CRAFTER_STONE_SWORD] == 0 && inv[CRAFTER_WOOD] >= 1 && inv[CRAFTER_ITEM_STONE] >= 1 &&
        allowed(&v, CRAFTER_MAKE_STONE_SWORD_ACH))
      return CRAFTER_MAKE_STONE_SWORD;
    if (near_both) {
      int ready = inv[CRAFTER_WOOD] >= 1 && inv[CRAFTER_ITEM_COAL] >= 1 && inv[CRAFTER_ITEM_IRON] >= 1;
      if (!have_iron_pickaxe && ready && allowed(&v, CRAFTER_MAKE_IRON_PICKAXE_ACH))
        return CRAFTER_MAKE_IRON_PICKAXE;
      if (inv[CRAFTER_IRON_SWORD] == 0 && ready && allowed(&v, CRAFTER_MAKE_IRON_SWORD_ACH))
        return CRAFTER_MAKE_IRON_SWORD;
    } else if (have_stone_pickaxe && inv[CRAFTER_ITEM_STONE] >= agent->furnace_stone &&
               allowed(&v, CRAFTER_PLACE_FURNACE_ACH)) {
      return crafter_agent_place(agent, &v, CRAFTER_PLACE_FURNACE, 0, 1);
    }
  }

  /* Gather what the next tools need. */
  int table_reachable =
      crafter_agent_search(agent, &v, &(goal){TARGET_NEAR_TABLE, 0}, 0, 24, &first, &face) >= 0;
  int wood_wanted = tools_wood + (table_reachable ? 0 : agent->table_wood);
  if (wood_wanted > 9) wood_wanted = 9;
  if (inv[CRAFTER_WOOD] < wood_wanted && !(table_reachable && inv[CRAFTER_WOOD] >= 1 &&
                                           !have_wood_pickaxe) &&
      allowed(&v, CRAFTER_COLLECT_WOOD)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_TREE};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (!table_reachable && inv[CRAFTER_WOOD] >= agent->table_wood &&
      allowed(&v, CRAFTER_PLACE_TABLE_ACH))
    return crafter_agent_place(agent, &v, CRAFTER_PLACE_TABLE, 0, 0);

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
    if (both && crafter_agent_search(agent, &v, &g, 0, 24, &first, &face) < 0)
      g.kind = TARGET_NEAR_TABLE;
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_NOOP)) >= 0 && action != CRAFTER_NOOP)
      return action;
  }

  if (have_wood_pickaxe) {
    int stone_wanted = tools_stone + (near_both ? 0 : agent->furnace_stone) + STONE_RESERVE;
    if (stone_wanted > 9) stone_wanted = 9;
    if (!done[CRAFTER_PLACE_STONE_ACH] && inv[CRAFTER_ITEM_STONE] > 0 &&
        allowed(&v, CRAFTER_PLACE_STONE_ACH))
      return crafter_agent_place(agent, &v, CRAFTER_PLACE_STONE, 0, 0);
    if (inv[CRAFTER_ITEM_STONE] < stone_wanted && allowed(&v, CRAFTER_COLLECT_STONE)) {
      g = (goal){TARGET_MATERIAL, CRAFTER_STONE};
      if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
    }
    if (inv[CRAFTER_ITEM_COAL] < iron_tools && allowed(&v, CRAFTER_COLLECT_COAL)) {
      g = (goal){TARGET_MATERIAL, CRAFTER_COAL};
      if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
    }
  }
  if (have_stone_pickaxe && inv[CRAFTER_ITEM_IRON] < iron_tools &&
      allowed(&v, CRAFTER_COLLECT_IRON)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_IRON};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (have_iron_pickaxe && allowed(&v, CRAFTER_COLLECT_DIAMOND)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_DIAMOND};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  /* Nothing better to do: drink, eat, look for a sapling in the grass. */
  if (inv[CRAFTER_DRINK] < 9 && allowed(&v, CRAFTER_COLLECT_DRINK)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_WATER};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (inv[CRAFTER_FOOD] < 6 && allowed(&v, CRAFTER_EAT_COW)) {
    g = (goal){TARGET_OBJECT, CRAFTER_COW};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  if (!done[CRAFTER_COLLECT_SAPLING] && allowed(&v, CRAFTER_COLLECT_SAPLING)) {
    g = (goal){TARGET_MATERIAL, CRAFTER_GRASS};
    if ((action = crafter_agent_pursue(agent, &v, &g, CRAFTER_DO)) >= 0) return action;
  }
  agent->stuck_steps++;
  return move_action((int)crafter_rng_randint(&agent->rng, 0, 4));
}

int crafter_agent_act(crafter_agent *agent, const crafter_env *env, int player) {
  if (agent->kind != CRAFTER_AGENT_SCRIPTED)
    return (int)crafter_rng_randint(&agent->rng, 0, CRAFTER_ACTION_COUNT);
  int action = scripted_act(agent, env, player);
  if (agent->task && agent->avoid) {
    /* Whatever led here, never unlock an achievement to avoid: step aside. */
    view v;
    make_view(agent, env, player, &v);
    if (unlocks(&v, action) & agent->avoid) {
      int d = (int)crafter_rng_randint(&agent->rng, 0, 4);
      int lava = material_at(&v, v.x + directions[d][0], v.y + directions[d][1]) == CRAFTER_LAVA;
      action = lava ? CRAFTER_NOOP : move_action(d);
    }
  }
  return action;
}

void crafter_agent_set_task(crafter_agent *agent, const crafter_task *task,
                            const crafter_task_tracker *tracker) {
  agent->task = NULL;
  agent->tracker = NULL;
  agent->avoid = 0;
  agent->hold_item = -1;
  agent->keeping = 0;
  agent->stocking = 0;
  agent->site = 0;
  agent->site_wait = 0;
  agent->rejected_count = 0;
  if (!task || agent->kind != CRAFTER_AGENT_SCRIPTED) return;
  agent->task = task;
  agent->tracker = tracker;
  const crafter_task_check *c = &task->check;
  crafter_thing keep = c->object;
  switch (task->family) {
    case CRAFTER_TASK_ACHIEVEMENTS: agent->avoid = c->avoid; return;
    case CRAFTER_TASK_LOCALIZATION:
      if (crafter_agent_block_action(keep) < 0) keep = c->target;
      break;
    case CRAFTER_TASK_CONDITIONAL:
      if (c->item == CRAFTER_DRINK || c->item == CRAFTER_FOOD || c->item == CRAFTER_ENERGY)
        agent->hold_item = c->item;
      break;
    case CRAFTER_TASK_EXPLORE: return;
    default: break;
  }
  if (crafter_agent_block_action(keep) >= 0) {
    agent->keeping = 1;
    agent->keep = keep;
  }
}
