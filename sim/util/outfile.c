/* outfile: files written atomically (see outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files open now, for outfile_cleanup(). */
#define MAX_OPEN 8
static char g_tmp[MAX_OPEN][4200];

/* Files synced by outfile_sync, and their length then: one not written
 * since is not synced again at its commit. */
static struct {
    FILE *f;
    long pos;
} g_synced[MAX_OPEN];

/* Whether f was synced and not written since; forgets it either way. */
static int still_synced(FILE *f)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (g_synced[i].f == f) {
            g_synced[i].f = NULL;
            return ftell(f) == g_synced[i].pos;
        }
    return 0;
}

static void tmp_name(char *buf, size_t n, const char *path)
{
    snprintf(buf, n, "%s.tmp.%ld", path, (long)getpid());
}

FILE *outfile_open(const char *path, err_t *e)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        err_set(e, path, 0, "cannot write: %s", strerror(errno));
        return NULL;
    }
    for (int i = 0; i < MAX_OPEN; i++)
        if (!g_tmp[i][0]) {
            snprintf(g_tmp[i], sizeof g_tmp[i], "%s", tmp);
            break;
        }
    return f;
}

static void forget(const char *tmp)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (!strcmp(g_tmp[i], tmp))
            g_tmp[i][0] = '\0';
}

int outfile_commit(FILE *f, const char *path, err_t *e)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    int bad = fflush(f) != 0 || ferror(f);
    if (!bad && !still_synced(f))
        bad = fsync(fileno(f)) != 0;
    int saved = errno;
    bad |= fclose(f) != 0;
    if (!bad && rename(tmp, path) != 0) {
        saved = errno;
        bad = 1;
    }
    if (bad) {
        unlink(tmp);
        forget(tmp);
        return err_set(e, path, 0, "cannot write: %s", strerror(saved ? saved : EIO));
    }
    forget(tmp);
    return 0;
}

int outfile_sync(FILE *f, const char *path, err_t *e)
{
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
        return err_set(e, path, 0, "cannot write: %s", strerror(errno ? errno : EIO));
    for (int i = 0; i < MAX_OPEN; i++)
        if (!g_synced[i].f || g_synced[i].f == f) {
            g_synced[i].f = f;
            g_synced[i].pos = ftell(f);
            break;
        }
    return 0;
}

void outfile_abort(FILE *f, const char *path)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    if (f) {
        still_synced(f);
        fclose(f);
    }
    unlink(tmp);
    forget(tmp);
}

void outfile_cleanup(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (g_tmp[i][0])
            unlink(g_tmp[i]);
}

int outfile_ensure_dir(const char *path, err_t *e)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    if (!*dir)
        return 0;
    struct stat st;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode) ? 0 : err_set(e, path, 0, "'%s' is not a directory", dir);
    if (mkdir(dir, 0777) != 0)
        return err_set(e, path, 0, "cannot create directory '%s': %s", dir, strerror(errno));
    return 0;
}
