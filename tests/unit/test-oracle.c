/* The scripted agent as an oracle of instruction tasks (crafter-task(5)):
 * given a task it works toward the goal, and on generated worlds it meets
 * goals of every family, far more often than the random agent does; it
 * never unlocks an achievement a goal says to avoid; and without a task
 * it plays exactly as it always has (the actions below were recorded
 * before it could take tasks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/tasks.h"
#include "tap.h"
#include "tools/agents.h"

/* Goals of each family, as a task file. */
#define TASK(id, family, check)                                              \
  "  - {id: " id ", family: " family ", check: " check ", instruction: x,\n" \
  "     paraphrases: [a, b, c, d, e], difficulty: easy, split: train}\n"

static const char tasks_text[] =
    "version: 1\n"
    "tasks:\n"
    TASK("a.wood_table", "achievements", "{unlock: [collect_wood, place_table], avoid: [eat_cow]}")
    TASK("a.stone_pickaxe", "achievements", "{unlock: [make_stone_pickaxe], avoid: [collect_drink]}")
    TASK("a.drink_plant_cow", "achievements", "{unlock: [collect_drink, place_plant, eat_cow]}")
    TASK("a.furnace_coal", "achievements",
         "{unlock: [place_furnace, collect_coal], avoid: [make_wood_sword, place_stone]}")
    TASK("a.iron_pickaxe", "achievements", "{unlock: [make_iron_pickaxe], avoid: [wake_up]}")
    TASK("l.table_water", "localization",
         "{object: table, target: water, side: left, distance: 2, placed: true}")
    TASK("l.stone_tree", "localization",
         "{object: stone, target: tree, side: right, distance: 1, placed: true}")
    TASK("l.plant_tree", "localization",
         "{object: plant, target: tree, side: down, distance: 1, placed: true}")
    TASK("l.stone_table", "localization",
         "{object: stone, target: table, side: up, distance: 3, placed: true}")
    TASK("l.furnace_table", "localization",
         "{object: furnace, target: table, side: right, distance: 4, placed: true}")
    TASK("c.stone", "conditional", "{item: stone, threshold: 2, object: stone, count: 3}")
    TASK("c.sapling", "conditional", "{item: sapling, threshold: 1, object: plant, count: 2}")
    TASK("c.wood_trees", "conditional", "{item: wood, threshold: 2, object: tree, count: 6}")
    TASK("c.drink_water", "conditional", "{item: drink, threshold: 6, object: water, count: 5}")
    TASK("n.stone", "line", "{block: stone, length: 4}")
    TASK("n.table", "line", "{block: table, length: 2}")
    TASK("n.plant", "line", "{block: plant, length: 2}")
    TASK("n.stone_diagonal", "line", "{block: stone, length: 3, diagonal: true}")
    TASK("s.stone2", "square", "{block: stone, size: 2}")
    TASK("s.stone3", "square", "{block: stone, size: 3}")
    TASK("s.table1", "square", "{block: table, size: 1}")
    TASK("x.stone", "cross", "{block: stone, length: 1}")
    TASK("x.star", "cross", "{block: stone, length: 1, diagonal: true}")
    TASK("x.stone2", "cross", "{block: stone, length: 2}")
    TASK("t.table_night", "timed", "{block: table, radius: 3, daylight: [0, 0.25]}")
    TASK("t.stone_noon", "timed", "{block: stone, radius: 2, daylight: [0.97, 1]}")
    TASK("t.plant_dusk", "timed", "{block: plant, radius: 1, daylight: [0.3, 0.5]}")
    TASK("e.water", "explore", "{target: water, distance: 1}")
    TASK("e.iron", "explore", "{target: iron, distance: 2}")
    TASK("e.diamond", "explore", "{target: diamond, distance: 3}")
    TASK("e.table", "explore", "{target: table, distance: 1}");

#define SEEDS 6
#define STEP_CAP 1000

static crafter_task_set set;
static crafter_task_tracker tracker;

/* The scripted agent's first actions without a task on the Env of seed 7
 * (default parameters), episodes 1 and 2, as 'a' + action: recorded with
 * the agent before tasks were added.  The player dies at step 249 of the
 * first. */
static const char *const recorded[2] = {
    "fffffffffffffffffffkcccdfeefeefbefbefbbefbfefilobfbebeeeebecefefccdddddm"
    "cfpdfhfcfcefcefbjccefefcefcfbbbbdccdccccdddcfffffbbbbbffbbcccccceeececcc"
    "cffeeeebecefcccccbeecbbbbefefedhgaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaacdcdfdcffcffffff",
    "fkcccccdfcdfdfbdfbddfccdfcdfbdfilocfmcfbpcdfhfcdfefecfbfbbdjccefcfefcefb"
    "bbbdcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbbbbbbddddddfffffccceeeejdcccdfdfcfccdf"
    "dccccdcdbdfbfbfbfbfbbcccefeeeefefedhgaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabfffbfdfbdfbfbbbdbffccfcccdcdcbd"
    "dbbbdcdfbbbb"};

/* Starts the env's next episode with the agent (and the tracker on `task`;
 * the agent is told of it when `told`). */
static int begin(crafter_env *env, crafter_agent *agent, const crafter_task *task, int told) {
  if (crafter_env_reset(env) < 0) return -1;
  crafter_agent_reset(agent, env);
  if (task && crafter_task_begin(&tracker, task, env, 0) < 0) return -1;
  if (told) crafter_agent_set_task(agent, task, &tracker);
  return 0;
}

/* Plays the episode out: 1 when the goal is met, in *steps the steps. */
static int play(crafter_env *env, crafter_agent *agent, long *steps) {
  crafter_step_result result = {0};
  long t = 0;
  while (!tracker.met && !result.done && t < STEP_CAP) {
    int action = crafter_agent_act(agent, env, 0);
    crafter_env_step(env, action, &result);
    crafter_task_observe(&tracker, env, 0, action);
    t++;
  }
  *steps = t;
  return tracker.met;
}

/* Up to `count` actions of an episode as 'a' + action into out (NUL
 * ended). */
static void actions(crafter_env *env, crafter_agent *agent, int count, char *out) {
  crafter_step_result result = {0};
  int t = 0;
  for (; t < count && !result.done; t++) {
    int action = crafter_agent_act(agent, env, 0);
    out[t] = (char)('a' + action);
    crafter_env_step(env, action, &result);
  }
  out[t] = '\0';
}

static crafter_env *new_env(long seed) {
  static crafter_env env;
  crafter_params params;
  crafter_params_default(&params);
  params.seed = seed;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0) {
    printf("# %s\n", error);
    return NULL;
  }
  return &env;
}

static void without_task(void) {
  crafter_params params;
  crafter_params_default(&params);
  crafter_agent *agent = crafter_agent_new(CRAFTER_AGENT_SCRIPTED, &params);
  crafter_env *env = new_env(7);
  if (!agent || !env) {
    ok(0, "an env and an agent");
    return;
  }
  char got[2][512];
  /* As recorded: no task ever given... */
  for (int episode = 0; episode < 2; episode++) {
    begin(env, agent, NULL, 0);
    actions(env, agent, 300, got[episode]);
  }
  ok(strcmp(got[0], recorded[0]) == 0 && strcmp(got[1], recorded[1]) == 0,
     "without a task the scripted agent's actions are those recorded before tasks");
  /* ... the task given as NULL ... */
  crafter_env_set_next_episode(env, 1);
  int same = 1;
  for (int episode = 0; episode < 2; episode++) {
    begin(env, agent, NULL, 1);
    actions(env, agent, 300, got[episode]);
    same &= strcmp(got[episode], recorded[episode]) == 0;
  }
  ok(same, "... and with the task set to NULL");
  /* ... and after an episode with a task: reset forgets it. */
  crafter_env_set_next_episode(env, 1);
  begin(env, agent, &set.tasks[crafter_task_find(&set, "n.stone")], 1);
  long steps;
  play(env, agent, &steps);
  crafter_env_set_next_episode(env, 2);
  begin(env, agent, NULL, 0);
  actions(env, agent, 300, got[1]);
  ok(steps > 0 && strcmp(got[1], recorded[1]) == 0,
     "... and after an episode with a task (reset forgets it)");
  crafter_env_fini(env);
  crafter_agent_free(agent);

  /* The random agent ignores tasks. */
  agent = crafter_agent_new(CRAFTER_AGENT_RANDOM, &params);
  env = new_env(7);
  if (!agent || !env) return;
  char told[512], untold[512];
  begin(env, agent, &set.tasks[0], 1);
  actions(env, agent, 300, told);
  crafter_env_set_next_episode(env, 1);
  begin(env, agent, NULL, 0);
  actions(env, agent, 300, untold);
  ok(strcmp(told, untold) == 0, "the random agent plays the same with a task or without");
  crafter_env_fini(env);
  crafter_agent_free(agent);
}

/* Each agent on each task over SEEDS worlds: successes, steps, and
 * achievements unlocked that the task said to avoid. */
static void score(int kind, int *met, long *steps, int *violations) {
  crafter_params params;
  crafter_params_default(&params);
  crafter_agent *agent = crafter_agent_new(kind, &params);
  for (int seed = 0; seed < SEEDS && agent; seed++) {
    crafter_env *env = new_env(100 + seed);
    if (!env) continue;
    for (int i = 0; i < set.count; i++) {
      const crafter_task *task = &set.tasks[i];
      long used = 0;
      /* The same world for every task and both agents. */
      crafter_env_set_next_episode(env, 1);
      if (begin(env, agent, task, 1) < 0) continue;
      met[i] += play(env, agent, &used);
      steps[i] += used;
      if (task->family == CRAFTER_TASK_ACHIEVEMENTS && (env->unlocked[0] & task->check.avoid)) {
        violations[i]++;
        if (kind == CRAFTER_AGENT_SCRIPTED)
          printf("#   %s, Env seed %d: unlocked %#x to avoid\n", task->id, 100 + seed,
                 env->unlocked[0] & task->check.avoid);
      }
    }
    crafter_env_fini(env);
  }
  crafter_agent_free(agent);
}

int main(void) {
  char error[512];
  int status = crafter_tasks_load_string(tasks_text, strlen(tasks_text), "oracle.yaml", &set, error,
                                         sizeof(error));
  ok(status == 0, "the tasks load (%d)", set.count);
  if (status) {
    printf("# %s\n", error);
    return tap_done();
  }
  without_task();

  int *met[2], *violations[2];
  long *steps[2];
  for (int k = 0; k < 2; k++) {
    met[k] = calloc((size_t)set.count, sizeof(int));
    violations[k] = calloc((size_t)set.count, sizeof(int));
    steps[k] = calloc((size_t)set.count, sizeof(long));
    if (!met[k] || !violations[k] || !steps[k]) return 1;
  }
  score(CRAFTER_AGENT_SCRIPTED, met[0], steps[0], violations[0]);
  score(CRAFTER_AGENT_RANDOM, met[1], steps[1], violations[1]);
  printf("# goals met in %d worlds (at most %d steps): scripted (mean steps), random\n", SEEDS,
         STEP_CAP);
  for (int i = 0; i < set.count; i++)
    printf("#   %-18s scripted %d/%d (%4ld)  random %d/%d\n", set.tasks[i].id, met[0][i], SEEDS,
           steps[0][i] / SEEDS, met[1][i], SEEDS);
  int avoided = 1;
  for (int i = 0; i < set.count; i++) avoided &= violations[0][i] == 0;
  ok(avoided, "the scripted agent never unlocks an achievement its task says to avoid");
  for (int family = 0; family < CRAFTER_TASK_FAMILY_COUNT; family++) {
    int episodes = 0, scripted = 0, random = 0;
    for (int i = 0; i < set.count; i++)
      if (set.tasks[i].family == family) {
        episodes += SEEDS;
        scripted += met[0][i];
        random += met[1][i];
      }
    const char *name = crafter_task_family_names[family];
    printf("# %-12s scripted %2d/%2d (%3d%%)  random %2d/%2d (%3d%%)\n", name, scripted, episodes,
           episodes ? 100 * scripted / episodes : 0, random, episodes,
           episodes ? 100 * random / episodes : 0);
    ok(scripted > 0, "%s: the scripted agent meets a goal", name);
    ok(scripted >= 2 * random + episodes / 4,
       "%s: the random agent meets clearly fewer (%d against %d of %d)", name, random, scripted,
       episodes);
  }
  for (int k = 0; k < 2; k++) {
    free(met[k]);
    free(violations[k]);
    free(steps[k]);
  }
  crafter_task_tracker_free(&tracker);
  crafter_task_set_free(&set);
  return tap_done();
}
