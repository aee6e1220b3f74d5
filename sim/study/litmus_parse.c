/* litmus_parse: the C litmus format of the kernel's memory model, the
 * subset of litmus.h. Theory of operation.
 *
 * A hand-written lexer (identifiers, integers, punctuation, the /\ and \/
 * of the condition, (* comments *) skipped but searched for a
 * "numasim-expect:" line) feeds a recursive-descent parser. Each process
 * compiles to a flat list of instructions (litmus.h) with jumps for if/else;
 * expressions and condition atoms go to pools indexed by int. The first
 * error stops the parse: one "PATH:LINE: message".
 */
#include "litmus.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_EOF, T_ID, T_INT, T_PUNCT, T_AND, T_OR, T_STR };

/* Expressions and conditions are parsed and evaluated by recursion, the
 * evaluation on a simulated CPU's stack (256 KiB): their nesting and their
 * size are bounded, far above what a litmus test writes. */
enum { LIT_MAX_DEPTH = 32, LIT_MAX_NODES = 512 };

typedef struct {
    const char *path, *s;
    size_t n, i;
    int line;
    int tok, tline;
    char text[128];
    int64_t ival;
    err_t *e;
    int failed;
    litmus_t *t;
    int proc;             /* the process being parsed */
    int in_code;          /* inside a process: "(*x" is no comment */
    int depth;            /* parentheses and unary operators open */
    int pvar[LIT_MAXVAR]; /* its parameters */
} lex_t;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        abort();
    return p;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        abort();
    return d;
}

static int fail(lex_t *L, const char *fmt, ...)
{
    if (L->failed)
        return -1;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err_set(L->e, L->path, L->tline, "%s", msg);
    L->failed = 1;
    return -1;
}

static void comment(lex_t *L)
{
    size_t start = L->i;
    int line0 = L->line;
    L->i += 2;
    while (L->i + 1 < L->n && !(L->s[L->i] == '*' && L->s[L->i + 1] == ')')) {
        if (L->s[L->i] == '\n')
            L->line++;
        L->i++;
    }
    if (L->i + 1 >= L->n) {
        L->tline = line0;
        fail(L, "unterminated comment");
        L->i = L->n;
        return;
    }
    L->i += 2;
    const char *key = "numasim-expect:";
    size_t kl = strlen(key);
    for (size_t k = start; k + kl <= L->i; k++)
        if (!memcmp(L->s + k, key, kl) && !L->t->expect) {
            size_t j = k + kl;
            while (j < L->i - 2 && L->s[j] != '\n')
                j++;
            char buf[256];
            size_t len = j - (k + kl) < sizeof buf - 1 ? j - (k + kl) : sizeof buf - 1;
            memcpy(buf, L->s + k + kl, len);
            buf[len] = '\0';
            L->t->expect = xstrdup(buf);
        }
}

static void next(lex_t *L)
{
    for (;;) {
        while (L->i < L->n && isspace((unsigned char)L->s[L->i])) {
            if (L->s[L->i] == '\n')
                L->line++;
            L->i++;
        }
        if (!L->in_code && L->i + 1 < L->n && L->s[L->i] == '(' && L->s[L->i + 1] == '*')
            comment(L);
        else
            break;
    }
    L->tline = L->line;
    L->text[0] = '\0';
    if (L->i >= L->n) {
        L->tok = T_EOF;
        return;
    }
    char ch = L->s[L->i];
    if (isalpha((unsigned char)ch) || ch == '_') {
        size_t k = 0;
        while (L->i < L->n && (isalnum((unsigned char)L->s[L->i]) || L->s[L->i] == '_')) {
            if (k < sizeof L->text - 1)
                L->text[k++] = L->s[L->i];
            L->i++;
        }
        L->text[k] = '\0';
        L->tok = T_ID;
        return;
    }
    if (isdigit((unsigned char)ch)) {
        int64_t v = 0;
        while (L->i < L->n && isdigit((unsigned char)L->s[L->i])) {
            if (v < (int64_t)1 << 50)
                v = v * 10 + (L->s[L->i] - '0');
            L->i++;
        }
        L->ival = v;
        L->tok = T_INT;
        snprintf(L->text, sizeof L->text, "%lld", (long long)v);
        return;
    }
    if (ch == '"') {
        L->i++;
        while (L->i < L->n && L->s[L->i] != '"') {
            if (L->s[L->i] == '\n')
                L->line++;
            L->i++;
        }
        L->i++;
        L->tok = T_STR;
        return;
    }
    static const char *const two[] = {"/\\", "\\/", "==", "!=", "&&", "||"};
    for (int k = 0; k < 6; k++)
        if (L->i + 1 < L->n && L->s[L->i] == two[k][0] && L->s[L->i + 1] == two[k][1]) {
            L->i += 2;
            memcpy(L->text, two[k], 3);
            L->tok = k == 0 ? T_AND : k == 1 ? T_OR : T_PUNCT;
            return;
        }
    L->text[0] = ch;
    L->text[1] = '\0';
    L->i++;
    L->tok = T_PUNCT;
}

static int is(const lex_t *L, const char *p)
{
    return (L->tok == T_PUNCT || L->tok == T_ID) && !strcmp(L->text, p);
}

static int expect(lex_t *L, const char *p)
{
    if (!is(L, p))
        return fail(L, "expected '%s', found '%s'", p, L->tok == T_EOF ? "end of file" : L->text);
    next(L);
    return 0;
}

static int find(char *const *names, int n, const char *s)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(names[k], s))
            return k;
    return -1;
}

/* --- expressions over the process's registers --- */

static int new_expr(lex_t *L, lit_expr_t x)
{
    litmus_t *t = L->t;
    if (t->nexpr == LIT_MAX_NODES)
        return fail(L, "more than %d terms in the expressions", LIT_MAX_NODES);
    t->expr = xrealloc(t->expr, sizeof *t->expr * (size_t)(t->nexpr + 1));
    t->expr[t->nexpr] = x;
    return t->nexpr++;
}

static int expr(lex_t *L);

static int primary(lex_t *L)
{
    if (L->failed)
        return -1;
    lit_proc_t *p = &L->t->proc[L->proc];
    if (L->tok == T_INT) {
        int x = new_expr(L, (lit_expr_t){.kind = LE_CONST, .v = L->ival});
        next(L);
        return x;
    }
    if ((is(L, "-") || is(L, "!") || is(L, "(")) && L->depth == LIT_MAX_DEPTH)
        return fail(L, "an expression nested more than %d deep", LIT_MAX_DEPTH);
    if (is(L, "-") || is(L, "!")) {
        int neg = is(L, "-");
        next(L);
        L->depth++;
        int a = primary(L);
        L->depth--;
        return a < 0 ? -1 : new_expr(L, (lit_expr_t){.kind = neg ? LE_NEG : LE_NOT, .a = a});
    }
    if (is(L, "(")) {
        next(L);
        L->depth++;
        int x = expr(L);
        L->depth--;
        return expect(L, ")") < 0 ? -1 : x;
    }
    if (L->tok == T_ID) {
        int r = find(p->reg, p->nregs, L->text);
        if (r < 0)
            return fail(L, "'%s' is not a local (int) of P%d", L->text, L->proc);
        next(L);
        return new_expr(L, (lit_expr_t){.kind = LE_REG, .reg = r});
    }
    return fail(L, "expected an expression, found '%s'", L->tok == T_EOF ? "end of file" : L->text);
}

static int binop_of(const lex_t *L, int level)
{
    static const char *const ops[][5] = {{"||"},       {"&&"},     {"|"},      {"^"}, {"&"},
                                         {"==", "!="}, {"<", ">"}, {"+", "-"}, {"*"}};
    static const char codes[][5] = {{'O'},      {'A'},      {'|'},      {'^'}, {'&'},
                                    {'E', 'N'}, {'<', '>'}, {'+', '-'}, {'*'}};
    if (L->tok != T_PUNCT)
        return 0;
    for (int k = 0; k < 5 && ops[level][k]; k++)
        if (!strcmp(L->text, ops[level][k]))
            return codes[level][k];
    return 0;
}

static int binary(lex_t *L, int level)
{
    if (level == 9)
        return primary(L);
    int a = binary(L, level + 1);
    int op;
    while (a >= 0 && (op = binop_of(L, level))) {
        next(L);
        int b = binary(L, level + 1);
        if (b < 0)
            return -1;
        a = new_expr(L, (lit_expr_t){.kind = LE_BIN, .op = op, .a = a, .b = b});
    }
    return a;
}

static int expr(lex_t *L)
{
    return binary(L, 0);
}

int64_t litmus_eval(const litmus_t *t, int i, const int64_t *regs)
{
    const lit_expr_t *x = &t->expr[i];
    switch (x->kind) {
    case LE_CONST:
        return x->v;
    case LE_REG:
        return regs[x->reg];
    case LE_NOT:
        return !litmus_eval(t, x->a, regs);
    case LE_NEG:
        return -litmus_eval(t, x->a, regs);
    default:
        break;
    }
    int64_t a = litmus_eval(t, x->a, regs), b = litmus_eval(t, x->b, regs);
    switch (x->op) {
    case '+':
        return (int64_t)((uint64_t)a + (uint64_t)b);
    case '-':
        return (int64_t)((uint64_t)a - (uint64_t)b);
    case '*':
        return (int64_t)((uint64_t)a * (uint64_t)b);
    case '&':
        return a & b;
    case '|':
        return a | b;
    case '^':
        return a ^ b;
    case 'E':
        return a == b;
    case 'N':
        return a != b;
    case '<':
        return a < b;
    case '>':
        return a > b;
    case 'A':
        return a && b;
    default:
        return a || b;
    }
}

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
    if (deref && expect(L, "*") < 0)
        return -1;
    if (L->tok != T_ID)
        return fail(L, "expected a shared variable, found '%s'", L->text);
    int v = find(L->t->var, L->t->nvars, L->text);
    if (v < 0 || !L->pvar[v])
        return fail(L, "'%s' is not declared in P%d's parameters", L->text, L->proc);
    next(L);
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
        if (!is(L, kCalls[k].name))
            continue;
        lit_insn_t in = {.op = kCalls[k].op, .reg = reg, .order = kCalls[k].order};
        next(L);
        if (expect(L, "(") < 0)
            return -1;
        in.var = var_ref(L, kCalls[k].op == LI_LOAD && kCalls[k].order == CPU_RELAXED);
        if (in.var < 0)
            return -1;
        if (in.op != LI_LOAD) {
            if (expect(L, ",") < 0 || (in.e1 = expr(L)) < 0)
                return -1;
            if (in.op == LI_CMPXCHG && (expect(L, ",") < 0 || (in.e2 = expr(L)) < 0))
                return -1;
        }
        if (expect(L, ")") < 0)
            return -1;
        emit(L, in);
        return 0;
    }
    return 1; /* not such a call */
}

static int statement(lex_t *L);

static int block_or_statement(lex_t *L)
{
    if (!is(L, "{"))
        return statement(L);
    next(L);
    while (!L->failed && !is(L, "}")) {
        if (L->tok == T_EOF)
            return fail(L, "missing '}' at the end of P%d", L->proc);
        statement(L);
    }
    return expect(L, "}");
}

static int statement(lex_t *L)
{
    if (L->failed)
        return -1;
    lit_proc_t *p = &L->t->proc[L->proc];
    if (is(L, ";")) {
        next(L);
        return 0;
    }
    if (is(L, "if")) {
        next(L);
        if (expect(L, "(") < 0)
            return -1;
        int c = expr(L);
        if (c < 0 || expect(L, ")") < 0)
            return -1;
        int jz = emit(L, (lit_insn_t){.op = LI_JZ, .e1 = c});
        if (block_or_statement(L) < 0)
            return -1;
        if (is(L, "else")) {
            next(L);
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
        return fail(L, "expected a statement, found '%s'",
                    L->tok == T_EOF ? "end of file" : L->text);
    char name[128];
    snprintf(name, sizeof name, "%s", L->text);
    if (!strcmp(name, "int"))
        return fail(L, "declarations of locals must come first in P%d", L->proc);
    int r = find(p->reg, p->nregs, name);
    if (r >= 0) { /* rN = ...; */
        next(L);
        if (expect(L, "=") < 0)
            return -1;
        int k = value_call(L, r);
        if (k < 0)
            return -1;
        if (k == 1) {
            int x = expr(L);
            if (x < 0)
                return -1;
            emit(L, (lit_insn_t){.op = LI_ASSIGN, .reg = r, .e1 = x});
        }
        return expect(L, ";");
    }
    int k = value_call(L, -1);
    if (k < 0)
        return -1;
    if (k == 0)
        return expect(L, ";");
    next(L);
    lit_insn_t in = {.reg = -1};
    if (!strcmp(name, "WRITE_ONCE") || !strcmp(name, "smp_store_release")) {
        int rel = name[0] == 's';
        in.op = LI_STORE;
        in.order = rel ? CPU_RELEASE : CPU_RELAXED;
        if (expect(L, "(") < 0 || (in.var = var_ref(L, !rel)) < 0 || expect(L, ",") < 0 ||
            (in.e1 = expr(L)) < 0)
            return -1;
    } else if (!strcmp(name, "smp_mb") || !strcmp(name, "smp_wmb") || !strcmp(name, "smp_rmb")) {
        in.op = LI_FENCE;
        in.kind = name[4] == 'm' ? 0 : name[4] == 'w' ? 1 : 2; /* CPU_MB, CPU_WMB, CPU_RMB */
        if (expect(L, "(") < 0)
            return -1;
    } else if (!strcmp(name, "spin_lock") || !strcmp(name, "spin_unlock")) {
        in.op = name[5] == 'l' ? LI_LOCK : LI_UNLOCK;
        if (expect(L, "(") < 0 || (in.var = var_ref(L, 0)) < 0)
            return -1;
    } else {
        L->tline = L->line;
        return fail(L, "unknown macro or statement '%s'", name);
    }
    if (expect(L, ")") < 0 || expect(L, ";") < 0)
        return -1;
    emit(L, in);
    return 0;
}

static int add_var(lex_t *L, const char *name)
{
    litmus_t *t = L->t;
    int v = find(t->var, t->nvars, name);
    if (v >= 0)
        return v;
    if (t->nvars == LIT_MAXVAR)
        return fail(L, "more than %d shared variables", LIT_MAXVAR);
    t->var[t->nvars] = xstrdup(name);
    return t->nvars++;
}

static int process(lex_t *L)
{
    litmus_t *t = L->t;
    int n = atoi(L->text + 1);
    if (n != t->nprocs)
        return fail(L, "expected P%d, found %s", t->nprocs, L->text);
    if (t->nprocs == LIT_MAXPROC)
        return fail(L, "more than %d processes", LIT_MAXPROC);
    L->proc = t->nprocs++;
    memset(L->pvar, 0, sizeof L->pvar);
    lit_proc_t *p = &t->proc[L->proc];
    L->in_code = 1;
    next(L);
    if (expect(L, "(") < 0)
        return -1;
    while (!L->failed && !is(L, ")")) {
        if (!is(L, "int") && !is(L, "spinlock_t") && !is(L, "atomic_t"))
            return fail(L, "a parameter must be 'int *NAME' or 'spinlock_t *NAME'");
        next(L);
        if (expect(L, "*") < 0)
            return -1;
        if (L->tok != T_ID)
            return fail(L, "expected a parameter name");
        int v = add_var(L, L->text);
        if (v < 0)
            return -1;
        L->pvar[v] = 1;
        next(L);
        if (is(L, ","))
            next(L);
        else if (!is(L, ")"))
            return fail(L, "expected ',' or ')' in P%d's parameters", L->proc);
    }
    if (expect(L, ")") < 0)
        return -1;
    if (!is(L, "{"))
        return fail(L, "P%d has no body", L->proc);
    next(L);
    while (is(L, "int")) {
        next(L);
        for (;;) {
            if (L->tok != T_ID)
                return fail(L, "expected a local name");
            if (find(p->reg, p->nregs, L->text) >= 0)
                return fail(L, "local '%s' declared twice", L->text);
            if (p->nregs == LIT_MAXREG)
                return fail(L, "more than %d locals in P%d", LIT_MAXREG, L->proc);
            p->reg[p->nregs++] = xstrdup(L->text);
            next(L);
            if (is(L, "=")) {
                next(L);
                int x = expr(L);
                if (x < 0)
                    return -1;
                emit(L, (lit_insn_t){.op = LI_ASSIGN, .reg = p->nregs - 1, .e1 = x});
            }
            if (is(L, ";"))
                break;
            if (expect(L, ",") < 0)
                return -1;
        }
        next(L);
    }
    while (!L->failed && !is(L, "}")) {
        if (L->tok == T_EOF)
            return fail(L, "missing '}' at the end of P%d", L->proc);
        statement(L);
    }
    L->in_code = 0; /* the token after '}' may be a comment */
    return expect(L, "}");
}

/* --- the final condition --- */

static int new_cond(lex_t *L, lit_cond_t c)
{
    litmus_t *t = L->t;
    if (t->ncond == LIT_MAX_NODES)
        return fail(L, "more than %d terms in the condition", LIT_MAX_NODES);
    t->cond = xrealloc(t->cond, sizeof *t->cond * (size_t)(t->ncond + 1));
    t->cond[t->ncond] = c;
    return t->ncond++;
}

static int disj(lex_t *L);

static int atom(lex_t *L)
{
    if (L->failed)
        return -1;
    if ((is(L, "~") || is(L, "(")) && L->depth == LIT_MAX_DEPTH)
        return fail(L, "a condition nested more than %d deep", LIT_MAX_DEPTH);
    if (is(L, "~")) {
        next(L);
        L->depth++;
        int a = atom(L);
        L->depth--;
        return a < 0 ? -1 : new_cond(L, (lit_cond_t){.kind = LC_NOT, .a = a});
    }
    if (is(L, "(")) {
        next(L);
        L->depth++;
        int a = disj(L);
        L->depth--;
        return a < 0 || expect(L, ")") < 0 ? -1 : a;
    }
    lit_cond_t c = {.kind = LC_ATOM, .proc = -1};
    if (L->tok == T_INT) {
        if (L->ival < 0 || L->ival >= L->t->nprocs) /* before the cast: any size */
            return fail(L, "no process P%lld", (long long)L->ival);
        c.proc = (int)L->ival;
        next(L);
        if (expect(L, ":") < 0)
            return -1;
        if (L->tok != T_ID)
            return fail(L, "expected a register after '%d:'", c.proc);
        const lit_proc_t *p = &L->t->proc[c.proc];
        c.idx = find(p->reg, p->nregs, L->text);
        if (c.idx < 0)
            return fail(L, "P%d has no local '%s'", c.proc, L->text);
    } else if (L->tok == T_ID) {
        c.idx = find(L->t->var, L->t->nvars, L->text);
        if (c.idx < 0)
            return fail(L, "undeclared variable '%s'", L->text);
    } else {
        return fail(L, "expected a condition, found '%s'",
                    L->tok == T_EOF ? "end of file" : L->text);
    }
    next(L);
    if (expect(L, "=") < 0)
        return -1;
    int neg = 0;
    if (is(L, "-")) {
        neg = 1;
        next(L);
    }
    if (L->tok != T_INT)
        return fail(L, "expected a number after '='");
    c.v = neg ? -L->ival : L->ival;
    next(L);
    return new_cond(L, c);
}

static int conjunction(lex_t *L)
{
    int a = atom(L);
    while (a >= 0 && L->tok == T_AND) {
        next(L);
        int b = atom(L);
        if (b < 0)
            return -1;
        a = new_cond(L, (lit_cond_t){.kind = LC_AND, .a = a, .b = b});
    }
    return a;
}

static int disj(lex_t *L)
{
    int a = conjunction(L);
    while (a >= 0 && L->tok == T_OR) {
        next(L);
        int b = conjunction(L);
        if (b < 0)
            return -1;
        a = new_cond(L, (lit_cond_t){.kind = LC_OR, .a = a, .b = b});
    }
    return a;
}

static int holds(const litmus_t *t, int i, const int64_t (*regs)[LIT_MAXREG], const int64_t *vals)
{
    const lit_cond_t *c = &t->cond[i];
    switch (c->kind) {
    case LC_ATOM:
        return (c->proc < 0 ? vals[c->idx] : regs[c->proc][c->idx]) == c->v;
    case LC_NOT:
        return !holds(t, c->a, regs, vals);
    case LC_AND:
        return holds(t, c->a, regs, vals) && holds(t, c->b, regs, vals);
    default:
        return holds(t, c->a, regs, vals) || holds(t, c->b, regs, vals);
    }
}

int litmus_holds(const litmus_t *t, const int64_t (*regs)[LIT_MAXREG], const int64_t *vals)
{
    return holds(t, t->root, regs, vals);
}

/* --- the file --- */

static int init_block(lex_t *L)
{
    if (expect(L, "{") < 0)
        return -1;
    while (!L->failed && !is(L, "}")) {
        if (is(L, "int") || is(L, "spinlock_t") || is(L, "atomic_t"))
            next(L);
        if (L->tok != T_ID)
            return fail(L, "expected 'NAME=VALUE;' in the init block, found '%s'",
                        L->tok == T_EOF ? "end of file" : L->text);
        int v = add_var(L, L->text);
        if (v < 0)
            return -1;
        next(L);
        if (is(L, "=")) {
            next(L);
            int neg = 0;
            if (is(L, "-")) {
                neg = 1;
                next(L);
            }
            if (L->tok != T_INT)
                return fail(L, "the initial value of '%s' must be a number", L->t->var[v]);
            L->t->init[v] = neg ? -L->ival : L->ival;
            next(L);
        }
        if (expect(L, ";") < 0)
            return -1;
    }
    return expect(L, "}");
}

litmus_t *litmus_parse(const char *path, const char *text, size_t len, err_t *e)
{
    litmus_t *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    lex_t L = {.path = path, .s = text, .n = len, .line = 1, .e = e, .t = t};
    for (size_t k = 0; k < len; k++)
        if (!text[k]) {
            L.n = k; /* text ends at a NUL */
            break;
        }
    next(&L);
    if (!is(&L, "C"))
        fail(&L, "a litmus test starts with 'C NAME' (only C tests are supported)");
    else {
        /* The name is any run of non-blank characters (2+2W, SB+mbs). */
        while (L.i < L.n && (L.s[L.i] == ' ' || L.s[L.i] == '\t'))
            L.i++;
        size_t k = L.i;
        while (k < L.n && !isspace((unsigned char)L.s[k]))
            k++;
        if (k == L.i || k - L.i > 120)
            fail(&L, "expected the test's name after 'C'");
        else {
            t->name = calloc(1, k - L.i + 1);
            if (!t->name)
                abort();
            memcpy(t->name, L.s + L.i, k - L.i);
            L.i = k;
            next(&L);
        }
    }
    if (!L.failed && L.tok == T_STR)
        next(&L);
    if (!L.failed)
        init_block(&L);
    while (!L.failed && L.tok == T_ID && L.text[0] == 'P' && isdigit((unsigned char)L.text[1]))
        process(&L);
    if (!L.failed && t->nprocs == 0)
        fail(&L, "no process (P0)");
    if (!L.failed) {
        if (is(&L, "exists"))
            t->quant = LQ_EXISTS;
        else if (is(&L, "forall"))
            t->quant = LQ_FORALL;
        else if (is(&L, "~")) {
            next(&L);
            if (!is(&L, "exists"))
                fail(&L, "expected 'exists' after '~'");
            t->quant = LQ_NOT_EXISTS;
        } else
            fail(&L, "expected exists, ~exists or forall, found '%s'",
                 L.tok == T_EOF ? "end of file" : L.text);
        if (!L.failed) {
            next(&L);
            L.proc = -1;
            t->root = disj(&L);
        }
    }
    if (!L.failed && L.tok != T_EOF)
        fail(&L, "unexpected '%s' after the condition", L.text);
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
