/* terrain: the numbers of Crafter's terrain fields (worldgen.py), in one
 * table that the plain generator (worldgen.c), the fast kernels and the
 * margins they decide by (fastgen.c) all read.
 *
 * A field is noise3(x / size, y / size, z) at a cell, times a weight.
 * The plain path computes each expression as the reference writes it, in
 * its order, from these numbers: with them its results are the
 * reference's bit for bit.  The fast path sums the same fields and works
 * out from the same numbers how far off its values may be.  The
 * thresholds the fields are compared with are the configuration's
 * (crafter-config(5), worldgen): their struct is here, so that the kernels
 * read it without knowing the rest of a configuration. */
#ifndef CRAFTER_TERRAIN_H
#define CRAFTER_TERRAIN_H

typedef struct crafter_octave {
  double z, size, weight;
} crafter_octave;

typedef struct crafter_terrain {
  /* start = radius - distance + start.weight * field, then a sigmoid */
  crafter_octave start;
  /* water = water[0] + water[1] + water_offset - water_start * start */
  crafter_octave water[2];
  double water_offset, water_start;
  /* mountain = (mountain[0] + mountain[1]) / mountain_divisor
   *            - (mountain_start * start + mountain_water * water) */
  crafter_octave mountain[2];
  double mountain_divisor, mountain_start, mountain_water;
  /* Tunnels: noise3(stretch * x / size, y / squeeze / size, z) across,
   * and with x and y swapped along; their threshold is the config's. */
  double tunnel_z, tunnel_size, tunnel_stretch, tunnel_squeeze;
  /* The z of the fields whose size is the config's. */
  double cave_z, coal_z, iron_z, lava_z, sand_z, tree_z;
} crafter_terrain;

static const crafter_terrain crafter_terrain_fields = {
    .start = {8, 3, 2},
    .water = {{3, 15, 1}, {3, 5, 0.15}},
    .water_offset = 0.1,
    .water_start = 2,
    .mountain = {{0, 15, 1}, {0, 5, 0.3}},
    .mountain_divisor = 1 + 0.3,
    .mountain_start = 4,
    .mountain_water = 0.3,
    .tunnel_z = 7,
    .tunnel_size = 3,
    .tunnel_stretch = 2,
    .tunnel_squeeze = 5,
    .cave_z = 6,
    .coal_z = 1,
    .iron_z = 2,
    .lava_z = 6,
    .sand_z = 4,
    .tree_z = 5,
};

/* World generation (worldgen.py).  A "draw" is the value a uniform draw
 * must exceed, 1 - probability, held as the reference writes it (0.85 for
 * coal) so that the comparison is the reference's own. */
typedef struct crafter_worldgen_config {
  double start_radius;     /* grass around the spawn: start = radius - distance + noise */
  double start_threshold;  /* sigmoid(start) above this is grass */
  double mountain;         /* mountain above this is mountain terrain */
  double cave_mountain, cave_noise, cave_size;
  double tunnel_noise;
  double coal_noise, coal_size, coal_draw;
  double iron_noise, iron_size, iron_draw;
  double diamond_mountain, diamond_draw;
  double lava_mountain, lava_noise, lava_size;
  double sand_water_min, sand_water_max, sand_noise, sand_size;
  double water;            /* water above this is water */
  double tree_noise, tree_size, tree_draw;
  double cow_distance, cow_draw;       /* Euclidean distance from the spawn */
  double zombie_distance, zombie_draw;
  double skeleton_draw;
} crafter_worldgen_config;

#endif
