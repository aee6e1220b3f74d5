/* cli_find: scenarios and platforms given by name (`numasim run paper-table`).
 *
 * An installed numasim carries its scenarios and platforms in
 * PREFIX/share/numasim/{scenarios,platforms}, and a user runs it from a
 * directory of their own. A name (no '/', no extension) is looked up, in
 * this order, in the working directory (NAME.ini, then scenarios/NAME.ini),
 * in the share directory beside the executable (/proc/self/exe ->
 * ../share/numasim, so that the prefix can move), and, for a numasim still in
 * its build tree, in the source tree. A scenario names its platforms
 * relative to its own file, so an installed scenario finds the installed
 * platforms next to it; results go under the working directory as always.
 * Anything else (a path, a NAME.ini, an existing file) is used as given, so
 * that every error about it stays the one the reader gives. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"

#include "err.h"
#include "xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* The directory of the running executable, resolved; "" when unknown. */
static void exe_dir(char *buf, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    buf[0] = '\0';
    if (len <= 0)
        return;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0';
    snprintf(buf, n, "%s", exe);
}

int cli_share_dir(char *buf, size_t n)
{
    char dir[PATH_MAX];
    exe_dir(dir, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = '\0'; /* PREFIX/bin -> PREFIX */
    int w = snprintf(buf, n, "%s/share/numasim", dir);
    return w > 0 && (size_t)w < n ? 0 : -1;
}

/* The source tree, when this executable is the one its build tree made. */
static int source_dir(char *buf, size_t n)
{
#if defined(NUMASIM_BUILD_DIR) && defined(NUMASIM_SOURCE_DIR)
    char dir[PATH_MAX], build[PATH_MAX];
    exe_dir(dir, sizeof dir);
    if (!realpath(NUMASIM_BUILD_DIR, build) || strcmp(dir, build) != 0)
        return -1;
    snprintf(buf, n, "%s", NUMASIM_SOURCE_DIR);
    return 0;
#else
    (void)buf;
    (void)n;
    return -1;
#endif
}

char *cli_find(const char *arg, const char *kind, err_t *e)
{
    const char *ext = !strcmp(kind, "scenario") ? ".ini" : ".xml";
    if (strchr(arg, '/') || ends_with(arg, ext) || is_file(arg) || !*arg) {
        char *p = xstrdup(arg);
        return p;
    }
    char share[PATH_MAX], src[PATH_MAX], cand[4][PATH_MAX + 300];
    int nc = 0;
    snprintf(cand[nc++], sizeof cand[0], "%s%s", arg, ext);
    snprintf(cand[nc++], sizeof cand[0], "%ss/%s%s", kind, arg, ext);
    if (cli_share_dir(share, sizeof share) == 0)
        snprintf(cand[nc++], sizeof cand[0], "%s/%ss/%s%s", share, kind, arg, ext);
    if (source_dir(src, sizeof src) == 0)
        snprintf(cand[nc++], sizeof cand[0], "%s/%ss/%s%s", src, kind, arg, ext);
    for (int i = 0; i < nc; i++)
        if (is_file(cand[i])) {
            char *p = xstrdup(cand[i]);
            return p;
        }
    char tried[4 * (PATH_MAX + 300)] = "";
    for (int i = 0, len = 0; i < nc; i++) {
        size_t add = strlen(cand[i]);
        if (len + add + 3 > sizeof tried)
            break;
        if (i) {
            memcpy(tried + len, ", ", 2);
            len += 2;
        }
        memcpy(tried + len, cand[i], add + 1);
        len += (int)add;
    }
    err_set(e, arg, 0, "no such %s (looked for %s)", kind, tried);
    return NULL;
}
