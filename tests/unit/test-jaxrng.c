/* JAX's random draws (lib/kernels/jaxrng.c) against JAX itself.
 *
 *   test-jaxrng FILE
 *
 * FILE holds cases printed by tests/reference/jaxrng.py (its docstring
 * gives the format): JAX's outputs, each recomputed here and compared bit
 * for bit, one test per kind of call.  tests/unit-jaxrng.t runs it on
 * tests/data/jaxrng/golden.txt, recorded from jax 0.10.2 (0.10.1 writes the same bytes) with
 *
 *   build-reference/craftax-venv/bin/python tests/reference/jaxrng.py \
 *       --seed 1 > tests/data/jaxrng/golden.txt
 *
 * and tests/jaxrng.t on fresh cases where JAX is installed.  No expected
 * value is written here: all come from the file.  Then the same cases are
 * recomputed two wrong ways that must not pass: with JAX's other,
 * non-partitionable layout of the counters, and with choice(p)'s
 * cumulative sum taken as a plain running sum.
 *
 * The choice_mask cases are drawn both by crafter_jax_choice_p, from the
 * mask's p, and by crafter_jax_choice_equal, from the mask itself; a value
 * is JAX's only when both give it.  Past the file, choice_equal must give
 * choice_p's indices on masks of every density and size, and every copy
 * of the kernels' hash (cc_kernels.h) crafter_jax_bits's bits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cc_kernels.h"
#include "kernels/jaxrng.h"
#include "kernels/kernels.h"
#include "tap.h"

enum kind { KEY, SPLIT, FOLD_IN, BITS, UNIFORM, RANDINT, CHOICE, CHOICE_P, CHOICE_MASK, CUMSUM,
            BERNOULLI, KINDS };
static const char *const kind_names[KINDS] = {"key", "split", "fold_in", "bits", "uniform",
                                              "randint", "choice", "choice_p", "choice_mask",
                                              "cumsum", "bernoulli"};

struct tally {
  long cases, values, wrong_cases, wrong_values;
  char first_wrong[160];
};

/* One line cut into its words: the arguments before '=' and the values
 * after it. */
struct line {
  char **word;
  int words;
  char **value;
  long values;
};

static int split_line(char *text, struct line *line, char ***storage, long *room) {
  long tokens = 0, equals = -1;
  for (char *token = strtok(text, " \n"); token; token = strtok(NULL, " \n")) {
    if (tokens == *room) {
      *room = *room ? 2 * *room : 1024;
      char **grown = realloc(*storage, (size_t)*room * sizeof *grown);
      if (!grown) return -1;
      *storage = grown;
    }
    if (equals < 0 && strcmp(token, "=") == 0) equals = tokens;
    (*storage)[tokens++] = token;
  }
  if (equals < 2) return -1;
  line->word = *storage;
  line->words = (int)equals;
  line->value = *storage + equals + 1;
  line->values = tokens - equals - 1;
  return 0;
}

static uint32_t hex32(const char *text) { return (uint32_t)strtoul(text, NULL, 16); }

static float hexfloat(const char *text) {
  uint32_t bits = hex32(text);
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static uint32_t float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

/* The element count of a shape: '-' is (), 1; '3x4' is 12. */
static long shape_count(const char *text) {
  if (strcmp(text, "-") == 0) return 1;
  long count = 1;
  for (const char *at = text; *at;) {
    char *end;
    count *= strtol(at, &end, 10);
    at = *end == 'x' ? end + 1 : end;
    if (end == at && *at) return -1;
  }
  return count;
}

static crafter_jaxkey key_of(char **word) {
  crafter_jaxkey key = {{hex32(word[0]), hex32(word[1])}};
  return key;
}

/* The ways a case can be recomputed: this module's, and the two wrong
 * ones the file must refuse. */
enum way { RIGHT, ORIGINAL_LAYOUT, RUNNING_SUM };

/* JAX's non-partitionable layout (jax_threefry_partitionable off): the
 * counters 0 .. n-1 (padded to even) cut in two halves that are hashed
 * pairwise, the first words of every hash then the second words. */
static void original_layout_bits(crafter_jaxkey key, uint32_t *out, long count) {
  long half = (count + 1) / 2;
  for (long i = 0; i < half; i++) {
    uint32_t x[2] = {(uint32_t)i, i + half < count ? (uint32_t)(i + half) : 0U};
    crafter_jax_threefry2x32(key, x);
    out[i] = x[0];
    if (i + half < count) out[i + half] = x[1];
  }
}

static void plain_running_sum(const float *x, long n, float *out) {
  float sum = 0.0f;
  for (long i = 0; i < n; i++) out[i] = sum = sum + x[i];
}

static void draw_uniform(enum way way, crafter_jaxkey key, float *out, long count, float minval,
                         float maxval) {
  if (way != ORIGINAL_LAYOUT) {
    crafter_jax_uniform(key, out, count, minval, maxval);
    return;
  }
  uint32_t *bits = malloc((size_t)count * sizeof *bits);
  if (!bits) abort();
  original_layout_bits(key, bits, count);
  for (long i = 0; i < count; i++) out[i] = crafter_jax_uniform_of_bits(bits[i], minval, maxval);
  free(bits);
}

/* Recomputes one case into got[] (as the words the file would print,
 * turned to uint32) and says how many values it holds; -1 for a case it
 * cannot read. */
static long recompute(enum way way, enum kind kind, const struct line *line, uint32_t *got) {
  char *const *w = line->word + 1;
  long count;
  switch (kind) {
  case KEY: {
    crafter_jaxkey key = crafter_jax_key((int64_t)strtoll(w[0], NULL, 10));
    got[0] = key.word[0];
    got[1] = key.word[1];
    return 2;
  }
  case SPLIT: {
    count = shape_count(w[2]);
    if (count < 1 || 2 * count != line->values) return -1;
    crafter_jaxkey *keys = malloc((size_t)count * sizeof *keys);
    if (!keys) abort();
    if (way == ORIGINAL_LAYOUT)
      original_layout_bits(key_of((char **)w), got, 2 * count);
    else {
      crafter_jax_split(key_of((char **)w), keys, count);
      for (long i = 0; i < count; i++) {
        got[2 * i] = keys[i].word[0];
        got[2 * i + 1] = keys[i].word[1];
      }
    }
    free(keys);
    return 2 * count;
  }
  case FOLD_IN: {
    crafter_jaxkey key = crafter_jax_fold_in(key_of((char **)w), (uint32_t)strtoull(w[2], NULL, 10));
    got[0] = key.word[0];
    got[1] = key.word[1];
    return 2;
  }
  case BITS:
    count = shape_count(w[2]);
    if (way == ORIGINAL_LAYOUT)
      original_layout_bits(key_of((char **)w), got, count);
    else
      crafter_jax_bits(key_of((char **)w), got, count);
    return count;
  case UNIFORM: {
    count = shape_count(w[2]);
    float *values = malloc((size_t)count * sizeof *values);
    if (!values) abort();
    draw_uniform(way, key_of((char **)w), values, count, hexfloat(w[3]), hexfloat(w[4]));
    for (long i = 0; i < count; i++) got[i] = float_bits(values[i]);
    free(values);
    return count;
  }
  case RANDINT:
  case CHOICE: {
    count = shape_count(w[2]);
    if (count < 1 || count > line->values) return -1;
    int32_t *values = malloc((size_t)count * sizeof *values);
    if (!values) abort();
    if (kind == RANDINT)
      crafter_jax_randint(key_of((char **)w), values, count, (int32_t)strtol(w[3], NULL, 10),
                          (int32_t)strtol(w[4], NULL, 10));
    else
      crafter_jax_choice(key_of((char **)w), (int32_t)strtol(w[3], NULL, 10), values, count);
    for (long i = 0; i < count; i++) got[i] = (uint32_t)values[i];
    free(values);
    return count;
  }
  case CHOICE_P:
  case CHOICE_MASK: {
    count = shape_count(w[2]);
    long n = strtol(w[3], NULL, 10);
    if (count < 1 || n < 1 || count > line->values) return -1;
    if (kind == CHOICE_P && line->words != 5 + n) return -1;
    if (kind == CHOICE_MASK && (line->words != 6 || (long)strlen(w[4]) != (n + 3) / 4)) return -1;
    float *p = malloc((size_t)n * sizeof *p), *cumsum = malloc((size_t)n * sizeof *cumsum);
    int32_t *values = malloc((size_t)count * sizeof *values);
    if (!p || !cumsum || !values) abort();
    if (kind == CHOICE_P) {
      for (long i = 0; i < n; i++) p[i] = hexfloat(w[4 + i]);
    } else {
      /* Craftax's p: the mask as float32 over its count, a true division. */
      long ones = 0;
      for (long i = 0; i < n; i++) {
        char digit[2] = {w[4][i / 4], 0};
        p[i] = (float)((strtoul(digit, NULL, 16) >> (3 - i % 4)) & 1U);
        ones += p[i] != 0.0f;
      }
      for (long i = 0; i < n; i++) p[i] = p[i] / (float)ones;
    }
    if (way == RUNNING_SUM)
      plain_running_sum(p, n, cumsum);
    else if (crafter_jax_cumsum(p, n, cumsum) != 0)
      abort();
    crafter_jaxkey key = key_of((char **)w);
    if (way == RIGHT && kind == CHOICE_MASK) {
      /* choice_equal from the mask as bytes; where it differs from
       * choice_p, a value JAX cannot have given. */
      uint8_t *mask = malloc((size_t)n);
      int32_t *equal = malloc((size_t)count * sizeof *equal);
      if (!mask || !equal) abort();
      for (long i = 0; i < n; i++) mask[i] = p[i] != 0.0f;
      if (crafter_jax_choice_equal(key, mask, n, 1, equal, count) != 0) abort();
      crafter_jax_choice_cumsum(key, cumsum, n, values, count);
      for (long i = 0; i < count; i++)
        if (equal[i] != values[i]) values[i] = -1;
      free(mask);
      free(equal);
    } else if (way == ORIGINAL_LAYOUT) {
      /* The uniform draws of the other layout; the index is the first
       * whose sum is not below r, as searchsorted's. */
      float *u = malloc((size_t)count * sizeof *u);
      if (!u) abort();
      draw_uniform(way, key, u, count, 0.0f, 1.0f);
      for (long i = 0; i < count; i++) {
        float r = cumsum[n - 1] * (1.0f - u[i]);
        long low = 0;
        while (low < n && cumsum[low] < r) low++;
        values[i] = (int32_t)low;
      }
      free(u);
    } else {
      crafter_jax_choice_cumsum(key, cumsum, n, values, count);
    }
    for (long i = 0; i < count; i++) got[i] = (uint32_t)values[i];
    free(p);
    free(cumsum);
    free(values);
    return count;
  }
  case CUMSUM: {
    long n = strtol(w[0], NULL, 10);
    if (n < 1 || line->words != 2 + n) return -1;
    float *p = malloc((size_t)n * sizeof *p), *cumsum = malloc((size_t)n * sizeof *cumsum);
    if (!p || !cumsum) abort();
    for (long i = 0; i < n; i++) p[i] = hexfloat(w[1 + i]);
    if (way == RUNNING_SUM)
      plain_running_sum(p, n, cumsum);
    else if (crafter_jax_cumsum(p, n, cumsum) != 0)
      abort();
    for (long i = 0; i < n; i++) got[i] = float_bits(cumsum[i]);
    free(p);
    free(cumsum);
    return n;
  }
  case BERNOULLI: {
    count = shape_count(w[2]);
    uint8_t *values = malloc((size_t)count);
    if (!values) abort();
    if (way == ORIGINAL_LAYOUT) {
      float *u = malloc((size_t)count * sizeof *u);
      if (!u) abort();
      draw_uniform(way, key_of((char **)w), u, count, 0.0f, 1.0f);
      for (long i = 0; i < count; i++) values[i] = u[i] < hexfloat(w[3]);
      free(u);
    } else {
      crafter_jax_bernoulli(key_of((char **)w), hexfloat(w[3]), values, count);
    }
    for (long i = 0; i < count; i++) got[i] = values[i];
    free(values);
    return count;
  }
  default:
    return -1;
  }
}

/* The file's values as the words recompute() gives: hex for keys, bits
 * and floats, decimal for integers. */
static uint32_t expected_word(enum kind kind, const char *text) {
  switch (kind) {
  case RANDINT:
  case CHOICE:
  case CHOICE_P:
  case CHOICE_MASK:
  case BERNOULLI:
    return (uint32_t)strtol(text, NULL, 10);
  default:
    return hex32(text);
  }
}

/* Checks every case of the file the given way; tallies by kind. */
static int check_file(const char *path, enum way way, struct tally *tally) {
  FILE *file = fopen(path, "r");
  if (!file) return -1;
  char *text = NULL, **storage = NULL;
  size_t size = 0;
  long room = 0, line_number = 0;
  uint32_t *got = NULL;
  long got_room = 0;
  int status = 0;
  while (getline(&text, &size, file) > 0) {
    line_number++;
    struct line line;
    if (text[0] == '#' || text[0] == '\n') continue;
    if (split_line(text, &line, &storage, &room) != 0) {
      status = -1;
      break;
    }
    enum kind kind = KINDS;
    for (int k = 0; k < KINDS; k++)
      if (strcmp(line.word[0], kind_names[k]) == 0) kind = (enum kind)k;
    if (kind == KINDS) {
      status = -1;
      break;
    }
    if (got_room < line.values + 2) {
      got_room = line.values + 2;
      free(got);
      got = malloc((size_t)got_room * sizeof *got);
      if (!got) abort();
    }
    long count = recompute(way, kind, &line, got);
    if (count != line.values) {
      fprintf(stderr, "%s:%ld: a %s case this test cannot read\n", path, line_number,
              kind_names[kind]);
      status = -1;
      break;
    }
    struct tally *t = &tally[kind];
    long wrong = 0, first = -1;
    for (long i = 0; i < count; i++)
      if (got[i] != expected_word(kind, line.value[i])) {
        if (first < 0) first = i;
        wrong++;
      }
    t->cases++;
    t->values += count;
    t->wrong_values += wrong;
    if (wrong && !t->wrong_cases++)
      snprintf(t->first_wrong, sizeof t->first_wrong,
               "line %ld, value %ld: JAX %s, here %08" PRIx32 " (%" PRId32 ")", line_number, first,
               line.value[first], got[first], (int32_t)got[first]);
  }
  free(text);
  free(storage);
  free(got);
  fclose(file);
  return status;
}

int main(int argc, char **argv) {
  /* --fresh: the file's cases were drawn afresh (tests/jaxrng.t), so
   * they need not hold a case that tells the wrong ways apart; the golden
   * file does, and is checked for it. */
  int fresh = argc == 3 && strcmp(argv[1], "--fresh") == 0;
  if (argc != 2 + fresh) {
    fprintf(stderr, "usage: test-jaxrng [--fresh] FILE (cases printed by "
                    "tests/reference/jaxrng.py)\n");
    return 2;
  }
  const char *path = argv[1 + fresh];
  struct tally right[KINDS] = {{0}};
  int status = check_file(path, RIGHT, right);
  ok(status == 0, "%s is read whole", path);
  long cases = 0, values = 0;
  for (int k = 0; k < KINDS; k++) {
    const struct tally *t = &right[k];
    cases += t->cases;
    values += t->values;
    if (t->cases == 0) {
      skip("no %s case in the file", kind_names[k]);
      continue;
    }
    ok(t->wrong_cases == 0, "%s: %ld of %ld cases and %ld of %ld values are JAX's%s%s",
       kind_names[k], t->cases - t->wrong_cases, t->cases, t->values - t->wrong_values,
       t->values, t->wrong_cases ? "; first difference at " : "", t->first_wrong);
  }
  printf("# %ld cases, %ld values compared with JAX's\n", cases, values);

  if (fresh) return tap_done();
  /* What the file's cases can tell apart: JAX's non-partitionable layout
   * and a running sum for choice(p) must each fail somewhere. */
  struct tally original[KINDS] = {{0}}, running[KINDS] = {{0}};
  check_file(path, ORIGINAL_LAYOUT, original);
  check_file(path, RUNNING_SUM, running);
  const enum kind layout_kinds[] = {SPLIT, BITS, UNIFORM, CHOICE_MASK};
  for (size_t i = 0; i < sizeof layout_kinds / sizeof *layout_kinds; i++) {
    const struct tally *t = &original[layout_kinds[i]];
    if (t->cases == 0) continue;
    ok(t->wrong_cases > 0, "the non-partitionable layout fails %s: %ld of %ld cases differ",
       kind_names[layout_kinds[i]], t->wrong_cases, t->cases);
  }
  const enum kind sum_kinds[] = {CHOICE_MASK, CUMSUM};
  for (size_t i = 0; i < sizeof sum_kinds / sizeof *sum_kinds; i++) {
    const struct tally *t = &running[sum_kinds[i]];
    if (t->cases == 0) continue;
    ok(t->wrong_cases > 0, "a plain running sum fails %s: %ld of %ld cases differ",
       kind_names[sum_kinds[i]], t->wrong_cases, t->cases);
  }

  /* choice_equal against choice_p over p = mask / count, on masks of
   * every density (none wanted: the index n), sizes up to one tile, past
   * it, not whole tiles, and past the 4096 values kept on the stack; and
   * the sums it works out against the cumulative sum of p, NaN (nothing
   * wanted) included, bit for bit. */
  {
    static const long sizes[] = {1, 2, 15, 16, 17, 31, 33, 100, 256, 257, 1000, 4095, 4096, 4097,
                                 5000, 70000};
    static const double densities[] = {0.0, 0.001, 0.05, 0.3, 0.5, 0.9, 1.0};
    uint64_t state = 12345;
    long cases = 0, differ = 0, sums_differ = 0;
    char first_difference[120] = "";
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      long n = sizes[s];
      uint8_t *values = malloc((size_t)n);
      float *p = malloc((size_t)n * sizeof *p), *sums = malloc((size_t)n * sizeof *sums),
            *sums_equal = malloc((size_t)n * sizeof *sums_equal);
      if (!values || !p || !sums || !sums_equal) abort();
      for (size_t d = 0; d < sizeof densities / sizeof *densities; d++)
        for (int draw = 0; draw < 6; draw++) {
          long wanted = 0;
          for (long i = 0; i < n; i++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            double u = (double)(state >> 11) * 0x1p-53;
            /* the wanted value 7 among others */
            values[i] = u < densities[d] ? 7 : (uint8_t)(state >> 8) % 7;
            wanted += values[i] == 7;
          }
          for (long i = 0; i < n; i++) p[i] = (values[i] == 7 ? 1.0f : 0.0f) / (float)wanted;
          crafter_jaxkey key = {{(uint32_t)(state >> 32), (uint32_t)draw}};
          int32_t by_p[5], by_equal[5];
          if (crafter_jax_choice_p(key, p, n, by_p, 5) != 0 ||
              crafter_jax_choice_equal(key, values, n, 7, by_equal, 5) != 0 ||
              crafter_jax_cumsum(p, n, sums) != 0 ||
              crafter_jax_cumsum_equal(values, n, 7, sums_equal) != 0)
            abort();
          cases++;
          int index = 0;
          while (index < 5 && by_p[index] == by_equal[index]) index++;
          if (index < 5 && differ++ == 0)
            snprintf(first_difference, sizeof first_difference,
                     "; first: n %ld, density %g, draw %d: %" PRId32 " and %" PRId32, n,
                     densities[d], draw, by_p[index], by_equal[index]);
          if (memcmp(sums, sums_equal, (size_t)n * sizeof *sums) != 0) sums_differ++;
        }
      free(values);
      free(p);
      free(sums);
      free(sums_equal);
    }
    ok(differ == 0, "choice_equal gives choice_p's indices: %ld of %ld masks%s", cases - differ,
       cases, first_difference);
    ok(sums_differ == 0, "the sums choice_equal works out are crafter_jax_cumsum's, bit for bit: "
       "%ld of %ld masks", cases - sums_differ, cases);
  }

  /* The kernels' hash, at every level this processor runs, against
   * crafter_jax_bits: counts that are not whole vectors, and counters that
   * do not start at 0. */
  {
    static const int levels[] = {0, 3, 4};
    static uint32_t want[5000], got[5000 + 16];
    crafter_jaxkey key = {{0x12345678U, 0x9abcdef0U}};
    crafter_jax_bits(key, want, 5000);
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
      if (crafter_kernels_set_level(levels[l]) != levels[l]) {
        skip("kernels of level %d: this processor or build does not run them", levels[l]);
        continue;
      }
      const crafter_cc_kernels *kernels = crafter_kernels_cc();
      long differ = 0, tried = 0;
      static const long firsts[] = {0, 1, 7, 100, 4000}, counts[] = {1, 3, 16, 17, 99, 1000};
      for (size_t f = 0; f < sizeof firsts / sizeof *firsts; f++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
          got[counts[c]] = 0xdeadbeefU;
          kernels->bits(key, (uint32_t)firsts[f], counts[c], got);
          for (long i = 0; i < counts[c]; i++) differ += got[i] != want[firsts[f] + i];
          differ += got[counts[c]] != 0xdeadbeefU; /* nothing written past count */
          tried += counts[c] + 1;
        }
      ok(differ == 0, "level %d: the kernels' bits are crafter_jax_bits's (%ld of %ld words)",
         levels[l], tried - differ, tried);
    }
    crafter_kernels_set_level(-1);
  }

  /* The scalar forms are element 0 of the array forms. */
  crafter_jaxkey key = crafter_jax_key(1234), halves[3];
  float u[3];
  int32_t r[3];
  crafter_jax_uniform(key, u, 3, 0.0f, 1.0f);
  crafter_jax_randint(key, r, 3, -4, 9);
  crafter_jax_split(key, halves, 3);
  ok(crafter_jax_uniform1(key) == u[0] && crafter_jax_randint1(key, -4, 9) == r[0] &&
         crafter_jax_split_one(key, 2).word[1] == halves[2].word[1],
     "uniform1, randint1 and split_one are element 0 (2) of uniform, randint and split");

  /* The inline hash and the eight-lane one (each copy of it this build
   * and processor have: plain C, AVX2, AVX-512) are
   * crafter_jax_threefry2x32, on keys and counters spread over all 32
   * bits (a xorshift's words). */
  uint32_t state = 0x9E3779B9U;
  long hashes = 0, differ_inline = 0, differ_lanes = 0, differ_unit = 0;
  int levels[3] = {0, 3, 4}, tried = 0;
  for (int round = 0; round < 30000; round++) {
    if (round % 10000 == 0) tried += crafter_kernels_set_level(levels[round / 10000]) == levels[round / 10000];
    uint32_t k0[CRAFTER_JAX_LANES], k1[CRAFTER_JAX_LANES], x0[CRAFTER_JAX_LANES],
        x1[CRAFTER_JAX_LANES], expect[CRAFTER_JAX_LANES][2];
    for (int l = 0; l < CRAFTER_JAX_LANES; l++) {
      uint32_t *words[4] = {&k0[l], &k1[l], &x0[l], &x1[l]};
      for (int w = 0; w < 4; w++) {
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        *words[w] = state;
      }
      crafter_jaxkey lane_key = {{k0[l], k1[l]}};
      expect[l][0] = x0[l], expect[l][1] = x1[l];
      crafter_jax_threefry2x32(lane_key, expect[l]);
      uint32_t inline_x[2] = {x0[l], x1[l]};
      crafter_jax_threefry2x32_inline(lane_key, inline_x);
      differ_inline += inline_x[0] != expect[l][0] || inline_x[1] != expect[l][1];
      float unit = crafter_jax_uniform_of_bits(state, 0.0f, 1.0f);
      differ_unit += float_bits(crafter_jax_unit_of_bits(state)) != float_bits(unit);
    }
    crafter_jax_threefry2x32_lanes(crafter_kernels_level(), k0, k1, x0, x1);
    for (int l = 0; l < CRAFTER_JAX_LANES; l++, hashes++)
      differ_lanes += x0[l] != expect[l][0] || x1[l] != expect[l][1];
  }
  crafter_kernels_set_level(-1);
  ok(differ_inline == 0 && differ_lanes == 0,
     "the inline and eight-lane threefry2x32 (%d copies) agree with it: %ld and %ld of %ld hashes "
     "differ",
     tried, differ_inline, differ_lanes, hashes);
  ok(differ_unit == 0, "unit_of_bits is uniform_of_bits(bits, 0, 1): %ld of %ld differ",
     differ_unit, hashes);
  int32_t many[1000];
  crafter_jax_randint(key, many, 1000, 0, 17);
  int at = 1;
  for (uint64_t i = 0; i < 1000; i++) at &= crafter_jax_randint_at(key, i, 0, 17) == many[i];
  ok(at, "randint_at(key, i) is element i of randint, for the first 1000");

  /* The pair kernel (each copy this build and processor have) is
   * crafter_jax_threefry2x32 of counters (0, ca) and (0, cb), its results
   * written over its keys: the first row's over the second row's keys. */
  long pair_hashes = 0, pair_differ = 0;
  int pair_tried = 0;
  for (int round = 0; round < 3000; round++) {
    if (round % 1000 == 0)
      pair_tried += crafter_kernels_set_level(levels[round / 1000]) == levels[round / 1000];
    uint32_t a0[CRAFTER_JAX_PAIR], a1[CRAFTER_JAX_PAIR], b0[CRAFTER_JAX_PAIR],
        b1[CRAFTER_JAX_PAIR], expect[2][CRAFTER_JAX_PAIR][2], counter[2];
    uint32_t *words[4] = {a0, a1, b0, b1};
    for (int w = 0; w < 4; w++)
      for (int l = 0; l < CRAFTER_JAX_PAIR; l++) {
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        words[w][l] = state;
      }
    counter[0] = (uint32_t)round % 3U, counter[1] = state;
    for (int l = 0; l < CRAFTER_JAX_PAIR; l++) {
      crafter_jaxkey ka = {{a0[l], a1[l]}}, kb = {{b0[l], b1[l]}};
      expect[0][l][0] = expect[1][l][0] = 0U;
      expect[0][l][1] = counter[0], expect[1][l][1] = counter[1];
      crafter_jax_threefry2x32(ka, expect[0][l]);
      crafter_jax_threefry2x32(kb, expect[1][l]);
    }
    uint32_t out0[CRAFTER_JAX_PAIR], out1[CRAFTER_JAX_PAIR];
    crafter_jax_threefry2x32_pair(crafter_kernels_level(), a0, a1, counter[0], b0, b1, counter[1],
                                  b0, b1, out0, out1);
    for (int l = 0; l < CRAFTER_JAX_PAIR; l++, pair_hashes += 2)
      pair_differ += (b0[l] != expect[0][l][0] || b1[l] != expect[0][l][1]) +
                     (out0[l] != expect[1][l][0] || out1[l] != expect[1][l][1]);
  }
  crafter_kernels_set_level(-1);
  ok(pair_differ == 0,
     "the pair kernel (%d copies) agrees with threefry2x32: %ld of %ld hashes differ",
     pair_tried, pair_differ, pair_hashes);
  return tap_done();
}
