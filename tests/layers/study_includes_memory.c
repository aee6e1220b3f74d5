/* Must not compile: only the simulated machine links the memory system;
 * the study layer reaches it through the machine API. */
#include "cache.h"
