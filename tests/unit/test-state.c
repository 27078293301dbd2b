/* Saved states (state.h, crafter-state(5)): a runner loaded with the
 * state of another goes on exactly as that one does under the same
 * actions -- every record, every observation, the whole state -- from
 * states saved at random points, at night, with several players, with
 * goals, on levels, after a death, across the end of the episode and the
 * next ones; a state of other parameters is refused with the reason, one
 * whose header holds what no env has (a reward field of 2, a reserved
 * byte set) or whose next level is not one of the set's with words that
 * say so; and
 * a damaged state is refused without touching the runner (every byte
 * flipped, every cut), or, with its checksum made right again, loads or
 * is refused but never crashes.
 *
 * Usage: test-state TASK-FILE (the goals: the project's suite). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "run/batch.h"
#include "run/episode.h"
#include "run/levels.h"
#include "run/proto.h"
#include "run/state.h"
#include "run/worldfile.h"
#include "tap.h"
#include "view/textures.h"

static crafter_textures textures;
static crafter_task_set task_set;
static crafter_task_pool pool;
static char error[512];

/* xorshift64*: the actions of a test, the same every run. */
static uint64_t draws = 0x2545f4914f6cdd1dULL;
static int draw_action(void) {
  draws ^= draws >> 12, draws ^= draws << 25, draws ^= draws >> 27;
  return (int)((draws * 0x2545F4914F6CDD1DULL >> 33) % CRAFTER_ACTION_COUNT);
}

static crafter_episode_options base_options(void) {
  crafter_episode_options options;
  memset(&options, 0, sizeof(options));
  crafter_params_default(&options.params);
  options.params.seed = 11;
  options.params.length = 400;
  options.first_episode = 1;
  options.obs_kind = CRAFTER_OBS_PIXELS;
  options.textures = &textures;
  options.level_envs = 1;
  options.players = 1;
  return options;
}

static crafter_episode *runner(const crafter_episode_options *options, int index) {
  crafter_episode *e = crafter_episode_new(options, index, NULL, error, sizeof(error));
  if (e && crafter_episode_start(e, NULL, error, sizeof(error)) < 0) {
    crafter_episode_free(e);
    return NULL;
  }
  if (!e) printf("# %s\n", error);
  return e;
}

/* A state, saved into a new buffer. */
static uint8_t *saved(crafter_episode *e, size_t *size) {
  *size = crafter_state_save_episode(e, NULL, 0);
  uint8_t *state = malloc(*size);
  if (!state || crafter_state_save_episode(e, state, *size) != *size) abort();
  return state;
}

/* One step of every player, the next episode started when the world's
 * ended (as crafter-step does without --manual-reset). */
static void advance(crafter_episode *e, const int *actions, crafter_step_outcome *records) {
  crafter_episode_step_players(e, actions, records);
  if (records[0].over && crafter_episode_start(e, NULL, error, sizeof(error)) < 0) abort();
}

static int same_records(const crafter_step_outcome *a, const crafter_step_outcome *b, int players) {
  for (int p = 0; p < players; p++)
    if (a[p].reward != b[p].reward || a[p].info_reward != b[p].info_reward ||
        a[p].unlocked != b[p].unlocked || a[p].goal != b[p].goal || a[p].done != b[p].done ||
        a[p].discount != b[p].discount || a[p].finished != b[p].finished ||
        a[p].over != b[p].over)
      return 0;
  return 1;
}

/* Whether two runners are in the same state: their saved bytes, their
 * observations, and what the records are written from. */
static int same_runners(crafter_episode *a, crafter_episode *b) {
  size_t size_a, size_b, obs_a, obs_b;
  uint8_t *state_a = saved(a, &size_a), *state_b = saved(b, &size_b);
  int same = size_a == size_b && memcmp(state_a, state_b, size_a) == 0;
  free(state_a);
  free(state_b);
  for (int p = 0; p < crafter_episode_players(a); p++) {
    /* A text's bytes up to its length: the buffer's tail is old text. */
    const uint8_t *view_a = crafter_episode_observe_player(a, p, &obs_a);
    const uint8_t *view_b = crafter_episode_observe_player(b, p, &obs_b);
    same &= obs_a == obs_b && memcmp(view_a, view_b, obs_a) == 0;
    same &= crafter_episode_player_done(a, p) == crafter_episode_player_done(b, p);
    same &= crafter_episode_player_task(a, p) == crafter_episode_player_task(b, p);
    same &= crafter_episode_player_text(a, p) == crafter_episode_player_text(b, p);
  }
  const crafter_env *env_a = crafter_episode_env_const(a), *env_b = crafter_episode_env_const(b);
  same &= crafter_episode_ended(a) == crafter_episode_ended(b) &&
          crafter_episode_level(a) == crafter_episode_level(b) &&
          env_a->episode == env_b->episode && env_a->world_seed == env_b->world_seed &&
          env_a->params.seed == env_b->params.seed;
  return same;
}

typedef struct coverage {
  int night, dead, ended_episodes, met, saves;
} coverage;

/* From a runner of `options`, saves at steps spread over `total` steps
 * (at night too); each state goes into a fresh runner of another seed,
 * and both play `follow` steps of the same actions, compared at every
 * step.  Returns whether every comparison held. */
static int continues(const crafter_episode_options *options, int total, int follow, int kill_at,
                     coverage *seen) {
  crafter_episode *original = runner(options, 0);
  if (!original) return 0;
  int players = crafter_episode_players(original);
  int all_same = 1, want_night = 1;
  crafter_env *env = crafter_episode_env(original);
  for (int t = 0; t < total && all_same; t++) {
    int actions[CRAFTER_PLAYERS_MAX];
    crafter_step_outcome records[CRAFTER_PLAYERS_MAX];
    if (kill_at >= 0 && t >= kill_at && players > 1) { /* player 1 dies at the next step */
      env->game.players[1].inventory[CRAFTER_HEALTH] = 0;
      kill_at = -1;
    }
    for (int p = 0; p < players; p++) actions[p] = draw_action();
    advance(original, actions, records);
    int night = env->game.daylight < 0.5;
    int dead = 0;
    for (int p = 0; p < players; p++) dead |= crafter_game_body_slot(&env->game, p) < 0;
    if (!(t % 97 == 13 || (night && want_night) || (dead && !seen->dead))) continue;
    want_night &= !night;
    seen->night |= night;
    seen->dead |= dead;
    seen->saves++;
    size_t size;
    uint8_t *state = saved(original, &size);
    crafter_episode *copy = runner(options, 5);
    if (!copy || crafter_state_load_episode(copy, state, size, error, sizeof(error)) < 0) {
      printf("# step %d: %s\n", t, error);
      free(state);
      crafter_episode_free(copy);
      crafter_episode_free(original);
      return 0;
    }
    free(state);
    all_same &= same_runners(original, copy);
    for (int k = 0; k < follow && all_same; k++, t++) {
      crafter_step_outcome mine[CRAFTER_PLAYERS_MAX], theirs[CRAFTER_PLAYERS_MAX];
      for (int p = 0; p < players; p++) actions[p] = draw_action();
      advance(original, actions, mine);
      advance(copy, actions, theirs);
      if (!same_records(mine, theirs, players) || !same_runners(original, copy)) {
        printf("# saved at step %d, %d steps on: the copy went otherwise\n", t - k, k + 1);
        all_same = 0;
      }
      seen->ended_episodes += mine[0].over;
      for (int p = 0; p < players; p++) seen->met += mine[p].goal;
    }
    crafter_episode_free(copy);
  }
  crafter_episode_free(original);
  return all_same;
}

static void test_continues(void) {
  crafter_episode_options options = base_options();
  coverage seen = {0};
  ok(continues(&options, 1500, 300, -1, &seen) && seen.night && seen.ended_episodes > 0,
     "one player, pixels: a copy from a state goes on exactly as the original, %d states "
     "(at night: %d), %d episode ends",
     seen.saves, seen.night, seen.ended_episodes);

  options = base_options();
  options.players = 4;
  options.params.length = 300;
  options.tasks = &pool;
  memset(&seen, 0, sizeof(seen));
  ok(continues(&options, 1200, 250, 40, &seen) && seen.night && seen.dead &&
         seen.ended_episodes > 0,
     "four players, goals, pixels: %d states (at night %d, after a death %d), %d episode ends, "
     "%d goals met",
     seen.saves, seen.night, seen.dead, seen.ended_episodes, seen.met);

  options = base_options();
  options.obs_kind = CRAFTER_OBS_SYMBOLIC;
  options.tasks = &pool;
  options.params.length = 250;
  memset(&seen, 0, sizeof(seen));
  ok(continues(&options, 900, 300, -1, &seen) && seen.ended_episodes > 0,
     "symbolic observations with goals: %d states, %d episode ends, %d goals met", seen.saves,
     seen.ended_episodes, seen.met);

  options = base_options();
  options.obs_kind = CRAFTER_OBS_TEXT;
  options.players = 2;
  options.tasks = &pool;
  options.params.length = 200;
  memset(&seen, 0, sizeof(seen));
  ok(continues(&options, 700, 250, 30, &seen) && seen.dead,
     "two players, text observations, a death: %d states", seen.saves);

  crafter_level_set levels;
  options = base_options();
  options.obs_kind = CRAFTER_OBS_SEMANTIC;
  options.params.length = 120;
  if (crafter_levels_generate(&levels, &options.params, NULL, 1, 5, 1, error, sizeof(error)) < 0) {
    ok(0, "levels: %s", error);
    return;
  }
  options.levels = &levels;
  options.level_order = CRAFTER_LEVEL_ORDER_RANDOM;
  memset(&seen, 0, sizeof(seen));
  ok(continues(&options, 800, 300, -1, &seen) && seen.ended_episodes > 1,
     "a level set in random order (the picker's generator): %d states, %d episode ends",
     seen.saves, seen.ended_episodes);
  crafter_levels_free(&levels);
}

/* A plain env's state goes on exactly too (env.h users without a runner). */
static void test_plain_env(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 3;
  crafter_env original, copy;
  if (crafter_env_init(&original, &params, error, sizeof(error)) < 0) abort();
  params.seed = 4;
  if (crafter_env_init(&copy, &params, error, sizeof(error)) < 0) abort();
  crafter_env_reset(&original);
  crafter_env_reset(&copy);
  for (int t = 0; t < 230; t++) {
    crafter_step_result result;
    crafter_env_step(&original, draw_action(), &result);
  }
  size_t size = crafter_state_save(&original, NULL, 0);
  uint8_t *state = malloc(size), *mine = malloc(size + 4096), *theirs = malloc(size + 4096);
  crafter_state_save(&original, state, size);
  int loaded = crafter_state_load(&copy, state, size, error, sizeof(error)) == 0;
  int same = loaded;
  for (int t = 0; t < 400 && same; t++) {
    crafter_step_result a, b;
    int action = draw_action();
    crafter_env_step(&original, action, &a);
    crafter_env_step(&copy, action, &b);
    if (a.done) {
      crafter_env_reset(&original);
      crafter_env_reset(&copy);
    }
    size_t size_a = crafter_state_save(&original, mine, size + 4096);
    size_t size_b = crafter_state_save(&copy, theirs, size + 4096);
    same = a.reward == b.reward && a.done == b.done && a.unlocked == b.unlocked &&
           size_a == size_b && memcmp(mine, theirs, size_a) == 0;
  }
  ok(same, "a plain env (no runner) goes on exactly from its state, night and reset included%s%s",
     loaded ? "" : ": ", loaded ? "" : error);
  free(state);
  free(mine);
  free(theirs);
  crafter_env_fini(&original);
  crafter_env_fini(&copy);
}

/* Loads `state` into a runner of `options` and expects a refusal whose
 * reason names `word`, the runner untouched. */
static void refused(const crafter_episode_options *options, const uint8_t *state, size_t size,
                    const char *word, const char *what) {
  crafter_episode *target = runner(options, 2);
  if (!target) {
    ok(0, "%s: %s", what, error);
    return;
  }
  size_t before_size, after_size;
  uint8_t *before = saved(target, &before_size);
  error[0] = '\0';
  int status = crafter_state_load_episode(target, state, size, error, sizeof(error));
  uint8_t *after = saved(target, &after_size);
  ok(status < 0 && strstr(error, word) && before_size == after_size &&
         memcmp(before, after, before_size) == 0,
     "%s is refused, the runner untouched: %s", what, error);
  free(before);
  free(after);
  crafter_episode_free(target);
}

static void test_mismatch(void) {
  crafter_episode_options options = base_options();
  crafter_episode *source = runner(&options, 0);
  size_t size;
  uint8_t *state = saved(source, &size);
  crafter_episode_options other = options;
  other.params.area[0] = other.params.area[1] = 48;
  refused(&other, state, size, "area", "a state of another area");
  other = options;
  other.params.view[0] = other.params.view[1] = 7;
  refused(&other, state, size, "view", "a state of another view");
  other = options;
  other.params.size[0] = other.params.size[1] = 90;
  refused(&other, state, size, "size", "a state of another size");
  other = options;
  other.params.length = 999;
  refused(&other, state, size, "length", "a state of another length");
  other = options;
  other.params.reward = 0;
  refused(&other, state, size, "reward", "a state of reward on into reward off");
  other = options;
  other.players = 2;
  refused(&other, state, size, "player", "a state of one player into a game of two");
  crafter_config config;
  crafter_config_default(&config);
  config.day_length = 200;
  other = options;
  other.config = &config;
  refused(&other, state, size, "rules", "a state of Crafter's rules into another configuration");
  other = options;
  other.tasks = &pool;
  refused(&other, state, size, "goals", "a state without goals into a runner with goals");
  other = options;
  other.obs_kind = CRAFTER_OBS_NONE;
  crafter_episode *bare = runner(&other, 1);
  int loaded = bare && crafter_state_load_episode(bare, state, size, error, sizeof(error)) == 0;
  ok(loaded, "the observation kind may differ (pixels into none)%s%s", loaded ? "" : ": ",
     loaded ? "" : error);
  crafter_episode_free(bare);
  crafter_env plain;
  if (crafter_env_init(&plain, &options.params, error, sizeof(error)) < 0) abort();
  crafter_env_reset(&plain);
  ok(crafter_state_load(&plain, state, size, error, sizeof(error)) < 0 &&
         strstr(error, "runner"),
     "a runner's state into a plain env is refused: %s", error);
  crafter_env_fini(&plain);

  /* The textures are not the game's: a state drawn with the built-in
   * ones loads where others are used, its pictures as they were. */
  crafter_episode_free(source);
  free(state);
}

/* `state` with the u32 at `offset` set to `value` and its checksum made
 * right again: a state that passes the frame's checks and must be
 * refused by its values.  Loaded into a runner of `options`, its reason
 * must hold `words`, the runner untouched. */
static void refused_with(const crafter_episode_options *options, const uint8_t *state,
                         size_t size, size_t offset, uint32_t value, const char *words,
                         const char *what) {
  uint8_t *copy = malloc(size);
  if (!copy) abort();
  memcpy(copy, state, size);
  crafter_put_u32(copy + offset, value);
  crafter_put_u32(copy + size - 4, crafter_crc32(copy, size - 4));
  refused(options, copy, size, words, what);
  free(copy);
}

/* Where a runner's own fields start in its state: after the header and
 * the env's fields, which a plain env's state of the same env holds
 * before its trailer. */
static size_t runner_fields(crafter_episode *e) {
  return crafter_state_save(crafter_episode_env(e), NULL, 0) - 4;
}

/* Header fields that hold what no env has are named as such, not taken
 * for another env's parameters. */
static void test_header_values(void) {
  crafter_episode_options options = base_options();
  crafter_episode *source = runner(&options, 0);
  size_t size;
  uint8_t *state = saved(source, &size);
  refused_with(&options, state, size, 56, 2,
               "a saved state whose reward field holds 2, neither 0 (off) nor 1 (on)",
               "a reward field of 2");
  refused_with(&options, state, size, 84, 0x100,
               "a saved state whose reserved header byte at offset 85 holds 0x01 (bytes 84 to 95 "
               "are zero)",
               "a reserved header byte set");
  refused_with(&options, state, size, 12, crafter_get_u32(state + 12) | 0x40,
               "a saved state with flags 0x40 this toolkit does not know", "an unknown flag");
  crafter_episode_free(source);
  free(state);
}

/* A runner of one world file refuses the state of a runner of another,
 * and names it in plain words. */
static void test_other_world(void) {
  static const char *maps[2] = {"crafter-world 1\nmap\n.@....\n......\n......\n",
                                "crafter-world 1\nmap\n..@...\n......\n......\n"};
  crafter_world_map map[2];
  for (int k = 0; k < 2; k++)
    if (crafter_world_map_parse(&map[k], maps[k], strlen(maps[k]), "map", error,
                                sizeof(error)) < 0) {
      ok(0, "a world file: %s", error);
      return;
    }
  crafter_episode_options options = base_options(), other;
  options.params.area[0] = 6;
  options.params.area[1] = 3;
  other = options;
  options.world = &map[0];
  other.world = &map[1];
  crafter_episode *source = runner(&options, 0);
  if (!source) {
    ok(0, "a runner on a world file: %s", error);
  } else {
    size_t size;
    uint8_t *state = saved(source, &size);
    refused(&other, state, size,
            "the state was saved with a world file (--world) other than this env's",
            "a state of another world file");
    free(state);
    crafter_episode_free(source);
  }
  for (int k = 0; k < 2; k++) crafter_world_map_free(&map[k]);
}

/* A runner on a level set refuses a state whose next level, or whose
 * picker's next level, is not one of the set's (its count, or beyond),
 * though its checksum is right. */
static void test_level_bounds(void) {
  crafter_level_set levels;
  crafter_episode_options options = base_options();
  options.params.area[0] = options.params.area[1] = 24;
  options.obs_kind = CRAFTER_OBS_SEMANTIC;
  if (crafter_levels_generate(&levels, &options.params, NULL, 1, 3, 1, error, sizeof(error)) < 0) {
    ok(0, "levels: %s", error);
    return;
  }
  options.levels = &levels;
  options.level_order = CRAFTER_LEVEL_ORDER_SEQUENTIAL;
  crafter_episode *source = runner(&options, 0);
  if (!source) {
    ok(0, "a runner on levels: %s", error);
    crafter_levels_free(&levels);
    return;
  }
  size_t size;
  uint8_t *state = saved(source, &size);
  size_t at = runner_fields(source);
  crafter_episode *target = runner(&options, 1);
  int loads = target && crafter_state_load_episode(target, state, size, error, sizeof(error)) == 0;
  ok(loads, "a state of a runner on 3 levels loads into another%s%s", loads ? "" : ": ",
     loads ? "" : error);
  crafter_episode_free(target);
  refused_with(&options, state, size, at + 16, 3,
               "its next level is 3, not one of the set's 3 (0 to 2, or -1: the picker's)",
               "a next level equal to the count of levels");
  refused_with(&options, state, size, at + 16, 7,
               "its next level is 7, not one of the set's 3 (0 to 2, or -1: the picker's)",
               "a next level beyond the count of levels");
  refused_with(&options, state, size, at + 16, (uint32_t)-2,
               "its next level is -2, not one of the set's 3", "a next level below -1");
  refused_with(&options, state, size, at + 28, 3,
               "its level picker's next level is 3, not one of the set's 3 (0 to 2)",
               "a picker's next level equal to the count of levels");
  free(state);
  crafter_episode_free(source);
  crafter_levels_free(&levels);
}

/* A state saved without pixels, loaded where pixels are drawn, at night:
 * the picture is drawn without taking the game's draws, so the game goes
 * on as the one that drew pixels all along. */
static void test_pixels_drawn_on_load(void) {
  crafter_episode_options pixels = base_options(), none = base_options();
  none.obs_kind = CRAFTER_OBS_NONE;
  crafter_episode *drawing = runner(&pixels, 0), *blind = runner(&none, 0);
  int actions[1];
  crafter_step_outcome mine[1], theirs[1];
  int t = 0;
  while (crafter_episode_env(blind)->game.daylight >= 0.5 && t++ < 3000) {
    actions[0] = draw_action() % 2 ? CRAFTER_NOOP : draw_action();
    advance(drawing, actions, mine);
    advance(blind, actions, theirs);
  }
  size_t size;
  uint8_t *state = saved(blind, &size);
  crafter_episode *copy = runner(&pixels, 4);
  int loaded = crafter_state_load_episode(copy, state, size, error, sizeof(error)) == 0;
  int same = loaded && crafter_episode_env(copy)->game.daylight < 0.5;
  for (int k = 0; k < 100 && same; k++) {
    actions[0] = draw_action();
    advance(drawing, actions, mine);
    advance(copy, actions, theirs);
    same = same_records(mine, theirs, 1) && same_runners(drawing, copy);
  }
  ok(same, "a state without pixels loaded at night where pixels are drawn: the game goes on as "
     "the one that drew them all along (%d steps to the night)", t);
  free(state);
  crafter_episode_free(copy);
  crafter_episode_free(drawing);
  crafter_episode_free(blind);
}

/* A damaged state is refused before anything changes. */
static void test_damage(void) {
  crafter_episode_options options = base_options();
  options.params.area[0] = options.params.area[1] = 24;
  options.params.size[0] = options.params.size[1] = 18;
  options.players = 2;
  options.tasks = &pool;
  crafter_episode *source = runner(&options, 0);
  for (int t = 0; t < 60; t++) {
    int actions[2] = {draw_action(), draw_action()};
    crafter_step_outcome records[2];
    advance(source, actions, records);
  }
  size_t size;
  uint8_t *state = saved(source, &size);
  crafter_episode *target = runner(&options, 3);
  size_t before_size;
  uint8_t *before = saved(target, &before_size);
  uint8_t *copy = malloc(size), *after = malloc(before_size + 65536);
  int all_refused = 1, untouched = 1, flips = 0;
  for (size_t at = 0; at < size; at++)
    for (int bit = 0; bit < 8; bit += 3) {
      memcpy(copy, state, size);
      copy[at] ^= (uint8_t)(1u << bit);
      flips++;
      all_refused &= crafter_state_load_episode(target, copy, size, error, sizeof(error)) < 0;
      if (at % 64 == 0 || at + 1 == size) {
        size_t after_size = crafter_state_save_episode(target, after, before_size + 65536);
        untouched &= after_size == before_size && memcmp(before, after, before_size) == 0;
      }
    }
  ok(all_refused && untouched, "every one of %d single-bit flips of a %zu-byte state is refused, "
     "the runner untouched", flips, size);
  int cuts_refused = 1;
  for (size_t cut = 0; cut < size; cut++)
    cuts_refused &= crafter_state_load_episode(target, state, cut, error, sizeof(error)) < 0;
  ok(cuts_refused, "every cut of the state is refused (last: %s)", error);
  memcpy(copy, state, size);
  crafter_put_u32(copy + 8, CRAFTER_STATE_VERSION + 1);
  crafter_put_u32(copy + size - 4, crafter_crc32(copy, size - 4));
  ok(crafter_state_load_episode(target, copy, size, error, sizeof(error)) < 0 &&
         strstr(error, "version"),
     "a state of another format version is refused: %s", error);

  /* With the checksum made right again, a flipped byte is a state that
   * loads or is refused by its values: never a crash.  One that loads
   * plays on (the sanitizers watch in make check-asan). */
  int loaded = 0, refused_count = 0;
  for (size_t at = 0; at + 4 < size; at++) {
    memcpy(copy, state, size);
    copy[at] ^= 0xff;
    crafter_put_u32(copy + size - 4, crafter_crc32(copy, size - 4));
    if (crafter_state_load_episode(target, copy, size, error, sizeof(error)) < 0) {
      refused_count++;
      continue;
    }
    loaded++;
    for (int t = 0; t < 3; t++) {
      int actions[2] = {draw_action(), draw_action()};
      crafter_step_outcome records[2];
      advance(target, actions, records);
    }
  }
  ok(loaded + refused_count == (int)size - 4,
     "with its checksum repaired, every byte flipped loads (%d) or is refused by its values (%d)",
     loaded, refused_count);
  free(copy);
  free(after);
  free(before);
  free(state);
  crafter_episode_free(target);
  crafter_episode_free(source);
}

/* In a batch of several threads, helpers make each env's next world
 * ahead, keyed by its episode: a state loaded into an env brings another
 * seed and episode counter, and its next episodes must be those of the
 * state, not the world made before. */
static void test_batch(void) {
  crafter_batch_options options;
  memset(&options, 0, sizeof(options));
  crafter_params_default(&options.episode.params);
  options.episode.params.seed = 7;
  options.episode.params.length = 60;
  options.episode.first_episode = 1;
  options.envs = 2;
  options.threads = 2;
  options.episode.obs_kind = CRAFTER_OBS_SYMBOLIC;
  crafter_batch *batch = crafter_batch_new(&options, error, sizeof(error));
  if (!batch) {
    ok(0, "a batch: %s", error);
    return;
  }
  uint8_t actions[2];
  crafter_step_result results[2];
  uint8_t reset[2];
  for (int t = 0; t < 30; t++) {
    actions[0] = actions[1] = (uint8_t)draw_action();
    crafter_batch_step(batch, actions, results, reset);
  }
  /* Each env's next world is made, of its own seed; the helpers then
   * wait, so that env 1's first start after the load finds that world
   * still there. */
  crafter_batch_settle(batch);
  crafter_batch_hold(batch, 1);
  size_t size = crafter_batch_save_state(batch, 0, NULL, 0);
  uint8_t *state = malloc(size);
  crafter_batch_save_state(batch, 0, state, size);
  int loaded = crafter_batch_load_state(batch, 1, state, size, error, sizeof(error)) == 0;
  free(state);
  size_t bytes = crafter_batch_observation_bytes(batch);
  int same = loaded && memcmp(crafter_batch_observation(batch, 0),
                              crafter_batch_observation(batch, 1), bytes) == 0;
  int resets = 0;
  for (int t = 0; t < 200 && same; t++) {
    actions[0] = actions[1] = (uint8_t)draw_action();
    if (t == 60) crafter_batch_hold(batch, 0);
    if (t > 60 && t % 40 == 0) crafter_batch_settle(batch);
    crafter_batch_step(batch, actions, results, reset);
    resets += reset[0];
    const crafter_env *a = crafter_batch_env(batch, 0), *b = crafter_batch_env(batch, 1);
    same = results[0].reward == results[1].reward && results[0].done == results[1].done &&
           reset[0] == reset[1] && a->world_seed == b->world_seed &&
           memcmp(crafter_batch_observation(batch, 0), crafter_batch_observation(batch, 1),
                  bytes) == 0;
  }
  int64_t prepared;
  crafter_batch_starts(batch, &prepared);
  ok(same && resets >= 3 && prepared > 0,
     "in a batch of 2 threads, env 1 loaded with env 0's state plays env 0's next episodes "
     "(%d resets, %lld on worlds made ahead), not the world made for its own seed",
     resets, (long long)prepared);
  crafter_batch_free(batch);
}

/* A runner that records refuses a load: a recording cannot hold a jump. */
static void test_recording(void) {
  crafter_episode_options options = base_options();
  crafter_traj_header header;
  crafter_traj_header_init(&header, &options.params, options.obs_kind, "test", &textures);
  options.recording = &header;
  crafter_episode *recording = runner(&options, 0);
  size_t size;
  uint8_t *state = saved(recording, &size);
  ok(crafter_state_load_episode(recording, state, size, error, sizeof(error)) < 0 &&
         strstr(error, "record"),
     "a recording runner refuses a load: %s", error);
  free(state);
  crafter_episode_free(recording);
}

int main(int argc, char **argv) {
  if (crafter_textures_load_builtin(&textures, error, sizeof(error)) < 0) {
    printf("Bail out! %s\n", error);
    return 1;
  }
  if (argc != 2) {
    printf("Bail out! usage: test-state TASK-FILE\n");
    return 2;
  }
  if (crafter_tasks_load(argv[1], &task_set, error, sizeof(error)) < 0 || crafter_task_pool_init(&pool, &task_set, -1, NULL, error, sizeof(error)) < 0) {
    printf("Bail out! %s\n", error);
    return 1;
  }
  test_continues();
  test_plain_env();
  test_mismatch();
  test_header_values();
  test_other_world();
  test_level_bounds();
  test_pixels_drawn_on_load();
  test_damage();
  test_recording();
  test_batch();
  crafter_task_pool_free(&pool);
  crafter_task_set_free(&task_set);
  crafter_textures_fini(&textures);
  return tap_done();
}
