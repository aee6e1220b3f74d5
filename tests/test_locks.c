/* test_locks: the three kinds of lock.h (tas, ticket, qspinlock) on the
 * simulated machine, on smp4 and numa32, each as sc, tso and weak.
 *
 *   exclusion          every CPU increments a shared counter with a plain
 *                      read and write under the lock, ROUNDS times: the
 *                      count is exact, no two holders overlap, the lock
 *                      ends free
 *   trylock            trylock fails while the lock is held and leaves it
 *                      intact, succeeds when it is free; is_locked follows;
 *                      the ticket lock's halves wrap without a carry; two
 *                      locks of one klock_nodes_t share each CPU's MCS
 *                      nodes (qspinlock), and each holds its own ticket
 *   fifo               CPU 0 holds the lock while the others arrive at
 *                      clearly different times: ticket and qspinlock hand
 *                      it over in arrival order (tas need not)
 *   local_spin         in fifo's run, just before CPU 0 releases: the
 *                      qspinlock's queued waiters (all but the pending one
 *                      and the head) hold no copy of the lock word's line,
 *                      but their own node's; the ticket lock's waiters all
 *                      hold the lock word
 *   schedulers_agree   exclusion under the reference scheduler (always
 *                      yield) gives the same acquisitions at the same cycles
 *   native             exclusion on two CPUs of this host (native machine),
 *                      NATIVE_ROUNDS each: the same code, real atomics
 *   names              lock_kind_name and lock_kind_parse
 */
#include "lock.h"
#include "mem.h"
#include "native.h"
#include "simulated.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

enum { MAXCPU = 32, ROUNDS = 20, THINK = 150, MAXSEQ = MAXCPU * ROUNDS };
enum { STAGGER = 4000, NATIVE_ROUNDS = 20000 }; /* cycles between two arrivals in fifo */

static const char *const platforms[] = {"smp4", "numa32"};
static const char *const models[] = {"sc", "tso", "weak"};

typedef enum { MODE_EXCL, MODE_FIFO, MODE_TRY } mode_t_;

typedef struct {
    lock_kind_t kind;
    const char *platform, *model;
    mode_t_ mode;
    int always_yield;
    int native; /* on this host's CPUs 0 and 1 (platform, model unused) */
} cfg_t;

/* What one run observed (piped back from the child, compared between runs). */
typedef struct {
    int ncpus, done, overlaps, unlocked, nseq;
    int seq[MAXSEQ];         /* CPUs in the order they got the lock */
    uint64_t at[MAXSEQ];     /* the cycles they got it */
    uint64_t finish[MAXCPU]; /* each CPU's last cycle */
    uint64_t count;          /* the counter at the end */
    int holds_word[MAXCPU];  /* fifo: holds the lock word's line at release */
    int holds_node[MAXCPU];  /* fifo: holds its own MCS nodes' line */
    int try_[16];            /* trylock: what each step returned */
    uint64_t wrapped;        /* trylock, ticket: the word after the wrap */
    int shared_nodes;        /* trylock: both locks name the same node lines */
} result_t;

static result_t g_r;
static cfg_t g_cfg;
static klock_t *g_lock, *g_wrap;
static klock_nodes_t *g_nodes;
static maddr_t g_counter;
static int g_holder = -1, g_rounds = ROUNDS;

static void got_it(cpu_t *c)
{
    g_r.overlaps += g_holder != -1; /* steps run in simulated order */
    g_holder = cpu_id(c);
    if (g_r.nseq < MAXSEQ) {
        g_r.seq[g_r.nseq] = cpu_id(c);
        g_r.at[g_r.nseq++] = cpu_now(c);
    }
}

static void release(cpu_t *c)
{
    g_holder = -1;
    klock_unlock(c, g_lock);
}

static void end(cpu_t *c)
{
    g_r.finish[cpu_id(c)] = cpu_now(c);
    if (__atomic_add_fetch(&g_r.done, 1, __ATOMIC_SEQ_CST) == g_r.ncpus)
        machine_stop(cpu_machine(c));
}

static void excl_prog(cpu_t *c, void *arg)
{
    (void)arg;
    for (int i = 0; i < g_rounds; i++) {
        klock_lock(c, g_lock);
        got_it(c);
        uint64_t v = cpu_read(c, g_counter);
        cpu_write(c, g_counter, v + 1);
        release(c);
        cpu_work(c, THINK + 10 * (uint64_t)cpu_id(c)); /* not in lockstep */
    }
    end(c);
}

/* CPU 0 takes the lock and holds it until every other CPU has arrived, one
 * every STAGGER cycles; then it looks at who holds which line, and lets go. */
static void fifo_prog(cpu_t *c, void *arg)
{
    (void)arg;
    int id = cpu_id(c), n = g_r.ncpus;
    if (id == 0) {
        klock_lock(c, g_lock);
        got_it(c);
        cpu_work(c, (uint64_t)(n + 4) * STAGGER);
        cpu_sync(c); /* every waiter is in its spin now */
        mem_t *mem = sim_mem(cpu_machine(c));
        for (int i = 1; i < n; i++) {
            g_r.holds_word[i] = mem_holds(mem, i, klock_word(g_lock));
            maddr_t q = klock_qnodes(g_lock, i);
            g_r.holds_node[i] = q ? mem_holds(mem, i, q) : 0;
        }
    } else {
        cpu_idle_until(c, (uint64_t)id * STAGGER);
        klock_lock(c, g_lock);
        got_it(c);
        cpu_work(c, 100);
    }
    release(c);
    end(c);
}

/* Two CPUs take turns at trylock, at cycles far apart. */
static void try_prog(cpu_t *c, void *arg)
{
    (void)arg;
    int *t = g_r.try_;
    if (cpu_id(c) == 0) {
        t[0] = klock_trylock(c, g_lock);   /* 0: free: 1 */
        t[1] = klock_is_locked(c, g_lock); /* 1 */
        cpu_idle_until(c, 20000);
        release(c);
        cpu_idle_until(c, 40000);
        t[2] = klock_trylock(c, g_lock); /* CPU 1 holds it: 0 */
        cpu_idle_until(c, 60000);
        t[3] = klock_is_locked(c, g_lock); /* free again: 0 */
        t[4] = klock_trylock(c, g_lock);   /* 1 */
        klock_unlock(c, g_lock);
        klock_lock(c, g_lock); /* a lock after all that still works */
        klock_unlock(c, g_lock);
        t[5] = klock_is_locked(c, g_lock); /* 0 */
        /* Both halves at 2^32 - 1: taking and releasing wraps them, with
         * g_lock held across it (two tickets kept at once). */
        klock_lock(c, g_lock);
        klock_lock(c, g_wrap);
        klock_unlock(c, g_lock);
        klock_unlock(c, g_wrap);
        t[6] = klock_trylock(c, g_wrap); /* 1 */
        klock_unlock(c, g_wrap);
        g_r.wrapped = cpu_read(c, klock_word(g_wrap));
    } else if (cpu_id(c) == 1) {
        cpu_idle_until(c, 10000);
        t[8] = klock_trylock(c, g_lock);   /* CPU 0 holds it: 0 */
        t[9] = klock_is_locked(c, g_lock); /* 1 */
        cpu_idle_until(c, 30000);
        t[10] = klock_trylock(c, g_lock); /* released, and intact: 1 */
        t[11] = klock_is_locked(c, g_lock);
        cpu_idle_until(c, 50000);
        klock_unlock(c, g_lock);
    }
    end(c);
}

static void setup(machine_t *m, void *arg)
{
    (void)arg;
    if (!g_cfg.native)
        sim_set_always_yield(m, g_cfg.always_yield);
    g_nodes = klock_nodes_create(m);
    g_lock = klock_create(m, g_cfg.kind, 0, g_nodes);
    g_counter = machine_alloc(m, 0, 8);
    g_r.ncpus = machine_ncpus(m);
    if (g_cfg.mode == MODE_TRY) {
        maddr_t w = machine_alloc(m, 1 % machine_platform(m)->nnodes, 8);
        if (g_cfg.kind == LOCK_TICKET)
            machine_poke(m, w, UINT64_MAX); /* next and owner at 2^32 - 1 */
        g_wrap = klock_create_at(m, g_cfg.kind, w, g_nodes);
        g_r.shared_nodes = 1;
        for (int i = 0; i < g_r.ncpus; i++)
            g_r.shared_nodes &= klock_qnodes(g_lock, i) == klock_qnodes(g_wrap, i) &&
                                (klock_qnodes(g_lock, i) != 0) == (g_cfg.kind == LOCK_QSPIN);
    }
    cpu_fn prog = g_cfg.mode == MODE_EXCL   ? excl_prog
                  : g_cfg.mode == MODE_FIFO ? fifo_prog
                                            : try_prog;
    for (int i = 0; i < g_r.ncpus; i++)
        machine_set_program(m, i, prog, NULL);
}

static void finish(machine_t *m, void *arg)
{
    (void)arg;
    g_r.count = machine_peek(m, g_counter);
    uint64_t w = machine_peek(m, klock_word(g_lock));
    /* Free: 0, but for the ticket lock, whose halves are equal. */
    g_r.unlocked = g_cfg.kind == LOCK_TICKET ? w >> 32 == (w & UINT32_MAX) : w == 0;
    klock_destroy(g_lock);
    klock_destroy(g_wrap);
    klock_nodes_destroy(g_nodes);
    g_lock = g_wrap = NULL;
    g_nodes = NULL;
}

static int child_run(void *arg)
{
    g_cfg = *(const cfg_t *)arg;
    char path[64];
    snprintf(path, sizeof path, "platforms/%s.xml", g_cfg.platform);
    platform_override_t ov = {"memory_model", (char *)g_cfg.model};
    err_t e = {{0}};
    platform_t *p = platform_read(tu_src_path(path), &ov, 1, &e);
    if (!p || p->ncpus > MAXCPU) {
        fprintf(stderr, "%s\n", p ? "too many CPUs" : e.msg);
        return 3;
    }
    machine_hooks_t hooks = {setup, finish, NULL};
    return sim_run(p, "test_locks", 1, &hooks, &e) != 0 ? 4 : 0;
}

static void run(cfg_t cfg, result_t *out)
{
    char what[96];
    snprintf(what, sizeof what, "%s on %s (%s)", lock_kind_name(cfg.kind), cfg.platform, cfg.model);
    memset(&g_r, 0, sizeof g_r);
    tu_run_in_child(child_run, &cfg, &g_r, out, sizeof *out, what);
}

/* Loop index i: kind i % 3, model (i / 3) % 3, platform i / 9. */
static cfg_t cfg_of(int i, mode_t_ mode)
{
    cfg_t c = {(lock_kind_t)(i % 3), platforms[i / 9], models[(i / 3) % 3], mode, 0, 0};
    return c;
}

START_TEST(exclusion)
{
    cfg_t cfg = cfg_of(_i, MODE_EXCL);
    result_t r;
    run(cfg, &r);
    ck_assert_int_eq(r.done, r.ncpus);
    ck_assert_int_eq(r.overlaps, 0);
    ck_assert_uint_eq(r.count, (uint64_t)r.ncpus * ROUNDS);
    ck_assert_int_eq(r.nseq, r.ncpus * ROUNDS);
    ck_assert_msg(r.unlocked, "%s on %s (%s): the lock word is not 0 at the end",
                  lock_kind_name(cfg.kind), cfg.platform, cfg.model);
}
END_TEST

START_TEST(trylock)
{
    cfg_t cfg = cfg_of(_i, MODE_TRY); /* smp4: _i < 9 */
    result_t r;
    run(cfg, &r);
    const char *k = lock_kind_name(cfg.kind);
    int want[12] = {1, 1, 0, 0, 1, 0, 1, -1, 0, 1, 1, 1};
    for (int s = 0; s < 12; s++)
        ck_assert_msg(want[s] < 0 || r.try_[s] == want[s], "%s (%s): step %d gave %d, not %d", k,
                      cfg.model, s, r.try_[s], want[s]);
    ck_assert(r.unlocked);
    ck_assert(r.shared_nodes);
    if (cfg.kind == LOCK_TICKET) /* two tickets from 2^32 - 1: both halves at 1 */
        ck_assert_uint_eq(r.wrapped, (UINT64_C(1) << 32) | 1);
    else
        ck_assert_uint_eq(r.wrapped, 0);
}
END_TEST

START_TEST(fifo)
{
    cfg_t cfg = cfg_of(_i, MODE_FIFO);
    result_t r;
    run(cfg, &r);
    const char *k = lock_kind_name(cfg.kind);
    ck_assert_int_eq(r.done, r.ncpus);
    ck_assert_int_eq(r.overlaps, 0);
    ck_assert_int_eq(r.nseq, r.ncpus);
    ck_assert(r.unlocked);
    if (cfg.kind == LOCK_TAS)
        return; /* test-and-set promises no order */
    for (int i = 0; i < r.ncpus; i++)
        ck_assert_msg(r.seq[i] == i, "%s on %s (%s): turn %d went to CPU %d, not %d", k,
                      cfg.platform, cfg.model, i, r.seq[i], i);
}
END_TEST

/* fifo's run, for the lines the waiters hold as CPU 0 lets go: CPU 1 is
 * pending and CPU 2 the queue's head (both spin on the lock word); CPUs 3 on
 * spin on their own MCS node, and lost their copy of the lock word to the
 * next arrival's xchg_tail; the last arrival keeps the one its own
 * xchg_tail left (nothing wrote the word since), and is not looked at. */
START_TEST(local_spin)
{
    cfg_t cfg = {_i % 2 ? LOCK_QSPIN : LOCK_TICKET, "numa32", models[_i / 2], MODE_FIFO, 0, 0};
    result_t r;
    run(cfg, &r);
    const char *k = lock_kind_name(cfg.kind);
    for (int i = 1; i < r.ncpus; i++) {
        if (cfg.kind == LOCK_QSPIN && i == r.ncpus - 1)
            continue; /* the last arrival's own xchg_tail left it a copy */
        int queued = cfg.kind == LOCK_QSPIN && i >= 3;
        ck_assert_msg(r.holds_word[i] == !queued,
                      "%s on %s (%s): CPU %d %s the lock word's line while waiting", k,
                      cfg.platform, cfg.model, i, r.holds_word[i] ? "holds" : "does not hold");
        if (cfg.kind == LOCK_QSPIN)
            ck_assert_msg(r.holds_node[i] == queued, "%s (%s): CPU %d: own node held %d", k,
                          cfg.model, i, r.holds_node[i]);
    }
}
END_TEST

START_TEST(schedulers_agree)
{
    cfg_t cfg = cfg_of(_i, MODE_EXCL);
    result_t fast, ref;
    run(cfg, &fast);
    cfg.always_yield = 1;
    run(cfg, &ref);
    ck_assert_int_eq(fast.nseq, ref.nseq);
    for (int i = 0; i < fast.nseq; i++)
        ck_assert_msg(fast.seq[i] == ref.seq[i] && fast.at[i] == ref.at[i],
                      "%s on %s (%s): turn %d: CPU %d at %llu, reference CPU %d at %llu",
                      lock_kind_name(cfg.kind), cfg.platform, cfg.model, i, fast.seq[i],
                      (unsigned long long)fast.at[i], ref.seq[i], (unsigned long long)ref.at[i]);
    for (int i = 0; i < fast.ncpus; i++)
        ck_assert_uint_eq(fast.finish[i], ref.finish[i]);
}
END_TEST

START_TEST(native)
{
    memset(&g_r, 0, sizeof g_r);
    g_cfg = (cfg_t){(lock_kind_t)_i, "host", "host", MODE_EXCL, 0, 1};
    g_rounds = NATIVE_ROUNDS;
    host_t *h = tu_two_host_cpus();
    machine_hooks_t hooks = {setup, finish, NULL};
    native_opts_t o = {60};
    err_t e = {{0}};
    ck_assert_msg(native_run(h, 1, &hooks, &o, &e) == 0, "%s", e.msg);
    host_close(h);
    ck_assert_int_eq(g_r.done, 2);
    ck_assert_int_eq(g_r.overlaps, 0);
    ck_assert_uint_eq(g_r.count, 2 * NATIVE_ROUNDS);
    ck_assert_msg(g_r.unlocked, "%s: the lock is not free at the end", lock_kind_name(_i));
}
END_TEST

START_TEST(names)
{
    for (int k = 0; k < LOCK_NKINDS; k++)
        ck_assert_int_eq(lock_kind_parse(lock_kind_name((lock_kind_t)k)), k);
    ck_assert_str_eq(lock_kind_name(LOCK_TAS), "tas");
    ck_assert_str_eq(lock_kind_name(LOCK_TICKET), "ticket");
    ck_assert_str_eq(lock_kind_name(LOCK_QSPIN), "qspinlock");
    ck_assert_str_eq(lock_kind_name(LOCK_NKINDS), "?");
    ck_assert_int_eq(lock_kind_parse("mcs"), -1);
    ck_assert_int_eq(lock_kind_parse(""), -1);
    ck_assert_int_eq(lock_kind_parse(NULL), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("locks");
    TCase *t = tcase_create("locks");
    tcase_add_test(t, names);
    tcase_add_loop_test(t, exclusion, 0, 18);
    tcase_add_loop_test(t, trylock, 0, 9);
    tcase_add_loop_test(t, fifo, 0, 18);
    tcase_add_loop_test(t, native, 0, LOCK_NKINDS);
    tcase_add_loop_test(t, local_spin, 0, 6); /* numa32: 2 kinds x 3 models */
    /* schedulers_agree: the three kinds on smp4 weak and numa32 weak. */
    tcase_add_loop_test(t, schedulers_agree, 6, 9);
    tcase_add_loop_test(t, schedulers_agree, 15, 18);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
