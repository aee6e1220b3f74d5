/* Must not compile: the kernel layer does not see the native machine. */
#include "native.h"
