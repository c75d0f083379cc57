/*
 * Board data, events, history, redo, the position hash, the plays of a hypothetical roll and
 * option introspection, over every preset: each agrees with the calls that already existed
 * (legal plays after set_roll, history_len, undo), and misuse (NULL, index out of range, a
 * short buffer, the wrong phase) returns its code and writes nothing.
 */
#include "check.h"

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static size_t pick(size_t n) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (size_t)((rng_state * 2685821657736338717ULL) % n);
}

/* Events of the last action, or of history entry `index` when `index` != (size_t)-1, in a new
 * malloc'd array (the size asked first); `*n` receives the count. */
static pachisi_event *read_events(const pachisi_game *g, size_t index, size_t *n) {
    size_t needed = 0, written = 0;
    pachisi_result r = index == (size_t)-1 ? pachisi_game_events(g, NULL, 0, &needed)
                                           : pachisi_game_history(g, index, NULL, 0, &needed);
    *n = 0;
    if (r == PACHISI_RESULT_OK) return NULL; /* no events */
    CHECK(r == PACHISI_RESULT_BUFFER_TOO_SMALL);
    pachisi_event *buf = (pachisi_event *)malloc(needed * sizeof *buf);
    if (!buf) return NULL;
    r = index == (size_t)-1 ? pachisi_game_events(g, buf, needed, &written)
                            : pachisi_game_history(g, index, buf, needed, &written);
    CHECK(r == PACHISI_RESULT_OK && written == needed);
    *n = written;
    return buf;
}

static void check_board(const pachisi_game *g) {
    pachisi_board b;
    EXPECT_OK(pachisi_game_board(g, &b));
    pachisi_node node;
    uint8_t to_move = 0, seats = 0;
    EXPECT_OK(pachisi_game_node(g, &node));
    EXPECT_OK(pachisi_game_to_move(g, &to_move));
    EXPECT_OK(pachisi_game_seats(g, &seats));
    CHECK(b.node == (uint8_t)node && b.to_move == to_move && b.seats == seats);
    CHECK(b.piece_count > 0 && b.piece_count <= PACHISI_MAX_BOARD_PIECES);
    CHECK(b.safe_count <= PACHISI_MAX_SAFE_PLACES);
    CHECK(!b.has_roll || node == PACHISI_NODE_DECISION);
    unsigned total = 0;
    for (uint32_t i = 0; i < b.piece_count; i++) {
        const pachisi_piece *p = &b.pieces[i];
        total += p->count;
        CHECK(p->count >= 1 && p->place.zone <= PACHISI_ZONE_OFF);
        if (b.board == PACHISI_BOARD_KIND_LOOP)
            CHECK(p->place.zone <= PACHISI_ZONE_HOME && p->side < 4);
        else if (b.board == PACHISI_BOARD_KIND_CROSS)
            CHECK(p->place.zone == PACHISI_ZONE_CROSS || p->place.zone == PACHISI_ZONE_CHARKONI);
        else
            CHECK(p->place.zone >= PACHISI_ZONE_POINT && p->piece == PACHISI_NO_PIECE);
        if (p->place.zone == PACHISI_ZONE_TRACK) CHECK(p->place.square < 68);
        if (p->place.zone == PACHISI_ZONE_POINT)
            CHECK(p->place.square >= 1 && p->place.square <= 24);
    }
    /* Every piece of the game is somewhere: 4 per owner on the Pachisi boards, 15 a side. */
    CHECK(total == (b.board == PACHISI_BOARD_KIND_BACKGAMMON ? 30u : 16u) ||
          (b.board == PACHISI_BOARD_KIND_LOOP && total == 4u * seats));
}

static void play_preset(const char *preset, uint64_t seed) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, seed, &g));
    if (!g) return;
    size_t n = 0;
    pachisi_event *ev = read_events(g, (size_t)-1, &n);
    CHECK(ev == NULL && n == 0); /* nothing happened yet */
    bool over = false;
    int actions = 0, game_overs = 0;
    while (!over && actions < 3000) {
        check_board(g);
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        uint64_t hash = 0;
        EXPECT_OK(pachisi_game_hash(g, &hash));
        if (node == PACHISI_NODE_CHANCE) {
            /* The plays of a hypothetical roll are those listed after setting it. */
            size_t outcomes = 0;
            EXPECT_OK(pachisi_game_chance_outcome_count(g, &outcomes));
            pachisi_roll roll;
            double prob = 0;
            EXPECT_OK(pachisi_game_chance_outcome(g, pick(outcomes), &roll, &prob));
            size_t want = 0, got = 0;
            pachisi_result r = pachisi_game_plays_for_roll(g, &roll, NULL, 0, &want);
            CHECK(r == PACHISI_RESULT_OK || r == PACHISI_RESULT_BUFFER_TOO_SMALL);
            pachisi_play *plays = want ? (pachisi_play *)malloc(want * sizeof *plays) : NULL;
            if (want) EXPECT_OK(pachisi_game_plays_for_roll(g, &roll, plays, want, &got));
            uint64_t still = 0;
            EXPECT_OK(pachisi_game_hash(g, &still));
            CHECK(still == hash); /* nothing changed */
            pachisi_game *h = NULL;
            EXPECT_OK(pachisi_game_clone(g, &h));
            EXPECT_OK(pachisi_game_set_roll(h, &roll));
            pachisi_node hn;
            EXPECT_OK(pachisi_game_node(h, &hn));
            ev = read_events(h, (size_t)-1, &n);
            CHECK(n >= 1 && ev && ev[0].kind == PACHISI_EVENT_KIND_ROLL);
            int forfeited = 0;
            for (size_t i = 0; i < n; i++)
                forfeited |= ev[i].kind == PACHISI_EVENT_KIND_FORFEIT ||
                             ev[i].kind == PACHISI_EVENT_KIND_PENALTY;
            free(ev);
            if (hn == PACHISI_NODE_DECISION && !forfeited) {
                size_t count = 0;
                EXPECT_OK(pachisi_game_legal_play_count(h, &count));
                CHECK(count == want);
                for (size_t i = 0; i < count && i < want; i++) {
                    pachisi_step steps[PACHISI_MAX_STEPS];
                    size_t len = 0;
                    EXPECT_OK(pachisi_game_legal_play(h, i, steps, PACHISI_MAX_STEPS, &len));
                    CHECK(len == plays[i].len);
                    for (size_t k = 0; k < len && k < plays[i].len; k++)
                        CHECK(steps[k].to == plays[i].steps[k].to &&
                              steps[k].piece == plays[i].steps[k].piece &&
                              steps[k].value == plays[i].steps[k].value);
                }
            }
            pachisi_game_free(h);
            free(plays);
            EXPECT_OK(pachisi_game_roll(g, NULL));
        } else {
            EXPECT_STATUS(pachisi_game_plays_for_roll(g, &(pachisi_roll){0, {1, 2}, 0}, NULL, 0,
                                                      &n),
                          PACHISI_RESULT_WRONG_PHASE);
            size_t count = 0;
            EXPECT_OK(pachisi_game_legal_play_count(g, &count));
            EXPECT_OK(pachisi_game_play(g, pick(count)));
            ev = read_events(g, (size_t)-1, &n);
            CHECK(n >= 1 && ev && ev[0].kind == PACHISI_EVENT_KIND_PLAY);
            free(ev);
        }
        actions++;
        ev = read_events(g, (size_t)-1, &n);
        for (size_t i = 0; i < n; i++) {
            if (ev[i].kind == PACHISI_EVENT_KIND_GAME_OVER) {
                game_overs++;
                CHECK(ev[i].winners != 0 && ev[i].points >= 1);
            }
            if (ev[i].kind == PACHISI_EVENT_KIND_CAPTURE)
                CHECK(ev[i].count >= 1 && ev[i].victim != ev[i].owner);
        }
        free(ev);
        EXPECT_OK(pachisi_game_is_over(g, &over));
        /* Undo then redo returns to the same position and hash. */
        if (actions % 5 == 0) {
            uint64_t before = 0, after = 0;
            size_t redo = 0;
            EXPECT_OK(pachisi_game_hash(g, &before));
            EXPECT_OK(pachisi_game_undo(g));
            EXPECT_OK(pachisi_game_redo_len(g, &redo));
            CHECK(redo == 1);
            EXPECT_OK(pachisi_game_redo(g));
            EXPECT_OK(pachisi_game_hash(g, &after));
            CHECK(before == after);
            EXPECT_STATUS(pachisi_game_redo(g), PACHISI_RESULT_WRONG_PHASE);
        }
    }
    CHECK(over && game_overs == 1);
    /* The history lists every action; a copy is at the same position. */
    size_t len = 0;
    EXPECT_OK(pachisi_game_history_len(g, &len));
    CHECK(len == (size_t)actions);
    for (size_t i = 0; i < len; i += 1 + len / 20) {
        ev = read_events(g, i, &n);
        CHECK(n >= 1 && ev &&
              (ev[0].kind == PACHISI_EVENT_KIND_ROLL || ev[0].kind == PACHISI_EVENT_KIND_PLAY));
        free(ev);
    }
    pachisi_event one;
    size_t w = 77;
    EXPECT_STATUS(pachisi_game_history(g, len, &one, 1, &w), PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    CHECK(w == 77);
    pachisi_game *copy = NULL;
    bool same = false;
    EXPECT_OK(pachisi_game_clone(g, &copy));
    EXPECT_OK(pachisi_game_same_position(g, copy, &same));
    CHECK(same);
    EXPECT_OK(pachisi_game_undo(copy));
    EXPECT_OK(pachisi_game_same_position(g, copy, &same));
    CHECK(!same);
    pachisi_game_free(copy);
    pachisi_game_free(g);
}

static void check_options(const char *preset) {
    pachisi_rules *r = NULL;
    EXPECT_OK(pachisi_rules_from_preset(preset, NULL, &r));
    size_t count = 0;
    EXPECT_OK(pachisi_rules_option_count(r, &count));
    CHECK(count >= 5);
    char *json = rules_json(r);
    int seats = 0;
    for (size_t i = 0; i < count; i++) {
        pachisi_option_info info;
        EXPECT_OK(pachisi_rules_option_info(r, i, &info));
        CHECK(info.name && info.default_json && info.choices_json);
        CHECK(info.kind <= PACHISI_OPTION_KIND_LIST);
        /* The default is the preset's value: "name":default appears in the rules JSON. */
        char key[256];
        snprintf(key, sizeof key, "\"%s\":%s", info.name, info.default_json);
        CHECK(json && strstr(json, key) != NULL);
        if (info.kind == PACHISI_OPTION_KIND_INTEGER) {
            long long d = atoll(info.default_json);
            CHECK(info.min <= d && d <= info.max);
        }
        if (info.kind == PACHISI_OPTION_KIND_CHOICE) CHECK(strstr(info.choices_json, info.default_json));
        if (!strcmp(info.name, "seats")) {
            seats = 1;
            CHECK(info.kind == PACHISI_OPTION_KIND_INTEGER && info.min == 2 && info.max == 4);
        }
    }
    CHECK(seats || !strcmp(preset, "backgammon")); /* two seats, no option */
    pachisi_option_info untouched;
    memset(&untouched, 0xAB, sizeof untouched);
    EXPECT_STATUS(pachisi_rules_option_info(r, count, &untouched),
                  PACHISI_RESULT_INDEX_OUT_OF_RANGE);
    CHECK(untouched.kind == 0xAB);
    EXPECT_STATUS(pachisi_rules_option_info(r, 0, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_rules_option_count(NULL, &count), PACHISI_RESULT_NULL_POINTER);
    free(json);
    pachisi_rules_free(r);
}

static void check_misuse(void) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", NULL, 1, &g));
    pachisi_board b;
    uint64_t h = 5;
    bool same = true;
    size_t n = 9;
    EXPECT_STATUS(pachisi_game_board(NULL, &b), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_board(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_hash(NULL, &h), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_hash(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_same_position(g, NULL, &same), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_events(g, NULL, 0, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_redo(g), PACHISI_RESULT_WRONG_PHASE);
    EXPECT_STATUS(pachisi_game_redo(NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_redo_len(g, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_game_plays_for_roll(g, NULL, NULL, 0, &n), PACHISI_RESULT_NULL_POINTER);
    pachisi_roll bad = {7, {1, 1}, 0};
    EXPECT_STATUS(pachisi_game_plays_for_roll(g, &bad, NULL, 0, &n), PACHISI_RESULT_INVALID_ROLL);
    pachisi_roll cowries = {PACHISI_ROLL_KIND_COWRIES, {0, 0}, 2};
    EXPECT_STATUS(pachisi_game_plays_for_roll(g, &cowries, NULL, 0, &n),
                  PACHISI_RESULT_INVALID_ROLL);
    CHECK(h == 5 && same && n == 9);
    /* A short buffer: the size is reported and the buffer untouched. */
    pachisi_roll roll = {PACHISI_ROLL_KIND_DICE, {5, 5}, 0};
    pachisi_play one;
    one.len = 99;
    EXPECT_STATUS(pachisi_game_plays_for_roll(g, &roll, &one, 1, &n),
                  PACHISI_RESULT_BUFFER_TOO_SMALL);
    CHECK(n > 1 && one.len == 99);
    /* Events of a forfeited roll: the roll, then the forfeit. */
    EXPECT_OK(pachisi_game_set_dice(g, 2, 1));
    pachisi_event ev[4];
    EXPECT_OK(pachisi_game_events(g, ev, 4, &n));
    CHECK(n == 2 && ev[0].kind == PACHISI_EVENT_KIND_ROLL && ev[0].roll.dice[0] == 2 &&
          ev[1].kind == PACHISI_EVENT_KIND_FORFEIT && ev[1].seat == 0);
    pachisi_game_free(g);
}

/* A game ended by max_rolls is over in every query (outcome too); output structs carry no
 * stray bytes (equal events compare equal with memcmp whatever the buffer held before);
 * Family Pachisi text that does not parse is INVALID_NOTATION; a simulation count no array can
 * hold is refused at once. */
static void check_truncation_and_bytes(void) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", "{\"max_rolls\": 3}", 1, &g));
    pachisi_node node = PACHISI_NODE_CHANCE;
    for (int i = 0; i < 100; i++) {
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE)
            EXPECT_OK(pachisi_game_roll(g, NULL));
        else
            EXPECT_OK(pachisi_game_play(g, 0));
    }
    CHECK(node == PACHISI_NODE_OVER);
    pachisi_outcome o;
    memset(&o, 0xAB, sizeof o);
    EXPECT_OK(pachisi_game_outcome(g, &o));
    CHECK(o.over && o.winners == 0 && o.winner == PACHISI_NO_SEAT && o.points == 0);
    CHECK(o.reserved0 == 0 && o.reserved1[0] == 0 && o.reserved1[1] == 0 && o.reserved1[2] == 0);
    bool truncated = false;
    EXPECT_OK(pachisi_game_is_truncated(g, &truncated));
    CHECK(truncated);

    pachisi_event a[16], b[16];
    size_t na = 0, nb = 0;
    memset(a, 0x00, sizeof a);
    memset(b, 0xFF, sizeof b);
    EXPECT_OK(pachisi_game_events(g, a, 16, &na));
    EXPECT_OK(pachisi_game_events(g, b, 16, &nb));
    CHECK(na == nb && na > 0 && memcmp(a, b, na * sizeof a[0]) == 0);
    static pachisi_board ba, bb;
    memset(&ba, 0x00, sizeof ba);
    memset(&bb, 0xFF, sizeof bb);
    EXPECT_OK(pachisi_game_board(g, &ba));
    EXPECT_OK(pachisi_game_board(g, &bb));
    CHECK(memcmp(&ba, &bb, sizeof ba) == 0);
    pachisi_game_free(g);

    g = NULL;
    EXPECT_OK(pachisi_game_from_preset("pachisi-family", NULL, 1, &g));
    for (int i = 0; i < 50; i++) {
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node != PACHISI_NODE_CHANCE) break;
        EXPECT_OK(pachisi_game_roll(g, NULL));
    }
    if (node == PACHISI_NODE_DECISION) {
        EXPECT_STATUS(pachisi_game_play_notation(g, "zz top"), PACHISI_RESULT_INVALID_NOTATION);
        EXPECT_STATUS(pachisi_game_play_notation(g, "0:80-81"), PACHISI_RESULT_ILLEGAL_MOVE);
    }
    pachisi_game_free(g);

    pachisi_rules *r = NULL;
    EXPECT_OK(pachisi_rules_from_preset("backgammon", NULL, &r));
    pachisi_game_record rec[1];
    EXPECT_STATUS(pachisi_simulate(r, 1, 1, rec, SIZE_MAX), PACHISI_RESULT_INVALID_ARGUMENT);
    pachisi_rules_free(r);
}

/* Part-way through a play (one step taken) the game JSON restores the game with the same legal
 * plays in every preset, and so does the position text wherever the notation shows the part of
 * the roll left: Parcheesi and Online Pachisi (Family Pachisi's and backgammon's show the whole
 * roll: pachisi_game_position's comment in pachisi.h; Classic Pachisi has one step a play). */
static void check_mid_play_positions(const char *preset, uint64_t seed) {
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, seed, &g));
    if (!g) return;
    pachisi_rules *rules = NULL;
    EXPECT_OK(pachisi_game_rules(g, &rules));
    int whole_roll = !strcmp(preset, "pachisi-family") || !strcmp(preset, "backgammon");
    int checked = 0;
    for (int k = 0; k < 2000 && checked < 10; k++) {
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) {
            EXPECT_OK(pachisi_game_roll(g, NULL));
            continue;
        }
        pachisi_game *mid = NULL;
        EXPECT_OK(pachisi_game_clone(g, &mid));
        size_t taken = 0, plays = 0, again = 0;
        pachisi_step steps[PACHISI_MAX_STEPS];
        if (mid && pachisi_game_step_index(mid, 0) == PACHISI_RESULT_OK &&
            pachisi_game_node(mid, &node) == PACHISI_RESULT_OK && node == PACHISI_NODE_DECISION &&
            pachisi_game_taken_steps(mid, steps, PACHISI_MAX_STEPS, &taken) == PACHISI_RESULT_OK &&
            taken == 1) {
            checked++;
            EXPECT_OK(pachisi_game_legal_play_count(mid, &plays));
            char *json = game_json(mid);
            pachisi_game *back = NULL;
            EXPECT_OK(pachisi_game_from_json(json ? json : "", &back));
            EXPECT_OK(pachisi_game_legal_play_count(back, &again));
            CHECK(again == plays);
            pachisi_game_free(back);
            back = NULL;
            free(json);
            char *position = game_position(mid);
            pachisi_result st = pachisi_game_from_position(rules, position ? position : "", 1, &back);
            if (!whole_roll) {
                CHECK(st == PACHISI_RESULT_OK);
                again = 0;
                EXPECT_OK(pachisi_game_legal_play_count(back, &again));
                CHECK(again == plays);
            }
            pachisi_game_free(back);
            free(position);
        }
        pachisi_game_free(mid);
        size_t count = 0;
        EXPECT_OK(pachisi_game_legal_play_count(g, &count));
        EXPECT_OK(pachisi_game_play(g, (size_t)k % (count ? count : 1)));
    }
    pachisi_rules_free(rules);
    pachisi_game_free(g);
}

int main(void) {
    size_t variants = pachisi_variant_count();
    for (size_t v = 0; v < variants; v++) {
        char name[64];
        size_t written = 0;
        EXPECT_OK(pachisi_variant_name(v, name, sizeof name, &written));
        check_options(name);
        play_preset(name, 3 + v);
        check_mid_play_positions(name, 1 + v);
    }
    check_misuse();
    check_truncation_and_bytes();
    return finish_checks("test_game_features");
}
