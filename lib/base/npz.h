/* npz: numpy's .npz files (a zip of .npy arrays, each deflated), written
 * as numpy 1.24's np.savez_compressed writes them, with fixed times so
 * the same arrays give the same bytes. */
#ifndef CRAFTER_NPZ_H
#define CRAFTER_NPZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct crafter_npz_buffer {
  uint8_t *data;
  size_t size, capacity;
  int failed;
} crafter_npz_buffer;

/* Open `file` yourself, add the arrays, finish, then free and close. */
typedef struct crafter_npz_writer {
  FILE *file;
  uint64_t offset;
  crafter_npz_buffer directory;
  int entries;
  int failed;
} crafter_npz_writer;

/* Adds the array `key`.npy: numpy's dtype string (descr, such as "<i8"),
 * its shape (dims axes), its bytes.  0, or -1 when it cannot be written
 * (memory, a write error, the zip's 4 GiB limit). */
int crafter_npz_add(crafter_npz_writer *zip, const char *key, const char *descr,
                    const size_t *shape, int dims, const void *data, size_t bytes);

/* Writes the zip's central directory: 0, or -1 on a write error. */
int crafter_npz_finish(crafter_npz_writer *zip);

/* Frees what the writer holds (not its file). */
void crafter_npz_free(crafter_npz_writer *zip);

#endif
