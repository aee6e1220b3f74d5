/* fuzz_scenario: libFuzzer harness of scenario_load() (sim/study/scenario.c).
 *
 * The input is a scenario file, optionally followed by NUL-separated --set
 * overrides (see fuzz_common.h). Most platform paths in a fuzzed file do not
 * exist, which is the normal error path; p.xml, a valid platform, sits in the
 * same directory so that "platforms = p.xml" loads. A loaded scenario has its
 * resolved configuration written out, and p.xml is read with the scenario's
 * platform overrides (platform.NAME=VALUE). Errors must be one non-empty
 * line; everything must be freed (LeakSanitizer is on).
 */
#include "fuzz_common.h"
#include "platform.h"
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *g_null;
static char g_platform[160];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    g_null = fopen("/dev/null", "w");
    if (!g_null)
        abort();
    snprintf(g_platform, sizeof g_platform, "%sp.xml", fuzz_dir());
    FILE *f = fopen(g_platform, "w");
    if (!f || fputs(fuzz_valid_platform, f) < 0 || fclose(f) != 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sets[FUZZ_MAX_SETS];
    size_t len;
    int nsets = fuzz_split(data, size, &len, sets);
    const char *path = fuzz_write(".ini", data, len);
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, (const char *const *)sets, nsets, &e);
    if (!s) {
        fuzz_check_error(&e, "scenario_load");
    } else {
        if (s->nplatforms < 1 || !s->name || !*s->name || s->nstrategies < 1 || s->ncaches < 1 ||
            s->nresolved < 1) {
            fprintf(stderr, "fuzz: scenario_load returned an incomplete scenario\n");
            abort();
        }
        scenario_write_resolved(s, g_null);
        for (int i = 0; i < s->nplatforms; i++) {
            /* Only our own p.xml: a fuzzed path may name /dev/zero. */
            if (strcmp(s->platforms[i], g_platform) != 0)
                continue;
            err_t pe = {{0}};
            platform_t *p =
                platform_read(s->platforms[i], s->platform_sets, s->nplatform_sets, &pe);
            if (p)
                platform_free(p);
            else
                fuzz_check_error(&pe, "platform_read (with the scenario's overrides)");
        }
        scenario_free(s);
    }
    fuzz_free_sets(sets, nsets);
    return 0;
}
