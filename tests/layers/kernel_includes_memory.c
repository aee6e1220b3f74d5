/* Must not compile: the timer core sees the machine API, not the memory
 * system behind the simulated machine. */
#include "mem.h"
