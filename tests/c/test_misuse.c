/*
 * Misuse of the C ABI: NULL handles and out-pointers, NULL frees, out-of-range indices,
 * malformed JSON and notation, unknown presets and options, invalid UTF-8, too-small buffers,
 * wrong phases. Each must return its documented status, write no output, and leave the game
 * unchanged (its whole JSON compared before and after).
 *
 * Using a handle after pachisi_*_free is the caller's bug (undefined behaviour), so it is not
 * tested here; freeing NULL is defined and is.
 */
#include "check.h"

/* A pointer value no call may write over when it fails. */
#define SENTINEL ((void *)0x1)

static pachisi_game *new_game(const char *preset, uint64_t seed) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, seed, &g));
    return g;
}

/* Rolls (and plays the first legal play) until a decision node or the end, at most `limit`
 * actions. Returns the node reached. */
static pachisi_node advance_to_decision(pachisi_game *g, int limit) {
    pachisi_node node = PACHISI_NODE_OVER;
    for (int i = 0; i < limit; i++) {
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node != PACHISI_NODE_CHANCE) return node;
        EXPECT_OK(pachisi_game_roll(g, NULL));
    }
    return node;
}

static void test_versions_and_names(void) {
    CHECK(pachisi_abi_version() == PACHISI_ABI_VERSION);
    CHECK(pachisi_version() != NULL && strlen(pachisi_version()) > 0);
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_OK), "Ok"));
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_INVALID_ROLL), "InvalidRoll"));
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_BUFFER_TOO_SMALL), "BufferTooSmall"));
    CHECK(!strcmp(pachisi_result_name(-1), "Unknown"));
    CHECK(!strcmp(pachisi_result_name(9999), "Unknown"));
    /* The fixed numbers of the documented table. */
    CHECK(PACHISI_RESULT_OK == 0 && PACHISI_RESULT_UNKNOWN_VARIANT == 1 &&
          PACHISI_RESULT_INVALID_RULES == 2 && PACHISI_RESULT_INVALID_JSON == 3 &&
          PACHISI_RESULT_INVALID_NOTATION == 4 && PACHISI_RESULT_INVALID_POSITION == 5 &&
          PACHISI_RESULT_INVALID_ROLL == 6 && PACHISI_RESULT_ILLEGAL_MOVE == 7 &&
          PACHISI_RESULT_WRONG_PHASE == 8 && PACHISI_RESULT_NULL_POINTER == 100 &&
          PACHISI_RESULT_BUFFER_TOO_SMALL == 101 && PACHISI_RESULT_INDEX_OUT_OF_RANGE == 102 &&
          PACHISI_RESULT_INVALID_UTF8 == 103 && PACHISI_RESULT_PANIC == 104);
    CHECK(sizeof(pachisi_step) == 9);
}

static void test_free_null(void) {
    pachisi_game_free(NULL);
    pachisi_rules_free(NULL);
    CHECK(1);
}

static void test_creation_errors(void) {
    pachisi_game *g = (pachisi_game *)SENTINEL;
    pachisi_rules *r = (pachisi_rules *)SENTINEL;

    EXPECT_STATUS(pachisi_game_from_preset("snakes-and-ladders", NULL, 1, &g),
                  PACHISI_RESULT_UNKNOWN_VARIANT);
    CHECK(strstr(last_error(), "snakes-and-ladders") != NULL);
    EXPECT_STATUS(pachisi_rules_from_preset("", NULL, &r), PACHISI_RESULT_UNKNOWN_VARIANT);
    EXPECT_STATUS(pachisi_game_from_preset("parcheesi", "{\"no_such_option\": 1}", 1, &g),
                  PACHISI_RESULT_INVALID_RULES);
    CHECK(strstr(last_error(), "no_such_option") != NULL);
    EXPECT_STATUS(pachisi_game_from_preset("parcheesi", "{\"seats\": ", 1, &g),
                  PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_game_from_preset("parcheesi", "[1, 2]", 1, &g),
                  PACHISI_RESULT_INVALID_RULES);
    EXPECT_STATUS(pachisi_rules_from_json("{\"variant\": \"parcheesi\"", &r),
                  PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_rules_from_json("{\"variant\": \"ludo\"}", &r),
                  PACHISI_RESULT_UNKNOWN_VARIANT);
    EXPECT_STATUS(pachisi_rules_from_json("{\"seats\": 2}", &r), PACHISI_RESULT_INVALID_RULES);
    EXPECT_STATUS(pachisi_game_from_rules_json("not json", 1, &g), PACHISI_RESULT_INVALID_JSON);
    /* A key given twice is refused, not settled by the last one. */
    EXPECT_STATUS(pachisi_game_from_preset("parcheesi", "{\"seats\": 2, \"seats\": 4}", 1, &g),
                  PACHISI_RESULT_INVALID_JSON);
    CHECK(strstr(last_error(), "`seats` twice") != NULL);
    EXPECT_STATUS(pachisi_rules_from_json("{\"variant\": \"parcheesi\", \"variant\": \"pachisi\"}",
                                          &r),
                  PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_game_from_rules_json("{\"variant\": \"parcheesi\", \"seats\": 2, "
                                               "\"seats\": 3}",
                                               1, &g),
                  PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_game_from_json("{}", &g), PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_game_from_json("{\"rules\": {\"variant\": \"backgammon\"}}", &g),
                  PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_game_from_json("", &g), PACHISI_RESULT_INVALID_JSON);
    EXPECT_STATUS(pachisi_game_from_preset("parch\xff\xfe", NULL, 1, &g),
                  PACHISI_RESULT_INVALID_UTF8);
    EXPECT_STATUS(pachisi_game_from_json("{\"rules\": \"\xc3\x28\"}", &g),
                  PACHISI_RESULT_INVALID_UTF8);

    EXPECT_STATUS(pachisi_game_from_preset(NULL, NULL, 1, &g), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_from_preset("parcheesi", NULL, 1, NULL),
                  PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_new(NULL, 1, &g), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_from_rules_json(NULL, 1, &g), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_from_json(NULL, &g), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_from_position(NULL, "x", 1, &g), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_clone(NULL, &g), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_rules_from_preset(NULL, NULL, &r), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_rules_from_json(NULL, &r), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_rules_from_json("{\"variant\": \"parcheesi\"}", NULL),
                  PACHISI_RESULT_NULL_POINTER);

    /* A position in no variant's notation, for every preset. */
    size_t presets = pachisi_variant_count();
    for (size_t i = 0; i < presets; i++) {
        char name[64];
        size_t n = 0;
        EXPECT_OK(pachisi_variant_name(i, name, sizeof name, &n));
        pachisi_rules *rules = NULL;
        EXPECT_OK(pachisi_rules_from_preset(name, NULL, &rules));
        pachisi_result st = pachisi_game_from_position(rules, "\x01 not a position", 1, &g);
        CHECK(st == PACHISI_RESULT_INVALID_NOTATION || st == PACHISI_RESULT_INVALID_POSITION);
        EXPECT_STATUS(pachisi_game_from_position(rules, NULL, 1, &g), PACHISI_RESULT_NULL_POINTER);
        pachisi_rules_free(rules);
    }
    size_t n = 0;
    char name[64];
    EXPECT_STATUS(pachisi_variant_name(presets, name, sizeof name, &n),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);

    /* No failed call wrote its output. */
    CHECK(g == (pachisi_game *)SENTINEL);
    CHECK(r == (pachisi_rules *)SENTINEL);
}

static void test_null_arguments(pachisi_game *g) {
    char *before = game_json(g);
    char buf[64];
    size_t n = 0;
    uint8_t u8 = 7;
    size_t sz = 7;
    bool flag = false;
    double d = 0;
    pachisi_node node;
    pachisi_outcome outcome;
    pachisi_roll roll;
    pachisi_step step = {0, 0, 0, 0, 0, 1, 0, 0, 0};
    pachisi_rules *rules = NULL;

    /* NULL game. */
    EXPECT_STATUS(pachisi_game_to_json(NULL, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_rules_json(NULL, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_variant(NULL, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_rules(NULL, &rules), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_position(NULL, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_svg(NULL, 400, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_seats(NULL, &u8), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_node(NULL, &node), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_is_over(NULL, &flag), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_to_move(NULL, &u8), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_winner(NULL, &u8), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_outcome(NULL, &outcome), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_returns(NULL, &d, 1, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_history_len(NULL, &sz), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_chance_outcome_count(NULL, &sz), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_chance_outcome(NULL, 0, &roll, &d), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_roll(NULL, &roll), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_set_roll(NULL, &roll), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_set_dice(NULL, 1, 2), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_set_cowries(NULL, 2), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_play_count(NULL, &sz), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_play(NULL, 0, &step, 1, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_play_notation(NULL, 0, buf, sizeof buf, &n),
                  PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_play(NULL, 0), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_play_notation(NULL, "x"), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_play_steps(NULL, &step, 1), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_step_count(NULL, &sz), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_step(NULL, 0, &step), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_step_index(NULL, 0), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_step(NULL, &step), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_taken_steps(NULL, &step, 1, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_finish_play(NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_undo(NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_rules_to_json(NULL, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_rules_variant(NULL, buf, sizeof buf, &n), PACHISI_RESULT_NULL_POINTER);

    /* NULL out-pointers on a live game. */
    EXPECT_STATUS(pachisi_game_to_json(g, buf, sizeof buf, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_to_json(g, NULL, 10, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_position(g, buf, sizeof buf, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_svg(g, 400, buf, sizeof buf, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_svg(g, 400, NULL, 10, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_rules(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_seats(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_node(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_is_over(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_to_move(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_winner(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_outcome(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_returns(g, NULL, 4, &n), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_history_len(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_chance_outcome_count(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_chance_outcome(g, 0, NULL, &d), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_chance_outcome(g, 0, &roll, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_set_roll(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_play_count(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_step_count(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_legal_step(g, 0, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_play_notation(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_play_steps(g, NULL, 2), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_step(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_taken_steps(g, &step, 1, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_last_error(buf, sizeof buf, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_variant_name(0, buf, sizeof buf, NULL), PACHISI_RESULT_NULL_POINTER);
    CHECK(u8 == 7 && sz == 7 && rules == NULL);

    char *after = game_json(g);
    CHECK(before && after && !strcmp(before, after));
    free(before);
    free(after);
}

static void test_small_buffers(pachisi_game *g) {
    char *json = game_json(g);
    char *before = json;
    size_t len = json ? strlen(json) : 0;
    char buf[8];
    size_t n = 0;

    /* Every string output: too small reports the size and writes nothing. */
    memset(buf, 'x', sizeof buf);
    EXPECT_STATUS(pachisi_game_to_json(g, buf, 2, &n), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == len + 1);
    CHECK(buf[0] == 'x' && buf[1] == 'x');
    char *exact = (char *)malloc(len + 1);
    EXPECT_STATUS(pachisi_game_to_json(g, exact, len, &n), PACHISI_RESULT_BUFFER_TOO_SMALL);
    EXPECT_OK(pachisi_game_to_json(g, exact, len + 1, &n));
    CHECK(n == len + 1 && exact[len] == '\0' && json && !strcmp(exact, json));
    free(exact);

    size_t needed = 0;
    EXPECT_STATUS(pachisi_game_rules_json(g, buf, 2, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed > 2);
    EXPECT_STATUS(pachisi_game_variant(g, NULL, 0, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed > 1);
    memset(buf, 'x', sizeof buf);
    EXPECT_STATUS(pachisi_game_svg(g, 400, buf, sizeof buf, &needed),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed > sizeof buf && buf[0] == 'x' && buf[sizeof buf - 1] == 'x');
    EXPECT_STATUS(pachisi_variant_name(0, buf, 1, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed > 1);
    double returns[4];
    EXPECT_STATUS(pachisi_game_returns(g, returns, 1, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    uint8_t seats = 0;
    EXPECT_OK(pachisi_game_seats(g, &seats));
    CHECK(needed == seats);

    /* The last error message: too small keeps the message for a second try. */
    EXPECT_STATUS(pachisi_game_undo(NULL), PACHISI_RESULT_NULL_POINTER);
    char small[4];
    EXPECT_STATUS(pachisi_last_error(small, sizeof small, &needed),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    char *message = (char *)malloc(needed);
    size_t got = 0;
    EXPECT_OK(pachisi_last_error(message, needed, &got));
    CHECK(got == needed && strstr(message, "game") != NULL);
    free(message);

    char *after = game_json(g);
    CHECK(before && after && !strcmp(before, after));
    free(before);
    free(after);
}

/* Misuse at whatever node the game is at; all of it must leave the game unchanged. */
static void test_wrong_moves(pachisi_game *g, const char *preset) {
    char *before = game_json(g);
    pachisi_node node;
    EXPECT_OK(pachisi_game_node(g, &node));
    size_t plays = 0, steps = 0, outcomes = 0;
    EXPECT_OK(pachisi_game_legal_play_count(g, &plays));
    EXPECT_OK(pachisi_game_legal_step_count(g, &steps));
    EXPECT_OK(pachisi_game_chance_outcome_count(g, &outcomes));
    pachisi_step step_buf[PACHISI_MAX_STEPS];
    pachisi_step one;
    pachisi_roll roll;
    double p = 0;
    size_t n = 0;
    char buf[64];

    EXPECT_STATUS(pachisi_game_play(g, plays), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_game_play(g, (size_t)-1), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_game_legal_play(g, plays, step_buf, PACHISI_MAX_STEPS, &n),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_game_legal_play_notation(g, plays, buf, sizeof buf, &n),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_game_legal_step(g, steps, &one), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_game_step_index(g, steps + 5), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(pachisi_game_chance_outcome(g, outcomes, &roll, &p),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);

    pachisi_step bogus = {0, 0, 0, 0, 0, 1, 0, 99, 0};
    pachisi_result st = pachisi_game_step(g, &bogus);
    CHECK(st == PACHISI_RESULT_ILLEGAL_MOVE);
    st = pachisi_game_play_steps(g, &bogus, 1);
    CHECK(st == PACHISI_RESULT_ILLEGAL_MOVE);
    pachisi_step too_many[PACHISI_MAX_STEPS + 1];
    memset(too_many, 0, sizeof too_many);
    EXPECT_STATUS(pachisi_game_play_steps(g, too_many, PACHISI_MAX_STEPS + 1),
                  PACHISI_RESULT_ILLEGAL_MOVE);

    if (node == PACHISI_NODE_DECISION) {
        /* Text no notation parses: either status is right for it. */
        st = pachisi_game_play_notation(g, "certainly not a move");
        CHECK(st == PACHISI_RESULT_INVALID_NOTATION || st == PACHISI_RESULT_ILLEGAL_MOVE);
        EXPECT_STATUS(pachisi_game_roll(g, &roll), PACHISI_RESULT_WRONG_PHASE);
        EXPECT_STATUS(pachisi_game_set_dice(g, 3, 4), PACHISI_RESULT_WRONG_PHASE);
        /* A legal play's steps with one changed are no legal play. */
        if (plays > 0) {
            EXPECT_OK(pachisi_game_legal_play(g, 0, step_buf, PACHISI_MAX_STEPS, &n));
            if (n > 0) {
                step_buf[0].to = (uint8_t)(step_buf[0].to + 97);
                EXPECT_STATUS(pachisi_game_play_steps(g, step_buf, n), PACHISI_RESULT_ILLEGAL_MOVE);
                EXPECT_STATUS(pachisi_game_step(g, &step_buf[0]), PACHISI_RESULT_ILLEGAL_MOVE);
            }
        }
    } else {
        EXPECT_STATUS(pachisi_game_play_notation(g, "anything"), PACHISI_RESULT_WRONG_PHASE);
        EXPECT_STATUS(pachisi_game_finish_play(g), PACHISI_RESULT_WRONG_PHASE);
        CHECK(plays == 0 && steps == 0);
    }
    if (node == PACHISI_NODE_CHANCE) {
        pachisi_roll bad_kind = {9, {1, 2}, 0};
        EXPECT_STATUS(pachisi_game_set_roll(g, &bad_kind), PACHISI_RESULT_INVALID_ROLL);
        /* Dice out of range, or a cowrie count no throw gives, whichever this variant uses. */
        EXPECT_STATUS(pachisi_game_set_dice(g, 0, 7), PACHISI_RESULT_INVALID_ROLL);
        EXPECT_STATUS(pachisi_game_set_cowries(g, 200), PACHISI_RESULT_INVALID_ROLL);
        EXPECT_STATUS(pachisi_game_finish_play(g), PACHISI_RESULT_WRONG_PHASE);
    }
    if (node == PACHISI_NODE_OVER) {
        EXPECT_STATUS(pachisi_game_roll(g, &roll), PACHISI_RESULT_WRONG_PHASE);
        EXPECT_STATUS(pachisi_game_set_dice(g, 3, 4), PACHISI_RESULT_WRONG_PHASE);
        CHECK(outcomes == 0);
    }

    char *after = game_json(g);
    CHECK(before && after && !strcmp(before, after));
    if (!(before && after && !strcmp(before, after)))
        fprintf(stderr, "  (%s: a failed call changed the game)\n", preset);
    free(before);
    free(after);
}

static void test_undo_without_history(const char *preset) {
    pachisi_game *g = new_game(preset, 5);
    char *before = game_json(g);
    size_t h = 1;
    EXPECT_OK(pachisi_game_history_len(g, &h));
    CHECK(h == 0);
    EXPECT_STATUS(pachisi_game_undo(g), PACHISI_RESULT_WRONG_PHASE);
    char *after = game_json(g);
    CHECK(before && after && !strcmp(before, after));
    free(before);
    free(after);
    pachisi_game_free(g);
}

static void test_simulate_misuse(void) {
    pachisi_rules *rules = NULL;
    pachisi_game_record records[2];
    memset(records, 0xAB, sizeof records);
    EXPECT_OK(pachisi_rules_from_preset("backgammon", NULL, &rules));
    EXPECT_STATUS(pachisi_simulate(NULL, 1, 1, records, 2), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_simulate(rules, 1, 1, NULL, 2), PACHISI_RESULT_NULL_POINTER);
    CHECK(records[0].rolls == 0xABABABABu);
    EXPECT_OK(pachisi_simulate(rules, 1, 1, NULL, 0));
    pachisi_rules_free(rules);
}

int main(void) {
    test_versions_and_names();
    test_free_null();
    test_creation_errors();
    test_simulate_misuse();
    size_t presets = pachisi_variant_count();
    CHECK(presets == 5);
    for (size_t i = 0; i < presets; i++) {
        char preset[64];
        size_t n = 0;
        EXPECT_OK(pachisi_variant_name(i, preset, sizeof preset, &n));
        CHECK(n == strlen(preset) + 1);
        pachisi_game *g = new_game(preset, 11 + i);
        if (!g) continue;
        test_null_arguments(g);
        test_small_buffers(g);
        test_wrong_moves(g, preset); /* at the start */
        pachisi_node node = advance_to_decision(g, 200);
        test_wrong_moves(g, preset); /* at a decision node, or the end */
        if (node != PACHISI_NODE_DECISION)
            printf("note: %s reached no decision node; decision-node misuse not exercised\n",
                   preset);
        test_null_arguments(g);
        test_small_buffers(g);
        test_undo_without_history(preset);
        pachisi_game_free(g);
    }
    return finish_checks("misuse");
}
