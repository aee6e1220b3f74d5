/* litmus_lex: the lexer of the litmus format. Theory of operation.
 *
 * A hand-written scanner over the text: identifiers, integers, strings
 * (skipped), punctuation with the two-character operators (the /\ and \/
 * of the condition, ==, !=, &&, ||). Comments of the three kinds are skipped
 * anywhere ("(*" in a process only before a blank, "*" or ")": "(*x" is a
 * dereference) and searched for a "numasim-expect:" and a "Result:" line.
 * Lines are counted for the error messages.
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

/* Copies the rest of the line after key in [k, end) to a new string: the
 * comment's "numasim-expect:" or "Result:" line (the first of each). */
static void key_line(lex_t *L, const char *key, char **dst, size_t start, size_t end)
{
    size_t kl = strlen(key);
    for (size_t k = start; k + kl <= end && !*dst; k++)
        if (!memcmp(L->s + k, key, kl)) {
            size_t j = k + kl;
            while (j < end && L->s[j] != '\n' && L->s[j] != '*')
                j++;
            char buf[256];
            size_t len = j - (k + kl) < sizeof buf - 1 ? j - (k + kl) : sizeof buf - 1;
            memcpy(buf, L->s + k + kl, len);
            buf[len] = '\0';
            if (!strcmp(key, "Result:")) { /* the word only */
                char word[32];
                if (sscanf(buf, " %31[A-Za-z]", word) == 1)
                    *dst = xstrdup(word);
            } else {
                *dst = xstrdup(buf);
            }
        }
}

/* Skips a comment that opens at L->i with open_len characters and closes
 * with close ("\n": at the end of the line). */
static void comment(lex_t *L, size_t open_len, const char *close)
{
    size_t start = L->i, cl = strlen(close);
    int line0 = L->line;
    L->i += open_len;
    while (L->i + cl <= L->n && memcmp(L->s + L->i, close, cl)) {
        if (L->s[L->i] == '\n')
            L->line++;
        L->i++;
    }
    if (L->i + cl > L->n) {
        if (close[0] == '\n') { /* a // comment on the last line */
            L->i = L->n;
            return;
        }
        L->tline = line0;
        lex_fail(L, "unterminated comment");
        L->i = L->n;
        return;
    }
    if (close[0] != '\n') /* the newline is the next blank */
        L->i += cl;
    key_line(L, "numasim-expect:", &L->t->expect, start, L->i);
    key_line(L, "Result:", &L->t->result, start, L->i);
}

void lex_next(lex_t *L)
{
    for (;;) {
        while (L->i < L->n && isspace((unsigned char)L->s[L->i])) {
            if (L->s[L->i] == '\n')
                L->line++;
            L->i++;
        }
        char c0 = L->i < L->n ? L->s[L->i] : '\0', c1 = L->i + 1 < L->n ? L->s[L->i + 1] : '\0';
        char c2 = L->i + 2 < L->n ? L->s[L->i + 2] : '\0';
        if (c0 == '(' && c1 == '*' &&
            (!L->in_code || isspace((unsigned char)c2) || c2 == '*' || c2 == ')'))
            comment(L, 2, "*)");
        else if (c0 == '/' && c1 == '*')
            comment(L, 2, "*/");
        else if (c0 == '/' && c1 == '/')
            comment(L, 2, "\n");
        else
            break;
        if (L->failed)
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
