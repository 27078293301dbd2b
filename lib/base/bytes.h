/* bytes: the little-endian fields and CRC-32 checksums of the binary file
 * formats and of the protocol, written once for every writer and
 * reader. */
#ifndef CRAFTER_BYTES_H
#define CRAFTER_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

static inline void crafter_put_u16(uint8_t *at, uint16_t value) {
  at[0] = (uint8_t)value;
  at[1] = (uint8_t)(value >> 8);
}
static inline void crafter_put_u32(uint8_t *at, uint32_t value) {
  for (int i = 0; i < 4; i++) at[i] = (uint8_t)(value >> (8 * i));
}
static inline void crafter_put_u64(uint8_t *at, uint64_t value) {
  for (int i = 0; i < 8; i++) at[i] = (uint8_t)(value >> (8 * i));
}
static inline void crafter_put_i32(uint8_t *at, int32_t value) {
  crafter_put_u32(at, (uint32_t)value);
}
static inline void crafter_put_i64(uint8_t *at, int64_t value) {
  crafter_put_u64(at, (uint64_t)value);
}
static inline void crafter_put_f32(uint8_t *at, float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  crafter_put_u32(at, bits);
}
static inline void crafter_put_f64(uint8_t *at, double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  crafter_put_u64(at, bits);
}
static inline uint16_t crafter_get_u16(const uint8_t *at) {
  return (uint16_t)(at[0] | at[1] << 8);
}
static inline uint32_t crafter_get_u32(const uint8_t *at) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; i--) value = value << 8 | at[i];
  return value;
}
static inline uint64_t crafter_get_u64(const uint8_t *at) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; i--) value = value << 8 | at[i];
  return value;
}
static inline int32_t crafter_get_i32(const uint8_t *at) { return (int32_t)crafter_get_u32(at); }
static inline int64_t crafter_get_i64(const uint8_t *at) { return (int64_t)crafter_get_u64(at); }
static inline float crafter_get_f32(const uint8_t *at) {
  uint32_t bits = crafter_get_u32(at);
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}
static inline double crafter_get_f64(const uint8_t *at) {
  uint64_t bits = crafter_get_u64(at);
  double value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

/* CRC-32 (zlib's) continued over `size` bytes, however many. */
static inline uint32_t crafter_crc32_update(uint32_t crc, const void *data, size_t size) {
  uLong value = crc;
  const uint8_t *at = data;
  while (size > 0) {
    uInt piece = size > (1u << 30) ? (1u << 30) : (uInt)size;
    value = crc32(value, at, piece);
    at += piece;
    size -= piece;
  }
  return (uint32_t)value;
}
static inline uint32_t crafter_crc32(const void *data, size_t size) {
  return crafter_crc32_update(0, data, size);
}

/* Bytes in the well-formed UTF-8 character of two or more bytes at
 * text[0..length) (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), or 0 when there is none there. */
static inline size_t crafter_utf8_character(const unsigned char *text, size_t length) {
  unsigned char lead = text[0];
  size_t bytes = lead >= 0xc2 && lead <= 0xdf   ? 2
                 : lead >= 0xe0 && lead <= 0xef ? 3
                 : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                : 0;
  if (bytes == 0 || bytes > length) return 0;
  for (size_t i = 1; i < bytes; i++)
    if ((text[i] & 0xc0) != 0x80) return 0;
  if ((lead == 0xe0 && text[1] < 0xa0) || (lead == 0xed && text[1] > 0x9f) ||
      (lead == 0xf0 && text[1] < 0x90) || (lead == 0xf4 && text[1] > 0x8f))
    return 0;
  return bytes;
}

#endif
