/* Unit tests of video.h: nearest-neighbour scaling by Pillow's rule, the
 * GIF writer read back by a decoder of this test's own, the ffmpeg pipe's
 * failures, and crafter_dataset_video/frames on a recorded episode. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/proto.h"
#include "run/traj.h"
#include "run/traj_reader.h"
#include "tap.h"
#include "tools/dataset.h"
#include "view/textures.h"
#include "view/video.h"

/* ---- a GIF decoder, written from the GIF89a specification ---- */

typedef struct decoded {
  int width, height, frames;
  int delay;           /* of the first frame */
  int loops;           /* a NETSCAPE2.0 block was seen */
  uint8_t *rgb;        /* frames * width * height * 3 */
} decoded;

typedef struct reader {
  const uint8_t *data;
  size_t size, at;
  int bad;
} reader;

static int byte_at(reader *r) {
  if (r->at >= r->size) {
    r->bad = 1;
    return 0;
  }
  return r->data[r->at++];
}

static int u16_at(reader *r) {
  int low = byte_at(r);
  return low | byte_at(r) << 8;
}

/* The sub-blocks of an image's data, joined. */
static uint8_t *read_sub_blocks(reader *r, size_t *length) {
  uint8_t *joined = NULL;
  *length = 0;
  for (;;) {
    int size = byte_at(r);
    if (r->bad || size == 0) return joined;
    uint8_t *grown = realloc(joined, *length + (size_t)size);
    if (!grown || r->at + (size_t)size > r->size) {
      r->bad = 1;
      free(grown ? grown : joined);
      return NULL;
    }
    joined = grown;
    memcpy(joined + *length, r->data + r->at, (size_t)size);
    *length += (size_t)size;
    r->at += (size_t)size;
  }
}

/* Variable-length LZW, least significant bit first: a code of the
 * dictionary's size; every code after the first makes an entry (the
 * previous string and the first byte of this one), and the size grows when
 * the next entry would need another bit.  Returns the count decoded, or -1. */
static long lzw_decode(const uint8_t *data, size_t length, int minimum, uint8_t *out,
                       size_t wanted) {
  enum { MAX_CODES = 4096 };
  static uint16_t prefix[MAX_CODES];
  static uint8_t suffix[MAX_CODES], stack[MAX_CODES + 1], first_of[MAX_CODES];
  const int clear = 1 << minimum, end = clear + 1;
  int size = minimum + 1, next = end + 1, previous = -1;
  size_t bit = 0, produced = 0;
  for (int c = 0; c < clear; c++) first_of[c] = (uint8_t)c;
  for (;;) {
    if (bit + (size_t)size > length * 8) return -1;
    int code = 0;
    for (int b = 0; b < size; b++, bit++)
      code |= ((data[bit / 8] >> (bit % 8)) & 1) << b;
    if (code == clear) {
      size = minimum + 1;
      next = end + 1;
      previous = -1;
      continue;
    }
    if (code == end) return (long)produced;
    int string;
    if (previous < 0) {
      if (code >= clear) return -1;
      string = code;
    } else if (code < next) {
      string = code;
    } else if (code == next) {
      string = -1;  /* previous + its own first byte */
    } else {
      return -1;
    }
    uint8_t first = string >= 0 ? first_of[string] : first_of[previous];
    if (previous >= 0 && next < MAX_CODES) {
      prefix[next] = (uint16_t)previous;
      suffix[next] = first;
      first_of[next] = first_of[previous];
      next++;
      if (string < 0) string = next - 1;
    }
    int depth = 0, c = string;
    for (; c >= clear; c = prefix[c]) stack[depth++] = suffix[c];
    stack[depth++] = (uint8_t)c;
    while (depth > 0) {
      if (produced == wanted) return -1;
      out[produced++] = stack[--depth];
    }
    previous = code;
    if (next == (1 << size) && size < 12) size++;
  }
}

/* A colour table, when the packed byte says one follows; 0 or -1. */
static int read_colour_table(reader *r, int packed, uint8_t *table) {
  if (!(packed & 0x80)) return 0;
  size_t entries = (size_t)2 << (packed & 7);
  if (r->at + entries * 3 > r->size) return -1;
  memcpy(table, r->data + r->at, entries * 3);
  r->at += entries * 3;
  return 0;
}

static int decode_gif(const uint8_t *data, size_t size, decoded *gif) {
  memset(gif, 0, sizeof(*gif));
  reader r = {data, size, 6, 0};
  if (size < 13 || memcmp(data, "GIF89a", 6) != 0) return -1;
  gif->width = u16_at(&r);
  gif->height = u16_at(&r);
  int packed = byte_at(&r);
  r.at += 2;
  uint8_t global[256 * 3] = {0};
  if (read_colour_table(&r, packed, global) < 0) return -1;
  size_t frame_bytes = (size_t)gif->width * (size_t)gif->height * 3;
  for (;;) {
    int kind = byte_at(&r);
    if (r.bad) return -1;
    if (kind == 0x3b) return 0;
    if (kind == 0x21) {
      int label = byte_at(&r);
      size_t length;
      if (label == 0xf9 && r.at + 5 < size && gif->frames == 0)
        gif->delay = data[r.at + 2] | data[r.at + 3] << 8;
      if (label == 0xff && r.at + 12 < size && memcmp(data + r.at + 1, "NETSCAPE2.0", 11) == 0)
        gif->loops = 1;
      free(read_sub_blocks(&r, &length));
      if (r.bad) return -1;
      continue;
    }
    if (kind != 0x2c) return -1;
    int left = u16_at(&r), top = u16_at(&r), width = u16_at(&r), height = u16_at(&r);
    int image_packed = byte_at(&r);
    if (left != 0 || top != 0 || width != gif->width || height != gif->height) return -1;
    uint8_t palette[256 * 3];
    memcpy(palette, global, sizeof(palette));
    if (read_colour_table(&r, image_packed, palette) < 0) return -1;
    int minimum = byte_at(&r);
    size_t length;
    uint8_t *compressed = read_sub_blocks(&r, &length);
    size_t pixels = (size_t)width * (size_t)height;
    uint8_t *indices = malloc(pixels);
    uint8_t *grown = realloc(gif->rgb, frame_bytes * (size_t)(gif->frames + 1));
    if (!indices || !grown || !compressed ||
        lzw_decode(compressed, length, minimum, indices, pixels) != (long)pixels) {
      free(indices);
      free(compressed);
      if (grown) gif->rgb = grown;
      return -1;
    }
    gif->rgb = grown;
    uint8_t *frame = gif->rgb + frame_bytes * (size_t)gif->frames;
    for (size_t i = 0; i < pixels; i++) memcpy(frame + i * 3, palette + indices[i] * 3, 3);
    gif->frames++;
    free(indices);
    free(compressed);
  }
}

static uint8_t *read_whole(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  uint8_t *data = NULL;
  size_t capacity = 0;
  *size = 0;
  for (;;) {
    if (*size == capacity) {
      capacity = capacity ? capacity * 2 : 1 << 16;
      uint8_t *grown = realloc(data, capacity);
      if (!grown) break;
      data = grown;
    }
    size_t got = fread(data + *size, 1, capacity - *size, file);
    *size += got;
    if (got == 0) break;
  }
  fclose(file);
  return data;
}

/* Pillow's nearest neighbour where no source coordinate falls exactly on
 * a pixel's edge: source index floor((x + 0.5) * in / out), in integers. */
static int source_index(int x, int in, int out) {
  return (int)(((int64_t)2 * x + 1) * in / (2 * (int64_t)out));
}

static int scaled_as_expected(const uint8_t *from, int width, int height, const uint8_t *to,
                              int to_width, int to_height) {
  for (int y = 0; y < to_height; y++)
    for (int x = 0; x < to_width; x++) {
      const uint8_t *want = from + ((size_t)source_index(y, height, to_height) * (size_t)width +
                                    (size_t)source_index(x, width, to_width)) * 3;
      if (memcmp(to + ((size_t)y * (size_t)to_width + (size_t)x) * 3, want, 3) != 0) return 0;
    }
  return 1;
}

/* Writes frames to a GIF and decodes it again. */
static int gif_round_trip(const char *path, const uint8_t *frames, int count, int width,
                          int height, decoded *gif) {
  char error[512];
  crafter_video *video =
      crafter_video_open(path, NULL, width, height, 10, NULL, error, sizeof(error));
  if (!video) return -1;
  for (int f = 0; f < count; f++)
    if (crafter_video_add(video, frames + (size_t)f * (size_t)width * (size_t)height * 3, error,
                          sizeof(error)) < 0) {
      crafter_video_abort(video);
      return -1;
    }
  if (crafter_video_close(video, error, sizeof(error)) < 0) return -1;
  size_t size;
  uint8_t *data = read_whole(path, &size);
  int status = data ? decode_gif(data, size, gif) : -1;
  free(data);
  return status;
}

/* Entries of a folder whose names start with `prefix`. */
static int entries_starting(const char *directory, const char *prefix) {
  DIR *folder = opendir(directory);
  int count = 0;
  struct dirent *entry;
  while (folder && (entry = readdir(folder)))
    count += strncmp(entry->d_name, prefix, strlen(prefix)) == 0;
  if (folder) closedir(folder);
  return count;
}

static int record_episode(const char *path, int side, char *error, size_t error_size) {
  crafter_dataset_record_options record;
  memset(&record, 0, sizeof(record));
  crafter_run_init(&record.run);
  record.run.params.seed = 3;
  record.run.params.length = 12;
  record.run.params.size[0] = record.run.params.size[1] = side;
  record.run.episodes = 1;
  record.shard_index = record.shard_count = 1;
  record.run.obs_kind = CRAFTER_OBS_PIXELS;
  record.run.record_path = path;
  return crafter_dataset_record(&record, error, error_size);
}

static int read_observations(const char *path, crafter_traj_data *data) {
  char error[512];
  memset(data, 0, sizeof(*data));
  crafter_traj_reader *reader = crafter_traj_open(path, error, sizeof(error));
  int status = reader ? crafter_traj_read_episode(reader, 0, data, error, sizeof(error)) : -1;
  if (reader) crafter_traj_close(reader);
  return status;
}

int main(void) {
  const char *temporary = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char directory[512], path[600];
  snprintf(directory, sizeof(directory), "%s/test-video-%ld", temporary, (long)getpid());
  if (mkdir(directory, 0700) < 0) {
    printf("Bail out! cannot make %s: %s\n", directory, strerror(errno));
    return 1;
  }

  /* Scaling.  (x + 0.5) * in / out is whole only if `in` has more factors
   * of two than `out`; where it has not, as for 5 to 8 and 3 to 4, no
   * pixel sits on an edge and the integer rule is Pillow's exactly. */
  uint8_t small[5 * 3 * 3];
  for (int i = 0; i < 5 * 3 * 3; i++) small[i] = (uint8_t)(i * 17 + 3);
  uint8_t to[16 * 16 * 3];
  ok(crafter_video_scale(small, 5, 3, to, 8, 4) == 0 && scaled_as_expected(small, 5, 3, to, 8, 4),
     "5x3 to 8x4 takes floor((x + 0.5) * in / out) of each axis");
  int blocks = 1;
  uint8_t square[2 * 2 * 3] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  crafter_video_scale(square, 2, 2, to, 16, 16);
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      blocks &= memcmp(to + (size_t)(y * 16 + x) * 3, square + (size_t)((y / 8) * 2 + x / 8) * 3,
                       3) == 0;
  ok(blocks, "an integer factor of 8 makes each pixel an 8x8 block");
  uint8_t wide[3 * 1 * 3] = {10, 10, 10, 20, 20, 20, 30, 30, 30};
  crafter_video_scale(wide, 3, 1, to, 2, 1);
  ok(to[0] == 10 && to[3] == 30, "halving 3 pixels takes the first and the last (0.75, 2.25)");

  ok(crafter_video_kind("gif") == CRAFTER_VIDEO_GIF &&
         crafter_video_kind("GIF") == CRAFTER_VIDEO_GIF &&
         crafter_video_kind("mp4") == CRAFTER_VIDEO_FFMPEG &&
         crafter_video_kind("webm") == CRAFTER_VIDEO_FFMPEG && crafter_video_kind("png") < 0 &&
         crafter_video_kind(NULL) < 0,
     "the format picks the encoder");

  /* GIF frames of few colours come back exactly; sizes chosen so that the
   * dictionary fills and clears, and odd sides. */
  enum { W = 97, H = 61, FRAMES = 3 };
  uint8_t *frames = malloc((size_t)W * H * 3 * FRAMES);
  uint32_t state = 12345;
  for (int f = 0; f < FRAMES; f++)
    for (int i = 0; i < W * H; i++) {
      state = state * 1103515245u + 12345u;
      int colour = f == 0   ? (int)((state >> 16) % 256)
                   : f == 1 ? (i / 7) % 5
                            : (int)((state >> 16) % 3);
      uint8_t *pixel = frames + ((size_t)f * W * H + (size_t)i) * 3;
      pixel[0] = (uint8_t)colour;
      pixel[1] = (uint8_t)(colour * 7);
      pixel[2] = (uint8_t)(255 - colour);
    }
  snprintf(path, sizeof(path), "%s/few.gif", directory);
  decoded gif;
  int status = gif_round_trip(path, frames, FRAMES, W, H, &gif);
  ok(status == 0, "a GIF of 3 frames of 97x61 is written and decodes");
  ok(status == 0 && gif.width == W && gif.height == H && gif.frames == FRAMES && gif.delay == 10 &&
         gif.loops,
     "it says 97x61, 3 frames, 10 hundredths of a second each, looping");
  ok(status == 0 && gif.frames == FRAMES &&
         memcmp(gif.rgb, frames, (size_t)W * H * 3 * FRAMES) == 0,
     "frames of 256, 5 and 3 colours come back exactly");
  free(gif.rgb);

  /* Frames of random lines of 4 colours, each its own LZW stream ending
   * with a different count of codes and so at a different point of the
   * code size's growth. */
  enum { LINE = 1000, LINES = 400 };
  uint8_t *lines = malloc((size_t)LINE * 3 * LINES);
  for (size_t i = 0; i < (size_t)LINE * LINES; i++) {
    state = state * 1103515245u + 12345u;
    memset(lines + i * 3, (int)((state >> 16) % 4) * 60, 3);
  }
  snprintf(path, sizeof(path), "%s/lines.gif", directory);
  status = gif_round_trip(path, lines, LINES, LINE, 1, &gif);
  ok(status == 0 && gif.frames == LINES && memcmp(gif.rgb, lines, (size_t)LINE * 3 * LINES) == 0,
     "400 frames of random lines come back exactly");
  if (status == 0) free(gif.rgb);
  free(lines);

  /* 4096 colours on a 64x64 grid, red 4x and green 4y: a median cut of
   * equal weights gives 256 boxes of 4x4 neighbours, each shown by its
   * mean, so no channel is off by more than 6. */
  uint8_t *gradient = malloc(64 * 64 * 3);
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 64; x++) {
      uint8_t *pixel = gradient + (size_t)(y * 64 + x) * 3;
      pixel[0] = (uint8_t)(x * 4);
      pixel[1] = (uint8_t)(y * 4);
      pixel[2] = 77;
    }
  snprintf(path, sizeof(path), "%s/many.gif", directory);
  status = gif_round_trip(path, gradient, 1, 64, 64, &gif);
  int worst = 0;
  for (int i = 0; status == 0 && i < 64 * 64 * 3; i++) {
    int difference = abs((int)gif.rgb[i] - (int)gradient[i]);
    if (difference > worst) worst = difference;
  }
  ok(status == 0 && worst <= 6, "a frame of 4096 colours is reduced to 256, off by %d at most",
     worst);
  free(gif.rgb);
  free(gradient);

  /* Failures leave nothing at the path. */
  char error[512];
  snprintf(path, sizeof(path), "%s/missing/a.gif", directory);
  ok(crafter_video_open(path, NULL, 8, 8, 10, NULL, error, sizeof(error)) == NULL &&
         strstr(error, "No such file or directory"),
     "a video in a missing folder fails and says why: %s", error);
  snprintf(path, sizeof(path), "%s/aborted.gif", directory);
  crafter_video *video = crafter_video_open(path, NULL, W, H, 10, NULL, error, sizeof(error));
  ok(video && crafter_video_add(video, frames, error, sizeof(error)) == 0, "a video is started");
  crafter_video_abort(video);
  ok(access(path, F_OK) != 0, "an aborted video leaves no file");
  snprintf(path, sizeof(path), "%s/a.mp4", directory);
  ok(crafter_video_open(path, NULL, 8, 8, 10, "/nonexistent/ffmpeg", error, sizeof(error)) ==
             NULL &&
         strcmp(error, "cannot run /nonexistent/ffmpeg, the encoder CRAFTER_FFMPEG names: "
                       "No such file or directory") == 0 &&
         access(path, F_OK) != 0,
     "an encoder named that is not there: a clear message, no file: %s", error);
  /* `false` runs and fails: the frames find no reader, or the exit status
   * tells; either way the path stays empty. */
  video = crafter_video_open(path, NULL, 8, 8, 10, "false", error, sizeof(error));
  status = video ? 0 : -1;
  for (int f = 0; video && status == 0 && f < 200; f++)
    status = crafter_video_add(video, frames, error, sizeof(error));
  if (video && status == 0)
    status = crafter_video_close(video, error, sizeof(error));
  else if (video)
    crafter_video_abort(video);
  ok(status < 0 && access(path, F_OK) != 0 && entries_starting(directory, "a.mp4") == 0,
     "a failing encoder leaves no file and no temporary: %s", error);
  ok(crafter_video_open("x.png", NULL, 8, 8, 10, NULL, error, sizeof(error)) == NULL &&
         strstr(error, "unknown video format 'png'"),
     "an unknown extension is refused");
  snprintf(path, sizeof(path), "%s/no-extension", directory);
  video = crafter_video_open(path, "gif", 8, 8, 10, NULL, error, sizeof(error));
  status = video ? crafter_video_close(video, error, sizeof(error)) : -1;
  size_t size;
  uint8_t *bytes = status == 0 ? read_whole(path, &size) : NULL;
  ok(bytes && size >= 6 && memcmp(bytes, "GIF89a", 6) == 0, "a format given names the encoder");
  free(bytes);
  free(frames);

  /* An episode: the GIF's frames are the stored observations, 8x8 blocks. */
  char traj[600];
  snprintf(traj, sizeof(traj), "%s/pixels.traj", directory);
  status = record_episode(traj, 64, error, sizeof(error));
  ok(status == 0, "an episode of 12 steps with 64x64 pixels is recorded %s", status ? error : "");
  crafter_traj_data data;
  int have_data = read_observations(traj, &data) == 0 && data.steps_count == 12;
  crafter_frames_options options = {.episode = 0, .steps = "0,5-7", .size = {512, 512}, .fps = 10};
  snprintf(path, sizeof(path), "%s/episode.gif", directory);
  status = crafter_dataset_video(traj, &options, path, error, sizeof(error));
  bytes = status == 0 ? read_whole(path, &size) : NULL;
  status = bytes ? decode_gif(bytes, size, &gif) : -1;
  free(bytes);
  ok(status == 0 && gif.frames == 4 && gif.width == 512 && gif.height == 512,
     "video --steps 0,5-7 --size 512: 4 frames of 512x512");
  int same = status == 0 && have_data;
  const int steps[4] = {0, 5, 6, 7};
  for (int f = 0; same && f < 4; f++)
    same = scaled_as_expected(data.obs + (size_t)steps[f] * 64 * 64 * 3, 64, 64,
                              gif.rgb + (size_t)f * 512 * 512 * 3, 512, 512);
  ok(same, "each frame is its stored observation, every pixel an 8x8 block");
  if (status == 0) free(gif.rgb);
  crafter_traj_data_free(&data);

  /* frames --size 100,80 of 60x60 observations: 100 and 80 have as many
   * factors of two as 60 or more, so no pixel sits on an edge and the
   * integer rule holds for Pillow's non-integer scaling. */
  snprintf(traj, sizeof(traj), "%s/pixels-60.traj", directory);
  status = record_episode(traj, 60, error, sizeof(error));
  have_data = status == 0 && read_observations(traj, &data) == 0 && data.steps_count == 12;
  snprintf(path, sizeof(path), "%s/frames", directory);
  crafter_frames_options png_options = {.episode = 0, .steps = "5", .size = {100, 80}};
  status = crafter_dataset_frames(traj, &png_options, path, NULL, error, sizeof(error));
  snprintf(path, sizeof(path), "%s/frames/episode-0-step-00005.png", directory);
  bytes = status == 0 ? read_whole(path, &size) : NULL;
  crafter_image image;
  memset(&image, 0, sizeof(image));
  status = bytes ? crafter_image_decode_png(&image, bytes, size, error, sizeof(error)) : -1;
  free(bytes);
  ok(status == 0 && image.width == 100 && image.height == 80 && image.channels == 3,
     "frames --size 100,80 writes a 100x80 PNG");
  ok(status == 0 && have_data &&
         scaled_as_expected(data.obs + (size_t)5 * 60 * 60 * 3, 60, 60, image.pixels, 100, 80),
     "whose pixels are the 60x60 observation's by nearest neighbour");
  free(image.pixels);
  crafter_traj_data_free(&data);

  char command[700];
  snprintf(command, sizeof(command), "rm -rf '%s'", directory);
  if (system(command) != 0) printf("# could not remove %s\n", directory);
  return tap_done();
}
