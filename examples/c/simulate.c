/*
 * Batch simulation through the C API: GAMES random-policy games of every preset into a
 * caller-provided array of records, then win rates per seat and the mean game length.
 *
 *     simulate [GAMES [SEED [THREADS]]]      (THREADS 0 = every core)
 */
#include "pachisi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void check(pachisi_result status, const char *what) {
    if (status == PACHISI_RESULT_OK) return;
    char message[512];
    size_t n = 0;
    if (pachisi_last_error(message, sizeof message, &n) != PACHISI_RESULT_OK) message[0] = '\0';
    fprintf(stderr, "%s failed: %s: %s\n", what, pachisi_result_name(status), message);
    exit(1);
}

int main(int argc, char **argv) {
    size_t games = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 200;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 7;
    uint32_t threads = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1;
    pachisi_game_record *records = calloc(games ? games : 1, sizeof *records);
    if (!records) return 1;
    for (size_t i = 0; i < pachisi_variant_count(); i++) {
        char preset[64];
        size_t n = 0;
        check(pachisi_variant_name(i, preset, sizeof preset, &n), "variant_name");
        pachisi_rules *rules = NULL;
        check(pachisi_rules_from_preset(preset, NULL, &rules), "rules_from_preset");
        check(pachisi_simulate(rules, seed, threads, records, games), "simulate");
        size_t wins[16] = {0};
        size_t unfinished = 0;
        double rolls = 0, captures = 0;
        for (size_t g = 0; g < games; g++) {
            for (unsigned s = 0; s < 16; s++)
                if (records[g].winners & (1u << s)) wins[s]++;
            if (records[g].winners == 0) unfinished++;
            rolls += records[g].rolls;
            captures += records[g].captures;
        }
        /* The number of seats comes from a game of these rules. */
        pachisi_game *game = NULL;
        uint8_t seats = 0;
        check(pachisi_game_new(rules, 0, &game), "game_new");
        check(pachisi_game_seats(game, &seats), "seats");
        pachisi_game_free(game);
        printf("%-15s %zu games:", preset, games);
        for (unsigned s = 0; s < seats; s++)
            printf(" seat %u %5.1f%%", s, games ? 100.0 * (double)wins[s] / (double)games : 0.0);
        printf("  mean rolls %.1f, captures %.1f, unfinished %zu\n",
               games ? rolls / (double)games : 0.0, games ? captures / (double)games : 0.0,
               unfinished);
        pachisi_rules_free(rules);
    }
    free(records);
    return 0;
}
