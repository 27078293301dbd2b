/* cx_text: a text observation of a Craftax state (the full game), for
 * language-model agents: what the player sees in Craftax's 9x11 window,
 * its vitals, attributes and inventory, the light and the ladders, in
 * short lines of plain words.  Deterministic: the text is a function of
 * the state alone.
 *
 * The lines, each ending in a newline, in this order:
 *
 *   Floor F: NAME.
 *       F 0 to 8, NAME one of: the overworld, the dungeon, the gnomish
 *       mines, the sewers, the vaults, the troll mines, the fire realm,
 *       the ice realm, the graveyard.
 *   Step T. Daylight L (day).
 *       T the timestep; L the light level to two decimals; "day" when
 *       the light level is at least 0.5, else "night".
 *   Health H, food F, drink D, energy E, mana M.
 *       H to one decimal (Craftax's health is a float), the others whole.
 *   XP X; dexterity A, strength B, intelligence C.
 *   You face DIR; you are STATE.
 *       DIR left, right, up or down (up is towards the first row);
 *       "nowhere" for direction 0.  STATE asleep (is_sleeping), resting
 *       (is_resting) or awake.
 *   Facing: THING.
 *       What is in the cell the player faces: a creature's or
 *       projectile's name, else an item's (torch, ladder down, ladder
 *       down (blocked), ladder up), else the block's name; "unseen" for
 *       a cell in darkness, "outside the map" past the edge.
 *   View (9 rows, 11 columns; you are @ in the middle):
 *   ROW (nine lines)
 *       The window Craftax shows, rows from the player's row - 4 to + 4,
 *       columns from its column - 5 to + 5, one character a cell: @ the
 *       player; '?' a cell on the map whose light (light_map, as
 *       Craftax's symbolic observation tests it: > 0.05) hides it; 'X' a
 *       cell outside the map; else the first creature or projectile
 *       standing there (melee, passive, ranged creatures, creatures'
 *       projectiles, the player's, each in slot order; projectiles are
 *       '*'), else the item, else the block.  Blocks: 0 invalid, '.'
 *       grass, '~' water, '#' stone, 't' tree, 'w' wood, '_' path, 'c'
 *       coal, 'i' iron, 'd' diamond, '+' crafting table, 'f' furnace,
 *       ':' sand, '%' lava, 'p' plant, 'q' ripe plant, '=' wall, '"'
 *       darkness, 'm' mossy wall, '^' stalagmite, 's' sapphire, 'r'
 *       ruby, '$' chest, 'o' fountain, ',' fire grass, ';' ice grass,
 *       'g' gravel, 'y' fire tree, 'b' ice shrub, 'e' fire enchantment
 *       table, 'n' ice enchantment table, 'N' necromancer, 'x' grave
 *       (all three kinds), 'V' vulnerable necromancer (also the
 *       necromancer's block while it is vulnerable: no melee or ranged
 *       creature on its floor and its spawn timer run out).  Items: '!'
 *       torch, '>' ladder down, ')' ladder down (blocked: fewer than 8
 *       creatures killed on the floor, as Craftax draws it), '<' ladder
 *       up.  Creatures: Z zombie, G gnome warrior, O orc soldier, L
 *       lizard, K knight, T troll, P pigman, F frost troll (melee); C
 *       cow, B bat, U snail (passive); S skeleton, A gnome archer, M orc
 *       mage, Y kobold, R archer, D deep thing, E fire elemental, I ice
 *       elemental (ranged).
 *   Legend: @ you, C NAME, ...
 *       Each character the view holds, once, with its name: @ first,
 *       then blocks, items, creatures in the order above, '*'
 *       projectile, '?' unseen, 'X' outside the map.
 *   Creature: NAME, OFFSET.
 *   Projectile: NAME (yours|a creature's), OFFSET, moving DIR.
 *       One line for each creature, then each projectile, seen in the
 *       view (its cell lit), in the view's order of kinds and slots.
 *       OFFSET is "R up|down and C left|right (N steps)" with the parts
 *       that are not zero ("2 up and 1 right (3 steps)", "1 left (1
 *       step)", "here (0 steps)"), N the sum of both.  Projectiles'
 *       names: arrow, dagger, fireball, iceball, arrow, slimeball,
 *       fireball, iceball (types 0 to 7).  With none, one line "Nothing
 *       moves in sight."
 *   Necromancer: hit P of 8 times; vulnerable|shielded.
 *       Only on the graveyard (floor 8); P the boss's progress.
 *   Ladder down: OFFSET; open|blocked (K of 8 creatures killed here).
 *       On floors 0 to 7.  Craftax's state holds where each floor's
 *       ladders are, and the text says it whether or not the ladder is
 *       in sight.
 *   Ladder up: OFFSET.
 *       On floors 1 to 8.
 *   Inventory: NAME N, ...
 *       The counts that are not zero, in this order: wood, stone, coal,
 *       iron, diamond, sapphire, ruby, sapling, torches, arrows;
 *       "nothing" when all are zero.
 *   Tools: PICKAXE, SWORD, bow.
 *       "wood pickaxe" .. "diamond pickaxe" for pickaxe 1 to 4, the same
 *       for the sword with " (fire)" or " (ice)" after it when enchanted,
 *       "bow" when the bow count is not zero, with its enchantment alike;
 *       "none" when there are none.
 *   Armour: KIND PIECE (ENCHANTMENT), ...
 *       The pieces worn, in the order helmet, chestplate, leggings,
 *       boots, KIND iron (1) or diamond (2), the enchantment as above;
 *       "none" when none is worn.
 *   Potions: COLOUR N, ...
 *       The counts that are not zero, in the order red, green, blue,
 *       pink, cyan, yellow (the inventory's order); "none".
 *   Books: N. Spells: fireball, iceball.
 *       The spells learned, or "none".
 *
 * A value outside what the game holds (a block type past 36, a
 * creature's type past its kind's) is named "unknown", with '0' in the
 * view. */
#ifndef CRAFTER_CX_TEXT_H
#define CRAFTER_CX_TEXT_H

#include <stddef.h>

#include "game/cx_worldgen.h"


/* The text of *s into out (size bytes), with snprintf's semantics: the
 * length the whole text needs is returned, and at most size - 1 bytes of
 * it are written, followed by a NUL when size is not zero. */
size_t crafter_cx_render_text(const crafter_cx_state *s, char *out, size_t size);

/* The whole map of floor `floor` (0..8) into out, snprintf's sizes: 48
 * lines of 48 characters, row 0 first, in the view's letters (blocks,
 * items over them, the creatures and projectiles of that floor over
 * those, the first kind and slot on top, and @ the player when on that
 * floor), every cell shown whatever its light.  crafter-gen --game
 * craftax prints it. */
size_t crafter_cx_render_floor(const crafter_cx_state *s, int floor, char *out, size_t size);

/* "the overworld", ... "the graveyard" for floors 0 to 8. */
const char *crafter_cx_floor_name(int floor);

#endif
