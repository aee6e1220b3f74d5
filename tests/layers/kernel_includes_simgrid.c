/* Must not compile: the timer core and strategies see only the machine API,
 * not the simulated machine behind it. */
#include "simulated.h"
