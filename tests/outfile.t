#!/bin/sh
# Output files never replace what their path names with something else:
# a symbolic link stays a link and its target gets the picture, a FIFO gets
# the bytes, a device is written in place, and a failed write leaves the
# old file whole.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
plan 7

cd "$scratch" || exit 1
echo old >target.png
ln -s target.png link.png
"$gen" --seed 1 --png link.png
ok $? "a PNG written through a symbolic link"
[ -L link.png ] && [ "$(readlink link.png)" = target.png ] &&
  head -c 8 target.png | od -An -c | grep -q 'P   N   G'
ok $? "the link stays a link, and its target holds the PNG"

mkfifo picture.fifo
(cat picture.fifo >received &)
"$gen" --seed 1 --png picture.fifo
status=$?
sleep 1
[ $status -eq 0 ] && [ -p picture.fifo ] && cmp -s received target.png
ok $? "a FIFO stays a FIFO and gets the whole PNG"

if [ -w /dev/full ]; then
  "$gen" --seed 1 --png /dev/full 2>err
  [ $? -eq 1 ] && [ -c /dev/full ] && grep -q '^crafter-gen: /dev/full: ' err
  ok $? "a write to a full device fails with a message and leaves the device"
else
  skip "no writable /dev/full"
fi

cp target.png saved.png
chmod 640 target.png
"$gen" --seed 2 --png target.png && ! cmp -s target.png saved.png &&
  [ "$(stat -c %a target.png)" = 640 ]
ok $? "a regular file is replaced whole and keeps its mode"

[ -z "$(find . -name '*.tmp.*')" ]
ok $? "no temporary file is left behind"

mkdir readonly && cp saved.png readonly/kept.png && chmod 555 readonly
if [ "$(id -u)" -ne 0 ]; then
  ! "$gen" --seed 2 --png readonly/kept.png 2>/dev/null && cmp -s readonly/kept.png saved.png
  ok $? "a write that cannot start leaves the old file"
else
  # root may write anywhere; a missing folder fails the same way
  ! "$gen" --seed 2 --png missing/kept.png 2>err && grep -q 'missing/kept.png' err
  ok $? "a write that cannot start names the path"
fi
finish
