/* cli_slurm: `numasim slurm` - runs a scenario as a Slurm job array of
 * `numasim run --slice I/N` tasks and a merge job.
 *
 * Theory of operation. Everything lives in one job directory (absolute
 * paths only, since the compute nodes see the same file system): the two
 * sbatch scripts, the tasks' logs, the part files (parts/part-I, written
 * atomically by the tasks) and, once the merge job ends, merge.rc (its exit
 * code). The merge job depends on the array with afterany, not afterok: with
 * afterok one failed task leaves it pending forever. It runs `numasim merge
 * --slices N` on the parts that exist, which checks them all and writes
 * nothing unless every slice is there and whole.
 *
 * --wait polls for merge.rc (and, as a fallback, for the merge job leaving
 * squeue), then judges each slice from its part file, not from Slurm's exit
 * codes, which `sbatch --wait` does not report reliably for arrays. --rerun
 * judges the parts the same way and submits an array of just the failed
 * slices (and a new merge job).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "child.h"
#include "cli.h"
#include "platform.h"
#include "part.h"
#include "outfile.h"
#include "run.h"
#include "scenario.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TASKS 100000
#define PATH_LEN  4096

typedef struct {
    int tasks, tasks_given;
    const char *partition, *time;
    const char **sbatch_args, **sets;
    int nsbatch_args, nsets;
    int dry_run, wait, rerun;
    char bin[PATH_LEN], scenario[PATH_LEN], out[PATH_LEN], dir[PATH_LEN];
    const char *name;
    char namebuf[256];
} slurm_opts_t;

/* What a submission does: for --rerun, the failed slices of the earlier
 * one; the two scripts and where they go. */
typedef struct {
    char *failed; /* --rerun: [tasks], 1 for a failed slice; else NULL */
    int nfailed;
    char why[1024], list[1024]; /* judge's summary; "1,3,5" */
    char *ascript, *mscript;
    char apath[PATH_LEN + 32], mpath[PATH_LEN + 32], arr[1100];
    int submit_array; /* not a rerun, or one with failed slices */
} plan_t;

static void slurm_usage(FILE *f)
{
    fprintf(f, "usage: numasim slurm [--tasks N] [--partition P] [--time T] [--sbatch-arg A]...\n"
               "                     [--set SECTION.KEY=VALUE]... [-o OUT.csv] [--dir DIR]\n"
               "                     [--dry-run] [--wait] [--rerun] SCENARIO\n"
               "\n"
               "Runs a scenario on a Slurm cluster: a job array of N tasks, task I running\n"
               "`numasim run --slice I/N`, and a merge job that starts when the array ends\n"
               "(--dependency=afterany), checks every part and writes OUT.csv and its resolved\n"
               "configuration, byte-identical to `numasim run -o OUT.csv -q [--set ...]\n"
               "SCENARIO` with the same absolute paths. Prints the job ids. SCENARIO is a\n"
               "file or a name, as for numasim run.\n"
               "\n"
               "  --tasks N         array tasks = slices (default 10; with --rerun: as before)\n"
               "  --partition P     sbatch --partition for both jobs\n"
               "  --time T          sbatch --time for both jobs (e.g. 1:00:00)\n"
               "  --sbatch-arg A    any other sbatch option for both jobs (repeatable),\n"
               "                    e.g. --sbatch-arg=--mem=2G --sbatch-arg=--cpus-per-task=4\n"
               "                    (each task runs --jobs $SLURM_CPUS_PER_TASK simulations)\n"
               "  --set S.K=V       as for numasim run\n"
               "  -o OUT.csv        merged result (default results/<name>.csv here)\n"
               "  --dir DIR         job directory: scripts, logs/, parts/, merge.rc\n"
               "                    (default slurm/<name> here)\n"
               "  --dry-run         print the scripts and the sbatch commands, submit nothing\n"
               "  --wait            wait for the merge job, then report the failed slices,\n"
               "                    judged from the parts (exit 1 if any failed)\n"
               "  --rerun           resubmit only the failed slices of DIR, and a merge job\n"
               "\n"
               "The numasim binary, the scenario and its platform files must be at the same\n"
               "absolute paths on the compute nodes, and DIR and OUT on a shared file system.\n"
               "Errors exit with code 2.\n");
}

/* Makes path absolute against the working directory into buf. */
static void abs_path(const char *path, char *buf)
{
    char cwd[PATH_LEN];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(buf, PATH_LEN, "%s", path);
    else if (snprintf(buf, PATH_LEN, "%s/%s", cwd, path) >= PATH_LEN)
        snprintf(buf, PATH_LEN, "%s", path); /* too long: leave it relative */
}

/* Writes s single-quoted for sh. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

static void sbatch_common(FILE *f, const slurm_opts_t *o)
{
    if (o->partition)
        fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time)
        fprintf(f, "#SBATCH --time=%s\n", o->time);
    for (int i = 0; i < o->nsbatch_args; i++)
        fprintf(f, "#SBATCH %s\n", o->sbatch_args[i]);
}

/* The array script; the caller frees it. */
static char *array_script(const slurm_opts_t *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = xcheck(open_memstream(&buf, &len));
    fprintf(f, "#!/bin/sh\n# numasim %s slurm: one slice of scenario %s per array task\n",
            NUMASIM_VERSION, o->name);
    fprintf(f, "#SBATCH --job-name=numasim-%s\n#SBATCH --array=0-%d\n", o->name, o->tasks - 1);
    fprintf(f, "#SBATCH --output=%s/logs/slice-%%a.out\n", o->dir);
    sbatch_common(f, o);
    fprintf(f, "exec ");
    sh_quote(f, o->bin);
    fprintf(f,
            " run -q --slice \"$SLURM_ARRAY_TASK_ID/%d\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\" \\\n"
            "    -o ",
            o->tasks);
    sh_quote(f, o->dir);
    fprintf(f, "\"/parts/part-$SLURM_ARRAY_TASK_ID\"");
    for (int i = 0; i < o->nsets; i++) {
        fprintf(f, " --set ");
        sh_quote(f, o->sets[i]);
    }
    fputc(' ', f);
    sh_quote(f, o->scenario);
    fputc('\n', f);
    fclose(f);
    return buf;
}

/* The merge script; the caller frees it. */
static char *merge_script(const slurm_opts_t *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = xcheck(open_memstream(&buf, &len));
    fprintf(f, "#!/bin/sh\n# numasim %s slurm: merges the %d slices of scenario %s\n",
            NUMASIM_VERSION, o->tasks, o->name);
    fprintf(f, "#SBATCH --job-name=numasim-%s-merge\n", o->name);
    fprintf(f, "#SBATCH --output=%s/logs/merge.out\n", o->dir);
    sbatch_common(f, o);
    fprintf(f, "dir=");
    sh_quote(f, o->dir);
    fprintf(f,
            "\nset --\ni=0\nwhile [ $i -lt %d ]; do\n"
            "    [ -e \"$dir/parts/part-$i\" ] && set -- \"$@\" \"$dir/parts/part-$i\"\n"
            "    i=$((i + 1))\ndone\n",
            o->tasks);
    sh_quote(f, o->bin);
    fprintf(f, " merge --slices %d -o ", o->tasks);
    sh_quote(f, o->out);
    fprintf(f, " \"$@\"\nrc=$?\necho $rc > \"$dir/merge.rc.tmp\" && mv \"$dir/merge.rc.tmp\" "
               "\"$dir/merge.rc\"\nexit $rc\n");
    fclose(f);
    return buf;
}

/* Runs argv, its standard output into out (NUL-terminated, cut at outsz)
 * and the first line of its standard error into errline. Returns the exit
 * code, 127 if it could not start, 128+N if killed by signal N. */
static int run_capture(char *const *argv, char *out, size_t outsz, char *errline, size_t errsz)
{
    int fd[2];
    FILE *err = tmpfile();
    if (!err || pipe(fd) < 0) {
        snprintf(errline, errsz, "%s", strerror(errno));
        if (err)
            fclose(err);
        return 127;
    }
    pid_t pid = child_try_fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fileno(err), 2);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    char sink[512];
    while ((r = read(fd[0], n + 1 < outsz ? out + n : sink,
                     n + 1 < outsz ? outsz - 1 - n : sizeof sink)) > 0 ||
           (r < 0 && errno == EINTR))
        if (r > 0 && n + 1 < outsz)
            n += (size_t)r;
    out[n] = '\0';
    close(fd[0]);
    int st = pid > 0 ? child_wait(pid) : 0;
    rewind(err);
    errline[0] = '\0';
    if (!fgets(errline, (int)errsz, err))
        errline[0] = '\0';
    errline[strcspn(errline, "\n")] = '\0';
    fclose(err);
    if (pid < 0)
        return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* sbatch --parsable [extra] script; stores the job id. Returns 0, or -1
 * with e. */
static int submit(const char *extra, const char *script, char *id, size_t idsz, err_t *e)
{
    char *argv[] = {"sbatch", "--parsable", (char *)extra, (char *)script, NULL};
    if (!extra) {
        argv[2] = (char *)script;
        argv[3] = NULL;
    }
    char out[64], err[512];
    int rc = run_capture(argv, out, sizeof out, err, sizeof err);
    out[strcspn(out, ";\n")] = '\0';
    if (rc != 0 || !*out || strspn(out, "0123456789") != strlen(out)) {
        return err_set(e, NULL, 0, "numasim slurm: sbatch %s failed (exit %d): %s", script, rc,
                       *err ? err : "no job id");
    }
    snprintf(id, idsz, "%s", out);
    return 0;
}

/* Judges every slice of the job directory from its part file; sets
 * failed[i] and writes a summary ("2: missing; 3: truncated") into why.
 * Returns the number of failed slices. */
static int judge(const slurm_opts_t *o, char *failed, char *why, size_t whysz)
{
    int n = o->tasks, nfailed = 0;
    uint64_t *hash = xcalloc((size_t)n, sizeof *hash);
    why[0] = '\0';
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN + 32];
        snprintf(path, sizeof path, "%s/parts/part-%d", o->dir, i);
        const char *bad = NULL;
        int trunc = 0;
        err_t e = {{0}};
        part_t *p = NULL;
        if (access(path, F_OK) != 0)
            bad = "missing";
        else if (!(p = part_read(path, &trunc, &e)))
            bad = "unreadable";
        else if (trunc)
            bad = "truncated";
        else if (strcmp(p->version, NUMASIM_VERSION) != 0)
            bad = "other numasim version";
        else if (p->slice != i || p->nslices != n)
            bad = "of another submission";
        else
            hash[i] = p->hash;
        part_free(p);
        failed[i] = bad != NULL;
        if (bad) {
            nfailed++;
            size_t l = strlen(why);
            if (l + 64 < whysz)
                snprintf(why + l, whysz - l, "%s%d: %s", l ? "; " : "", i, bad);
        }
    }
    /* The parts must agree on the scenario: the most common hash wins. */
    int best = -1, best_count = 0;
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (int j = 0; j < n && !failed[i]; j++)
            c += !failed[j] && hash[j] == hash[i];
        if (c > best_count) {
            best = i;
            best_count = c;
        }
    }
    for (int i = 0; i < n && best >= 0; i++)
        if (!failed[i] && hash[i] != hash[best]) {
            failed[i] = 1;
            nfailed++;
            size_t l = strlen(why);
            if (l + 64 < whysz)
                snprintf(why + l, whysz - l, "%s%d: another scenario", l ? "; " : "", i);
        }
    free(hash);
    return nfailed;
}

/* "1,3,5" of the failed slices into buf; returns buf. */
static char *slice_list(const char *failed, int n, char *buf, size_t sz)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t l = strlen(buf);
        if (failed[i] && l + 16 < sz)
            snprintf(buf + l, sz - l, "%s%d", l ? "," : "", i);
    }
    return buf;
}

/* Is job id still known to squeue? 1 yes, 0 no, -1 cannot tell. */
static int in_queue(const char *id)
{
    char *argv[] = {"squeue", "-h", "-j", (char *)id, "-o", "%T", NULL};
    char out[4096], err[512];
    int rc = run_capture(argv, out, sizeof out, err, sizeof err);
    if (rc == 0)
        return out[strspn(out, " \n")] != '\0';
    return strstr(err, "Invalid job id") ? 0 : -1;
}

/* Writes text to path atomically. Returns 0, or -1 with e. */
static int write_file(const char *path, const char *text, err_t *e)
{
    e->msg[0] = '\0';
    FILE *f = outfile_open(path, e);
    if (!f || fputs(text, f) < 0 || outfile_commit(f, path, e) < 0) {
        if (f && !*e->msg)
            outfile_abort(f, path);
        if (!*e->msg)
            err_set(e, NULL, 0, "numasim slurm: write error");
        return -1;
    }
    return 0;
}

/* mkdir -p path. Returns 0, or -1 with e. */
static int make_dir(const char *path, err_t *e)
{
    char buf[PATH_LEN + 64];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *c = buf + 1; *c; c++)
        if (*c == '/') {
            *c = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                break; /* reported below */
            *c = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return err_set(e, path, 0, "cannot create directory: %s", strerror(errno));
    return 0;
}

/* Removes the parts (and leftovers) of an earlier submission. */
static void clear_parts(const char *dir)
{
    char path[PATH_LEN + 300];
    snprintf(path, sizeof path, "%s/parts", dir);
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (!strncmp(de->d_name, "part-", 5)) {
            snprintf(path, sizeof path, "%s/parts/%s", dir, de->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
}

/* Waits for the merge job, then reports. Returns the exit code. */
static int wait_and_report(const slurm_opts_t *o, const char *merge_id)
{
    char rc_path[PATH_LEN + 32];
    snprintf(rc_path, sizeof rc_path, "%s/merge.rc", o->dir);
    for (int gone = 0; access(rc_path, F_OK) != 0 && gone < 3; sleep(1))
        gone = in_queue(merge_id) == 0 ? gone + 1 : 0;
    char *failed = xcalloc((size_t)o->tasks, 1), why[1024], list[1024];
    int nfailed = judge(o, failed, why, sizeof why);
    int rc = 0;
    if (nfailed) {
        fprintf(stderr,
                "numasim slurm: %d of %d slices failed, nothing merged: slices %s (%s); "
                "logs in %s/logs; resubmit them with the same arguments and --rerun\n",
                nfailed, o->tasks, slice_list(failed, o->tasks, list, sizeof list), why, o->dir);
        rc = 1;
    } else {
        FILE *f = fopen(rc_path, "r");
        int mrc = -1;
        if (!f || fscanf(f, "%d", &mrc) != 1)
            mrc = -1;
        if (f)
            fclose(f);
        if (mrc != 0 || access(o->out, F_OK) != 0) {
            fprintf(stderr,
                    "numasim slurm: every slice is complete but the merge job %s (see "
                    "%s/logs/merge.out); resubmit it with --rerun\n",
                    mrc < 0 ? "ended without a result" : "failed", o->dir);
            rc = 1;
        } else {
            printf("merged %d slices: %s\n", o->tasks, o->out);
        }
    }
    free(failed);
    return rc;
}

/* Checks the scenario here before anything goes to the cluster, and fills
 * o->name. Returns 0, or -1 with e. */
static int check_scenario(slurm_opts_t *o, err_t *e)
{
    scenario_t *s = scenario_load(o->scenario, o->sets, o->nsets, e);
    int rc = s ? 0 : -1;
    for (int i = 0; s && i < s->nplatforms && rc == 0; i++) {
        platform_t *p = platform_read(s->platforms[i], s->platform_sets, s->nplatform_sets, e);
        if (!p || run_check(s, p, e) < 0)
            rc = -1;
        platform_free(p);
    }
    if (rc == 0) {
        snprintf(o->namebuf, sizeof o->namebuf, "%s", s->name);
        o->name = o->namebuf;
    }
    scenario_free(s);
    return rc;
}

/* Parses the options into o; -o and --dir into *out and *dir. Returns 0, 1
 * when --help was printed, or -1 with e (empty: the usage was printed). */
static int slurm_parse_opts(int argc, char **argv, slurm_opts_t *o, const char **out,
                            const char **dir, err_t *e)
{
    static const struct option opts[] = {
        {"tasks", required_argument, NULL, 'n'}, {"partition", required_argument, NULL, 'p'},
        {"time", required_argument, NULL, 't'},  {"sbatch-arg", required_argument, NULL, 'a'},
        {"set", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
        {"dir", required_argument, NULL, 'd'},   {"dry-run", no_argument, NULL, 'D'},
        {"wait", no_argument, NULL, 'w'},        {"rerun", no_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    int c;
    long n;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (err_parse_long(optarg, &n) < 0 || n < 1 || n > MAX_TASKS)
                return err_set(e, NULL, 0,
                               "--tasks: expected a whole number from 1 to %d, not '%s'", MAX_TASKS,
                               optarg);
            o->tasks = (int)n;
            o->tasks_given = 1;
            break;
        case 'p':
            o->partition = optarg;
            break;
        case 't':
            o->time = optarg;
            break;
        case 'a':
            o->sbatch_args[o->nsbatch_args++] = optarg;
            break;
        case 's':
            o->sets[o->nsets++] = optarg;
            break;
        case 'o':
            *out = optarg;
            break;
        case 'd':
            *dir = optarg;
            break;
        case 'D':
            o->dry_run = 1;
            break;
        case 'w':
            o->wait = 1;
            break;
        case 'r':
            o->rerun = 1;
            break;
        case 'h':
            slurm_usage(stdout);
            return 1;
        default:
            slurm_usage(stderr);
            return cli_err_printed(e);
        }
    }
    if (argc - optind != 1)
        return err_set(e, NULL, 0,
                       "numasim slurm: expected one scenario file, %d given (see --help)",
                       argc - optind);
    return 0;
}

/* Finds and checks the scenario, this numasim binary, and the absolute
 * paths of the output and the job directory. Returns 0, 1 (printed) or -1
 * with e. */
static int slurm_resolve(slurm_opts_t *o, const char *arg, const char *out, const char *dir,
                         err_t *e)
{
    char real[PATH_MAX];
    char *found = cli_find(arg, "scenario", e);
    if (!found)
        return -1;
    if (!realpath(found, real)) {
        err_set(e, found, 0, "cannot read: %s", strerror(errno));
        free(found);
        return -1;
    }
    free(found);
    snprintf(o->scenario, sizeof o->scenario, "%s", real);
    if (check_scenario(o, e) < 0)
        return -1;
    ssize_t bl = readlink("/proc/self/exe", o->bin, sizeof o->bin - 1);
    if (bl <= 0) {
        fprintf(stderr, "numasim slurm: cannot find the numasim binary: %s\n", strerror(errno));
        return 1;
    }
    o->bin[bl] = '\0';
    char tmp[PATH_LEN];
    snprintf(tmp, sizeof tmp, "results/%s.csv", o->name);
    abs_path(out ? out : tmp, o->out);
    snprintf(tmp, sizeof tmp, "slurm/%s", o->name);
    abs_path(dir ? dir : tmp, o->dir);
    return 0;
}

/* --rerun: the slice count of the earlier submission, and its failed
 * slices. Returns 0, or -1 with e. */
static int read_rerun(slurm_opts_t *o, plan_t *P, err_t *e)
{
    char path[PATH_LEN + 64];
    snprintf(path, sizeof path, "%s/tasks", o->dir);
    FILE *f = fopen(path, "r");
    int stored = 0, rc = 0;
    if (!f || fscanf(f, "%d", &stored) != 1 || stored < 1 || stored > MAX_TASKS)
        rc = err_set(e, path, 0, "no earlier submission to rerun (%s)",
                     f ? "malformed" : strerror(errno));
    else if (o->tasks_given && stored != o->tasks)
        rc = err_set(e, NULL, 0, "numasim slurm: --tasks %d, but %s was submitted with %d tasks",
                     o->tasks, o->dir, stored);
    if (f)
        fclose(f);
    o->tasks = stored;
    if (rc == 0) {
        P->failed = xcalloc((size_t)o->tasks, 1);
        P->nfailed = judge(o, P->failed, P->why, sizeof P->why);
        slice_list(P->failed, o->tasks, P->list, sizeof P->list);
    }
    return rc;
}

/* --dry-run: the scripts and the sbatch commands. */
static void print_plan(const slurm_opts_t *o, const plan_t *P)
{
    printf("# %s\n%s\n# %s\n%s\n", P->apath, P->ascript, P->mpath, P->mscript);
    if (o->rerun)
        printf("# failed slices: %s\n", P->nfailed ? P->why : "none");
    printf("# would run:\n");
    if (P->submit_array)
        printf("#   sbatch --parsable %s%s%s\n", o->rerun ? P->arr : "", o->rerun ? " " : "",
               P->apath);
    printf("#   sbatch --parsable %s%s\n",
           P->submit_array ? "--dependency=afterany:ARRAY_JOB_ID " : "", P->mpath);
}

/* The job directory: logs/ and parts/ (a new submission clears the parts
 * and records its task count; a rerun removes its failed parts), no
 * merge.rc, and the two scripts. Returns 0, or -1 with e. */
static int prepare_dir(const slurm_opts_t *o, const plan_t *P, err_t *e)
{
    char path[PATH_LEN + 64];
    snprintf(path, sizeof path, "%s/logs", o->dir);
    if (make_dir(o->dir, e) < 0 || make_dir(path, e) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/parts", o->dir);
    if (make_dir(path, e) < 0)
        return -1;
    if (!o->rerun) {
        clear_parts(o->dir);
        char t[32];
        snprintf(t, sizeof t, "%d\n", o->tasks);
        snprintf(path, sizeof path, "%s/tasks", o->dir);
        if (write_file(path, t, e) < 0)
            return -1;
    }
    for (int i = 0; o->rerun && i < o->tasks; i++)
        if (P->failed[i]) {
            snprintf(path, sizeof path, "%s/parts/part-%d", o->dir, i);
            unlink(path);
        }
    snprintf(path, sizeof path, "%s/merge.rc", o->dir);
    unlink(path);
    if (write_file(P->apath, P->ascript, e) < 0 || write_file(P->mpath, P->mscript, e) < 0)
        return -1;
    return 0;
}

/* Submits the array (unless a rerun has nothing to redo) and the merge job
 * after it, prints their ids and, with --wait, waits for the merge. Returns
 * 0, 1 (--wait: slices failed, printed) or -1 with e. */
static int submit_jobs(const slurm_opts_t *o, const plan_t *P, err_t *e)
{
    char aid[64] = "", mid[64] = "", dep[128];
    if (P->submit_array && submit(o->rerun ? P->arr : NULL, P->apath, aid, sizeof aid, e) < 0)
        return -1;
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", aid);
    if (submit(*aid ? dep : NULL, P->mpath, mid, sizeof mid, e) < 0)
        return -1;
    if (*aid)
        printf("array job %s: slices %s of %d (%s)\n", aid, o->rerun ? P->list : "all", o->tasks,
               P->apath);
    else
        printf("every slice is complete: no array job\n");
    printf("merge job %s: after the array, writes %s (%s)\n", mid, o->out, P->mpath);
    fflush(stdout);
    return o->wait ? wait_and_report(o, mid) : 0;
}

/* Plans the submission of o, then prints it (--dry-run) or submits it. */
static int slurm_main(slurm_opts_t *o, err_t *e)
{
    static plan_t P; /* large buffers: not on the stack */
    memset(&P, 0, sizeof P);
    int rc = o->rerun ? read_rerun(o, &P, e) : 0;
    if (rc == 0) {
        P.ascript = array_script(o);
        P.mscript = merge_script(o);
        snprintf(P.apath, sizeof P.apath, "%s/array.sbatch", o->dir);
        snprintf(P.mpath, sizeof P.mpath, "%s/merge.sbatch", o->dir);
        snprintf(P.arr, sizeof P.arr, "--array=%s", P.list);
        P.submit_array = !o->rerun || P.nfailed > 0;
        if (o->dry_run)
            print_plan(o, &P);
        else if ((rc = prepare_dir(o, &P, e)) == 0)
            rc = submit_jobs(o, &P, e);
    }
    free(P.ascript);
    free(P.mscript);
    free(P.failed);
    return rc;
}

int cli_slurm(int argc, char **argv)
{
    static slurm_opts_t o; /* large buffers: not on the stack */
    memset(&o, 0, sizeof o);
    o.tasks = 10;
    o.sbatch_args = xcalloc((size_t)argc, sizeof *o.sbatch_args);
    o.sets = xcalloc((size_t)argc, sizeof *o.sets);
    const char *out = NULL, *dir = NULL;
    err_t e = {{0}};
    int rc = slurm_parse_opts(argc, argv, &o, &out, &dir, &e);
    if (rc == 1)
        rc = 0; /* --help */
    else if (rc == 0 && (rc = slurm_resolve(&o, argv[optind], out, dir, &e)) == 0)
        rc = slurm_main(&o, &e);
    free(o.sbatch_args);
    free(o.sets);
    return cli_exit_code(rc, &e);
}
