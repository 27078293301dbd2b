/* world: the material grid, the object table and the chunk bookkeeping of
 * one Crafter world.  It knows nothing of the rules that move things.
 *
 * Objects live in creation order, which is the reference's object index
 * order: iteration, balancing and the printed object lists all use it.
 * A removed object stays in the table, flagged, until crafter_world_compact
 * runs, so an object can finish the update in which it removed itself. */
#ifndef CRAFTER_WORLD_H
#define CRAFTER_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "crafter/ids.h"

typedef struct crafter_object {
  uint8_t kind;    /* enum crafter_object_kind */
  uint8_t removed; /* removed during the current step */
  int8_t facing_x, facing_y; /* arrows: flight direction */
  int32_t x, y;
  int32_t health;
  int32_t counter; /* zombie cooldown, skeleton reload, plant growth */
} crafter_object;

/* A material cell changed during a step (kept for `changes` in records). */
typedef struct crafter_change {
  int32_t x, y;
  uint8_t previous, material;
} crafter_change;

typedef struct crafter_world {
  int width, height;             /* the area */
  int chunk_width, chunk_height; /* 12 x 12 in Crafter */
  int chunks_x, chunks_y;        /* chunk grid size */
  uint8_t *materials;            /* width*height, index x*height + y */
  uint32_t *object_at;           /* slot + 1 of the object on a cell, 0 if none */
  crafter_object *objects;
  int object_count, object_capacity;
  /* Chunks in the order the reference first touched them. */
  int16_t *chunk_order;          /* chunk ids, chunk_touched of them valid */
  uint8_t *chunk_seen;           /* per chunk id: touched at least once */
  int chunk_touched;
  uint16_t *chunk_materials;     /* per chunk id, a count of each material */
  /* Chunk ids without dividing: a cell's chunk is chunk_column[x] +
   * chunk_row[y] (see crafter_world_chunk_of). */
  int16_t *chunk_column;         /* per x: (x / chunk_width) * chunks_y */
  int16_t *chunk_row;            /* per y: y / chunk_height */
  crafter_change *changes;       /* material changes since the last clear */
  int change_count, change_capacity;
  int removed_pending;           /* objects flagged removed, not compacted */
  /* Each chunk's objects of each kind, in slot order, as of the last
   * crafter_world_index_chunks: those of chunk c and kind k are
   * chunk_objects[chunk_objects_start[c * CRAFTER_OBJECT_KIND_COUNT + k]]
   * up to the next start.  Room for object_capacity slots. */
  int32_t *chunk_objects_start;  /* chunks * CRAFTER_OBJECT_KIND_COUNT + 1 */
  int32_t *chunk_objects;
} crafter_world;

/* Allocates a world of the given area; returns 0 on success, -1 when out of
 * memory (the world is then left empty and safe to free). */
int crafter_world_init(crafter_world *world, int width, int height, int chunk_width,
                       int chunk_height);
void crafter_world_free(crafter_world *world);

/* The bytes a world of this one's area takes in memory, its buffers
 * included, with room for `objects` objects. */
size_t crafter_world_bytes(const crafter_world *world, int objects);

/* Empties the grid, objects, chunks and change list. */
void crafter_world_clear(crafter_world *world);

static inline int crafter_world_inside(const crafter_world *world, int x, int y) {
  return x >= 0 && y >= 0 && x < world->width && y < world->height;
}

/* Material at a cell, CRAFTER_NONE outside the area. */
static inline int crafter_world_material(const crafter_world *world, int x, int y) {
  if (!crafter_world_inside(world, x, y)) return CRAFTER_NONE;
  return world->materials[(size_t)x * (size_t)world->height + (size_t)y];
}

/* Slot of the object on a cell, -1 when there is none or outside. */
static inline int crafter_world_object_slot(const crafter_world *world, int x, int y) {
  if (!crafter_world_inside(world, x, y)) return -1;
  return (int)world->object_at[(size_t)x * (size_t)world->height + (size_t)y] - 1;
}

/* Sets a material during the game; the change is logged. */
void crafter_world_set_material(crafter_world *world, int x, int y, int material);

/* The chunk id of a cell inside the area: (x / chunk_width) * chunks_y +
 * y / chunk_height, looked up, as balancing and every move ask for it. */
static inline int crafter_world_chunk_of(const crafter_world *world, int x, int y) {
  return world->chunk_column[x] + world->chunk_row[y];
}

/* Files every object under its chunk and kind (chunk_objects), in
 * O(objects + chunks): balancing looks up a chunk's creatures there rather
 * than walking the whole table for each chunk. */
void crafter_world_index_chunks(crafter_world *world);

/* How many objects of `kind` chunk `chunk` held at the last index. */
static inline int crafter_world_indexed_count(const crafter_world *world, int chunk, int kind) {
  const int32_t *start = world->chunk_objects_start + chunk * CRAFTER_OBJECT_KIND_COUNT + kind;
  return start[1] - start[0];
}

/* The slot of the pick-th (from 0) object of `kind` in `chunk`, in slot
 * order, at the last index. */
static inline int crafter_world_indexed_slot(const crafter_world *world, int chunk, int kind,
                                             int pick) {
  return world->chunk_objects[world->chunk_objects_start[chunk * CRAFTER_OBJECT_KIND_COUNT +
                                                         kind] + pick];
}

/* Makes room for `objects` objects in the table; 0, or -1 out of memory. */
int crafter_world_reserve(crafter_world *world, int objects);

/* Adds an object on a free cell; returns its slot, or -1 if out of memory. */
int crafter_world_add(crafter_world *world, const crafter_object *object);

/* Flags an object removed and frees its cell; a second call does nothing. */
void crafter_world_remove(crafter_world *world, int slot);

/* Moves an object to a free cell; a removed object does not move. */
void crafter_world_move(crafter_world *world, int slot, int x, int y);

/* Drops removed objects from the table, keeping creation order. */
void crafter_world_compact(crafter_world *world);

/* Number of cells of a material inside [x0,x1) x [y0,y1). */
int crafter_world_count_in(const crafter_world *world, int x0, int x1, int y0, int y1,
                           int material);

/* Recounts the materials of every chunk after the grid was written
 * directly (world generation); crafter_world_set_material keeps them. */
void crafter_world_recount(crafter_world *world);

/* Cells of a material in a chunk. */
static inline int crafter_world_chunk_count(const crafter_world *world, int chunk, int material) {
  return world->chunk_materials[chunk * CRAFTER_MATERIAL_COUNT + material];
}

#endif
