#include "view/balrog.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names BALROG gives the semantic ids: crafter's material names (its
 * id 0 is Python's None, printed "None"), then the object classes'
 * names in lower case; the last is the toolkit's other player. */
static const char *const semantic_names[] = {
    "None",  "water", "grass", "stone",  "path",     "sand",  "tree",
    "lava",  "coal",  "iron",  "diamond", "table",   "furnace", "player",
    "cow",   "zombie", "skeleton", "arrow", "plant", "player"};
_Static_assert(sizeof semantic_names / sizeof semantic_names[0] ==
                   CRAFTER_SEMANTIC_OTHER_PLAYER + 1,
               "a name for every semantic id");

enum { OWN_PLAYER = CRAFTER_MATERIAL_COUNT + CRAFTER_PLAYER, IDS = CRAFTER_SEMANTIC_OTHER_PLAYER + 1 };

typedef struct text {
  char *out;
  size_t size, used;
} text;

/* Appends what fits, always leaving room for the closing NUL. */
static void put(text *t, const char *format, ...) {
  if (t->used + 1 >= t->size) return;
  va_list args;
  va_start(args, format);
  int written = vsnprintf(t->out + t->used, t->size - t->used, format, args);
  va_end(args);
  if (written < 0) return;
  t->used += (size_t)written < t->size - t->used ? (size_t)written : t->size - t->used - 1;
}

/* A Python slice [start:stop] of an axis of n cells: where it begins and
 * how many cells it holds. */
static void python_slice(long start, long stop, long n, long *from, long *count) {
  if (start < 0) {
    start += n;
    if (start < 0) start = 0;
  } else if (start > n) {
    start = n;
  }
  if (stop < 0) {
    stop += n;
    if (stop < 0) stop = 0;
  } else if (stop > n) {
    stop = n;
  }
  *from = start;
  *count = stop > start ? stop - start : 0;
}

/* The semantic id of a cell as the viewer's info['semantic'] has it. */
static int cell_id(const crafter_world *world, int own_slot, int x, int y) {
  int slot = crafter_world_object_slot(world, x, y);
  if (slot < 0) return crafter_world_material(world, x, y);
  int kind = world->objects[slot].kind;
  if (kind == CRAFTER_PLAYER && slot != own_slot) return CRAFTER_SEMANTIC_OTHER_PLAYER;
  return CRAFTER_MATERIAL_COUNT + kind;
}

/* Whether `id`'s cell (i, j) of the window has a cell of another id
 * beside it in the window: BALROG's edge, the cells of an item where the
 * dilation (by a cross) of the cells that are not that item meets it. */
static int on_edge(const crafter_world *world, int own_slot, long from_x, long count_x,
                   long from_y, long count_y, long i, long j, int id) {
  static const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  for (int k = 0; k < 4; k++) {
    long x = i + steps[k][0], y = j + steps[k][1];
    if (x < 0 || x >= count_x || y < 0 || y >= count_y) continue;
    if (cell_id(world, own_slot, (int)(from_x + x), (int)(from_y + y)) != id) return 1;
  }
  return 0;
}

/* BALROG's describe_loc_precise: "1 step south and 4 steps west", "at
 * your location" for none. */
static void put_precise_location(text *t, long dx, long dy) {
  if (dy)
    put(t, "%ld step%s %s", labs(dy), labs(dy) > 1 ? "s" : "", dy < 0 ? "north" : "south");
  if (dx)
    put(t, "%s%ld step%s %s", dy ? " and " : "", labs(dx), labs(dx) > 1 ? "s" : "",
        dx < 0 ? "west" : "east");
  if (!dx && !dy) put(t, "at your location");
}

/* BALROG's describe_loc_old: "3 steps to your north-west". */
static void put_location(text *t, long dx, long dy) {
  long distance = labs(dx) + labs(dy);
  const char *north_south = dy < 0 ? "north" : dy > 0 ? "south" : "";
  const char *west_east = dx < 0 ? "west" : dx > 0 ? "east" : "";
  put(t, "%ld step%s to your %s%s%s", distance, distance > 1 ? "s" : "", north_south,
      *north_south && *west_east ? "-" : "", west_east);
}

static void put_long(text *t, const crafter_env *env, int viewer,
                     const crafter_balrog_settings *settings) {
  const crafter_world *world = &env->game.world;
  const crafter_player *player = crafter_game_player_const(&env->game, viewer);
  const crafter_object *body = crafter_game_body(&env->game, viewer);
  if (!body) {
    put(t, "Error, you are out of the map.");
    return;
  }
  if (player->sleeping)
    put(t, "You are sleeping, and will not be able take actions until energy is full.\n\n\n\n");
  else if (player->inventory[CRAFTER_HEALTH] <= 0)
    put(t, "You died.\n\n\n\n");
  int own_slot = crafter_game_body_slot(&env->game, viewer);
  long view_x = env->params.view[0], view_y = env->params.view[1];
  long from_x, count_x, from_y, count_y;
  python_slice(body->x - view_x / 2, body->x + view_x / 2 + 1, world->width, &from_x, &count_x);
  python_slice(body->y - view_y / 2 + 1, body->y + view_y / 2, world->height, &from_y, &count_y);
  long center_x = view_x / 2, center_y = view_y / 2 - 1;
  /* Cells in the order of BALROG's scan, x outer, y inner.  Each kind
   * once (unique_items): at its nearest cell, the first such in the
   * scan, the kinds in the order first met; or every cell as met. */
  int order[IDS], kinds = 0, listed = 0;
  long best[IDS], best_dx[IDS], best_dy[IDS];
  for (int id = 0; id < IDS; id++) best[id] = -1;
  for (long i = 0; i < count_x; i++)
    for (long j = 0; j < count_y; j++) {
      int id = cell_id(world, own_slot, (int)(from_x + i), (int)(from_y + j));
      if (id == OWN_PLAYER || (settings->skip >> id) & 1u) continue;
      if ((settings->edge_only >> id) & 1u &&
          !on_edge(world, own_slot, from_x, count_x, from_y, count_y, i, j, id))
        continue;
      long dx = i - center_x, dy = j - center_y, distance = labs(dx) + labs(dy);
      if (settings->all_items) {
        put(t, "%s- %s ", listed++ ? "\n" : "You see:\n", semantic_names[id]);
        if (settings->precise_location)
          put_precise_location(t, dx, dy);
        else
          put_location(t, dx, dy);
        continue;
      }
      if (best[id] < 0) order[kinds++] = id;
      if (best[id] < 0 || distance < best[id]) {
        best[id] = distance;
        best_dx[id] = dx;
        best_dy[id] = dy;
      }
    }
  if (kinds) {
    put(t, "You see:");
    for (int k = 0; k < kinds; k++) {
      put(t, "\n- %s ", semantic_names[order[k]]);
      if (settings->precise_location)
        put_precise_location(t, best_dx[order[k]], best_dy[order[k]]);
      else
        put_location(t, best_dx[order[k]], best_dy[order[k]]);
    }
  } else if (!listed) {
    put(t, "You see nothing away from you.");
  }
  long target_x = center_x + player->facing_x, target_y = center_y + player->facing_y;
  const char *faced = "nothing";
  if (target_x >= 0 && target_x < count_x && target_y >= 0 && target_y < count_y) {
    int id = cell_id(world, own_slot, (int)(from_x + target_x), (int)(from_y + target_y));
    if (!((settings->skip >> id) & 1u)) faced = semantic_names[id];
  }
  put(t, "\n\nYou face %s at your front.", faced);
}

static void put_short(text *t, const crafter_env *env, int viewer) {
  const crafter_player *player = crafter_game_player_const(&env->game, viewer);
  put(t, "Your status:");
  for (int item = CRAFTER_HEALTH; item <= CRAFTER_ENERGY; item++)
    put(t, "\n- %s: %d/9", crafter_item_names[item], (int)player->inventory[item]);
  int any = 0;
  for (int item = CRAFTER_ENERGY + 1; item < CRAFTER_ITEM_COUNT; item++)
    if (player->inventory[item] != 0) {
      put(t, "%s\n- %s: %d", any ? "" : "\n\nYour inventory:", crafter_item_names[item],
          (int)player->inventory[item]);
      any = 1;
    }
  if (!any) put(t, "\n\nYou have nothing in your inventory.");
}

int crafter_balrog_settings_read(crafter_balrog_settings *settings, const char *text,
                                 char *error, size_t error_size) {
  crafter_balrog_settings read = {0};
  const char *at = text;
  while (*at) {
    size_t length = strcspn(at, ",");
    const char *equals = memchr(at, '=', length);
    if (!equals) {
      snprintf(error, error_size, "'%.*s' is not key=value", (int)length, at);
      return -1;
    }
    size_t key_length = (size_t)(equals - at), value_length = length - key_length - 1;
    const char *value = equals + 1;
    int is_true = value_length == 4 && strncmp(value, "true", 4) == 0;
    int is_false = value_length == 5 && strncmp(value, "false", 5) == 0;
    if ((key_length == 12 && strncmp(at, "unique_items", 12) == 0) ||
        (key_length == 16 && strncmp(at, "precise_location", 16) == 0)) {
      if (!is_true && !is_false) {
        snprintf(error, error_size, "%.*s takes true or false, not '%.*s'", (int)key_length, at,
                 (int)value_length, value);
        return -1;
      }
      if (key_length == 12)
        read.all_items = is_false;
      else
        read.precise_location = is_true;
    } else if ((key_length == 10 && strncmp(at, "skip_items", 10) == 0) ||
               (key_length == 15 && strncmp(at, "edge_only_items", 15) == 0)) {
      uint32_t ids = 0;
      for (const char *name = value; name < value + value_length;) {
        size_t name_length = strcspn(name, "+,");
        if (name + name_length > value + value_length) name_length = (size_t)(value + value_length - name);
        uint32_t named = 0;
        for (int id = 0; id < IDS; id++)
          if (strlen(semantic_names[id]) == name_length &&
              strncmp(semantic_names[id], name, name_length) == 0)
            named |= 1u << id;
        if (!named) {
          snprintf(error, error_size,
                   "%.*s: unknown item '%.*s' (expected names such as water, grass, sand, "
                   "path, lava, cow or zombie)",
                   (int)key_length, at, (int)name_length, name);
          return -1;
        }
        ids |= named;
        name += name_length + (name[name_length] == '+');
      }
      if (key_length == 10)
        read.skip = ids;
      else
        read.edge_only = ids;
    } else {
      snprintf(error, error_size,
               "unknown key '%.*s' (expected unique_items, precise_location, skip_items or "
               "edge_only_items)",
               (int)key_length, at);
      return -1;
    }
    at += length + (at[length] == ',');
  }
  *settings = read;
  return 0;
}

size_t crafter_balrog_text(const crafter_env *env, int player,
                           const crafter_balrog_settings *settings, char *out, size_t size) {
  static const crafter_balrog_settings defaults = {0};
  if (!settings) settings = &defaults;
  if (size < 2) return 0;
  /* The long text leaves room for the NUL after it and the short one. */
  text long_text = {out, size - 1, 0};
  out[0] = '\0';
  put_long(&long_text, env, player, settings);
  text short_text = {out + long_text.used + 1, size - long_text.used - 1, 0};
  short_text.out[0] = '\0';
  put_short(&short_text, env, player);
  return long_text.used + 1 + short_text.used;
}
