/*
 * The ABI contract an engine builds on: fixed-width status and enum types (this file is also
 * compiled with -fshort-enums), status names and descriptions, error messages without NUL
 * bytes, size queries that keep the last message, panics that become a status silently,
 * strict roll and options input, pointer+length strings, and the seat / colour of a step in
 * two-seat Classic Pachisi.
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to watch stderr */
#include "check.h"

#include <stdint.h>
#include <unistd.h>

/* Fixed widths, whatever the compiler does with enums (-fshort-enums included). */
_Static_assert(sizeof(pachisi_result) == 4, "pachisi_result is a uint32_t");
_Static_assert(sizeof(pachisi_node) == 4, "pachisi_node is a uint32_t");
_Static_assert(sizeof(pachisi_step_kind) == 1, "pachisi_step_kind is a uint8_t");
_Static_assert(sizeof(pachisi_roll_kind) == 1, "pachisi_roll_kind is a uint8_t");
_Static_assert(sizeof(pachisi_step) == 9, "pachisi_step is nine uint8_t");
_Static_assert(sizeof(pachisi_roll) == 4, "pachisi_roll is four uint8_t");
_Static_assert(PACHISI_ABI_VERSION == 2, "this test checks ABI 2");

static void test_fixed_width_outputs(void) {
    /* A node written through a pointer must not spill past 4 bytes, nor leave any of them. */
    struct {
        pachisi_node node;
        uint32_t guard;
    } out = {0xFFFFFFFFu, 0xA5A5A5A5u};
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset("backgammon", NULL, 3, &g));
    EXPECT_OK(pachisi_game_node(g, &out.node));
    CHECK(out.node == PACHISI_NODE_CHANCE);
    CHECK(out.guard == 0xA5A5A5A5u);
    EXPECT_OK(pachisi_game_roll(g, NULL));
    EXPECT_OK(pachisi_game_node(g, &out.node));
    CHECK(out.node == PACHISI_NODE_DECISION);
    pachisi_game_free(g);
    CHECK(pachisi_abi_version() == PACHISI_ABI_VERSION);
}

static void test_names_and_descriptions(void) {
    /* Every documented code has a name and a description; other numbers have neither. */
    static const uint32_t codes[] = {0,  1,  2,  3,   4,   5,   6,   7,   8,  9,
                                     10, 11, 12, 100, 101, 102, 103, 104, 105};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        CHECK(strcmp(pachisi_result_name(codes[i]), "Unknown") != 0);
        CHECK(strcmp(pachisi_result_description(codes[i]), "not a pachisi status code") != 0);
    }
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_INVALID_UTF8), "InvalidUtf8"));
    CHECK(!strcmp(pachisi_result_description(PACHISI_RESULT_NULL_POINTER),
                  "a required pointer was NULL"));
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_CANCELLED), "Cancelled"));
    CHECK(!strcmp(pachisi_result_name(13), "Unknown"));
    CHECK(!strcmp(pachisi_result_name(UINT32_MAX), "Unknown"));
    CHECK(!strcmp(pachisi_result_description(99), "not a pachisi status code"));
}

/* The last error's size as reported, and whether the text is exactly that long. */
static int message_is_whole(void) {
    size_t needed = 0, written = 0;
    if (pachisi_last_error(NULL, 0, &needed) != PACHISI_RESULT_BUFFER_TOO_SMALL) return 0;
    char *buf = (char *)malloc(needed);
    int ok = buf && pachisi_last_error(buf, needed, &written) == PACHISI_RESULT_OK &&
             written == needed && strlen(buf) + 1 == written;
    free(buf);
    return ok;
}

static void test_messages_hold_no_nul(void) {
    pachisi_rules *r = NULL;
    /* JSON can carry a NUL (\u0000) into an echoed name: it comes back escaped. */
    EXPECT_STATUS(pachisi_rules_from_json("{\"variant\":\"ab\\u0000cd\"}", &r),
                  PACHISI_RESULT_UNKNOWN_VARIANT);
    CHECK(message_is_whole());
    CHECK(strstr(last_error(), "ab\\u0000cd") != NULL);
    /* A raw NUL inside a pointer+length name. */
    static const char name[] = {'l', 'u', '\0', 'd', 'o'};
    EXPECT_STATUS(pachisi_rules_from_preset_n(name, sizeof name, NULL, 0, &r),
                  PACHISI_RESULT_UNKNOWN_VARIANT);
    CHECK(message_is_whole());
    CHECK(strstr(last_error(), "lu\\u0000do") != NULL);
    CHECK(r == NULL);
}

static void test_size_queries_keep_the_message(void) {
    pachisi_game *g = NULL, *none = NULL;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", NULL, 1, &g));
    EXPECT_STATUS(pachisi_game_undo(g), PACHISI_RESULT_WRONG_PHASE);
    char before[512];
    snprintf(before, sizeof before, "%s", last_error());
    CHECK(strlen(before) > 0);
    size_t needed = 0;
    EXPECT_STATUS(pachisi_game_to_json(g, NULL, 0, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(!strcmp(last_error(), before));
    char small[4];
    EXPECT_STATUS(pachisi_game_position(g, small, sizeof small, &needed),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(!strcmp(last_error(), before));
    EXPECT_STATUS(pachisi_variant_name(0, NULL, 0, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(!strcmp(last_error(), before));
    /* Any other failure replaces it. */
    EXPECT_STATUS(pachisi_game_from_preset("ludo", NULL, 1, &none), PACHISI_RESULT_UNKNOWN_VARIANT);
    CHECK(strcmp(last_error(), before) != 0);
    pachisi_game_free(g);
}

static void test_two_call_protocol(void) {
    /* Size query then copy, for every game string output: the same text as a single call
     * with a big buffer (the library keeps the first serialisation for the second call). */
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset("pachisi-family", NULL, 5, &g));
    for (int i = 0; i < 30; i++) {
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) EXPECT_OK(pachisi_game_roll(g, NULL));
        else EXPECT_OK(pachisi_game_play(g, 0));
    }
    char *two = game_json(g);
    size_t big = 1 << 20, n = 0;
    char *one = (char *)malloc(big);
    EXPECT_OK(pachisi_game_to_json(g, one, big, &n));
    CHECK(two && one && !strcmp(one, two) && n == strlen(one) + 1);
    /* A size query, a change of the game, then the copy: the copy is of the new state. */
    size_t needed = 0;
    EXPECT_STATUS(pachisi_game_to_json(g, NULL, 0, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    pachisi_node node;
    EXPECT_OK(pachisi_game_node(g, &node));
    if (node == PACHISI_NODE_CHANCE) EXPECT_OK(pachisi_game_roll(g, NULL));
    else if (node == PACHISI_NODE_DECISION) EXPECT_OK(pachisi_game_play(g, 0));
    EXPECT_OK(pachisi_game_to_json(g, one, big, &n));
    char *after = game_json(g);
    CHECK(after && !strcmp(one, after));
    if (node != PACHISI_NODE_OVER) CHECK(strcmp(one, two) != 0);
    free(one);
    free(two);
    free(after);
    pachisi_game_free(g);
}

static void test_panics_are_silent(void) {
    fflush(stderr);
    int saved = dup(2);
    FILE *capture = tmpfile();
    CHECK(saved >= 0 && capture != NULL);
    if (saved < 0 || !capture) return;
    dup2(fileno(capture), 2);
    pachisi_result r = pachisi_test_panic();
    pachisi_result again = pachisi_test_panic();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long printed = ftell(capture) >= 0 ? (fseek(capture, 0, SEEK_END), ftell(capture)) : -1;
    fclose(capture);
    CHECK(r == PACHISI_RESULT_PANIC && again == PACHISI_RESULT_PANIC);
    CHECK(printed == 0);
    CHECK(strstr(last_error(), "pachisi_test_panic") != NULL);
    CHECK(message_is_whole());
}

static void test_rolls_are_strict(void) {
    pachisi_game *g = NULL, *c = NULL;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", NULL, 2, &g));
    char *before = game_json(g);
    pachisi_roll dice_with_up = {PACHISI_ROLL_KIND_DICE, {3, 4}, 1};
    EXPECT_STATUS(pachisi_game_set_roll(g, &dice_with_up), PACHISI_RESULT_INVALID_ROLL);
    CHECK(strstr(last_error(), "up") != NULL);
    char *after = game_json(g);
    CHECK(before && after && !strcmp(before, after));
    pachisi_roll dice = {PACHISI_ROLL_KIND_DICE, {3, 4}, 0};
    EXPECT_OK(pachisi_game_set_roll(g, &dice));

    EXPECT_OK(pachisi_game_from_preset("pachisi", NULL, 2, &c));
    pachisi_roll cowries_with_dice = {PACHISI_ROLL_KIND_COWRIES, {0, 2}, 3};
    EXPECT_STATUS(pachisi_game_set_roll(c, &cowries_with_dice), PACHISI_RESULT_INVALID_ROLL);
    CHECK(strstr(last_error(), "dice") != NULL);
    pachisi_roll cowries = {PACHISI_ROLL_KIND_COWRIES, {0, 0}, 3};
    EXPECT_OK(pachisi_game_set_roll(c, &cowries));
    free(before);
    free(after);
    pachisi_game_free(g);
    pachisi_game_free(c);
}

static void test_options_are_strict(void) {
    pachisi_rules *r = NULL;
    pachisi_game *g = NULL;
    /* A `variant` key in options is refused, even one naming the same preset. */
    EXPECT_STATUS(pachisi_rules_from_preset("parcheesi", "{\"variant\": \"parcheesi\"}", &r),
                  PACHISI_RESULT_INVALID_RULES);
    CHECK(strstr(last_error(), "variant") != NULL);
    EXPECT_STATUS(pachisi_game_from_preset("parcheesi", "{\"variant\": \"backgammon\"}", 1, &g),
                  PACHISI_RESULT_INVALID_RULES);
    EXPECT_STATUS(pachisi_game_from_preset("pachisi", "{\"seats\": 2, \"colour\": 1}", 1, &g),
                  PACHISI_RESULT_INVALID_RULES);
    CHECK(strstr(last_error(), "colour") != NULL);
    CHECK(r == NULL && g == NULL);
    /* The whole-document reader still takes `variant`, as its format says. */
    EXPECT_OK(pachisi_rules_from_json("{\"variant\": \"parcheesi\", \"seats\": 2}", &r));
    pachisi_rules_free(r);
}

static void test_pointer_and_length_inputs(void) {
    /* Strings given by length: no terminator is read (the bytes after are not NUL). */
    static const char text[] = "backgammon!!{\"seats\": 2}XX";
    pachisi_game *g = NULL, *h = NULL, *k = NULL;
    pachisi_rules *r = NULL;
    EXPECT_OK(pachisi_game_from_preset_n(text, 10, NULL, 0, 7, &g));
    EXPECT_OK(pachisi_rules_from_preset_n("parcheesi...", 9, text + 12, 12, &r));
    char *json = rules_json(r);
    CHECK(json && strstr(json, "\"seats\":2") != NULL);
    /* JSON and positions by length round-trip. */
    char *gj = game_json(g);
    EXPECT_OK(pachisi_game_from_json_n(gj, strlen(gj), &h));
    char *hj = game_json(h);
    CHECK(gj && hj && !strcmp(gj, hj));
    EXPECT_OK(pachisi_game_from_rules_json_n(json, strlen(json), 1, &k));
    pachisi_game_free(k);
    k = NULL;
    char *pos = game_position(g);
    pachisi_rules *bg = NULL;
    EXPECT_OK(pachisi_game_rules(g, &bg));
    EXPECT_OK(pachisi_game_from_position_n(bg, pos, strlen(pos), 7, &k));
    /* A play by length. */
    EXPECT_OK(pachisi_game_set_dice(g, 3, 1));
    EXPECT_OK(pachisi_game_play_notation_n(g, "8/5 6/5 and more", 7));
    EXPECT_STATUS(pachisi_game_play_notation_n(h, NULL, 3), PACHISI_RESULT_NULL_POINTER);
    /* Empty and invalid inputs. */
    pachisi_game *none = NULL;
    EXPECT_STATUS(pachisi_game_from_preset_n(NULL, 0, NULL, 0, 1, &none),
                  PACHISI_RESULT_UNKNOWN_VARIANT);
    EXPECT_STATUS(pachisi_game_from_preset_n("parcheesi", 9, NULL, 4, 1, &none),
                  PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_from_preset_n("\xff\xfe", 2, NULL, 0, 1, &none),
                  PACHISI_RESULT_INVALID_UTF8);
    CHECK(none == NULL);
    /* A length above PTRDIFF_MAX (no object is that long) is an argument out of range, refused
     * before anything is read (it was INDEX_OUT_OF_RANGE, which the header gives for indices
     * only). */
    const size_t huge = SIZE_MAX;
    pachisi_rules *no_rules = NULL;
    pachisi_policy *p = NULL;
    char *before = game_json(h);
    EXPECT_STATUS(pachisi_game_from_preset_n("parcheesi", huge, NULL, 0, 1, &none),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_game_from_preset_n("parcheesi", 9, "{}", huge, 1, &none),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_rules_from_preset_n("parcheesi", huge, NULL, 0, &no_rules),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_rules_from_json_n("{}", huge, &no_rules),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_game_from_json_n("{}", huge, &none), PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_game_from_rules_json_n("{}", huge, 1, &none),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_game_from_position_n(bg, "x", huge, 1, &none),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_game_play_notation_n(h, "8/5", huge), PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_policy_new_n("greedy", huge, 1, &p), PACHISI_RESULT_INVALID_ARGUMENT);
    CHECK(none == NULL && no_rules == NULL && p == NULL);
    char *after = game_json(h);
    CHECK(before && after && !strcmp(before, after));
    free(before);
    free(after);
    EXPECT_OK(pachisi_policy_new_n("greedy, or not", 6, 1, &p));
    pachisi_policy_free(p);
    free(json);
    free(gj);
    free(hj);
    free(pos);
    pachisi_rules_free(r);
    pachisi_rules_free(bg);
    pachisi_game_free(g);
    pachisi_game_free(h);
    pachisi_game_free(k);
}

static void test_classic_two_seats(void) {
    /* Each seat plays two colours: a step's seat is the seat (0 or 1), its colour 0..3. */
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset("pachisi", "{\"seats\": 2}", 11, &g));
    int colours_seen[4] = {0, 0, 0, 0};
    int steps_seen = 0;
    for (int action = 0; action < 400; action++) {
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) {
            EXPECT_OK(pachisi_game_roll(g, NULL));
            continue;
        }
        uint8_t to_move = 0;
        EXPECT_OK(pachisi_game_to_move(g, &to_move));
        CHECK(to_move < 2);
        size_t count = 0;
        EXPECT_OK(pachisi_game_legal_play_count(g, &count));
        size_t pick = (size_t)action % count;
        pachisi_step steps[PACHISI_MAX_STEPS];
        size_t n = 0;
        EXPECT_OK(pachisi_game_legal_play(g, pick, steps, PACHISI_MAX_STEPS, &n));
        for (size_t i = 0; i < n; i++) {
            if (steps[i].piece == PACHISI_NO_PIECE) continue;
            CHECK(steps[i].seat == to_move);
            CHECK(steps[i].colour < 4 && steps[i].colour % 2 == steps[i].seat);
            colours_seen[steps[i].colour] = 1;
            steps_seen++;
        }
        if (n > 0) {
            /* The same play with a seat that does not play the colour is refused. */
            pachisi_step wrong[PACHISI_MAX_STEPS];
            memcpy(wrong, steps, n * sizeof steps[0]);
            wrong[0].seat = (uint8_t)(1 - wrong[0].seat);
            char *before = game_json(g);
            EXPECT_STATUS(pachisi_game_play_steps(g, wrong, n), PACHISI_RESULT_ILLEGAL_MOVE);
            CHECK(strstr(last_error(), "colour") != NULL);
            EXPECT_STATUS(pachisi_game_step(g, &wrong[0]), PACHISI_RESULT_ILLEGAL_MOVE);
            char *after = game_json(g);
            CHECK(before && after && !strcmp(before, after));
            free(before);
            free(after);
        }
        EXPECT_OK(pachisi_game_play_steps(g, steps, n));
    }
    CHECK(steps_seen > 20);
    CHECK(colours_seen[0] + colours_seen[1] + colours_seen[2] + colours_seen[3] >= 3);
    /* In four-seat games the colour is the seat. */
    pachisi_game *four = NULL;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", NULL, 4, &four));
    EXPECT_OK(pachisi_game_set_dice(four, 5, 5));
    size_t count = 0;
    EXPECT_OK(pachisi_game_legal_step_count(four, &count));
    for (size_t i = 0; i < count; i++) {
        pachisi_step s;
        EXPECT_OK(pachisi_game_legal_step(four, i, &s));
        CHECK(s.seat == s.colour);
    }
    pachisi_game_free(four);
    pachisi_game_free(g);
}

int main(void) {
    test_fixed_width_outputs();
    test_names_and_descriptions();
    test_messages_hold_no_nul();
    test_size_queries_keep_the_message();
    test_two_call_protocol();
    test_panics_are_silent();
    test_rolls_are_strict();
    test_options_are_strict();
    test_pointer_and_length_inputs();
    test_classic_two_seats();
    return finish_checks("test_abi");
}
