/* litmus: litmus tests in the C format of the Linux kernel memory model
 * (tools/memory-model/litmus-tests/), parsed (litmus_parse.c) and
 * run many times on a machine (litmus_run.c).
 *
 * The dialect: a "C NAME" header, comments (* ... *), / * ... * / and //
 * anywhere (in a process, "(*" opens a comment only before a blank: "(*x"
 * is a dereference), an init block "{ x=0; int *p = &y; q=y; atomic_t v =
 * ATOMIC_INIT(1); }", processes "P0(int *x, int **p, spinlock_t *l,
 * atomic_t *v) { int r0; int *r1; ... }" whose statements are WRITE_ONCE,
 * READ_ONCE, smp_store_release, smp_load_acquire, rcu_dereference,
 * rcu_assign_pointer (through a shared variable or a local that holds a
 * pointer: READ_ONCE(*r1)), smp_mb, smp_wmb, smp_rmb, smp_mb__before_atomic,
 * smp_mb__after_atomic, smp_mb__after_spinlock, xchg, cmpxchg, the atomic_t
 * operations (atomic_read, atomic_set, atomic_add/sub/inc/dec, their
 * _return and fetch_ forms, atomic_xchg, atomic_cmpxchg, atomic_add_unless,
 * atomic_inc_not_zero, ...; the RMWs that return a value with their
 * _relaxed, _acquire, _release forms), spin_lock, spin_unlock, spin_trylock,
 * spin_is_locked, rcu_read_lock, rcu_read_unlock, synchronize_rcu,
 * "(void)CALL", assignments of expressions over locals, and if/else on
 * them; then "locations [0:r1; x]" (printed with the state), "filter
 * COND" (runs that fail it are not counted) and one clause "exists",
 * "~exists" or "forall" over registers (1:r0=1, 1:r0=x: a pointer) and final
 * values (x=2, p=y) with /\, \/, ~ and parentheses.
 *
 * A pointer is a value like any other: LIT_PTR(v), v the variable's index,
 * written and read through the machine like an int, and mapped to the
 * variable's address when an access goes through it.
 */
#ifndef NUMASIM_LITMUS_H
#define NUMASIM_LITMUS_H

#include "cpu.h"
#include "err.h"

#include <stdint.h>
#include <stdio.h>

enum { LIT_MAXPROC = 16, LIT_MAXREG = 16, LIT_MAXVAR = 32 };

/* The value of a pointer to variable v (&v): far from any int a test
 * writes. */
#define LIT_PTR_BASE ((int64_t)0x4c49540000000000) /* "LIT" */
#define LIT_PTR(v)   (LIT_PTR_BASE + (int64_t)(v))

typedef enum { LE_CONST, LE_REG, LE_NOT, LE_NEG, LE_BIN } lit_ekind_t;
typedef struct {
    lit_ekind_t kind;
    int op;   /* LE_BIN: '+', '-', '*', '&', '|', '^', 'E' (==), 'N' (!=), '<', '>', 'A', 'O' */
    int a, b; /* operands (expression indices) */
    int64_t v;
    int reg;
} lit_expr_t;

/* The instructions up to LI_ISLOCKED (LI_FENCE excepted) access a variable:
 * var, or (preg >= 0) the variable whose pointer local preg holds. */
typedef enum {
    LI_LOAD,      /* reg (or -1) = load var (order) */
    LI_STORE,     /* store var = e1 (order) */
    LI_FENCE,     /* kind: CPU_MB, CPU_WMB, CPU_RMB (machine_backend.h values 0..2) */
    LI_XCHG,      /* reg (or -1) = xchg(var, e1) */
    LI_CMPXCHG,   /* reg (or -1) = cmpxchg(var, e1, e2) */
    LI_LOCK,      /* spin_lock(var) */
    LI_UNLOCK,    /* spin_unlock(var) */
    LI_FADD,      /* reg (or -1) = atomic add of e1 to var; kind: LIT_FADD_* */
    LI_ADDUNLESS, /* reg (or -1) = atomic_add_unless(var, e1, e2) */
    LI_TRYLOCK,   /* reg (or -1) = spin_trylock(var) */
    LI_ISLOCKED,  /* reg (or -1) = spin_is_locked(var) */
    LI_ASSIGN,    /* reg = e1 */
    LI_JZ,        /* if e1 == 0 goto target */
    LI_JMP,
    LI_RCU_LOCK,   /* rcu_read_lock() */
    LI_RCU_UNLOCK, /* rcu_read_unlock() */
    LI_SYNC_RCU    /* synchronize_rcu() */
} lit_op_t;

/* What LI_FADD returns: the old value, the new one, or whether the new one
 * is 0 (atomic_dec_and_test). */
enum { LIT_FADD_OLD, LIT_FADD_NEW, LIT_FADD_ZERO };

/* Whether instruction op accesses a variable (var or through preg). */
#define LIT_OP_HAS_VAR(op) ((op) <= LI_ISLOCKED && (op) != LI_FENCE)

typedef struct {
    lit_op_t op;
    int reg, var, e1, e2, target, kind;
    int preg; /* >= 0: the access goes through the pointer in this local */
    int line; /* in the test's file */
    cpu_order_t order;
} lit_insn_t;

typedef struct {
    int nregs;
    char *reg[LIT_MAXREG];
    lit_insn_t *code;
    int ncode;
} lit_proc_t;

/* The final condition: a tree of atoms (proc:reg=v or var=v). */
typedef enum { LC_ATOM, LC_NOT, LC_AND, LC_OR } lit_ckind_t;
typedef struct {
    lit_ckind_t kind;
    int a, b;
    int proc; /* -1: a variable */
    int idx;  /* register or variable index */
    int64_t v;
} lit_cond_t;

typedef enum { LQ_EXISTS, LQ_NOT_EXISTS, LQ_FORALL } lit_quant_t;

typedef struct {
    char *name;
    char *path; /* the file it was read from */
    int nvars;
    char *var[LIT_MAXVAR];
    int64_t init[LIT_MAXVAR];
    int nprocs;
    lit_proc_t proc[LIT_MAXPROC];
    lit_expr_t *expr;
    int nexpr;
    lit_cond_t *cond;
    int ncond, root;
    lit_quant_t quant;
    int filter;   /* the root of the filter condition, + 1 (0: none) */
    char *expect; /* the text after "numasim-expect:" in a comment, or NULL */
    char *result; /* the kernel's "Result: Never" (Sometimes, Always), or NULL */
    int rcu;      /* a process uses RCU */
} litmus_t;

/* Parses the test in text (len bytes; need not end in NUL) read from path.
 * Returns a test the caller frees with litmus_free(), or NULL with e
 * filled ("PATH:LINE: message"). */
litmus_t *litmus_parse(const char *path, const char *text, size_t len, err_t *e);
litmus_t *litmus_read(const char *path, err_t *e);
void litmus_free(litmus_t *t);

/* Does the final state (regs[p][r], vals[v]) satisfy the proposition?
 * litmus_filter: the filter (1 without one). */
int litmus_holds(const litmus_t *t, const int64_t (*regs)[LIT_MAXREG], const int64_t *vals);
int litmus_filter(const litmus_t *t, const int64_t (*regs)[LIT_MAXREG], const int64_t *vals);
/* The variable whose pointer v is (LIT_PTR), or -1. */
int litmus_ptr_var(const litmus_t *t, int64_t v);
/* Evaluates expression i over registers regs. */
int64_t litmus_eval(const litmus_t *t, int i, const int64_t *regs);

/* What a run of the test gave, state by state. */
typedef struct {
    char *state; /* "0:r0=1; 1:r0=0; x=1;" over what the condition names */
    uint64_t count;
    int holds;
} lit_state_t;

typedef struct {
    lit_state_t *s;
    int n;
    uint64_t runs, positive;
} lit_hist_t;

/* A grace period's cost (litmus_grace_period). */
enum { LIT_GP_ROUNDS = 8 };
typedef struct {
    int ncpus;                      /* the CPUs it waited on, its own included */
    uint64_t cycles[LIT_GP_ROUNDS]; /* each grace period's, on the updater's clock */
} lit_gp_t;

typedef struct {
    uint64_t runs;
    unsigned long seed;
    const char *platform; /* simulated: the platform file */
    const char *set[16];  /* "NAME=VALUE" platform overrides */
    int nset;
    int native;
    const char *cpus; /* the CPUs (native: host CPUs), a list like "0,2-3"; NULL:
                       * simulated, spread over the platform; native, all */
    const char *argv0;
    lit_gp_t *gp; /* litmus_grace_period's, NULL for a test */
} lit_opts_t;

/* Parses a CPU list like "0,2-3" (--cpus) into its CPUs in ascending
 * order, each once: the first max of them into cpus, the highest into
 * *highest. Returns how many there are (all of them, even past max), or -1
 * with e filled (one line, "--cpus: ..."). */
int litmus_parse_cpus(const char *list, int *cpus, int max, int *highest, err_t *e);

/* Runs t opts->runs times and fills h (free with litmus_hist_free).
 * Returns 0, or -1 with e filled. One simulated machine per call (SimGrid:
 * call it in a child process when running several tests). */
int litmus_run(const litmus_t *t, const lit_opts_t *opts, lit_hist_t *h, err_t *e);
void litmus_hist_free(lit_hist_t *h);

/* Measures LIT_GP_ROUNDS grace periods on the machine opts gives (the
 * platform, or natively the host): every CPU has an RCU slot and enters and
 * leaves one read-side critical section before each grace period (its slot
 * line is then its own, modified), CPU 0 runs synchronize_rcu after them,
 * with no reader inside. Returns 0 with gp filled, or -1 with e. One
 * machine per call, as litmus_run. */
int litmus_grace_period(const lit_opts_t *opts, lit_gp_t *gp, err_t *e);
/* Prints the histogram and the Observation line, as herd7/klitmus7 do. */
void litmus_print(const litmus_t *t, const lit_hist_t *h, FILE *f);

#endif
