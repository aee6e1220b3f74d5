/* Must not compile: the kernel calls the machine API of cpu.h, never the
 * ops table behind it. */
#include "machine_backend.h"
