/* Must not compile: the native machine has no simulated memory system. */
#include "order.h"
