/* Must not compile: the memory system does not know the machine that
 * drives it. */
#include "simulated.h"
