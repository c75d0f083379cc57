/*
 * json_mini.h: a small JSON reader for the C tests (objects, arrays, strings with every escape,
 * numbers, true/false/null). Enough for the scenario files; not a general-purpose library.
 * Each value remembers its span in the source text, so a sub-document (the `rules` object)
 * can be handed to the engine as written.
 */
#ifndef JSON_MINI_H
#define JSON_MINI_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { JM_NULL, JM_BOOL, JM_NUMBER, JM_STRING, JM_ARRAY, JM_OBJECT } jm_type;

typedef struct jm_value {
    jm_type type;
    int boolean;
    double number;
    char *string;           /* JM_STRING: decoded, NUL-terminated, owned */
    size_t count;           /* JM_ARRAY / JM_OBJECT: number of items */
    struct jm_value *items; /* owned array of `count` values */
    char **keys;            /* JM_OBJECT: owned array of `count` decoded keys */
    const char *start;      /* span of the value in the source text (not owned) */
    size_t length;
} jm_value;

typedef struct {
    const char *p;
    const char *end;
    const char *error;
} jm_parser;

static void jm_skip_space(jm_parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int jm_fail(jm_parser *ps, const char *message) {
    if (!ps->error) ps->error = message;
    return 0;
}

static void jm_put_utf8(char *out, size_t *n, uint32_t cp) {
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static int jm_hex4(jm_parser *ps, uint32_t *out) {
    uint32_t v = 0;
    if (ps->end - ps->p < 4) return jm_fail(ps, "short \\u escape");
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else return jm_fail(ps, "bad hex digit in \\u escape");
    }
    *out = v;
    return 1;
}

/* Reads a string at ps->p (which points at the opening quote) into a new buffer. */
static int jm_string(jm_parser *ps, char **out) {
    ps->p++; /* opening quote */
    /* The decoded text is never longer than the source (\uXXXX: 6 bytes -> at most 4). */
    const char *q = ps->p;
    while (q < ps->end && *q != '"') q += (*q == '\\') ? 2 : 1;
    if (q >= ps->end) return jm_fail(ps, "unterminated string");
    char *buf = (char *)malloc((size_t)(q - ps->p) + 1);
    if (!buf) return jm_fail(ps, "out of memory");
    size_t n = 0;
    while (*ps->p != '"') {
        char c = *ps->p++;
        if ((unsigned char)c < 0x20) {
            free(buf);
            return jm_fail(ps, "control character in string");
        }
        if (c != '\\') {
            buf[n++] = c;
            continue;
        }
        char e = *ps->p++;
        uint32_t cp;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (!jm_hex4(ps, &cp)) { free(buf); return 0; }
            if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
                ps->p[1] == 'u') {
                uint32_t low;
                ps->p += 2;
                if (!jm_hex4(ps, &low)) { free(buf); return 0; }
                if (low < 0xDC00 || low > 0xDFFF) {
                    free(buf);
                    return jm_fail(ps, "bad surrogate pair");
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            jm_put_utf8(buf, &n, cp);
            break;
        default:
            free(buf);
            return jm_fail(ps, "bad escape");
        }
    }
    ps->p++; /* closing quote */
    buf[n] = '\0';
    *out = buf;
    return 1;
}

static void jm_free(jm_value *v);

static int jm_value_at(jm_parser *ps, jm_value *v, int depth) {
    memset(v, 0, sizeof *v);
    if (depth > 64) return jm_fail(ps, "nested too deeply");
    jm_skip_space(ps);
    if (ps->p >= ps->end) return jm_fail(ps, "unexpected end");
    v->start = ps->p;
    char c = *ps->p;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        v->type = c == '{' ? JM_OBJECT : JM_ARRAY;
        ps->p++;
        jm_skip_space(ps);
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
        } else {
            for (;;) {
                char *key = NULL;
                if (v->type == JM_OBJECT) {
                    jm_skip_space(ps);
                    if (ps->p >= ps->end || *ps->p != '"') return jm_fail(ps, "expected a key");
                    if (!jm_string(ps, &key)) return 0;
                    jm_skip_space(ps);
                    if (ps->p >= ps->end || *ps->p != ':') {
                        free(key);
                        return jm_fail(ps, "expected ':'");
                    }
                    ps->p++;
                }
                jm_value *items = (jm_value *)realloc(v->items, (v->count + 1) * sizeof *items);
                char **keys = v->keys;
                if (items) v->items = items;
                if (items && v->type == JM_OBJECT) {
                    keys = (char **)realloc(v->keys, (v->count + 1) * sizeof *keys);
                    if (keys) v->keys = keys;
                }
                if (!items || (v->type == JM_OBJECT && !keys)) {
                    free(key);
                    return jm_fail(ps, "out of memory");
                }
                if (v->type == JM_OBJECT) v->keys[v->count] = key;
                int ok = jm_value_at(ps, &v->items[v->count], depth + 1);
                v->count++; /* counted even on failure so jm_free releases it */
                if (!ok) return 0;
                jm_skip_space(ps);
                if (ps->p < ps->end && *ps->p == ',') {
                    ps->p++;
                    continue;
                }
                if (ps->p < ps->end && *ps->p == close) {
                    ps->p++;
                    break;
                }
                return jm_fail(ps, "expected ',' or a closing bracket");
            }
        }
    } else if (c == '"') {
        v->type = JM_STRING;
        if (!jm_string(ps, &v->string)) return 0;
    } else if (c == 't' && ps->end - ps->p >= 4 && !strncmp(ps->p, "true", 4)) {
        v->type = JM_BOOL;
        v->boolean = 1;
        ps->p += 4;
    } else if (c == 'f' && ps->end - ps->p >= 5 && !strncmp(ps->p, "false", 5)) {
        v->type = JM_BOOL;
        ps->p += 5;
    } else if (c == 'n' && ps->end - ps->p >= 4 && !strncmp(ps->p, "null", 4)) {
        v->type = JM_NULL;
        ps->p += 4;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        char *after;
        v->type = JM_NUMBER;
        v->number = strtod(ps->p, &after);
        if (after == ps->p) return jm_fail(ps, "bad number");
        ps->p = after;
    } else {
        return jm_fail(ps, "unexpected character");
    }
    v->length = (size_t)(ps->p - v->start);
    return 1;
}

static void jm_free(jm_value *v) {
    if (!v) return;
    for (size_t i = 0; i < v->count; i++) {
        jm_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    memset(v, 0, sizeof *v);
}

/* Parses `text` (`length` bytes; must outlive the value, which points into it).
 * Returns 1 on success; on failure 0 and *error names the problem (v is then empty). */
static int jm_parse(const char *text, size_t length, jm_value *v, const char **error) {
    jm_parser ps = {text, text + length, NULL};
    int ok = jm_value_at(&ps, v, 0);
    if (ok) {
        jm_skip_space(&ps);
        if (ps.p != ps.end) ok = jm_fail(&ps, "trailing characters");
    }
    if (!ok) {
        jm_free(v);
        if (error) *error = ps.error;
    }
    return ok;
}

/* The member `key` of an object, or NULL. */
static const jm_value *jm_get(const jm_value *object, const char *key) {
    if (!object || object->type != JM_OBJECT) return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (!strcmp(object->keys[i], key)) return &object->items[i];
    return NULL;
}

/* A NUL-terminated copy of the value's source text (caller frees). */
static char *jm_source(const jm_value *v) {
    char *s = (char *)malloc(v->length + 1);
    if (!s) return NULL;
    memcpy(s, v->start, v->length);
    s[v->length] = '\0';
    return s;
}

/* The whole file as a NUL-terminated buffer (caller frees), or NULL. */
static char *jm_read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = (char *)malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap) break;
        char *bigger = (char *)realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = '\0';
    *length = n;
    return buf;
}

#endif /* JSON_MINI_H */
