/* scenario_internal: what the two files of the scenario reader share
 * (scenario.c: the key table and single values; scenario_file.c: the file,
 * the overrides, the checks between keys); not an API. */
#ifndef NUMASIM_SCENARIO_INTERNAL_H
#define NUMASIM_SCENARIO_INTERNAL_H

#include "scenario.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    T_INT, /* whole number into an int (or uint32_t) field */
    T_U64, /* non-negative whole number into a 64-bit field */
    T_DOUBLE,
    T_BOOL,        /* true/false (yes/no, 1/0) into an int */
    T_STRING,      /* char *, as given */
    T_ENUM,        /* one of names[], stored as its index */
    T_ENUM_LIST,   /* comma-separated names, no repeats, into an int array */
    T_PATH_LIST,   /* comma-separated existing files, into char ** */
    T_STRING_LIST, /* comma-separated strings, into char ** */
} ktype_t;

enum {
    F_NONEMPTY = 1,  /* list: at least one item */
    F_BOTH = 2,      /* enum list: the value "both" means every name */
    F_NAME = 4,      /* non-empty, no '/' (it names results/NAME.csv) */
    F_SWEEP = 8,     /* "" (stored as NULL) or "section.key" of a sweepable key */
    F_BASENAME = 16, /* default: the file's name without ".ini" */
    F_NONE = 32,     /* enum list: the value "none" means no item (a sweep value) */
    F_HZ = 64,       /* int: one of the kernel's HZ values */
    F_NOSWEEP = 128  /* cannot be scenario.sweep */
};

typedef struct {
    const char *section, *name;
    ktype_t type;
    const char *def;          /* default, parsed like a file value; NULL: required */
    double min, max;          /* numbers: inclusive range */
    size_t off;               /* the scenario_t field */
    size_t count_off;         /* lists: the int field holding the count */
    const char *const *names; /* enums: value names, in enum order */
    int nnames;
    unsigned flags;
} keydef_t;

/* The key table (scenario.c): every key, in the order of the resolved
 * listing. */
#define SCENARIO_NKEYS 50
extern const keydef_t scenario_keys[];

/* The text printf would write, malloc'd. */
static inline char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline char *xprintf(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    size_t n = (size_t)vsnprintf(NULL, 0, fmt, ap) + 1;
    char *d = xmalloc(n);
    vsnprintf(d, n, fmt, aq);
    va_end(aq);
    va_end(ap);
    return d;
}

/* A malloc'd copy of [a, b) without surrounding blanks. */
static inline char *trimmed(const char *a, const char *b)
{
    while (a < b && (*a == ' ' || *a == '\t'))
        a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    return xcheck(strndup(a, (size_t)(b - a)));
}

/* A value shown in a message: control characters become '?', long values
 * are cut, so that the message stays one short line. */
static inline const char *shown(const char *v, char *b, size_t n)
{
    size_t i = 0, len = strlen(v), keep = len < n - 1 ? len : n - 4;
    for (; i < keep; i++)
        b[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
    b[i] = '\0';
    if (keep < len)
        strcpy(b + i, "...");
    return b;
}

/* The index of [section] in the list of sections, or -1. */
int scenario_find_section(const char *section);
/* The index of key section.name in scenario_keys, or -1. */
int scenario_find_key(const char *section, const char *name);
/* "section.key" -> index, or -1. */
int scenario_find_dotted(const char *dotted);

/* Parses v as the value of key k into s (replacing the field's old value
 * only on success). dir resolves relative paths. Returns 0, or -1 with a
 * one-line message in e (no file or line: the caller adds them). */
int scenario_parse_value(const keydef_t *k, const char *v, const char *dir, scenario_t *s,
                         err_t *e);
/* The field's value as text (malloc'd), in the syntax the file accepts. */
char *scenario_format_value(const scenario_t *s, const keydef_t *k);
/* Releases what the key's field owns and empties it. */
void scenario_clear_field(scenario_t *s, const keydef_t *k);

#endif
