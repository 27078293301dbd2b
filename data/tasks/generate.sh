#!/bin/sh
# Writes the toolkit's instruction-task suite (crafter-task(5)) to standard
# output:
#
#   sh data/tasks/generate.sh > data/tasks/crafter-tasks.yaml   (make tasks)
#
# Everything is in this file: the words (word lines), the sentence frames
# of each family (frame lines) and the goals (goal lines), read by the awk
# program below.  A goal line gives the family, the id, the difficulty,
# where it goes and the checker's arguments:
#
#   train  a training goal: its instruction and seven paraphrases, built
#          from the family's training frames;
#   both   a training goal as above, and the same goal (same family and
#          check) in the test-paraphrase split, id suffixed ".p", worded
#          with the family's test frames only, which no training goal uses;
#   new    a test-new-objects goal: a combination of objects and arguments
#          no training goal has, worded with the training frames.
#
# A frame is a sentence with {slots}: the family fills them from the goal's
# arguments and from the word lists, turning through a list's variants from
# one frame to the next (and from one goal to the next), so each sentence of
# a goal differs.  The output is the same, byte for byte, on every run.
LC_ALL=C
export LC_ALL

awk '
function die(message) {
  printf "generate.sh: %s\n", message > "/dev/stderr"
  failed = 1
  exit 1
}

# The variant of word list `key` for frame k of the current goal.
function pick(key, k) {
  if (!(key in WN)) die("no word list " key)
  return W[key, (k + G) % WN[key] + 1]
}

function word(key, i) {
  if (!((key, i) in W)) die("no word " i " in list " key)
  return W[key, i]
}

function number_word(n) { return word("number", n) }

function cap(text) { return toupper(substr(text, 1, 1)) substr(text, 2) }

# Replaces every {name} with S[name], twice over (a slot may hold slots).
function fill(text,    pass, out, lb, rb, name) {
  for (pass = 0; pass < 2; pass++) {
    out = ""
    while ((lb = index(text, "{")) > 0) {
      rb = index(substr(text, lb), "}")
      if (rb == 0) die("unclosed slot in: " text)
      name = substr(text, lb + 1, rb - 2)
      if (!(name in S)) die("no slot " name " for goal " ID)
      out = out substr(text, 1, lb - 1) S[name]
      text = substr(text, lb + rb)
    }
    text = out text
  }
  return text
}

function yaml_text(text) {
  if (text ~ /["\\]/) die("a quote or a backslash in: " text)
  if (length(text) > 255) die("longer than 255 bytes: " text)
  return "\"" text "\""
}

function list_of(csv,    parts, n, i, out) {
  n = split(csv, parts, ",")
  out = ""
  for (i = 1; i <= n; i++) out = out (i > 1 ? ", " : "") parts[i]
  return "[" out "]"
}

# "a", "a and b", "a, b and c": the achievements of a goal in words.
function achievement_words(csv, k,    parts, n, i, out) {
  n = split(csv, parts, ",")
  out = ""
  for (i = 1; i <= n; i++) {
    out = out (i == 1 ? "" : i == n ? " and " : ", ") pick("ach." parts[i], k + i - 1)
  }
  return out
}

function need(key) {
  if (!(key in A)) die("goal " ID " needs " key "=")
  return A[key]
}

function placeable(thing) {
  return thing == "stone" || thing == "table" || thing == "furnace" || thing == "plant"
}

# The distance words of explore and timed goals: "within one cell of".
function near_words(d, k) {
  S["D"] = number_word(d)
  return pick(d == 1 ? "near.1" : "near.n", k)
}

function block_slots(block, k) {
  S["a"] = pick(block ".a", k)
  S["sg"] = pick(block ".sg", k)
  S["pl"] = pick(block ".pl", k)
  S["v"] = pick(block ".v", k)
  S["vit"] = pick(block ".vit", k)
  S["vone"] = pick(block ".vone", k)
  S["yours"] = pick(block ".yours", k)
  S["ring"] = pick(block ".ring", k)
}

function opposite(side) {
  return side == "left" ? "right" : side == "right" ? "left" : side == "up" ? "down" : "up"
}

# The slots of frame k of the current goal.
function slots(k,    family, n, c, o) {
  split("", S)
  family = FAMILY
  if (family == "achievements") {
    S["ach"] = achievement_words(need("unlock"), k)
    S["avoid"] = ("avoid" in A) ? " " pick("avoid." A["avoid"], k) : ""
    S["S"] = ("steps" in A) ? A["steps"] : ""
    S["limit"] = ("steps" in A) ? " " pick("limit", k) : ""
  } else if (family == "localization") {
    o = need("object")
    S["D"] = number_word(need("distance"))
    n = A["distance"] == 1 ? "1" : "n"
    S["rel"] = pick("rel." need("side") "." n, k)
    S["rev"] = pick("rel." opposite(A["side"]) "." n, k + 1)
    S["tgt"] = pick(need("target") ".thing", k)
    S["obj"] = pick(o ".thing", k)
    if (placeable(o)) block_slots(o, k)
  } else if (family == "conditional") {
    o = need("object")
    c = need("count")
    if (A["threshold"] == 1) {
      S["item"] = word("item." need("item"), 1)
      S["unit"] = pick("item." A["item"] ".unit", k)
    } else {
      S["stat"] = pick("stat." need("item"), k)
      S["N"] = number_word(A["threshold"])
    }
    S["be"] = c == 1 ? "is" : "are"
    if (placeable(o)) {
      block_slots(o, k)
      if (c == 1) S["objs"] = S["a"] " " S["yours"]
      else S["objs"] = "at least " number_word(c) " " S["pl"] " " S["yours"]
    } else if (c == 1) {
      S["objs"] = pick(o ".thing", k)
    } else {
      die("a count above one of a thing the agent cannot place")
    }
  } else if (family == "line" || family == "square" || family == "cross" || family == "timed") {
    block_slots(need("block"), k)
    if (family == "line") S["N"] = number_word(need("length"))
    if (family == "square") {
      n = need("size")
      S["N"] = number_word(n)
      S["cnt"] = number_word(n * n)
      S["sq"] = pick("square.size", k)
      S["n"] = n
    }
    if (family == "cross") {
      n = need("length")
      S["total"] = number_word(4 * n + 1)
      S["L"] = number_word(n)
      # An arm in blocks ("two stones") and in cells ("two cells").
      S["Lb"] = n == 1 ? "one " S["sg"] : number_word(n) " " S["pl"]
      S["Lc"] = number_word(n) (n == 1 ? " cell" : " cells")
      S["arm"] = number_word(n) "-" pick("arm.adjective", k)
    }
    if (family == "timed") {
      S["near"] = near_words(need("radius"), k)
      S["when"] = pick("when." need("daylight"), k)
      S["whenis"] = pick("when." A["daylight"] ".is", k)
    }
  } else if (family == "explore") {
    n = need("distance")
    if (n == 0) S["ground"] = pick(need("target") ".ground", k)
    else {
      S["near"] = near_words(n, k)
      S["tgt"] = pick(need("target") ".thing", k)
    }
  } else {
    die("unknown family " family)
  }
}

# The frame pool of the current goal: "<kind>.train" or "<kind>.test".
function pool(split_name,    kind) {
  kind = FAMILY
  if (FAMILY == "achievements") kind = "ach"
  else if (FAMILY == "localization") kind = A["placed"] == "true" ? "loc" : "locany"
  else if (FAMILY == "conditional") kind = A["threshold"] == 1 ? "cond" : "condstat"
  else if (FAMILY == "line") kind = A["diagonal"] == "true" ? "linediag" : "line"
  else if (FAMILY == "square") kind = A["size"] == 1 ? "square1" : "square"
  else if (FAMILY == "cross") kind = A["diagonal"] == "true" ? "star" : "cross"
  else if (FAMILY == "explore") kind = A["distance"] == 0 ? "exploreon" : "explore"
  return kind "." (split_name == "test-paraphrase" ? "test" : "train")
}

function check(    out) {
  if (FAMILY == "achievements") {
    out = "unlock: " list_of(need("unlock"))
    if ("avoid" in A) out = out ", avoid: " list_of(A["avoid"])
  } else if (FAMILY == "localization") {
    out = "object: " need("object") ", target: " need("target") ", side: " need("side") \
      ", distance: " need("distance") ", placed: " need("placed")
  } else if (FAMILY == "conditional") {
    out = "item: " need("item") ", threshold: " need("threshold") ", object: " need("object") \
      ", count: " need("count")
  } else if (FAMILY == "line" || FAMILY == "cross") {
    out = "block: " need("block") ", length: " need("length")
    if (A["diagonal"] == "true") out = out ", diagonal: true"
  } else if (FAMILY == "square") {
    out = "block: " need("block") ", size: " need("size")
  } else if (FAMILY == "timed") {
    out = "block: " need("block") ", radius: " need("radius") ", daylight: " \
      word("daylight", DAYLIGHT[need("daylight")])
  } else if (FAMILY == "explore") {
    out = "target: " need("target") ", distance: " need("distance")
  }
  return "{" out "}"
}

function emit(id, split_name, count,    name, k, text, seen) {
  name = pool(split_name)
  if (FN[name] < count) die("frame pool " name " has " FN[name] " frames, " count " needed")
  printf "  - id: %s\n    family: %s\n    check: %s\n", id, FAMILY, check()
  split("", seen)
  for (k = 0; k < count; k++) {
    slots(k)
    text = cap(fill(F[name, k + 1]))
    if (text in seen) die("goal " id " says twice: " text)
    seen[text] = 1
    if (k == 0) printf "    instruction: %s\n    paraphrases:\n", yaml_text(text)
    else printf "      - %s\n", yaml_text(text)
  }
  printf "    difficulty: %s\n    split: %s\n", DIFFICULTY, split_name
  if ("steps" in A) printf "    steps: %s\n", A["steps"]
}

# Loads goal g into FAMILY, ID, DIFFICULTY, A and G.
function load(g,    parts, n, i, eq) {
  n = split(GOAL[g], parts, " ")
  FAMILY = parts[2]
  ID = parts[3]
  DIFFICULTY = parts[4]
  WHERE = parts[5]
  split("", A)
  for (i = 6; i <= n; i++) {
    eq = index(parts[i], "=")
    if (eq == 0) die("goal " ID ": expected key=value, got " parts[i])
    A[substr(parts[i], 1, eq - 1)] = substr(parts[i], eq + 1)
  }
  if (FAMILY == "localization" && !("placed" in A)) A["placed"] = "false"
  G = g
}

$1 == "word" {
  n = split(substr($0, length($1) + length($2) + 3), parts, / \| /)
  for (i = 1; i <= n; i++) W[$2, i] = parts[i]
  WN[$2] = n
  next
}
$1 == "frame" {
  F[$2, ++FN[$2]] = substr($0, length($1) + length($2) + 3)
  next
}
$1 == "goal" { GOAL[++goals] = $0; next }
/^#/ || NF == 0 { next }
{ die("data line " NR ": not a word, frame or goal line: " $0) }

END {
  if (failed) exit 1
  for (i = 1; i <= WN["daylight.names"]; i++) DAYLIGHT[word("daylight.names", i)] = i
  print "# The instruction-task suite of the Crafter toolkit (crafter-task(5))."
  print "# Generated by data/tasks/generate.sh: do not edit by hand; change the"
  print "# script and run make tasks."
  print "version: 1"
  print "tasks:"
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "train" || WHERE == "both") emit(ID, "train", 8)
    else if (WHERE != "new") die("goal " ID ": expected train, both or new, got " WHERE)
  }
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "both") emit(ID ".p", "test-paraphrase", 6)
  }
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "new") emit(ID, "test-new-objects", 6)
  }
}
' <<'DATA'
# ---- words ----
word number one | two | three | four | five | six | seven | eight | nine | ten | eleven | twelve | thirteen | fourteen | fifteen | sixteen | seventeen | eighteen | nineteen | twenty | twenty-one | twenty-two | twenty-three | twenty-four | twenty-five

# Blocks the agent can place: with an article, alone, in the plural, the
# verbs that put one down, who placed it, and the empty ring of a square.
word stone.a a stone | a stone block | a block of stone
word stone.sg stone | stone block | block of stone
word stone.pl stones | stone blocks | blocks of stone
word stone.v place | put | set | lay
word stone.vit place it | put it | set it | lay it
word stone.vone place one | put one | set one | lay one
word stone.yours you placed | of your own | that you put down
word stone.ring no other stone right around it | no stone, placed or natural, in any cell around it | nothing made of stone bordering it, not even at a corner
word table.a a table | a crafting table | a workbench
word table.sg table | crafting table | workbench
word table.pl tables | crafting tables | workbenches
word table.v place | put | build | set up
word table.vit place it | put it | build it | set it up
word table.vone place one | put one | build one | set one up
word table.yours you built | of your own | that you set up
word table.ring no other table right around it | no table in any cell around it | no further table bordering it, not even at a corner
word furnace.a a furnace | a smelting furnace | a furnace
word furnace.sg furnace | smelting furnace | furnace
word furnace.pl furnaces | smelting furnaces | furnaces
word furnace.v build | place | put | set up
word furnace.vit build it | place it | put it | set it up
word furnace.vone build one | place one | put one | set one up
word furnace.yours you built | of your own | that you set up
word furnace.ring no other furnace right around it | no furnace in any cell around it | no further furnace bordering it, not even at a corner
word plant.a a sapling | a young plant | a sapling
word plant.sg sapling | young plant | plant
word plant.pl saplings | young plants | plants
word plant.v plant | put | place | set
word plant.vit plant it | put it | place it | set it
word plant.vone plant one | put one | place one | set one
word plant.yours you planted | of your own | that you put in the ground
word plant.ring no other plant right around it | no plant in any cell around it | no further sapling bordering it, not even at a corner

# Things of the world, as a goal names them.
word water.thing water | a water tile | the water
word tree.thing a tree | one of the trees | a tree
word sand.thing sand | a patch of sand | a sand tile
word grass.thing grass | a grass tile | a patch of grass
word stone.thing stone | a block of stone | a stone tile
word path.thing a path tile | the bare path | a tile of tunnel floor
word coal.thing coal | a coal deposit | coal ore
word iron.thing iron | an iron deposit | iron ore
word diamond.thing a diamond | a diamond deposit | diamond ore
word lava.thing lava | a pool of lava | a lava tile
word table.thing a table | a crafting table | a workbench
word furnace.thing a furnace | a smelting furnace | a furnace
word plant.thing a sapling | a young plant | a sapling
word cow.thing a cow | one of the cows | a grazing cow
word zombie.thing a zombie | one of the zombies | a zombie
word skeleton.thing a skeleton | one of the skeletons | a skeleton archer
# Ground to stand on (explore, distance 0).
word sand.ground sand | a sand tile | sandy ground | a patch of sand
word path.ground a path tile | the bare path | the tunnel floor

# Where one thing lies from another (localization): one cell, or {D}.
word rel.left.1 directly to the left of | immediately to the left of | one cell to the left of | just west of
word rel.left.n exactly {D} cells to the left of | {D} cells left of | {D} tiles to the west of
word rel.right.1 directly to the right of | immediately to the right of | one cell to the right of | just east of
word rel.right.n exactly {D} cells to the right of | {D} cells right of | {D} tiles to the east of
word rel.up.1 directly above | right above | one cell above | just north of
word rel.up.n exactly {D} cells above | {D} cells up from | {D} tiles to the north of
word rel.down.1 directly below | right below | one cell below | just south of
word rel.down.n exactly {D} cells below | {D} cells down from | {D} tiles to the south of

# How near (explore, timed): at most {D} cells along either axis.
word near.1 within one cell of | right next to | no more than one cell from
word near.n within {D} cells of | no more than {D} cells from | at most {D} cells away from

# Daylight windows (timed): their names, values and words.
word daylight.names night | day | deep | noon | dusk
word daylight [0, 0.3] | [0.7, 1] | [0, 0.1] | [0.9, 1] | [0.3, 0.7]
word when.night at night | after dark | while it is dark | during the night
word when.night.is night | dark | nighttime
word when.day during the day | in daylight | while the sun is up | in broad daylight
word when.day.is day | light | broad daylight
word when.deep in the dead of night | in the darkest hours of the night | at the darkest time of night | around midnight
word when.deep.is the dead of night | the darkest part of the night | midnight
word when.noon around noon | at the brightest time of day | in the middle of the day | at midday
word when.noon.is midday | noon | the brightest part of the day
word when.dusk at dusk or dawn | in the twilight | while the light is half gone | when it is neither full day nor deep night
word when.dusk.is twilight | dusk or dawn | half light

# Squares and crosses.
word square.size {n}x{n} | {N}-by-{N} | {n} by {n}
word arm.adjective cell | tile | cell

# Items (conditional): spent to nothing, or a vital falling.
word item.wood wood
word item.wood.unit piece of wood | bit of wood | log
word item.stone stone
word item.stone.unit stone | piece of stone | stone block
word item.sapling saplings
word item.sapling.unit sapling | seedling | sapling
word item.coal coal
word item.coal.unit piece of coal | lump of coal | bit of coal
word item.iron iron
word item.iron.unit piece of iron | lump of iron | bit of iron
word stat.food food | food level | food bar
word stat.drink drink level | drink meter | drink bar
word stat.energy energy | energy level | energy bar
word stat.health health | health level | health bar

# Achievements, as things to do.
word ach.collect_coal mine some coal | collect coal | dig up a lump of coal
word ach.collect_diamond mine a diamond | collect a diamond | dig out a diamond
word ach.collect_drink drink some water | take a drink from a lake | drink water
word ach.collect_iron mine some iron | collect iron ore | dig up a piece of iron
word ach.collect_sapling collect a sapling | pick up a sapling from the grass | gather a sapling
word ach.collect_stone mine some stone | collect stone | dig out a piece of stone
word ach.collect_wood collect wood | chop some wood from a tree | gather wood
word ach.defeat_skeleton defeat a skeleton | kill a skeleton | beat a skeleton in a fight
word ach.defeat_zombie defeat a zombie | kill a zombie | beat a zombie in a fight
word ach.eat_cow eat a cow | hunt down and eat a cow | eat some beef from a cow
word ach.eat_plant eat a ripe plant | eat a plant once it has ripened | grow a sapling until it is ripe and eat it
word ach.make_iron_pickaxe make an iron pickaxe | craft an iron pickaxe | forge an iron pickaxe
word ach.make_iron_sword make an iron sword | craft an iron sword | forge an iron sword
word ach.make_stone_pickaxe make a stone pickaxe | craft a stone pickaxe | put together a stone pickaxe
word ach.make_stone_sword make a stone sword | craft a stone sword | put together a stone sword
word ach.make_wood_pickaxe make a wooden pickaxe | craft a wood pickaxe | put together a wooden pickaxe
word ach.make_wood_sword make a wooden sword | craft a wood sword | put together a wooden sword
word ach.place_furnace place a furnace | build a furnace | set up a furnace
word ach.place_plant plant a sapling | place a sapling in the ground | put a sapling on the grass
word ach.place_stone place a stone | put down a stone block | set a stone on the ground
word ach.place_table place a table | build a crafting table | set up a workbench
word ach.wake_up sleep until you wake up | take a nap until you wake up again | get some sleep until you wake up
# What not to have done first, by the avoid list.
word avoid.eat_cow,eat_plant without eating anything | without eating a cow or a plant | on an empty stomach, never eating along the way
word avoid.make_wood_sword without making a wooden sword | without crafting a wood sword | while never crafting a wooden sword
word avoid.make_wood_sword,make_stone_sword,make_iron_sword without crafting any sword | bare-handed, never having made a sword | without making a sword of any kind
word avoid.collect_drink before you drink any water | without drinking water first | before taking your first drink
word avoid.place_stone without placing a single stone block | without putting down any stone | while never placing a stone block
word limit within {S} steps | in at most {S} steps | before {S} steps have passed

# ---- frames: eight for training, six for the test-paraphrase split ----
frame ach.train {ach}{avoid}{limit}.
frame ach.train Your goal is to {ach}{avoid}{limit}.
frame ach.train Try to {ach}{avoid}{limit}.
frame ach.train Be sure to {ach}{avoid}{limit}.
frame ach.train Manage to {ach}{avoid}{limit}.
frame ach.train Make it your aim to {ach}{avoid}{limit}.
frame ach.train See that you {ach}{avoid}{limit}.
frame ach.train What you must do: {ach}{avoid}{limit}.
frame ach.test This time, {ach}{avoid}{limit}.
frame ach.test The task at hand: {ach}{avoid}{limit}.
frame ach.test I would like you to {ach}{avoid}{limit}.
frame ach.test Can you {ach}{avoid}{limit}?
frame ach.test Please {ach}{avoid}{limit}.
frame ach.test Your mission is to {ach}{avoid}{limit}.

frame loc.train {v} {a} {rel} {tgt}.
frame loc.train {v} {a} so that {tgt} lies {rev} it.
frame loc.train Find {tgt} and {v} {a} {rel} it.
frame loc.train Make sure {a} {yours} ends up {rel} {tgt}.
frame loc.train {tgt} should end up {rev} {a} {yours}.
frame loc.train Go to {tgt}, then {v} {a} {rel} it.
frame loc.train Your {sg} belongs {rel} {tgt}: {vit} there.
frame loc.train Position {a} {rel} {tgt} by placing it yourself.
frame loc.test Set things up so that {a} {yours} is {rel} {tgt}.
frame loc.test With your own hands, {v} {a} {rel} {tgt}.
frame loc.test Head over to {tgt} and {v} {a} {rel} it.
frame loc.test Arrange for {tgt} to be {rev} {a} {yours}.
frame loc.test The spot {rel} {tgt} needs {a}; {vone} there.
frame loc.test Your job: {v} {a} {rel} {tgt} yourself.

frame locany.train Find a spot where {obj} is {rel} {tgt}.
frame locany.train Go to a place where {obj} lies {rel} {tgt}.
frame locany.train Look for {obj} {rel} {tgt} and get close to it.
frame locany.train Get near {tgt} with {obj} {rel} it.
frame locany.train Search for a place where {tgt} is {rev} {obj}, and stay near it.
frame locany.train Walk until you are close to {obj} sitting {rel} {tgt}.
frame locany.train Track down a spot with {obj} {rel} {tgt}.
frame locany.train Explore until you come near {obj} that is {rel} {tgt}.
frame locany.test Locate {obj} {rel} {tgt} and approach it.
frame locany.test Your goal is to get close to {obj} that sits {rel} {tgt}.
frame locany.test Come near a place where {tgt} lies {rev} {obj}.
frame locany.test Wander until {obj} {rel} {tgt} is close to you.
frame locany.test Seek out {obj} positioned {rel} {tgt}.
frame locany.test Find where {obj} stands {rel} {tgt}, and be near it.

frame cond.train Use up the last of your {item} while {objs} {be} near you.
frame cond.train Run out of {item} with {objs} close by.
frame cond.train Spend your final {unit} when {objs} {be} within five cells of you.
frame cond.train With {objs} around you, use your last {unit}.
frame cond.train Make sure {objs} {be} near you at the moment you run out of {item}.
frame cond.train Keep spending {item} until you have none left, staying near {objs}.
frame cond.train Empty your supply of {item} while you are close to {objs}.
frame cond.train Be near {objs} when your last {unit} is used up.
frame cond.test Let your {item} run out completely while {objs} {be} near you.
frame cond.test Finish off your {item} in the presence of {objs}.
frame cond.test Go through all your {item}, ending with {objs} nearby.
frame cond.test Your task is to have no {item} left, which must happen while {objs} {be} within five cells.
frame cond.test Use every last {unit} you carry, with {objs} close at hand.
frame cond.test Only run out of {item} once {objs} {be} around you.

frame condstat.train Let your {stat} drop below {N} while {objs} {be} near you.
frame condstat.train Be near {objs} at the moment your {stat} falls under {N}.
frame condstat.train With {objs} close by, let your {stat} sink below {N}.
frame condstat.train Wait near {objs} until your {stat} goes from {N} or more to less than {N}.
frame condstat.train Stay close to {objs} as your {stat} slips below {N}.
frame condstat.train Have your {stat} fall below {N} while you are within five cells of {objs}.
frame condstat.train Make sure {objs} {be} around you when your {stat} dips under {N}.
frame condstat.train Keep {objs} near you while your {stat} drops beneath {N}.

frame line.train {v} {N} {pl} in a straight line.
frame line.train Make a row of {N} {pl}.
frame line.train Build a straight line of {N} {pl}, either across or up and down.
frame line.train Put {N} {pl} one after another in a straight line.
frame line.train Line up {N} {pl} side by side with no gaps.
frame line.train Lay out a single unbroken line of {N} {pl}.
frame line.train Create a line that is {N} {pl} long, running across or down.
frame line.train {v} {pl} until {N} of them stand in one straight line.
frame line.test Arrange {N} {pl} in one straight line without any gaps.
frame line.test I need {N} of your {pl} lined up in a row.
frame line.test Form a horizontal or vertical line of {N} {pl}.
frame line.test Get {N} {pl} into a line, each one touching the next.
frame line.test Your task is a straight row of {N} {pl}.
frame line.test Keep putting down {pl} until {N} of them form a continuous line.

frame linediag.train {v} {N} {pl} in a diagonal line.
frame linediag.train Make a diagonal of {N} {pl}, each one touching the next at a corner.
frame linediag.train Build a slanted line of {N} {pl}.
frame linediag.train Line up {N} {pl} diagonally.
frame linediag.train Put {N} {pl} in a line that runs diagonally, corner to corner.
frame linediag.train Arrange {N} {pl} like the steps of a staircase, each meeting the next only at a corner.
frame linediag.train Lay {N} {pl} along a diagonal with no gaps.
frame linediag.train Create a diagonal line {N} {pl} long.
frame linediag.test Place {pl} so that {N} of them run corner to corner in a slanting line.
frame linediag.test I need a diagonal row made of {N} {pl}.
frame linediag.test Your job is to set {N} {pl} on a diagonal, one after another.
frame linediag.test Form a line of {N} {pl} that goes diagonally across the ground.
frame linediag.test Get {N} of your {pl} lined up on a slant.
frame linediag.test Put down a diagonal chain of {N} {pl}.

frame square.train Build a solid {sq} square of {pl} with {ring}.
frame square.train Fill a {sq} square with {pl}, leaving {ring}.
frame square.train {v} {cnt} {pl} as a filled {sq} square, with {ring}.
frame square.train Make a {sq} patch of {pl}, every cell filled, with {ring}.
frame square.train Cover a {sq} square area completely with {pl}; there must be {ring}.
frame square.train Create a square of {pl}, {N} on each side and solid inside, with {ring}.
frame square.train Put {pl} on every cell of a {sq} square and make sure there is {ring}.
frame square.train Build a compact {sq} square out of {cnt} {pl} that has {ring}.
frame square.test Construct a {sq} square packed with {pl}, with {ring}.
frame square.test I want a full {sq} square made of {pl}, with {ring}.
frame square.test Your goal: a solid square of {pl}, {N} by {N}, with {ring}.
frame square.test Arrange {cnt} {pl} into a tightly packed {sq} square with {ring}.
frame square.test Fill every cell of a {N}-by-{N} area with {pl}, with {ring}.
frame square.test Set up a square of {pl} measuring {sq}, with {ring}.

frame square1.train {v} {a} with {ring}.
frame square1.train Put down a single {sg} that stands alone, with {ring}.
frame square1.train Leave one of your {pl} standing by itself, with {ring}.
frame square1.train {v} {a} somewhere with {ring}.
frame square1.train Create an isolated {sg} so that there is {ring}.
frame square1.train Put a single {sg} on its own, making sure there is {ring}.
frame square1.train Set down one {sg} apart from the rest, with {ring}.
frame square1.train Build a one-block square: a single {sg} with {ring}.
frame square1.test Have a lone {sg} of yours with {ring}.
frame square1.test Your goal is one {sg}, placed by you, with {ring}.
frame square1.test Isolate a single {sg} you put down: there must be {ring}.
frame square1.test Make a tiny square of just one {sg}, with {ring}.
frame square1.test Keep one of your {pl} on its own, with {ring}.
frame square1.test Set out one {sg} by itself so that there is {ring}.

frame cross.train Build a plus-shaped cross of {pl}: one {sg} in the centre with arms of {Lb} reaching left, right, up and down.
frame cross.train {v} {total} {pl} in the shape of a plus sign, each arm {Lc} long beyond the centre.
frame cross.train Make a cross out of {pl} whose four arms stretch {Lc} out from the middle.
frame cross.train Lay out {pl} as a + shape with {arm} arms in all four straight directions.
frame cross.train Create a cross of {pl} with a {sg} in the centre and {Lb} more on each of its four sides.
frame cross.train Put {pl} in a plus pattern: one in the middle and {Lb} going off in every straight direction.
frame cross.train Form a plus sign from {total} {pl}, with arms pointing up, down, left and right.
frame cross.train Build an upright cross of {pl} whose arms are {Lc} long, not counting the centre.
frame cross.test Shape {total} {pl} into a plus, arms running up, down, left and right from a middle {sg}.
frame cross.test I need a + made of {pl}, with {Lb} in each arm around the central one.
frame cross.test Your goal is a cross of {pl}: a centre and {Lb} in every straight direction.
frame cross.test Arrange {pl} like a plus sign whose arms extend {Lc} from the middle.
frame cross.test Put down {pl} in a plus: a middle {sg} and {arm} arms to the left, right, top and bottom.
frame cross.test Construct a straight-armed cross out of {total} {pl}.

frame star.train Build an X shape of {pl}: one {sg} in the centre with {Lb} more along each diagonal.
frame star.train {v} {total} {pl} in the shape of a letter X, each arm {Lc} long beyond the centre.
frame star.train Make a diagonal cross of {pl} whose four arms reach {Lc} out from the middle toward the corners.
frame star.train Lay out {pl} as an X with {arm} arms.
frame star.train Create a star of {pl}: one in the middle and {Lb} toward each of the four corners.
frame star.train Put {pl} in an X pattern, {Lb} out from the centre along every diagonal.
frame star.train Form an X from {total} {pl}, its arms running diagonally.
frame star.train Build a diagonal star of {pl} with arms {Lc} long, not counting the centre.
frame star.test Shape {total} {pl} into an X, arms running diagonally from a middle {sg}.
frame star.test I need an X made of {pl}, with {Lb} in each diagonal arm around the central one.
frame star.test Your goal is a diagonal cross of {pl}: a centre and {Lb} toward every corner.
frame star.test Arrange {pl} like the letter X, with arms that extend {Lc} from the middle.
frame star.test Put down {pl} in an X: a middle {sg} and {arm} arms toward the four corners.
frame star.test Construct a star with diagonal arms out of {total} {pl}.


frame timed.train {when}, stand {near} {a} {yours}.
frame timed.train Be {near} one of your {pl} {when}.
frame timed.train {v} {a} and be {near} it {when}.
frame timed.train {when}, make sure you are {near} {a} {yours}.
frame timed.train Wait until it is {whenis}, then be {near} {a} {yours}.
frame timed.train {v} {a}, then stand {near} it {when}.
frame timed.train Spend a moment {near} one of your own {pl} {when}.
frame timed.train {when}, find yourself {near} {a} {yours}.
frame timed.test {when}, keep close: be {near} {a} {yours}.
frame timed.test Once it is {whenis}, go {near} {a} {yours}.
frame timed.test Your task: be {near} one of your {pl} {when}.
frame timed.test {when}, position yourself {near} {a} {yours}.
frame timed.test {v} {a}; {when} you should be {near} it.
frame timed.test I want you {near} one of your {pl} {when}.

frame explore.train Get {near} {tgt}.
frame explore.train Find {tgt} and get {near} it.
frame explore.train Walk until you are {near} {tgt}.
frame explore.train Reach a spot {near} {tgt}.
frame explore.train Travel until {tgt} is {near} you.
frame explore.train Explore the world and end up {near} {tgt}.
frame explore.train Head for {tgt} and come {near} it.
frame explore.train Look for {tgt}; stand {near} it.
frame explore.test Make your way {near} {tgt}.
frame explore.test Track down {tgt} and move {near} it.
frame explore.test Your objective is to be {near} {tgt}.
frame explore.test Seek out {tgt} until you are {near} it.
frame explore.test Wander until you find yourself {near} {tgt}.
frame explore.test Bring yourself {near} {tgt}.

frame exploreon.train Stand on {ground}.
frame exploreon.train Walk onto {ground}.
frame exploreon.train Find {ground} and step onto it.
frame exploreon.train Go and stand on {ground}.
frame exploreon.train Move until you are standing on {ground}.
frame exploreon.train Put your feet on {ground}.
frame exploreon.train Get yourself onto {ground}.
frame exploreon.train Reach {ground} and stand on it.
frame exploreon.test Make your way onto {ground}.
frame exploreon.test Your objective is to be standing on {ground}.
frame exploreon.test Seek out {ground} and step on it.
frame exploreon.test Wander until you are on {ground}.
frame exploreon.test End up on top of {ground}.
frame exploreon.test Get to {ground} and stop there.

# ---- goals: family id difficulty train|both|new key=value ... ----
goal achievements ach.collect_wood easy both unlock=collect_wood
goal achievements ach.collect_wood.fast easy train unlock=collect_wood steps=100
goal achievements ach.collect_sapling easy train unlock=collect_sapling
goal achievements ach.collect_drink easy train unlock=collect_drink
goal achievements ach.eat_cow easy train unlock=eat_cow
goal achievements ach.place_table easy both unlock=place_table
goal achievements ach.place_table.fast medium train unlock=place_table steps=200
goal achievements ach.place_plant easy train unlock=place_plant
goal achievements ach.wake_up medium train unlock=wake_up
goal achievements ach.make_wood_pickaxe medium both unlock=make_wood_pickaxe
goal achievements ach.make_wood_sword medium train unlock=make_wood_sword
goal achievements ach.collect_stone medium both unlock=collect_stone
goal achievements ach.place_stone medium train unlock=place_stone
goal achievements ach.defeat_zombie medium both unlock=defeat_zombie
goal achievements ach.collect_coal medium train unlock=collect_coal
goal achievements ach.place_furnace medium train unlock=place_furnace
goal achievements ach.make_stone_pickaxe medium train unlock=make_stone_pickaxe
goal achievements ach.make_stone_sword medium train unlock=make_stone_sword
goal achievements ach.collect_iron hard both unlock=collect_iron
goal achievements ach.make_iron_pickaxe hard train unlock=make_iron_pickaxe
goal achievements ach.defeat_skeleton hard train unlock=defeat_skeleton
goal achievements ach.collect_diamond hard train unlock=collect_diamond
goal achievements ach.eat_plant hard train unlock=eat_plant
goal achievements ach.wood.drink easy both unlock=collect_wood,collect_drink
goal achievements ach.wood.sapling.plant medium train unlock=collect_wood,collect_sapling,place_plant
goal achievements ach.table.wood_tools medium train unlock=place_table,make_wood_pickaxe,make_wood_sword
goal achievements ach.eat.drink.sleep medium train unlock=eat_cow,collect_drink,wake_up
goal achievements ach.coal.iron hard train unlock=collect_coal,collect_iron
goal achievements ach.stone_tools medium train unlock=make_stone_pickaxe,make_stone_sword
goal achievements ach.make_iron_pickaxe.no_eating hard both unlock=make_iron_pickaxe avoid=eat_cow,eat_plant
goal achievements ach.collect_stone.no_wood_sword medium train unlock=collect_stone avoid=make_wood_sword
goal achievements ach.defeat_zombie.no_sword hard train unlock=defeat_zombie avoid=make_wood_sword,make_stone_sword,make_iron_sword
goal achievements ach.eat_cow.before_drink easy train unlock=eat_cow avoid=collect_drink
goal achievements ach.place_furnace.no_stone medium train unlock=place_furnace avoid=place_stone
goal achievements ach.make_iron_sword hard new unlock=make_iron_sword
goal achievements ach.sapling.eat_cow medium new unlock=collect_sapling,eat_cow
goal achievements ach.iron_tools hard new unlock=make_iron_pickaxe,make_iron_sword
goal achievements ach.collect_coal.no_wood_sword medium new unlock=collect_coal avoid=make_wood_sword
goal achievements ach.place.stone.table.furnace medium new unlock=place_stone,place_table,place_furnace
goal achievements ach.defeat_skeleton.no_sword hard new unlock=defeat_skeleton avoid=make_wood_sword,make_stone_sword,make_iron_sword
goal achievements ach.drink.sleep medium new unlock=collect_drink,wake_up

goal localization loc.table.left.water.1 medium both object=table target=water side=left distance=1 placed=true
goal localization loc.table.right.tree.1 easy train object=table target=tree side=right distance=1 placed=true
goal localization loc.stone.left.water.1 medium train object=stone target=water side=left distance=1 placed=true
goal localization loc.stone.up.tree.1 medium both object=stone target=tree side=up distance=1 placed=true
goal localization loc.stone.down.water.1 medium train object=stone target=water side=down distance=1 placed=true
goal localization loc.plant.left.water.1 medium train object=plant target=water side=left distance=1 placed=true
goal localization loc.plant.right.tree.1 medium both object=plant target=tree side=right distance=1 placed=true
goal localization loc.furnace.right.table.1 medium both object=furnace target=table side=right distance=1 placed=true
goal localization loc.furnace.down.table.1 medium train object=furnace target=table side=down distance=1 placed=true
goal localization loc.table.up.water.2 medium both object=table target=water side=up distance=2 placed=true
goal localization loc.table.down.tree.2 medium train object=table target=tree side=down distance=2 placed=true
goal localization loc.stone.right.water.3 medium train object=stone target=water side=right distance=3 placed=true
goal localization loc.table.left.sand.1 easy train object=table target=sand side=left distance=1 placed=true
goal localization loc.stone.left.lava.1 hard train object=stone target=lava side=left distance=1 placed=true
goal localization loc.plant.up.sand.1 medium train object=plant target=sand side=up distance=1 placed=true
goal localization loc.plant.down.tree.1 medium train object=plant target=tree side=down distance=1 placed=true
goal localization loc.table.right.stone.1 easy train object=table target=stone side=right distance=1 placed=true
goal localization loc.stone.up.coal.1 medium train object=stone target=coal side=up distance=1 placed=true
goal localization loc.any.tree.left.water.1 easy both object=tree target=water side=left distance=1 placed=false
goal localization loc.any.sand.up.water.1 easy train object=sand target=water side=up distance=1 placed=false
goal localization loc.any.coal.up.stone.1 medium train object=coal target=stone side=up distance=1 placed=false
goal localization loc.any.cow.right.tree.1 medium train object=cow target=tree side=right distance=1 placed=false
goal localization loc.table.right.water.1 medium new object=table target=water side=right distance=1 placed=true
goal localization loc.stone.left.water.2 medium new object=stone target=water side=left distance=2 placed=true
goal localization loc.plant.left.tree.1 medium new object=plant target=tree side=left distance=1 placed=true
goal localization loc.furnace.left.water.1 medium new object=furnace target=water side=left distance=1 placed=true
goal localization loc.table.left.water.3 medium new object=table target=water side=left distance=3 placed=true
goal localization loc.stone.down.tree.1 medium new object=stone target=tree side=down distance=1 placed=true
goal localization loc.plant.down.water.1 medium new object=plant target=water side=down distance=1 placed=true
goal localization loc.furnace.up.table.1 medium new object=furnace target=table side=up distance=1 placed=true
goal localization loc.any.cow.left.water.1 medium new object=cow target=water side=left distance=1 placed=false
goal localization loc.any.iron.right.path.1 hard new object=iron target=path side=right distance=1 placed=false

goal conditional cond.wood.1.table.1 easy both item=wood threshold=1 object=table count=1
goal conditional cond.stone.1.stone.3 medium both item=stone threshold=1 object=stone count=3
goal conditional cond.sapling.1.plant.2 medium both item=sapling threshold=1 object=plant count=2
goal conditional cond.stone.1.furnace.1 medium train item=stone threshold=1 object=furnace count=1
goal conditional cond.coal.1.furnace.1 hard train item=coal threshold=1 object=furnace count=1
goal conditional cond.wood.1.stone.2 medium train item=wood threshold=1 object=stone count=2
goal conditional cond.food.5.cow.1 easy train item=food threshold=5 object=cow count=1
goal conditional cond.drink.5.water.1 easy train item=drink threshold=5 object=water count=1
goal conditional cond.health.9.zombie.1 medium train item=health threshold=9 object=zombie count=1
goal conditional cond.iron.1.furnace.1 hard new item=iron threshold=1 object=furnace count=1
goal conditional cond.sapling.1.plant.4 hard new item=sapling threshold=1 object=plant count=4
goal conditional cond.stone.1.stone.6 medium new item=stone threshold=1 object=stone count=6
goal conditional cond.wood.1.furnace.1 medium new item=wood threshold=1 object=furnace count=1
goal conditional cond.energy.5.table.1 medium new item=energy threshold=5 object=table count=1

goal line line.stone.2 medium train block=stone length=2
goal line line.stone.3 medium both block=stone length=3
goal line line.stone.4 medium train block=stone length=4
goal line line.stone.diag.2 medium train block=stone length=2 diagonal=true
goal line line.stone.diag.3 medium both block=stone length=3 diagonal=true
goal line line.table.2 medium both block=table length=2
goal line line.table.3 medium train block=table length=3
goal line line.plant.2 medium train block=plant length=2
goal line line.plant.3 medium both block=plant length=3
goal line line.furnace.2 hard train block=furnace length=2
goal line line.stone.5 medium new block=stone length=5
goal line line.stone.6 hard new block=stone length=6
goal line line.plant.4 hard new block=plant length=4
goal line line.table.diag.2 medium new block=table length=2 diagonal=true
goal line line.furnace.3 hard new block=furnace length=3
goal line line.plant.diag.2 medium new block=plant length=2 diagonal=true
goal line line.stone.diag.4 hard new block=stone length=4 diagonal=true

goal square square.stone.1 medium train block=stone size=1
goal square square.stone.2 medium both block=stone size=2
goal square square.stone.3 hard train block=stone size=3
goal square square.table.2 medium train block=table size=2
goal square square.plant.2 medium both block=plant size=2
goal square square.furnace.2 hard train block=furnace size=2
goal square square.table.1 easy train block=table size=1
goal square square.stone.4 hard new block=stone size=4
goal square square.plant.3 hard new block=plant size=3
goal square square.table.3 hard new block=table size=3
goal square square.furnace.1 medium new block=furnace size=1
goal square square.plant.1 easy new block=plant size=1

goal cross cross.stone.1 medium both block=stone length=1
goal cross cross.stone.2 hard train block=stone length=2
goal cross cross.stone.diag.1 medium both block=stone length=1 diagonal=true
goal cross cross.table.1 hard train block=table length=1
goal cross cross.plant.1 medium train block=plant length=1
goal cross cross.stone.diag.2 hard new block=stone length=2 diagonal=true
goal cross cross.plant.diag.1 hard new block=plant length=1 diagonal=true
goal cross cross.furnace.1 hard new block=furnace length=1
goal cross cross.table.diag.1 hard new block=table length=1 diagonal=true
goal cross cross.stone.3 hard new block=stone length=3

goal timed timed.stone.1.night medium both block=stone radius=1 daylight=night
goal timed timed.stone.2.day medium train block=stone radius=2 daylight=day
goal timed timed.table.1.night medium train block=table radius=1 daylight=night
goal timed timed.table.2.day easy both block=table radius=2 daylight=day
goal timed timed.plant.1.day easy both block=plant radius=1 daylight=day
goal timed timed.furnace.2.night medium train block=furnace radius=2 daylight=night
goal timed timed.stone.1.midnight hard train block=stone radius=1 daylight=deep
goal timed timed.table.3.noon medium train block=table radius=3 daylight=noon
goal timed timed.plant.2.night medium new block=plant radius=2 daylight=night
goal timed timed.furnace.1.day medium new block=furnace radius=1 daylight=day
goal timed timed.table.1.midnight hard new block=table radius=1 daylight=deep
goal timed timed.stone.3.twilight medium new block=stone radius=3 daylight=dusk

goal explore explore.water.1 easy both target=water distance=1
goal explore explore.tree.1 easy train target=tree distance=1
goal explore explore.sand.0 easy both target=sand distance=0
goal explore explore.cow.1 easy train target=cow distance=1
goal explore explore.stone.1 easy train target=stone distance=1
goal explore explore.coal.2 medium both target=coal distance=2
goal explore explore.iron.2 hard train target=iron distance=2
goal explore explore.path.0 medium train target=path distance=0
goal explore explore.lava.3 hard both target=lava distance=3
goal explore explore.diamond.2 hard train target=diamond distance=2
goal explore explore.zombie.2 medium train target=zombie distance=2
goal explore explore.skeleton.3 hard train target=skeleton distance=3
goal explore explore.tree.3 easy train target=tree distance=3
goal explore explore.water.3 easy train target=water distance=3
goal explore explore.diamond.1 hard new target=diamond distance=1
goal explore explore.iron.1 hard new target=iron distance=1
goal explore explore.skeleton.1 hard new target=skeleton distance=1
goal explore explore.cow.3 easy new target=cow distance=3
goal explore explore.path.2 medium new target=path distance=2
goal explore explore.sand.2 easy new target=sand distance=2
DATA
