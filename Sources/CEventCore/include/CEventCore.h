#ifndef C_EVENT_CORE_H
#define C_EVENT_CORE_H

#include <stdbool.h>
#include <stddef.h>

// The Swift runtime's reference counting of an object's unowned count, and its conditional
// strong retain, for EventCore's `UnownedReference`. Swift refuses to name runtime symbols
// itself (`@_silgen_name`, `@_extern`), so it calls them through these functions. Each takes a
// native Swift object (`Unmanaged.toOpaque()`).
//
// Inline, so that a call from Swift goes straight to the runtime: a post loads each observer
// through `c_event_core_try_retain`, and a call through a function of its own cost a frame per
// observer.

// Exported by the Swift runtime of every supported platform, as declared in its HeapObject.h:
// what `unowned` references compile to. `swift_tryRetain` returns the object, or NULL when its
// deinitialization has begun.
extern void *swift_unownedRetain(void *object);
extern void swift_unownedRelease(void *object);
extern void *swift_tryRetain(void *object);

/// Raises the object's unowned count: its memory stays allocated until the matching release.
static inline void c_event_core_unowned_retain(void *object) {
  (void)swift_unownedRetain(object);
}

/// Lowers the object's unowned count, freeing its memory if that was the last count.
static inline void c_event_core_unowned_release(void *object) { swift_unownedRelease(object); }

/// Raises the object's strong count unless its deinitialization has begun.
///
/// Returns whether it did.
static inline bool c_event_core_try_retain(void *object) {
  return swift_tryRetain(object) != NULL;
}

#endif
