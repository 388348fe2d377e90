// CEventCore's functions are inline, in its header; SwiftPM builds a C target only with a source
// file, and this is it.
#include "CEventCore.h"
