/* paje: Paje traces through SimGrid's tracing. Theory of operation.
 *
 * SimGrid stamps every state push and pop with its own clock. numasim's
 * default (baton) scheduler never advances that clock: each CPU keeps its
 * own cycle counter, and the CPUs are coroutines of one actor. The reference
 * scheduler sleeps until key = cycle * 2^k + id, so its clock is not plain
 * cycles either. Neither gives exact-cycle timestamps as the events happen,
 * and SimGrid's C API has no state call with an explicit time.
 *
 * So the CPUs only record their events (cycle, CPU, what) in memory while
 * they run, and the trace is written at the end of the simulation, still
 * inside simgrid_run(), by the boot actor once its CPU coroutines have
 * ended: it sorts the events by cycle and, for each distinct cycle t, sleeps
 * until t (sg_actor_sleep_until, the only actor left, so nothing else
 * happens) and makes the TRACE_* calls of
 * that cycle. SimGrid's clock then reads exactly t when it stamps them, and
 * SimGrid writes the file as it always does. A double holds every integer
 * below 2^53 exactly, and tracing/precision 0 writes times as integers, so
 * timestamps are exact cycles far beyond 10^10.
 *
 * Memory stays small: only the window (the first N measured calls) is kept.
 * Before the window opens, every call of the caller marks a cycle P below
 * which nothing will be shown; events before P are folded into a per-CPU
 * stack of open states (which are pushed again when the window opens), so
 * the buffer holds about one call's worth of events. Events after the
 * window are dropped as they come.
 *
 * SimGrid's state calls crash when tracing is off, and its variable calls
 * are deprecated in 3.32 (the replacement is C++ only): every TRACE_* call
 * is in this file, guarded by the recorder's existence, with the
 * deprecation warnings silenced here only.
 */
#include "paje.h"
#include "xalloc.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/instr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/config.h>

#define MAX_DEPTH 64

enum { OP_PUSH, OP_POP, OP_PROBE, OP_MISS };

/* State values and their colours ("r g b"); miss states last, in the order
 * of access_kind_t from ACCESS_UPGRADE on. */
static const char *const g_names[] = {
    "del_timer_sync", "tick",       "run_timers", "timer_fn",   "background_op",
    "spin",           "probe",      "upgrade",    "miss_local", "miss_remote",
    "c2c_node",       "c2c_remote", "code_fetch",
};
static const char *const g_colors[] = {
    "0.8 0.3 0.8", "0.2 0.7 0.2",    "0.5 0.85 0.5",  "0.6 0.6 0.2", "0.3 0.5 0.9",
    "1 0.85 0",    "0.75 0.75 0.75", "0 0.8 0.8",     "0.2 0.2 0.9", "0.9 0.5 0",
    "1 0.6 0.7",   "0.9 0 0",        "0.55 0.35 0.2",
};
#define NNAMES    ((int)(sizeof g_names / sizeof *g_names))
#define NAME_MISS 7 /* g_names index of ACCESS_UPGRADE */

typedef struct {
    uint64_t t;
    uint32_t seq;
    int32_t cpu;
    int16_t op, name;
    int32_t arg;
} ev_t;

struct paje {
    int n, calls;
    char *const *hosts;
    ev_t *ev;
    size_t nev, cap;
    uint32_t seq;
    int *live;                 /* [n] recorded depth, to catch a pop without push */
    int16_t (*stk)[MAX_DEPTH]; /* [n] states open before the window */
    int *sdepth;               /* [n] */
    int open, closed, measured, ncalls;
    uint64_t low, t0, t1; /* events before low are folded; the window [t0, t1] */
};

static const char *g_file; /* the requested trace */

static void die(const char *what)
{
    fprintf(stderr, "numasim: paje: %s\n", what);
    abort();
}

void paje_request(const char *file)
{
    g_file = file;
}

void paje_configure(void)
{
    if (!g_file)
        return;
    /* Typed setters: sg_cfg_set_string on a boolean key crashes SimGrid. */
    sg_cfg_set_boolean("tracing", "yes");
    sg_cfg_set_boolean("tracing/platform", "yes");         /* host containers */
    sg_cfg_set_boolean("tracing/platform/topology", "no"); /* crashes without links */
    sg_cfg_set_boolean("tracing/disable_power", "yes");
    sg_cfg_set_boolean("tracing/disable_link", "yes");
    sg_cfg_set_int("tracing/precision", 0); /* integer cycles: exact, and no pj_dump noise */
    sg_cfg_set_string("tracing/comment", "numasim: one time unit is one CPU cycle");
    sg_cfg_set_string("tracing/filename", g_file);
}

static int name_id(const char *name)
{
    for (int i = 0; i < NNAMES; i++)
        if (name == g_names[i] || !strcmp(name, g_names[i]))
            return i;
    fprintf(stderr, "numasim: paje: undeclared state '%s'\n", name);
    abort();
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

paje_t *paje_create(int ncpus, char *const *hosts, int calls)
{
    if (!g_file)
        return NULL;
    g_file = NULL;
    paje_t *pj = xcalloc(1, sizeof *pj);
    pj->n = ncpus;
    pj->hosts = hosts;
    pj->calls = calls > 0 ? calls : 1;
    pj->live = xcalloc((size_t)ncpus, sizeof *pj->live);
    pj->stk = xcalloc((size_t)ncpus, sizeof *pj->stk);
    pj->sdepth = xcalloc((size_t)ncpus, sizeof *pj->sdepth);
    TRACE_host_state_declare("CPU");
    for (int i = 0; i < NNAMES; i++)
        TRACE_host_state_declare_value("CPU", g_names[i], g_colors[i]);
    TRACE_host_variable_declare_with_color("misses", "1 0 0");
    TRACE_host_variable_declare_with_color("probed_cpu", "0 0 1");
    return pj;
}

void paje_destroy(paje_t *pj)
{
    if (!pj)
        return;
    free(pj->ev);
    free(pj->live);
    free(pj->stk);
    free(pj->sdepth);
    free(pj);
}

/* --- recording --- */

static void fold(paje_t *pj, const ev_t *e)
{
    int *d = &pj->sdepth[e->cpu];
    if (e->op == OP_POP) {
        if (*d == 0)
            die("a pop without a push");
        (*d)--;
    } else if (*d < MAX_DEPTH) {
        pj->stk[e->cpu][(*d)++] = e->name;
    } else {
        die("states nest too deep");
    }
}

static void record(paje_t *pj, int cpu, uint64_t t, int op, int name, int arg)
{
    if (op == OP_POP && --pj->live[cpu] < 0)
        die("a pop without a push");
    if (op != OP_POP)
        pj->live[cpu]++;
    ev_t e = {t, pj->seq++, cpu, (int16_t)op, (int16_t)name, arg};
    if (pj->closed && t > pj->t1)
        return;
    if (t < pj->low) {
        fold(pj, &e);
        return;
    }
    if (pj->nev == pj->cap) {
        pj->cap = pj->cap ? 2 * pj->cap : 4096;
        pj->ev = xrealloc(pj->ev, pj->cap * sizeof *pj->ev);
    }
    pj->ev[pj->nev++] = e;
}

/* Folds every buffered event before low (they are in record order, which is
 * each CPU's own order). */
static void compact(paje_t *pj, uint64_t low)
{
    pj->low = low;
    size_t k = 0;
    for (size_t i = 0; i < pj->nev; i++) {
        if (pj->ev[i].t < low)
            fold(pj, &pj->ev[i]);
        else
            pj->ev[k++] = pj->ev[i];
    }
    pj->nev = k;
}

void paje_push(paje_t *pj, int cpu, uint64_t t, const char *name)
{
    record(pj, cpu, t, OP_PUSH, name_id(name), 0);
}

void paje_pop(paje_t *pj, int cpu, uint64_t t)
{
    record(pj, cpu, t, OP_POP, 0, 0);
}

void paje_probe(paje_t *pj, int cpu, uint64_t t, int target)
{
    record(pj, cpu, t, OP_PROBE, name_id("probe"), target);
}

void paje_miss(paje_t *pj, int cpu, uint64_t t, access_kind_t kind, uint32_t cost)
{
    if (kind < ACCESS_UPGRADE || kind >= ACCESS_NKINDS)
        return; /* hits are not shown */
    record(pj, cpu, t, OP_MISS, NAME_MISS + (int)(kind - ACCESS_UPGRADE), 0);
    record(pj, cpu, t + cost, OP_POP, 0, 0);
}

void paje_code(paje_t *pj, int cpu, uint64_t t, uint32_t cost)
{
    if (!cost)
        return; /* an l1i hit is inside the instructions' own cycles */
    record(pj, cpu, t, OP_MISS, name_id("code_fetch"), 0);
    record(pj, cpu, t + cost, OP_POP, 0, 0);
}

void paje_call_begin(paje_t *pj, int cpu, uint64_t t, int measured)
{
    if (!pj->open && !pj->closed) {
        if (measured) {
            pj->open = 1;
            pj->t0 = pj->t1 = t;
        }
        compact(pj, t);
    }
    pj->measured = measured;
    record(pj, cpu, t, OP_PUSH, 0, 0);
}

void paje_call_end(paje_t *pj, int cpu, uint64_t t)
{
    record(pj, cpu, t, OP_POP, 0, 0);
    if (pj->open && pj->measured) {
        pj->t1 = t;
        if (++pj->ncalls == pj->calls) {
            pj->open = 0;
            pj->closed = 1;
        }
    }
}

/* --- writing --- */

static int cmp_ev(const void *a, const void *b)
{
    const ev_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void at(uint64_t t)
{
    if ((double)t > simgrid_get_clock())
        sg_actor_sleep_until((double)t);
}

void paje_emit(paje_t *pj)
{
    if (!pj || (!pj->open && !pj->closed))
        return; /* no measured call: the declarations only */
    qsort(pj->ev, pj->nev, sizeof *pj->ev, cmp_ev);
    size_t i = 0;
    while (i < pj->nev && pj->ev[i].t < pj->t0)
        fold(pj, &pj->ev[i++]);
    if (simgrid_get_clock() > (double)pj->t0)
        die("SimGrid's clock is past the window (the reference scheduler cannot trace)");
    at(pj->t0);
    int *depth = pj->sdepth; /* from here: the depth written so far */
    for (int c = 0; c < pj->n; c++) {
        TRACE_host_variable_set(pj->hosts[c], "misses", 0);
        for (int k = 0; k < depth[c]; k++)
            TRACE_host_push_state(pj->hosts[c], "CPU", g_names[pj->stk[c][k]]);
    }
    for (; i < pj->nev && pj->ev[i].t <= pj->t1; i++) {
        const ev_t *e = &pj->ev[i];
        const char *h = pj->hosts[e->cpu];
        at(e->t);
        if (e->op == OP_POP) {
            if (depth[e->cpu] == 0)
                die("a pop without a push");
            depth[e->cpu]--;
            TRACE_host_pop_state(h, "CPU");
            continue;
        }
        depth[e->cpu]++;
        TRACE_host_push_state(h, "CPU", g_names[e->name]);
        if (e->op == OP_PROBE)
            TRACE_host_variable_set(h, "probed_cpu", e->arg);
        else if (e->op == OP_MISS)
            TRACE_host_variable_add(h, "misses", 1);
    }
    at(pj->t1);
    for (int c = 0; c < pj->n; c++)
        for (; depth[c] > 0; depth[c]--)
            TRACE_host_pop_state(pj->hosts[c], "CPU");
    pj->nev = 0;
}

#pragma GCC diagnostic pop
