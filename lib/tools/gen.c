#include "tools/gen.h"

#include "base/errors.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/json.h"
#include "game/env.h"
#include "game/games.h"

const char *const crafter_gen_thing_names[CRAFTER_GEN_THINGS] = {
    "water", "grass", "stone",   "path",    "sand", "tree",   "lava",     "coal",
    "iron",  "diamond", "table", "furnace", "cow",  "zombie", "skeleton",
};

/* ---- text ---- */

/* The grid with objects drawn over, row-major; NULL when out of memory. */
static char *map_characters(const crafter_world_map *map) {
  char *grid = malloc((size_t)map->width * (size_t)map->height);
  if (!grid) return NULL;
  for (int x = 0; x < map->width; x++)
    for (int y = 0; y < map->height; y++) {
      char c = crafter_material_char(map->materials[(size_t)x * (size_t)map->height + (size_t)y]);
      grid[(size_t)y * (size_t)map->width + (size_t)x] = c ? c : '?';
    }
  for (int i = 0; i < map->object_count; i++) {
    const crafter_object *object = &map->objects[i];
    grid[(size_t)object->y * (size_t)map->width + (size_t)object->x] =
        crafter_object_char(object);
  }
  return grid;
}

void crafter_gen_write_ascii(FILE *out, const crafter_world_map *map) {
  char *grid = map_characters(map);
  if (!grid) return;
  for (int y = 0; y < map->height; y++) {
    fwrite(grid + (size_t)y * (size_t)map->width, 1, (size_t)map->width, out);
    fputc('\n', out);
  }
  fputc('\n', out);
  crafter_world_legend(out, "");
  free(grid);
}

void crafter_gen_write_semantic(FILE *out, const crafter_world_map *map) {
  uint8_t *grid = malloc((size_t)map->width * (size_t)map->height);
  if (!grid) return;
  memcpy(grid, map->materials, (size_t)map->width * (size_t)map->height);
  for (int i = 0; i < map->object_count; i++) {
    const crafter_object *object = &map->objects[i];
    grid[(size_t)object->x * (size_t)map->height + (size_t)object->y] =
        (uint8_t)(CRAFTER_MATERIAL_COUNT + object->kind);
  }
  for (int y = 0; y < map->height; y++) {
    for (int x = 0; x < map->width; x++)
      fprintf(out, x ? " %d" : "%d", grid[(size_t)x * (size_t)map->height + (size_t)y]);
    fputc('\n', out);
  }
  free(grid);
}

/* ---- pictures ---- */

static int object_texture(const crafter_object *object) {
  switch (object->kind) {
    case CRAFTER_PLAYER: return CRAFTER_TEX_PLAYER_DOWN;
    case CRAFTER_COW: return CRAFTER_TEX_COW;
    case CRAFTER_ZOMBIE: return CRAFTER_TEX_ZOMBIE;
    case CRAFTER_SKELETON: return CRAFTER_TEX_SKELETON;
    case CRAFTER_PLANT:
      /* A map holds no config: Crafter's ripeness. */
      return object->counter > crafter_config_builtin.plant.ripe ? CRAFTER_TEX_PLANT_RIPE
                                                                 : CRAFTER_TEX_PLANT;
    case CRAFTER_ARROW:
      if (object->facing_x < 0) return CRAFTER_TEX_ARROW_LEFT;
      if (object->facing_x > 0) return CRAFTER_TEX_ARROW_RIGHT;
      return object->facing_y < 0 ? CRAFTER_TEX_ARROW_UP : CRAFTER_TEX_ARROW_DOWN;
    default: return CRAFTER_TEX_UNKNOWN;
  }
}

/* Draws a texture into the cell at (left, top), scaled by nearest
 * neighbour: opaque, ignoring any alpha, as the reference draws materials,
 * or blended as it draws objects. */
static void draw_cell(uint8_t *rgb, int width, int left, int top, int unit,
                      const crafter_image *image, int blend) {
  for (int row = 0; row < unit; row++) {
    int source_row = (int)(((long)row * image->height) / unit);
    for (int column = 0; column < unit; column++) {
      int source_column = (int)(((long)column * image->width) / unit);
      const uint8_t *from =
          image->pixels + ((size_t)source_row * (size_t)image->width + (size_t)source_column) *
                              (size_t)image->channels;
      uint8_t *to = rgb + ((size_t)(top + row) * (size_t)width + (size_t)(left + column)) * 3;
      if (blend && image->channels == 4) {
        float alpha = (float)from[3] / 255.0f;
        for (int c = 0; c < 3; c++) {
          float blended = alpha * ((float)from[c] / 255.0f) +
                          (1.0f - alpha) * ((float)to[c] / 255.0f);
          to[c] = (uint8_t)(255.0f * blended);
        }
      } else {
        memcpy(to, from, 3);
      }
    }
  }
}

/* The picture is drawn a band of cells at a time (one row of cells,
 * `unit` rows of pixels), as the PNG writer asks for its rows. */
typedef struct band_drawer {
  const crafter_world_map *map;
  const crafter_textures *textures;
  int unit, width;
  uint8_t *band; /* unit rows of width pixels */
} band_drawer;

static const uint8_t *band_row(void *context, int row) {
  band_drawer *d = context;
  int y = row / d->unit;
  if (row % d->unit == 0) {
    const crafter_world_map *map = d->map;
    for (int x = 0; x < map->width; x++) {
      int material = map->materials[(size_t)x * (size_t)map->height + (size_t)y];
      /* Material ids are texture ids. */
      draw_cell(d->band, d->width, x * d->unit, 0, d->unit, &d->textures->images[material], 0);
    }
    for (int i = 0; i < map->object_count; i++) {
      const crafter_object *object = &map->objects[i];
      if (object->y == y)
        draw_cell(d->band, d->width, object->x * d->unit, 0, d->unit,
                  &d->textures->images[object_texture(object)], 1);
    }
  }
  return d->band + (size_t)(row % d->unit) * (size_t)d->width * 3;
}

int crafter_gen_write_png(const crafter_world_map *map, const crafter_textures *textures,
                          int unit, const char *path, char *error, size_t error_size) {
  if (unit < 1 || unit > 256 || (long)map->width * unit > 65536 ||
      (long)map->height * unit > 65536)
    return crafter_fail(error, error_size,
                        "a picture of %dx%d cells at %d pixels a cell is too large (at most "
                        "65536 pixels a side)",
                        map->width, map->height, unit);
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++)
    if (!textures->images[i].pixels)
      return crafter_fail(error, error_size, "texture %s is not loaded",
                          crafter_texture_names[i]);
  band_drawer d = {map, textures, unit, map->width * unit, NULL};
  d.band = malloc((size_t)d.width * (size_t)unit * 3);
  if (!d.band)
    return crafter_fail(error, error_size, "out of memory for a band of %dx%d pixels", d.width,
                        unit);
  int status = crafter_write_png_rows(path, d.width, map->height * unit, band_row, &d, error,
                                      error_size);
  free(d.band);
  return status;
}

/* ---- statistics ---- */

typedef struct world_counts {
  int32_t count[CRAFTER_GEN_THINGS];
  int32_t nearest[CRAFTER_GEN_THINGS]; /* -1: none */
} world_counts;

typedef struct stats_job {
  const crafter_gen_stats_options *options;
  world_counts *worlds;
  long world_count;
  int index, stride; /* this thread's worlds: index, index + stride, ... */
  int failed;
  char error[256];
} stats_job;

static int thing_of_kind(int kind) {
  switch (kind) {
    case CRAFTER_COW: return CRAFTER_MATERIAL_COUNT - 1;
    case CRAFTER_ZOMBIE: return CRAFTER_MATERIAL_COUNT;
    case CRAFTER_SKELETON: return CRAFTER_MATERIAL_COUNT + 1;
    default: return -1;
  }
}

/* Counts the materials and creatures of a grid (index x * height + y)
 * and its objects, and the distance from the spawn to the nearest of
 * each. */
static void count_grid(const uint8_t *materials, int width, int height,
                       const crafter_object *objects, int object_count, int spawn_x, int spawn_y,
                       world_counts *out) {
  for (int i = 0; i < CRAFTER_GEN_THINGS; i++) {
    out->count[i] = 0;
    out->nearest[i] = -1;
  }
  int32_t nearest[CRAFTER_MATERIAL_COUNT];
  int32_t counts[CRAFTER_MATERIAL_COUNT] = {0};
  for (int m = 0; m < CRAFTER_MATERIAL_COUNT; m++) nearest[m] = INT32_MAX;
  for (int x = 0; x < width; x++) {
    const uint8_t *column = &materials[(size_t)x * (size_t)height];
    int dx = abs(x - spawn_x);
    for (int y = 0; y < height; y++) {
      int material = column[y];
      int distance = dx + abs(y - spawn_y);
      counts[material]++;
      if (distance < nearest[material]) nearest[material] = distance;
    }
  }
  for (int m = 1; m < CRAFTER_MATERIAL_COUNT; m++) {
    out->count[m - 1] = counts[m];
    out->nearest[m - 1] = counts[m] ? nearest[m] : -1;
  }
  for (int slot = 1; slot < object_count; slot++) {
    const crafter_object *object = &objects[slot];
    int thing = thing_of_kind(object->kind);
    if (thing < 0) continue;
    out->count[thing]++;
    int distance = abs(object->x - spawn_x) + abs(object->y - spawn_y);
    if (out->nearest[thing] < 0 || distance < out->nearest[thing]) out->nearest[thing] = distance;
  }
}

static void count_world(const crafter_env *env, world_counts *out) {
  const crafter_world *world = &env->game.world;
  const crafter_object *body = crafter_game_body(&env->game, 0);
  count_grid(world->materials, world->width, world->height, world->objects, world->object_count,
             body->x, body->y, out);
}

/* The first worlds of Craftax-Classic's seeds, counted as Crafter's. */
static void count_cc_worlds(stats_job *job) {
  const crafter_gen_stats_options *options = job->options;
  crafter_cc_state *state = malloc(sizeof *state);
  if (!state) {
    snprintf(job->error, sizeof(job->error), "out of memory");
    job->failed = 1;
    return;
  }
  for (long i = job->index; i < job->world_count; i += job->stride) {
    crafter_world_map map;
    if (crafter_cc_generate_world(crafter_cc_reset_key(options->first_seed + i), state) != 0 ||
        crafter_world_map_from_cc(&map, state) != 0) {
      snprintf(job->error, sizeof(job->error), "out of memory");
      job->failed = 1;
      break;
    }
    count_grid(map.materials, map.width, map.height, map.objects, map.object_count,
               map.objects[0].x, map.objects[0].y, &job->worlds[i]);
    crafter_world_map_free(&map);
  }
  free(state);
}

static void *stats_work(void *argument) {
  stats_job *job = argument;
  const crafter_gen_stats_options *options = job->options;
  if (options->game == CRAFTER_GAME_CRAFTAX_CLASSIC) {
    count_cc_worlds(job);
    return NULL;
  }
  crafter_env env;
  if (crafter_env_init_config(&env, &options->params, options->config, job->error,
                              sizeof(job->error)) < 0) {
    job->failed = 1;
    return NULL;
  }
  for (long i = job->index; i < job->world_count; i += job->stride) {
    env.params.seed = options->first_seed + i;
    crafter_env_set_next_episode(&env, options->episode);
    if (crafter_env_reset(&env) < 0) {
      snprintf(job->error, sizeof(job->error), "out of memory");
      job->failed = 1;
      break;
    }
    count_world(&env, &job->worlds[i]);
  }
  crafter_env_fini(&env);
  return NULL;
}

static int compare_ints(const void *left, const void *right) {
  int32_t a = *(const int32_t *)left, b = *(const int32_t *)right;
  return (a > b) - (a < b);
}

static double now_seconds(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

int crafter_gen_stats_run(const crafter_gen_stats_options *options, crafter_gen_stats *stats,
                          char *error, size_t error_size) {
  memset(stats, 0, sizeof(*stats));
  if (options->last_seed < options->first_seed ||
      options->last_seed - options->first_seed >= 100000000) {
    snprintf(error, error_size, "the seeds must be a range of 1 to 100000000 seeds");
    return -1;
  }
  long count = (long)(options->last_seed - options->first_seed + 1);
  int threads = options->threads < 1 ? 1 : options->threads;
  if (threads > count) threads = (int)count;
  world_counts *worlds = malloc(sizeof(world_counts) * (size_t)count);
  stats_job *jobs = calloc((size_t)threads, sizeof(stats_job));
  pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
  int32_t *values = malloc(sizeof(int32_t) * (size_t)count);
  if (!worlds || !jobs || !ids || !values) {
    free(worlds), free(jobs), free(ids), free(values);
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  double start = now_seconds();
  int started = 0;
  for (int t = 0; t < threads; t++) {
    jobs[t] = (stats_job){options, worlds, count, t, threads, 0, ""};
    if (t > 0 && pthread_create(&ids[t], NULL, stats_work, &jobs[t]) != 0) {
      /* Fewer threads than asked: the ones running take the rest. */
      break;
    }
    started = t + 1;
  }
  if (started < threads) {
    for (int t = 0; t < started; t++) jobs[t].stride = started;
  }
  stats_work(&jobs[0]);
  for (int t = 1; t < started; t++) pthread_join(ids[t], NULL);
  stats->seconds = now_seconds() - start;
  stats->threads = started;
  stats->worlds = count;
  int status = 0;
  for (int t = 0; t < started; t++)
    if (jobs[t].failed) {
      snprintf(error, error_size, "%s", jobs[t].error);
      status = -1;
      break;
    }
  for (int thing = 0; status == 0 && thing < CRAFTER_GEN_THINGS; thing++) {
    crafter_gen_thing_stats *out = &stats->things[thing];
    double sum = 0;
    out->count_min = worlds[0].count[thing];
    out->count_max = worlds[0].count[thing];
    long present = 0;
    double distance_sum = 0;
    for (long i = 0; i < count; i++) {
      int32_t value = worlds[i].count[thing];
      sum += value;
      if (value < out->count_min) out->count_min = value;
      if (value > out->count_max) out->count_max = value;
      if (worlds[i].nearest[thing] >= 0) {
        values[present++] = worlds[i].nearest[thing];
        distance_sum += worlds[i].nearest[thing];
      }
    }
    out->count_mean = sum / (double)count;
    out->worlds_without = count - present;
    if (present) {
      qsort(values, (size_t)present, sizeof(int32_t), compare_ints);
      out->nearest_mean = distance_sum / (double)present;
      out->nearest_median = values[present / 2];
      out->nearest_max = values[present - 1];
    } else {
      out->nearest_mean = -1;
      out->nearest_median = -1;
      out->nearest_max = -1;
    }
  }
  free(worlds), free(jobs), free(ids), free(values);
  return status;
}

void crafter_gen_stats_write_text(FILE *out, const crafter_gen_stats_options *options,
                                  const crafter_gen_stats *stats) {
  if (options->game != CRAFTER_GAME_CRAFTER) fprintf(out, "%s: ", crafter_game_info_of(options->game)->title);
  fprintf(out,
          "%ld worlds (seeds %lld-%lld, episode %lld, area %dx%d) in %.3f s with %d thread%s: "
          "%.3f ms a world\n",
          stats->worlds, (long long)options->first_seed, (long long)options->last_seed,
          (long long)options->episode, options->params.area[0], options->params.area[1],
          stats->seconds, stats->threads, stats->threads == 1 ? "" : "s",
          stats->worlds ? 1000 * stats->seconds * stats->threads / (double)stats->worlds : 0.0);
  fprintf(out, "%-10s %10s %7s %7s %8s   %s\n", "", "count", "min", "max", "without",
          "nearest to the spawn: mean median max");
  for (int i = 0; i < CRAFTER_GEN_THINGS; i++) {
    const crafter_gen_thing_stats *thing = &stats->things[i];
    fprintf(out, "%-10s %10.2f %7ld %7ld %8ld", crafter_gen_thing_names[i], thing->count_mean,
            thing->count_min, thing->count_max, thing->worlds_without);
    if (thing->nearest_median >= 0)
      fprintf(out, "   %21.2f %6ld %3ld\n", thing->nearest_mean, thing->nearest_median,
              thing->nearest_max);
    else
      fprintf(out, "   %21s %6s %3s\n", "-", "-", "-");
  }
}

void crafter_gen_stats_write_json(FILE *out, const crafter_gen_stats_options *options,
                                  const crafter_gen_stats *stats) {
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  if (options->game != CRAFTER_GAME_CRAFTER) { /* Crafter's results stay as they were */
    crafter_json_key(&json, "game");
    crafter_json_string(&json, crafter_game_info_of(options->game)->name);
  }
  crafter_json_key(&json, "worlds");
  crafter_json_int(&json, stats->worlds);
  crafter_json_key(&json, "first_seed");
  crafter_json_int(&json, options->first_seed);
  crafter_json_key(&json, "last_seed");
  crafter_json_int(&json, options->last_seed);
  crafter_json_key(&json, "episode");
  crafter_json_int(&json, options->episode);
  crafter_json_key(&json, "area");
  crafter_json_begin_array(&json);
  crafter_json_int(&json, options->params.area[0]);
  crafter_json_int(&json, options->params.area[1]);
  crafter_json_end_array(&json);
  crafter_json_key(&json, "seconds");
  crafter_json_fixed(&json, stats->seconds, 6);
  crafter_json_key(&json, "threads");
  crafter_json_int(&json, stats->threads);
  crafter_json_key(&json, "ms_per_world");
  crafter_json_fixed(&json,
                     stats->worlds ? 1000 * stats->seconds * stats->threads / (double)stats->worlds
                                   : 0.0,
                     6);
  crafter_json_key(&json, "things");
  crafter_json_begin_object(&json);
  for (int i = 0; i < CRAFTER_GEN_THINGS; i++) {
    const crafter_gen_thing_stats *thing = &stats->things[i];
    crafter_json_key(&json, crafter_gen_thing_names[i]);
    crafter_json_begin_object(&json);
    crafter_json_key(&json, "count");
    crafter_json_begin_object(&json);
    crafter_json_key(&json, "mean");
    crafter_json_fixed(&json, thing->count_mean, 4);
    crafter_json_key(&json, "min");
    crafter_json_int(&json, thing->count_min);
    crafter_json_key(&json, "max");
    crafter_json_int(&json, thing->count_max);
    crafter_json_end_object(&json);
    crafter_json_key(&json, "worlds_without");
    crafter_json_int(&json, thing->worlds_without);
    crafter_json_key(&json, "nearest");
    if (thing->nearest_median >= 0) {
      crafter_json_begin_object(&json);
      crafter_json_key(&json, "mean");
      crafter_json_fixed(&json, thing->nearest_mean, 4);
      crafter_json_key(&json, "median");
      crafter_json_int(&json, thing->nearest_median);
      crafter_json_key(&json, "max");
      crafter_json_int(&json, thing->nearest_max);
      crafter_json_end_object(&json);
    } else {
      crafter_json_null(&json);
    }
    crafter_json_end_object(&json);
  }
  crafter_json_end_object(&json);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
}
