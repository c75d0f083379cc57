/*
 * Plays one seeded game of every preset to the end through the C API, printing each roll and
 * each play in the variant's notation. Plays are chosen at random (a small generator seeded
 * from the command line), so the same seed prints the same games.
 *
 *     play_all [SEED]
 */
#include "pachisi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Prints the failed call and the engine's message, and exits. */
static void check(pachisi_result status, const char *what) {
    if (status == PACHISI_RESULT_OK) return;
    char message[512];
    size_t n = 0;
    if (pachisi_last_error(message, sizeof message, &n) != PACHISI_RESULT_OK) message[0] = '\0';
    fprintf(stderr, "%s failed: %s: %s\n", what, pachisi_result_name(status), message);
    exit(1);
}

/* A string output in a malloc'd buffer: ask for the size, then read. */
static char *play_notation(const pachisi_game *game, size_t index) {
    size_t needed = 0;
    pachisi_result status = pachisi_game_legal_play_notation(game, index, NULL, 0, &needed);
    if (status != PACHISI_RESULT_BUFFER_TOO_SMALL) check(status, "legal_play_notation");
    char *text = malloc(needed);
    if (!text) exit(1);
    check(pachisi_game_legal_play_notation(game, index, text, needed, &needed),
          "legal_play_notation");
    return text;
}

static uint64_t next_random(uint64_t *state) { /* xorshift64* */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

static void play_one(const char *preset, uint64_t seed) {
    pachisi_game *game = NULL;
    check(pachisi_game_from_preset(preset, NULL, seed, &game), "game_from_preset");
    uint64_t choice_state = seed * 2 + 1;
    size_t actions = 0;
    printf("=== %s (seed %" PRIu64 ")\n", preset, seed);
    for (;;) {
        pachisi_node node;
        check(pachisi_game_node(game, &node), "node");
        if (node == PACHISI_NODE_OVER) break;
        if (++actions > 100000) {
            printf("stopped after %zu actions\n", actions - 1);
            break;
        }
        uint8_t seat = 0;
        check(pachisi_game_to_move(game, &seat), "to_move");
        if (node == PACHISI_NODE_CHANCE) {
            pachisi_roll roll;
            check(pachisi_game_roll(game, &roll), "roll");
            if (roll.kind == PACHISI_ROLL_KIND_DICE)
                printf("seat %u rolls %u-%u\n", seat, roll.dice[0], roll.dice[1]);
            else
                printf("seat %u throws %u up\n", seat, roll.up);
            continue;
        }
        size_t count = 0;
        check(pachisi_game_legal_play_count(game, &count), "legal_play_count");
        size_t pick = (size_t)(next_random(&choice_state) % count);
        char *text = play_notation(game, pick);
        printf("seat %u plays %s   (%zu choices)\n", seat, text[0] ? text : "(pass)", count);
        free(text);
        check(pachisi_game_play(game, pick), "play");
    }
    pachisi_outcome outcome;
    check(pachisi_game_outcome(game, &outcome), "outcome");
    if (outcome.over)
        printf("%s: seat %u wins (winners 0x%x, %u point%s)\n", preset, outcome.winner,
               outcome.winners, outcome.points, outcome.points == 1 ? "" : "s");
    else
        printf("%s: unfinished\n", preset);
    pachisi_game_free(game);
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 2026;
    printf("pachisi %s (C ABI %u)\n", pachisi_version(), pachisi_abi_version());
    for (size_t i = 0; i < pachisi_variant_count(); i++) {
        char preset[64];
        size_t n = 0;
        check(pachisi_variant_name(i, preset, sizeof preset, &n), "variant_name");
        play_one(preset, seed + i);
    }
    return 0;
}
