/* Must not compile: util is the bottom layer. */
#include "cpu.h"
