// Batch simulation through the C++ wrapper: GAMES random-policy games of every preset, win
// rates per seat and the mean game length.
//
//     simulate [GAMES [SEED [THREADS]]]      (THREADS 0 = every core)
#include "pachisi.hpp"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
    std::size_t games = argc > 1 ? std::stoul(argv[1]) : 200;
    std::uint64_t seed = argc > 2 ? std::stoull(argv[2]) : 7;
    std::uint32_t threads = argc > 3 ? static_cast<std::uint32_t>(std::stoul(argv[3])) : 1;
    try {
        for (const std::string &preset : pachisi::variants()) {
            pachisi::Rules rules(preset);
            unsigned seats = pachisi::Game(rules, 0).seats();
            std::vector<pachisi::GameRecord> records = pachisi::simulate(rules, seed, threads, games);
            std::vector<std::size_t> wins(seats);
            double rolls = 0;
            for (const pachisi::GameRecord &r : records) {
                for (unsigned s = 0; s < seats; s++) wins[s] += (r.winners >> s) & 1u;
                rolls += r.rolls;
            }
            std::printf("%-15s %zu games:", preset.c_str(), games);
            for (unsigned s = 0; s < seats; s++)
                std::printf(" seat %u %5.1f%%", s,
                            games ? 100.0 * static_cast<double>(wins[s]) / static_cast<double>(games) : 0.0);
            std::printf("  mean rolls %.1f\n", games ? rolls / static_cast<double>(games) : 0.0);
        }
    } catch (const pachisi::Error &e) {
        std::fprintf(stderr, "error %d: %s\n", static_cast<int>(e.code()), e.what());
        return 1;
    }
    return 0;
}
