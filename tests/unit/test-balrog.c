/* BALROG's texts (view/balrog.h) checked from what they claim, not from a
 * second copy of how they are made: over random episodes of several areas
 * and views, every listed kind is in view and every kind in view is
 * listed, once, at the distance of its nearest cell and in the direction
 * of the first such cell met column by column; the player faces what the semantic map holds in front
 * of it; sleep and death are said; the vitals and the items held are the
 * inventory's.  A text changed in one place is refused by the same
 * checks, so they can fail.  With two players, the other is named a
 * player, and one who left the world gets BALROG's error text; BALROG's
 * other settings are read from its keys and keep what they promise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/env.h"
#include "tap.h"
#include "view/balrog.h"

enum { TEXT_BYTES = 8192, IDS = CRAFTER_SEMANTIC_OTHER_PLAYER + 1 };

/* The names a reader of the text sees: crafter's, with Python's None for
 * id 0, the object classes' in lower case. */
static const char *id_name(int id) {
  if (id == 0) return "None";
  if (id < CRAFTER_MATERIAL_COUNT) return crafter_material_names[id];
  if (id < CRAFTER_MATERIAL_COUNT + CRAFTER_OBJECT_KIND_COUNT)
    return crafter_object_kind_names[id - CRAFTER_MATERIAL_COUNT];
  return "player";
}

typedef struct coverage {
  long states, empty, sleeping, dead, facing_object, kinds_max, items;
} coverage;

/* What the semantic map shows in the window of a player away from the
 * map's left and top edges (the window is the cells at most view[0]/2
 * columns and view[1]/2 - 1 rows away, within the map), or nothing
 * (`empty`) near them, where BALROG's slice starts before the map. */
typedef struct window {
  int empty;
  int first_x, last_x, first_y, last_y;
} window;

static window window_of(const crafter_env *env, int px, int py) {
  int vx = env->params.view[0], vy = env->params.view[1];
  int width = env->game.world.width, height = env->game.world.height;
  window w = {0, px - vx / 2, px + vx / 2, py - (vy / 2 - 1), py + vy / 2 - 1};
  /* Areas here are larger than views: a negative start wraps past the
   * end of the slice. */
  if (w.first_x < 0 || w.first_y < 0) w.empty = 1;
  if (w.last_x >= width) w.last_x = width - 1;
  if (w.last_y >= height) w.last_y = height - 1;
  if (w.first_x > w.last_x || w.first_y > w.last_y) w.empty = 1;
  return w;
}

/* Checks a state's texts; NULL when they hold, else what is wrong. */
static const char *check(const crafter_env *env, const char *long_text, const char *short_text,
                         coverage *seen) {
  static char why[256];
  const crafter_player *player = crafter_game_player_const(&env->game, 0);
  const crafter_object *body = crafter_game_body(&env->game, 0);
  int width = env->game.world.width, height = env->game.world.height;
  uint8_t *semantic = malloc((size_t)width * (size_t)height);
  if (!semantic) abort();
  crafter_env_semantic(env, 0, semantic);
  int px = body->x, py = body->y;
  window w = window_of(env, px, py);
  const char *text = long_text;
  const char *prefix = player->sleeping ? "You are sleeping, and will not be able take actions "
                                          "until energy is full.\n\n\n\n"
                       : player->inventory[CRAFTER_HEALTH] <= 0 ? "You died.\n\n\n\n"
                                                                 : "";
  const char *wrong = NULL;
  if (strncmp(text, prefix, strlen(prefix)) != 0) {
    wrong = "the sleep or death is not said first";
    goto out;
  }
  text += strlen(prefix);
  /* Nearest distance of each kind in view; order of first meeting. */
  int nearest[IDS], order[IDS], kinds = 0;
  for (int id = 0; id < IDS; id++) nearest[id] = -1;
  for (int x = w.first_x; !w.empty && x <= w.last_x; x++)
    for (int y = w.first_y; y <= w.last_y; y++) {
      int id = semantic[(size_t)x * (size_t)height + (size_t)y];
      if (x == px && y == py) continue;
      int distance = abs(x - px) + abs(y - py);
      if (nearest[id] < 0) order[kinds++] = id;
      if (nearest[id] < 0 || distance < nearest[id]) nearest[id] = distance;
    }
  if (!kinds) {
    if (strncmp(text, "You see nothing away from you.\n\n", 32) != 0) {
      wrong = "nothing in view, yet something is seen";
      goto out;
    }
    text += 32;
    seen->empty += w.empty;
  } else {
    if (strncmp(text, "You see:", 8) != 0) {
      wrong = "things in view, yet none seen";
      goto out;
    }
    text += 8;
    for (int k = 0; k < kinds; k++) {
      int id = order[k];
      char name[32], unit[16], direction[32];
      int distance, used = 0;
      if (sscanf(text, "\n- %31s %d %15s to your %31[a-z-]%n", name, &distance, unit, direction,
                 &used) != 4 || !used) {
        snprintf(why, sizeof why, "kind %d of %d in view (%s) is not listed as such", k + 1,
                 kinds, id_name(id));
        wrong = why;
        goto out;
      }
      text += used;
      if (strcmp(name, id_name(id)) != 0) {
        snprintf(why, sizeof why, "listed %s where %s comes first", name, id_name(id));
        wrong = why;
        goto out;
      }
      if (distance != nearest[id] || strcmp(unit, distance > 1 ? "steps" : "step") != 0) {
        snprintf(why, sizeof why, "%s listed at %d %s, its nearest is %d away", name, distance,
                 unit, nearest[id]);
        wrong = why;
        goto out;
      }
      /* The first cell of the kind at that distance met scanning the
       * columns from the left, each from the top, lies that way. */
      int found = 0;
      for (int x = w.first_x; x <= w.last_x && !found; x++)
        for (int y = w.first_y; y <= w.last_y && !found; y++) {
          if ((x == px && y == py) || semantic[(size_t)x * (size_t)height + (size_t)y] != id ||
              abs(x - px) + abs(y - py) != distance)
            continue;
          char expected[32];
          snprintf(expected, sizeof expected, "%s%s%s", y < py ? "north" : y > py ? "south" : "",
                   y != py && x != px ? "-" : "", x < px ? "west" : x > px ? "east" : "");
          found = strcmp(expected, direction) == 0 ? 1 : -1;
        }
      if (found != 1) {
        snprintf(why, sizeof why, "the first %s %d away is not to the %s", name, distance,
                 direction);
        wrong = why;
        goto out;
      }
    }
    if (strncmp(text, "\n\n", 2) != 0) {
      wrong = "more kinds listed than are in view";
      goto out;
    }
    text += 2;
    if (kinds > seen->kinds_max) seen->kinds_max = kinds;
  }
  int fx = px + player->facing_x, fy = py + player->facing_y;
  const char *faced = "nothing";
  if (!w.empty && fx >= w.first_x && fx <= w.last_x && fy >= w.first_y && fy <= w.last_y) {
    int id = semantic[(size_t)fx * (size_t)height + (size_t)fy];
    faced = id_name(id);
    seen->facing_object += id >= CRAFTER_MATERIAL_COUNT;
  }
  char facing[64];
  snprintf(facing, sizeof facing, "You face %s at your front.", faced);
  if (strcmp(text, facing) != 0) {
    snprintf(why, sizeof why, "the text ends \"%.60s\", not \"%s\"", text, facing);
    wrong = why;
    goto out;
  }
  /* The short context: the four vitals out of 9, then what is held. */
  char expected[1024];
  int at = snprintf(expected, sizeof expected, "Your status:");
  for (int item = CRAFTER_HEALTH; item <= CRAFTER_ENERGY; item++)
    at += snprintf(expected + at, sizeof expected - (size_t)at, "\n- %s: %d/9",
                   crafter_item_names[item], (int)player->inventory[item]);
  int held = 0;
  for (int item = CRAFTER_SAPLING; item < CRAFTER_ITEM_COUNT; item++)
    if (player->inventory[item] > 0)
      at += snprintf(expected + at, sizeof expected - (size_t)at, "%s\n- %s: %d",
                     held++ ? "" : "\n\nYour inventory:", crafter_item_names[item],
                     (int)player->inventory[item]);
  if (!held) snprintf(expected + at, sizeof expected - (size_t)at, "\n\nYou have nothing in your inventory.");
  if (strcmp(short_text, expected) != 0) {
    wrong = "the short context is not the vitals and the items held";
    goto out;
  }
  seen->items += held > 0;
  seen->states++;
  seen->sleeping += player->sleeping != 0;
  seen->dead += player->inventory[CRAFTER_HEALTH] <= 0;
out:
  free(semantic);
  return wrong;
}

static unsigned next_random(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (*state >> 16) & 0x7fff;
}

/* A random action, moves and do most often, now and then sleep. */
static int random_action(unsigned *state) {
  static const int weighted[] = {0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5,
                                 6, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  return weighted[next_random(state) % (sizeof weighted / sizeof weighted[0])];
}

static void check_episodes(void) {
  static const struct {
    int area[2], view[2];
    long seed;
    int steps;
  } runs[] = {
      {{64, 64}, {9, 9}, 1, 2000}, {{16, 16}, {9, 9}, 2, 2000}, {{12, 20}, {9, 9}, 3, 1500},
      {{24, 24}, {11, 7}, 4, 1500}, {{20, 20}, {5, 5}, 5, 1500}, {{64, 64}, {8, 10}, 6, 1000},
  };
  coverage seen = {0};
  const char *first_wrong = NULL;
  char *texts = malloc(TEXT_BYTES);
  if (!texts) abort();
  for (size_t r = 0; r < sizeof runs / sizeof runs[0] && !first_wrong; r++) {
    crafter_params params;
    crafter_params_default(&params);
    memcpy(params.area, runs[r].area, sizeof params.area);
    memcpy(params.view, runs[r].view, sizeof params.view);
    params.seed = runs[r].seed;
    crafter_env env;
    char error[256];
    if (crafter_env_init(&env, &params, error, sizeof error) != 0 || crafter_env_reset(&env) != 0) {
      ok(0, "env of run %zu: %s", r, error);
      continue;
    }
    unsigned state = (unsigned)runs[r].seed;
    int done = 0;
    for (int t = 0; t <= runs[r].steps && !first_wrong; t++) {
      if (done) crafter_env_reset(&env);
      if (t) {
        crafter_step_result result;
        crafter_env_step(&env, random_action(&state), &result);
        done = result.done;
      }
      size_t length = crafter_balrog_text(&env, 0, NULL, texts, TEXT_BYTES);
      const char *short_text = texts + strlen(texts) + 1;
      if (length != strlen(texts) + 1 + strlen(short_text)) {
        first_wrong = "the length returned is not both texts and the NUL between";
        break;
      }
      const char *wrong = check(&env, texts, short_text, &seen);
      if (wrong) {
        static char where[512];
        snprintf(where, sizeof where, "area %dx%d view %dx%d seed %ld step %d: %s",
                 runs[r].area[0], runs[r].area[1], runs[r].view[0], runs[r].view[1],
                 runs[r].seed, t, wrong);
        first_wrong = where;
        printf("# long:\n# %s\n# short:\n# %s\n", texts, short_text);
      }
    }
    crafter_env_fini(&env);
  }
  ok(!first_wrong, "%ld states: what the texts say holds%s%s", seen.states,
     first_wrong ? " - " : "", first_wrong ? first_wrong : "");
  ok(seen.empty > 10 && seen.sleeping > 10 && seen.dead > 2 && seen.facing_object > 10 &&
         seen.kinds_max >= 6 && seen.items > 100,
     "the states cover empty windows (%ld), sleep (%ld), death (%ld), creatures faced (%ld), "
     "up to %ld kinds in view, items held (%ld)",
     seen.empty, seen.sleeping, seen.dead, seen.facing_object, seen.kinds_max, seen.items);
  free(texts);
}

/* The same checks refuse texts changed in one place. */
static void check_failing(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 1;
  crafter_env env;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof error) != 0 || crafter_env_reset(&env) != 0) {
    ok(0, "env: %s", error);
    return;
  }
  char *texts = malloc(TEXT_BYTES), *changed = malloc(TEXT_BYTES);
  if (!texts || !changed) abort();
  size_t length = crafter_balrog_text(&env, 0, NULL, texts, TEXT_BYTES);
  coverage seen = {0};
  const char *short_text = texts + strlen(texts) + 1;
  ok(check(&env, texts, short_text, &seen) == NULL, "the first state's texts hold");
  static const struct {
    const char *from, *to;
    int in_short;
  } changes[] = {
      {"step", "steps", 0},   {"steps", "step", 0},     {"west", "east", 0},
      {"You face", "You see", 0}, {"grass", "sand", 0}, {"9/9", "8/9", 1},
      {"nothing in", "wood in", 1},
  };
  int refused = 0, tried = 0;
  for (size_t c = 0; c < sizeof changes / sizeof changes[0]; c++) {
    memcpy(changed, texts, length + 1);
    char *text = changed + (changes[c].in_short ? strlen(changed) + 1 : 0);
    char *at = strstr(text, changes[c].from);
    if (!at) continue;
    tried++;
    char rest[TEXT_BYTES];
    snprintf(rest, sizeof rest, "%s", at + strlen(changes[c].from));
    snprintf(at, (size_t)(TEXT_BYTES - (at - changed)), "%s%s", changes[c].to, rest);
    if (changes[c].in_short)
      refused += check(&env, changed, text, &seen) != NULL;
    else
      refused += check(&env, changed, short_text, &seen) != NULL;
  }
  ok(tried >= 5 && refused == tried, "%d of %d texts changed in one place are refused", refused,
     tried);
  free(texts);
  free(changed);
  crafter_env_fini(&env);
}

/* Room: both texts end with a NUL within any size, the long one first. */
static void check_room(void) {
  crafter_params params;
  crafter_params_default(&params);
  crafter_env env;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof error) != 0 || crafter_env_reset(&env) != 0) {
    ok(0, "env: %s", error);
    return;
  }
  char whole[TEXT_BYTES], cut[TEXT_BYTES];
  size_t length = crafter_balrog_text(&env, 0, NULL, whole, sizeof whole);
  int fine = 1;
  for (size_t size = 2; size < length + 8 && fine; size++) {
    memset(cut, 'x', sizeof cut);
    size_t made = crafter_balrog_text(&env, 0, NULL, cut, size);
    size_t first = strlen(cut);
    fine = made < size && first + 1 < size + 1 && cut[first] == '\0' &&
           memchr(cut + first + 1, '\0', size - first - 1) != NULL &&
           strncmp(cut, whole, first) == 0 && (size <= length || made == length);
  }
  ok(fine, "cut to any room from 2 bytes up, each text ends with a NUL within it");
  crafter_env_fini(&env);
}

/* Games of several players: another player in view is "player"; one
 * who left the world gets BALROG's answer for a player off its map. */
static void check_players(void) {
  crafter_params params;
  crafter_params_default(&params);
  crafter_env env;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof error) != 0 ||
      crafter_env_set_players(&env, 2, error, sizeof error) != 0 || crafter_env_reset(&env) != 0) {
    ok(0, "a game of two players: %s", error);
    return;
  }
  char texts[TEXT_BYTES];
  crafter_balrog_text(&env, 0, NULL, texts, sizeof texts);
  const crafter_object *other = crafter_game_body(&env.game, 1), *own = crafter_game_body(&env.game, 0);
  int dx = other->x - own->x, dy = other->y - own->y;
  char line[96];
  snprintf(line, sizeof line, "\n- player %d step%s to your ", abs(dx) + abs(dy),
           abs(dx) + abs(dy) > 1 ? "s" : "");
  ok(abs(dx) <= 4 && abs(dy) <= 3 && strstr(texts, line) != NULL,
     "the other player, %d columns and %d rows away, is listed as a player", dx, dy);
  crafter_game_player(&env.game, 1)->inventory[CRAFTER_HEALTH] = 0;
  int actions[2] = {CRAFTER_NOOP, CRAFTER_NOOP};
  crafter_step_result results[2];
  for (int t = 0; t < 2; t++) crafter_env_step_players(&env, actions, results);
  size_t length = crafter_balrog_text(&env, 1, NULL, texts, sizeof texts);
  const char *short_text = texts + strlen(texts) + 1;
  ok(crafter_game_body(&env.game, 1) == NULL &&
         strcmp(texts, "Error, you are out of the map.") == 0 &&
         strncmp(short_text, "Your status:\n- health: 0/9\n", 27) == 0 &&
         length == strlen(texts) + 1 + strlen(short_text),
     "a player who left the world: \"%s\" and its inventory", texts);
  crafter_env_fini(&env);
}

/* BALROG's other settings: read from its keys, refused when unknown,
 * and what each promises, over random states of a map wider than the
 * view with the player away from its edges. */
static void check_settings(void) {
  crafter_balrog_settings settings;
  char error[256];
  int read = crafter_balrog_settings_read(
                 &settings,
                 "unique_items=false,precise_location=true,skip_items=grass+sand+path,"
                 "edge_only_items=water",
                 error, sizeof error) == 0;
  ok(read && settings.all_items && settings.precise_location &&
         settings.skip == ((1u << CRAFTER_GRASS) | (1u << CRAFTER_SAND) | (1u << CRAFTER_PATH)) &&
         settings.edge_only == 1u << CRAFTER_WATER,
     "BALROG's four keys read");
  read = crafter_balrog_settings_read(&settings, "skip_items=player,unique_items=true", error,
                                      sizeof error) == 0;
  ok(read && !settings.all_items &&
         settings.skip == ((1u << (CRAFTER_MATERIAL_COUNT + CRAFTER_PLAYER)) |
                           (1u << CRAFTER_SEMANTIC_OTHER_PLAYER)) &&
         crafter_balrog_settings_read(&settings, "", error, sizeof error) == 0 &&
         !settings.all_items && !settings.precise_location && !settings.skip &&
         !settings.edge_only,
     "player names both players; nothing given is BALROG's defaults");
  static const char *const bad[] = {"bogus=1", "unique_items=maybe", "skip_items=grass+foo",
                                    "precise_location", "skip_items=grass++sand"};
  int refused = 0;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    refused += crafter_balrog_settings_read(&settings, bad[i], error, sizeof error) < 0;
  ok(refused == (int)(sizeof bad / sizeof bad[0]), "%d of %zu bad settings refused (last: %s)",
     refused, sizeof bad / sizeof bad[0], error);

  crafter_params params;
  crafter_params_default(&params);
  params.seed = 8;
  crafter_env env;
  if (crafter_env_init(&env, &params, error, sizeof error) != 0 || crafter_env_reset(&env) != 0) {
    ok(0, "env: %s", error);
    return;
  }
  crafter_balrog_settings all = {1, 0, 0, 0}, precise = {0, 1, 0, 0};
  crafter_balrog_settings skip = {0, 0, (1u << CRAFTER_GRASS) | (1u << CRAFTER_SAND), 0};
  crafter_balrog_settings edge = {1, 0, 0, 1u << CRAFTER_GRASS};
  char texts[TEXT_BYTES];
  unsigned state = 8;
  int all_fine = 1, precise_fine = 1, skip_fine = 1, edge_fine = 1, states = 0, faced_skipped = 0;
  for (int t = 0; t < 600; t++) {
    crafter_step_result result;
    crafter_env_step(&env, random_action(&state), &result);
    if (result.done) crafter_env_reset(&env);
    const crafter_object *body = crafter_game_body(&env.game, 0);
    if (body->x < 5 || body->y < 4 || body->x > 58 || body->y > 59) continue;
    states++;
    /* unique_items=false: a line for each of the 9 x 7 cells but the player's. */
    crafter_balrog_text(&env, 0, &all, texts, sizeof texts);
    int lines = 0;
    for (const char *c = texts; (c = strstr(c, "\n- ")); c++) lines++;
    all_fine &= lines == 9 * 7 - 1;
    /* edge_only_items=grass: grass only where it borders something else
     * within the window, so no more lines than that. */
    crafter_balrog_text(&env, 0, &edge, texts, sizeof texts);
    int edge_lines = 0;
    for (const char *c = texts; (c = strstr(c, "\n- ")); c++) edge_lines++;
    int grass_inside = 0;
    for (int x = body->x - 3; x <= body->x + 3; x++)
      for (int y = body->y - 2; y <= body->y + 2; y++) {
        int same = 1;
        static const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int k = 0; k < 4; k++) {
          int nx = x + steps[k][0], ny = y + steps[k][1];
          same &= crafter_world_material(&env.game.world, nx, ny) == CRAFTER_GRASS &&
                  crafter_world_object_slot(&env.game.world, nx, ny) < 0;
        }
        grass_inside += same && crafter_world_material(&env.game.world, x, y) == CRAFTER_GRASS &&
                        crafter_world_object_slot(&env.game.world, x, y) < 0;
      }
    edge_fine &= edge_lines <= lines - grass_inside;
    /* precise_location: every place in rows, then columns. */
    crafter_balrog_text(&env, 0, &precise, texts, sizeof texts);
    for (const char *c = texts; (c = strstr(c, "\n- ")); c++) {
      char name[32], first[16], second[16], third[16];
      int n = 0, m = 0;
      int fields = sscanf(c, "\n- %31s %d %15s %15[a-z] and %d", name, &n, first, second, &m);
      (void)third;
      precise_fine &= fields >= 4 && n > 0 &&
                      (strcmp(second, "north") == 0 || strcmp(second, "south") == 0 ||
                       strcmp(second, "west") == 0 || strcmp(second, "east") == 0) &&
                      strcmp(first, n > 1 ? "steps" : "step") == 0;
    }
    /* skip_items=grass+sand: neither listed nor faced. */
    crafter_balrog_text(&env, 0, &skip, texts, sizeof texts);
    const crafter_player *player = crafter_game_player_const(&env.game, 0);
    int fx = body->x + player->facing_x, fy = body->y + player->facing_y;
    int faced = crafter_world_object_slot(&env.game.world, fx, fy) < 0
                    ? crafter_world_material(&env.game.world, fx, fy)
                    : -1;
    int faced_is_skipped = fy - body->y < 3 && (faced == CRAFTER_GRASS || faced == CRAFTER_SAND);
    faced_skipped += faced_is_skipped;
    skip_fine &= !strstr(texts, "- grass ") && !strstr(texts, "- sand ") &&
                 (!faced_is_skipped || strstr(texts, "You face nothing at your front.") != NULL);
  }
  ok(states > 100 && all_fine, "unique_items=false: a line for each cell of the window but the "
                               "player's (%d states)", states);
  ok(states > 100 && edge_fine, "edge_only_items=grass: no grass listed inside grass");
  ok(states > 100 && precise_fine, "precise_location: \"N steps north and M steps west\"");
  ok(states > 100 && skip_fine && faced_skipped > 10,
     "skip_items=grass+sand: neither listed, nor faced (%d states facing them)", faced_skipped);
  crafter_env_fini(&env);
}

int main(void) {
  check_episodes();
  check_players();
  check_settings();
  check_failing();
  check_room();
  return tap_done();
}
