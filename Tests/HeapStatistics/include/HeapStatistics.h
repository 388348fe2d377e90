#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

#include <stddef.h>

/// The bytes the C allocator has handed out and not had back: glibc's mallinfo2().uordblks,
/// Darwin's malloc zone statistics. Swift's Glibc module does not bring in <malloc.h>.
size_t heap_statistics_bytes_in_use(void);

#endif
