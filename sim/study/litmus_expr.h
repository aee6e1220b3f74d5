/* litmus_expr: the expressions over a process's registers and the final
 * condition of a litmus test: their parse (for litmus_parse.c) and their
 * evaluation (litmus_eval and litmus_holds, declared in litmus.h).
 */
#ifndef NUMASIM_LITMUS_EXPR_H
#define NUMASIM_LITMUS_EXPR_H

#include "litmus_lex.h"

/* Parses an expression over the locals of process L->proc (C's operators
 * and precedence, the subset of lit_expr_t) into L->t->expr. Returns its
 * index, or -1 with the parse failed. */
int litmus_parse_expr(lex_t *L);

/* Parses the condition after exists/~exists/forall (atoms P:REG=V and
 * VAR=V, with /\, \/, ~ and parentheses) into L->t->cond. Returns its
 * root's index, or -1 with the parse failed. */
int litmus_parse_cond(lex_t *L);

/* Parses a location of the final state (P:REG or VAR, as in "locations
 * [...]") into a condition atom that nothing evaluates. Returns its index,
 * or -1 with the parse failed. */
int litmus_parse_location(lex_t *L);

/* Parses a value: a number, -number, a variable's name or &name (its
 * pointer, LIT_PTR). Returns 0, or -1 with the parse failed. */
int litmus_parse_value(lex_t *L, int64_t *v);

#endif
