#ifndef C_EVENT_CORE_H
#define C_EVENT_CORE_H

#include <stdbool.h>

// The Swift runtime's reference counting of an object's unowned count, and its conditional
// strong retain, for EventCore's `UnownedReference`. Swift refuses to name runtime symbols
// itself (`@_silgen_name`, `@_extern`), so it calls them through these functions. Each takes a
// native Swift object (`Unmanaged.toOpaque()`).

/// Raises the object's unowned count: its memory stays allocated until the matching release.
void c_event_core_unowned_retain(void *object);

/// Lowers the object's unowned count, freeing its memory if that was the last count.
void c_event_core_unowned_release(void *object);

/// Raises the object's strong count unless its deinitialization has begun.
///
/// Returns whether it did.
bool c_event_core_try_retain(void *object);

#endif
