/* litmus_parse: the C litmus format of the kernel's memory model, the
 * subset of litmus.h. Theory of operation.
 *
 * The lexer (litmus_lex.c) feeds a recursive-descent parser. Each process
 * compiles to a flat list of instructions (litmus.h) with jumps for if/else;
 * its expressions and the final condition are parsed by litmus_expr.c into
 * pools indexed by int. The first error stops the parse: one "PATH:LINE:
 * message".
 */
#include "litmus.h"
#include "litmus_expr.h"
#include "litmus_lex.h"

#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- statements --- */

static int emit(lex_t *L, lit_insn_t in)
{
    lit_proc_t *p = &L->t->proc[L->proc];
    p->code = xrealloc(p->code, sizeof *p->code * (size_t)(p->ncode + 1));
    p->code[p->ncode] = in;
    return p->ncode++;
}

/* A shared variable: "x" (deref: "*x") that P's parameters declare, into
 * in->var; or a local that holds a pointer ("*r0", "r0"), into in->preg.
 * Returns 0 or -1. */
static int var_ref(lex_t *L, int deref, lit_insn_t *in)
{
    if (deref && lex_expect(L, "*") < 0)
        return -1;
    if (L->tok != T_ID)
        return lex_fail(L, "expected a shared variable, found '%s'",
                        L->tok == T_EOF ? "end of file" : L->text);
    const lit_proc_t *p = &L->t->proc[L->proc];
    int r = lex_find(p->reg, p->nregs, L->text);
    if (r >= 0) {
        if (!L->regptr[r])
            return lex_fail(L, "local '%s' is not a pointer (declare it 'int *%s')", L->text,
                            L->text);
        in->preg = r;
        in->var = 0;
        lex_next(L);
        return 0;
    }
    int v = lex_find(L->t->var, L->t->nvars, L->text);
    if (v < 0 || !L->pvar[v])
        return lex_fail(L, "'%s' is not declared in P%d's parameters", L->text, L->proc);
    in->var = v;
    lex_next(L);
    return 0;
}

enum {
    CF_VOID = 1,     /* no value: a statement only */
    CF_VARIANTS = 2, /* takes _relaxed, _acquire, _release */
    CF_NEG = 4,      /* the operand is negated (atomic_sub) */
    CF_ONE = 8,      /* the operand is 1 (atomic_inc) */
    CF_MONE = 16,    /* the operand is -1 (atomic_dec) */
    CF_UNLESS0 = 32  /* e1 = 1, e2 = 0 (atomic_inc_not_zero) */
};

/* The calls on shared variables. args: D a variable through '*' (*x), N a
 * variable as a pointer (x), E an expression (the first goes to e1, the
 * second to e2). */
static const struct {
    const char *name;
    lit_op_t op;
    cpu_order_t order;
    const char *args;
    int kind, flags;
} kCalls[] = {
    {"READ_ONCE", LI_LOAD, CPU_RELAXED, "D", 0, 0},
    {"smp_load_acquire", LI_LOAD, CPU_ACQUIRE, "N", 0, 0},
    {"rcu_dereference", LI_LOAD, CPU_RELAXED, "D", 0, 0},
    {"atomic_read", LI_LOAD, CPU_RELAXED, "N", 0, 0},
    {"atomic_read_acquire", LI_LOAD, CPU_ACQUIRE, "N", 0, 0},
    {"spin_is_locked", LI_ISLOCKED, CPU_RELAXED, "N", 0, 0},
    {"spin_trylock", LI_TRYLOCK, CPU_ACQUIRE, "N", 0, 0},
    {"WRITE_ONCE", LI_STORE, CPU_RELAXED, "DE", 0, CF_VOID},
    {"smp_store_release", LI_STORE, CPU_RELEASE, "NE", 0, CF_VOID},
    {"rcu_assign_pointer", LI_STORE, CPU_RELEASE, "DE", 0, CF_VOID},
    {"atomic_set", LI_STORE, CPU_RELAXED, "NE", 0, CF_VOID},
    {"atomic_set_release", LI_STORE, CPU_RELEASE, "NE", 0, CF_VOID},
    {"spin_lock", LI_LOCK, CPU_ACQUIRE, "N", 0, CF_VOID},
    {"spin_unlock", LI_UNLOCK, CPU_RELEASE, "N", 0, CF_VOID},
    {"xchg", LI_XCHG, CPU_FULL, "NE", 0, CF_VARIANTS},
    {"cmpxchg", LI_CMPXCHG, CPU_FULL, "NEE", 0, CF_VARIANTS},
    {"atomic_xchg", LI_XCHG, CPU_FULL, "NE", 0, CF_VARIANTS},
    {"atomic_cmpxchg", LI_CMPXCHG, CPU_FULL, "NEE", 0, CF_VARIANTS},
    {"atomic_add", LI_FADD, CPU_RELAXED, "EN", LIT_FADD_OLD, CF_VOID},
    {"atomic_sub", LI_FADD, CPU_RELAXED, "EN", LIT_FADD_OLD, CF_VOID | CF_NEG},
    {"atomic_inc", LI_FADD, CPU_RELAXED, "N", LIT_FADD_OLD, CF_VOID | CF_ONE},
    {"atomic_dec", LI_FADD, CPU_RELAXED, "N", LIT_FADD_OLD, CF_VOID | CF_MONE},
    {"atomic_add_return", LI_FADD, CPU_FULL, "EN", LIT_FADD_NEW, CF_VARIANTS},
    {"atomic_sub_return", LI_FADD, CPU_FULL, "EN", LIT_FADD_NEW, CF_VARIANTS | CF_NEG},
    {"atomic_inc_return", LI_FADD, CPU_FULL, "N", LIT_FADD_NEW, CF_VARIANTS | CF_ONE},
    {"atomic_dec_return", LI_FADD, CPU_FULL, "N", LIT_FADD_NEW, CF_VARIANTS | CF_MONE},
    {"atomic_fetch_add", LI_FADD, CPU_FULL, "EN", LIT_FADD_OLD, CF_VARIANTS},
    {"atomic_fetch_sub", LI_FADD, CPU_FULL, "EN", LIT_FADD_OLD, CF_VARIANTS | CF_NEG},
    {"atomic_fetch_inc", LI_FADD, CPU_FULL, "N", LIT_FADD_OLD, CF_VARIANTS | CF_ONE},
    {"atomic_fetch_dec", LI_FADD, CPU_FULL, "N", LIT_FADD_OLD, CF_VARIANTS | CF_MONE},
    {"atomic_inc_and_test", LI_FADD, CPU_FULL, "N", LIT_FADD_ZERO, CF_ONE},
    {"atomic_dec_and_test", LI_FADD, CPU_FULL, "N", LIT_FADD_ZERO, CF_MONE},
    {"atomic_sub_and_test", LI_FADD, CPU_FULL, "EN", LIT_FADD_ZERO, CF_NEG},
    {"atomic_add_unless", LI_ADDUNLESS, CPU_FULL, "NEE", 0, 0},
    {"atomic_inc_not_zero", LI_ADDUNLESS, CPU_FULL, "N", 0, CF_UNLESS0},
};

static int const_expr(lex_t *L, int64_t v)
{
    lit_expr_t x = {.kind = LE_CONST, .v = v};
    litmus_t *t = L->t;
    t->expr = xrealloc(t->expr, sizeof *t->expr * (size_t)(t->nexpr + 1));
    t->expr[t->nexpr] = x;
    return t->nexpr++;
}

/* The call at L (the name read, not consumed), for reg (-1: its value is
 * dropped). Returns 0, -1 (failed) or 1 (no such call). */
static int value_call(lex_t *L, int reg)
{
    static const struct {
        const char *suffix;
        cpu_order_t order;
    } kVariants[] = {
        {"_relaxed", CPU_RELAXED}, {"_acquire", CPU_ACQUIRE}, {"_release", CPU_RELEASE}};
    for (size_t k = 0; k < sizeof kCalls / sizeof *kCalls; k++) {
        size_t nl = strlen(kCalls[k].name);
        cpu_order_t order = kCalls[k].order;
        if (strncmp(L->text, kCalls[k].name, nl))
            continue;
        if (L->text[nl]) {
            size_t v = 0, nv = sizeof kVariants / sizeof *kVariants;
            while (v < nv && strcmp(L->text + nl, kVariants[v].suffix))
                v++;
            if (v == nv || !(kCalls[k].flags & CF_VARIANTS))
                continue;
            order = kVariants[v].order;
        }
        int flags = kCalls[k].flags;
        if (reg >= 0 && (flags & CF_VOID))
            return lex_fail(L, "%s() has no value to assign", kCalls[k].name);
        lit_insn_t in = {.op = kCalls[k].op,
                         .reg = reg,
                         .order = order,
                         .kind = kCalls[k].kind,
                         .preg = -1,
                         .e1 = -1,
                         .e2 = -1,
                         .line = L->tline};
        lex_next(L);
        if (lex_expect(L, "(") < 0)
            return -1;
        for (const char *a = kCalls[k].args; *a; a++) {
            if (a != kCalls[k].args && lex_expect(L, ",") < 0)
                return -1;
            if (*a == 'E') {
                int x = litmus_parse_expr(L);
                if (x < 0)
                    return -1;
                if (in.e1 < 0)
                    in.e1 = x;
                else
                    in.e2 = x;
            } else if (var_ref(L, *a == 'D', &in) < 0) {
                return -1;
            }
        }
        if (lex_expect(L, ")") < 0)
            return -1;
        if (flags & (CF_ONE | CF_MONE | CF_UNLESS0))
            in.e1 = const_expr(L, flags & CF_MONE ? -1 : 1);
        if (flags & CF_UNLESS0)
            in.e2 = const_expr(L, 0);
        if (flags & CF_NEG) {
            lit_expr_t x = {.kind = LE_NEG, .a = in.e1};
            litmus_t *t = L->t;
            t->expr = xrealloc(t->expr, sizeof *t->expr * (size_t)(t->nexpr + 1));
            t->expr[t->nexpr] = x;
            in.e1 = t->nexpr++;
        }
        emit(L, in);
        return 0;
    }
    return 1; /* not such a call */
}

/* The statements without operands: the barriers and RCU. */
static const struct {
    const char *name;
    lit_op_t op;
    int kind;
} kBare[] = {
    {"smp_mb", LI_FENCE, 0},
    {"smp_wmb", LI_FENCE, 1},
    {"smp_rmb", LI_FENCE, 2},
    /* Full barriers: our RMWs without a value are relaxed, and our lock
     * is an acquire RMW (spinlock.c), as on the architectures where Linux
     * makes these smp_mb(). */
    {"smp_mb__before_atomic", LI_FENCE, 0},
    {"smp_mb__after_atomic", LI_FENCE, 0},
    {"smp_mb__after_spinlock", LI_FENCE, 0},
    {"smp_mb__after_unlock_lock", LI_FENCE, 0},
    {"rcu_read_lock", LI_RCU_LOCK, 0},
    {"rcu_read_unlock", LI_RCU_UNLOCK, 0},
    {"synchronize_rcu", LI_SYNC_RCU, 0},
    {"synchronize_rcu_expedited", LI_SYNC_RCU, 0},
};

/* Whether the token is a type word (int, spinlock_t, ...). */
static int is_type(const lex_t *L)
{
    static const char *const kTypes[] = {
        "int",     "long",     "unsigned",  "signed",     "char",     "short",         "bool",
        "u8",      "u16",      "u32",       "u64",        "s8",       "s16",           "s32",
        "s64",     "intptr_t", "uintptr_t", "spinlock_t", "atomic_t", "atomic_long_t", "const",
        "volatile"};
    if (L->tok != T_ID)
        return 0;
    for (size_t k = 0; k < sizeof kTypes / sizeof *kTypes; k++)
        if (!strcmp(L->text, kTypes[k]))
            return 1;
    return 0;
}

/* Skips a type (its words and its stars); returns the number of stars. */
static int skip_type(lex_t *L)
{
    int stars = 0;
    while (is_type(L))
        lex_next(L);
    while (lex_is(L, "*")) {
        stars++;
        lex_next(L);
    }
    return stars;
}

static int statement(lex_t *L);

static int block_or_statement(lex_t *L)
{
    if (!lex_is(L, "{"))
        return statement(L);
    lex_next(L);
    while (!L->failed && !lex_is(L, "}")) {
        if (L->tok == T_EOF)
            return lex_fail(L, "missing '}' at the end of P%d", L->proc);
        statement(L);
    }
    return lex_expect(L, "}");
}

static int statement(lex_t *L)
{
    if (L->failed)
        return -1;
    lit_proc_t *p = &L->t->proc[L->proc];
    if (lex_is(L, ";")) {
        lex_next(L);
        return 0;
    }
    if (lex_is(L, "if")) {
        lex_next(L);
        if (lex_expect(L, "(") < 0)
            return -1;
        int c = litmus_parse_expr(L);
        if (c < 0 || lex_expect(L, ")") < 0)
            return -1;
        int jz = emit(L, (lit_insn_t){.op = LI_JZ, .e1 = c, .preg = -1});
        if (block_or_statement(L) < 0)
            return -1;
        if (lex_is(L, "else")) {
            lex_next(L);
            int jmp = emit(L, (lit_insn_t){.op = LI_JMP, .preg = -1});
            p->code[jz].target = p->ncode;
            if (block_or_statement(L) < 0)
                return -1;
            p->code[jmp].target = p->ncode;
        } else {
            p->code[jz].target = p->ncode;
        }
        return 0;
    }
    if (lex_is(L, "(")) { /* (void)CALL; */
        lex_next(L);
        if (lex_expect(L, "void") < 0 || lex_expect(L, ")") < 0)
            return -1;
        if (L->tok != T_ID)
            return lex_fail(L, "expected a call after '(void)'");
        int k = value_call(L, -1);
        if (k == 1)
            return lex_fail(L, "'%s' is not a call with a value", L->text);
        return k < 0 ? -1 : lex_expect(L, ";");
    }
    if (L->tok != T_ID)
        return lex_fail(L, "expected a statement, found '%s'",
                        L->tok == T_EOF ? "end of file" : L->text);
    char name[128];
    snprintf(name, sizeof name, "%s", L->text);
    if (is_type(L))
        return lex_fail(L, "declarations of locals must come first in P%d", L->proc);
    int r = lex_find(p->reg, p->nregs, name);
    if (r >= 0) { /* rN = ...; */
        lex_next(L);
        if (lex_expect(L, "=") < 0)
            return -1;
        int k = L->tok == T_ID ? value_call(L, r) : 1;
        if (k < 0)
            return -1;
        if (k == 1) {
            int x = litmus_parse_expr(L);
            if (x < 0)
                return -1;
            emit(L, (lit_insn_t){.op = LI_ASSIGN, .reg = r, .e1 = x, .preg = -1, .line = L->tline});
        }
        return lex_expect(L, ";");
    }
    int k = value_call(L, -1);
    if (k < 0)
        return -1;
    if (k == 0)
        return lex_expect(L, ";");
    for (size_t b = 0; b < sizeof kBare / sizeof *kBare; b++)
        if (!strcmp(name, kBare[b].name)) {
            lit_insn_t in = {
                .op = kBare[b].op, .kind = kBare[b].kind, .reg = -1, .preg = -1, .line = L->tline};
            lex_next(L);
            if (lex_expect(L, "(") < 0 || lex_expect(L, ")") < 0 || lex_expect(L, ";") < 0)
                return -1;
            if (in.op >= LI_RCU_LOCK)
                L->t->rcu = 1;
            emit(L, in);
            return 0;
        }
    return lex_fail(L, "unknown macro or statement '%s'", name);
}

static int add_var(lex_t *L, const char *name)
{
    litmus_t *t = L->t;
    int v = lex_find(t->var, t->nvars, name);
    if (v >= 0)
        return v;
    if (t->nvars == LIT_MAXVAR)
        return lex_fail(L, "more than %d shared variables", LIT_MAXVAR);
    t->var[t->nvars] = xstrdup(name);
    return t->nvars++;
}

static int process(lex_t *L)
{
    litmus_t *t = L->t;
    int n = atoi(L->text + 1);
    if (n != t->nprocs)
        return lex_fail(L, "expected P%d, found %s", t->nprocs, L->text);
    if (t->nprocs == LIT_MAXPROC)
        return lex_fail(L, "more than %d processes", LIT_MAXPROC);
    L->proc = t->nprocs++;
    memset(L->pvar, 0, sizeof L->pvar);
    memset(L->regptr, 0, sizeof L->regptr);
    lit_proc_t *p = &t->proc[L->proc];
    L->in_code = 1;
    lex_next(L);
    if (lex_expect(L, "(") < 0)
        return -1;
    while (!L->failed && !lex_is(L, ")")) {
        if (!is_type(L))
            return lex_fail(L, "a parameter must be 'TYPE *NAME' (int, spinlock_t, atomic_t, ...)");
        if (skip_type(L) < 1)
            return lex_fail(L, "a parameter must be a pointer, 'TYPE *NAME'");
        if (L->tok != T_ID)
            return lex_fail(L, "expected a parameter name");
        int v = add_var(L, L->text);
        if (v < 0)
            return -1;
        L->pvar[v] = 1;
        lex_next(L);
        if (lex_is(L, ","))
            lex_next(L);
        else if (!lex_is(L, ")"))
            return lex_fail(L, "expected ',' or ')' in P%d's parameters", L->proc);
    }
    if (lex_expect(L, ")") < 0)
        return -1;
    if (!lex_is(L, "{"))
        return lex_fail(L, "P%d has no body", L->proc);
    lex_next(L);
    while (is_type(L)) {
        while (is_type(L))
            lex_next(L);
        for (;;) {
            int stars = 0;
            while (lex_is(L, "*")) {
                stars++;
                lex_next(L);
            }
            if (L->tok != T_ID)
                return lex_fail(L, "expected a local name");
            if (lex_find(p->reg, p->nregs, L->text) >= 0)
                return lex_fail(L, "local '%s' declared twice", L->text);
            if (p->nregs == LIT_MAXREG)
                return lex_fail(L, "more than %d locals in P%d", LIT_MAXREG, L->proc);
            L->regptr[p->nregs] = stars > 0;
            p->reg[p->nregs++] = xstrdup(L->text);
            lex_next(L);
            if (lex_is(L, "=")) {
                lex_next(L);
                int x = litmus_parse_expr(L);
                if (x < 0)
                    return -1;
                emit(L, (lit_insn_t){.op = LI_ASSIGN, .reg = p->nregs - 1, .e1 = x, .preg = -1});
            }
            if (lex_is(L, ";"))
                break;
            if (lex_expect(L, ",") < 0)
                return -1;
        }
        lex_next(L);
    }
    while (!L->failed && !lex_is(L, "}")) {
        if (L->tok == T_EOF)
            return lex_fail(L, "missing '}' at the end of P%d", L->proc);
        statement(L);
    }
    L->in_code = 0; /* the token after '}' may be a comment */
    return lex_expect(L, "}");
}

/* --- the file --- */

static int init_block(lex_t *L)
{
    if (lex_expect(L, "{") < 0)
        return -1;
    while (!L->failed && !lex_is(L, "}")) {
        skip_type(L);
        if (L->tok != T_ID)
            return lex_fail(L, "expected 'NAME=VALUE;' in the init block, found '%s'",
                            L->tok == T_EOF ? "end of file" : L->text);
        int v = add_var(L, L->text);
        if (v < 0)
            return -1;
        lex_next(L);
        if (lex_is(L, "=")) {
            lex_next(L);
            int init = lex_is(L, "ATOMIC_INIT");
            if (init) {
                lex_next(L);
                if (lex_expect(L, "(") < 0)
                    return -1;
            }
            if (lex_is(L, "&"))
                lex_next(L);
            if (L->tok == T_ID && add_var(L, L->text) < 0) /* p=y: y may be new */
                return -1;
            if (L->tok != T_INT && L->tok != T_ID && !lex_is(L, "-"))
                return lex_fail(L, "the initial value of '%s' must be a number or a variable",
                                L->t->var[v]);
            if (litmus_parse_value(L, &L->t->init[v]) < 0)
                return -1;
            if (init && lex_expect(L, ")") < 0)
                return -1;
        }
        if (lex_expect(L, ";") < 0)
            return -1;
    }
    return lex_expect(L, "}");
}

litmus_t *litmus_parse(const char *path, const char *text, size_t len, err_t *e)
{
    litmus_t *t = xcalloc(1, sizeof *t);
    t->path = xstrdup(path);
    lex_t L = {.path = path, .s = text, .n = len, .line = 1, .e = e, .t = t};
    for (size_t k = 0; k < len; k++)
        if (!text[k]) {
            L.n = k; /* text ends at a NUL */
            break;
        }
    lex_next(&L);
    if (!lex_is(&L, "C"))
        lex_fail(&L, "a litmus test starts with 'C NAME' (only C tests are supported)");
    else {
        /* The name is any run of non-blank characters (2+2W, SB+mbs). */
        while (L.i < L.n && (L.s[L.i] == ' ' || L.s[L.i] == '\t'))
            L.i++;
        size_t k = L.i;
        while (k < L.n && !isspace((unsigned char)L.s[k]))
            k++;
        if (k == L.i || k - L.i > 120)
            lex_fail(&L, "expected the test's name after 'C'");
        else {
            t->name = xcalloc(1, k - L.i + 1);
            memcpy(t->name, L.s + L.i, k - L.i);
            L.i = k;
            lex_next(&L);
        }
    }
    if (!L.failed && L.tok == T_STR)
        lex_next(&L);
    if (!L.failed)
        init_block(&L);
    while (!L.failed && L.tok == T_ID && L.text[0] == 'P' && isdigit((unsigned char)L.text[1]))
        process(&L);
    if (!L.failed && t->nprocs == 0)
        lex_fail(&L, "no process (P0)");
    while (!L.failed && (lex_is(&L, "locations") || lex_is(&L, "filter"))) {
        L.proc = -1;
        if (lex_is(&L, "filter")) {
            if (t->filter)
                lex_fail(&L, "a second filter");
            lex_next(&L);
            int f = litmus_parse_cond(&L);
            t->filter = f < 0 ? 0 : f + 1;
            continue;
        }
        lex_next(&L);
        if (lex_expect(&L, "[") < 0)
            break;
        while (!L.failed && !lex_is(&L, "]")) {
            if (litmus_parse_location(&L) < 0)
                break;
            if (lex_is(&L, ";"))
                lex_next(&L);
            else if (!lex_is(&L, "]"))
                lex_fail(&L, "expected ';' or ']' in locations, found '%s'",
                         L.tok == T_EOF ? "end of file" : L.text);
        }
        lex_expect(&L, "]");
    }
    if (!L.failed) {
        if (lex_is(&L, "exists"))
            t->quant = LQ_EXISTS;
        else if (lex_is(&L, "forall"))
            t->quant = LQ_FORALL;
        else if (lex_is(&L, "~")) {
            lex_next(&L);
            if (!lex_is(&L, "exists"))
                lex_fail(&L, "expected 'exists' after '~'");
            t->quant = LQ_NOT_EXISTS;
        } else
            lex_fail(&L, "expected exists, ~exists or forall, found '%s'",
                     L.tok == T_EOF ? "end of file" : L.text);
        if (!L.failed) {
            lex_next(&L);
            L.proc = -1;
            t->root = litmus_parse_cond(&L);
        }
    }
    if (!L.failed && L.tok != T_EOF)
        lex_fail(&L, "unexpected '%s' after the condition", L.text);
    if (L.failed) {
        litmus_free(t);
        return NULL;
    }
    return t;
}

litmus_t *litmus_read(const char *path, err_t *e)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(e, path, 0, "cannot open it");
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n + 4096 > cap)
            buf = xrealloc(buf, cap = 2 * cap + 4096);
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0 && n < (1u << 24));
    fclose(f);
    litmus_t *t = litmus_parse(path, buf, n, e);
    free(buf);
    return t;
}

void litmus_free(litmus_t *t)
{
    if (!t)
        return;
    free(t->name);
    for (int v = 0; v < t->nvars; v++)
        free(t->var[v]);
    for (int p = 0; p < t->nprocs; p++) {
        for (int r = 0; r < t->proc[p].nregs; r++)
            free(t->proc[p].reg[r]);
        free(t->proc[p].code);
    }
    free(t->expr);
    free(t->cond);
    free(t->expect);
    free(t->result);
    free(t->path);
    free(t);
}
