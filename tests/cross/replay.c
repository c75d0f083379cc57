/* The C twin of examples/rust/replay.rs: a seeded game with a fixed policy, every event printed
 * one per line. `make test-cross` compares its output with the Rust and Python programs'.
 *
 * Usage: replay [variant] [seed]   (no variant: every preset)
 * Policy: at the k-th decision with n legal plays, play number (7k + 3) mod n. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pachisi.h"

#define CHECK(call)                                                              \
    do {                                                                         \
        enum pachisi_result r_ = (call);                                         \
        if (r_ != PACHISI_RESULT_OK) {                                           \
            char msg_[512] = "";                                                 \
            size_t n_ = 0;                                                       \
            pachisi_last_error(msg_, sizeof msg_, &n_);                          \
            fprintf(stderr, "%s failed: %s: %s\n", #call, pachisi_result_name(r_), msg_); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static int replay(const char *variant, unsigned long long seed) {
    struct pachisi_game *game = NULL;
    CHECK(pachisi_game_from_preset(variant, NULL, seed, &game));
    printf("game %s seed %llu\n", variant, seed);
    size_t decisions = 0;
    char text[4096];
    size_t written = 0;
    bool over = false;
    CHECK(pachisi_game_is_over(game, &over));
    while (!over && decisions < 5000) {
        enum pachisi_node node;
        uint8_t seat = 0;
        CHECK(pachisi_game_node(game, &node));
        CHECK(pachisi_game_to_move(game, &seat));
        if (node == PACHISI_NODE_CHANCE) {
            struct pachisi_roll roll;
            CHECK(pachisi_game_roll(game, &roll));
            if (roll.kind == PACHISI_ROLL_KIND_DICE)
                printf("roll %u %u-%u\n", seat, roll.dice[0], roll.dice[1]);
            else
                printf("roll %u %u up\n", seat, roll.up);
        } else {
            size_t n = 0;
            CHECK(pachisi_game_legal_play_count(game, &n));
            size_t index = (7 * decisions + 3) % n;
            CHECK(pachisi_game_legal_play_notation(game, index, text, sizeof text, &written));
            printf("play %u %s\n", seat, text);
            CHECK(pachisi_game_play(game, index));
            decisions++;
        }
        CHECK(pachisi_game_is_over(game, &over));
    }
    uint8_t winner = PACHISI_NO_SEAT;
    CHECK(pachisi_game_winner(game, &winner));
    CHECK(pachisi_game_position(game, text, sizeof text, &written));
    if (winner == PACHISI_NO_SEAT)
        printf("end - %s\n", text);
    else
        printf("end %u %s\n", winner, text);
    pachisi_game_free(game);
    return 0;
}

int main(int argc, char **argv) {
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 2026;
    if (argc > 1)
        return replay(argv[1], seed);
    size_t count = pachisi_variant_count();
    for (size_t i = 0; i < count; i++) {
        char name[64];
        size_t written = 0;
        CHECK(pachisi_variant_name(i, name, sizeof name, &written));
        replay(name, seed);
    }
    return 0;
}
