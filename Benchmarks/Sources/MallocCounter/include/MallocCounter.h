#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether this build counts allocations (glibc only: see MallocCounter.c).
bool malloc_counter_available(void);

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc) made by
/// the calling thread since it started.
uint64_t malloc_counter_thread(void);

/// Allocations made by every thread while global counting was on.
uint64_t malloc_counter_global(void);

/// Turns counting into the process-wide counter on or off (the per-thread counter always counts).
void malloc_counter_set_global(bool on);

/// Calls `malloc(size)` and `free` once each, out of the optimizer's sight: the counter's
/// self-test expects exactly one allocation from it.
void malloc_counter_probe(uint64_t size);

/// Does nothing, out of the optimizer's sight: every handler in the benchmark calls it, so no
/// loop is optimized away and every handler costs the same.
void bench_consume(intptr_t value);

#endif
