#!/bin/sh
# Writes a C file embedding every PNG in a folder as a byte array, for the
# library's built-in textures.  Usage: embed-textures.sh DIR > out.c
set -eu
dir=$1
echo "/* Made by data/embed-textures.sh from $dir; do not edit. */"
echo "#include <stddef.h>"
names=""
count=0
for file in "$dir"/*.png; do
  [ -e "$file" ] || continue
  name=$(basename "$file" .png)
  symbol="texture_$count"
  echo "static const unsigned char ${symbol}[] = {"
  od -An -v -tu1 "$file" | sed 's/[0-9][0-9]*/&,/g'
  echo "};"
  names="$names {\"$name\", $symbol, sizeof($symbol)},"
  count=$((count + 1))
done
echo "typedef struct builtin_texture { const char *name; const unsigned char *data; size_t size; } builtin_texture;"
echo "extern const builtin_texture crafter_builtin_textures[];"
echo "extern const size_t crafter_builtin_texture_count;"
if [ "$count" -eq 0 ]; then
  echo "const builtin_texture crafter_builtin_textures[] = {{\"\", NULL, 0}};"
else
  echo "const builtin_texture crafter_builtin_textures[] = {$names};"
fi
echo "const size_t crafter_builtin_texture_count = $count;"
