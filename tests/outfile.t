#!/bin/sh
# Output files never replace what their path names with something else:
# a symbolic link stays a link and its target gets the picture, a FIFO gets
# the bytes, a device is written in place, and a failed write leaves the
# old file whole.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
plan 11

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

echo FIRST >appended
"$gen" --seed 1 --png /dev/stdout >>appended
[ "$(head -n 1 appended)" = FIRST ] && tail -c +7 appended | cmp -s - target.png
ok $? "/dev/stdout appended to (>>) keeps what the file held"
{ echo before; "$gen" --seed 1 --png /dev/stdout; echo after; } >grouped
[ "$(head -n 1 grouped)" = before ] && [ "$(tail -c 6 grouped)" = after ] &&
  [ "$(wc -c <grouped)" -eq $(($(wc -c <target.png) + 13)) ]
ok $? "/dev/stdout shared by a group of commands: their output around the PNG"

ln -s made/new.png dangling.png
mkdir made
"$gen" --seed 1 --png dangling.png && [ -L dangling.png ] && cmp -s made/new.png target.png
ok $? "a dangling link stays a link and its target is made"

cp target.png saved.png
chmod 640 target.png
"$gen" --seed 2 --png target.png && ! cmp -s target.png saved.png &&
  [ "$(stat -c %a target.png)" = 640 ]
ok $? "a regular file is replaced whole and keeps its mode"

[ -z "$(find . -name '*.tmp.*')" ]
ok $? "no temporary file is left behind"

if [ "$(id -u)" -ne 0 ]; then
  cp saved.png locked.png && chmod 444 locked.png
  ! "$gen" --seed 2 --png locked.png 2>err && cmp -s locked.png saved.png &&
    grep -q 'locked.png: Permission denied' err
  ok $? "a file the user may not write is refused, not replaced"
else
  skip "root may write any file"
fi

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
