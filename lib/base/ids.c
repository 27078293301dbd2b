#include "crafter/ids.h"

#include <string.h>

#define NAME_ENTRY(id, name) name,
const char *const crafter_material_names[CRAFTER_MATERIAL_COUNT] = {CRAFTER_MATERIALS(NAME_ENTRY)};
const char *const crafter_object_kind_names[CRAFTER_OBJECT_KIND_COUNT] = {
    CRAFTER_OBJECT_KINDS(NAME_ENTRY)};
const char *const crafter_action_names[CRAFTER_ACTION_COUNT] = {CRAFTER_ACTIONS(NAME_ENTRY)};
const char *const crafter_item_names[CRAFTER_ITEM_COUNT] = {CRAFTER_ITEMS(NAME_ENTRY)};
const char *const crafter_achievement_names[CRAFTER_ACHIEVEMENT_COUNT] = {
    CRAFTER_ACHIEVEMENTS(NAME_ENTRY)};
#undef NAME_ENTRY

int crafter_action_from_name(const char *name) {
  for (int i = 0; i < CRAFTER_ACTION_COUNT; i++)
    if (strcmp(name, crafter_action_names[i]) == 0) return i;
  return -1;
}
