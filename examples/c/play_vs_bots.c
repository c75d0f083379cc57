/*
 * A game in the terminal: you against the engine's players.
 *
 *     play_vs_bots [VARIANT] [BOT-SPEC] [SEED]      e.g. play_vs_bots parcheesi greedy 7
 *
 * You play seat 0; every other seat is a bot built from BOT-SPEC ("random", "greedy",
 * "expectimax:depth=2", "mcts:iterations=2000", ...). At each of your decisions the legal plays
 * are listed in move notation and you type a play's number (Enter alone takes the first one;
 * "q" or end of input leaves the game, after which a greedy player finishes it for you).
 */
#include "pachisi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
typedef pachisi_result (*text_fn)(const pachisi_game *, char *, size_t, size_t *);
static char *read_text(const pachisi_game *game, text_fn fn, const char *what) {
    size_t needed = 0;
    pachisi_result status = fn(game, NULL, 0, &needed);
    if (status != PACHISI_RESULT_BUFFER_TOO_SMALL) check(status, what);
    char *text = malloc(needed);
    if (!text) exit(1);
    check(fn(game, text, needed, &needed), what);
    return text;
}

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

/* The number typed for a list of `count` plays: 0 for Enter alone, -1 to leave. */
static long ask(size_t count) {
    char line[64];
    for (;;) {
        printf("your play [0-%zu, q]: ", count - 1);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) return -1;
        if (line[0] == 'q') return -1;
        if (line[0] == '\n') return 0;
        char *end = NULL;
        long k = strtol(line, &end, 10);
        if (end != line && k >= 0 && (size_t)k < count) return k;
        printf("  not a play number\n");
    }
}

int main(int argc, char **argv) {
    const char *variant = argc > 1 ? argv[1] : "parcheesi";
    const char *bot_spec = argc > 2 ? argv[2] : "greedy";
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;

    pachisi_game *game = NULL;
    check(pachisi_game_from_preset(variant, NULL, seed, &game), "game_from_preset");
    uint8_t seats = 0;
    check(pachisi_game_seats(game, &seats), "seats");
    pachisi_policy *bots = NULL, *stand_in = NULL;
    check(pachisi_policy_new(bot_spec, seed, &bots), "policy_new");
    check(pachisi_policy_new("greedy", seed + 1, &stand_in), "policy_new");
    printf("%s, %u seats: you are seat 0, the others play %s\n", variant, (unsigned)seats,
           bot_spec);

    int human = 1;
    pachisi_node node;
    for (;;) {
        check(pachisi_game_node(game, &node), "node");
        if (node == PACHISI_NODE_OVER) break;
        uint8_t seat = 0;
        check(pachisi_game_to_move(game, &seat), "to_move");
        if (node == PACHISI_NODE_CHANCE) {
            check(pachisi_game_roll(game, NULL), "roll");
            continue;
        }
        size_t count = 0;
        check(pachisi_game_legal_play_count(game, &count), "legal_play_count");
        size_t choice = 0;
        if (seat == 0 && human) {
            char *position = read_text(game, pachisi_game_position, "position");
            printf("\nposition %s\n", position);
            free(position);
            for (size_t i = 0; i < count; i++) {
                char *text = play_notation(game, i);
                printf("  %2zu  %s\n", i, text);
                free(text);
            }
            long k = ask(count);
            if (k < 0) {
                human = 0;
                printf("\nyou left; a greedy player finishes seat 0's game\n");
                check(pachisi_policy_choose(stand_in, game, &choice), "policy_choose");
            } else {
                choice = (size_t)k;
            }
        } else {
            check(pachisi_policy_choose(seat == 0 ? stand_in : bots, game, &choice),
                  "policy_choose");
        }
        char *text = play_notation(game, choice);
        if (seat != 0 || !human) printf("seat %u plays %s\n", (unsigned)seat, text);
        free(text);
        check(pachisi_game_play(game, choice), "play");
    }
    uint8_t winner = PACHISI_NO_SEAT;
    check(pachisi_game_winner(game, &winner), "winner");
    if (winner == 0) printf("\nyou won\n");
    else printf("\nseat %u won\n", (unsigned)winner);
    pachisi_policy_free(bots);
    pachisi_policy_free(stand_in);
    pachisi_game_free(game);
    return 0;
}
