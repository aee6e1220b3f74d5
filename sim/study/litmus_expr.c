/* litmus_expr: expressions and the final condition. Theory of operation.
 *
 * Both are parsed by recursive descent into pools of nodes indexed by int
 * (t->expr, t->cond), and evaluated by recursion over them: expressions
 * with C's precedence levels (binary(), from || down to *), conditions with
 * /\ binding tighter than \/. Nesting and size are bounded (LIT_MAX_DEPTH,
 * LIT_MAX_NODES) because the evaluation runs on a simulated CPU's stack.
 */
#include "litmus_expr.h"

#include "xalloc.h"

#include <string.h>

/* --- expressions over the process's registers --- */

static int new_expr(lex_t *L, lit_expr_t x)
{
    litmus_t *t = L->t;
    if (t->nexpr == LIT_MAX_NODES)
        return lex_fail(L, "more than %d terms in the expressions", LIT_MAX_NODES);
    t->expr = xrealloc(t->expr, sizeof *t->expr * (size_t)(t->nexpr + 1));
    t->expr[t->nexpr] = x;
    return t->nexpr++;
}

static int primary(lex_t *L)
{
    if (L->failed)
        return -1;
    lit_proc_t *p = &L->t->proc[L->proc];
    if (L->tok == T_INT) {
        int x = new_expr(L, (lit_expr_t){.kind = LE_CONST, .v = L->ival});
        lex_next(L);
        return x;
    }
    if ((lex_is(L, "-") || lex_is(L, "!") || lex_is(L, "(")) && L->depth == LIT_MAX_DEPTH)
        return lex_fail(L, "an expression nested more than %d deep", LIT_MAX_DEPTH);
    if (lex_is(L, "-") || lex_is(L, "!")) {
        int neg = lex_is(L, "-");
        lex_next(L);
        L->depth++;
        int a = primary(L);
        L->depth--;
        return a < 0 ? -1 : new_expr(L, (lit_expr_t){.kind = neg ? LE_NEG : LE_NOT, .a = a});
    }
    if (lex_is(L, "(")) {
        lex_next(L);
        L->depth++;
        int x = litmus_parse_expr(L);
        L->depth--;
        return lex_expect(L, ")") < 0 ? -1 : x;
    }
    int amp = lex_is(L, "&");
    if (amp)
        lex_next(L);
    if (L->tok == T_ID) {
        int r = amp ? -1 : lex_find(p->reg, p->nregs, L->text);
        if (r >= 0) {
            lex_next(L);
            return new_expr(L, (lit_expr_t){.kind = LE_REG, .reg = r});
        }
        /* A shared variable's name is its address (int *x: x is &*x). */
        int v = lex_find(L->t->var, L->t->nvars, L->text);
        if (v < 0 || !L->pvar[v])
            return lex_fail(L, "'%s' is not a local of P%d nor in its parameters", L->text,
                            L->proc);
        lex_next(L);
        return new_expr(L, (lit_expr_t){.kind = LE_CONST, .v = LIT_PTR(v)});
    }
    if (amp)
        return lex_fail(L, "expected a variable after '&'");
    return lex_fail(L, "expected an expression, found '%s'",
                    L->tok == T_EOF ? "end of file" : L->text);
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
        lex_next(L);
        int b = binary(L, level + 1);
        if (b < 0)
            return -1;
        a = new_expr(L, (lit_expr_t){.kind = LE_BIN, .op = op, .a = a, .b = b});
    }
    return a;
}

int litmus_parse_expr(lex_t *L)
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

/* --- the final condition --- */

static int new_cond(lex_t *L, lit_cond_t c)
{
    litmus_t *t = L->t;
    if (t->ncond == LIT_MAX_NODES)
        return lex_fail(L, "more than %d terms in the condition", LIT_MAX_NODES);
    t->cond = xrealloc(t->cond, sizeof *t->cond * (size_t)(t->ncond + 1));
    t->cond[t->ncond] = c;
    return t->ncond++;
}

static int location(lex_t *L, lit_cond_t *cp);

static int atom(lex_t *L)
{
    if (L->failed)
        return -1;
    if ((lex_is(L, "~") || lex_is(L, "(")) && L->depth == LIT_MAX_DEPTH)
        return lex_fail(L, "a condition nested more than %d deep", LIT_MAX_DEPTH);
    if (lex_is(L, "~")) {
        lex_next(L);
        L->depth++;
        int a = atom(L);
        L->depth--;
        return a < 0 ? -1 : new_cond(L, (lit_cond_t){.kind = LC_NOT, .a = a});
    }
    if (lex_is(L, "(")) {
        lex_next(L);
        L->depth++;
        int a = litmus_parse_cond(L);
        L->depth--;
        return a < 0 || lex_expect(L, ")") < 0 ? -1 : a;
    }
    lit_cond_t c = {.kind = LC_ATOM, .proc = -1};
    if (location(L, &c) < 0 || lex_expect(L, "=") < 0)
        return -1;
    if (litmus_parse_value(L, &c.v) < 0)
        return -1;
    return new_cond(L, c);
}

int litmus_parse_location(lex_t *L)
{
    lit_cond_t c = {.kind = LC_ATOM, .proc = -1};
    if (location(L, &c) < 0)
        return -1;
    return new_cond(L, c);
}

/* P:REG or VAR, into c (proc, idx). Returns 0 or -1. */
static int location(lex_t *L, lit_cond_t *cp)
{
    lit_cond_t c = *cp;
    if (L->tok == T_INT) {
        if (L->ival < 0 || L->ival >= L->t->nprocs) /* before the cast: any size */
            return lex_fail(L, "no process P%lld", (long long)L->ival);
        c.proc = (int)L->ival;
        lex_next(L);
        if (lex_expect(L, ":") < 0)
            return -1;
        if (L->tok != T_ID)
            return lex_fail(L, "expected a register after '%d:'", c.proc);
        const lit_proc_t *p = &L->t->proc[c.proc];
        c.idx = lex_find(p->reg, p->nregs, L->text);
        if (c.idx < 0)
            return lex_fail(L, "P%d has no local '%s'", c.proc, L->text);
    } else if (L->tok == T_ID) {
        c.idx = lex_find(L->t->var, L->t->nvars, L->text);
        if (c.idx < 0)
            return lex_fail(L, "undeclared variable '%s'", L->text);
    } else {
        return lex_fail(L, "expected a condition, found '%s'",
                        L->tok == T_EOF ? "end of file" : L->text);
    }
    lex_next(L);
    *cp = c;
    return 0;
}

int litmus_parse_value(lex_t *L, int64_t *v)
{
    int neg = 0;
    if (lex_is(L, "-")) {
        neg = 1;
        lex_next(L);
    } else if (lex_is(L, "&")) {
        lex_next(L);
        if (L->tok != T_ID)
            return lex_fail(L, "expected a variable after '&'");
    }
    if (L->tok == T_ID && !neg) { /* a pointer: p=y, 1:r0=x */
        int k = lex_find(L->t->var, L->t->nvars, L->text);
        if (k < 0)
            return lex_fail(L, "undeclared variable '%s'", L->text);
        *v = LIT_PTR(k);
        lex_next(L);
        return 0;
    }
    if (L->tok != T_INT)
        return lex_fail(L, "expected a number or a variable after '='");
    *v = neg ? -L->ival : L->ival;
    lex_next(L);
    return 0;
}

static int conjunction(lex_t *L)
{
    int a = atom(L);
    while (a >= 0 && L->tok == T_AND) {
        lex_next(L);
        int b = atom(L);
        if (b < 0)
            return -1;
        a = new_cond(L, (lit_cond_t){.kind = LC_AND, .a = a, .b = b});
    }
    return a;
}

int litmus_parse_cond(lex_t *L)
{
    int a = conjunction(L);
    while (a >= 0 && L->tok == T_OR) {
        lex_next(L);
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

int litmus_filter(const litmus_t *t, const int64_t (*regs)[LIT_MAXREG], const int64_t *vals)
{
    return !t->filter || holds(t, t->filter - 1, regs, vals);
}

int litmus_ptr_var(const litmus_t *t, int64_t v)
{
    return v >= LIT_PTR_BASE && v < LIT_PTR_BASE + t->nvars ? (int)(v - LIT_PTR_BASE) : -1;
}
