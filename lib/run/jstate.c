#include "run/jstate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "base/params.h"
#include "run/state.h"

void crafter_jstate_save_state(const crafter_jgame *g, const void *state, int64_t seed,
                               int64_t episode, crafter_jaxkey key, uint8_t *out) {
  size_t bytes = crafter_jstate_bytes(g);
  memset(out, 0, CRAFTER_JSTATE_HEADER_BYTES);
  memcpy(out, CRAFTER_STATE_MAGIC, 8);
  crafter_put_u32(out + 8, CRAFTER_GAME_STATE_VERSION);
  crafter_put_u32(out + 12, (uint32_t)g->game);
  crafter_put_u64(out + 16, bytes);
  crafter_put_i64(out + 24, seed);
  crafter_put_i64(out + 32, episode);
  crafter_put_u32(out + 40, key.word[0]);
  crafter_put_u32(out + 44, key.word[1]);
  crafter_put_u32(out + 48, (uint32_t)g->state_words);
  uint8_t *at = out + CRAFTER_JSTATE_HEADER_BYTES;
  /* The words are written in place, then put in little-endian order. */
  uint32_t *words = malloc(4 * (size_t)g->state_words);
  if (words) {
    g->to_words(state, words);
    for (int k = 0; k < g->state_words; k++, at += 4) crafter_put_u32(at, words[k]);
    free(words);
  } else {
    memset(at, 0, 4 * (size_t)g->state_words);
    at += 4 * (size_t)g->state_words;
  }
  crafter_put_u32(at, crafter_crc32(out, (size_t)(at - out)));
}

void crafter_jstate_save(const crafter_jgame *g, void *env, uint8_t *out) {
  crafter_jenv_fields f = g->fields(env);
  crafter_jstate_save_state(g, g->state(env), *f.seed, *f.episode, *f.key, out);
}

int crafter_jstate_load(const crafter_jgame *g, void *env, const uint8_t *state, size_t size,
                        char *error, size_t error_size) {
  const char *ours = crafter_jgame_info(g)->name;
  if (size < 8 || memcmp(state, CRAFTER_STATE_MAGIC, 8) != 0)
    return crafter_fail(error, error_size, "not a saved state (it does not begin with %s)",
                        CRAFTER_STATE_MAGIC);
  if (size < 16) return crafter_fail(error, error_size, "a saved state cut short: %zu bytes", size);
  uint32_t version = crafter_get_u32(state + 8);
  if (version == CRAFTER_STATE_VERSION)
    return crafter_fail(error, error_size, "a state of crafter (format version 1), not of %s",
                        ours);
  if (version != CRAFTER_GAME_STATE_VERSION)
    return crafter_fail(error, error_size,
                        "a state of format version %u; this toolkit reads versions %d and %d "
                        "(crafter-state(5))",
                        version, CRAFTER_STATE_VERSION, CRAFTER_GAME_STATE_VERSION);
  uint32_t game = crafter_get_u32(state + 12);
  if (game != (uint32_t)g->game) {
    const crafter_game_info *info = crafter_game_info_of((int)game);
    if (info) return crafter_fail(error, error_size, "a state of %s, not of %s", info->name, ours);
    return crafter_fail(error, error_size,
                        "a state of game number %u, which this toolkit does not know (%s is %d)",
                        game, ours, g->game);
  }
  size_t bytes = crafter_jstate_bytes(g);
  if (size < CRAFTER_JSTATE_HEADER_BYTES + 4)
    return crafter_fail(error, error_size, "a saved state cut short: %zu bytes", size);
  uint64_t length = crafter_get_u64(state + 16);
  if (length != size)
    return crafter_fail(error, error_size, "a saved state of %zu bytes that says it has %llu",
                        size, (unsigned long long)length);
  if (size != bytes)
    return crafter_fail(error, error_size, "a %s state of %zu bytes; one has %zu", ours, size,
                        bytes);
  if (crafter_crc32(state, size - 4) != crafter_get_u32(state + size - 4))
    return crafter_fail(error, error_size, "the saved state is damaged: its checksum does not match");
  int64_t seed = crafter_get_i64(state + 24), episode = crafter_get_i64(state + 32);
  if (seed < CRAFTER_SEED_MIN || seed > CRAFTER_SEED_MAX)
    return crafter_fail(error, error_size, "a saved state whose seed %lld is out of range",
                        (long long)seed);
  if (episode < 1 || episode > CRAFTER_EPISODE_MAX)
    return crafter_fail(error, error_size,
                        "a saved state whose episode counter %lld is not 1 to 2**31-1",
                        (long long)episode);
  uint32_t words = crafter_get_u32(state + 48), reserved = crafter_get_u32(state + 52);
  if (words != (uint32_t)g->state_words || reserved != 0)
    return crafter_fail(error, error_size,
                        "a saved state that says it has %u words (%s's have %d) "
                        "or whose reserved bytes 52 to 55 are not zero",
                        words, ours, g->state_words);
  uint32_t *values = malloc(4 * (size_t)g->state_words);
  void *loaded = malloc(g->state_size);
  if (!values || !loaded) {
    free(values);
    free(loaded);
    return crafter_fail(error, error_size, "out of memory loading a state");
  }
  for (int k = 0; k < g->state_words; k++)
    values[k] = crafter_get_u32(state + CRAFTER_JSTATE_HEADER_BYTES + 4 * (size_t)k);
  char why[160];
  int status = g->from_words(loaded, values, why, sizeof why);
  if (status == 0) {
    memcpy(g->state(env), loaded, g->state_size);
    crafter_jenv_fields f = g->fields(env);
    *f.seed = seed;
    *f.episode = episode;
    f.key->word[0] = crafter_get_u32(state + 40);
    f.key->word[1] = crafter_get_u32(state + 44);
    *f.world_key = (crafter_jaxkey){{0, 0}}; /* a saved state does not hold it */
    *f.reset_due = 0;
  } else {
    crafter_fail(error, error_size, "a saved state whose %s", why);
  }
  free(values);
  free(loaded);
  return status;
}
