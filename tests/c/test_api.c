/*
 * The C ABI over every preset: creation paths agree, rules and game JSON round-trip, seeded
 * games replay, and seeded random games are played to the end with checks at every node:
 * chance outcomes are a distribution and each is accepted by set_roll; each legal play has its
 * steps and a notation that plays back to the same position; the play's steps taken one by one
 * (step-by-step interface) reach the same position; undo restores the game exactly; the
 * position notation and the game JSON round-trip; the outcome, winner and returns agree at the
 * end. Batch simulation is reproducible and independent of the thread count. The board picture
 * (pachisi_game_svg) is a well-formed SVG document, through the string-output protocol.
 */
#include "check.h"

#include <float.h>
#include <math.h>

#define DEEP_CHECK_DECISIONS 25 /* per game; then the game is played out with lighter checks */
#define MAX_ACTIONS 20000

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static size_t pick(size_t n) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (size_t)((rng_state * 2685821657736338717ULL) % n);
}

static int same_text(char *a, char *b) { /* frees both */
    int same = a && b && !strcmp(a, b);
    free(a);
    free(b);
    return same;
}

static char *copy_text(const char *s) {
    char *c = s ? (char *)malloc(strlen(s) + 1) : NULL;
    if (c) strcpy(c, s);
    return c;
}

/* Field by field: the records' padding bytes are unspecified. */
static int same_records(const pachisi_game_record *a, const pachisi_game_record *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i].winners != b[i].winners || a[i].winner != b[i].winner ||
            a[i].points != b[i].points || a[i].rolls != b[i].rolls ||
            a[i].captures != b[i].captures)
            return 0;
    return 1;
}

static void test_creation_paths_agree(const char *preset) {
    pachisi_rules *rules = NULL, *back = NULL, *from_game = NULL;
    pachisi_game *a = NULL, *b = NULL, *c = NULL;
    EXPECT_OK(pachisi_rules_from_preset(preset, NULL, &rules));
    EXPECT_OK(pachisi_game_new(rules, 99, &a));
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, 99, &b));
    char *rj = rules_json(rules);
    CHECK(rj != NULL && strstr(rj, preset) != NULL);
    EXPECT_OK(pachisi_game_from_rules_json(rj, 99, &c));
    EXPECT_OK(pachisi_rules_from_json(rj, &back));
    CHECK(same_text(rules_json(back), rules_json(rules)));
    CHECK(same_text(game_json(a), game_json(b)));
    CHECK(same_text(game_json(a), game_json(c)));
    CHECK(same_text(game_rules_json(a), rules_json(rules)));
    EXPECT_OK(pachisi_game_rules(a, &from_game));
    CHECK(same_text(rules_json(from_game), copy_text(rj)));
    char variant[64];
    size_t n = 0;
    EXPECT_OK(pachisi_rules_variant(rules, variant, sizeof variant, &n));
    CHECK(!strcmp(variant, preset));
    EXPECT_OK(pachisi_game_variant(a, variant, sizeof variant, &n));
    CHECK(!strcmp(variant, preset) && n == strlen(preset) + 1);
    free(rj);
    pachisi_game_free(a);
    pachisi_game_free(b);
    pachisi_game_free(c);
    pachisi_rules_free(rules);
    pachisi_rules_free(back);
    pachisi_rules_free(from_game);
}

static void test_options(void) {
    pachisi_game *g = NULL;
    uint8_t seats = 0;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", "{\"seats\": 2}", 1, &g));
    EXPECT_OK(pachisi_game_seats(g, &seats));
    CHECK(seats == 2);
    char *rj = game_rules_json(g);
    CHECK(rj && strstr(rj, "\"seats\":2") != NULL);
    free(rj);
    pachisi_game_free(g);
}

static void check_json_round_trip(const pachisi_game *g) {
    char *json = game_json(g);
    pachisi_game *back = NULL;
    EXPECT_OK(pachisi_game_from_json(json ? json : "", &back));
    if (back) CHECK(same_text(game_json(back), json));
    else free(json);
    pachisi_game_free(back);
}

static void check_position_round_trip(const pachisi_game *g) {
    pachisi_rules *rules = NULL;
    pachisi_game *back = NULL;
    char *position = game_position(g);
    EXPECT_OK(pachisi_game_rules(g, &rules));
    EXPECT_OK(pachisi_game_from_position(rules, position ? position : "", 0, &back));
    if (back) CHECK(same_text(game_position(back), position));
    else free(position);
    pachisi_game_free(back);
    pachisi_rules_free(rules);
}

static void check_chance_node(pachisi_game *g) {
    size_t count = 0;
    EXPECT_OK(pachisi_game_chance_outcome_count(g, &count));
    CHECK(count > 0);
    double total = 0;
    for (size_t i = 0; i < count; i++) {
        pachisi_roll roll;
        double p = -1;
        EXPECT_OK(pachisi_game_chance_outcome(g, i, &roll, &p));
        CHECK(p > 0 && p <= 1);
        total += p;
        if (i < 3 || i + 1 == count) { /* each outcome is a roll the game accepts */
            pachisi_game *copy = NULL;
            EXPECT_OK(pachisi_game_clone(g, &copy));
            EXPECT_OK(pachisi_game_set_roll(copy, &roll));
            pachisi_game_free(copy);
        }
    }
    CHECK(fabs(total - 1.0) < 1e-9);
}

/* Deep checks of every legal play at a decision node (the game is not changed). */
static void check_decision_node(pachisi_game *g) {
    char *before = game_json(g);
    size_t count = 0, steps_count = 0;
    EXPECT_OK(pachisi_game_legal_play_count(g, &count));
    EXPECT_OK(pachisi_game_legal_step_count(g, &steps_count));
    CHECK(count > 0); /* an unplayable roll is forfeited at once, never left as a decision */
    for (size_t i = 0; i < count; i++) {
        pachisi_step steps[PACHISI_MAX_STEPS];
        size_t n = 0;
        EXPECT_OK(pachisi_game_legal_play(g, i, steps, PACHISI_MAX_STEPS, &n));
        CHECK(n <= PACHISI_MAX_STEPS);
        char *text = play_notation(g, i);
        CHECK(text != NULL);

        pachisi_game *by_index = NULL, *by_text = NULL, *by_steps = NULL, *one_by_one = NULL;
        EXPECT_OK(pachisi_game_clone(g, &by_index));
        EXPECT_OK(pachisi_game_clone(g, &by_text));
        EXPECT_OK(pachisi_game_clone(g, &by_steps));
        EXPECT_OK(pachisi_game_clone(g, &one_by_one));
        EXPECT_OK(pachisi_game_play(by_index, i));
        EXPECT_OK(pachisi_game_play_notation(by_text, text ? text : ""));
        EXPECT_OK(pachisi_game_play_steps(by_steps, steps, n));
        char *want = game_position(by_index);
        CHECK(same_text(game_position(by_text), game_position(by_index)));
        CHECK(same_text(game_position(by_steps), game_position(by_index)));

        /* The same play through the step-by-step interface. */
        for (size_t k = 0; k < n; k++) {
            size_t legal = 0, found = (size_t)-1;
            EXPECT_OK(pachisi_game_legal_step_count(one_by_one, &legal));
            for (size_t j = 0; j < legal && found == (size_t)-1; j++) {
                pachisi_step s;
                EXPECT_OK(pachisi_game_legal_step(one_by_one, j, &s));
                if (!memcmp(&s, &steps[k], sizeof s)) found = j;
            }
            CHECK(found != (size_t)-1);
            if (found == (size_t)-1) break;
            EXPECT_OK(pachisi_game_step_index(one_by_one, found));
            if (k + 1 < n) { /* the steps taken so far are reported back */
                pachisi_step taken[PACHISI_MAX_STEPS];
                size_t t = 0;
                pachisi_result st = pachisi_game_taken_steps(one_by_one, taken, PACHISI_MAX_STEPS, &t);
                CHECK(st == PACHISI_RESULT_OK);
                /* Either the play is still open (k + 1 steps taken) or it already ended. */
                CHECK(t == k + 1 || t == 0);
            }
        }
        size_t still_taken = 0;
        pachisi_step taken[PACHISI_MAX_STEPS];
        EXPECT_OK(pachisi_game_taken_steps(one_by_one, taken, PACHISI_MAX_STEPS, &still_taken));
        if (still_taken > 0 || n == 0) EXPECT_OK(pachisi_game_finish_play(one_by_one));
        CHECK(same_text(game_position(one_by_one), want));

        /* Undo takes the play back exactly. */
        EXPECT_OK(pachisi_game_undo(by_index));
        CHECK(same_text(game_json(by_index), game_json(g)));

        free(text);
        pachisi_game_free(by_index);
        pachisi_game_free(by_text);
        pachisi_game_free(by_steps);
        pachisi_game_free(one_by_one);
    }
    CHECK(same_text(before, game_json(g)));
}

static void check_end(const pachisi_game *g) {
    pachisi_outcome o;
    uint8_t winner = 0, seats = 0;
    double returns[16];
    size_t n = 0;
    EXPECT_OK(pachisi_game_outcome(g, &o));
    EXPECT_OK(pachisi_game_winner(g, &winner));
    EXPECT_OK(pachisi_game_seats(g, &seats));
    EXPECT_OK(pachisi_game_returns(g, returns, 16, &n));
    CHECK(n == seats);
    CHECK(o.over && o.winners != 0 && o.points >= 1);
    CHECK(winner == o.winner && winner < seats && (o.winners & (1u << winner)));
    CHECK((o.winners & (uint16_t)(0xFFFFu << seats)) == 0);
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        total += returns[i];
        CHECK((returns[i] > 0) == ((o.winners >> i) & 1u));
    }
    CHECK(fabs(total) < 1e-9);
    size_t outcomes = 1, plays = 1;
    EXPECT_OK(pachisi_game_chance_outcome_count(g, &outcomes));
    EXPECT_OK(pachisi_game_legal_play_count(g, &plays));
    CHECK(outcomes == 0 && plays == 0);
}

/* Plays a seeded random game of `preset` to the end; returns the number of actions, 0 when
 * the game never started (the preset's game is over at once). */
static size_t play_checked_game(const char *preset, uint64_t seed) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, seed, &g));
    if (!g) return 0;
    size_t actions = 0, decisions = 0;
    pachisi_node node = PACHISI_NODE_OVER;
    for (; actions < MAX_ACTIONS; actions++) {
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        pachisi_outcome o;
        EXPECT_OK(pachisi_game_outcome(g, &o));
        CHECK(!o.over);
        int deep = decisions < DEEP_CHECK_DECISIONS;
        if (node == PACHISI_NODE_CHANCE) {
            if (deep) {
                check_chance_node(g);
                check_position_round_trip(g);
                check_json_round_trip(g);
            }
            pachisi_roll roll;
            size_t before = 0, after = 0;
            EXPECT_OK(pachisi_game_history_len(g, &before));
            EXPECT_OK(pachisi_game_roll(g, &roll));
            EXPECT_OK(pachisi_game_history_len(g, &after));
            CHECK(after == before + 1);
        } else {
            decisions++;
            if (deep) {
                check_decision_node(g);
                check_json_round_trip(g);
            }
            size_t count = 0;
            EXPECT_OK(pachisi_game_legal_play_count(g, &count));
            if (count == 0) break;
            EXPECT_OK(pachisi_game_play(g, pick(count)));
        }
    }
    CHECK(node == PACHISI_NODE_OVER);
    if (node == PACHISI_NODE_OVER && actions > 0) check_end(g);
    check_json_round_trip(g);
    pachisi_game_free(g);
    return actions;
}

/* The same seed replays the same game: rolls come from the game's own generator. */
static void test_seeded_replay(const char *preset) {
    pachisi_game *a = NULL, *b = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, 1234, &a));
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, 1234, &b));
    for (int i = 0; i < 60 && a && b; i++) {
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(a, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) {
            pachisi_roll ra, rb;
            EXPECT_OK(pachisi_game_roll(a, &ra));
            EXPECT_OK(pachisi_game_roll(b, &rb));
            CHECK(ra.kind == rb.kind && ra.dice[0] == rb.dice[0] && ra.dice[1] == rb.dice[1] &&
                  ra.up == rb.up);
        } else {
            EXPECT_OK(pachisi_game_play(a, 0));
            EXPECT_OK(pachisi_game_play(b, 0));
        }
    }
    CHECK(same_text(game_json(a), game_json(b)));
    pachisi_game_free(a);
    pachisi_game_free(b);
}

/* The log text has one line per event: a roll, a play in move notation, or a forfeit. */
static void test_log_text(const char *preset) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, 11, &g));
    char *empty = game_log_text(g);
    CHECK(empty != NULL && empty[0] == '\0');
    free(empty);
    size_t plays = 0;
    for (int i = 0; i < 40; i++) {
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) {
            pachisi_roll roll;
            EXPECT_OK(pachisi_game_roll(g, &roll));
        } else {
            char *want = play_notation(g, 0);
            EXPECT_OK(pachisi_game_play(g, 0));
            char *text = game_log_text(g);
            CHECK(text != NULL && want != NULL);
            if (text && want) {
                /* The last line is this play, written in the notation it was listed with. */
                size_t n = strlen(text);
                CHECK(n > 0 && text[n - 1] == '\n');
                text[n - 1] = '\0';
                const char *last = strrchr(text, '\n');
                last = last ? last + 1 : text;
                CHECK(strncmp(last, "play ", 5) == 0);
                const char *notation = strchr(last + 5, ' ');
                CHECK(notation && strcmp(notation + 1, want) == 0);
            }
            free(text);
            free(want);
            plays++;
        }
    }
    CHECK(plays > 0);
    char *text = game_log_text(g);
    CHECK(text && strncmp(text, "roll ", 5) == 0);
    free(text);
    pachisi_game_free(g);
}

/* Every tag of `svg` closes in the order opened, and nothing follows the closing </svg>. */
static int svg_well_formed(const char *svg) {
    enum { MAX_DEPTH = 64 };
    const char *open[MAX_DEPTH];
    size_t open_len[MAX_DEPTH];
    size_t depth = 0;
    if (strncmp(svg, "<svg ", 5) != 0) return 0;
    for (const char *p = strchr(svg, '<'); p; p = strchr(p, '<')) {
        const char *end = strchr(p, '>');
        if (!end) return 0;
        int closing = p[1] == '/', empty = end[-1] == '/';
        const char *name = p + 1 + closing;
        size_t n = strcspn(name, " />");
        if (closing) {
            if (depth == 0 || open_len[depth - 1] != n || strncmp(open[depth - 1], name, n))
                return 0;
            depth--;
            if (depth == 0 && end[1] != '\0') return 0;
        } else if (!empty) {
            if (depth == MAX_DEPTH) return 0;
            open[depth] = name;
            open_len[depth] = n;
            depth++;
        }
        p = end + 1;
    }
    return depth == 0;
}

static size_t occurrences(const char *text, const char *what) {
    size_t n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

/* The picture of a game in progress through the string-output protocol: ask for the size, a
 * buffer one byte short is refused untouched, the exact size succeeds. */
static void test_svg(const char *preset) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, 5, &g));
    if (!g) return;
    for (int i = 0; i < 12; i++) { /* a few plays, so that the last play is drawn */
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) EXPECT_OK(pachisi_game_roll(g, NULL));
        else EXPECT_OK(pachisi_game_play(g, 0));
    }
    char *before = game_json(g);
    size_t needed = 0, written = 0;
    EXPECT_STATUS(pachisi_game_svg(g, 400.0, NULL, 0, &needed), PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed > 1000);
    char *svg = (char *)malloc(needed);
    if (!svg) return;
    memset(svg, 'x', needed);
    EXPECT_STATUS(pachisi_game_svg(g, 400.0, svg, needed - 1, &written),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(written == needed && svg[0] == 'x' && svg[needed - 2] == 'x');
    EXPECT_OK(pachisi_game_svg(g, 400.0, svg, needed, &written));
    CHECK(written == needed && strlen(svg) + 1 == needed);
    CHECK(svg_well_formed(svg));
    CHECK(strstr(svg, "width=\"400\"") != NULL);
    CHECK(strstr(svg, preset) != NULL); /* the caption names the variant */
    uint8_t seats = 0;
    EXPECT_OK(pachisi_game_seats(g, &seats));
    CHECK(occurrences(svg, "class=\"legend\"") == seats);
    free(svg);

    /* A width that is not a number, or beyond the largest (a million pixels: near DBL_MAX the
     * coordinates overflowed to "inf"), draws at the default width; the largest is drawn. */
    const double odd[] = {NAN, 1.0e6 + 1.0, 1.0e20, DBL_MAX, 1.0e6};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        EXPECT_STATUS(pachisi_game_svg(g, odd[i], NULL, 0, &needed),
                      PACHISI_RESULT_BUFFER_TOO_SMALL);
        svg = (char *)malloc(needed);
        if (!svg) continue;
        EXPECT_OK(pachisi_game_svg(g, odd[i], svg, needed, &written));
        CHECK(svg_well_formed(svg) && !strstr(svg, "inf") && !strstr(svg, "NaN"));
        CHECK(strstr(svg, odd[i] == 1.0e6 ? "width=\"1000000\"" : "width=\"560\"") != NULL);
        free(svg);
    }
    CHECK(same_text(before, game_json(g))); /* drawing changes nothing */
    pachisi_game_free(g);
}

static void test_simulate(const char *preset) {
    enum { GAMES = 12 };
    pachisi_rules *rules = NULL;
    pachisi_game_record one[GAMES], two[GAMES], again[GAMES];
    EXPECT_OK(pachisi_rules_from_preset(preset, NULL, &rules));
    EXPECT_OK(pachisi_simulate(rules, 5, 1, one, GAMES));
    EXPECT_OK(pachisi_simulate(rules, 5, 2, two, GAMES));
    EXPECT_OK(pachisi_simulate(rules, 5, 1, again, GAMES));
    CHECK(same_records(one, two, GAMES));
    CHECK(same_records(one, again, GAMES));
    /* A run split into ranges, the later range first, gives the same records. */
    pachisi_game_record parts[GAMES];
    EXPECT_OK(pachisi_simulate_range(rules, 5, 5, 2, parts + 5, GAMES - 5));
    EXPECT_OK(pachisi_simulate_range(rules, 5, 0, 1, parts, 5));
    CHECK(same_records(one, parts, GAMES));
    EXPECT_STATUS(pachisi_simulate_range(rules, 5, UINT64_MAX, 1, parts, 2),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    pachisi_game *g = NULL;
    uint8_t seats = 0;
    EXPECT_OK(pachisi_game_new(rules, 0, &g));
    EXPECT_OK(pachisi_game_seats(g, &seats));
    pachisi_node node;
    EXPECT_OK(pachisi_game_node(g, &node));
    for (size_t i = 0; i < GAMES; i++) {
        CHECK((one[i].winners & (uint16_t)(0xFFFFu << seats)) == 0);
        if (one[i].winners) CHECK(one[i].winner < seats && (one[i].winners >> one[i].winner) & 1u);
        else CHECK(one[i].winner == PACHISI_NO_SEAT);
        if (node != PACHISI_NODE_OVER) CHECK(one[i].rolls > 0);
    }
    pachisi_game_free(g);
    pachisi_rules_free(rules);
}

int main(void) {
    test_options();
    size_t presets = pachisi_variant_count();
    for (size_t i = 0; i < presets; i++) {
        char preset[64];
        size_t n = 0;
        EXPECT_OK(pachisi_variant_name(i, preset, sizeof preset, &n));
        test_creation_paths_agree(preset);
        test_seeded_replay(preset);
        test_simulate(preset);
        test_log_text(preset);
        test_svg(preset);
        size_t actions = play_checked_game(preset, 42 + i);
        printf("%s: a random game took %zu actions\n", preset, actions);
        if (actions == 0) printf("note: %s's game is over at once (placeholder rules?)\n", preset);
    }
    return finish_checks("api");
}
