/* fastgen: the vector kernels of the fast world generator (fastgen.h).
 *
 * This file is compiled once per instruction set (kernels.h), with
 * FASTGEN_SUFFIX naming the copy; vectors of eight doubles are written
 * with the compiler's vector extension and become whatever registers the
 * target has.  Nothing here needs to be exact, so fused multiply-adds are
 * allowed (the Makefile builds it with -ffp-contract=fast). */
#include "kernels/fastgen.h"

#include <math.h>
#if defined(__AVX__)
#include <immintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "crafter/ids.h"
#include "kernels/terrain.h"
#include "kernels/variant.h"

/* The terrain fields' numbers (terrain.h). */
#define TERRAIN crafter_terrain_fields

#define SQUISH3 (1.0 / 3)
#define NORM3 103.0

/* Eight lanes.  They pass only between static functions of this file, so
 * no calling convention anyone else sees is involved (-Wno-psabi). */
typedef double v8d __attribute__((vector_size(64)));
typedef long long v8l __attribute__((vector_size(64)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef uint8_t v8u8 __attribute__((vector_size(8)));

/* ---- A whole area at once: crafter_noise_field_add ----
 *
 * noise3(p) is the sum, over the lattice vertices u within distance sqrt(2)
 * of p, of (2 - |p - u|^2)^4 * (g(u) . (p - u)) / 103, where g(u) is the
 * vertex's gradient.  The reference finds those vertices point by point;
 * here each vertex near the plane z is visited once and added to every
 * cell it reaches.  A vertex with skewed coordinates (i, j, k) sits at
 * (i, j, k) + (i + j + k) / 3 in the space of the points. */

#define REACH 1.4143 /* a little more than sqrt(2) */

/* The first and the last cell, as whole numbers not yet clamped, whose
 * coordinate, cell / cells, lies in [from, to], with 1e-6 of a cell
 * to spare on either side: a cell left out lies beyond the interval by at
 * least that, whatever the rounding. */
static inline double first_cell(double from, double cells) { return ceil(from * cells - 1e-6); }
static inline double last_cell(double to, double cells) { return floor(to * cells + 1e-6); }

/* v clamped to [low, high], as a cell index, for any finite v. */
static inline int clamp_cell(double v, int low, int high) {
  return v < low ? low : v > high ? high : (int)v;
}

/* max(v, 0) lane by lane, in one instruction where there is one. */
static inline __attribute__((always_inline)) v8d max0(v8d v) {
#if defined(__AVX512F__)
  return (v8d)_mm512_max_pd((__m512d)v, _mm512_setzero_pd());
#elif defined(__AVX__)
  __m256d low = _mm256_max_pd(_mm256_loadu_pd((const double *)&v), _mm256_setzero_pd());
  __m256d high = _mm256_max_pd(_mm256_loadu_pd((const double *)&v + 4), _mm256_setzero_pd());
  v8d out;
  _mm256_storeu_pd((double *)&out, low);
  _mm256_storeu_pd((double *)&out + 4, high);
  return out;
#else
  return (v8d)((v8l)v & ~((v8l)v >> 63));
#endif
}

/* Adds one vertex's contribution to the `count` blocks from block0 (at
 * most 16) of the rows xa..xb (at most 64).  A block is eight cells from a
 * multiple of eight, so that its sum comes back from the store before it
 * whole; the attenuation is cut to zero outside the vertex's reach.  The
 * rows run innermost: they are independent and as many for every block. */
static inline __attribute__((always_inline)) void spread(double *acc, int stride, int xa,
                                                         int xb, int block0, int count,
                                                         const int32_t *spans, double ax,
                                                         double ay, double ux, double uy,
                                                         double reach2, double gx, double gy,
                                                         double gz_dz) {
  const v8d lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  double rest[64], base[64];
  int rows = xb - xa + 1;
  for (int r = 0; r < rows; r += 8) {
    v8d dx = ((v8d){0} + (double)(xa + r) + lanes) * ax - ux;
    v8d row_rest = reach2 - dx * dx, row_base = gx * dx + gz_dz;
    memcpy(rest + r, &row_rest, sizeof row_rest);
    memcpy(base + r, &row_base, sizeof row_base);
  }
  for (int b = 0; b < count; b++) {
    v8d dy = ((v8d){0} + (double)(8 * (block0 + b)) + lanes) * ay - uy;
    v8d dy2 = dy * dy, gdy = gy * dy;
    /* Only the rows where the disk meets this block (spans[2b] to
     * spans[2b + 1]): elsewhere every lane adds exactly zero. */
    int first = spans[2 * b] > xa ? spans[2 * b] - xa : 0;
    int last = spans[2 * b + 1] < xb ? spans[2 * b + 1] - xa : rows - 1;
    double *cell = acc + (size_t)(xa + first) * (size_t)stride + 8 * (size_t)(block0 + b);
    for (int r = first; r <= last; r++, cell += stride) {
      v8d attenuation = rest[r] - dy2;
      attenuation = max0(attenuation);
      v8d squared = attenuation * attenuation;
      v8d sum;
      memcpy(&sum, cell, sizeof sum);
      sum += squared * squared * (base[r] + gdy);
      memcpy(cell, &sum, sizeof sum);
    }
  }
}

/* The gradient of the vertex with skewed coordinates ijk (modulo 256). */
static inline const double *gradient_of(const crafter_noise *noise, const int32_t *ijk) {
  int inner = noise->perm[(noise->perm[ijk[0]] + ijk[1]) & 0xff];
  return crafter_gradients3 + noise->gradient_index[(inner + ijk[2]) & 0xff];
}

/* The lattice vertices that reach an area, for one field: which they are
 * and what they reach depends on the field and the area, never on the
 * seed, so a generator keeps them from one world to the next. */
static crafter_field_geometry *build_geometry(double z, double ax, double ay, int width,
                                              int blocks) {
  int last = width - 1, bmax = blocks - 1;
  double x0 = -REACH, x1 = last * ax + REACH;
  double y0 = -REACH, y1 = (8 * bmax + 7) * ay + REACH;
  /* Skewing subtracts a sixth of the coordinate sum, which bounds k. */
  double k0 = floor(z - REACH - (x1 + y1 + z + REACH) / 6);
  double k1 = ceil(z + REACH - (x0 + y0 + z - REACH) / 6);
  if (!(isfinite(x0) && isfinite(x1) && isfinite(y0) && isfinite(y1) && isfinite(k0) &&
        isfinite(k1)) || !(ax > 0) || !(ay > 0))
    return NULL;
  /* About 1.41 vertices per unit of area lie near a plane. */
  double expected = (x1 - x0) * (y1 - y0) * 1.5 + 64;
  if (expected > 16.0 * width * 8 * blocks + 4096) return NULL;
  crafter_field_geometry *g = malloc(sizeof *g);
  size_t capacity = (size_t)expected;
  crafter_field_vertex *vertices = g ? malloc(capacity * sizeof *vertices) : NULL;
  if (!vertices) {
    free(g);
    return NULL;
  }
  *g = (crafter_field_geometry){z, ax, ay, width, blocks, 0, vertices, NULL, NULL, NULL, NULL};
  double x_cells = 1 / ax, y_cells = 1 / ay;
  for (int64_t k = (int64_t)k0; k <= (int64_t)k1; k++) {
    /* A vertex near the plane has (i + j + k) / 3 = uz - k within REACH of
     * z - k; that bounds i by ux, j by uy, and i + j by uz. */
    double lift = z - (double)k;
    int64_t i_from = (int64_t)ceil(x0 - lift - REACH), i_to = (int64_t)floor(x1 - lift + REACH);
    for (int64_t i = i_from; i <= i_to; i++) {
      double j_low = fmax(3 * (lift - REACH) - (double)(i + k), y0 - lift - REACH);
      double j_high = fmin(3 * (lift + REACH) - (double)(i + k), y1 - lift + REACH);
      for (int64_t j = (int64_t)ceil(j_low); j <= (int64_t)floor(j_high); j++) {
        double squish = (double)(i + j + k) * SQUISH3;
        double ux = (double)i + squish, uy = (double)j + squish, uz = (double)k + squish;
        double dz = z - uz;
        double reach2 = 2 - dz * dz;
        if (reach2 <= 0) continue;
        double reach = sqrt(reach2);
        int xa = clamp_cell(first_cell(ux - reach, x_cells), 0, last + 1);
        int xb = clamp_cell(last_cell(ux + reach, x_cells), -1, last);
        int ba = clamp_cell(floor(first_cell(uy - reach, y_cells) / 8), 0, bmax + 1);
        int bb = clamp_cell(floor(last_cell(uy + reach, y_cells) / 8), -1, bmax);
        if (xa > xb || ba > bb) continue;
        if ((size_t)g->count == capacity) {
          capacity *= 2;
          crafter_field_vertex *more = realloc(g->vertices, capacity * sizeof *more);
          if (!more) {
            free(g->vertices);
            free(g);
            return NULL;
          }
          g->vertices = more;
        }
        g->vertices[g->count++] = (crafter_field_vertex){
            {(int32_t)(i & 0xff), (int32_t)(j & 0xff), (int32_t)(k & 0xff)}, xa, xb, ba, bb,
            ux, uy, reach2, dz};
      }
    }
  }
  return g;
}

/* The rows of each block in a vertex's reach that its disk meets, a pair
 * (first, last) for each of its blocks ba..bb; first > last where none.
 * Outside them |dx| is beyond the disk's half-width at the block's nearest
 * cell by at least 1e-6 * ax: every lane's attenuation is negative.  -1 if
 * memory ran out. */
static int make_spans(crafter_field_geometry *g) {
  g->span_at = malloc(((size_t)g->count + 1) * sizeof *g->span_at);
  if (!g->span_at) return -1;
  size_t total = 0;
  for (int n = 0; n < g->count; n++) {
    g->span_at[n] = (int32_t)total;
    if (g->vertices[n].bb >= g->vertices[n].ba)
      total += 2 * (size_t)(g->vertices[n].bb - g->vertices[n].ba + 1);
  }
  g->span_at[g->count] = (int32_t)total;
  g->spans = malloc((total ? total : 1) * sizeof *g->spans);
  if (!g->spans) {
    free(g->span_at);
    g->span_at = NULL;
    return -1;
  }
  for (int n = 0; n < g->count; n++) {
    const crafter_field_vertex *v = &g->vertices[n];
    int32_t *span = g->spans + g->span_at[n];
    for (int b = v->ba; b <= v->bb; b++, span += 2) {
      double top = (8 * b) * g->ay, bottom = (8 * b + 7) * g->ay;
      double near = v->uy < top ? top - v->uy : v->uy > bottom ? v->uy - bottom : 0;
      double rest = v->reach2 - near * near;
      if (rest <= -1e-9) {
        span[0] = (int32_t)v->xa;
        span[1] = (int32_t)(v->xa - 1);
        continue;
      }
      double half = sqrt(rest > 0 ? rest : 0) + 1e-6;
      span[0] = (int32_t)clamp_cell(first_cell(v->ux - half, 1 / g->ax), v->xa, v->xb + 1);
      span[1] = (int32_t)clamp_cell(last_cell(v->ux + half, 1 / g->ax), v->xa - 1, v->xb);
    }
  }
  return 0;
}

/* Adds the field over every block of the area, vertex by vertex; -1 if
 * memory ran out. */
static int spread_geometry(crafter_field_geometry *g, const crafter_noise *noise, double weight,
                           double *acc, int stride) {
  if (!g->spans && make_spans(g) < 0) return -1;
  double scale = weight / NORM3, ax = g->ax, ay = g->ay;
  for (int n = 0; n < g->count; n++) {
    const crafter_field_vertex *v = &g->vertices[n];
    const double *gradient = gradient_of(noise, v->ijk);
    double gx = gradient[0] * scale, gy = gradient[1] * scale, gz = gradient[2] * scale;
    for (int x = v->xa; x <= v->xb; x += 64)
      for (int b = v->ba; b <= v->bb; b += 16)
        spread(acc, stride, x, v->xb - x < 63 ? v->xb : x + 63, b,
               v->bb - b < 15 ? v->bb - b + 1 : 16, g->spans + g->span_at[n] + 2 * (b - v->ba),
               ax, ay, v->ux, v->uy, v->reach2, gx, gy, gz * v->dz);
  }
  return 0;
}

/* The blocks of row x that vertex v reaches: those its disk's chord on
 * the row meets, with a little to spare.  In any other block every lane's
 * attenuation is negative and its contribution exactly zero, so leaving
 * the pair out changes no sum.  An empty range if the row is out of reach. */
static void chord_blocks(const crafter_field_geometry *g, const crafter_field_vertex *v, int x,
                         int *ba, int *bb) {
  double dx = x * g->ax - v->ux, rest = v->reach2 - dx * dx;
  *ba = v->ba;
  *bb = v->bb;
  if (rest <= -1e-9) {
    *bb = *ba - 1;
    return;
  }
  double half = sqrt(rest > 0 ? rest : 0) + 1e-9, y_cells = 1 / g->ay;
  int low = clamp_cell(floor(first_cell(v->uy - half, y_cells) / 8), 0, g->blocks);
  int high = clamp_cell(floor(last_cell(v->uy + half, y_cells) / 8), -1, g->blocks - 1);
  if (low > *ba) *ba = low;
  if (high < *bb) *bb = high;
}

/* Makes the lists of the vertices that reach each block; -1 if memory ran
 * out. */
static int index_blocks(crafter_field_geometry *g) {
  size_t slots = (size_t)g->width * (size_t)g->blocks;
  g->at = calloc(slots + 1, sizeof *g->at);
  if (!g->at) return -1;
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int n = 0; n < g->count; n++) {
      const crafter_field_vertex *v = &g->vertices[n];
      for (int x = v->xa; x <= v->xb; x++) {
        int ba, bb;
        chord_blocks(g, v, x, &ba, &bb);
        for (int b = ba; b <= bb; b++) {
          size_t slot = (size_t)x * (size_t)g->blocks + (size_t)b;
          if (pass == 0)
            g->at[slot + 1]++;
          else
            g->by_block[g->at[slot]++] = n;
        }
      }
    }
    if (pass == 0) {
      for (size_t slot = 0; slot < slots; slot++) g->at[slot + 1] += g->at[slot];
      total = (size_t)g->at[slots];
      g->by_block = malloc((total ? total : 1) * sizeof *g->by_block);
      if (!g->by_block) {
        free(g->at);
        g->at = NULL;
        return -1;
      }
    } else {
      /* Filling moved each start to the next slot's: move them back. */
      for (size_t slot = slots; slot > 0; slot--) g->at[slot] = g->at[slot - 1];
      g->at[0] = 0;
    }
  }
  return 0;
}

/* Adds the field over the wanted blocks, block by block: each block sums
 * the vertices that reach it in registers.  For a few scattered blocks
 * this beats spreading every vertex near one of them over its whole
 * reach. */
static int gather_geometry(crafter_field_geometry *g, const crafter_noise *noise, double weight,
                           const int32_t *slots, size_t count, double *acc, int stride) {
  if (!g->at && index_blocks(g) < 0) return -1;
  /* What a block needs of each vertex, side by side: where it is, its
   * reach, and this world's gradient. */
  typedef struct {
    double ux, uy, reach2, gx, gy, gz_dz;
  } near_vertex;
  near_vertex *gradients = malloc((size_t)(g->count ? g->count : 1) * sizeof *gradients);
  if (!gradients) return -1;
  double scale = weight / NORM3, ax = g->ax, ay = g->ay;
  for (int n = 0; n < g->count; n++) {
    const crafter_field_vertex *v = &g->vertices[n];
    const double *gradient = gradient_of(noise, v->ijk);
    gradients[n] = (near_vertex){v->ux, v->uy, v->reach2, gradient[0] * scale,
                                 gradient[1] * scale, gradient[2] * scale * v->dz};
  }
  const v8d lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  for (size_t n = 0; n < count; n++) {
    size_t slot = (size_t)slots[n];
    int x = (int)(slot / (size_t)g->blocks), b = (int)(slot % (size_t)g->blocks);
    v8d y = ((v8d){0} + (double)(8 * b) + lanes) * ay, sum = (v8d){0};
    double row = x * ax;
    for (int32_t k = g->at[slot]; k < g->at[slot + 1]; k++) {
      const near_vertex *v = &gradients[g->by_block[k]];
      double dx = row - v->ux;
      double rest = v->reach2 - dx * dx, base = v->gx * dx + v->gz_dz;
      v8d dy = y - v->uy;
      v8d attenuation = max0(rest - dy * dy);
      v8d squared = attenuation * attenuation;
      sum += squared * squared * (base + v->gy * dy);
    }
    double *cell = acc + (size_t)x * (size_t)stride + 8 * (size_t)b;
    v8d total;
    memcpy(&total, cell, sizeof total);
    total += sum;
    memcpy(cell, &total, sizeof total);
  }
  free(gradients);
  return 0;
}

/* Adds the field over the `count` wanted blocks listed in `slots`:
 * spreading costs about the same whatever is wanted, gathering costs in
 * proportion to what is wanted and a little more than spreading when
 * everything is. */
static int add_field(crafter_field_geometry *g, const crafter_noise *noise, double weight,
                     const int32_t *slots, size_t count, double *acc, int stride) {
  if (count == 0) return 0;
  if (count < (size_t)g->width * (size_t)g->blocks)
    return gather_geometry(g, noise, weight, slots, count, acc, stride);
  return spread_geometry(g, noise, weight, acc, stride);
}

/* The indices of the wanted blocks among `total`, in order, without a
 * branch for each; returns how many. */
static size_t list_wanted(const uint8_t *wanted, size_t total, int32_t *slots) {
  size_t count = 0;
  for (size_t slot = 0; slot < total; slot++) {
    slots[count] = (int32_t)slot;
    count += wanted[slot] != 0;
  }
  return count;
}

int VARIANT(crafter_noise_field_add)(const crafter_noise *noise, double z, double ax, double ay,
                                     double weight, int width, int blocks,
                                     const uint8_t *wanted, double *acc, int stride) {
  size_t total = (size_t)width * (size_t)blocks;
  int32_t *slots = malloc((total ? total : 1) * sizeof *slots);
  if (!slots) return -1;
  size_t count = list_wanted(wanted, total, slots);
  int result = 0;
  if (count > 0) {
    crafter_field_geometry *g = build_geometry(z, ax, ay, width, blocks);
    result = g ? add_field(g, noise, weight, slots, count, acc, stride) : -1;
    crafter_field_geometry_free(g);
  }
  free(slots);
  return result;
}

/* The geometry of a field from the generator's keep, made if missing. */
static crafter_field_geometry *geometry_for(crafter_fastgen *s, double z, double ax, double ay) {
  for (int n = 0; n < s->geometry_count; n++) {
    crafter_field_geometry *g = s->geometry[n];
    if (g->z == z && g->ax == ax && g->ay == ay && g->width == s->width &&
        g->blocks == s->blocks)
      return g;
  }
  crafter_field_geometry *g = build_geometry(z, ax, ay, s->width, s->blocks);
  if (!g) return NULL;
  if (s->geometry_count == CRAFTER_FASTGEN_GEOMETRIES) crafter_fastgen_forget(s);
  s->geometry[s->geometry_count++] = g;
  return g;
}

/* A field added over the generator's wanted blocks, with the geometry
 * kept.  Lists them in s->slots and returns how many, or -1. */
static int field_add(crafter_fastgen *s, const crafter_noise *noise, double z, double ax,
                     double ay, double weight, double *acc) {
  size_t count = list_wanted(s->wanted, (size_t)s->width * (size_t)s->blocks, s->slots);
  if (count == 0) return 0;
  crafter_field_geometry *g = geometry_for(s, z, ax, ay);
  if (!g || add_field(g, noise, weight, s->slots, count, acc, s->stride) < 0) return -1;
  return (int)count;
}

/* ---- The facts of a world ---- */

/* The facts of value > threshold for eight cells, each known where the
 * value is farther than margin from the threshold (and neither is NaN). */
static inline v8l compare8(v8d value, double threshold, double margin, int p) {
  v8l above = value - threshold > margin;
  v8l below = threshold - value > margin;
  return ((above | below) & (long long)CRAFTER_KNOWN(p)) | (above & (long long)CRAFTER_TRUTH(p));
}

static inline v8d min8(v8d a, double b) {
  v8l less = a < b;
  return (v8d)(((v8l)a & less) | ((v8l)((v8d){0} + b) & ~less));
}
static inline v8d max8(v8d a, double b) {
  v8l more = a > b;
  return (v8d)(((v8l)a & more) | ((v8l)((v8d){0} + b) & ~more));
}

/* e^v for eight values, to a few units in the last place for |v| <= 700,
 * and e^700 or e^-700 beyond; the inexact start needs no more. */
static inline v8d exp8(v8d v) {
  v = max8(min8(v, 700), -700);
  /* k = v / ln 2 rounded to an integer, by adding and removing 1.5 * 2^52;
   * the integer is then in the low bits of the sum. */
  const double shifter = 0x1.8p52;
  v8d shifted = v * 1.4426950408889634 + shifter;
  v8d k = shifted - shifter;
  v8l k_int = (v8l)shifted - (v8l)((v8d){0} + shifter);
  v8d r = (v - k * 0x1.62e42fefa3800p-1) - k * 0x1.ef35793c76730p-45;
  v8d p = (v8d){0} + 1.0 / 479001600;
  p = p * r + 1.0 / 39916800;
  p = p * r + 1.0 / 3628800;
  p = p * r + 1.0 / 362880;
  p = p * r + 1.0 / 40320;
  p = p * r + 1.0 / 5040;
  p = p * r + 1.0 / 720;
  p = p * r + 1.0 / 120;
  p = p * r + 1.0 / 24;
  p = p * r + 1.0 / 6;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  /* times 2^k, in two factors that each stay in the range of doubles */
  v8l half = k_int >> 1;
  v8d a = (v8d)((half + 1023) << 52), b = (v8d)((k_int - half + 1023) << 52);
  return p * a * b;
}

/* Whether any lane of a comparison's result is set. */
static inline int any_lane(v8i hit) {
#if defined(__AVX__)
  return _mm256_movemask_ps(_mm256_castsi256_ps((__m256i)hit)) != 0;
#else
  return (hit[0] | hit[1] | hit[2] | hit[3] | hit[4] | hit[5] | hit[6] | hit[7]) != 0;
#endif
}

/* Which cells need a field: those whose facts match one of up to three
 * patterns (facts & mask == value). */
typedef struct need {
  int count;
  crafter_facts mask[3], value[3];
} need;

#define K(p) CRAFTER_KNOWN(CRAFTER_FACT_##p)
#define T(p) CRAFTER_TRUTH(CRAFTER_FACT_##p)
#define IS(p) (K(p) | T(p)) /* known and true: as mask, and as value */

/* Adds a comparison, known true or false, to every pattern. */
static need also(need n, crafter_facts mask, crafter_facts value) {
  for (int i = 0; i < n.count; i++) n.mask[i] |= mask, n.value[i] |= value;
  return n;
}

/* Marks the blocks with a cell that matches `n`; returns how many. */
static int mark_blocks(crafter_fastgen *s, const need *n) {
  int marked = 0;
  for (int x = 0; x < s->width; x++)
    for (int b = 0; b < s->blocks; b++) {
      v8i facts;
      memcpy(&facts, s->facts + (size_t)x * (size_t)s->stride + 8 * (size_t)b, sizeof facts);
      v8i hit = (v8i){0};
      for (int i = 0; i < n->count; i++) hit |= (facts & (int32_t)n->mask[i]) == (int32_t)n->value[i];
      int any = any_lane(hit);
      s->wanted[(size_t)x * (size_t)s->blocks + (size_t)b] = (uint8_t)any;
      marked += any;
    }
  return marked;
}

/* A field over the blocks that `n` marks, compared with a threshold: its
 * facts are set for every cell of those blocks.  The field plane is all
 * zero before and after. */
static int field_facts(crafter_fastgen *s, const crafter_noise *noise, const need *n, int p,
                       double z, double ax, double ay, double threshold) {
  if (mark_blocks(s, n) == 0) return 0;
  int marked = field_add(s, noise, z, ax, ay, 1, s->field);
  if (marked < 0) {
    memset(s->field, 0, (size_t)s->width * (size_t)s->stride * sizeof(double));
    return -1;
  }
  const v8l lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int n_slot = 0; n_slot < marked; n_slot++) {
    int x = s->slots[n_slot] / s->blocks, b = s->slots[n_slot] % s->blocks;
    size_t at = (size_t)x * (size_t)s->stride + 8 * (size_t)b;
    v8d value;
    memcpy(&value, s->field + at, sizeof value);
    memset(s->field + at, 0, sizeof value);
    v8l known = compare8(value, threshold, CRAFTER_NOISE_FIELD_ERROR, p);
    known &= lanes < s->height - 8 * b; /* nothing known past the area's edge */
    v8i facts;
    memcpy(&facts, s->facts + at, sizeof facts);
    facts |= __builtin_convertvector(known, v8i);
    memcpy(s->facts + at, &facts, sizeof facts);
  }
  /* Spreading, used when every block is wanted, wrote past the wanted
   * blocks too (gathering writes only those, cleared above). */
  if ((size_t)marked == (size_t)s->width * (size_t)s->blocks)
    memset(s->field, 0, (size_t)s->width * (size_t)s->stride * sizeof(double));
  return 0;
}

/* How far off sigmoid(start), water and mountain may be. */
typedef struct margins {
  double start, water, mountain;
} margins;

/* How far off a sum of octaves may be: the field error of each, times
 * its weight. */
static double octaves_error(const crafter_octave *octave, double divisor) {
  return CRAFTER_NOISE_FIELD_ERROR * (fabs(octave[0].weight) + fabs(octave[1].weight)) /
         fabs(divisor);
}

/* The margins when sigmoid(start) may be off by `start` and the water and
 * mountain fields by the fields' error, all from the terrain's numbers
 * (terrain.h): the sigmoid weighs water_start times in water and
 * mountain_start times in mountain, water mountain_water times in
 * mountain, and 1e-9 covers the rounding of the arithmetic here. */
static margins margins_for(double start) {
  margins m;
  m.start = start + 1e-9;
  m.water = octaves_error(TERRAIN.water, 1) + fabs(TERRAIN.water_start) * m.start + 1e-9;
  m.mountain = octaves_error(TERRAIN.mountain, TERRAIN.mountain_divisor) +
               fabs(TERRAIN.mountain_start) * m.start + fabs(TERRAIN.mountain_water) * m.water +
               1e-9;
  return m;
}

/* The facts that start, water and mountain decide, for eight cells with
 * sigmoid(start) = start, the water and mountain noise sums, each known
 * beyond its margin; nothing known in lanes past `valid`. */
static inline v8l base_facts(const crafter_worldgen_config *c, v8d start, v8d water,
                             v8d mountain, margins m, int valid) {
  double start_margin = m.start, water_margin = m.water, mountain_margin = m.mountain;
  const v8l lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  water = water + TERRAIN.water_offset - TERRAIN.water_start * start;
  mountain = mountain - (TERRAIN.mountain_start * start + TERRAIN.mountain_water * water);
  v8l facts = compare8(start, c->start_threshold, start_margin, CRAFTER_FACT_SPAWN) |
              compare8(mountain, c->mountain, mountain_margin, CRAFTER_FACT_MOUNTAIN) |
              compare8(mountain, c->cave_mountain, mountain_margin, CRAFTER_FACT_CAVE_DEPTH) |
              compare8(mountain, c->diamond_mountain, mountain_margin,
                       CRAFTER_FACT_DIAMOND_DEPTH) |
              compare8(mountain, c->lava_mountain, mountain_margin, CRAFTER_FACT_LAVA_DEPTH) |
              compare8(water, c->sand_water_min, water_margin, CRAFTER_FACT_SAND_ABOVE) |
              compare8(water, c->sand_water_max, water_margin, CRAFTER_FACT_SAND_BELOW) |
              compare8(water, c->water, water_margin, CRAFTER_FACT_WATER);
  return facts & (lanes < valid);
}

static inline v8d sigmoid8(v8d v) { return 1 / (1 + exp8(-v)); }

int VARIANT(crafter_fastgen_facts)(crafter_fastgen *s, const crafter_noise *noise,
                                   const crafter_worldgen_config *c, int player_x,
                                   int player_y) {
  int width = s->width, height = s->height, stride = s->stride, blocks = s->blocks;
  /* Far from the player, start = radius - distance + 2 * noise is so low
   * that sigmoid(start) < e^-14 whatever the noise (|noise| < 1.1): the
   * start field is needed only in a square around the player, and
   * everywhere else zero noise is wrong by less than e^-14.  (Unless the
   * threshold is so low that e^-14 matters.) */
  const double far_error = 8.3154e-7; /* > e^-14 */
  /* The start field's error, through the sigmoid, whose slope is at most
   * 1/4; and how far its noise can move the start. */
  double start_margin = fabs(TERRAIN.start.weight) * CRAFTER_NOISE_FIELD_ERROR / 4 + 1e-9;
  double start_swing = fabs(TERRAIN.start.weight) * CRAFTER_NOISE_BOUND;
  int square = 0;
  double reach = c->start_radius + start_swing + 14;
  size_t block_count = (size_t)width * (size_t)blocks;
  int near_x0 = 0, near_x1 = width - 1, near_y0 = 0, near_y1 = height - 1;
  if (c->start_threshold - start_margin - far_error > far_error && reach < width &&
      reach < height) {
    int r = (int)ceil(reach);
    near_x0 = player_x - r, near_x1 = player_x + r, near_y0 = player_y - r, near_y1 = player_y + r;
    start_margin += far_error;
    square = 1;
  }
  /* The fields every cell may need, each octave with its weight. */
  memset(s->wanted, 1, block_count);
  for (int o = 0; o < 2; o++) {
    const crafter_octave *w = &TERRAIN.water[o], *m = &TERRAIN.mountain[o];
    if (field_add(s, noise, w->z, 1 / w->size, 1 / w->size, w->weight, s->water) < 0 ||
        field_add(s, noise, m->z, 1 / m->size, 1 / m->size, m->weight / TERRAIN.mountain_divisor,
                  s->mountain) < 0)
      return -1;
  }
  if (s->distance_x != player_x || s->distance_y != player_y ||
      s->bounds_radius != c->start_radius) {
    for (int x = 0; x < width; x++)
      for (int y = 0; y < stride; y += 8) {
        size_t at = (size_t)x * (size_t)stride + (size_t)y;
        for (int l = 0; l < 8; l++) {
          double dx = x - player_x, dy = y + l - player_y;
          s->distance[at + (size_t)l] = sqrt(dx * dx + dy * dy);
        }
        v8d distance;
        memcpy(&distance, s->distance + at, sizeof distance);
        v8d low = sigmoid8(c->start_radius - distance - start_swing);
        v8d high = sigmoid8(c->start_radius - distance + start_swing);
        memcpy(s->start_low + at, &low, sizeof low);
        memcpy(s->start_high + at, &high, sizeof high);
      }
    s->distance_x = player_x;
    s->distance_y = player_y;
    s->bounds_radius = c->start_radius;
  }
  /* The margins where the start field is used (the field's error through
   * the sigmoid, whose slope is at most 1/4, plus what is far); where the
   * sigmoid is taken as 0 (below e^-14); and where the facts hold over
   * the sigmoid's whole range, so no error of it counts. */
  const margins with_field = margins_for(start_margin);
  const margins far = margins_for(square ? far_error : 0);
  const margins over_range = margins_for(0);
  const crafter_facts settled_by_start =
      K(SPAWN) | K(MOUNTAIN) | K(CAVE_DEPTH) | K(DIAMOND_DEPTH) | K(LAVA_DEPTH) |
      K(SAND_ABOVE) | K(SAND_BELOW) | K(WATER);
  /* Outside the square the start field covers, the sigmoid is below e^-14
   * and taken as 0; the margins allow for that.  Inside, water and mountain
   * fall as the sigmoid rises, so where the facts are the same at both ends
   * of the sigmoid's range, and complete, they hold whatever the start
   * noise: only the other blocks need the start field. */
  int start_wanted = 0;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y += 8) {
      size_t at = (size_t)x * (size_t)stride + (size_t)y;
      v8d water, mountain;
      memcpy(&water, s->water + at, sizeof water);
      memcpy(&mountain, s->mountain + at, sizeof mountain);
      int valid = height - y;
      int near = x >= near_x0 && x <= near_x1 && y + 7 >= near_y0 && y <= near_y1;
      v8l facts;
      int wanted = 0;
      if (near) {
        v8d low, high;
        memcpy(&low, s->start_low + at, sizeof low);
        memcpy(&high, s->start_high + at, sizeof high);
        facts = base_facts(c, low, water, mountain, over_range, valid);
        v8l other = base_facts(c, high, water, mountain, over_range, valid);
        const v8l lanes = {0, 1, 2, 3, 4, 5, 6, 7};
        v8l unsettled = (facts != other) |
                        (((facts & (long long)settled_by_start) != (long long)settled_by_start) &
                         (lanes < valid));
        wanted = any_lane(__builtin_convertvector(unsettled, v8i));
      } else {
        facts = base_facts(c, (v8d){0}, water, mountain, far, valid);
      }
      s->wanted[(size_t)x * (size_t)blocks + (size_t)(y / 8)] = (uint8_t)wanted;
      start_wanted += wanted;
      v8i narrow = __builtin_convertvector(facts, v8i);
      memcpy(s->facts + at, &narrow, sizeof narrow);
    }
  /* The start field where the facts need it, and their facts again. */
  if (start_wanted > 0) {
    const crafter_octave *field = &TERRAIN.start;
    int listed = field_add(s, noise, field->z, 1 / field->size, 1 / field->size, 1, s->start);
    if (listed < 0) return -1;
    for (int n = 0; n < listed; n++) {
      int x = s->slots[n] / blocks, y = 8 * (s->slots[n] % blocks);
      size_t at = (size_t)x * (size_t)stride + (size_t)y;
      v8d noise_start, water, mountain, distance;
      memcpy(&noise_start, s->start + at, sizeof noise_start);
      memcpy(&water, s->water + at, sizeof water);
      memcpy(&mountain, s->mountain + at, sizeof mountain);
      memcpy(&distance, s->distance + at, sizeof distance);
      v8d start = sigmoid8(c->start_radius - distance + TERRAIN.start.weight * noise_start);
      v8l facts = base_facts(c, start, water, mountain, with_field, height - y);
      v8i narrow = __builtin_convertvector(facts, v8i);
      memcpy(s->facts + at, &narrow, sizeof narrow);
    }
  }
  /* The fields only some cells need, each where the plain path would ask
   * for it: mountain cells that are not caves or tunnels ask for the next
   * field, lowland cells for sand in its band and then for trees. */
  const need mountain = {1, {IS(SPAWN) | IS(MOUNTAIN)}, {K(SPAWN) | IS(MOUNTAIN)}};
  const need lowland = {1, {IS(SPAWN) | IS(MOUNTAIN)}, {K(SPAWN) | K(MOUNTAIN)}};
  const need cave = also(mountain, IS(CAVE_DEPTH), IS(CAVE_DEPTH));
  /* not a cave: not deep enough, or deep but no cave there */
  need tunnel_x = also(mountain, IS(CAVE_DEPTH), K(CAVE_DEPTH));
  tunnel_x.count = 2;
  tunnel_x.mask[1] = mountain.mask[0] | IS(CAVE_DEPTH) | IS(CAVE);
  tunnel_x.value[1] = mountain.value[0] | IS(CAVE_DEPTH) | K(CAVE);
  const need tunnel_y = also(tunnel_x, IS(TUNNEL_X), K(TUNNEL_X));
  const need ores = also(tunnel_y, IS(TUNNEL_Y), K(TUNNEL_Y));
  const need lava = also(ores, IS(LAVA_DEPTH), IS(LAVA_DEPTH));
  const need sand = also(lowland, IS(SAND_ABOVE) | IS(SAND_BELOW), IS(SAND_ABOVE) | K(SAND_BELOW));
  /* not water, and not sand: out of the band, or in it with no sand there */
  need tree = also(lowland, IS(WATER), K(WATER));
  tree.count = 3;
  tree.mask[1] = tree.mask[2] = tree.mask[0];
  tree.value[1] = tree.value[2] = tree.value[0];
  tree.mask[0] |= IS(SAND_ABOVE), tree.value[0] |= K(SAND_ABOVE);
  tree.mask[1] |= IS(SAND_BELOW), tree.value[1] |= IS(SAND_BELOW);
  tree.mask[2] |= IS(SAND_ABOVE) | IS(SAND_BELOW) | IS(SAND);
  tree.value[2] |= IS(SAND_ABOVE) | K(SAND_BELOW) | K(SAND);
  /* Tunnels: noise3(stretch * x / size, y / (squeeze * size), z). */
  const double along = TERRAIN.tunnel_stretch / TERRAIN.tunnel_size,
               across = 1 / (TERRAIN.tunnel_squeeze * TERRAIN.tunnel_size);
  if (field_facts(s, noise, &cave, CRAFTER_FACT_CAVE, TERRAIN.cave_z, 1 / c->cave_size,
                  1 / c->cave_size, c->cave_noise) < 0 ||
      field_facts(s, noise, &tunnel_x, CRAFTER_FACT_TUNNEL_X, TERRAIN.tunnel_z, along, across,
                  c->tunnel_noise) < 0 ||
      field_facts(s, noise, &tunnel_y, CRAFTER_FACT_TUNNEL_Y, TERRAIN.tunnel_z, across, along,
                  c->tunnel_noise) < 0 ||
      field_facts(s, noise, &ores, CRAFTER_FACT_COAL, TERRAIN.coal_z, 1 / c->coal_size,
                  1 / c->coal_size, c->coal_noise) < 0 ||
      field_facts(s, noise, &ores, CRAFTER_FACT_IRON, TERRAIN.iron_z, 1 / c->iron_size,
                  1 / c->iron_size, c->iron_noise) < 0 ||
      field_facts(s, noise, &lava, CRAFTER_FACT_LAVA, TERRAIN.lava_z, 1 / c->lava_size,
                  1 / c->lava_size, c->lava_noise) < 0 ||
      field_facts(s, noise, &sand, CRAFTER_FACT_SAND, TERRAIN.sand_z, 1 / c->sand_size,
                  1 / c->sand_size, c->sand_noise) < 0 ||
      field_facts(s, noise, &tree, CRAFTER_FACT_TREE, TERRAIN.tree_z, 1 / c->tree_size,
                  1 / c->tree_size, c->tree_noise) < 0)
    return -1;
  return 0;
}

/* ---- What the facts settle, eight cells at a time ----
 *
 * decide() in worldgen.c, for every cell at once, as far as it goes
 * without a draw: a material where the facts fix it, or one of the two
 * marks below where a draw or decide() itself must finish the cell. */

/* Lanes where comparison p is known true, and known false. */
static inline v8i known_true(v8i f, int p) {
  int32_t both = (int32_t)(CRAFTER_KNOWN(p) | CRAFTER_TRUTH(p));
  return (f & both) == both;
}
static inline v8i known_false(v8i f, int p) {
  return (f & (int32_t)(CRAFTER_KNOWN(p) | CRAFTER_TRUTH(p))) == (int32_t)CRAFTER_KNOWN(p);
}
static inline v8i known_at(v8i f, int p) { return (f & (int32_t)CRAFTER_KNOWN(p)) != 0; }

void VARIANT(crafter_fastgen_settle)(const crafter_facts *facts, size_t cells, uint8_t *materials,
                                     uint8_t *tunnels) {
  /* Known true, known false, known: comparison p of this cell's facts. */
#define KT(p) known_true(f, CRAFTER_FACT_##p)
#define KF(p) known_false(f, CRAFTER_FACT_##p)
#define KN(p) known_at(f, CRAFTER_FACT_##p)
  for (size_t at = 0; at < cells; at += 8) {
    v8i f;
    memcpy(&f, facts + at, sizeof f);
    v8i result = (v8i){0} + CRAFTER_FASTGEN_DECIDE, tunnel = (v8i){0};
#define SETTLE(lanes, value) result = ((lanes) & (value)) | (~(lanes) & result)
    /* The spawn area is grass. */
    SETTLE(KT(SPAWN), CRAFTER_GRASS);
    v8i mountain = KF(SPAWN) & KT(MOUNTAIN);
    v8i lowland = KF(SPAWN) & KF(MOUNTAIN);
    /* Mountains: caves, tunnels, then ores, lava or stone. */
    SETTLE(mountain & KT(CAVE_DEPTH) & KT(CAVE), CRAFTER_PATH);
    v8i no_cave = mountain & (KF(CAVE_DEPTH) | (KT(CAVE_DEPTH) & KF(CAVE)));
    v8i tunnel_here = (no_cave & KT(TUNNEL_X)) | (no_cave & KF(TUNNEL_X) & KT(TUNNEL_Y));
    SETTLE(tunnel_here, CRAFTER_PATH);
    tunnel = tunnel_here & 1;
    v8i rock = no_cave & KF(TUNNEL_X) & KF(TUNNEL_Y);
    /* No draw when neither coal nor iron noise is high nor is it deep enough
     * for diamonds; the lava test must be known where it is deep enough. */
    v8i lava_known = KF(LAVA_DEPTH) | (KT(LAVA_DEPTH) & KN(LAVA));
    v8i undrawn = rock & KF(COAL) & KF(IRON) & KF(DIAMOND_DEPTH) & lava_known;
    v8i lava = KT(LAVA_DEPTH) & KT(LAVA);
    SETTLE(undrawn & lava, CRAFTER_LAVA);
    SETTLE(undrawn & ~lava, CRAFTER_STONE);
    /* Rock whose every test is known but that draws: the draws are the
     * caller's, the tests go in the mark's low bits. */
    v8i drawn = rock & KN(COAL) & KN(IRON) & KN(DIAMOND_DEPTH) & lava_known & ~undrawn;
    v8i tests = (KT(COAL) & CRAFTER_FASTGEN_ROCK_COAL) | (KT(IRON) & CRAFTER_FASTGEN_ROCK_IRON) |
                (KT(DIAMOND_DEPTH) & CRAFTER_FASTGEN_ROCK_DIAMOND) |
                (lava & CRAFTER_FASTGEN_ROCK_LAVA);
    SETTLE(drawn, CRAFTER_FASTGEN_ROCK | tests);
    /* Lowland: sand in its band, water, then trees, which take a draw. */
    v8i band = lowland & KT(SAND_ABOVE) & KF(SAND_BELOW);
    SETTLE(band & KT(SAND), CRAFTER_SAND);
    v8i no_sand =
        lowland & (KF(SAND_ABOVE) | (KT(SAND_ABOVE) & KT(SAND_BELOW)) | (band & KF(SAND)));
    SETTLE(no_sand & KT(WATER), CRAFTER_WATER);
    v8i land = no_sand & KF(WATER);
    SETTLE(land & KF(TREE), CRAFTER_GRASS);
    SETTLE(land & KT(TREE), CRAFTER_FASTGEN_TREE_DRAW);
#undef SETTLE
    v8u8 material_bytes = __builtin_convertvector(result, v8u8);
    v8u8 tunnel_bytes = __builtin_convertvector(tunnel, v8u8);
    memcpy(materials + at, &material_bytes, sizeof material_bytes);
    memcpy(tunnels + at, &tunnel_bytes, sizeof tunnel_bytes);
  }
#undef KT
#undef KF
#undef KN
}
