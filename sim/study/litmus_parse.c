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

/* A shared variable: "x" (deref: "*x") that P's parameters declare. */
static int var_ref(lex_t *L, int deref)
{
    if (deref && lex_expect(L, "*") < 0)
        return -1;
    if (L->tok != T_ID)
        return lex_fail(L, "expected a shared variable, found '%s'", L->text);
    int v = lex_find(L->t->var, L->t->nvars, L->text);
    if (v < 0 || !L->pvar[v])
        return lex_fail(L, "'%s' is not declared in P%d's parameters", L->text, L->proc);
    lex_next(L);
    return v;
}

static const struct {
    const char *name;
    lit_op_t op;
    cpu_order_t order;
} kCalls[] = {
    {"READ_ONCE", LI_LOAD, CPU_RELAXED},
    {"smp_load_acquire", LI_LOAD, CPU_ACQUIRE},
    {"xchg", LI_XCHG, CPU_FULL},
    {"xchg_relaxed", LI_XCHG, CPU_RELAXED},
    {"xchg_acquire", LI_XCHG, CPU_ACQUIRE},
    {"xchg_release", LI_XCHG, CPU_RELEASE},
    {"cmpxchg", LI_CMPXCHG, CPU_FULL},
    {"cmpxchg_relaxed", LI_CMPXCHG, CPU_RELAXED},
    {"cmpxchg_acquire", LI_CMPXCHG, CPU_ACQUIRE},
    {"cmpxchg_release", LI_CMPXCHG, CPU_RELEASE},
};

/* A call that yields a value (or reg < 0: its value is dropped). */
static int value_call(lex_t *L, int reg)
{
    for (size_t k = 0; k < sizeof kCalls / sizeof *kCalls; k++) {
        if (!lex_is(L, kCalls[k].name))
            continue;
        lit_insn_t in = {.op = kCalls[k].op, .reg = reg, .order = kCalls[k].order};
        lex_next(L);
        if (lex_expect(L, "(") < 0)
            return -1;
        in.var = var_ref(L, kCalls[k].op == LI_LOAD && kCalls[k].order == CPU_RELAXED);
        if (in.var < 0)
            return -1;
        if (in.op != LI_LOAD) {
            if (lex_expect(L, ",") < 0 || (in.e1 = litmus_parse_expr(L)) < 0)
                return -1;
            if (in.op == LI_CMPXCHG &&
                (lex_expect(L, ",") < 0 || (in.e2 = litmus_parse_expr(L)) < 0))
                return -1;
        }
        if (lex_expect(L, ")") < 0)
            return -1;
        emit(L, in);
        return 0;
    }
    return 1; /* not such a call */
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
        int jz = emit(L, (lit_insn_t){.op = LI_JZ, .e1 = c});
        if (block_or_statement(L) < 0)
            return -1;
        if (lex_is(L, "else")) {
            lex_next(L);
            int jmp = emit(L, (lit_insn_t){.op = LI_JMP});
            p->code[jz].target = p->ncode;
            if (block_or_statement(L) < 0)
                return -1;
            p->code[jmp].target = p->ncode;
        } else {
            p->code[jz].target = p->ncode;
        }
        return 0;
    }
    if (L->tok != T_ID)
        return lex_fail(L, "expected a statement, found '%s'",
                        L->tok == T_EOF ? "end of file" : L->text);
    char name[128];
    snprintf(name, sizeof name, "%s", L->text);
    if (!strcmp(name, "int"))
        return lex_fail(L, "declarations of locals must come first in P%d", L->proc);
    int r = lex_find(p->reg, p->nregs, name);
    if (r >= 0) { /* rN = ...; */
        lex_next(L);
        if (lex_expect(L, "=") < 0)
            return -1;
        int k = value_call(L, r);
        if (k < 0)
            return -1;
        if (k == 1) {
            int x = litmus_parse_expr(L);
            if (x < 0)
                return -1;
            emit(L, (lit_insn_t){.op = LI_ASSIGN, .reg = r, .e1 = x});
        }
        return lex_expect(L, ";");
    }
    int k = value_call(L, -1);
    if (k < 0)
        return -1;
    if (k == 0)
        return lex_expect(L, ";");
    lex_next(L);
    lit_insn_t in = {.reg = -1};
    if (!strcmp(name, "WRITE_ONCE") || !strcmp(name, "smp_store_release")) {
        int rel = name[0] == 's';
        in.op = LI_STORE;
        in.order = rel ? CPU_RELEASE : CPU_RELAXED;
        if (lex_expect(L, "(") < 0 || (in.var = var_ref(L, !rel)) < 0 || lex_expect(L, ",") < 0 ||
            (in.e1 = litmus_parse_expr(L)) < 0)
            return -1;
    } else if (!strcmp(name, "smp_mb") || !strcmp(name, "smp_wmb") || !strcmp(name, "smp_rmb")) {
        in.op = LI_FENCE;
        in.kind = name[4] == 'm' ? 0 : name[4] == 'w' ? 1 : 2; /* CPU_MB, CPU_WMB, CPU_RMB */
        if (lex_expect(L, "(") < 0)
            return -1;
    } else if (!strcmp(name, "spin_lock") || !strcmp(name, "spin_unlock")) {
        in.op = name[5] == 'l' ? LI_LOCK : LI_UNLOCK;
        if (lex_expect(L, "(") < 0 || (in.var = var_ref(L, 0)) < 0)
            return -1;
    } else {
        L->tline = L->line;
        return lex_fail(L, "unknown macro or statement '%s'", name);
    }
    if (lex_expect(L, ")") < 0 || lex_expect(L, ";") < 0)
        return -1;
    emit(L, in);
    return 0;
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
    lit_proc_t *p = &t->proc[L->proc];
    L->in_code = 1;
    lex_next(L);
    if (lex_expect(L, "(") < 0)
        return -1;
    while (!L->failed && !lex_is(L, ")")) {
        if (!lex_is(L, "int") && !lex_is(L, "spinlock_t") && !lex_is(L, "atomic_t"))
            return lex_fail(L, "a parameter must be 'int *NAME' or 'spinlock_t *NAME'");
        lex_next(L);
        if (lex_expect(L, "*") < 0)
            return -1;
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
    while (lex_is(L, "int")) {
        lex_next(L);
        for (;;) {
            if (L->tok != T_ID)
                return lex_fail(L, "expected a local name");
            if (lex_find(p->reg, p->nregs, L->text) >= 0)
                return lex_fail(L, "local '%s' declared twice", L->text);
            if (p->nregs == LIT_MAXREG)
                return lex_fail(L, "more than %d locals in P%d", LIT_MAXREG, L->proc);
            p->reg[p->nregs++] = xstrdup(L->text);
            lex_next(L);
            if (lex_is(L, "=")) {
                lex_next(L);
                int x = litmus_parse_expr(L);
                if (x < 0)
                    return -1;
                emit(L, (lit_insn_t){.op = LI_ASSIGN, .reg = p->nregs - 1, .e1 = x});
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
        if (lex_is(L, "int") || lex_is(L, "spinlock_t") || lex_is(L, "atomic_t"))
            lex_next(L);
        if (L->tok != T_ID)
            return lex_fail(L, "expected 'NAME=VALUE;' in the init block, found '%s'",
                            L->tok == T_EOF ? "end of file" : L->text);
        int v = add_var(L, L->text);
        if (v < 0)
            return -1;
        lex_next(L);
        if (lex_is(L, "=")) {
            lex_next(L);
            int neg = 0;
            if (lex_is(L, "-")) {
                neg = 1;
                lex_next(L);
            }
            if (L->tok != T_INT)
                return lex_fail(L, "the initial value of '%s' must be a number", L->t->var[v]);
            L->t->init[v] = neg ? -L->ival : L->ival;
            lex_next(L);
        }
        if (lex_expect(L, ";") < 0)
            return -1;
    }
    return lex_expect(L, "}");
}

litmus_t *litmus_parse(const char *path, const char *text, size_t len, err_t *e)
{
    litmus_t *t = xcalloc(1, sizeof *t);
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
    free(t);
}
