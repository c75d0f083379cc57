/* check.h: assertions and string helpers shared by the C tests. */
#ifndef PACHISI_TEST_CHECK_H
#define PACHISI_TEST_CHECK_H

#include "pachisi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks_passed = 0;
static int checks_failed = 0;

static inline void check_report(int ok, const char *file, int line, const char *what) {
    if (ok) {
        checks_passed++;
    } else {
        checks_failed++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
}

#define CHECK(cond) check_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* The last error message of this thread, in a static buffer. */
static inline const char *last_error(void) {
    static char buf[1024];
    size_t n = 0;
    if (pachisi_last_error(buf, sizeof buf, &n) != PACHISI_RESULT_OK)
        snprintf(buf, sizeof buf, "(message longer than %zu bytes)", sizeof buf);
    return buf;
}

/* Checks that `call` returns `want`, printing the status name and message when not. */
#define EXPECT_STATUS(call, want)                                                              \
    do {                                                                                       \
        pachisi_result got_ = (call);                                                          \
        if (got_ != (want))                                                                    \
            fprintf(stderr, "%s:%d: %s returned %s (%s), expected %s\n", __FILE__, __LINE__,   \
                    #call, pachisi_result_name(got_), last_error(),                            \
                    pachisi_result_name((want)));                                              \
        check_report(got_ == (want), __FILE__, __LINE__, #call);                               \
    } while (0)

#define EXPECT_OK(call) EXPECT_STATUS(call, PACHISI_RESULT_OK)

/* Defines `static char *name(const type *object)`: the string output of `fn` in a new malloc'd
 * buffer (NULL on failure), asking for the size first as callers are meant to. */
#define DEFINE_READER(name, type, fn)                                                          \
    static inline char *name(const type *object) {                                                 \
        size_t needed = 0, written = 0;                                                        \
        if (fn(object, NULL, 0, &needed) != PACHISI_RESULT_BUFFER_TOO_SMALL) return NULL;      \
        char *buf = (char *)malloc(needed);                                                    \
        if (!buf || fn(object, buf, needed, &written) != PACHISI_RESULT_OK ||                  \
            written != needed) {                                                               \
            free(buf);                                                                         \
            return NULL;                                                                       \
        }                                                                                      \
        return buf;                                                                            \
    }

DEFINE_READER(game_json, pachisi_game, pachisi_game_to_json)
DEFINE_READER(game_position, pachisi_game, pachisi_game_position)
DEFINE_READER(game_log_text, pachisi_game, pachisi_game_log_text)
DEFINE_READER(game_rules_json, pachisi_game, pachisi_game_rules_json)
DEFINE_READER(rules_json, pachisi_rules, pachisi_rules_to_json)

/* Notation of legal play `i` in a new buffer (NULL on failure). */
static inline char *play_notation(const pachisi_game *g, size_t i) {
    size_t needed = 0;
    if (pachisi_game_legal_play_notation(g, i, NULL, 0, &needed) != PACHISI_RESULT_BUFFER_TOO_SMALL)
        return NULL;
    char *buf = (char *)malloc(needed);
    if (buf && pachisi_game_legal_play_notation(g, i, buf, needed, &needed) != PACHISI_RESULT_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Closes a test program: the line the test harnesses read, and the exit status. */
static inline int finish_checks(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif
