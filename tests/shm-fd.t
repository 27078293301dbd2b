#!/bin/sh
# crafter-step --shm-fd sizes the memory it is given, which empties it:
# only shared memory or an empty regular file open for reading and
# writing is taken, so a wrong descriptor never destroys a file
# (crafter-step(1), --shm-fd).
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 6

cd "$scratch" || exit 1
u32() { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }

printf 'a file that matters\n' >kept
cp kept kept.orig
"$step" --binary --shm-fd 3 3<>kept </dev/null >/dev/null 2>err
status=$?
[ $status -eq 2 ] && cmp -s kept kept.orig &&
  [ "$(cat err)" = "crafter-step: --shm-fd 3 is a file of 20 bytes, not shared memory: it is left as it is (give memory from memfd_create(2) or shm_open(3), or an empty file)" ]
ok $? "a regular file with content is refused (status 2) and kept byte for byte"
[ $status -eq 2 ] || { echo "status $status"; cat err; } | diag

"$step" --binary --shm-fd 3 3>>kept </dev/null >/dev/null 2>err
[ $? -eq 2 ] && cmp -s kept kept.orig && grep -q "is not open for reading and writing" err
ok $? "a descriptor open for writing only is refused, the file kept"

printf '' | "$step" --binary --shm-fd 0 >/dev/null 2>err
[ $? -eq 2 ] && [ "$(cat err)" = "crafter-step: --shm-fd 0 is a pipe, not shared memory (memfd_create(2) or shm_open(3))" ]
ok $? "a pipe is refused"

: >ring
"$step" --binary --shm-fd 3 3<>ring </dev/null >header 2>err
status=$?
frame=$(u32 header 44)
[ $status -eq 0 ] && [ "$(u32 header 72)" -eq 2 ] && [ "$(wc -c <ring)" -eq $((2 * frame)) ]
ok $? "an empty file is taken and sized to the ring: 2 slots of $frame bytes"

# Memory of shm_open(3) is a file of /dev/shm on Linux: a tmpfs, taken
# whatever it held (a client may use it again).
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
  memory=/dev/shm/crafter-shm-fd-test.$$
  printf 'an earlier ring' >"$memory"
  "$step" --binary --shm-fd 3 3<>"$memory" </dev/null >header 2>err
  status=$?
  [ $status -eq 0 ] && [ "$(wc -c <"$memory")" -eq $((2 * $(u32 header 44))) ]
  ok $? "shared memory of /dev/shm (tmpfs) with content is taken"
  rm -f "$memory"
else
  skip "no tmpfs at /dev/shm"
fi
"$step" --binary --shm-fd 3 3</dev/null </dev/null >/dev/null 2>err
[ $? -eq 2 ] && [ "$(cat err)" = "crafter-step: --shm-fd 3 is a terminal or device, not shared memory (memfd_create(2) or shm_open(3))" ]
ok $? "a device is refused"
finish
