/* litmus_lex: the lexer of the litmus format. Theory of operation.
 *
 * A hand-written scanner over the text: identifiers, integers, strings
 * (skipped), punctuation with the two-character operators (the /\ and \/
 * of the condition, ==, !=, &&, ||). (* comments *) are skipped outside the
 * processes (where "(*x" is a dereference) and searched for a
 * "numasim-expect:" line. Lines are counted for the error messages.
 */
#include "litmus_lex.h"

#include "xalloc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int lex_fail(lex_t *L, const char *fmt, ...)
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
        lex_fail(L, "unterminated comment");
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

void lex_next(lex_t *L)
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

int lex_is(const lex_t *L, const char *p)
{
    return (L->tok == T_PUNCT || L->tok == T_ID) && !strcmp(L->text, p);
}

int lex_expect(lex_t *L, const char *p)
{
    if (!lex_is(L, p))
        return lex_fail(L, "expected '%s', found '%s'", p,
                        L->tok == T_EOF ? "end of file" : L->text);
    lex_next(L);
    return 0;
}

int lex_find(char *const *names, int n, const char *s)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(names[k], s))
            return k;
    return -1;
}
