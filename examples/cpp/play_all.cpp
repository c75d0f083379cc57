// Plays one seeded game of every preset to the end through the C++ wrapper (pachisi.hpp),
// printing each roll and each play. Plays are chosen with std::mt19937_64 seeded from the
// command line, so the same seed prints the same games.
//
//     play_all [SEED]
#include "pachisi.hpp"

#include <cstdint>
#include <iostream>
#include <random>
#include <string>

int main(int argc, char **argv) {
    std::uint64_t seed = argc > 1 ? std::stoull(argv[1]) : 2026;
    std::cout << "pachisi " << pachisi::version() << "\n";
    try {
        std::uint64_t offset = 0;
        for (const std::string &preset : pachisi::variants()) {
            pachisi::Game game(preset, seed + offset);
            std::mt19937_64 choose(seed + offset++);
            std::cout << "=== " << preset << "\n";
            std::size_t actions = 0;
            while (!game.is_over() && actions++ < 100000) {
                unsigned seat = game.to_move();
                if (game.node() == pachisi::Node::Chance) {
                    std::cout << "seat " << seat << " rolls " << pachisi::to_string(game.roll())
                              << "\n";
                    continue;
                }
                std::vector<pachisi::Play> plays = game.legal_plays();
                std::size_t pick = std::uniform_int_distribution<std::size_t>(0, plays.size() - 1)(choose);
                const pachisi::Play &play = plays[pick];
                std::cout << "seat " << seat << " plays "
                          << (play.notation.empty() ? "(pass)" : play.notation) << "   ("
                          << plays.size() << " choices, " << play.steps.size() << " steps)\n";
                game.play(pick);
            }
            pachisi::Outcome o = game.outcome();
            if (o.over)
                std::cout << preset << ": seat " << unsigned(o.winner) << " wins (" << o.points
                          << " point" << (o.points == 1 ? "" : "s") << ")\n";
            else
                std::cout << preset << ": unfinished\n";
        }
    } catch (const pachisi::Error &e) {
        std::cerr << "error " << static_cast<unsigned>(e.code()) << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
