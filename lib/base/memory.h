/* memory: how much memory this process may take, and sizes in words, so
 * that a request too large for it is refused up front with what it would
 * take rather than failing part way with "out of memory". */
#ifndef CRAFTER_MEMORY_H
#define CRAFTER_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* The memory this process may take: the machine's, or what its limits
 * (ulimit -v, -d) allow when less; *whose says which ("this machine has",
 * "this process may use"). */
uint64_t crafter_memory_available(const char **whose);

/* "9.2 GB", "770 kB": bytes in decimal units, as a person reads them,
 * into text[size]; returns text. */
const char *crafter_memory_text(char *text, size_t size, uint64_t bytes);

/* Refuses, with "WHAT take about N of memory, more than the M this
 * process may use" (or this machine has), `needed` bytes that are more
 * than the process can have.  0, or -1 with that sentence. */
int crafter_memory_check(uint64_t needed, const char *what, char *error, size_t error_size);

#endif
