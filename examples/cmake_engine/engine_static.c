/* The C API from the static library of the installed package: a seeded backgammon game with
 * the first legal play each time, to the end. */
#include <pachisi.h>
#include <stdio.h>

int main(void) {
    pachisi_game *game = NULL;
    if (pachisi_game_from_preset("backgammon", NULL, 7, &game) != PACHISI_RESULT_OK) return 1;
    pachisi_node node = PACHISI_NODE_CHANCE;
    size_t plays = 0;
    while (pachisi_game_node(game, &node) == PACHISI_RESULT_OK && node != PACHISI_NODE_OVER) {
        pachisi_result r = node == PACHISI_NODE_CHANCE ? pachisi_game_roll(game, NULL)
                                                        : pachisi_game_play(game, 0);
        if (r != PACHISI_RESULT_OK) {
            fprintf(stderr, "%s: %s\n", pachisi_result_name(r), pachisi_result_description(r));
            pachisi_game_free(game);
            return 1;
        }
        plays += node == PACHISI_NODE_DECISION;
    }
    uint8_t winner = PACHISI_NO_SEAT;
    pachisi_game_winner(game, &winner);
    printf("static: backgammon over after %zu plays, seat %u wins\n", plays, (unsigned)winner);
    pachisi_game_free(game);
    return winner == PACHISI_NO_SEAT;
}
