#!/bin/sh
# Writes the toolkit's instruction-task suite (crafter-task(5)) to standard
# output:
#
#   sh data/tasks/generate.sh > data/tasks/crafter-tasks.yaml   (make tasks)
#
# The words are not made here: every sentence of the suite is written, one
# a line, in the files data/tasks/wordings/FAMILY.txt, and this script only
# puts them together with the goals listed at its end (the family, the id,
# the difficulty, where the goal goes and the checker's arguments):
#
#   train  a training goal, worded by the section "= ID" of its family's
#          file: its first line is the instruction, the others the
#          paraphrases;
#   both   a training goal as above, and the same goal (same family and
#          check) in the test-paraphrase split, id suffixed ".p", worded by
#          the section "= ID.p", none of whose sentences a training goal
#          says;
#   new    a test-new-objects goal: a combination of objects and arguments
#          no training goal has, worded by the section "= ID".
#
# A section holds 6 to 17 sentences.  A sentence may start with marks: a
# sentence marked "[typo]" carries a small misspelling on purpose (the
# YAML says so in a comment); one marked "[reversed]" gives a localization
# goal from the target's side ("water just east of it").  The output is
# the same, byte for byte, on every run.
LC_ALL=C
export LC_ALL
dir=$(dirname "$0")
families="achievements localization conditional line square cross timed explore"
files=
for family in $families; do
  files="$files $dir/wordings/$family.txt"
  [ -r "$dir/wordings/$family.txt" ] || {
    echo "generate.sh: cannot read $dir/wordings/$family.txt" >&2
    exit 1
  }
done

# shellcheck disable=SC2086 # the list of files splits on purpose
awk '
function die(message) {
  printf "generate.sh: %s\n", message > "/dev/stderr"
  failed = 1
  exit 1
}

function yaml_text(text) {
  if (text ~ /["\\]/) die(FILENAME ":" FNR ": a quote or a backslash in: " text)
  if (text ~ /[^ -~]/) die(FILENAME ":" FNR ": not printable ASCII: " text)
  if (length(text) > 255) die(FILENAME ":" FNR ": longer than 255 bytes: " text)
  return "\"" text "\""
}

function list_of(csv,    parts, n, i, out) {
  n = split(csv, parts, ",")
  out = ""
  for (i = 1; i <= n; i++) out = out (i > 1 ? ", " : "") parts[i]
  return "[" out "]"
}

function need(key) {
  if (!(key in A)) die("goal " ID " needs " key "=")
  return A[key]
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
    if (!(need("daylight") in DAYLIGHT)) die("goal " ID ": no daylight window " A["daylight"])
    out = "block: " need("block") ", radius: " need("radius") ", daylight: " DAYLIGHT[A["daylight"]]
  } else if (FAMILY == "explore") {
    out = "target: " need("target") ", distance: " need("distance")
  } else {
    die("goal " ID ": unknown family " FAMILY)
  }
  return "{" out "}"
}

# The sentence k of section `id`, a YAML string and its comment.
function sentence(id, k,    text) {
  text = yaml_text(T[id, k])
  return text (TYPO[id, k] ? "  # typo" : "")
}

function emit(id, split_name,    k) {
  if (!(id in N)) die("goal " ID ": no section = " id " in data/tasks/wordings/" FAMILY ".txt")
  if (N[id] < 6 || N[id] > 17) die("section " id ": " N[id] " sentences, expected 6 to 17")
  if (SECTION_FAMILY[id] != FAMILY) die("section " id " is not in the file of family " FAMILY)
  USED[id] = 1
  printf "  - id: %s\n    family: %s\n    check: %s\n", id, FAMILY, check()
  printf "    instruction: %s\n    paraphrases:\n", sentence(id, 1)
  for (k = 2; k <= N[id]; k++) printf "      - %s\n", sentence(id, k)
  printf "    difficulty: %s\n    split: %s\n", DIFFICULTY, split_name
  if ("steps" in A) printf "    steps: %s\n", A["steps"]
}

# Loads goal g into FAMILY, ID, DIFFICULTY, WHERE and A.
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
}

# The goals and daylight windows, from standard input.
NR == FNR && $1 == "goal" { GOAL[++goals] = $0; next }
NR == FNR && $1 == "daylight" { DAYLIGHT[$2] = substr($0, index($0, "[")); next }
NR == FNR && (/^#/ || NF == 0) { next }
NR == FNR { die("goal list line " FNR ": not a goal or daylight line: " $0) }

# The wordings.
FNR == 1 { family = FILENAME; sub(/.*\//, "", family); sub(/\.txt$/, "", family); section = "" }
/^#/ || NF == 0 { next }
/^= / {
  section = $2
  if (NF != 2) die(FILENAME ":" FNR ": expected = ID")
  if (section in N) die(FILENAME ":" FNR ": section " section " again")
  N[section] = 0
  SECTION_FAMILY[section] = family
  ORDER[++sections] = section
  next
}
{
  if (section == "") die(FILENAME ":" FNR ": a sentence before the first section")
  text = $0
  typo = 0
  while (match(text, /^\[[a-z]+\] /)) {
    mark = substr(text, 2, RLENGTH - 3)
    if (mark == "typo") typo = 1
    else if (mark != "reversed") die(FILENAME ":" FNR ": unknown mark [" mark "]")
    text = substr(text, RLENGTH + 1)
  }
  if (text ~ /^ | $|  /) die(FILENAME ":" FNR ": a space at an end, or two together")
  k = ++N[section]
  for (j = 1; j < k; j++)
    if (T[section, j] == text) die(FILENAME ":" FNR ": section " section " says twice: " text)
  T[section, k] = text
  TYPO[section, k] = typo
  if (k == 1 && typo) die(FILENAME ":" FNR ": the instruction (the first sentence) has a typo mark")
}

END {
  if (failed) exit 1
  # No test-paraphrase sentence is a training one.
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "train" || WHERE == "both")
      for (k = 1; k <= N[ID]; k++) TRAINING[T[ID, k]] = ID
  }
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "both")
      for (k = 1; k <= N[ID ".p"]; k++)
        if (T[ID ".p", k] in TRAINING)
          die("section " ID ".p says what training goal " TRAINING[T[ID ".p", k]] " says: " T[ID ".p", k])
  }
  print "# The instruction-task suite of the Crafter toolkit (crafter-task(5))."
  print "# Generated by data/tasks/generate.sh from the sentences written in"
  print "# data/tasks/wordings: do not edit by hand; change those and run make tasks."
  print "version: 1"
  print "tasks:"
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "train" || WHERE == "both") emit(ID, "train")
    else if (WHERE != "new") die("goal " ID ": expected train, both or new, got " WHERE)
  }
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "both") emit(ID ".p", "test-paraphrase")
  }
  for (g = 1; g <= goals; g++) {
    load(g)
    if (WHERE == "new") emit(ID, "test-new-objects")
  }
  for (s = 1; s <= sections; s++)
    if (!(ORDER[s] in USED)) die("section " ORDER[s] " words no goal")
}
' - $files <<'DATA'
# ---- daylight windows of timed goals: name [low, high] ----
daylight night [0, 0.3]
daylight day [0.7, 1]
daylight deep [0, 0.1]
daylight noon [0.9, 1]
daylight dusk [0.3, 0.7]

# ---- goals: family id difficulty train|both|new key=value ... ----
goal achievements ach.collect_wood easy both unlock=collect_wood
goal achievements ach.collect_wood.fast easy train unlock=collect_wood steps=100
goal achievements ach.collect_sapling easy train unlock=collect_sapling
goal achievements ach.collect_drink easy train unlock=collect_drink
goal achievements ach.eat_cow easy train unlock=eat_cow
goal achievements ach.place_table easy both unlock=place_table
goal achievements ach.place_table.fast medium train unlock=place_table steps=200
goal achievements ach.collect_sapling.fast easy train unlock=collect_sapling steps=150
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
goal achievements ach.table.furnace medium both unlock=place_table,place_furnace
goal achievements ach.wood_pickaxe.stone medium train unlock=make_wood_pickaxe,collect_stone
goal achievements ach.collect_stone.place_stone medium train unlock=collect_stone,place_stone
goal achievements ach.zombie.skeleton hard train unlock=defeat_zombie,defeat_skeleton
goal achievements ach.drink.eat_cow easy train unlock=collect_drink,eat_cow
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
goal achievements ach.collect_drink.no_wood easy both unlock=collect_drink avoid=collect_wood
goal achievements ach.wake_up.no_eating medium train unlock=wake_up avoid=eat_cow,eat_plant
goal achievements ach.make_iron_sword hard new unlock=make_iron_sword
goal achievements ach.sapling.eat_cow medium new unlock=collect_sapling,eat_cow
goal achievements ach.iron_tools hard new unlock=make_iron_pickaxe,make_iron_sword
goal achievements ach.collect_coal.no_wood_sword medium new unlock=collect_coal avoid=make_wood_sword
goal achievements ach.place.stone.table.furnace medium new unlock=place_stone,place_table,place_furnace
goal achievements ach.defeat_skeleton.no_sword hard new unlock=defeat_skeleton avoid=make_wood_sword,make_stone_sword,make_iron_sword
goal achievements ach.drink.sleep medium new unlock=collect_drink,wake_up
goal achievements ach.zombie.eat_cow medium new unlock=defeat_zombie,eat_cow
goal achievements ach.eat_plant.no_cow hard new unlock=eat_plant avoid=eat_cow

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
goal localization loc.table.up.tree.1 easy both object=table target=tree side=up distance=1 placed=true
goal localization loc.stone.right.tree.1 medium train object=stone target=tree side=right distance=1 placed=true
goal localization loc.plant.right.water.1 medium train object=plant target=water side=right distance=1 placed=true
goal localization loc.furnace.left.table.1 medium train object=furnace target=table side=left distance=1 placed=true
goal localization loc.stone.down.sand.1 medium train object=stone target=sand side=down distance=1 placed=true
goal localization loc.table.down.water.1 medium train object=table target=water side=down distance=1 placed=true
goal localization loc.any.tree.left.water.1 easy both object=tree target=water side=left distance=1 placed=false
goal localization loc.any.sand.up.water.1 easy train object=sand target=water side=up distance=1 placed=false
goal localization loc.any.coal.up.stone.1 medium train object=coal target=stone side=up distance=1 placed=false
goal localization loc.any.cow.right.tree.1 medium train object=cow target=tree side=right distance=1 placed=false
goal localization loc.any.water.down.sand.1 easy train object=water target=sand side=down distance=1 placed=false
goal localization loc.any.tree.right.grass.1 easy both object=tree target=grass side=right distance=1 placed=false
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
goal localization loc.plant.up.water.1 medium new object=plant target=water side=up distance=1 placed=true
goal localization loc.any.coal.left.stone.1 medium new object=coal target=stone side=left distance=1 placed=false

goal conditional cond.wood.1.table.1 easy both item=wood threshold=1 object=table count=1
goal conditional cond.stone.1.stone.3 medium both item=stone threshold=1 object=stone count=3
goal conditional cond.sapling.1.plant.2 medium both item=sapling threshold=1 object=plant count=2
goal conditional cond.stone.1.furnace.1 medium train item=stone threshold=1 object=furnace count=1
goal conditional cond.coal.1.furnace.1 hard train item=coal threshold=1 object=furnace count=1
goal conditional cond.wood.1.stone.2 medium train item=wood threshold=1 object=stone count=2
goal conditional cond.food.5.cow.1 easy both item=food threshold=5 object=cow count=1
goal conditional cond.drink.5.water.1 easy train item=drink threshold=5 object=water count=1
goal conditional cond.health.9.zombie.1 medium train item=health threshold=9 object=zombie count=1
goal conditional cond.food.5.water.1 easy train item=food threshold=5 object=water count=1
goal conditional cond.energy.5.stone.2 medium train item=energy threshold=5 object=stone count=2
goal conditional cond.stone.1.table.1 medium train item=stone threshold=1 object=table count=1
goal conditional cond.wood.1.plant.1 medium train item=wood threshold=1 object=plant count=1
goal conditional cond.drink.5.tree.1 easy train item=drink threshold=5 object=tree count=1
goal conditional cond.sapling.1.water.1 medium train item=sapling threshold=1 object=water count=1
goal conditional cond.iron.1.furnace.1 hard new item=iron threshold=1 object=furnace count=1
goal conditional cond.sapling.1.plant.4 hard new item=sapling threshold=1 object=plant count=4
goal conditional cond.stone.1.stone.6 medium new item=stone threshold=1 object=stone count=6
goal conditional cond.wood.1.furnace.1 medium new item=wood threshold=1 object=furnace count=1
goal conditional cond.energy.5.table.1 medium new item=energy threshold=5 object=table count=1
goal conditional cond.food.5.tree.1 easy new item=food threshold=5 object=tree count=1
goal conditional cond.health.9.skeleton.1 hard new item=health threshold=9 object=skeleton count=1

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
goal line line.plant.diag.3 medium train block=plant length=3 diagonal=true
goal line line.table.4 hard train block=table length=4
goal line line.furnace.diag.2 hard train block=furnace length=2 diagonal=true
goal line line.stone.5 medium new block=stone length=5
goal line line.stone.6 hard new block=stone length=6
goal line line.plant.4 hard new block=plant length=4
goal line line.table.diag.2 medium new block=table length=2 diagonal=true
goal line line.furnace.3 hard new block=furnace length=3
goal line line.plant.diag.2 medium new block=plant length=2 diagonal=true
goal line line.stone.diag.4 hard new block=stone length=4 diagonal=true
goal line line.table.5 hard new block=table length=5

goal square square.stone.1 medium train block=stone size=1
goal square square.stone.2 medium both block=stone size=2
goal square square.stone.3 hard train block=stone size=3
goal square square.table.2 medium train block=table size=2
goal square square.plant.2 medium both block=plant size=2
goal square square.furnace.2 hard train block=furnace size=2
goal square square.table.1 easy train block=table size=1
goal square square.stone.5 hard train block=stone size=5
goal square square.stone.4 hard new block=stone size=4
goal square square.plant.3 hard new block=plant size=3
goal square square.table.3 hard new block=table size=3
goal square square.furnace.1 medium new block=furnace size=1
goal square square.plant.1 easy new block=plant size=1
goal square square.furnace.3 hard new block=furnace size=3

goal cross cross.stone.1 medium both block=stone length=1
goal cross cross.stone.2 hard train block=stone length=2
goal cross cross.stone.diag.1 medium both block=stone length=1 diagonal=true
goal cross cross.table.1 hard train block=table length=1
goal cross cross.plant.1 medium both block=plant length=1
goal cross cross.plant.2 hard train block=plant length=2
goal cross cross.furnace.diag.1 hard train block=furnace length=1 diagonal=true
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
goal timed timed.plant.3.noon medium both block=plant radius=3 daylight=noon
goal timed timed.furnace.3.day medium train block=furnace radius=3 daylight=day
goal timed timed.table.2.twilight medium train block=table radius=2 daylight=dusk
goal timed timed.plant.2.night medium new block=plant radius=2 daylight=night
goal timed timed.furnace.1.day medium new block=furnace radius=1 daylight=day
goal timed timed.table.1.midnight hard new block=table radius=1 daylight=deep
goal timed timed.stone.3.twilight medium new block=stone radius=3 daylight=dusk
goal timed timed.furnace.2.noon medium new block=furnace radius=2 daylight=noon

goal explore explore.water.1 easy both target=water distance=1
goal explore explore.tree.1 easy both target=tree distance=1
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
goal explore explore.grass.0 easy both target=grass distance=0
goal explore explore.coal.1 medium train target=coal distance=1
goal explore explore.water.2 easy train target=water distance=2
goal explore explore.sand.1 easy train target=sand distance=1
goal explore explore.zombie.1 medium train target=zombie distance=1
goal explore explore.stone.3 easy train target=stone distance=3
goal explore explore.tree.2 easy train target=tree distance=2
goal explore explore.diamond.1 hard new target=diamond distance=1
goal explore explore.iron.1 hard new target=iron distance=1
goal explore explore.skeleton.1 hard new target=skeleton distance=1
goal explore explore.cow.3 easy new target=cow distance=3
goal explore explore.path.2 medium new target=path distance=2
goal explore explore.sand.2 easy new target=sand distance=2
goal explore explore.lava.1 hard new target=lava distance=1
goal explore explore.coal.3 medium new target=coal distance=3
DATA
