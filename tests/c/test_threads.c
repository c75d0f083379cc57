/*
 * Reads of one game handle from several threads at once: every call taking a `const
 * pachisi_game *` may run concurrently on one handle (docs/C_API.md, "Threads"). Four
 * threads read the same fresh game (so they race to fill its cached lists and the kept text of
 * the size query) and must each see what one thread alone sees. Run under valgrind and
 * AddressSanitizer by `make test-c`.
 */
#include "check.h"

#include <pthread.h>

#define READERS 4

/* Everything a renderer or a bot reads, as one text. */
static char *snapshot(const pachisi_game *g, const pachisi_rules *shared_rules) {
    size_t cap = 1 << 16, used = 0;
    char *out = (char *)malloc(cap);
    if (!out) return NULL;
    out[0] = '\0';
#define APPEND(...)                                                                            \
    do {                                                                                       \
        int k_ = snprintf(out + used, cap - used, __VA_ARGS__);                                \
        if (k_ > 0 && (size_t)k_ < cap - used) used += (size_t)k_;                             \
    } while (0)
    size_t count = 0;
    if (pachisi_game_legal_play_count(g, &count) != PACHISI_RESULT_OK) APPEND("count failed\n");
    for (size_t i = 0; i < count; i++) {
        pachisi_step steps[PACHISI_MAX_STEPS];
        size_t n = 0;
        char text[256];
        size_t w = 0;
        if (pachisi_game_legal_play(g, i, steps, PACHISI_MAX_STEPS, &n) != PACHISI_RESULT_OK ||
            pachisi_game_legal_play_notation(g, i, text, sizeof text, &w) != PACHISI_RESULT_OK)
            APPEND("play %zu failed\n", i);
        else
            APPEND("%zu %zu %s\n", i, n, text);
    }
    size_t steps = 0, outcomes = 0;
    if (pachisi_game_legal_step_count(g, &steps) != PACHISI_RESULT_OK ||
        pachisi_game_chance_outcome_count(g, &outcomes) != PACHISI_RESULT_OK)
        APPEND("counts failed\n");
    APPEND("%zu steps %zu outcomes\n", steps, outcomes);
    /* The two-call protocol, through the handle's kept text. */
    char *json = game_json(g);
    char *position = game_position(g);
    APPEND("%zu %s\n", json ? strlen(json) : 0, position ? position : "(position failed)");
    free(json);
    free(position);
    size_t needed = 0;
    if (pachisi_game_svg(g, 300.0, NULL, 0, &needed) == PACHISI_RESULT_BUFFER_TOO_SMALL) {
        char *svg = (char *)malloc(needed);
        size_t w = 0;
        if (svg && pachisi_game_svg(g, 300.0, svg, needed, &w) == PACHISI_RESULT_OK)
            APPEND("svg %zu\n", strlen(svg));
        free(svg);
    }
    char *rj = rules_json(shared_rules);
    APPEND("%s\n", rj ? rj : "(rules failed)");
    free(rj);
#undef APPEND
    return out;
}

struct reader {
    const pachisi_game *game;
    const pachisi_rules *rules;
    pachisi_policy *policy; /* one player per thread: a player is not shared */
    int rounds;
    char *result;
    int consistent;
    size_t chosen;
};

static void *read_game(void *arg) {
    struct reader *r = (struct reader *)arg;
    r->consistent = 1;
    for (int i = 0; i < r->rounds; i++) {
        char *s = snapshot(r->game, r->rules);
        if (!s) {
            r->consistent = 0;
            break;
        }
        if (!r->result) {
            r->result = s;
        } else {
            if (strcmp(s, r->result) != 0) r->consistent = 0;
            free(s);
        }
        if (pachisi_policy_choose(r->policy, r->game, &r->chosen) != PACHISI_RESULT_OK)
            r->consistent = 0;
    }
    return NULL;
}

static void run_readers(const char *preset, uint64_t seed) {
    pachisi_game *g = NULL;
    pachisi_rules *rules = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, seed, &g));
    EXPECT_OK(pachisi_game_rules(g, &rules));
    /* Roll until a play is due (a roll that cannot be used is forfeited by itself). */
    pachisi_node node = PACHISI_NODE_CHANCE;
    for (int i = 0; i < 100 && node == PACHISI_NODE_CHANCE; i++) {
        EXPECT_OK(pachisi_game_roll(g, NULL));
        EXPECT_OK(pachisi_game_node(g, &node));
    }
    CHECK(node == PACHISI_NODE_DECISION);
    /* The expected view, from a clone read by this thread alone. */
    pachisi_game *alone = NULL;
    EXPECT_OK(pachisi_game_clone(g, &alone));
    char *expected = snapshot(alone, rules);

    struct reader readers[READERS];
    pthread_t threads[READERS];
    memset(readers, 0, sizeof readers);
    for (int i = 0; i < READERS; i++) {
        readers[i].game = g;
        readers[i].rules = rules;
        readers[i].rounds = 3;
        EXPECT_OK(pachisi_policy_new("greedy", 5, &readers[i].policy));
        CHECK(pthread_create(&threads[i], NULL, read_game, &readers[i]) == 0);
    }
    for (int i = 0; i < READERS; i++) CHECK(pthread_join(threads[i], NULL) == 0);
    for (int i = 0; i < READERS; i++) {
        CHECK(readers[i].consistent);
        CHECK(readers[i].result && expected && !strcmp(readers[i].result, expected));
        /* Same spec and seed, same game: the same choice on every thread. */
        CHECK(readers[i].chosen == readers[0].chosen);
        free(readers[i].result);
        pachisi_policy_free(readers[i].policy);
    }
    /* The game is still usable, and unchanged by the reads. */
    char *after = snapshot(g, rules);
    CHECK(after && expected && !strcmp(after, expected));
    EXPECT_OK(pachisi_game_play(g, 0));
    free(after);
    free(expected);
    pachisi_game_free(alone);
    pachisi_game_free(g);
    pachisi_rules_free(rules);
}

int main(void) {
    run_readers("backgammon", 21);
    run_readers("parcheesi", 4);
    run_readers("pachisi", 9);
    return finish_checks("test_threads");
}
