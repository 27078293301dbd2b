#!/bin/sh
# The manual pages render without a warning, fit an 80-column terminal, and
# document every long option that a program's --help lists; --help fits
# 80 columns too.
. "$(dirname "$0")/tap.sh"
pages=$(ls "$top"/man/man1/*.1 "$top"/man/man5/*.5 "$top"/man/man7/*.7)
programs="crafter-step crafter-play crafter-score crafter-bench crafter-gen crafter-dataset"
plan $(($(echo "$pages" | wc -l) * 2 + 12))

for page in $pages; do
  name=${page##*/}
  if command -v groff >/dev/null 2>&1; then
    # -ww: every warning; tbl for the tables.
    groff -t -man -ww -z "$page" >"$scratch/warnings" 2>&1
    [ $? -eq 0 ] && [ ! -s "$scratch/warnings" ]
    ok $? "$name renders without a groff warning"
    diag <"$scratch/warnings"
  else
    skip "$name: groff is not installed"
  fi
  if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 MAN_KEEP_FORMATTING= man --warnings -E UTF-8 -l "$page" >"$scratch/page" 2>"$scratch/warnings"
    wide=$(col -b <"$scratch/page" | awk 'length($0) > 80' | head -n 3)
    [ ! -s "$scratch/warnings" ] && [ -z "$wide" ] && [ -s "$scratch/page" ]
    ok $? "$name fits 80 columns, with no warning from man"
    { cat "$scratch/warnings"; echo "$wide"; } | diag
  else
    skip "$name: man is not installed"
  fi
done

for program in $programs; do
  page=$top/man/man1/$program.1
  missing=""
  for option in $("$top/bin/$program" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    pattern=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
    grep -q -e "$pattern\\b" -e "$option\\b" "$page" || missing="$missing $option"
  done
  [ -z "$missing" ]
  ok $? "$program(1) documents every long option of --help"
  [ -n "$missing" ] && echo "missing:$missing" | diag
  wide=$("$top/bin/$program" --help | awk 'length($0) > 80')
  [ -z "$wide" ]
  ok $? "$program --help fits 80 columns"
  [ -n "$wide" ] && echo "$wide" | diag
done
finish
