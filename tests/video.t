#!/bin/sh
# crafter-dataset frames and video as a user runs them: pictures scaled by
# nearest neighbour, an animated GIF by the toolkit's own encoder, other
# formats through ffmpeg, and no partial file when anything fails.  The
# GIF's frames are decoded and compared pixel by pixel in
# tests/unit/test-video.c; here the files are checked from outside.
. "$(dirname "$0")/tap.sh"
dataset=$top/bin/crafter-dataset
plan 23

# bytes COUNT OFFSET FILE: the bytes as hex, without spaces
bytes() { od -An -tx1 -j"$2" -N"$1" "$3" | tr -d ' \n'; }

"$dataset" --help >"$scratch/help"
grep -q "^  video -o OUT FILE" "$scratch/help" && grep -q -- "--size=W,H" "$scratch/help" &&
  grep -q -- "--fps=N" "$scratch/help"
ok $? "--help lists video, --size and --fps"

"$dataset" record -q -n 1 --steps 40 --seed 4 --obs pixels -o "$scratch/pix.traj" &&
  "$dataset" record -q -n 1 --steps 40 --seed 4 -o "$scratch/none.traj"
ok $? "an episode recorded with pixels, and the same without"

"$dataset" video --size 512 -o "$scratch/a.gif" "$scratch/pix.traj" >"$scratch/out"
[ $? -eq 0 ] && [ ! -s "$scratch/out" ]
ok $? "video -o a.gif writes the GIF and prints nothing"
# GIF89a, then the logical screen's width and height, little-endian.
[ "$(head -c 6 "$scratch/a.gif")" = GIF89a ] && [ "$(bytes 4 6 "$scratch/a.gif")" = 00020002 ]
ok $? "a GIF89a of 512x512 (8x8 blocks of the 64x64 observation)"
[ "$(tail -c 1 "$scratch/a.gif" | od -An -tx1 | tr -d ' \n')" = 3b ]
ok $? "the GIF ends with its trailer"

"$dataset" video --steps 0-20 -o "$scratch/stored.gif" "$scratch/pix.traj" &&
  "$dataset" video --steps 0-20 -o "$scratch/replayed.gif" "$scratch/none.traj" &&
  cmp -s "$scratch/stored.gif" "$scratch/replayed.gif"
ok $? "a file without pixels is re-simulated into the same video as the stored pixels"

"$dataset" frames --steps 3 -o "$scratch/plain" "$scratch/pix.traj" >/dev/null &&
  [ "$(bytes 8 16 "$scratch/plain/episode-0-step-00003.png")" = 0000004000000040 ]
ok $? "frames without --size keep the observation's 64x64"
"$dataset" frames --steps 3 --size 512,256 -o "$scratch/big" "$scratch/pix.traj" >"$scratch/out" &&
  [ "$(cat "$scratch/out")" = "$scratch/big/episode-0-step-00003.png" ] &&
  [ "$(bytes 8 16 "$scratch/big/episode-0-step-00003.png")" = 0000020000000100 ]
ok $? "frames --size 512,256 -o DIR writes 512x256 PNG files into DIR"

if command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; then
  "$dataset" video --steps 0-19 --size 512 --fps 20 -o "$scratch/a.mp4" "$scratch/pix.traj" 2>"$scratch/err"
  status=$?
  diag <"$scratch/err"
  ok $status "video -o a.mp4 encodes through ffmpeg"
  ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=width,height,nb_read_frames,r_frame_rate -of csv=p=0 "$scratch/a.mp4" >"$scratch/probe"
  [ "$(cat "$scratch/probe")" = "512,512,20/1,20" ]
  ok $? "ffprobe finds 20 frames of 512x512 at 20 a second: $(cat "$scratch/probe")"
else
  skip "ffmpeg is not installed"
  skip "ffmpeg is not installed"
fi

# Without ffmpeg in PATH the message says how to install it, or to name
# another in CRAFTER_FFMPEG, such as the Python package imageio-ffmpeg's,
# and how to ask that package for it.
mkdir "$scratch/no-programs"
env -u CRAFTER_FFMPEG PATH="$scratch/no-programs" "$dataset" video -o "$scratch/b.mp4" \
  "$scratch/pix.traj" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -e "$scratch/b.mp4" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
  grep -q "^crafter-dataset: cannot run ffmpeg: it is not in PATH (on Debian: apt-get install ffmpeg)" "$scratch/err" &&
  grep -q "name another in CRAFTER_FFMPEG, such as the Python package imageio-ffmpeg's: CRAFTER_FFMPEG=\$(python3 -c 'import imageio_ffmpeg; print(imageio_ffmpeg.get_ffmpeg_exe())')" "$scratch/err" &&
  grep -q "or write a .gif" "$scratch/err"
ok $? "without ffmpeg in PATH, a message naming CRAFTER_FFMPEG and imageio-ffmpeg, and no file: $(cat "$scratch/err")"
CRAFTER_FFMPEG= PATH="$scratch/no-programs" "$dataset" video -o "$scratch/b.mp4" \
  "$scratch/pix.traj" 2>"$scratch/empty-err"
[ $? -eq 1 ] && [ ! -e "$scratch/b.mp4" ] && cmp -s "$scratch/err" "$scratch/empty-err"
ok $? "an empty CRAFTER_FFMPEG is as unset: $(cat "$scratch/empty-err")"
CRAFTER_FFMPEG=$scratch/no-such-encoder "$dataset" video -o "$scratch/b.mp4" "$scratch/pix.traj" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -e "$scratch/b.mp4" ] &&
  [ "$(cat "$scratch/err")" = "crafter-dataset: cannot run $scratch/no-such-encoder, the encoder CRAFTER_FFMPEG names: No such file or directory" ]
ok $? "CRAFTER_FFMPEG naming no program: that, and no file: $(cat "$scratch/err")"
# CRAFTER_FFMPEG naming an ffmpeg that PATH does not hold: the system's,
# and imageio-ffmpeg's, found as the message above says.
# encode_with FFMPEG NAME WHAT: an MP4 encoded by FFMPEG named in
# CRAFTER_FFMPEG, PATH holding no program; WHAT says which.
encode_with() {
  CRAFTER_FFMPEG=$1 PATH="$scratch/no-programs" "$dataset" video --steps 0-9 \
    -o "$scratch/$2.mp4" "$scratch/pix.traj" 2>"$scratch/err" &&
    [ "$(head -c 8 "$scratch/$2.mp4" | tail -c 4)" = ftyp ]
  status=$?
  diag <"$scratch/err"
  ok $status "CRAFTER_FFMPEG naming $3 encodes the MP4"
}
if command -v ffmpeg >/dev/null 2>&1; then
  encode_with "$(command -v ffmpeg)" named "an ffmpeg outside PATH"
else
  skip "ffmpeg is not installed"
fi
clients_python=${CLIENTS_ENV:-$top/build-reference/clients-venv}/bin/python
if [ -x "$clients_python" ] && "$clients_python" -c 'import imageio_ffmpeg' 2>/dev/null; then
  encode_with "$("$clients_python" -c 'import imageio_ffmpeg; print(imageio_ffmpeg.get_ffmpeg_exe())')" \
    imageio "imageio-ffmpeg's ffmpeg, as the message says,"
else
  skip "imageio-ffmpeg is not installed (make clients-env)"
fi
echo old >"$scratch/c.mp4"
CRAFTER_FFMPEG=false "$dataset" video -o "$scratch/c.mp4" "$scratch/pix.traj" 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(cat "$scratch/c.mp4")" = old ] && [ "$(ls "$scratch" | grep -c '^c\.mp4')" -eq 1 ] &&
  grep -q "^crafter-dataset: the encoder failed (exit status 1)$" "$scratch/err"
ok $? "a failing encoder leaves the old file and no temporary: $(cat "$scratch/err")"
# A file size limit fails the GIF part way, as a full disk does.
mkdir "$scratch/limited" && echo old >"$scratch/limited/d.gif"
(trap '' XFSZ; ulimit -f 8; exec "$dataset" video --size 512 -o "$scratch/limited/d.gif" "$scratch/pix.traj") 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(cat "$scratch/limited/d.gif")" = old ] && [ "$(ls "$scratch/limited")" = d.gif ] &&
  grep -q "File too large" "$scratch/err"
ok $? "a GIF that cannot be written whole leaves the old file and no temporary"
[ "$(wc -c <"$scratch/a.gif")" -gt 8192 ]
ok $? "(that GIF is larger than the limit)"
"$dataset" video --format gif -o /dev/full "$scratch/pix.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-dataset: /dev/full: No space left on device$" "$scratch/err"
ok $? "a video to a full device fails and says why"
"$dataset" video --steps 0-20 --format GIF -o /dev/stdout "$scratch/pix.traj" | cat >"$scratch/piped"
cmp -s "$scratch/piped" "$scratch/stored.gif"
ok $? "--format gif -o /dev/stdout writes the GIF down a pipe"

"$dataset" video "$scratch/pix.traj" 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "video needs an output file" "$scratch/err"
ok $? "video without -o exits 2"
"$dataset" video -o "$scratch/e.png" "$scratch/pix.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "unknown video format" "$scratch/err" && [ ! -e "$scratch/e.png" ]
ok $? "an unknown extension is refused"
"$dataset" video --fps 0 -o "$scratch/f.gif" "$scratch/pix.traj" 2>/dev/null
[ $? -eq 2 ] && "$dataset" info --size 512 "$scratch/pix.traj" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--fps 0 and --size for info are usage errors"
finish
