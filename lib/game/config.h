/* config: every number and rule of a Crafter game in one struct, and its
 * YAML form (crafter-config(5)), read with libyaml.
 *
 * Promise: crafter_config_default() is Crafter 1.8.3 exactly; an env made
 * with it plays bit for bit as the reference.  A file is laid over the
 * defaults, so it names only what it changes; names are resolved to ids
 * when the file is read, so the engine never looks a name up while it
 * steps.  The struct holds no pointers: copy it with `=`, share it
 * between threads read-only. */
#ifndef CRAFTER_CONFIG_H
#define CRAFTER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"
#include "crafter/ids.h"
#include "kernels/terrain.h" /* crafter_worldgen_config */

/* A set of materials, bit m for material m. */
typedef uint32_t crafter_material_set;
_Static_assert(CRAFTER_MATERIAL_COUNT <= 32, "a material set holds 32 materials");

/* An amount of one item: what a rule needs, uses or gives. */
typedef struct crafter_item_amount {
  uint8_t item;   /* enum crafter_item */
  int32_t amount;
} crafter_item_amount;

typedef struct crafter_item_rule {
  int32_t max;     /* the inventory is clamped to [0, max] after each update */
  int32_t initial; /* count at the start of an episode */
} crafter_item_rule;

/* `do` on a material: data.yaml's collect. */
typedef struct crafter_collect_rule {
  uint8_t present;  /* 0: the material cannot be collected */
  uint8_t leaves;   /* material left behind */
  uint8_t require_count, receive_count;
  crafter_item_amount require[CRAFTER_ITEM_COUNT]; /* needed, not used up */
  crafter_item_amount receive[CRAFTER_ITEM_COUNT]; /* each counts collect_<item> */
  double probability; /* the items come when a uniform draw is <= this */
} crafter_collect_rule;

/* place_stone, place_table, place_furnace, place_plant. */
typedef struct crafter_place_rule {
  uint8_t present;
  uint8_t use_count;
  crafter_item_amount uses[CRAFTER_ITEM_COUNT];
  crafter_material_set where;   /* materials the target may be */
} crafter_place_rule;

/* make_wood_pickaxe ... make_iron_sword. */
typedef struct crafter_make_rule {
  uint8_t present;
  uint8_t use_count;
  crafter_item_amount uses[CRAFTER_ITEM_COUNT];
  crafter_material_set nearby;  /* materials that must be within one cell */
  int32_t gives;    /* how many of the made item */
} crafter_make_rule;

/* Chunk balancing of one creature (env.py _balance_object).  The target
 * range of a chunk is [min_base + min_daylight * daylight (0 when the chunk
 * has fewer than min_space cells of the material), max_base + max_daylight
 * * daylight], each truncated to an integer. */
typedef struct crafter_balance_rule {
  uint8_t material;        /* where it spawns and what counts as space */
  int32_t spawn_distance;  /* spawns at least this far (Manhattan) from the player */
  int32_t despawn_distance;
  double spawn_probability, despawn_probability;
  int32_t min_space;
  double min_base, min_daylight, max_base, max_daylight;
} crafter_balance_rule;

enum crafter_balance_kind { CRAFTER_BALANCE_ZOMBIE = 0, CRAFTER_BALANCE_SKELETON,
                            CRAFTER_BALANCE_COW, CRAFTER_BALANCE_COUNT };

enum crafter_reward_combine { CRAFTER_COMBINE_MAX = 0, CRAFTER_COMBINE_SUM };

typedef struct crafter_reward_config {
  double health_divisor; /* reward += health change / this each step; 0: none */
  int combine;           /* several first unlocks in one step: max or sum of theirs */
  double achievements[CRAFTER_ACHIEVEMENT_COUNT]; /* reward of a first unlock */
} crafter_reward_config;

/* The numbers of Crafter's objects.py, by the object they belong to.
 * Counts, distances, healths and damages are integers; rates and
 * probabilities are doubles compared as the reference compares them. */

/* A hidden counter of the player (hunger, thirst): each step it grows by
 * `rate` (awake) or `sleeping` (asleep); above `limit` it restarts at 0
 * and the player loses `amount` of food (drink). */
typedef struct crafter_counter_rule {
  double rate, sleeping, limit;
  int32_t amount;
} crafter_counter_rule;

/* Fatigue grows by `rate` awake; asleep it becomes min(fatigue - sleeping,
 * 0).  Above `tired` it restarts and energy drops by `amount`; below
 * `rested` it restarts and energy rises by `amount`. */
typedef struct crafter_fatigue_rule {
  double rate, sleeping, tired, rested;
  int32_t amount;
} crafter_fatigue_rule;

/* With food, drink and energy (or sleep) the recovery counter grows by
 * `rate` (`sleeping` asleep), without it falls by `decay`
 * (`decay_sleeping`); above `heal` health rises by `amount`, below `hurt`
 * it drops by `amount`, and the counter restarts. */
typedef struct crafter_recover_rule {
  double rate, sleeping, decay, decay_sleeping, heal, hurt;
  int32_t amount;
} crafter_recover_rule;

typedef struct crafter_player_rules {
  crafter_counter_rule hunger, thirst;
  crafter_fatigue_rule fatigue;
  crafter_recover_rule recover;
  /* Damage of a hit: the largest of `none` and the damage of each sword
   * the player holds. */
  int32_t damage_none, damage_wood_sword, damage_stone_sword, damage_iron_sword;
} crafter_player_rules;

typedef struct crafter_cow_rules {
  int32_t health;
  double move;    /* moves in a random direction when a draw is below this */
  int32_t food;   /* food the player gets for eating one */
} crafter_cow_rules;

/* Within chase_distance (Manhattan) of the player a zombie moves toward
 * it when a draw is below chase_probability, along the longer axis when a
 * second draw is below long_axis; else in a random direction.  Within
 * attack_distance it attacks when its cooldown is 0 (damage, or
 * damage_sleeping when the player sleeps) and the cooldown restarts at
 * `cooldown`; else the cooldown counts down. */
typedef struct crafter_zombie_rules {
  int32_t health, chase_distance;
  double chase_probability, long_axis;
  int32_t attack_distance, damage, damage_sleeping, cooldown;
} crafter_zombie_rules;

/* A skeleton within flee_distance steps away from the player (longer axis
 * when a draw is below flee_long_axis); if it could not, within
 * shoot_distance it shoots when a draw is below shoot_probability and it
 * is loaded (an arrow reloads for `reload` steps); else within
 * chase_distance it steps toward the player when a draw is below
 * chase_probability; else it wanders when a draw is below `wander`. */
typedef struct crafter_skeleton_rules {
  int32_t health, flee_distance;
  double flee_long_axis;
  int32_t shoot_distance;
  double shoot_probability;
  int32_t reload, chase_distance;
  double chase_probability, chase_long_axis, wander;
} crafter_skeleton_rules;

typedef struct crafter_arrow_rules {
  int32_t damage;  /* to whatever it hits */
} crafter_arrow_rules;

/* A sapling grows one step at a time and is ripe when its growth is
 * above `ripe`; eaten ripe it gives `food` and starts again.  Each step a
 * cow, zombie or skeleton stands next to it, it loses `damage` health. */
typedef struct crafter_plant_rules {
  int32_t health, ripe, food, damage;
} crafter_plant_rules;

/* Games of several players (players:).  `damage`: what a player's do
 * takes from another player's health (0, the default: nothing); `shared`:
 * every player whose episode runs gets the team's reward, the sum of
 * theirs, instead of its own. */
typedef struct crafter_team_rules {
  int32_t damage;
  int32_t shared;
} crafter_team_rules;

typedef struct crafter_config {
  crafter_params params;                 /* env: */
  long day_length;                       /* daylight: steps per day; 0: always day */
  crafter_worldgen_config worldgen;      /* worldgen: */
  int balance_interval;                  /* balance: every this many steps; 0: never */
  int chunk[2];                          /* balance: chunk width, height */
  crafter_balance_rule balance[CRAFTER_BALANCE_COUNT];
  crafter_material_set walkable;         /* materials creatures walk on */
  crafter_item_rule items[CRAFTER_ITEM_COUNT];
  crafter_collect_rule collect[CRAFTER_MATERIAL_COUNT];
  crafter_place_rule place[4];           /* by action - CRAFTER_PLACE_STONE */
  crafter_make_rule make[6];             /* by action - CRAFTER_MAKE_WOOD_PICKAXE */
  crafter_reward_config reward;
  crafter_player_rules player;           /* player: */
  crafter_cow_rules cow;                 /* cow: */
  crafter_zombie_rules zombie;           /* zombie: */
  crafter_skeleton_rules skeleton;       /* skeleton: */
  crafter_arrow_rules arrow;             /* arrow: */
  crafter_plant_rules plant;             /* plant: */
  /* players: last, on an 8-byte boundary, and left out of
   * crafter_config_crc while Crafter's (all zero), so that the sums of
   * configurations made before it stay as they were. */
  _Alignas(8) crafter_team_rules team;
} crafter_config;

/* The health a creature of `kind` (enum crafter_object_kind) starts with:
 * the config's cow, zombie, skeleton or plant health, 0 for the rest. */
int crafter_config_health(const crafter_config *config, int kind);

/* Env parameters a program's command line gave, which a config file's env
 * section must not override. */
enum crafter_given {
  CRAFTER_GIVEN_SEED = 1,
  CRAFTER_GIVEN_AREA = 2,
  CRAFTER_GIVEN_VIEW = 4,
  CRAFTER_GIVEN_SIZE = 8,
  CRAFTER_GIVEN_LENGTH = 16,
  CRAFTER_GIVEN_REWARD = 32
};

/* Copies into *params every parameter of *file not named in `given`. */
void crafter_params_take_unset(crafter_params *params, const crafter_params *file,
                               unsigned given);

/* Crafter 1.8.3's values, compiled in.  Games whose config pointer is NULL
 * use these. */
extern const crafter_config crafter_config_builtin;

/* Fills Crafter's values. */
void crafter_config_default(crafter_config *config);

/* The most a configuration may hold: bytes, and levels of nested mappings
 * and sequences.  Crafter's own is 5 kB and 4 levels deep. */
#define CRAFTER_CONFIG_MAX_BYTES (1 << 20)
#define CRAFTER_CONFIG_MAX_DEPTH 32

/* Lays the YAML file at `path` over *config (call crafter_config_default
 * first for Crafter's values underneath).  Returns 0, or -1 with
 * "PATH:LINE:COLUMN: what was wrong and what was expected" in `error`;
 * *config is then unchanged. */
int crafter_config_load(const char *path, crafter_config *config, char *error,
                        size_t error_size);

/* crafter_config_load, keeping the file's bytes in *text (to free) and
 * *length: what a recording stores to be replayed by the same rules. */
int crafter_config_load_text(const char *path, crafter_config *config, char **text,
                             size_t *length, char *error, size_t error_size);

/* The same for YAML text in memory; `name` stands for the path in errors.
 * A text larger than CRAFTER_CONFIG_MAX_BYTES or nested deeper than
 * CRAFTER_CONFIG_MAX_DEPTH is refused with a sentence that says so. */
int crafter_config_load_string(const char *text, size_t length, const char *name,
                               crafter_config *config, char *error, size_t error_size);

/* Checks the values for ranges the engine relies on; 0, or -1 with a
 * sentence. */
int crafter_config_check(const crafter_config *config, char *error, size_t error_size);

/* Daylight after `step` steps with a day of `day_length` steps (Crafter:
 * 300); 1 for a day length of 0. */
double crafter_daylight_cycle(long step, long day_length);

/* A checksum of a configuration's values, its env section aside: two
 * configurations with equal checksums generate and play alike. */
uint32_t crafter_config_crc(const crafter_config *config);

/* The bytes of the file a configuration made by crafter_config_new
 * (crafter/crafter.h) was read from, and their count; NULL for Crafter's
 * own (a NULL path).  Only for configurations from crafter_config_new. */
const char *crafter_config_text(const crafter_config *config, size_t *bytes);

#endif
