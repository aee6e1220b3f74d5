/* fuzz_platform: libFuzzer harness of platform_read() (sim/machine/platform/platform_xml.c).
 *
 * The input is a platform file, optionally followed by NUL-separated
 * NAME=VALUE overrides (see fuzz_common.h). Errors must be one non-empty
 * line. A platform that loads is checked for consistency, then written back
 * with platform_write_with() (as numasim tune does) with each numeric
 * parameter set to its own value; the copy must load again with the same
 * CPUs and parameters. Everything must be freed (LeakSanitizer is on).
 */
#include "fuzz_common.h"
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz: platform_read: %s\n", what);
        abort();
    }
}

/* The platform must be what platform.h promises. */
static void check_platform(const platform_t *p)
{
    check(p->ncpus >= 1 && p->nnodes >= 1 && p->nnodes <= p->ncpus, "bad CPU/node counts");
    check(p->name && *p->name, "no name");
    check(p->line_bytes >= 8 && p->clock_mhz >= 1, "bad line_bytes or clock_mhz");
    for (int i = 0; i < p->ncpus; i++)
        check(p->cpu_host[i] && p->cpu_node[i] >= 0 && p->cpu_node[i] < p->nnodes, "bad CPU");
    for (int n = 0; n < p->nnodes; n++)
        check(p->node_first_cpu[n] >= 0 && p->node_first_cpu[n] < p->ncpus &&
                  p->cpu_node[p->node_first_cpu[n]] == n,
              "bad node_first_cpu");
    for (int i = 0; i < p->nparams; i++)
        check(platform_param(p, p->params[i].name) != NULL, "parameter not found by name");
    check(p->node_lat == NULL, "node_lat set before routes");
}

/* Writes p back with every numeric parameter set to its own value and reads
 * the copy again. */
static void round_trip(const platform_t *p, const char *path)
{
    const char *names[64];
    double values[64];
    int n = 0;
    for (int i = 0; i < p->nparams && n < 64; i++) {
        char *end;
        double v = strtod(p->params[i].value, &end);
        if (!strcmp(p->params[i].name, "tunable") || end == p->params[i].value || *end)
            continue;
        if (p->params[i].line == 0)
            continue; /* a default (barrier_cycles): not in the file, nothing to rewrite */
        /* platform_write_with() writes %.6g: only values that survive it. */
        char b[64];
        snprintf(b, sizeof b, "%.6g", v);
        if (strtod(b, NULL) != v)
            continue;
        names[n] = p->params[i].name;
        values[n++] = v;
    }
    char out[160];
    snprintf(out, sizeof out, "%sroundtrip.xml", fuzz_dir());
    err_t e = {{0}};
    if (platform_write_with(path, out, n, names, values, " fuzz round trip ", &e) < 0) {
        fprintf(stderr, "fuzz: platform_write_with failed on a valid platform: %s\n", e.msg);
        abort();
    }
    platform_t *q = platform_read(out, NULL, 0, &e);
    if (!q) {
        fprintf(stderr, "fuzz: a platform written by platform_write_with does not load: %s\n",
                e.msg);
        abort();
    }
    check(q->ncpus == p->ncpus && q->nnodes == p->nnodes && q->nparams == p->nparams &&
              q->nlinks == p->nlinks && !strcmp(q->name, p->name),
          "the round trip changed the platform");
    for (int i = 0; i < q->ncpus; i++)
        check(!strcmp(q->cpu_host[i], p->cpu_host[i]) && q->cpu_node[i] == p->cpu_node[i],
              "the round trip changed a CPU");
    for (int i = 0; i < n; i++) {
        const platform_param_t *r = platform_param(q, names[i]);
        check(r && strtod(r->value, NULL) == values[i], "the round trip changed a parameter");
    }
    platform_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sets[FUZZ_MAX_SETS];
    platform_override_t ov[FUZZ_MAX_SETS];
    size_t len;
    int nsets = fuzz_split(data, size, &len, sets), nov = 0;
    for (int i = 0; i < nsets; i++) {
        char *eq = strchr(sets[i], '=');
        if (!eq)
            continue;
        *eq = '\0';
        ov[nov++] = (platform_override_t){sets[i], eq + 1};
    }
    const char *path = fuzz_write(".xml", data, len);
    err_t e = {{0}};
    platform_t *p = platform_read(path, ov, nov, &e);
    if (!p) {
        fuzz_check_error(&e, "platform_read");
    } else {
        check_platform(p);
        if (nov == 0)
            round_trip(p, path);
        platform_free(p);
    }
    fuzz_free_sets(sets, nsets);
    return 0;
}
