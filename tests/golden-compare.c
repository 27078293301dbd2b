/* golden-compare: replays reference traces (gzip JSON lines, see the
 * format notes of the reference traces) with the library and compares
 * every field of every record.  Prints TAP: one test per trace; a failing
 * trace names its step and the first field that differs.
 *
 *   golden-compare TRACE...                 replay with the library
 *   golden-compare --candidate FILE TRACE   compare FILE (crafter-step
 *                                           --info full output) instead
 *   golden-compare --actions TRACE          print the trace's actions
 *   golden-compare --args TRACE             print crafter-step options
 *   golden-compare --textures DIR TRACE...  also render with the PNG
 *                                           folder DIR and compare obs_crc
 *                                           and obs
 *   golden-compare --config FILE TRACE...   replay with the configuration
 *                                           FILE (crafter-config(5)) laid
 *                                           over Crafter's
 *   golden-compare --via-world TRACE...     start each episode from its
 *                                           world saved as a world file
 *                                           (crafter-world(5)) and read back
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/json.h"
#include "game/config.h"
#include "game/env.h"
#include "run/proto.h"
#include "run/worldfile.h"
#include "view/render.h"
#include "view/textures.h"

/* With --textures, observations are rendered and compared too. */
static crafter_textures textures;
static int with_pixels;
/* With --config, the rules the envs play by. */
static crafter_config config;
static const crafter_config *with_config;
/* With --via-world, episodes start from their world written out and read back. */
static int via_world;

/* Resets env from its own world saved as a world file and parsed again. */
static int reset_via_world(crafter_env *env, const char *trace) {
  crafter_env generated;
  char error[512];
  if (crafter_env_init_config(&generated, &env->params, env->config, error, sizeof(error)) < 0) {
    printf("# %s: %s\n", trace, error);
    return -1;
  }
  crafter_env_set_next_episode(&generated, env->episode + 1);
  crafter_world_map map;
  if (crafter_env_reset(&generated) < 0 || crafter_world_map_from_game(&map, &generated.game) < 0)
    exit(3);
  crafter_env_fini(&generated);
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  if (!out || crafter_world_map_write(out, &map, "golden-compare --via-world") < 0) exit(3);
  fclose(out);
  crafter_world_map_free(&map);
  int status = crafter_world_map_parse(&map, text, length, "world", error, sizeof(error));
  free(text);
  if (status == 0) {
    status = crafter_world_map_start(env, &map, error, sizeof(error));
    crafter_world_map_free(&map);
  }
  if (status < 0) printf("# %s: %s\n", trace, error);
  return status;
}

typedef struct lines {
  char **text;
  size_t *length;
  size_t count;
} lines;

static void free_lines(lines *list) {
  for (size_t i = 0; i < list->count; i++) free(list->text[i]);
  free(list->text);
  free(list->length);
  memset(list, 0, sizeof(*list));
}

/* Reads all lines of a (possibly gzip-compressed) file. */
static int read_lines(const char *path, lines *out) {
  memset(out, 0, sizeof(*out));
  gzFile file = gzopen(path, "rb");
  if (!file) return -1;
  size_t capacity = 0, used = 0;
  char *data = NULL;
  char chunk[65536];
  int got;
  while ((got = gzread(file, chunk, sizeof(chunk))) > 0) {
    if (used + (size_t)got + 1 > capacity) {
      capacity = (used + (size_t)got + 1) * 2;
      char *grown = realloc(data, capacity);
      if (!grown) {
        free(data);
        gzclose(file);
        return -1;
      }
      data = grown;
    }
    memcpy(data + used, chunk, (size_t)got);
    used += (size_t)got;
  }
  int failed = got < 0;
  gzclose(file);
  if (failed) {
    free(data);
    return -1;
  }
  size_t start = 0;
  size_t slots = 0;
  for (size_t i = 0; i <= used; i++) {
    if (i < used && data[i] != '\n') continue;
    if (i > start) {
      if (out->count == slots) {
        slots = slots ? slots * 2 : 256;
        out->text = realloc(out->text, slots * sizeof(char *));
        out->length = realloc(out->length, slots * sizeof(size_t));
        if (!out->text || !out->length) exit(3);
      }
      out->text[out->count] = malloc(i - start + 1);
      if (!out->text[out->count]) exit(3);
      memcpy(out->text[out->count], data + start, i - start);
      out->text[out->count][i - start] = '\0';
      out->length[out->count] = i - start;
      out->count++;
    }
    start = i + 1;
  }
  free(data);
  return 0;
}

static int integer_of(const crafter_json *value, long long *out) {
  if (!value || value->type != CRAFTER_JSON_NUMBER) return -1;
  *out = (long long)value->number;
  return 0;
}

static int pair_of(const crafter_json *value, int out[2]) {
  if (!value || value->type != CRAFTER_JSON_ARRAY || value->length != 2) return -1;
  for (int i = 0; i < 2; i++) {
    if (value->items[i].type != CRAFTER_JSON_NUMBER) return -1;
    out[i] = (int)value->items[i].number;
  }
  return 0;
}

static void describe(const crafter_json *value, char *out, size_t size) {
  if (!value) {
    snprintf(out, size, "(missing)");
    return;
  }
  switch (value->type) {
    case CRAFTER_JSON_NULL: snprintf(out, size, "null"); break;
    case CRAFTER_JSON_TRUE: snprintf(out, size, "true"); break;
    case CRAFTER_JSON_FALSE: snprintf(out, size, "false"); break;
    case CRAFTER_JSON_NUMBER: crafter_format_double(out, value->number); break;
    case CRAFTER_JSON_STRING: snprintf(out, size, "\"%.60s%s\"", value->string,
                                       value->length > 60 ? "..." : ""); break;
    case CRAFTER_JSON_ARRAY: {
      size_t used = (size_t)snprintf(out, size, "[");
      for (size_t i = 0; i < value->length && used + 40 < size; i++) {
        char item[256];
        describe(&value->items[i], item, sizeof(item));
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", item);
      }
      if (used + 2 < size) snprintf(out + used, size - used, "]");
      break;
    }
    default: snprintf(out, size, "{...}"); break;
  }
}

/* Deep equality; on a difference writes a path suffix like "[3][1]". */
static int equal(const crafter_json *a, const crafter_json *b, char *path, size_t size) {
  if (!a || !b) return a == b;
  int a_bool = a->type == CRAFTER_JSON_TRUE || a->type == CRAFTER_JSON_FALSE;
  int b_bool = b->type == CRAFTER_JSON_TRUE || b->type == CRAFTER_JSON_FALSE;
  if (a->type != b->type && !(a_bool && b_bool)) return 0;
  switch (a->type) {
    case CRAFTER_JSON_NUMBER: return a->number == b->number;
    case CRAFTER_JSON_TRUE:
    case CRAFTER_JSON_FALSE:
    case CRAFTER_JSON_NULL: return a->type == b->type;
    case CRAFTER_JSON_STRING:
      if (a->length != b->length) return 0;
      for (size_t i = 0; i < a->length; i++)
        if (a->string[i] != b->string[i]) {
          snprintf(path, size, "[char %zu]", i);
          return 0;
        }
      return 1;
    case CRAFTER_JSON_ARRAY:
      for (size_t i = 0; i < a->length && i < b->length; i++) {
        char inner[128] = "";
        if (!equal(&a->items[i], &b->items[i], inner, sizeof(inner))) {
          snprintf(path, size, "[%zu]%s", i, inner);
          return 0;
        }
      }
      if (a->length != b->length) {
        snprintf(path, size, " (length %zu vs %zu)", a->length, b->length);
        return 0;
      }
      return 1;
    case CRAFTER_JSON_OBJECT:
      for (size_t i = 0; i < a->length; i++)
        if (!equal(&a->items[i], crafter_json_get(b, a->keys[i]), path, size)) return 0;
      return a->length == b->length;
  }
  return 0;
}

/* Keys of the expected record to compare; observations are left to the
 * pixel tests. */
static int compared_key(const char *key) {
  if (strcmp(key, "obs") == 0 || strcmp(key, "obs_crc") == 0) return with_pixels;
  return strcmp(key, "policy") != 0;
}

static int compare_record(const char *trace, long record, const crafter_json *expected,
                          const crafter_json *actual) {
  for (size_t i = 0; i < expected->length; i++) {
    const char *key = expected->keys[i];
    if (!compared_key(key)) continue;
    const crafter_json *mine = crafter_json_get(actual, key);
    char path[128] = "";
    if (!equal(&expected->items[i], mine, path, sizeof(path))) {
      char want[512], got[512];
      describe(&expected->items[i], want, sizeof(want));
      describe(mine, got, sizeof(got));
      const crafter_json *t = crafter_json_get(expected, "t");
      if (t)
        printf("# %s: step %.0f: field %s%s differs\n", trace, t->number, key, path);
      else
        printf("# %s: reset record (line %ld): field %s%s differs\n", trace, record, key, path);
      printf("#   expected %s\n#   got      %s\n", want, got);
      return -1;
    }
  }
  return 0;
}

static int parse_line(const char *trace, const char *text, size_t length, long line,
                      crafter_json_document *document) {
  char error[200];
  if (crafter_json_parse(document, text, length, error, sizeof(error)) < 0 ||
      document->root.type != CRAFTER_JSON_OBJECT) {
    printf("# %s: line %ld: not a JSON object (%s)\n", trace, line, error);
    return -1;
  }
  return 0;
}

static int setup_params(const crafter_json *reset, crafter_params *params, long long *episode) {
  crafter_params_default(params);
  long long seed, length;
  if (integer_of(crafter_json_get(reset, "seed"), &seed) < 0 ||
      integer_of(crafter_json_get(reset, "episode"), episode) < 0 ||
      pair_of(crafter_json_get(reset, "area"), params->area) < 0 ||
      pair_of(crafter_json_get(reset, "view"), params->view) < 0 ||
      pair_of(crafter_json_get(reset, "size"), params->size) < 0)
    return -1;
  params->seed = seed;
  const crafter_json *length_value = crafter_json_get(reset, "length");
  if (length_value && length_value->type == CRAFTER_JSON_NULL)
    params->length = 0;
  else if (integer_of(length_value, &length) == 0)
    params->length = (long)length;
  else
    return -1;
  return 0;
}

/* Produces our record for line `index` of the trace into a string. */
static char *replay_record(crafter_env *env, const crafter_json *expected, int is_reset,
                           const uint8_t *pixels, size_t *length) {
  char *text = NULL;
  FILE *out = open_memstream(&text, length);
  if (!out) exit(3);
  size_t pixel_bytes = (size_t)env->params.size[0] * (size_t)env->params.size[1] * 3;
  crafter_proto_extra record = {-1,     pixels, pixel_bytes, CRAFTER_OBS_PIXELS,
                                 crafter_json_get(expected, "obs") != NULL, pixels, pixel_bytes,
                                 NULL, NULL, -1, 0, 0, 0, 0};
  const crafter_proto_extra *with = pixels ? &record : NULL;
  if (is_reset) {
    crafter_proto_write_reset(out, env, 0, with);
  } else {
    long long action = 0;
    integer_of(crafter_json_get(expected, "action"), &action);
    crafter_step_result result;
    crafter_env_step(env, (int)action, &result);
    crafter_proto_write_step(out, env, 0, (int)action, &result, with);
  }
  fclose(out);
  return text;
}

static int check_trace(const char *trace, const char *candidate_path) {
  lines expected, candidate = {0};
  if (read_lines(trace, &expected) < 0 || expected.count == 0) {
    printf("# %s: cannot read the trace\n", trace);
    free_lines(&expected);
    return -1;
  }
  if (candidate_path && read_lines(candidate_path, &candidate) < 0) {
    printf("# %s: cannot read the candidate\n", candidate_path);
    free_lines(&expected);
    return -1;
  }
  int status = 0;
  crafter_env env;
  int have_env = 0;
  crafter_renderer *renderer = NULL;
  uint8_t *pixels = NULL;
  for (size_t i = 0; i < expected.count && status == 0; i++) {
    crafter_json_document want, got;
    if (parse_line(trace, expected.text[i], expected.length[i], (long)i + 1, &want) < 0) {
      status = -1;
      break;
    }
    if (i == 0) {
      crafter_params params;
      long long episode;
      char error[256];
      if (setup_params(&want.root, &params, &episode) < 0) {
        printf("# %s: the reset record lacks parameters\n", trace);
        crafter_json_free(&want);
        status = -1;
        break;
      }
      if (!candidate_path) {
        if (crafter_env_init_config(&env, &params, with_config, error, sizeof(error)) < 0) {
          printf("# %s: %s\n", trace, error);
          crafter_json_free(&want);
          status = -1;
          break;
        }
        have_env = 1;
        if (with_pixels) {
          renderer = crafter_renderer_new(&textures, &params, error, sizeof(error));
          pixels = malloc((size_t)params.size[0] * (size_t)params.size[1] * 3);
          if (!renderer || !pixels) {
            printf("# %s: %s\n", trace, renderer ? "out of memory" : error);
            crafter_json_free(&want);
            status = -1;
            break;
          }
          crafter_renderer_attach(renderer, &env, pixels);
        }
        crafter_env_set_next_episode(&env, episode);
        if (via_world) {
          if (reset_via_world(&env, trace) < 0) {
            crafter_json_free(&want);
            status = -1;
            break;
          }
        } else if (crafter_env_reset(&env) < 0) {
          exit(3);
        }
      }
    }
    char *ours = NULL;
    size_t ours_length = 0;
    if (candidate_path) {
      if (i >= candidate.count) {
        printf("# %s: candidate ends after %zu records; the trace has %zu\n", trace,
               candidate.count, expected.count);
        crafter_json_free(&want);
        status = -1;
        break;
      }
      ours = candidate.text[i];
      ours_length = candidate.length[i];
    } else {
      ours = replay_record(&env, &want.root, i == 0, pixels, &ours_length);
    }
    if (parse_line("ours", ours, ours_length, (long)i + 1, &got) < 0) {
      status = -1;
    } else {
      status = compare_record(trace, (long)i + 1, &want.root, &got.root);
      crafter_json_free(&got);
    }
    if (!candidate_path) free(ours);
    crafter_json_free(&want);
  }
  if (have_env) crafter_env_fini(&env);
  crafter_renderer_free(renderer);
  free(pixels);
  free_lines(&expected);
  free_lines(&candidate);
  return status;
}

static int print_actions(const char *trace, int as_args) {
  lines expected;
  if (read_lines(trace, &expected) < 0 || expected.count == 0) {
    fprintf(stderr, "golden-compare: cannot read %s\n", trace);
    return 1;
  }
  for (size_t i = 0; i < expected.count; i++) {
    crafter_json_document record;
    char error[200];
    if (crafter_json_parse(&record, expected.text[i], expected.length[i], error,
                           sizeof(error)) < 0) {
      fprintf(stderr, "golden-compare: %s: line %zu: %s\n", trace, i + 1, error);
      free_lines(&expected);
      return 1;
    }
    if (i == 0 && as_args) {
      crafter_params params;
      long long episode;
      if (setup_params(&record.root, &params, &episode) == 0)
        printf("--seed %lld --first-episode %lld --area %d,%d --view %d,%d --size %d,%d "
               "--length %ld\n",
               (long long)params.seed, episode, params.area[0], params.area[1], params.view[0],
               params.view[1], params.size[0], params.size[1], params.length);
    }
    const crafter_json *action = crafter_json_get(&record.root, "action");
    if (!as_args && action) printf("%.0f\n", action->number);
    crafter_json_free(&record);
  }
  free_lines(&expected);
  return 0;
}

int main(int argc, char **argv) {
  const char *candidate = NULL;
  int first = 1;
  if (argc >= 3 && strcmp(argv[1], "--actions") == 0) return print_actions(argv[2], 0);
  if (argc >= 3 && strcmp(argv[1], "--args") == 0) return print_actions(argv[2], 1);
  if (argc >= 3 && strcmp(argv[1], "--candidate") == 0) {
    candidate = argv[2];
    first = 3;
  }
  for (;;) {
    if (argc > first && strcmp(argv[first], "--via-world") == 0) {
      via_world = 1;
      first++;
      continue;
    }
    if (argc < first + 2 || (strcmp(argv[first], "--textures") != 0 &&
                             strcmp(argv[first], "--config") != 0))
      break;
    char error[600];
    if (strcmp(argv[first], "--config") == 0) {
      crafter_config_default(&config);
      if (crafter_config_load(argv[first + 1], &config, error, sizeof(error)) < 0) {
        fprintf(stderr, "golden-compare: %s\n", error);
        return 2;
      }
      with_config = &config;
    } else {
      if (crafter_textures_load_dir(&textures, argv[first + 1], error, sizeof(error)) < 0) {
        fprintf(stderr, "golden-compare: %s\n", error);
        return 2;
      }
      with_pixels = 1;
    }
    first += 2;
  }
  if (first >= argc) {
    fprintf(stderr, "usage: golden-compare [--candidate FILE] [--textures DIR] [--config FILE] "
                    "[--via-world] TRACE...\n");
    return 2;
  }
  printf("1..%d\n", argc - first);
  int failures = 0;
  for (int i = first; i < argc; i++) {
    int ok = check_trace(argv[i], candidate) == 0;
    const char *name = strrchr(argv[i], '/');
    printf("%s %d - %s\n", ok ? "ok" : "not ok", i - first + 1, name ? name + 1 : argv[i]);
    fflush(stdout);
    failures += !ok;
  }
  return failures ? 1 : 0;
}
