#include "base/npz.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void buffer_put(crafter_npz_buffer *b, const void *data, size_t size) {
  if (b->failed) return;
  if (b->capacity - b->size < size) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity - b->size < size) capacity *= 2;
    uint8_t *grown = realloc(b->data, capacity);
    if (!grown) {
      b->failed = 1;
      return;
    }
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->size, data, size);
  b->size += size;
}

/* An .npy header as numpy 1.24 writes it (format 1.0): the dict with
 * sorted keys, room to grow the first axis, padding to 64 bytes. */
static void npy_header(crafter_npz_buffer *b, const char *descr, const size_t *shape, int dims) {
  char shape_text[160] = "";
  size_t used = 0;
  for (int i = 0; i < dims; i++)
    used += (size_t)snprintf(shape_text + used, sizeof(shape_text) - used, "%s%zu",
                             i ? ", " : "", shape[i]);
  if (dims == 1) snprintf(shape_text + used, sizeof(shape_text) - used, ",");
  char dict[512];
  int length = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                        descr, shape_text);
  char first[32];
  int first_digits = snprintf(first, sizeof(first), "%zu", shape[0]);
  int growth = 21 - first_digits;
  for (int i = 0; i < growth && length < (int)sizeof(dict) - 1; i++) dict[length++] = ' ';
  int header_length = length + 1;
  int padding = 64 - (10 + header_length) % 64;
  uint8_t prefix[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  int total = header_length + padding;
  prefix[8] = (uint8_t)(total & 0xff);
  prefix[9] = (uint8_t)(total >> 8);
  buffer_put(b, prefix, sizeof(prefix));
  buffer_put(b, dict, (size_t)length);
  for (int i = 0; i < padding; i++) buffer_put(b, " ", 1);
  buffer_put(b, "\n", 1);
}

static void put16(uint8_t *at, unsigned value) {
  at[0] = (uint8_t)value;
  at[1] = (uint8_t)(value >> 8);
}
static void put32(uint8_t *at, uint32_t value) {
  for (int i = 0; i < 4; i++) at[i] = (uint8_t)(value >> (8 * i));
}

/* Adds one deflated entry; times are 1980-01-01 00:00 so files repeat. */
static int zip_add(crafter_npz_writer *zip, const char *name, const uint8_t *data, size_t size) {
  if (size > 0xfffffffful) return -1;
  uLong bound = compressBound((uLong)size) + 64;
  uint8_t *packed = malloc(bound);
  if (!packed) return -1;
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  if (deflateInit2(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    free(packed);
    return -1;
  }
  stream.next_in = (Bytef *)(uintptr_t)data;
  stream.avail_in = (uInt)size;
  stream.next_out = packed;
  stream.avail_out = (uInt)bound;
  int status = deflate(&stream, Z_FINISH);
  size_t packed_size = bound - stream.avail_out;
  deflateEnd(&stream);
  if (status != Z_STREAM_END) {
    free(packed);
    return -1;
  }
  uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)size);
  size_t name_length = strlen(name);
  uint8_t local[30] = {0};
  put32(local, 0x04034b50);
  put16(local + 4, 20);
  put16(local + 8, 8);
  put16(local + 10, 0);
  put16(local + 12, 0x21);
  put32(local + 14, crc);
  put32(local + 18, (uint32_t)packed_size);
  put32(local + 22, (uint32_t)size);
  put16(local + 26, (unsigned)name_length);
  uint8_t central[46] = {0};
  put32(central, 0x02014b50);
  put16(central + 4, 20);
  put16(central + 6, 20);
  put16(central + 10, 8);
  put16(central + 12, 0);
  put16(central + 14, 0x21);
  put32(central + 16, crc);
  put32(central + 20, (uint32_t)packed_size);
  put32(central + 24, (uint32_t)size);
  put16(central + 28, (unsigned)name_length);
  put32(central + 42, (uint32_t)zip->offset);
  buffer_put(&zip->directory, central, sizeof(central));
  buffer_put(&zip->directory, name, name_length);
  int failed = fwrite(local, 1, sizeof(local), zip->file) != sizeof(local) ||
               fwrite(name, 1, name_length, zip->file) != name_length ||
               fwrite(packed, 1, packed_size, zip->file) != packed_size;
  free(packed);
  zip->offset += sizeof(local) + name_length + packed_size;
  zip->entries++;
  if (zip->offset > 0xffffffffull) failed = 1;
  return failed ? -1 : 0;
}

int crafter_npz_finish(crafter_npz_writer *zip) {
  if (zip->directory.failed) return -1;
  uint8_t end[22] = {0};
  put32(end, 0x06054b50);
  put16(end + 8, (unsigned)zip->entries);
  put16(end + 10, (unsigned)zip->entries);
  put32(end + 12, (uint32_t)zip->directory.size);
  put32(end + 16, (uint32_t)zip->offset);
  if (fwrite(zip->directory.data, 1, zip->directory.size, zip->file) != zip->directory.size ||
      fwrite(end, 1, sizeof(end), zip->file) != sizeof(end))
    return -1;
  return 0;
}

int crafter_npz_add(crafter_npz_writer *zip, const char *key, const char *descr, const size_t *shape,
                   int dims, const void *data, size_t bytes) {
  crafter_npz_buffer b = {0};
  npy_header(&b, descr, shape, dims);
  buffer_put(&b, data, bytes);
  char name[96];
  snprintf(name, sizeof(name), "%s.npy", key);
  int status = b.failed ? -1 : zip_add(zip, name, b.data, b.size);
  free(b.data);
  return status;
}

void crafter_npz_free(crafter_npz_writer *zip) {
  free(zip->directory.data);
  zip->directory.data = NULL;
}
