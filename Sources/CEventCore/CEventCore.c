#include "CEventCore.h"

#include <stddef.h>

// Exported by the Swift runtime of every supported platform, as declared in its HeapObject.h:
// what `unowned` references compile to. `swift_tryRetain` returns the object, or NULL when its
// deinitialization has begun.
extern void *swift_unownedRetain(void *object);
extern void swift_unownedRelease(void *object);
extern void *swift_tryRetain(void *object);

void c_event_core_unowned_retain(void *object) { (void)swift_unownedRetain(object); }

void c_event_core_unowned_release(void *object) { swift_unownedRelease(object); }

bool c_event_core_try_retain(void *object) { return swift_tryRetain(object) != NULL; }
