/*
 * Players through the C ABI: for every preset, games driven by built-in players (each seat its
 * own pachisi_policy) end, and every chosen index is a legal play; a seed replays the same
 * choices; a bad spec is PACHISI_RESULT_INVALID_PLAYER with a message; misuse (NULL, no play
 * due) is reported, and out-parameters are untouched on failure.
 */
#include "check.h"

#define MAX_ACTIONS 20000

DEFINE_READER(policy_name, pachisi_policy, pachisi_policy_name)

/* Plays a game of `preset` to the end with `spec` in every seat (seeded `seed`); writes the
 * chosen indices to `chosen` (up to `cap`) and returns how many decisions were made. */
static size_t play_game(const char *preset, const char *spec, uint64_t seed, size_t *chosen,
                        size_t cap) {
    pachisi_game *g = NULL;
    pachisi_policy *p[4] = {NULL, NULL, NULL, NULL};
    size_t made = 0;
    EXPECT_OK(pachisi_game_from_preset(preset, NULL, seed, &g));
    uint8_t seats = 0;
    EXPECT_OK(pachisi_game_seats(g, &seats));
    for (uint8_t s = 0; s < seats && s < 4; s++) EXPECT_OK(pachisi_policy_new(spec, seed + s, &p[s]));
    pachisi_node node = PACHISI_NODE_CHANCE;
    for (int i = 0; i < MAX_ACTIONS; i++) {
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_OVER) break;
        if (node == PACHISI_NODE_CHANCE) {
            EXPECT_OK(pachisi_game_roll(g, NULL));
            continue;
        }
        uint8_t seat = 0;
        size_t count = 0, index = (size_t)-1;
        EXPECT_OK(pachisi_game_to_move(g, &seat));
        EXPECT_OK(pachisi_game_legal_play_count(g, &count));
        EXPECT_OK(pachisi_policy_choose(p[seat % 4], g, &index));
        CHECK(index < count);
        if (made < cap) chosen[made] = index;
        made++;
        EXPECT_OK(pachisi_game_play(g, index));
    }
    CHECK(node == PACHISI_NODE_OVER);
    uint8_t winner = PACHISI_NO_SEAT;
    EXPECT_OK(pachisi_game_winner(g, &winner));
    CHECK(winner < seats);
    for (int s = 0; s < 4; s++) pachisi_policy_free(p[s]);
    pachisi_game_free(g);
    return made;
}

static void test_every_preset(void) {
    size_t presets = pachisi_variant_count();
    for (size_t v = 0; v < presets; v++) {
        char preset[64];
        size_t n = 0;
        EXPECT_OK(pachisi_variant_name(v, preset, sizeof preset, &n));
        size_t a[4096], b[4096];
        size_t made = play_game(preset, "greedy", 7, a, 4096);
        CHECK(made > 0);
        size_t again = play_game(preset, "greedy", 7, b, 4096);
        CHECK(again == made && !memcmp(a, b, (made < 4096 ? made : 4096) * sizeof a[0]));
        CHECK(play_game(preset, "random", 8, a, 4096) > 0);
    }
    /* A search player on a short game. */
    size_t c[4096];
    CHECK(play_game("backgammon", "mcts:iterations=20", 2, c, 4096) > 0);
    CHECK(play_game("backgammon", "{\"player\": \"expectimax\", \"depth\": 1}", 3, c, 4096) > 0);
}

static void test_specs_and_misuse(void) {
    pachisi_policy *p = NULL, *untouched = (pachisi_policy *)&p;
    EXPECT_STATUS(pachisi_policy_new("chess", 1, &untouched), PACHISI_RESULT_INVALID_PLAYER);
    CHECK(untouched == (pachisi_policy *)&p);
    CHECK(strstr(last_error(), "unknown player `chess`") != NULL);
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_INVALID_PLAYER), "InvalidPlayer"));
    EXPECT_STATUS(pachisi_policy_new("expectimax:depth=99", 1, &p), PACHISI_RESULT_INVALID_PLAYER);
    CHECK(strstr(last_error(), "depth") != NULL);
    /* A weights "file" without end is read no further than the format allows. */
    EXPECT_STATUS(pachisi_policy_new("td:weights=/dev/zero", 1, &p), PACHISI_RESULT_INVALID_PLAYER);
    EXPECT_STATUS(pachisi_policy_new("td:weights=/no/such/file.td", 1, &p), PACHISI_RESULT_INVALID_PLAYER);
    CHECK(strstr(last_error(), "readable weights file") != NULL);
    EXPECT_STATUS(pachisi_policy_new(NULL, 1, &p), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_policy_new("greedy", 1, NULL), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_policy_new("\xff", 1, &p), PACHISI_RESULT_INVALID_UTF8);

    EXPECT_OK(pachisi_policy_new("mcts:iterations=0100", 5, &p));
    char *name = policy_name(p);
    CHECK(name && !strcmp(name, "mcts:iterations=100"));
    free(name);

    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_from_preset("parcheesi", NULL, 1, &g));
    size_t index = 77;
    EXPECT_STATUS(pachisi_policy_choose(p, g, &index), PACHISI_RESULT_WRONG_PHASE);
    CHECK(index == 77);
    EXPECT_STATUS(pachisi_policy_choose(NULL, g, &index), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_policy_choose(p, NULL, &index), PACHISI_RESULT_NULL_POINTER);
    EXPECT_STATUS(pachisi_policy_choose(p, g, NULL), PACHISI_RESULT_NULL_POINTER);
    pachisi_node node = PACHISI_NODE_CHANCE;
    while (node != PACHISI_NODE_DECISION) {
        EXPECT_OK(pachisi_game_roll(g, NULL));
        EXPECT_OK(pachisi_game_node(g, &node));
    }
    EXPECT_OK(pachisi_policy_choose(p, g, &index));
    size_t count = 0;
    EXPECT_OK(pachisi_game_legal_play_count(g, &count));
    CHECK(index < count);
    pachisi_policy_free(p);
    pachisi_policy_free(NULL);
    pachisi_game_free(g);
}

int main(void) {
    test_every_preset();
    test_specs_and_misuse();
    return finish_checks("test_players");
}
