/* Must not compile: a platform is a description; it does not know the
 * machine API that runs on it. */
#include "cpu.h"
