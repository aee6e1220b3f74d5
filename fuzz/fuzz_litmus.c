/* fuzz_litmus: libFuzzer harness of litmus_parse() (sim/study/litmus_parse.c).
 *
 * The input is a litmus test (the bytes up to the first NUL). Errors must be
 * one non-empty line. A test that parses must be one the runner can follow
 * without looking outside its arrays: every jump target, register, variable,
 * expression and condition index in range (the filter's and the pointer
 * locals' too). Everything must be freed
 * (LeakSanitizer is on).
 */
#include "fuzz_common.h"
#include "litmus.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz: litmus_parse: %s\n", what);
        abort();
    }
}

static void check_test(const litmus_t *t)
{
    check(t->name && *t->name, "no name");
    check(t->nprocs >= 1 && t->nprocs <= LIT_MAXPROC, "bad process count");
    check(t->nvars >= 0 && t->nvars <= LIT_MAXVAR, "bad variable count");
    for (int i = 0; i < t->nexpr; i++) {
        const lit_expr_t *x = &t->expr[i];
        if (x->kind == LE_NOT || x->kind == LE_NEG || x->kind == LE_BIN)
            check(x->a >= 0 && x->a < i, "bad operand");
        if (x->kind == LE_BIN)
            check(x->b >= 0 && x->b < i, "bad operand");
    }
    for (int p = 0; p < t->nprocs; p++) {
        const lit_proc_t *P = &t->proc[p];
        for (int k = 0; k < P->ncode; k++) {
            const lit_insn_t *in = &P->code[k];
            if (LIT_OP_HAS_VAR(in->op))
                check(in->preg >= 0 ? in->preg < P->nregs : in->var >= 0 && in->var < t->nvars,
                      "bad variable");
            else
                check(in->preg == -1, "a pointer local on an op without a variable");
            if (in->op == LI_FADD || in->op == LI_ADDUNLESS || in->op == LI_STORE)
                check(in->e1 >= 0 && in->e1 < t->nexpr, "bad operand");
            if (in->op == LI_ADDUNLESS || in->op == LI_CMPXCHG)
                check(in->e2 >= 0 && in->e2 < t->nexpr, "bad operand");
            if (in->op == LI_ASSIGN)
                check(in->reg >= 0 && in->reg < P->nregs, "bad register");
            if (in->op == LI_LOAD) /* -1: a bare READ_ONCE(*x); drops the value */
                check(in->reg >= -1 && in->reg < P->nregs, "bad register");
            if (in->op == LI_JZ || in->op == LI_JMP)
                check(in->target > k && in->target <= P->ncode, "bad jump");
        }
    }
    check(t->root >= 0 && t->root < t->ncond, "no condition");
    check(t->filter >= 0 && t->filter <= t->ncond, "bad filter");
    for (int i = 0; i < t->ncond; i++) {
        const lit_cond_t *c = &t->cond[i];
        if (c->kind == LC_ATOM)
            check(c->proc < 0 ? c->idx < t->nvars
                              : c->proc < t->nprocs && c->idx < t->proc[c->proc].nregs,
                  "bad atom");
        else
            check(c->a >= 0 && c->a < i && (c->kind == LC_NOT || (c->b >= 0 && c->b < i)),
                  "bad condition");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sets[FUZZ_MAX_SETS];
    size_t len;
    int nsets = fuzz_split(data, size, &len, sets);
    fuzz_free_sets(sets, nsets);
    err_t e;
    litmus_t *t = litmus_parse("fuzz.litmus", (const char *)data, len, &e);
    if (!t) {
        fuzz_check_error(&e, "litmus_parse");
        return 0;
    }
    check_test(t);
    litmus_free(t);
    return 0;
}
