#include "game/world.h"

#include <stdlib.h>
#include <string.h>

int crafter_world_init(crafter_world *world, int width, int height, int chunk_width,
                       int chunk_height) {
  memset(world, 0, sizeof(*world));
  if (width <= 0 || height <= 0 || chunk_width <= 0 || chunk_height <= 0) return -1;
  size_t cells = (size_t)width * (size_t)height;
  world->width = width;
  world->height = height;
  world->chunk_width = chunk_width;
  world->chunk_height = chunk_height;
  world->chunks_x = (width + chunk_width - 1) / chunk_width;
  world->chunks_y = (height + chunk_height - 1) / chunk_height;
  size_t chunk_count = (size_t)world->chunks_x * (size_t)world->chunks_y;
  world->materials = calloc(cells, 1);
  world->object_at = calloc(cells, sizeof(uint32_t));
  world->chunk_order = calloc(chunk_count, sizeof(int16_t));
  world->chunk_seen = calloc(chunk_count, 1);
  world->chunk_materials = calloc(chunk_count * CRAFTER_MATERIAL_COUNT, sizeof(uint16_t));
  world->chunk_column = malloc((size_t)width * sizeof(int16_t));
  world->chunk_row = malloc((size_t)height * sizeof(int16_t));
  world->object_capacity = 64;
  world->objects = malloc((size_t)world->object_capacity * sizeof(crafter_object));
  world->chunk_objects_start =
      malloc((chunk_count * CRAFTER_OBJECT_KIND_COUNT + 1) * sizeof(int32_t));
  world->chunk_objects = malloc((size_t)world->object_capacity * sizeof(int32_t));
  world->change_capacity = 16;
  world->changes = malloc((size_t)world->change_capacity * sizeof(crafter_change));
  if (!world->materials || !world->object_at || !world->chunk_order || !world->chunk_seen ||
      !world->objects || !world->changes || !world->chunk_materials || !world->chunk_column ||
      !world->chunk_row || !world->chunk_objects_start || !world->chunk_objects ||
      chunk_count > INT16_MAX || chunk_width * chunk_height > UINT16_MAX) {
    crafter_world_free(world);
    return -1;
  }
  for (int x = 0; x < width; x++)
    world->chunk_column[x] = (int16_t)(x / chunk_width * world->chunks_y);
  for (int y = 0; y < height; y++) world->chunk_row[y] = (int16_t)(y / chunk_height);
  return 0;
}

void crafter_world_free(crafter_world *world) {
  free(world->materials);
  free(world->object_at);
  free(world->chunk_order);
  free(world->chunk_seen);
  free(world->chunk_materials);
  free(world->chunk_column);
  free(world->chunk_row);
  free(world->objects);
  free(world->changes);
  free(world->chunk_objects_start);
  free(world->chunk_objects);
  memset(world, 0, sizeof(*world));
}

size_t crafter_world_bytes(const crafter_world *world, int objects) {
  size_t cells = (size_t)world->width * (size_t)world->height;
  size_t chunks = (size_t)world->chunks_x * (size_t)world->chunks_y;
  return sizeof(*world) + cells * (1 + sizeof(uint32_t)) +
         (size_t)objects * (sizeof(crafter_object) + sizeof(int32_t)) +
         (size_t)world->change_capacity * sizeof(crafter_change) +
         chunks * (sizeof(int16_t) + 1 + CRAFTER_MATERIAL_COUNT * sizeof(uint16_t)) +
         (chunks * CRAFTER_OBJECT_KIND_COUNT + 1) * sizeof(int32_t) +
         (size_t)(world->width + world->height) * sizeof(int16_t);
}

void crafter_world_clear(crafter_world *world) {
  size_t cells = (size_t)world->width * (size_t)world->height;
  memset(world->materials, 0, cells);
  memset(world->object_at, 0, cells * sizeof(uint32_t));
  memset(world->chunk_seen, 0, (size_t)world->chunks_x * (size_t)world->chunks_y);
  world->chunk_touched = 0;
  world->object_count = 0;
  world->change_count = 0;
  world->removed_pending = 0;
}

void crafter_world_set_material(crafter_world *world, int x, int y, int material) {
  uint8_t *cell = &world->materials[(size_t)x * (size_t)world->height + (size_t)y];
  if (*cell == material) return;
  uint8_t previous = *cell;
  *cell = (uint8_t)material;
  uint16_t *counts =
      &world->chunk_materials[crafter_world_chunk_of(world, x, y) * CRAFTER_MATERIAL_COUNT];
  counts[previous]--;
  counts[material]++;
  if (world->change_count == world->change_capacity) {
    int capacity = world->change_capacity * 2;
    crafter_change *grown = realloc(world->changes, (size_t)capacity * sizeof(crafter_change));
    if (!grown) return; /* the grid is right; only the log loses an entry */
    world->changes = grown;
    world->change_capacity = capacity;
  }
  crafter_change *change = &world->changes[world->change_count++];
  change->x = x;
  change->y = y;
  change->previous = previous;
  change->material = (uint8_t)material;
}

/* The reference creates a chunk's entry the first time an object enters,
 * leaves or is removed from it; balancing walks chunks in that order. */
static void touch_chunk(crafter_world *world, int chunk) {
  if (world->chunk_seen[chunk]) return;
  world->chunk_seen[chunk] = 1;
  world->chunk_order[world->chunk_touched++] = (int16_t)chunk;
}

int crafter_world_reserve(crafter_world *world, int objects) {
  if (objects <= world->object_capacity) return 0;
  int capacity = world->object_capacity;
  while (capacity < objects) capacity *= 2;
  /* The index grows first: a table that grew alone would outrun it. */
  int32_t *index = realloc(world->chunk_objects, (size_t)capacity * sizeof(int32_t));
  if (!index) return -1;
  world->chunk_objects = index;
  crafter_object *grown = realloc(world->objects, (size_t)capacity * sizeof(crafter_object));
  if (!grown) return -1;
  world->objects = grown;
  world->object_capacity = capacity;
  return 0;
}

void crafter_world_index_chunks(crafter_world *world) {
  int cells = world->chunks_x * world->chunks_y * CRAFTER_OBJECT_KIND_COUNT;
  int32_t *start = world->chunk_objects_start;
  /* Counted into start[cell + 1], summed into where each cell's run
   * begins, then filled: start[cell] ends up where the next cell's run
   * begins, so the starts are shifted back by one at the end. */
  memset(start, 0, ((size_t)cells + 1) * sizeof(int32_t));
  for (int slot = 0; slot < world->object_count; slot++) {
    const crafter_object *object = &world->objects[slot];
    if (object->removed) continue;
    start[crafter_world_chunk_of(world, object->x, object->y) * CRAFTER_OBJECT_KIND_COUNT +
          object->kind + 1]++;
  }
  for (int cell = 0; cell < cells; cell++) start[cell + 1] += start[cell];
  for (int slot = 0; slot < world->object_count; slot++) {
    const crafter_object *object = &world->objects[slot];
    if (object->removed) continue;
    int cell = crafter_world_chunk_of(world, object->x, object->y) * CRAFTER_OBJECT_KIND_COUNT +
               object->kind;
    world->chunk_objects[start[cell]++] = slot;
  }
  for (int cell = cells; cell > 0; cell--) start[cell] = start[cell - 1];
  start[0] = 0;
}

int crafter_world_add(crafter_world *world, const crafter_object *object) {
  if (crafter_world_reserve(world, world->object_count + 1) < 0) return -1;
  int slot = world->object_count++;
  world->objects[slot] = *object;
  world->objects[slot].removed = 0;
  world->object_at[(size_t)object->x * (size_t)world->height + (size_t)object->y] =
      (uint32_t)slot + 1;
  touch_chunk(world, crafter_world_chunk_of(world, object->x, object->y));
  return slot;
}

void crafter_world_remove(crafter_world *world, int slot) {
  crafter_object *object = &world->objects[slot];
  if (object->removed) return;
  object->removed = 1;
  world->object_at[(size_t)object->x * (size_t)world->height + (size_t)object->y] = 0;
  touch_chunk(world, crafter_world_chunk_of(world, object->x, object->y));
  world->removed_pending++;
}

void crafter_world_move(crafter_world *world, int slot, int x, int y) {
  crafter_object *object = &world->objects[slot];
  if (object->removed) return;
  world->object_at[(size_t)object->x * (size_t)world->height + (size_t)object->y] = 0;
  world->object_at[(size_t)x * (size_t)world->height + (size_t)y] = (uint32_t)slot + 1;
  int old_chunk = crafter_world_chunk_of(world, object->x, object->y);
  int new_chunk = crafter_world_chunk_of(world, x, y);
  if (old_chunk != new_chunk) {
    touch_chunk(world, old_chunk);
    touch_chunk(world, new_chunk);
  }
  object->x = x;
  object->y = y;
}

void crafter_world_compact(crafter_world *world) {
  if (!world->removed_pending) return;
  int kept = 0;
  for (int slot = 0; slot < world->object_count; slot++) {
    crafter_object *object = &world->objects[slot];
    if (object->removed) continue;
    if (kept != slot) {
      world->objects[kept] = *object;
      world->object_at[(size_t)object->x * (size_t)world->height + (size_t)object->y] =
          (uint32_t)kept + 1;
    }
    kept++;
  }
  world->object_count = kept;
  world->removed_pending = 0;
}

int crafter_world_count_in(const crafter_world *world, int x0, int x1, int y0, int y1,
                           int material) {
  int count = 0;
  for (int x = x0; x < x1; x++) {
    const uint8_t *column = &world->materials[(size_t)x * (size_t)world->height];
    for (int y = y0; y < y1; y++) count += column[y] == material;
  }
  return count;
}

void crafter_world_recount(crafter_world *world) {
  size_t chunk_count = (size_t)world->chunks_x * (size_t)world->chunks_y;
  memset(world->chunk_materials, 0, chunk_count * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t));
  for (int x = 0; x < world->width; x++) {
    const uint8_t *column = &world->materials[(size_t)x * (size_t)world->height];
    /* A column crosses the chunks of its chunk column one run at a time. */
    uint16_t *counts = world->chunk_materials + (size_t)crafter_world_chunk_of(world, x, 0) *
                                                    CRAFTER_MATERIAL_COUNT;
    for (int y = 0; y < world->height; y += world->chunk_height) {
      int end = y + world->chunk_height < world->height ? y + world->chunk_height : world->height;
      for (int at = y; at < end; at++) counts[column[at]]++;
      counts += CRAFTER_MATERIAL_COUNT;
    }
  }
}
