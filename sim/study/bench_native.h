/* bench_native: the native machine's own costs (`numasim bench --native`).
 * See bench_native.c for what is measured and how. */
#ifndef NUMASIM_BENCH_NATIVE_H
#define NUMASIM_BENCH_NATIVE_H

#include "err.h"

#include <stdio.h>

/* Measures on the host's CPUs (cpus: a --cpus list or NULL for all), with
 * the tick at hz for the tick figures, and prints to f. Returns 0, or -1
 * with e (the host cannot be used natively). */
int bench_native(const char *cpus, int hz, FILE *f, err_t *e);

#endif
