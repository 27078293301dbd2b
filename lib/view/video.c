#include "view/video.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/outfile.h"
#include "view/render.h"
#include "view/textures.h"

int crafter_video_scale(const uint8_t *from, int from_width, int from_height, uint8_t *to,
                        int to_width, int to_height) {
  int *map_x = malloc(sizeof(int) * ((size_t)to_width + (size_t)to_height));
  if (!map_x) return -1;
  int *map_y = map_x + to_width;
  crafter_nearest_map(from_width, to_width, map_x);
  crafter_nearest_map(from_height, to_height, map_y);
  for (int y = 0; y < to_height; y++) {
    const uint8_t *row = from + (size_t)map_y[y] * (size_t)from_width * 3;
    uint8_t *out = to + (size_t)y * (size_t)to_width * 3;
    if (y > 0 && map_y[y] == map_y[y - 1]) {
      memcpy(out, out - (size_t)to_width * 3, (size_t)to_width * 3);
      continue;
    }
    for (int x = 0; x < to_width; x++) memcpy(out + (size_t)x * 3, row + (size_t)map_x[x] * 3, 3);
  }
  free(map_x);
  return 0;
}

/* Formats by name (an extension), and the muxer ffmpeg is told to use,
 * since the temporary's name has no extension to guess it from. */
static const char *const formats[][2] = {{"gif", NULL},          {"mp4", "mp4"},   {"m4v", "mp4"},
                                         {"mov", "mov"},         {"mkv", "matroska"},
                                         {"webm", "webm"},       {"avi", "avi"}};

static int format_index(const char *format) {
  for (size_t i = 0; format && i < sizeof(formats) / sizeof(formats[0]); i++)
    if (strcasecmp(format, formats[i][0]) == 0) return (int)i;
  return -1;
}

static const char *extension_of(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  return dot && !(slash && dot < slash) ? dot + 1 : NULL;
}

int crafter_video_kind(const char *format) {
  int index = format_index(format);
  if (index < 0) return -1;
  return formats[index][1] ? CRAFTER_VIDEO_FFMPEG : CRAFTER_VIDEO_GIF;
}

/* ---- GIF ---- */

enum { LZW_CODES = 4096, GIF_MIN_CODE_SIZE = 8 };

/* A colour seen in the frame: key is the colour + 1 (0 marks a free slot). */
typedef struct colour_slot {
  uint32_t key;
  uint32_t count;
  uint32_t index;   /* its palette entry */
} colour_slot;

typedef struct gif_writer {
  int delay;                 /* hundredths of a second a frame */
  colour_slot *slots;
  size_t slot_mask;
  uint32_t *unique;          /* the slots in use, then sorted into boxes */
  uint8_t *indices;          /* a frame's palette indices */
  uint16_t *children;        /* the LZW dictionary: LZW_CODES x 256 */
  uint8_t palette[256 * 3];
  /* bits waiting to go out, and the sub-block being filled */
  uint32_t bits;
  int bit_count;
  uint8_t block[256];
  int block_used;
} gif_writer;

struct crafter_video {
  int kind;
  int width, height;
  crafter_outfile out;
  gif_writer gif;
  pid_t child;               /* ffmpeg */
  int socket;                /* its standard input */
};

static void put_u16(FILE *file, unsigned value) {
  fputc((int)(value & 0xff), file);
  fputc((int)(value >> 8), file);
}

static size_t colour_slot_of(const gif_writer *g, uint32_t key) {
  size_t slot = (key * 2654435761u) & g->slot_mask;
  while (g->slots[slot].key != 0 && g->slots[slot].key != key) slot = (slot + 1) & g->slot_mask;
  return slot;
}

static int compare_channel(const void *a, const void *b, int shift) {
  /* Entries are colours (0xRRGGBB); compare one channel, then the whole. */
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int cx = (int)((x >> shift) & 0xff), cy = (int)((y >> shift) & 0xff);
  if (cx != cy) return cx < cy ? -1 : 1;
  return x < y ? -1 : x > y;
}
static int compare_red(const void *a, const void *b) { return compare_channel(a, b, 16); }
static int compare_green(const void *a, const void *b) { return compare_channel(a, b, 8); }
static int compare_blue(const void *a, const void *b) { return compare_channel(a, b, 0); }

typedef struct colour_box {
  size_t begin, end;   /* within unique */
  int channel_shift;   /* the channel of the widest range */
  int range;
} colour_box;

static void measure_box(const uint32_t *colours, colour_box *box) {
  int low[3] = {255, 255, 255}, high[3] = {0, 0, 0};
  for (size_t i = box->begin; i < box->end; i++)
    for (int c = 0; c < 3; c++) {
      int value = (int)((colours[i] >> (16 - 8 * c)) & 0xff);
      if (value < low[c]) low[c] = value;
      if (value > high[c]) high[c] = value;
    }
  box->range = -1;
  for (int c = 0; c < 3; c++)
    if (high[c] - low[c] > box->range) {
      box->range = high[c] - low[c];
      box->channel_shift = 16 - 8 * c;
    }
}

/* Chooses the frame's palette: its own colours when it has at most 256,
 * else 256 boxes of a median cut (weighted by pixel counts), each shown
 * as its mean colour. */
static void choose_palette(gif_writer *g, size_t count) {
  memset(g->palette, 0, sizeof(g->palette));
  if (count <= 256) {
    for (size_t i = 0; i < count; i++) {
      uint32_t colour = g->unique[i];
      g->slots[colour_slot_of(g, colour + 1)].index = (uint32_t)i;
      g->palette[i * 3] = (uint8_t)(colour >> 16);
      g->palette[i * 3 + 1] = (uint8_t)(colour >> 8);
      g->palette[i * 3 + 2] = (uint8_t)colour;
    }
    return;
  }
  static int (*const comparators[3])(const void *, const void *) = {compare_blue, compare_green,
                                                                     compare_red};
  colour_box boxes[256];
  int box_count = 1;
  boxes[0].begin = 0;
  boxes[0].end = count;
  measure_box(g->unique, &boxes[0]);
  while (box_count < 256) {
    int widest = -1;
    for (int b = 0; b < box_count; b++)
      if (boxes[b].end - boxes[b].begin > 1 && (widest < 0 || boxes[b].range > boxes[widest].range))
        widest = b;
    if (widest < 0) break;
    colour_box *box = &boxes[widest];
    qsort(g->unique + box->begin, box->end - box->begin, sizeof(uint32_t),
          comparators[box->channel_shift / 8]);
    uint64_t total = 0, half = 0;
    for (size_t i = box->begin; i < box->end; i++)
      total += g->slots[colour_slot_of(g, g->unique[i] + 1)].count;
    size_t split = box->begin + 1;
    for (size_t i = box->begin; i + 1 < box->end; i++) {
      half += g->slots[colour_slot_of(g, g->unique[i] + 1)].count;
      split = i + 1;
      if (half * 2 >= total) break;
    }
    boxes[box_count].begin = split;
    boxes[box_count].end = box->end;
    box->end = split;
    measure_box(g->unique, box);
    measure_box(g->unique, &boxes[box_count]);
    box_count++;
  }
  for (int b = 0; b < box_count; b++) {
    uint64_t sum[3] = {0, 0, 0}, weight = 0;
    for (size_t i = boxes[b].begin; i < boxes[b].end; i++) {
      colour_slot *slot = &g->slots[colour_slot_of(g, g->unique[i] + 1)];
      slot->index = (uint32_t)b;
      for (int c = 0; c < 3; c++) sum[c] += ((g->unique[i] >> (16 - 8 * c)) & 0xff) * slot->count;
      weight += slot->count;
    }
    for (int c = 0; c < 3; c++) g->palette[b * 3 + c] = (uint8_t)((sum[c] + weight / 2) / weight);
  }
}

static void flush_block(gif_writer *g, FILE *file) {
  if (g->block_used == 0) return;
  fputc(g->block_used, file);
  fwrite(g->block, 1, (size_t)g->block_used, file);
  g->block_used = 0;
}

static void put_code(gif_writer *g, FILE *file, unsigned code, int size) {
  g->bits |= (uint32_t)code << g->bit_count;
  g->bit_count += size;
  while (g->bit_count >= 8) {
    g->block[g->block_used++] = (uint8_t)g->bits;
    g->bits >>= 8;
    g->bit_count -= 8;
    if (g->block_used == 255) flush_block(g, file);
  }
}

/* The frame's indices, LZW-compressed into sub-blocks.  The code size
 * grows once the last code made needs another bit, as a decoder, which
 * makes each code one step later, expects. */
static void put_lzw(gif_writer *g, FILE *file, size_t pixels) {
  const unsigned clear = 1u << GIF_MIN_CODE_SIZE, end = clear + 1;
  int size = GIF_MIN_CODE_SIZE + 1;
  unsigned last_code = end;
  memset(g->children, 0, sizeof(uint16_t) * LZW_CODES * 256);
  fputc(GIF_MIN_CODE_SIZE, file);
  g->bits = 0;
  g->bit_count = 0;
  g->block_used = 0;
  put_code(g, file, clear, size);
  unsigned current = g->indices[0];
  for (size_t i = 1; i < pixels; i++) {
    unsigned next = g->indices[i];
    uint16_t child = g->children[current * 256 + next];
    if (child) {
      current = child;
      continue;
    }
    put_code(g, file, current, size);
    g->children[current * 256 + next] = (uint16_t)++last_code;
    if (last_code >= (1u << size)) size++;
    if (last_code == LZW_CODES - 1) {
      put_code(g, file, clear, size);
      memset(g->children, 0, sizeof(uint16_t) * LZW_CODES * 256);
      size = GIF_MIN_CODE_SIZE + 1;
      last_code = end;
    }
    current = next;
  }
  put_code(g, file, current, size);
  if (last_code + 1 >= (1u << size) && size < 12) size++;
  put_code(g, file, end, size);
  if (g->bit_count > 0) put_code(g, file, 0, 8 - g->bit_count);
  flush_block(g, file);
  fputc(0, file);
}

static int gif_start(crafter_video *video, double fps) {
  gif_writer *g = &video->gif;
  size_t pixels = (size_t)video->width * (size_t)video->height;
  size_t slots = 1024;
  while (slots < pixels * 2 && slots < ((size_t)1 << 25)) slots *= 2;
  g->delay = (int)(100.0 / fps + 0.5);
  g->slot_mask = slots - 1;
  g->slots = calloc(slots, sizeof(colour_slot));
  g->unique = malloc(sizeof(uint32_t) * (pixels < slots ? pixels : slots));
  g->indices = malloc(pixels);
  g->children = malloc(sizeof(uint16_t) * LZW_CODES * 256);
  if (!g->slots || !g->unique || !g->indices || !g->children) return -1;
  FILE *file = video->out.file;
  fwrite("GIF89a", 1, 6, file);
  put_u16(file, (unsigned)video->width);
  put_u16(file, (unsigned)video->height);
  fputc(0, file);  /* no global colour table: each frame has its own */
  fputc(0, file);  /* background */
  fputc(0, file);  /* aspect */
  /* loop for ever */
  fwrite("\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00", 1, 19, file);
  return 0;
}

static void gif_add(crafter_video *video, const uint8_t *rgb) {
  gif_writer *g = &video->gif;
  FILE *file = video->out.file;
  size_t pixels = (size_t)video->width * (size_t)video->height, count = 0;
  memset(g->slots, 0, sizeof(colour_slot) * (g->slot_mask + 1));
  for (size_t i = 0; i < pixels; i++) {
    uint32_t colour = (uint32_t)rgb[i * 3] << 16 | (uint32_t)rgb[i * 3 + 1] << 8 | rgb[i * 3 + 2];
    colour_slot *slot = &g->slots[colour_slot_of(g, colour + 1)];
    if (slot->key == 0) {
      slot->key = colour + 1;
      g->unique[count++] = colour;
    }
    slot->count++;
  }
  choose_palette(g, count);
  uint32_t previous = UINT32_MAX, index = 0;
  for (size_t i = 0; i < pixels; i++) {
    uint32_t colour = (uint32_t)rgb[i * 3] << 16 | (uint32_t)rgb[i * 3 + 1] << 8 | rgb[i * 3 + 2];
    if (colour != previous) index = g->slots[colour_slot_of(g, colour + 1)].index;
    previous = colour;
    g->indices[i] = (uint8_t)index;
  }
  /* graphic control: no disposal (frames cover the whole picture), the delay */
  fwrite("\x21\xf9\x04\x04", 1, 4, file);
  put_u16(file, (unsigned)g->delay);
  fputc(0, file);
  fputc(0, file);
  /* image descriptor with a local table of 256 colours */
  fputc(0x2c, file);
  put_u16(file, 0);
  put_u16(file, 0);
  put_u16(file, (unsigned)video->width);
  put_u16(file, (unsigned)video->height);
  fputc(0x87, file);
  fwrite(g->palette, 1, sizeof(g->palette), file);
  put_lzw(g, file, pixels);
}

static void gif_free(gif_writer *g) {
  free(g->slots);
  free(g->unique);
  free(g->indices);
  free(g->children);
  memset(g, 0, sizeof(*g));
}

/* ---- ffmpeg ---- */

static void close_on_exec(int descriptor) {
  int flags = fcntl(descriptor, F_GETFD);
  if (flags >= 0) fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC);
}

/* Starts ffmpeg reading raw frames on a socket (written with
 * MSG_NOSIGNAL, so an encoder that dies is an error, not a SIGPIPE) and
 * writing `target`; `named` is the program the caller named (what
 * CRAFTER_FFMPEG names in the programs), or NULL or "" for the ffmpeg in
 * PATH. */
static int ffmpeg_start(crafter_video *video, const char *named, const char *target,
                        const char *muxer, double fps, char *error, size_t error_size) {
  if (named && !*named) named = NULL;
  const char *program = named ? named : "ffmpeg";
  char size_text[32], rate_text[32];
  snprintf(size_text, sizeof(size_text), "%dx%d", video->width, video->height);
  snprintf(rate_text, sizeof(rate_text), "%g", fps);
  /* yuv420p, which players expect, needs even sides */
  const char *const arguments[] = {
      program, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
      "-s", size_text, "-framerate", rate_text, "-i", "pipe:0",
      "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", "-f", muxer, target, NULL};
  int sockets[2], report[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sockets) < 0)
    return crafter_fail(error, error_size, "cannot start %s: %s", program, strerror(errno));
  if (pipe(report) < 0) {
    int saved = errno;
    close(sockets[0]);
    close(sockets[1]);
    return crafter_fail(error, error_size, "cannot start %s: %s", program, strerror(saved));
  }
  close_on_exec(sockets[0]);
  close_on_exec(report[0]);
  close_on_exec(report[1]);
  if (video->out.file) close_on_exec(fileno(video->out.file));
  fflush(NULL);
  pid_t child = fork();
  if (child == 0) {
    if (dup2(sockets[1], STDIN_FILENO) < 0) _exit(127);
    close(sockets[1]);
    execvp(program, (char *const *)arguments);
    int saved = errno;
    ssize_t written = write(report[1], &saved, sizeof(saved));
    (void)written;
    _exit(127);
  }
  int saved = errno;
  close(sockets[1]);
  close(report[1]);
  if (child < 0) {
    close(sockets[0]);
    close(report[0]);
    return crafter_fail(error, error_size, "cannot start %s: %s", program, strerror(saved));
  }
  int exec_error = 0;
  ssize_t got;
  do got = read(report[0], &exec_error, sizeof(exec_error));
  while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got == (ssize_t)sizeof(exec_error)) {
    close(sockets[0]);
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    if (named)
      return crafter_fail(error, error_size, "cannot run %s, the encoder CRAFTER_FFMPEG names: %s",
                          named, strerror(exec_error));
    if (exec_error == ENOENT)
      return crafter_fail(
          error, error_size,
          "cannot run ffmpeg: it is not in PATH (on Debian: apt-get install ffmpeg); or name "
          "another in CRAFTER_FFMPEG, such as the Python package imageio-ffmpeg's: "
          "CRAFTER_FFMPEG=$(python3 -c 'import imageio_ffmpeg; "
          "print(imageio_ffmpeg.get_ffmpeg_exe())'); or write a .gif, which needs no encoder");
    return crafter_fail(error, error_size, "cannot run ffmpeg: %s", strerror(exec_error));
  }
  video->child = child;
  video->socket = sockets[0];
  return 0;
}

static int ffmpeg_send(crafter_video *video, const uint8_t *data, size_t size, char *error,
                       size_t error_size) {
  while (size > 0) {
    ssize_t sent = send(video->socket, data, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0)
      return crafter_fail(error, error_size, "the encoder stopped reading frames: %s",
                          strerror(sent < 0 ? errno : EIO));
    data += sent;
    size -= (size_t)sent;
  }
  return 0;
}

/* Closes ffmpeg's input and waits for it; 0 when it succeeded. */
static int ffmpeg_finish(crafter_video *video, char *error, size_t error_size) {
  if (video->socket >= 0) close(video->socket);
  video->socket = -1;
  if (video->child <= 0) return 0;
  int status;
  pid_t waited;
  do waited = waitpid(video->child, &status, 0);
  while (waited < 0 && errno == EINTR);
  video->child = 0;
  if (waited < 0)
    return crafter_fail(error, error_size, "waiting for the encoder: %s", strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  if (WIFEXITED(status))
    return crafter_fail(error, error_size, "the encoder failed (exit status %d)",
                        WEXITSTATUS(status));
  return crafter_fail(error, error_size, "the encoder was killed by signal %d", WTERMSIG(status));
}

/* ---- the video ---- */

crafter_video *crafter_video_open(const char *path, const char *format, int width, int height,
                                  double fps, const char *ffmpeg, char *error, size_t error_size) {
  if (!format) format = extension_of(path);
  int kind = crafter_video_kind(format);
  if (kind < 0) {
    crafter_fail(error, error_size,
                 "%s: unknown video format%s%s%s (expected gif, or mp4, m4v, mov, mkv, webm or avi "
                 "through ffmpeg; name the file so or give the format)",
                 path, format ? " '" : "", format ? format : "", format ? "'" : "");
    return NULL;
  }
  if (width < 1 || height < 1 || width > 65535 || height > 65535 || !(fps > 0 && fps <= 100)) {
    crafter_fail(error, error_size, "%s: frames of %dx%d at %g a second cannot be a video", path,
                 width, height, fps);
    return NULL;
  }
  crafter_video *video = calloc(1, sizeof(*video));
  if (!video) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  video->kind = kind;
  video->width = width;
  video->height = height;
  video->socket = -1;
  if (crafter_outfile_open(&video->out, path, error, error_size) < 0) {
    free(video);
    return NULL;
  }
  int status;
  if (kind == CRAFTER_VIDEO_GIF) {
    status = gif_start(video, fps);
    if (status < 0) crafter_fail(error, error_size, "out of memory");
  } else {
    const char *target = video->out.temporary ? video->out.temporary : video->out.path;
    status = ffmpeg_start(video, ffmpeg, target,
                          formats[format_index(format)][1], fps, error, error_size);
  }
  if (status < 0) {
    crafter_video_abort(video);
    return NULL;
  }
  return video;
}

int crafter_video_add(crafter_video *video, const uint8_t *rgb, char *error, size_t error_size) {
  if (video->kind == CRAFTER_VIDEO_FFMPEG) {
    if (ffmpeg_send(video, rgb, (size_t)video->width * (size_t)video->height * 3, error,
                    error_size) == 0)
      return 0;
    /* An encoder that stops reading has failed: say how it ended. */
    ffmpeg_finish(video, error, error_size);
    return -1;
  }
  gif_add(video, rgb);
  if (ferror(video->out.file))
    return crafter_fail(error, error_size, "%s: %s", video->out.path,
                        strerror(errno ? errno : EIO));
  return 0;
}

int crafter_video_close(crafter_video *video, char *error, size_t error_size) {
  int status = 0;
  if (video->kind == CRAFTER_VIDEO_GIF)
    fputc(0x3b, video->out.file);
  else
    status = ffmpeg_finish(video, error, error_size);
  if (status == 0)
    status = crafter_outfile_commit(&video->out, error, error_size);
  else
    crafter_outfile_abort(&video->out);
  gif_free(&video->gif);
  free(video);
  return status;
}

void crafter_video_abort(crafter_video *video) {
  if (!video) return;
  if (video->child > 0) {
    kill(video->child, SIGTERM);
    char ignored[64];
    ffmpeg_finish(video, ignored, sizeof(ignored));
  } else if (video->socket >= 0) {
    close(video->socket);
  }
  crafter_outfile_abort(&video->out);
  gif_free(&video->gif);
  free(video);
}

/* ---- pictures of an episode ---- */

int crafter_pictures_add(crafter_pictures *pictures, uint32_t step, const uint8_t *rgb, int width,
                         int height, char *error, size_t error_size) {
  int to_width = pictures->size[0] ? pictures->size[0] : width;
  int to_height = pictures->size[1] ? pictures->size[1] : height;
  if (to_width != width || to_height != height) {
    if (!pictures->scaled) pictures->scaled = malloc((size_t)to_width * (size_t)to_height * 3);
    if (!pictures->scaled ||
        crafter_video_scale(rgb, width, height, pictures->scaled, to_width, to_height) < 0)
      return crafter_fail(error, error_size, "out of memory");
    rgb = pictures->scaled;
  }
  pictures->count++;
  if (pictures->video_path) {
    if (!pictures->video)
      pictures->video = crafter_video_open(pictures->video_path, pictures->format, to_width,
                                           to_height, pictures->fps, pictures->ffmpeg, error,
                                           error_size);
    if (!pictures->video) return -1;
    return crafter_video_add(pictures->video, rgb, error, error_size);
  }
  char name[4096];
  snprintf(name, sizeof(name), "%s/episode-%ld-step-%05u.png", pictures->directory,
           pictures->episode, step);
  if (crafter_write_png(name, rgb, to_width, to_height, error, error_size) < 0) return -1;
  if (pictures->out) fprintf(pictures->out, "%s\n", name);
  return 0;
}

int crafter_pictures_finish(crafter_pictures *pictures, int keep, char *error, size_t error_size) {
  int status = 0;
  if (pictures->video && keep)
    status = crafter_video_close(pictures->video, error, error_size);
  else
    crafter_video_abort(pictures->video);
  pictures->video = NULL;
  free(pictures->scaled);
  pictures->scaled = NULL;
  return status;
}
