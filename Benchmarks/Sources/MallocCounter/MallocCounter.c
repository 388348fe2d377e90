// Counts heap allocations by defining malloc and friends in the executable.
//
// Symbols defined in the main executable come first in the dynamic linker's lookup order, so
// libswiftCore, Foundation and libdispatch call these instead of libc's. Each one bumps the
// counters and forwards to glibc's own allocator through its exported `__libc_*` entry points.
// Not `dlsym(RTLD_NEXT, ...)`: dlsym may itself allocate (its error buffer is calloc'ed), which
// would recurse into a forwarder not yet resolved; the `__libc_*` symbols need no resolution.
// `free` is not replaced: the memory comes from glibc's allocator, so glibc's free releases it.

#include "MallocCounter.h"

#if defined(__GLIBC__)
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

// Initial-exec TLS in the executable: reading it never allocates (no __tls_get_addr).
static __thread uint64_t thread_count;
static uint64_t global_count;
static int global_on;

static inline void count_one(void) {
  thread_count += 1;
  if (__atomic_load_n(&global_on, __ATOMIC_RELAXED)) {
    __atomic_fetch_add(&global_count, 1, __ATOMIC_RELAXED);
  }
}

void *malloc(size_t size) {
  count_one();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_one();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  // realloc(NULL, n) is an allocation; growing a block in place or moving it is counted too,
  // since either may call into the allocator's slow path. realloc(p, 0) frees.
  if (pointer == NULL || size != 0) count_one();
  return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  count_one();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
  count_one();
  return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

bool malloc_counter_available(void) { return true; }
uint64_t malloc_counter_thread(void) { return thread_count; }
uint64_t malloc_counter_global(void) { return __atomic_load_n(&global_count, __ATOMIC_RELAXED); }
void malloc_counter_set_global(bool on) { __atomic_store_n(&global_on, on ? 1 : 0, __ATOMIC_RELAXED); }

#else

#include <stdlib.h>

bool malloc_counter_available(void) { return false; }
uint64_t malloc_counter_thread(void) { return 0; }
uint64_t malloc_counter_global(void) { return 0; }
void malloc_counter_set_global(bool on) { (void)on; }

#endif

void malloc_counter_probe(uint64_t size) {
  void *volatile pointer = malloc((size_t)size);
  free(pointer);
}

void bench_consume(intptr_t value) {
  __asm__ volatile("" : : "r"(value) : "memory");
}
