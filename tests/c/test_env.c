/* test_env.c: the reinforcement-learning environment through the C ABI (pachisi_env_*):
 * games of every preset played to their end through legal action ids, the mask, the
 * observation and its views, explicit chance, copies, JSON, truncation and bad calls. */
#include "check.h"

#include <stdbool.h>
#include <stdint.h>

static pachisi_env *new_env(const char *preset, const char *options, uint32_t encoding,
                            uint32_t observation, bool auto_chance) {
    pachisi_rules *rules = NULL;
    pachisi_env *env = NULL;
    EXPECT_OK(pachisi_rules_from_preset(preset, options, &rules));
    EXPECT_OK(pachisi_env_new(rules, encoding, observation, 11, auto_chance, &env));
    pachisi_rules_free(rules);
    return env;
}

DEFINE_READER(env_json, pachisi_env, pachisi_env_to_json)
DEFINE_READER(env_position, pachisi_env, pachisi_env_position)

/* The views tile the observation: in order, each starting where the one before ended, the
 * last ending at its size. */
static void check_views(const pachisi_env *env, size_t size) {
    size_t count = 0, end = 0;
    EXPECT_OK(pachisi_env_view_count(env, &count));
    CHECK(count > 0);
    for (size_t i = 0; i < count; i++) {
        char name[64];
        size_t offset = 0, n = 0, written = 0;
        EXPECT_OK(pachisi_env_view(env, i, &offset, &n, name, sizeof name, &written));
        CHECK(written == strlen(name) + 1 && written > 1);
        CHECK(offset == end && n > 0);
        end = offset + n;
    }
    CHECK(end == size);
    size_t offset = 7, n = 7, written = 0;
    char name[4];
    EXPECT_STATUS(pachisi_env_view(env, count, &offset, &n, name, sizeof name, &written),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    CHECK(offset == 7 && n == 7);
}

/* Plays one game to its end, taking the `pick`-th legal id (modulo their count) at each
 * decision and, without auto chance, rolling by the chance outcomes in turn. */
static void play_to_end(pachisi_env *env, bool auto_chance, size_t pick) {
    size_t n = 0, size = 0;
    uint8_t seats = 0;
    EXPECT_OK(pachisi_env_num_actions(env, &n));
    EXPECT_OK(pachisi_env_observation_size(env, &size));
    EXPECT_OK(pachisi_env_seats(env, &seats));
    CHECK(n > 0 && size > 0 && seats >= 2 && seats <= 4);
    check_views(env, size);
    uint32_t *ids = (uint32_t *)malloc(n * sizeof *ids);
    uint8_t *mask = (uint8_t *)malloc(n);
    float *obs = (float *)malloc(size * sizeof *obs);
    size_t actions = 0, rolls = 0;
    for (;;) {
        pachisi_node node = PACHISI_NODE_OVER;
        EXPECT_OK(pachisi_env_node(env, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) {
            CHECK(!auto_chance);
            size_t outcomes = 0;
            double total = 0.0;
            EXPECT_OK(pachisi_env_chance_outcome_count(env, &outcomes));
            CHECK(outcomes > 0);
            for (size_t i = 0; i < outcomes; i++) {
                pachisi_roll roll;
                double p = 0.0;
                EXPECT_OK(pachisi_env_chance_outcome(env, i, &roll, &p));
                total += p;
            }
            CHECK(total > 1.0 - 1e-9 && total < 1.0 + 1e-9);
            if (rolls % 2 == 0) {
                EXPECT_OK(pachisi_env_apply_chance_outcome(env, rolls % outcomes));
            } else {
                EXPECT_OK(pachisi_env_roll(env, NULL));
            }
            rolls++;
            continue;
        }
        size_t k = 0, m = 0, legal = 0, w = 0;
        EXPECT_OK(pachisi_env_legal_actions(env, ids, n, &k));
        EXPECT_OK(pachisi_env_action_mask(env, mask, n, &m));
        CHECK(k > 0 && m == n);
        for (size_t a = 0; a < n; a++) legal += mask[a];
        CHECK(legal == k);
        for (size_t i = 0; i < k; i++) {
            bool is_legal = false;
            CHECK(mask[ids[i]] == 1 && (i == 0 || ids[i - 1] < ids[i]));
            EXPECT_OK(pachisi_env_is_legal(env, ids[i], &is_legal));
            CHECK(is_legal);
        }
        uint8_t to_move = 255;
        EXPECT_OK(pachisi_env_current_player(env, &to_move));
        CHECK(to_move < seats);
        EXPECT_OK(pachisi_env_observe(env, to_move, obs, size, &w));
        CHECK(w == size);
        uint32_t action = ids[(pick + actions) % k];
        char text[512];
        EXPECT_OK(pachisi_env_action_to_string(env, action, text, sizeof text, &w));
        CHECK(w > 1);
        EXPECT_OK(pachisi_env_apply_action(env, action));
        actions++;
    }
    double returns[4] = {9, 9, 9, 9}, sum = 0.0;
    size_t w = 0;
    EXPECT_OK(pachisi_env_returns(env, returns, 4, &w));
    CHECK(w == seats);
    for (size_t i = 0; i < w; i++) sum += returns[i];
    CHECK(sum > -1e-9 && sum < 1e-9);
    CHECK(actions > 0);
    /* Over: no action, no roll. */
    size_t k = 7;
    EXPECT_OK(pachisi_env_legal_actions(env, ids, n, &k));
    CHECK(k == 0);
    EXPECT_STATUS(pachisi_env_apply_action(env, 0), PACHISI_RESULT_WRONG_PHASE);
    EXPECT_STATUS(pachisi_env_roll(env, NULL), PACHISI_RESULT_WRONG_PHASE);
    free(ids);
    free(mask);
    free(obs);
}

static void test_every_preset(void) {
    const char *presets[] = {"parcheesi", "pachisi-online", "pachisi-family", "pachisi",
                             "backgammon"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        pachisi_env *env = new_env(presets[i], NULL, PACHISI_ENCODING_STEP,
                                   PACHISI_OBSERVATION_PLAIN, true);
        play_to_end(env, true, i);
        pachisi_env_free(env);
        env = new_env(presets[i], NULL, PACHISI_ENCODING_PLAY, PACHISI_OBSERVATION_FEATURES,
                      false);
        play_to_end(env, false, i + 1);
        /* A reset starts again (a roll is due without auto chance). */
        pachisi_node node = PACHISI_NODE_OVER;
        EXPECT_OK(pachisi_env_reset(env, 5));
        EXPECT_OK(pachisi_env_node(env, &node));
        CHECK(node == PACHISI_NODE_CHANCE);
        pachisi_env_free(env);
    }
    pachisi_env *env = new_env("backgammon", NULL, PACHISI_ENCODING_OPENSPIEL,
                               PACHISI_OBSERVATION_PLAIN, true);
    size_t n = 0;
    EXPECT_OK(pachisi_env_num_actions(env, &n));
    CHECK(n == 1352);
    play_to_end(env, true, 3);
    pachisi_env_free(env);
}

static void test_copies_and_json(void) {
    pachisi_env *a = new_env("parcheesi", "{\"seats\": 2}", PACHISI_ENCODING_STEP,
                             PACHISI_OBSERVATION_PLAIN, true);
    pachisi_env *b = NULL;
    uint32_t ids[2048];
    size_t k = 0;
    for (int i = 0; i < 20; i++) {
        EXPECT_OK(pachisi_env_legal_actions(a, ids, 2048, &k));
        EXPECT_OK(pachisi_env_apply_action(a, ids[0]));
    }
    EXPECT_OK(pachisi_env_clone(a, &b));
    char *ja = env_json(a), *jb = env_json(b);
    CHECK(ja && jb && strcmp(ja, jb) == 0);
    /* The copy goes on alone; loading the first one's JSON brings it back. */
    EXPECT_OK(pachisi_env_legal_actions(b, ids, 2048, &k));
    EXPECT_OK(pachisi_env_apply_action(b, ids[k - 1]));
    char *moved = env_json(b), *still = env_json(a);
    CHECK(moved && still && strcmp(moved, ja) != 0 && strcmp(still, ja) == 0);
    EXPECT_OK(pachisi_env_load_json(b, ja));
    char *back = env_json(b);
    CHECK(back && strcmp(back, ja) == 0);
    EXPECT_OK(pachisi_env_load_json_n(b, moved, strlen(moved)));
    char *pos = env_position(b);
    CHECK(pos && strlen(pos) > 0);
    /* A bad document is an error and changes nothing. */
    EXPECT_STATUS(pachisi_env_load_json(b, "{\"nope\": 1}"), PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_env_load_json(b, NULL), PACHISI_RESULT_NULL_POINTER);
    char *after = env_json(b);
    CHECK(after && strcmp(after, moved) == 0);
    free(ja);
    free(jb);
    free(moved);
    free(still);
    free(back);
    free(pos);
    free(after);
    pachisi_env_free(a);
    pachisi_env_free(b);
}

/* A game saved where a roll is due loads into an environment with automatic chance, which
 * rolls at once with the saved generator. */
static void test_chance_node_into_auto_chance(void) {
    const char *presets[] = {"parcheesi", "pachisi", "backgammon"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        pachisi_env *manual = new_env(presets[i], NULL, PACHISI_ENCODING_STEP,
                                      PACHISI_OBSERVATION_PLAIN, false);
        pachisi_env *automatic = new_env(presets[i], NULL, PACHISI_ENCODING_STEP,
                                         PACHISI_OBSERVATION_PLAIN, true);
        char *saved = env_json(manual);
        CHECK(saved != NULL);
        EXPECT_OK(pachisi_env_load_json(automatic, saved));
        pachisi_node node = PACHISI_NODE_CHANCE;
        EXPECT_OK(pachisi_env_node(automatic, &node));
        CHECK(node != PACHISI_NODE_CHANCE);
        /* The explicit game rolling with its own (the same) generator reaches the same game. */
        EXPECT_OK(pachisi_env_node(manual, &node));
        for (int k = 0; k < 100 && node == PACHISI_NODE_CHANCE; k++) {
            EXPECT_OK(pachisi_env_roll(manual, NULL));
            EXPECT_OK(pachisi_env_node(manual, &node));
        }
        char *a = env_position(manual), *b = env_position(automatic);
        CHECK(a && b && strcmp(a, b) == 0);
        free(saved);
        free(a);
        free(b);
        pachisi_env_free(manual);
        pachisi_env_free(automatic);
    }
}

static void test_truncated(void) {
    pachisi_env *env = new_env("parcheesi", "{\"max_rolls\": 6}", PACHISI_ENCODING_PLAY,
                               PACHISI_OBSERVATION_PLAIN, true);
    pachisi_node node = PACHISI_NODE_DECISION;
    for (int i = 0; i < 100 && node != PACHISI_NODE_OVER; i++) {
        EXPECT_OK(pachisi_env_node(env, &node));
        if (node == PACHISI_NODE_DECISION) EXPECT_OK(pachisi_env_apply_action(env, 0));
    }
    bool truncated = false;
    double returns[4] = {1, 1, 1, 1};
    size_t w = 0;
    EXPECT_OK(pachisi_env_is_truncated(env, &truncated));
    EXPECT_OK(pachisi_env_returns(env, returns, 4, &w));
    CHECK(node == PACHISI_NODE_OVER && truncated && w == 4);
    CHECK(returns[0] == 0 && returns[1] == 0 && returns[2] == 0 && returns[3] == 0);
    pachisi_env_free(env);
}

static void test_bad_calls(void) {
    pachisi_rules *rules = NULL;
    pachisi_env *env = NULL;
    EXPECT_OK(pachisi_rules_from_preset("pachisi", NULL, &rules));
    EXPECT_STATUS(pachisi_env_new(rules, 9, PACHISI_OBSERVATION_PLAIN, 1, true, &env),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_env_new(rules, PACHISI_ENCODING_STEP, 9, 1, true, &env),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_env_new(rules, PACHISI_ENCODING_OPENSPIEL, PACHISI_OBSERVATION_PLAIN,
                                  1, true, &env),
                  PACHISI_RESULT_INVALID_RULES);
    EXPECT_STATUS(pachisi_env_new(NULL, PACHISI_ENCODING_STEP, PACHISI_OBSERVATION_PLAIN, 1,
                                  true, &env),
                  PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_env_new(rules, PACHISI_ENCODING_STEP, PACHISI_OBSERVATION_PLAIN, 1,
                                  true, NULL),
                  PACHISI_RESULT_NULL_POINTER);
    CHECK(env == NULL);
    EXPECT_OK(pachisi_env_new(rules, PACHISI_ENCODING_STEP, PACHISI_OBSERVATION_PLAIN, 1, false,
                              &env));
    pachisi_rules_free(rules);
    char *before = env_json(env);
    size_t n = 0, size = 0, w = 99;
    EXPECT_OK(pachisi_env_num_actions(env, &n));
    EXPECT_OK(pachisi_env_observation_size(env, &size));
    /* A roll is due: no action, id out of range, seat out of range, short buffers. */
    EXPECT_STATUS(pachisi_env_apply_action(env, 0), PACHISI_RESULT_WRONG_PHASE);
    EXPECT_STATUS(pachisi_env_apply_action(env, (uint32_t)n), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    bool legal = true;
    EXPECT_STATUS(pachisi_env_is_legal(env, UINT32_MAX, &legal), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_OK(pachisi_env_is_legal(env, 0, &legal));
    CHECK(!legal);
    char text[8];
    EXPECT_STATUS(pachisi_env_action_to_string(env, (uint32_t)n, text, sizeof text, &w),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    float *obs = (float *)calloc(size, sizeof *obs);
    EXPECT_STATUS(pachisi_env_observe(env, 4, obs, size, &w), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_env_observe(env, 0, obs, size - 1, &w),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(w == size);
    EXPECT_STATUS(pachisi_env_observe(env, 0, NULL, 0, &w), PACHISI_RESULT_BUFFER_TOO_SMALL);
    uint8_t mask[4];
    EXPECT_STATUS(pachisi_env_action_mask(env, mask, sizeof mask, &w),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(w == n);
    size_t outcomes = 0;
    EXPECT_OK(pachisi_env_chance_outcome_count(env, &outcomes));
    EXPECT_STATUS(pachisi_env_apply_chance_outcome(env, outcomes),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_env_num_actions(NULL, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_env_num_actions(env, NULL), PACHISI_RESULT_NULL_POINTER);
    char *after = env_json(env);
    CHECK(before && after && strcmp(before, after) == 0);
    free(before);
    free(after);
    free(obs);
    pachisi_env_free(env);
    pachisi_env_free(NULL);
}

int main(void) {
    test_every_preset();
    test_copies_and_json();
    test_chance_node_into_auto_chance();
    test_truncated();
    test_bad_calls();
    return finish_checks("env");
}
