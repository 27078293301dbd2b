/* video: moving pictures of observations.  Frames are scaled by nearest
 * neighbour exactly as Pillow's Image.resize(size, Image.NEAREST) does
 * (the observations' own rule, shared with render), then written either
 * as an animated GIF by the toolkit's own encoder or, for other formats,
 * encoded by an ffmpeg program fed raw RGB through a pipe.
 *
 * A video is an output file written whole (outfile.h): until it is closed
 * it lives in a temporary beside its path, which a failure or an abort
 * removes, so the path never holds a partial video. */
#ifndef CRAFTER_VIDEO_H
#define CRAFTER_VIDEO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Scales an RGB image of from_width x from_height (row-major) to
 * to_width x to_height into `to`, each output pixel the source pixel
 * Pillow's nearest-neighbour resize picks: an integer factor makes every
 * pixel a block.  0, or -1 when out of memory. */
int crafter_video_scale(const uint8_t *from, int from_width, int from_height, uint8_t *to,
                        int to_width, int to_height);

/* Which encoder a format (a file name's extension, letters compared
 * without case) needs: CRAFTER_VIDEO_GIF for gif, CRAFTER_VIDEO_FFMPEG for
 * mp4 m4v mov mkv webm avi, -1 for any other or NULL. */
enum { CRAFTER_VIDEO_GIF = 1, CRAFTER_VIDEO_FFMPEG = 2 };
int crafter_video_kind(const char *format);

typedef struct crafter_video crafter_video;

/* Starts a video of frames of width x height at `fps` frames a second
 * (0 < fps <= 100; a GIF keeps its delay in hundredths of a second), in
 * `format` (NULL: by the path's extension).  `ffmpeg` names the program
 * for the formats GIF is not (NULL or "": "ffmpeg", looked up in PATH);
 * the reason it cannot be run calls it what CRAFTER_FFMPEG names, and
 * for an ffmpeg not in PATH says how to name another.  NULL with a
 * reason. */
crafter_video *crafter_video_open(const char *path, const char *format, int width, int height,
                                  double fps, const char *ffmpeg, char *error, size_t error_size);

/* Adds a frame: width * height RGB pixels, row-major.  0, or -1 with a
 * reason (the video must then be aborted). */
int crafter_video_add(crafter_video *video, const uint8_t *rgb, char *error, size_t error_size);

/* Finishes the file and puts it at its path.  0, or -1 with a reason, the
 * path then left as it was.  Either way the video is released. */
int crafter_video_close(crafter_video *video, char *error, size_t error_size);

/* Gives up: stops the encoder, removes the temporary, releases the video.
 * NULL is allowed. */
void crafter_video_abort(crafter_video *video);

/* Pictures of an episode's steps at one size: PNG files named
 * episode-E-step-SSSSS.png in `directory`, or the frames of one video.
 * Set the fields above the line, zero the rest. */
typedef struct crafter_pictures {
  const char *directory;   /* PNG files here (the folder must exist), or */
  long episode;            /*   the E of their names */
  FILE *out;               /*   each file's name on a line here when not NULL */
  const char *video_path;  /* one video: crafter_video_open's path, format, fps, ffmpeg */
  const char *format;
  const char *ffmpeg;
  double fps;
  int size[2];             /* width and height; 0,0: each frame's own */
  /* ---- */
  long count;              /* pictures taken */
  uint8_t *scaled;
  crafter_video *video;
} crafter_pictures;

/* Takes the picture of step `step`, `width` x `height` RGB pixels, scaled
 * to the size.  0, or -1 with a reason. */
int crafter_pictures_add(crafter_pictures *pictures, uint32_t step, const uint8_t *rgb, int width,
                         int height, char *error, size_t error_size);

/* Finishes: a video is put at its path when `keep`, else removed.
 * Releases what the pictures held.  0, or -1 with a reason. */
int crafter_pictures_finish(crafter_pictures *pictures, int keep, char *error, size_t error_size);

#endif
