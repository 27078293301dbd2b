"""Crafter's names in the orders of the reference traces (crafter-step(1),
RECORDS): material ids, the 16 inventory counts, the 22 achievements and
the object types.  Python's standard library only."""

MATERIALS = ['none', 'water', 'grass', 'stone', 'path', 'sand', 'tree', 'lava',
             'coal', 'iron', 'diamond', 'table', 'furnace']
INVENTORY = [
    'health', 'food', 'drink', 'energy', 'sapling', 'wood', 'stone', 'coal',
    'iron', 'diamond', 'wood_pickaxe', 'stone_pickaxe', 'iron_pickaxe',
    'wood_sword', 'stone_sword', 'iron_sword']
ACHIEVEMENTS = [
    'collect_coal', 'collect_diamond', 'collect_drink', 'collect_iron',
    'collect_sapling', 'collect_stone', 'collect_wood', 'defeat_skeleton',
    'defeat_zombie', 'eat_cow', 'eat_plant', 'make_iron_pickaxe',
    'make_iron_sword', 'make_stone_pickaxe', 'make_stone_sword',
    'make_wood_pickaxe', 'make_wood_sword', 'place_furnace', 'place_plant',
    'place_stone', 'place_table', 'wake_up']
PLAYER, COW, ZOMBIE, SKELETON, ARROW, PLANT = range(6)
