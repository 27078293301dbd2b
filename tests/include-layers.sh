#!/bin/sh
# include-layers.sh LIB: what breaks the layers of the library in LIB (a
# lib/ folder with its LAYERS table), one line each; nothing when all is
# well.  Exit status 1 when something does.
#   - a file directly in LIB, or in a folder that is no layer of LAYERS;
#   - an #include "..." of a header of a layer after the file's own in
#     LAYERS, or one that names no folder (every include says where its
#     header lives: FOLDER/NAME.h, or crafter/NAME.h for the public ones).
lib=${1:?usage: include-layers.sh LIB}
layers=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$lib/LAYERS" | awk '{ print $1 }')
[ -n "$layers" ] || { echo "LAYERS: no layer"; exit 1; }
find "$lib" -type f ! -name LAYERS ! -name README ! -name '*.in' ! -name '*.o' ! -name '*.a' |
  sort | while read -r file; do
  relative=${file#"$lib"/}
  folder=${relative%%/*}
  if [ "$folder" = "$relative" ]; then
    echo "$relative: a file directly in lib/, in no layer"
    continue
  fi
  rank=$(echo "$layers" | grep -nx "$folder" | cut -d: -f1)
  if [ -z "$rank" ]; then
    echo "$relative: in $folder/, which is no layer of LAYERS"
    continue
  fi
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file" |
    while read -r included; do
      to=${included%%/*}
      if [ "$to" = "$included" ]; then
        echo "$relative: includes \"$included\", which names no folder"
      elif [ "$to" != crafter ]; then
        to_rank=$(echo "$layers" | grep -nx "$to" | cut -d: -f1)
        if [ -z "$to_rank" ]; then
          echo "$relative: includes \"$included\", of no layer"
        elif [ "$to_rank" -gt "$rank" ]; then
          echo "$relative: includes \"$included\", of $to, a layer above $folder"
        fi
      fi
    done
done | grep . && exit 1
exit 0
