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
} slurm_opts_t;

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
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
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
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
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

/* sbatch --parsable [extra] script; stores the job id. Returns 0 or -1
 * (message printed). */
static int submit(const char *extra, const char *script, char *id, size_t idsz)
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
        fprintf(stderr, "numasim slurm: sbatch %s failed (exit %d): %s\n", script, rc,
                *err ? err : "no job id");
        return -1;
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
    uint64_t *hash = calloc((size_t)n, sizeof *hash);
    if (!hash)
        abort();
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

/* Writes text to path atomically. Returns 0, or -1 with the message printed. */
static int write_file(const char *path, const char *text)
{
    err_t e = {{0}};
    FILE *f = outfile_open(path, &e);
    if (!f || fputs(text, f) < 0 || outfile_commit(f, path, &e) < 0) {
        if (f && !*e.msg)
            outfile_abort(f, path);
        fprintf(stderr, "%s\n", *e.msg ? e.msg : "numasim slurm: write error");
        return -1;
    }
    return 0;
}

/* mkdir -p path. Returns 0, or -1 with the message printed. */
static int make_dir(const char *path)
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
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot create directory: %s\n", path, strerror(errno));
        return -1;
    }
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
    char *failed = calloc((size_t)o->tasks, 1), why[1024], list[1024];
    if (!failed)
        abort();
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
 * o->name. Returns 0, or ERR_EXIT with the message printed. */
static int check_scenario(slurm_opts_t *o, char *name, size_t namesz)
{
    err_t e = {{0}};
    scenario_t *s = scenario_load(o->scenario, o->sets, o->nsets, &e);
    int rc = 0;
    for (int i = 0; s && i < s->nplatforms && rc == 0; i++) {
        platform_t *p = platform_read(s->platforms[i], s->platform_sets, s->nplatform_sets, &e);
        if (!p || run_check(s, p, &e) < 0)
            rc = ERR_EXIT;
        platform_free(p);
    }
    if (!s || rc) {
        fprintf(stderr, "%s\n", e.msg);
        scenario_free(s);
        return ERR_EXIT;
    }
    snprintf(name, namesz, "%s", s->name);
    o->name = name;
    scenario_free(s);
    return 0;
}

int cli_slurm(int argc, char **argv)
{
    static const struct option opts[] = {
        {"tasks", required_argument, NULL, 'n'}, {"partition", required_argument, NULL, 'p'},
        {"time", required_argument, NULL, 't'},  {"sbatch-arg", required_argument, NULL, 'a'},
        {"set", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
        {"dir", required_argument, NULL, 'd'},   {"dry-run", no_argument, NULL, 'D'},
        {"wait", no_argument, NULL, 'w'},        {"rerun", no_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    static slurm_opts_t o; /* large buffers: not on the stack */
    memset(&o, 0, sizeof o);
    o.tasks = 10;
    o.sbatch_args = calloc((size_t)argc, sizeof *o.sbatch_args);
    o.sets = calloc((size_t)argc, sizeof *o.sets);
    if (!o.sbatch_args || !o.sets)
        abort();
    const char *out = NULL, *dir = NULL;
    int c, rc = 0;
    long n;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (err_parse_long(optarg, &n) < 0 || n < 1 || n > MAX_TASKS) {
                fprintf(stderr, "--tasks: expected a whole number from 1 to %d, not '%s'\n",
                        MAX_TASKS, optarg);
                rc = ERR_EXIT;
            }
            o.tasks = (int)n;
            o.tasks_given = 1;
            break;
        case 'p':
            o.partition = optarg;
            break;
        case 't':
            o.time = optarg;
            break;
        case 'a':
            o.sbatch_args[o.nsbatch_args++] = optarg;
            break;
        case 's':
            o.sets[o.nsets++] = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 'd':
            dir = optarg;
            break;
        case 'D':
            o.dry_run = 1;
            break;
        case 'w':
            o.wait = 1;
            break;
        case 'r':
            o.rerun = 1;
            break;
        case 'h':
            slurm_usage(stdout);
            rc = -1;
            break;
        default:
            slurm_usage(stderr);
            rc = ERR_EXIT;
        }
    }
    if (rc == 0 && argc - optind != 1) {
        fprintf(stderr, "numasim slurm: expected one scenario file, %d given (see --help)\n",
                argc - optind);
        rc = ERR_EXIT;
    }
    char name[256], real[PATH_MAX];
    err_t fe = {{0}};
    char *found = rc == 0 ? cli_find(argv[optind], "scenario", &fe) : NULL;
    if (rc == 0 && !found) {
        fprintf(stderr, "%s\n", fe.msg);
        rc = ERR_EXIT;
    } else if (rc == 0 && !realpath(found, real)) {
        fprintf(stderr, "%s: cannot read: %s\n", found, strerror(errno));
        rc = ERR_EXIT;
    }
    free(found);
    if (rc == 0) {
        snprintf(o.scenario, sizeof o.scenario, "%s", real);
        rc = check_scenario(&o, name, sizeof name);
    }
    ssize_t bl = rc == 0 ? readlink("/proc/self/exe", o.bin, sizeof o.bin - 1) : 0;
    if (rc == 0 && bl <= 0) {
        fprintf(stderr, "numasim slurm: cannot find the numasim binary: %s\n", strerror(errno));
        rc = 1;
    }
    if (rc == 0) {
        o.bin[bl] = '\0';
        char tmp[PATH_LEN];
        snprintf(tmp, sizeof tmp, "results/%s.csv", o.name);
        abs_path(out ? out : tmp, o.out);
        snprintf(tmp, sizeof tmp, "slurm/%s", o.name);
        abs_path(dir ? dir : tmp, o.dir);
    }

    char path[PATH_LEN + 64];
    /* --rerun: the slice count of the earlier submission, and its failures. */
    char *failed = NULL, why[1024] = "", list[1024] = "";
    int nfailed = 0;
    if (rc == 0 && o.rerun) {
        snprintf(path, sizeof path, "%s/tasks", o.dir);
        FILE *f = fopen(path, "r");
        int stored = 0;
        if (!f || fscanf(f, "%d", &stored) != 1 || stored < 1 || stored > MAX_TASKS) {
            fprintf(stderr, "%s: no earlier submission to rerun (%s)\n", path,
                    f ? "malformed" : strerror(errno));
            rc = ERR_EXIT;
        } else if (o.tasks_given && stored != o.tasks) {
            fprintf(stderr, "numasim slurm: --tasks %d, but %s was submitted with %d tasks\n",
                    o.tasks, o.dir, stored);
            rc = ERR_EXIT;
        }
        if (f)
            fclose(f);
        o.tasks = stored;
        if (rc == 0) {
            failed = calloc((size_t)o.tasks, 1);
            if (!failed)
                abort();
            nfailed = judge(&o, failed, why, sizeof why);
            slice_list(failed, o.tasks, list, sizeof list);
        }
    }
    char *ascript = rc == 0 ? array_script(&o) : NULL;
    char *mscript = rc == 0 ? merge_script(&o) : NULL;
    char apath[PATH_LEN + 32], mpath[PATH_LEN + 32], arr[1100];
    snprintf(apath, sizeof apath, "%s/array.sbatch", o.dir);
    snprintf(mpath, sizeof mpath, "%s/merge.sbatch", o.dir);
    snprintf(arr, sizeof arr, "--array=%s", list);
    int submit_array = !o.rerun || nfailed > 0;

    if (rc == 0 && o.dry_run) {
        printf("# %s\n%s\n# %s\n%s\n", apath, ascript, mpath, mscript);
        if (o.rerun)
            printf("# failed slices: %s\n", nfailed ? why : "none");
        printf("# would run:\n");
        if (submit_array)
            printf("#   sbatch --parsable %s%s%s\n", o.rerun ? arr : "", o.rerun ? " " : "", apath);
        printf("#   sbatch --parsable %s%s\n",
               submit_array ? "--dependency=afterany:ARRAY_JOB_ID " : "", mpath);
    } else if (rc == 0) {
        snprintf(path, sizeof path, "%s/logs", o.dir);
        rc = make_dir(o.dir) < 0 || make_dir(path) < 0 ? ERR_EXIT : 0;
        snprintf(path, sizeof path, "%s/parts", o.dir);
        if (rc == 0 && make_dir(path) < 0)
            rc = ERR_EXIT;
        if (rc == 0 && !o.rerun) {
            clear_parts(o.dir);
            char t[32];
            snprintf(t, sizeof t, "%d\n", o.tasks);
            snprintf(path, sizeof path, "%s/tasks", o.dir);
            rc = write_file(path, t) < 0 ? ERR_EXIT : 0;
        }
        for (int i = 0; rc == 0 && o.rerun && i < o.tasks; i++)
            if (failed[i]) {
                snprintf(path, sizeof path, "%s/parts/part-%d", o.dir, i);
                unlink(path);
            }
        snprintf(path, sizeof path, "%s/merge.rc", o.dir);
        unlink(path);
        if (rc == 0 && (write_file(apath, ascript) < 0 || write_file(mpath, mscript) < 0))
            rc = ERR_EXIT;
        char aid[64] = "", mid[64] = "", dep[128];
        if (rc == 0 && submit_array && submit(o.rerun ? arr : NULL, apath, aid, sizeof aid) < 0)
            rc = ERR_EXIT;
        snprintf(dep, sizeof dep, "--dependency=afterany:%s", aid);
        if (rc == 0 && submit(*aid ? dep : NULL, mpath, mid, sizeof mid) < 0)
            rc = ERR_EXIT;
        if (rc == 0) {
            if (*aid)
                printf("array job %s: slices %s of %d (%s)\n", aid, o.rerun ? list : "all", o.tasks,
                       apath);
            else
                printf("every slice is complete: no array job\n");
            printf("merge job %s: after the array, writes %s (%s)\n", mid, o.out, mpath);
            fflush(stdout);
            if (o.wait)
                rc = wait_and_report(&o, mid);
        }
    }
    free(ascript);
    free(mscript);
    free(failed);
    free(o.sbatch_args);
    free(o.sets);
    return rc < 0 ? 0 : rc;
}
