// A minimal "engine" on the installed package: one game per preset between built-in players,
// a turn loop that asks the rules for what happens next, and a render step that reads the
// game through a const reference (safe from a render thread; here a std::thread).
#include <pachisi.hpp>

#include <cstdio>
#include <string>
#include <thread>

// What a frame shows: whose turn, the position, how many plays the mover has.
static std::string render(const pachisi::Game &game) {
    pachisi::Result<std::string> position = game.try_position();
    pachisi::Result<std::size_t> plays = game.try_legal_play_count();
    if (!position || !plays) return "render failed: " + position.message() + plays.message();
    return "seat " + std::to_string(game.try_to_move().value_or(PACHISI_NO_SEAT)) + ", " +
           std::to_string(plays.value()) + " plays, position " +
           std::to_string(position.value().size()) + " chars";
}

int main() {
    std::printf("pachisi %s, ABI %u\n", pachisi::version().c_str(), pachisi_abi_version());
    if (pachisi_abi_version() != PACHISI_ABI_VERSION) return 1;
    std::uint64_t seed = 1;
    for (const std::string &preset : pachisi::variants()) {
        pachisi::Game game(preset, seed);
        pachisi::Policy bot("greedy", seed++);
        std::size_t turns = 0;
        std::string frame;
        while (!game.is_over() && turns < 20000) {
            if (game.node() == pachisi::Node::Chance) {
                game.roll();
                continue;
            }
            std::thread renderer([&] { frame = render(game); });
            renderer.join();
            bot.play(game);
            turns++;
        }
        pachisi::Outcome o = game.outcome();
        std::printf("%-15s %5zu plays, seat %u wins; last frame: %s\n", preset.c_str(), turns,
                    static_cast<unsigned>(o.winner), frame.c_str());
        if (!o.over) return 1;
    }
    return 0;
}
