/* Must not compile: the machine layer reaching up into the study. */
#include "run.h"
