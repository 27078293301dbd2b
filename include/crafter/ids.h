/* ids: the names and numbers every layer shares: materials, object kinds,
 * actions, inventory items and achievements, in Crafter's orders.
 *
 * Each list is written once, as an X-macro: the enum and the table of
 * names are both made from it, so they cannot disagree, and a table sized
 * by one of the counts must have an entry for every member (the
 * _Static_asserts beside such tables check it). */
#ifndef CRAFTER_IDS_H
#define CRAFTER_IDS_H

/* Material ids are Crafter's (and the texture and semantic ids). */
#define CRAFTER_MATERIALS(X)                                                    \
  X(NONE, "none") X(WATER, "water") X(GRASS, "grass") X(STONE, "stone")         \
  X(PATH, "path") X(SAND, "sand") X(TREE, "tree") X(LAVA, "lava")               \
  X(COAL, "coal") X(IRON, "iron") X(DIAMOND, "diamond") X(TABLE, "table")       \
  X(FURNACE, "furnace")

#define CRAFTER_OBJECT_KINDS(X)                                                 \
  X(PLAYER, "player") X(COW, "cow") X(ZOMBIE, "zombie") X(SKELETON, "skeleton") \
  X(ARROW, "arrow") X(PLANT, "plant")

#define CRAFTER_ACTIONS(X)                                                      \
  X(NOOP, "noop") X(MOVE_LEFT, "move_left") X(MOVE_RIGHT, "move_right")         \
  X(MOVE_UP, "move_up") X(MOVE_DOWN, "move_down") X(DO, "do") X(SLEEP, "sleep") \
  X(PLACE_STONE, "place_stone") X(PLACE_TABLE, "place_table")                   \
  X(PLACE_FURNACE, "place_furnace") X(PLACE_PLANT, "place_plant")               \
  X(MAKE_WOOD_PICKAXE, "make_wood_pickaxe")                                     \
  X(MAKE_STONE_PICKAXE, "make_stone_pickaxe")                                   \
  X(MAKE_IRON_PICKAXE, "make_iron_pickaxe") X(MAKE_WOOD_SWORD, "make_wood_sword") \
  X(MAKE_STONE_SWORD, "make_stone_sword") X(MAKE_IRON_SWORD, "make_iron_sword")

/* Items whose names are also materials' carry ITEM_ in their ids. */
#define CRAFTER_ITEMS(X)                                                        \
  X(HEALTH, "health") X(FOOD, "food") X(DRINK, "drink") X(ENERGY, "energy")     \
  X(SAPLING, "sapling") X(WOOD, "wood") X(ITEM_STONE, "stone")                  \
  X(ITEM_COAL, "coal") X(ITEM_IRON, "iron") X(ITEM_DIAMOND, "diamond")          \
  X(WOOD_PICKAXE, "wood_pickaxe") X(STONE_PICKAXE, "stone_pickaxe")             \
  X(IRON_PICKAXE, "iron_pickaxe") X(WOOD_SWORD, "wood_sword")                   \
  X(STONE_SWORD, "stone_sword") X(IRON_SWORD, "iron_sword")

/* Achievements whose names are also actions' carry _ACH in their ids. */
#define CRAFTER_ACHIEVEMENTS(X)                                                 \
  X(COLLECT_COAL, "collect_coal") X(COLLECT_DIAMOND, "collect_diamond")         \
  X(COLLECT_DRINK, "collect_drink") X(COLLECT_IRON, "collect_iron")             \
  X(COLLECT_SAPLING, "collect_sapling") X(COLLECT_STONE, "collect_stone")       \
  X(COLLECT_WOOD, "collect_wood") X(DEFEAT_SKELETON, "defeat_skeleton")         \
  X(DEFEAT_ZOMBIE, "defeat_zombie") X(EAT_COW, "eat_cow") X(EAT_PLANT, "eat_plant") \
  X(MAKE_IRON_PICKAXE_ACH, "make_iron_pickaxe")                                 \
  X(MAKE_IRON_SWORD_ACH, "make_iron_sword")                                     \
  X(MAKE_STONE_PICKAXE_ACH, "make_stone_pickaxe")                               \
  X(MAKE_STONE_SWORD_ACH, "make_stone_sword")                                   \
  X(MAKE_WOOD_PICKAXE_ACH, "make_wood_pickaxe")                                 \
  X(MAKE_WOOD_SWORD_ACH, "make_wood_sword") X(PLACE_FURNACE_ACH, "place_furnace") \
  X(PLACE_PLANT_ACH, "place_plant") X(PLACE_STONE_ACH, "place_stone")           \
  X(PLACE_TABLE_ACH, "place_table") X(WAKE_UP, "wake_up")

#define CRAFTER_ENUM_ENTRY(id, name) CRAFTER_##id,
enum crafter_material { CRAFTER_MATERIALS(CRAFTER_ENUM_ENTRY) CRAFTER_MATERIAL_COUNT };
enum crafter_object_kind { CRAFTER_OBJECT_KINDS(CRAFTER_ENUM_ENTRY) CRAFTER_OBJECT_KIND_COUNT };
enum crafter_action { CRAFTER_ACTIONS(CRAFTER_ENUM_ENTRY) CRAFTER_ACTION_COUNT };
enum crafter_item { CRAFTER_ITEMS(CRAFTER_ENUM_ENTRY) CRAFTER_ITEM_COUNT };
enum crafter_achievement { CRAFTER_ACHIEVEMENTS(CRAFTER_ENUM_ENTRY) CRAFTER_ACHIEVEMENT_COUNT };
#undef CRAFTER_ENUM_ENTRY

extern const char *const crafter_material_names[CRAFTER_MATERIAL_COUNT];
extern const char *const crafter_object_kind_names[CRAFTER_OBJECT_KIND_COUNT];
extern const char *const crafter_action_names[CRAFTER_ACTION_COUNT];
extern const char *const crafter_item_names[CRAFTER_ITEM_COUNT];
extern const char *const crafter_achievement_names[CRAFTER_ACHIEVEMENT_COUNT];

/* Index of an action by name ("move_left"), -1 if unknown. */
int crafter_action_from_name(const char *name);

#endif
