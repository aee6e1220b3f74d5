/* fuzz_common: temporary files and checks shared by the harnesses. */
#define _DEFAULT_SOURCE /* mkstemps */
#include "fuzz_common.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_dir[64];

static void remove_dir(void)
{
    DIR *d = opendir(g_dir);
    if (d) {
        struct dirent *de;
        char p[4200];
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            snprintf(p, sizeof p, "%s%s", g_dir, de->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(g_dir);
}

const char *fuzz_dir(void)
{
    if (!g_dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(g_dir, sizeof g_dir - 1, "%s/numasim-fuzz-XXXXXX",
                 t && *t && strlen(t) < 30 ? t : "/tmp");
        if (!mkdtemp(g_dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        strcat(g_dir, "/");
        atexit(remove_dir);
    }
    return g_dir;
}

typedef struct {
    char suffix[16];
    char path[128];
} slot_t;

const char *fuzz_write(const char *suffix, const uint8_t *data, size_t n)
{
    static slot_t slots[4];
    slot_t *s = NULL;
    for (int i = 0; i < 4 && !s; i++)
        if (!slots[i].path[0] || !strcmp(slots[i].suffix, suffix))
            s = &slots[i];
    if (!s)
        abort();
    if (!s->path[0]) {
        snprintf(s->suffix, sizeof s->suffix, "%s", suffix);
        snprintf(s->path, sizeof s->path, "%sinXXXXXX%s", fuzz_dir(), suffix);
        int fd = mkstemps(s->path, (int)strlen(suffix));
        if (fd < 0) {
            perror("fuzz: mkstemps");
            abort();
        }
        close(fd);
    }
    int fd = open(s->path, O_WRONLY | O_TRUNC);
    if (fd < 0) {
        perror("fuzz: open");
        abort();
    }
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, data + off, n - off);
        if (w <= 0) {
            perror("fuzz: write");
            abort();
        }
        off += (size_t)w;
    }
    close(fd);
    return s->path;
}

int fuzz_split(const uint8_t *data, size_t n, size_t *file_len, char **sets)
{
    const uint8_t *nul = memchr(data, 0, n);
    *file_len = nul ? (size_t)(nul - data) : n;
    int m = 0;
    for (size_t off = *file_len + 1; nul && off <= n && m < FUZZ_MAX_SETS;) {
        const uint8_t *end = memchr(data + off, 0, n - off);
        size_t len = end ? (size_t)(end - (data + off)) : n - off;
        sets[m] = malloc(len + 1);
        if (!sets[m])
            abort();
        memcpy(sets[m], data + off, len);
        sets[m][len] = '\0';
        m++;
        off += len + 1;
    }
    return m;
}

void fuzz_free_sets(char **sets, int n)
{
    for (int i = 0; i < n; i++)
        free(sets[i]);
}

void fuzz_check_error(const err_t *e, const char *what)
{
    size_t len = strnlen(e->msg, sizeof e->msg);
    if (len == sizeof e->msg) {
        fprintf(stderr, "fuzz: %s: error message not NUL-terminated\n", what);
        abort();
    }
    if (len == 0) {
        fprintf(stderr, "fuzz: %s returned NULL with an empty error message\n", what);
        abort();
    }
    if (strchr(e->msg, '\n') || strchr(e->msg, '\r')) {
        fprintf(stderr, "fuzz: %s: error message is not one line: [%s]\n", what, e->msg);
        abort();
    }
}

const char fuzz_valid_platform[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"smp4\" routing=\"Full\">\n"
    "    <prop id=\"clock_mhz\" value=\"1500\"/>\n"
    "    <prop id=\"line_bytes\" value=\"128\"/>\n"
    "    <prop id=\"hit_cycles\" value=\"6\"/>\n"
    "    <prop id=\"atomic_cycles\" value=\"12\"/>\n"
    "    <prop id=\"mem_local_cycles\" value=\"180\"/>\n"
    "    <prop id=\"c2c_node_cycles\" value=\"199\"/>\n"
    "    <prop id=\"remote_dirty_cycles\" value=\"0\"/>\n"
    "    <prop id=\"inval_node_cycles\" value=\"30\"/>\n"
    "    <prop id=\"relax_cycles\" value=\"20\"/>\n"
    "    <prop id=\"tunable\" value=\"mem_local_cycles,c2c_node_cycles\"/>\n"
    "    <host id=\"cpu0\" speed=\"1f\"><prop id=\"numa_node\" value=\"0\"/></host>\n"
    "    <host id=\"cpu1\" speed=\"1f\"><prop id=\"numa_node\" value=\"0\"/></host>\n"
    "    <host id=\"cpu2\" speed=\"1f\"><prop id=\"numa_node\" value=\"1\"/></host>\n"
    "    <host id=\"cpu3\" speed=\"1f\"><prop id=\"numa_node\" value=\"1\"/></host>\n"
    "    <link id=\"l0\" latency=\"10s\"><prop id=\"class\" value=\"exit\"/></link>\n"
    "  </zone>\n"
    "</platform>\n";
