/* Must not compile: the study layer reaching up into the commands. */
#include "cli.h"
