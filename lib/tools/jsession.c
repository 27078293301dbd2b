#include "tools/jsession.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/cli.h"
#include "base/json.h"
#include "game/games.h"
#include "run/jbatch.h"
#include "run/jstate.h"
#include "run/proto.h"
#include "run/traj_writer.h"
#include "tools/input.h"
#include "view/obskind.h"
#include "view/render.h"

typedef struct jsession {
  const crafter_session_options *options;
  const crafter_game_info *game;
  const crafter_jgame *g;
  crafter_jbatch *batch;
  void *textures; /* --obs pixels: what they are drawn with */
  int text;       /* --obs text: the text observation in JSON lines */
  int envs;
  FILE *out;
  size_t obs_bytes;
  uint8_t *frame; /* binary: one frame (with --shm-fd, the ring's slot being filled) */
  size_t frame_bytes;
  uint8_t *ring;  /* --shm-fd: the mapping of the ring of frames */
  size_t ring_bytes;
  uint32_t sequence; /* the number of the next frame */
  size_t section[CRAFTER_PROTOCOL_SECTIONS];
  crafter_jgame_outcome *outcomes;
  uint8_t *started;
  uint8_t *actions;
  uint8_t *was_waiting; /* with --manual-reset, [i]: env i waited for a reset before the step */
  int64_t *episode_before; /* [i]: env i's episode counter (its level) before the step */
  int64_t finished; /* episodes ended */
  uint8_t *state; /* a state saved or being loaded (state_bytes) */
  size_t state_bytes;
  /* --record: each env's episode under way, written when it ends (or is
   * cut by a reset or the end of the input) */
  crafter_traj_header header;
  crafter_traj_writer *writer;
  crafter_traj_recorder **recorders;
  int record_failed;
  char record_error[300];
} jsession;

/* ---- recording ---- */

static void record_failure(jsession *s, const char *message) {
  if (s->record_failed) return;
  s->record_failed = 1;
  snprintf(s->record_error, sizeof(s->record_error), "%s", message);
}

/* Starts the recording of env i's episode under way (just begun). */
static void record_start(jsession *s, int i) {
  if (!s->writer || s->record_failed) return;
  if (crafter_traj_recorder_start_jgame(s->recorders[i], s->g, crafter_jbatch_env(s->batch, i),
                                        crafter_jbatch_obs(s->batch, i)) < 0)
    record_failure(s, "out of memory");
}

/* Writes env i's episode: ended, or cut (then only when it has a step). */
static void record_store(jsession *s, int i) {
  if (!s->writer || s->record_failed || crafter_traj_recorder_steps(s->recorders[i]) <= 0) return;
  char problem[300];
  if (crafter_traj_writer_add(s->writer, s->recorders[i], problem, sizeof(problem)) < 0)
    record_failure(s, problem);
}

/* After a step: every env's step recorded, in env order the episodes
 * that ended (or that a reset cut) written and the next ones begun. */
static void record_step(jsession *s) {
  if (!s->writer) return;
  for (int i = 0; i < s->envs && !s->record_failed; i++) {
    const crafter_jgame_outcome *outcome = &s->outcomes[i];
    if (s->actions[i] == CRAFTER_JBATCH_RESET) {
      if (!s->was_waiting[i]) record_store(s, i); /* a waiting one was stored when it ended */
      record_start(s, i);
      continue;
    }
    if (s->was_waiting[i]) continue; /* steps after the end, before the reset: no episode's */
    const uint8_t *obs = outcome->done ? crafter_jbatch_final_obs(s->batch, i)
                                       : crafter_jbatch_obs(s->batch, i);
    if (crafter_traj_recorder_step_jgame(s->recorders[i], s->actions[i], outcome, obs) < 0) {
      record_failure(s, "out of memory");
      break;
    }
    if (!outcome->done) continue;
    record_store(s, i);
    if (!s->options->manual_reset) record_start(s, i); /* else at the reset */
  }
}

/* With --record: the file made (once all else is ready) and every env's
 * first episode begun.  0, or -1 with the error. */
static int record_open(jsession *s, char *error, size_t error_size) {
  const crafter_run *run = &s->options->run;
  if (!run->record_path) return 0;
  crafter_traj_header_init_game(&s->header, run->game, run->params.seed,
                                run->obs_kind == CRAFTER_OBS_SYMBOLIC ? CRAFTER_OBS_SYMBOLIC
                                                                      : CRAFTER_OBS_NONE,
                                "external");
  s->recorders = calloc((size_t)s->envs, sizeof(*s->recorders));
  for (int i = 0; s->recorders && i < s->envs; i++)
    if (!(s->recorders[i] = crafter_traj_recorder_new(&s->header))) break;
  if (!s->recorders || !s->recorders[s->envs - 1]) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  s->writer = crafter_traj_writer_create(run->record_path, &s->header, error, error_size);
  if (!s->writer) return -1;
  for (int i = 0; i < s->envs; i++) record_start(s, i);
  if (!s->record_failed) return 0;
  snprintf(error, error_size, "%s", s->record_error);
  return -1;
}

/* Writes the episodes the input cut short, then the index. */
static int record_close(jsession *s, char *error, size_t error_size) {
  if (!s->writer) return 0;
  for (int i = 0; i < s->envs && !s->record_failed; i++)
    if (!crafter_jbatch_waiting(s->batch, i)) record_store(s, i);
  char problem[300] = "";
  if (crafter_traj_writer_close(s->writer, problem, sizeof(problem)) < 0)
    record_failure(s, problem);
  s->writer = NULL;
  if (!s->record_failed) return 0;
  snprintf(error, error_size, "%s", s->record_error);
  return -1;
}

/* The shortest decimal that reads back as the float32 `value`, as a
 * double (so that a JSON reader's double rounds to the float32 again and
 * prints as that decimal). */
static double shortest_of_float(float value) {
  if (!isfinite(value)) return value;
  char text[32];
  for (int digits = 1; digits <= 9; digits++) {
    snprintf(text, sizeof(text), "%.*g", digits, (double)value);
    if (strtof(text, NULL) == value) break;
  }
  return strtod(text, NULL);
}

static void write_level(jsession *s, crafter_json_writer *json, int64_t level) {
  if (!s->options->run.jlevel_set) return;
  crafter_json_key(json, "level");
  crafter_json_int(json, level);
}

static void write_env_key(jsession *s, crafter_json_writer *json, int i) {
  if (s->envs == 1) return;
  crafter_json_key(json, "env");
  crafter_json_int(json, i);
}

static void write_state(jsession *s, crafter_json_writer *json, void *env,
                        const uint8_t *achievements) {
  const crafter_jgame *g = s->g;
  const void *state = g->state(env);
  int32_t row, column;
  int facing[2];
  g->position(state, &row, &column, facing);
  crafter_json_key(json, "pos"); /* x (column), y (row), as Crafter's */
  crafter_json_begin_array(json);
  crafter_json_int(json, column);
  crafter_json_int(json, row);
  crafter_json_end_array(json);
  crafter_json_key(json, "facing");
  crafter_json_begin_array(json);
  crafter_json_int(json, facing[0]);
  crafter_json_int(json, facing[1]);
  crafter_json_end_array(json);
  g->state_json(state, json);
  int32_t inventory[CRAFTER_JGAME_ITEMS_MAX];
  g->report(state, NULL, inventory);
  crafter_json_key(json, "inventory");
  crafter_json_begin_object(json);
  for (int k = 0; k < g->items; k++) {
    crafter_json_key(json, g->item_names[k]);
    crafter_json_int(json, inventory[k]);
  }
  crafter_json_end_object(json);
  crafter_json_key(json, "achievements");
  crafter_json_begin_object(json);
  for (int k = 0; k < s->game->achievements; k++) {
    crafter_json_key(json, s->game->achievement_names[k]);
    crafter_json_int(json, achievements[k]);
  }
  crafter_json_end_object(json);
}

static void write_obs(jsession *s, crafter_json_writer *json, int i) {
  if (s->text) { /* drawn from the state now: text has no fixed size */
    const void *state = s->g->state(crafter_jbatch_env(s->batch, i));
    size_t need = s->g->text(state, NULL, 0) + 1;
    char *text = malloc(need);
    if (!text) return;
    s->g->text(state, text, need);
    crafter_json_key(json, "obs");
    crafter_json_string(json, text);
    free(text);
    return;
  }
  const uint8_t *obs = crafter_jbatch_obs(s->batch, i);
  if (!obs) return;
  crafter_json_key(json, "obs");
  if (s->textures) { /* pixels: the float32 values' little-endian bytes in base64 */
    crafter_json_base64(json, obs, s->obs_bytes);
    return;
  }
  crafter_json_begin_array(json);
  for (size_t k = 0; k < s->obs_bytes / 4; k++)
    crafter_json_python_double(json, crafter_get_f32(obs + 4 * k));
  crafter_json_end_array(json);
}

/* A reset record: when it carries something (the state, an observation,
 * or which env among several). */
static void write_reset(jsession *s, int i) {
  int state = s->options->info == CRAFTER_INFO_STATE;
  if (!state && !s->obs_bytes && !s->text && s->envs == 1 && !s->options->run.jlevel_set) return;
  void *env = crafter_jbatch_env(s->batch, i);
  crafter_jenv_fields f = s->g->fields(env);
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, s->out);
  crafter_json_begin_object(&json);
  write_env_key(s, &json, i);
  crafter_json_key(&json, "reset");
  crafter_json_int(&json, *f.episode);
  write_level(s, &json, *f.episode);
  if (state) {
    crafter_json_key(&json, "seed");
    crafter_json_int(&json, *f.seed);
    uint8_t achievements[CRAFTER_JGAME_ACHIEVEMENTS_MAX];
    s->g->report(s->g->state(env), achievements, NULL);
    write_state(s, &json, env, achievements);
  }
  write_obs(s, &json, i);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
}

/* A step record; after a step that ended the episode the obs is the next
 * episode's first (Craftax's auto-reset), the state the ended one's
 * achievements with the next one's position and inventory. */
static void write_step(jsession *s, int i, const crafter_jgame_outcome *outcome) {
  void *env = crafter_jbatch_env(s->batch, i);
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, s->out);
  crafter_json_begin_object(&json);
  write_env_key(s, &json, i);
  crafter_json_key(&json, "t");
  crafter_json_int(&json, outcome->length);
  crafter_json_key(&json, "reward");
  crafter_json_python_double(&json, shortest_of_float(outcome->reward));
  crafter_json_key(&json, "done");
  crafter_json_bool(&json, outcome->done);
  crafter_json_key(&json, "discount");
  crafter_json_python_double(&json, outcome->done ? 0.0 : 1.0);
  crafter_json_key(&json, "unlocked");
  crafter_json_begin_array(&json);
  for (int k = 0; k < s->game->achievements; k++)
    if (crafter_jgame_unlocked(outcome, k)) crafter_json_string(&json, s->game->achievement_names[k]);
  crafter_json_end_array(&json);
  write_level(s, &json, s->episode_before[i]);
  if (s->options->info == CRAFTER_INFO_STATE) write_state(s, &json, env, outcome->achievements);
  write_obs(s, &json, i);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
  if (outcome->done) write_reset(s, i);
}

/* Counts the episodes that ended; whether the run has all it asked for. */
static int count_ends(jsession *s) {
  for (int i = 0; i < s->envs; i++)
    if (s->outcomes[i].done && !s->was_waiting[i]) s->finished++;
  return s->options->run.episodes > 0 && s->finished >= s->options->run.episodes;
}

/* A load's record: {"env": E, "loaded": true, "done": false, "t": T}, the
 * state and observation as the run's records carry them. */
static void write_loaded(jsession *s, int i) {
  void *env = crafter_jbatch_env(s->batch, i);
  const void *at = s->g->state(env);
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, s->out);
  crafter_json_begin_object(&json);
  crafter_json_key(&json, "env");
  crafter_json_int(&json, i);
  crafter_json_key(&json, "loaded");
  crafter_json_bool(&json, 1);
  crafter_json_key(&json, "done");
  crafter_json_bool(&json, 0);
  crafter_json_key(&json, "t");
  crafter_json_int(&json, s->g->timestep(at));
  if (s->options->info == CRAFTER_INFO_STATE) {
    uint8_t achievements[CRAFTER_JGAME_ACHIEVEMENTS_MAX];
    s->g->report(at, achievements, NULL);
    write_state(s, &json, env, achievements);
  }
  write_obs(s, &json, i);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
}

/* Loads s->state[0..size) into env i; 0, or -1 with the reason. */
static int load_env(jsession *s, int i, size_t size, char *reason, size_t reason_size) {
  if (s->writer) {
    snprintf(reason, reason_size,
             "this env records its episodes: a recording cannot hold a jump in state");
    return -1;
  }
  if (crafter_jstate_load(s->g, crafter_jbatch_env(s->batch, i), s->state, size, reason,
                          reason_size) < 0)
    return -1;
  crafter_jbatch_observe(s->batch, i);
  return 0;
}

/* "save E" and "load E BASE64": 1 when the line was one and is answered,
 * 0 when it is not a request, -1 with an error. */
static int text_request(jsession *s, char *line, int too_long, long number, char *error,
                        size_t error_size) {
  int save, env;
  char *end;
  if (crafter_parse_request(line, s->envs, number, &save, &env, &end, error, error_size) < 0)
    return -1;
  long index = env;
  if (save) {
    crafter_jstate_save(s->g, crafter_jbatch_env(s->batch, (int)index), s->state);
    crafter_reply_saved(s->out, index, s->state, s->state_bytes);
    return 1;
  }
  size_t length = strcspn(end, " \t\r");
  size_t rest = length + strspn(end + length, " \t\r");
  char reason[400] = "";
  size_t size = 0;
  if (too_long || (end[rest] == '\0' && length / 4 * 3 > s->state_bytes + 2)) {
    snprintf(reason, sizeof(reason),
             "a state longer than one of %s (%zu bytes, %zu in base64): it is not a %s state",
             s->game->name, s->state_bytes, (s->state_bytes + 2) / 3 * 4, s->game->name);
  } else if (end[rest] != '\0' || length == 0 ||
             crafter_base64_decode(end, length, s->state, &size) < 0) {
    return crafter_load_request_malformed(number, error, error_size);
  } else if (load_env(s, (int)index, size, reason, sizeof(reason)) == 0) {
    write_loaded(s, (int)index);
    return 1;
  }
  crafter_reply_refused(s->out, index, reason);
  return 1;
}

/* What the records of a step need from before it. */
static void before_step(jsession *s) {
  for (int i = 0; i < s->envs; i++) {
    s->was_waiting[i] = (uint8_t)crafter_jbatch_waiting(s->batch, i);
    s->episode_before[i] = *s->g->fields(crafter_jbatch_env(s->batch, i)).episode;
  }
}

static int run_text(jsession *s, crafter_input *in, char *error, size_t error_size) {
  for (int i = 0; i < s->envs; i++) write_reset(s, i);
  size_t limit = crafter_session_line_limit(s->envs);
  /* A load request's line holds a state in base64. */
  size_t load_limit = 64 + (s->state_bytes + 2) / 3 * 4;
  crafter_action_reader reader = {in, {NULL, 0, 0, load_limit > limit ? load_limit : limit},
                                  limit, s->envs, "env", 0, s->game};
  int *actions = malloc(sizeof(int) * (size_t)s->envs);
  int status = actions ? 0 : 1;
  if (!actions) snprintf(error, error_size, "out of memory");
  while (status == 0) {
    char *request;
    int too_long;
    int got = crafter_action_reader_next(&reader, actions, &request, &too_long, error, error_size);
    if (got == CRAFTER_READ_END) break;
    if (got == CRAFTER_READ_FAILED ||
        (got == CRAFTER_READ_REQUEST &&
         text_request(s, request, too_long, reader.number, error, error_size) < 0)) {
      status = 1;
      break;
    }
    if (got == CRAFTER_READ_REQUEST) continue;
    for (int i = 0; i < s->envs; i++) s->actions[i] = (uint8_t)actions[i];
    before_step(s);
    if (crafter_jbatch_step(s->batch, s->actions, s->outcomes, s->started) != 0) {
      snprintf(error, error_size, "out of memory");
      status = 1;
      break;
    }
    record_step(s);
    if (s->record_failed) {
      snprintf(error, error_size, "%s", s->record_error);
      status = 1;
      break;
    }
    for (int i = 0; i < s->envs; i++) write_step(s, i, &s->outcomes[i]);
    if (count_ends(s)) break;
  }
  free(actions);
  free(reader.line.text);
  return status;
}

static size_t section_bytes(const jsession *s, int section) {
  switch (section) {
    case CRAFTER_SECTION_REWARD: return 8;
    case CRAFTER_SECTION_DONE:
    case CRAFTER_SECTION_RESET: return 1;
    case CRAFTER_SECTION_UNLOCKED: return 4 * (size_t)((s->game->achievements + 31) / 32);
    case CRAFTER_SECTION_INVENTORY: return 4 * (size_t)s->g->items;
    case CRAFTER_SECTION_ACHIEVEMENTS: return 4 * (size_t)s->game->achievements;
    case CRAFTER_SECTION_POSITION: return 16;
    case CRAFTER_SECTION_OBS: return s->obs_bytes;
    case CRAFTER_SECTION_FINAL: return s->options->final_obs ? s->obs_bytes : 0;
    case CRAFTER_SECTION_SEMANTIC:
    case CRAFTER_SECTION_TASK:
    case CRAFTER_SECTION_ALIVE: return 0;
    default: return 4;
  }
}

static void fill_frame(jsession *s, int i, const crafter_jgame_outcome *outcome, int started) {
  const crafter_jgame *g = s->g;
  void *env = crafter_jbatch_env(s->batch, i);
  const void *state = g->state(env);
  uint8_t *f = s->frame;
  const size_t *at = s->section;
  crafter_put_f64(f + at[CRAFTER_SECTION_REWARD] + 8 * (size_t)i, outcome ? outcome->reward : 0.0);
  crafter_put_f32(f + at[CRAFTER_SECTION_DISCOUNT] + 4 * (size_t)i,
                  outcome && outcome->done ? 0.0f : 1.0f);
  f[at[CRAFTER_SECTION_DONE] + (size_t)i] = outcome && outcome->done;
  f[at[CRAFTER_SECTION_RESET] + (size_t)i] = (uint8_t)started;
  int words = (s->game->achievements + 31) / 32;
  for (int w = 0; w < words; w++)
    crafter_put_u32(f + at[CRAFTER_SECTION_UNLOCKED] + 4 * ((size_t)words * (size_t)i + (size_t)w),
                    outcome ? outcome->unlocked[w] : 0);
  crafter_put_u32(f + at[CRAFTER_SECTION_EPISODE] + 4 * (size_t)i,
                  (uint32_t)*g->fields(env).episode);
  crafter_put_u32(f + at[CRAFTER_SECTION_STEP] + 4 * (size_t)i,
                  (uint32_t)(outcome ? outcome->length : g->timestep(state)));
  int32_t inventory[CRAFTER_JGAME_ITEMS_MAX];
  g->report(state, NULL, inventory);
  uint8_t *items = f + at[CRAFTER_SECTION_INVENTORY] + 4 * (size_t)g->items * (size_t)i;
  for (int k = 0; k < g->items; k++) crafter_put_u32(items + 4 * k, (uint32_t)inventory[k]);
  uint8_t now[CRAFTER_JGAME_ACHIEVEMENTS_MAX];
  const uint8_t *achievements = outcome ? outcome->achievements : now;
  if (!outcome) g->report(state, now, NULL);
  int count = s->game->achievements;
  uint8_t *out = f + at[CRAFTER_SECTION_ACHIEVEMENTS] + 4 * (size_t)count * (size_t)i;
  for (int k = 0; k < count; k++) crafter_put_u32(out + 4 * k, achievements[k]);
  int32_t row, column;
  int facing[2];
  g->position(state, &row, &column, facing);
  uint8_t *position = f + at[CRAFTER_SECTION_POSITION] + 16 * (size_t)i;
  crafter_put_u32(position, (uint32_t)column);
  crafter_put_u32(position + 4, (uint32_t)row);
  crafter_put_u32(position + 8, (uint32_t)facing[0]);
  crafter_put_u32(position + 12, (uint32_t)facing[1]);
  if (s->options->final_obs && s->obs_bytes) {
    /* The observation the episode ended in, zeros for the others. */
    uint8_t *final = f + at[CRAFTER_SECTION_FINAL] + s->obs_bytes * (size_t)i;
    const uint8_t *ended = outcome ? crafter_jbatch_final_obs(s->batch, i) : NULL;
    if (ended)
      memcpy(final, ended, s->obs_bytes);
    else
      memset(final, 0, s->obs_bytes);
  }
}

static void write_header(jsession *s) {
  uint8_t header[CRAFTER_PROTOCOL_HEADER_BYTES + CRAFTER_PROTOCOL_GAME_BYTES] = {0};
  memcpy(header, CRAFTER_PROTOCOL_MAGIC, 8);
  const crafter_obs_kind_info *kind = crafter_obs_kind(s->options->run.obs_kind);
  crafter_params params;
  crafter_params_default(&params);
  uint32_t shape[3] = {0, 0, 0};
  crafter_obs_kind_shape(s->options->run.obs_kind, &params, 1, shape);
  int element = kind->element;
  if (s->options->run.obs_kind == CRAFTER_OBS_SYMBOLIC) { /* the game's own length */
    shape[0] = (uint32_t)s->g->symbolic_size;
    shape[1] = shape[2] = 1;
  }
  if (s->textures) { /* the game's pixels: rows, columns, RGB as float32 */
    shape[0] = (uint32_t)s->g->pixel_rows;
    shape[1] = (uint32_t)s->g->pixel_columns;
    shape[2] = 3;
    element = CRAFTER_OBS_ELEMENT_FLOAT32;
  }
  crafter_put_u32(header + 8, CRAFTER_PROTOCOL_GAME_VERSION);
  crafter_put_u32(header + 12, (uint32_t)sizeof(header));
  crafter_put_u32(header + 16, (uint32_t)s->envs);
  crafter_put_u32(header + 20, (uint32_t)kind->protocol_id);
  crafter_put_u32(header + 24, (uint32_t)element);
  for (int k = 0; k < 3; k++) crafter_put_u32(header + 28 + 4 * k, shape[k]);
  crafter_put_u32(header + 40, (uint32_t)s->obs_bytes);
  crafter_put_u32(header + 44, (uint32_t)s->frame_bytes);
  crafter_put_u32(header + 48, (uint32_t)s->game->actions);
  crafter_put_u32(header + 52, (uint32_t)s->game->achievements);
  crafter_put_u32(header + 56, (uint32_t)s->g->items);
  crafter_put_u32(header + 60, (uint32_t)s->g->map_columns);
  crafter_put_u32(header + 64, (uint32_t)s->g->map_rows);
  const crafter_session_options *options = s->options;
  crafter_put_u32(header + 68, (options->manual_reset ? 0 : CRAFTER_PROTOCOL_AUTORESET) |
                                   (s->ring ? CRAFTER_PROTOCOL_SHM : 0) |
                                   (options->run.jlevel_set ? CRAFTER_PROTOCOL_LEVELS : 0) |
                                   (options->final_obs ? CRAFTER_PROTOCOL_FINAL : 0) |
                                   CRAFTER_PROTOCOL_GAME);
  crafter_put_u32(header + 72, s->ring ? (uint32_t)options->shm_slots : 0);
  for (int k = 0; k <= CRAFTER_SECTION_OBS; k++)
    crafter_put_u32(header + 76 + 4 * k, (uint32_t)s->section[k]);
  memcpy(header + CRAFTER_PROTOCOL_HEADER_BYTES, s->game->name, strlen(s->game->name));
  fwrite(header, 1, sizeof(header), s->out);
}

/* Sends the frame just filled: whole on the pipe, or with shared memory
 * its slot and number, moving on to the next slot (the batch's
 * observations aimed at it). */
static int send_frame(jsession *s) {
  uint32_t sequence = s->sequence++;
  if (!s->ring) {
    if (fwrite(s->frame, 1, s->frame_bytes, s->out) != s->frame_bytes || fflush(s->out) != 0)
      return -1;
    return 0;
  }
  uint32_t slot = (uint32_t)((size_t)(s->frame - s->ring) / s->frame_bytes);
  uint8_t message[8];
  crafter_put_u32(message, slot);
  crafter_put_u32(message + 4, sequence);
  if (fwrite(message, 1, sizeof message, s->out) != sizeof message || fflush(s->out) != 0)
    return -1;
  slot = (slot + 1) % (uint32_t)s->options->shm_slots;
  s->frame = s->ring + s->frame_bytes * slot;
  if (s->obs_bytes) crafter_jbatch_redirect(s->batch, s->frame + s->section[CRAFTER_SECTION_OBS]);
  return 0;
}

/* With shared memory, before a frame that changes only some entries (a
 * load's): the last frame copied into the slot being filled, the batch's
 * observations there. */
static void carry_last_frame(jsession *s) {
  if (!s->ring) return;
  size_t slots = (size_t)s->options->shm_slots;
  size_t slot = (size_t)(s->frame - s->ring) / s->frame_bytes;
  size_t last = (slot + slots - 1) % slots;
  if (last != slot) memcpy(s->frame, s->ring + s->frame_bytes * last, s->frame_bytes);
}

/* The ring of frames in the shared memory of --shm-fd, sized and mapped.
 * 0, or -1 with the reason. */
static int map_ring(jsession *s, char *error, size_t error_size) {
  int fd = s->options->shm_fd;
  s->ring_bytes = s->frame_bytes * (size_t)s->options->shm_slots;
  if (crafter_session_check_shm(fd, error, error_size) < 0) return -1;
  if (ftruncate(fd, (off_t)s->ring_bytes) < 0) {
    snprintf(error, error_size, "--shm-fd %d: cannot size the shared memory: %s", fd,
             strerror(errno));
    return -1;
  }
  void *ring = mmap(NULL, s->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (ring == MAP_FAILED) {
    snprintf(error, error_size, "--shm-fd %d: cannot map the shared memory: %s", fd,
             strerror(errno));
    return -1;
  }
  s->ring = ring;
  s->frame = ring;
  return 0;
}

static int reply(jsession *s, const void *data, size_t size, char *error, size_t error_size) {
  if (fwrite(data, 1, size, s->out) != size || fflush(s->out) != 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return -1;
  }
  return 0;
}


/* 252 E: uint32 L and the L bytes of env E's state.  251 E L STATE: uint32
 * status (0 loaded, 1 refused), uint32 M, the M bytes of the reason, and
 * when loaded a frame: the last one's entries, env E's made from its new
 * state (reward 0, not done, no reset).  0, or -1 with an error. */
static int answer_request(jsession *s, crafter_input *in, int save, long step, char *error,
                          size_t error_size) {
  const uint8_t *request = crafter_input_request(in, save ? CRAFTER_PROTOCOL_SAVE_BYTES
                                                  : CRAFTER_PROTOCOL_LOAD_BYTES,
                                         save ? "save" : "load", step, error, error_size);
  if (!request) return -1;
  uint32_t index = crafter_get_u32(request + 1);
  uint32_t size = save ? 0 : crafter_get_u32(request + 5);
  if (index >= (uint32_t)s->envs) {
    snprintf(error, error_size, "a %s request before step %ld names env %u of %d",
             save ? "save" : "load", step, index, s->envs);
    return -1;
  }
  uint8_t head[8] = {0};
  if (save) {
    crafter_jstate_save(s->g, crafter_jbatch_env(s->batch, (int)index), s->state);
    crafter_put_u32(head, (uint32_t)s->state_bytes);
    return reply(s, head, 4, error, error_size) < 0
               ? -1
               : reply(s, s->state, s->state_bytes, error, error_size);
  }
  char reason[400] = "";
  carry_last_frame(s);
  long got = size > s->state_bytes ? crafter_input_skip_exact(in, size)
                                   : crafter_input_read_exact(in, s->state, size);
  if (got < 0 || (size_t)got < size) {
    if (got < 0)
      snprintf(error, error_size, "reading standard input: %s", strerror(errno));
    else
      snprintf(error, error_size,
               "input ended in a load request before step %ld: %ld of the state's %u bytes", step,
               got, size);
    return -1;
  }
  if (size > s->state_bytes)
    snprintf(reason, sizeof(reason),
             "a state of %u bytes, longer than one of %s (%zu bytes): it is not a %s state", size,
             s->game->name, s->state_bytes, s->game->name);
  else if (load_env(s, (int)index, size, reason, sizeof(reason)) == 0) {
    if (reply(s, head, 8, error, error_size) < 0) return -1;
    fill_frame(s, (int)index, NULL, 0);
    if (send_frame(s) < 0) {
      snprintf(error, error_size, "writing standard output: %s", strerror(errno));
      return -1;
    }
    return 0;
  }
  size_t length = strlen(reason);
  crafter_put_u32(head, 1);
  crafter_put_u32(head + 4, (uint32_t)length);
  return reply(s, head, 8, error, error_size) < 0 ? -1 : reply(s, reason, length, error, error_size);
}

static int run_binary(jsession *s, crafter_input *in, char *error, size_t error_size) {
  size_t at = 0;
  for (int k = 0; k < CRAFTER_PROTOCOL_SECTIONS; k++) {
    s->section[k] = at;
    at = (at + section_bytes(s, k) * (size_t)s->envs + 63) / 64 * 64;
  }
  s->frame_bytes = at;
  if (s->frame_bytes > UINT32_MAX) {
    snprintf(error, error_size, "a frame of %zu bytes is too large for the binary protocol",
             s->frame_bytes);
    return 1;
  }
  if (s->options->shm_fd >= 0) {
    if (map_ring(s, error, error_size) < 0) return 1;
  } else if (!(s->frame = calloc(1, s->frame_bytes))) {
    snprintf(error, error_size, "out of memory");
    return 1;
  }
  write_header(s);
  uint8_t *obs = s->frame + s->section[CRAFTER_SECTION_OBS];
  if (s->obs_bytes) memcpy(obs, crafter_jbatch_obs(s->batch, 0), s->obs_bytes * (size_t)s->envs);
  crafter_jbatch_redirect(s->batch, s->obs_bytes ? obs : NULL);
  for (int i = 0; i < s->envs; i++) fill_frame(s, i, NULL, 1);
  if (send_frame(s) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return 1;
  }
  for (long step = 1;; step++) {
    long available = crafter_input_fill(in, 1);
    uint8_t first = available > 0 ? in->buffer[in->start] : 0;
    if (first == CRAFTER_PROTOCOL_SAVE || first == CRAFTER_PROTOCOL_LOAD) {
      if (answer_request(s, in, first == CRAFTER_PROTOCOL_SAVE, step, error, error_size) < 0)
        return 1;
      step--; /* a request is not a step */
      continue;
    }
    if (available > 0) available = crafter_input_fill(in, (size_t)s->envs);
    if (available < 0) {
      snprintf(error, error_size, "reading standard input: %s", strerror(errno));
      return 1;
    }
    if (available == 0) return 0;
    if (available < s->envs) {
      snprintf(error, error_size, "input ended in the middle of step %ld: %ld of %d action bytes",
               step, available, s->envs);
      return 1;
    }
    const uint8_t *actions = in->buffer + in->start;
    for (int i = 0; i < s->envs; i++)
      if (actions[i] >= s->game->actions && actions[i] != CRAFTER_JBATCH_RESET) {
        if (actions[i] == CRAFTER_PROTOCOL_RENDER)
          snprintf(error, error_size,
                   "step %ld, env %d: byte %d asks for a render, which %s does not answer: "
                   "its pictures are observations, --obs pixels (crafter-protocol(5))",
                   step, i, actions[i], s->game->title);
        else
          snprintf(error, error_size, "step %ld, env %d: action %d out of range (0..%d, or %d to reset)",
                   step, i, actions[i], s->game->actions - 1, CRAFTER_JBATCH_RESET);
        return 1;
      }
    memcpy(s->actions, actions, (size_t)s->envs);
    in->start += (size_t)s->envs;
    before_step(s);
    if (crafter_jbatch_step(s->batch, s->actions, s->outcomes, s->started) != 0) {
      snprintf(error, error_size, "out of memory");
      return 1;
    }
    record_step(s);
    if (s->record_failed) {
      snprintf(error, error_size, "%s", s->record_error);
      return 1;
    }
    for (int i = 0; i < s->envs; i++) fill_frame(s, i, &s->outcomes[i], s->started[i]);
    if (send_frame(s) < 0) {
      snprintf(error, error_size, "writing standard output: %s", strerror(errno));
      return 1;
    }
    if (count_ends(s)) return 0;
  }
}

/* --obs pixels: the textures of --textures (the reference's assets
 * folder), else the toolkit's own.  0, or -1 with the error. */
static int load_pixel_textures(jsession *s, char *error, size_t error_size) {
  const char *folder = s->options->run.textures;
  if (!(s->textures = malloc(s->g->textures_size))) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  if (!folder) return s->g->textures_builtin(s->textures, error, error_size);
  char reason[4096 + 200];
  if (s->g->textures_load(s->textures, folder, reason, sizeof reason) == 0) return 0;
  snprintf(error, error_size, "--textures: %s (it names %s)", reason, s->g->assets_folder);
  return -1;
}

int crafter_jsession_run(const crafter_session_options *options, int input, FILE *output,
                           char *error, size_t error_size) {
  if (options->semantic_info) {
    snprintf(error, error_size,
             "--semantic is Crafter's: %s has no semantic map (Crafter's info['semantic']); "
             "its map is in its saved states (save requests, crafter-state(5))",
             crafter_game_info_of(options->run.game)->title);
    return 2;
  }
  if (options->info == CRAFTER_INFO_FULL) {
    snprintf(error, error_size, "--info full is Crafter's (its reference traces): use short or "
                                "state with --game %s",
             crafter_game_info_of(options->run.game)->name);
    return 2;
  }
  jsession s;
  memset(&s, 0, sizeof s);
  s.options = options;
  s.game = crafter_game_info_of(options->run.game);
  s.g = crafter_jgame_of(options->run.game);
  s.envs = options->run.envs;
  s.out = output;
  s.state_bytes = crafter_jstate_bytes(s.g);
  s.text = options->run.obs_kind == CRAFTER_OBS_TEXT;
  if (s.text && options->binary) {
    snprintf(error, error_size, "text observations have no fixed size; use them with JSON lines");
    return 2;
  }
  if (options->run.obs_kind == CRAFTER_OBS_PIXELS && load_pixel_textures(&s, error, error_size) < 0) {
    free(s.textures);
    return 1;
  }
  if (s.g->configure && options->run.obs_kind == CRAFTER_OBS_PIXELS && options->run.jlevel_set) {
    snprintf(error, error_size,
             "--levels with --obs pixels: %s's level sets are the symbolic env's worlds, and "
             "its pixels env makes others (crafter-games(7))",
             s.game->title);
    free(s.textures);
    return 2;
  }
  crafter_jbatch_options batch = {
      .game = s.g,
      .obs_kind = options->run.obs_kind,
      .envs = s.envs,
      .threads = options->run.threads > 0 ? options->run.threads : 1,
      .seed = options->run.params.seed,
      .first_episode = options->run.first_episode,
      .symbolic = options->run.obs_kind == CRAFTER_OBS_SYMBOLIC,
      .final_obs = options->run.record_path != NULL || options->final_obs,
      .manual_reset = options->manual_reset,
      .levels = options->run.jlevel_set,
      .level_order = options->run.levels.order,
      .pixels = s.textures,
  };
  s.outcomes = calloc((size_t)s.envs, sizeof *s.outcomes);
  s.started = calloc((size_t)s.envs, 1);
  s.actions = calloc((size_t)s.envs, 1);
  s.was_waiting = calloc((size_t)s.envs, 1);
  s.episode_before = calloc((size_t)s.envs, sizeof *s.episode_before);
  crafter_input *in = calloc(1, sizeof *in);
  int status = 1;
  s.state = malloc(s.state_bytes);
  if (!s.outcomes || !s.started || !s.actions || !s.was_waiting || !s.episode_before || !in ||
      !s.state) {
    snprintf(error, error_size, "out of memory");
  } else if ((s.batch = crafter_jbatch_new(&batch, error, error_size)) != NULL &&
             record_open(&s, error, error_size) == 0) {
    s.obs_bytes = crafter_jbatch_obs_bytes(s.batch);
    in->fd = input;
    in->flush = output;
    status = options->binary ? run_binary(&s, in, error, error_size)
                             : run_text(&s, in, error, error_size);
    char record_error[300];
    if (record_close(&s, record_error, sizeof(record_error)) < 0 && status == 0) {
      snprintf(error, error_size, "%s", record_error);
      status = 1;
    }
  }
  if (s.writer) crafter_traj_writer_abort(s.writer);
  for (int i = 0; s.recorders && i < s.envs; i++) crafter_traj_recorder_free(s.recorders[i]);
  free(s.recorders);
  crafter_jbatch_free(s.batch);
  free(s.textures);
  free(s.state);
  free(in);
  if (s.ring)
    munmap(s.ring, s.ring_bytes);
  else
    free(s.frame);
  free(s.was_waiting);
  free(s.episode_before);
  free(s.outcomes);
  free(s.started);
  free(s.actions);
  if (fflush(output) != 0 || ferror(output)) {
    if (status == 0) snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return 1;
  }
  return status;
}
