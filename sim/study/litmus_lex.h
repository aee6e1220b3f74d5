/* litmus_lex: the lexer of the litmus parser (litmus_parse.c,
 * litmus_expr.c), and the state the parse carries. Not an API: only the
 * litmus_*.c files of the parser include it.
 */
#ifndef NUMASIM_LITMUS_LEX_H
#define NUMASIM_LITMUS_LEX_H

#include "litmus.h"

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
    int proc;               /* the process being parsed */
    int in_code;            /* inside a process: "(*x" is no comment */
    int depth;              /* parentheses and unary operators open */
    int pvar[LIT_MAXVAR];   /* its parameters */
    int regptr[LIT_MAXREG]; /* its locals declared as pointers (int *r0) */
} lex_t;

/* Fills L->e with "PATH:LINE: message" (the line of the current token) and
 * marks the parse failed; only the first failure is kept. Returns -1. */
int lex_fail(lex_t *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads the next token into L (tok, text, ival, tline), skipping blanks
 * and comments (litmus.h); the first "numasim-expect:" line of a comment
 * goes to L->t->expect, the first "Result:" word to L->t->result. */
void lex_next(lex_t *L);

/* Whether the current token is the identifier or punctuation p. */
int lex_is(const lex_t *L, const char *p);

/* Consumes the token p, or fails ("expected 'p', found ..."). Returns 0 or -1. */
int lex_expect(lex_t *L, const char *p);

/* The index of s among names[0..n), or -1. */
int lex_find(char *const *names, int n, const char *s);

#endif
