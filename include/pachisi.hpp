// pachisi.hpp: a header-only C++17 wrapper of the pachisi C ABI (pachisi.h).
//
// RAII handles (pachisi::Rules, pachisi::Game: copyable by clone, movable; pachisi::Policy:
// movable), failures as exceptions (pachisi::Error carries the status code and the engine's
// message), and std::string / std::vector in place of caller-sized buffers. Link exactly as for
// the C API.
//
//     pachisi::Game game("parcheesi", 42);
//     while (!game.is_over()) {
//         if (game.node() == PACHISI_NODE_CHANCE) game.roll();
//         else game.play(0);
//     }
//
// Thread safety is that of the C API: one object may be used by one thread at a time.
#ifndef PACHISI_HPP
#define PACHISI_HPP

#include "pachisi.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pachisi {

using Step = pachisi_step;
using RollValue = pachisi_roll;
using Outcome = pachisi_outcome;
using GameRecord = pachisi_game_record;
using Node = pachisi_node;
using Board = pachisi_board;
using Event = pachisi_event;
using PlaySteps = pachisi_play;
using OptionInfo = pachisi_option_info;

/// The message of the last failure on this thread (empty if none).
inline std::string last_error_message() {
    std::size_t needed = 0;
    if (pachisi_last_error(nullptr, 0, &needed) != PACHISI_RESULT_BUFFER_TOO_SMALL) return {};
    std::string text(needed, '\0');
    if (pachisi_last_error(text.data(), text.size(), &needed) != PACHISI_RESULT_OK) return {};
    text.resize(needed - 1);
    return text;
}

/// A failed call: the status code (pachisi_result) and the engine's message.
class Error : public std::runtime_error {
public:
    Error(pachisi_result code, const std::string &message)
        : std::runtime_error(std::string(pachisi_result_name(static_cast<int32_t>(code))) + ": " +
                             message),
          code_(code) {}
    /// The status code of the failed call.
    pachisi_result code() const noexcept { return code_; }
    /// The status's name ("InvalidRoll", "IllegalMove"...).
    const char *name() const noexcept { return pachisi_result_name(static_cast<int32_t>(code_)); }

private:
    pachisi_result code_;
};

/// Throws pachisi::Error unless `status` is PACHISI_RESULT_OK.
inline void check(pachisi_result status) {
    if (status != PACHISI_RESULT_OK) throw Error(status, last_error_message());
}

namespace detail {
// Reads a string output into a std::string: one call when the text fits a first guess,
// otherwise a second with the size the first reported.
template <typename Call> std::string read_string(Call call) {
    std::string text(256, '\0');
    std::size_t needed = 0;
    pachisi_result status = call(text.data(), text.size(), &needed);
    if (status == PACHISI_RESULT_BUFFER_TOO_SMALL) {
        text.assign(needed, '\0');
        status = call(text.data(), text.size(), &needed);
    }
    check(status);
    text.resize(needed - 1); // drop the NUL
    return text;
}

// Reads an array output the same way.
template <typename T, typename Call> std::vector<T> read_array(Call call) {
    std::size_t needed = 0;
    pachisi_result status = call(nullptr, 0, &needed);
    if (status == PACHISI_RESULT_OK) return {};
    if (status != PACHISI_RESULT_BUFFER_TOO_SMALL) check(status);
    std::vector<T> items(needed);
    check(call(items.data(), items.size(), &needed));
    items.resize(needed);
    return items;
}

struct RulesDeleter {
    void operator()(pachisi_rules *r) const noexcept { pachisi_rules_free(r); }
};
struct GameDeleter {
    void operator()(pachisi_game *g) const noexcept { pachisi_game_free(g); }
};
struct PolicyDeleter {
    void operator()(pachisi_policy *p) const noexcept { pachisi_policy_free(p); }
};
} // namespace detail

/// The library version ("0.1.0").
inline std::string version() { return pachisi_version(); }

/// The names of every preset.
inline std::vector<std::string> variants() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < pachisi_variant_count(); i++)
        names.push_back(detail::read_string(
            [&](char *b, std::size_t n, std::size_t *w) { return pachisi_variant_name(i, b, n, w); }));
    return names;
}

/// A roll of two dice.
inline RollValue dice(std::uint8_t a, std::uint8_t b) {
    RollValue r{};
    r.kind = PACHISI_ROLL_KIND_DICE;
    r.dice[0] = a;
    r.dice[1] = b;
    return r;
}

/// A throw of cowries with `up` shells mouth up.
inline RollValue cowries(std::uint8_t up) {
    RollValue r{};
    r.kind = PACHISI_ROLL_KIND_COWRIES;
    r.up = up;
    return r;
}

/// A roll as text: "5-3" or "2 up".
inline std::string to_string(const RollValue &r) {
    if (r.kind == PACHISI_ROLL_KIND_COWRIES) return std::to_string(r.up) + " up";
    return std::to_string(r.dice[0]) + "-" + std::to_string(r.dice[1]);
}

/// A legal play: its steps and its notation.
struct Play {
    std::vector<Step> steps;
    std::string notation;
};

/// A chance outcome and its probability.
struct ChanceOutcome {
    RollValue roll;
    double probability;
};

/// Rules: a preset and the value of every option.
class Rules {
public:
    /// A preset, optionally with options as a JSON object (`{"seats": 2}`).
    explicit Rules(const std::string &preset, const std::string &options_json = "") {
        pachisi_rules *r = nullptr;
        check(pachisi_rules_from_preset(preset.c_str(),
                                        options_json.empty() ? nullptr : options_json.c_str(), &r));
        handle_.reset(r);
    }
    /// Rules from a JSON document `{"variant": ..., options}`.
    static Rules from_json(const std::string &json) {
        pachisi_rules *r = nullptr;
        check(pachisi_rules_from_json(json.c_str(), &r));
        return Rules(r);
    }
    /// Takes ownership of a handle from the C API.
    explicit Rules(pachisi_rules *owned) : handle_(owned) {}

    Rules(const Rules &other) : Rules(from_json(other.to_json())) {}
    Rules &operator=(const Rules &other) {
        if (this != &other) *this = Rules(other);
        return *this;
    }
    Rules(Rules &&) noexcept = default;
    Rules &operator=(Rules &&) noexcept = default;

    std::string to_json() const {
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_rules_to_json(handle_.get(), b, n, w);
        });
    }
    std::string variant() const {
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_rules_variant(handle_.get(), b, n, w);
        });
    }
    /// Every option of the preset: name, type, default, range or choices (static strings).
    std::vector<OptionInfo> options() const {
        std::size_t n = 0;
        check(pachisi_rules_option_count(handle_.get(), &n));
        std::vector<OptionInfo> out(n);
        for (std::size_t i = 0; i < n; i++)
            check(pachisi_rules_option_info(handle_.get(), i, &out[i]));
        return out;
    }
    /// The C handle (still owned by this object).
    const pachisi_rules *get() const noexcept { return handle_.get(); }

private:
    std::unique_ptr<pachisi_rules, detail::RulesDeleter> handle_;
};

/// A game in progress. Copying clones the game (position, generator, history).
class Game {
public:
    /// A new game of a preset (optionally with options JSON), seeded.
    Game(const std::string &preset, std::uint64_t seed, const std::string &options_json = "") {
        pachisi_game *g = nullptr;
        check(pachisi_game_from_preset(
            preset.c_str(), options_json.empty() ? nullptr : options_json.c_str(), seed, &g));
        handle_.reset(g);
    }
    /// A new game of `rules`, seeded.
    Game(const Rules &rules, std::uint64_t seed) {
        pachisi_game *g = nullptr;
        check(pachisi_game_new(rules.get(), seed, &g));
        handle_.reset(g);
    }
    /// A game of `rules` from a position in the variant's notation.
    static Game from_position(const Rules &rules, const std::string &position,
                              std::uint64_t seed = 0) {
        pachisi_game *g = nullptr;
        check(pachisi_game_from_position(rules.get(), position.c_str(), seed, &g));
        return Game(g);
    }
    /// A game from the JSON of a whole game (to_json()).
    static Game from_json(const std::string &json) {
        pachisi_game *g = nullptr;
        check(pachisi_game_from_json(json.c_str(), &g));
        return Game(g);
    }
    /// Takes ownership of a handle from the C API.
    explicit Game(pachisi_game *owned) : handle_(owned) {}

    Game(const Game &other) {
        pachisi_game *g = nullptr;
        check(pachisi_game_clone(other.handle_.get(), &g));
        handle_.reset(g);
    }
    Game &operator=(const Game &other) {
        if (this != &other) *this = Game(other);
        return *this;
    }
    Game(Game &&) noexcept = default;
    Game &operator=(Game &&) noexcept = default;

    // State
    Node node() const { return read<Node>(pachisi_game_node); }
    bool is_over() const { return read<bool>(pachisi_game_is_over); }
    std::uint8_t to_move() const { return read<std::uint8_t>(pachisi_game_to_move); }
    std::uint8_t seats() const { return read<std::uint8_t>(pachisi_game_seats); }
    /// The lowest winning seat, or PACHISI_NO_SEAT.
    std::uint8_t winner() const { return read<std::uint8_t>(pachisi_game_winner); }
    Outcome outcome() const { return read<Outcome>(pachisi_game_outcome); }
    std::size_t history_len() const { return read<std::size_t>(pachisi_game_history_len); }
    std::vector<double> returns() const {
        return detail::read_array<double>([&](double *b, std::size_t n, std::size_t *w) {
            return pachisi_game_returns(handle_.get(), b, n, w);
        });
    }
    std::string position() const { return text(pachisi_game_position); }
    /// The log, one event per line (`roll 0 5-3`, `play 0 <notation>`, `forfeit 1`).
    std::string log_text() const { return text(pachisi_game_log_text); }
    std::string to_json() const { return text(pachisi_game_to_json); }
    std::string rules_json() const { return text(pachisi_game_rules_json); }
    std::string variant() const { return text(pachisi_game_variant); }
    /// A picture of the board: an SVG document `size` pixels wide (pachisi_game_svg).
    std::string svg(double size = 560.0) const {
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_game_svg(handle_.get(), size, b, n, w);
        });
    }
    Rules rules() const {
        pachisi_rules *r = nullptr;
        check(pachisi_game_rules(handle_.get(), &r));
        return Rules(r);
    }

    // Chance
    std::vector<ChanceOutcome> chance_outcomes() const {
        std::vector<ChanceOutcome> out(read<std::size_t>(pachisi_game_chance_outcome_count));
        for (std::size_t i = 0; i < out.size(); i++)
            check(pachisi_game_chance_outcome(handle_.get(), i, &out[i].roll, &out[i].probability));
        return out;
    }
    /// Rolls with the game's seeded generator and returns the roll.
    RollValue roll() {
        RollValue r{};
        check(pachisi_game_roll(handle_.get(), &r));
        return r;
    }
    void set_roll(const RollValue &r) { check(pachisi_game_set_roll(handle_.get(), &r)); }

    // Plays
    std::size_t legal_play_count() const {
        return read<std::size_t>(pachisi_game_legal_play_count);
    }
    Play legal_play(std::size_t index) const {
        Play p;
        p.steps = detail::read_array<Step>([&](Step *b, std::size_t n, std::size_t *w) {
            return pachisi_game_legal_play(handle_.get(), index, b, n, w);
        });
        p.notation = detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_game_legal_play_notation(handle_.get(), index, b, n, w);
        });
        return p;
    }
    std::vector<Play> legal_plays() const {
        std::vector<Play> plays;
        std::size_t n = legal_play_count();
        for (std::size_t i = 0; i < n; i++) plays.push_back(legal_play(i));
        return plays;
    }
    /// Makes legal play number `index`.
    void play(std::size_t index) { check(pachisi_game_play(handle_.get(), index)); }
    /// Makes the play written in move notation.
    void play(const std::string &notation) {
        check(pachisi_game_play_notation(handle_.get(), notation.c_str()));
    }
    /// Makes the play given as its steps.
    void play(const std::vector<Step> &steps) {
        check(pachisi_game_play_steps(handle_.get(), steps.data(), steps.size()));
    }

    // Steps
    std::vector<Step> legal_steps() const {
        std::vector<Step> out(read<std::size_t>(pachisi_game_legal_step_count));
        for (std::size_t i = 0; i < out.size(); i++)
            check(pachisi_game_legal_step(handle_.get(), i, &out[i]));
        return out;
    }
    void step(std::size_t index) { check(pachisi_game_step_index(handle_.get(), index)); }
    void step(const Step &s) { check(pachisi_game_step(handle_.get(), &s)); }
    std::vector<Step> taken_steps() const {
        return detail::read_array<Step>([&](Step *b, std::size_t n, std::size_t *w) {
            return pachisi_game_taken_steps(handle_.get(), b, n, w);
        });
    }
    void finish_play() { check(pachisi_game_finish_play(handle_.get())); }
    void undo() { check(pachisi_game_undo(handle_.get())); }
    /// Makes again the last action undo took back.
    void redo() { check(pachisi_game_redo(handle_.get())); }
    std::size_t redo_len() const { return read<std::size_t>(pachisi_game_redo_len); }

    // Events, history, search
    /// The events of the last action (the action, then what it caused).
    std::vector<Event> events() const {
        return detail::read_array<Event>([&](Event *b, std::size_t n, std::size_t *w) {
            return pachisi_game_events(handle_.get(), b, n, w);
        });
    }
    /// The events of action number `index` of the history (0 = the first).
    std::vector<Event> history(std::size_t index) const {
        return detail::read_array<Event>([&](Event *b, std::size_t n, std::size_t *w) {
            return pachisi_game_history(handle_.get(), index, b, n, w);
        });
    }
    /// The board as plain data (pieces in board coordinates, safe places, roll, turn).
    Board board() const { return read<Board>(pachisi_game_board); }
    /// A hash of the position (stable within one library version on one platform).
    std::uint64_t hash() const { return read<std::uint64_t>(pachisi_game_hash); }
    /// Whether both games stand at the same position under the same rules.
    bool same_position(const Game &other) const {
        bool same = false;
        check(pachisi_game_same_position(handle_.get(), other.handle_.get(), &same));
        return same;
    }
    /// The legal plays of a hypothetical roll at this chance node (the game is unchanged).
    std::vector<PlaySteps> plays_for_roll(const RollValue &r) const {
        return detail::read_array<PlaySteps>([&](PlaySteps *b, std::size_t n, std::size_t *w) {
            return pachisi_game_plays_for_roll(handle_.get(), &r, b, n, w);
        });
    }

    /// The C handle (still owned by this object).
    pachisi_game *get() const noexcept { return handle_.get(); }

private:
    template <typename T, typename Fn> T read(Fn fn) const {
        T value{};
        check(fn(handle_.get(), &value));
        return value;
    }
    template <typename Fn> std::string text(Fn fn) const {
        return detail::read_string(
            [&](char *b, std::size_t n, std::size_t *w) { return fn(handle_.get(), b, n, w); });
    }

    std::unique_ptr<pachisi_game, detail::GameDeleter> handle_;
};

/// A player: a built-in policy ("random", "greedy", "expectimax:depth=2", "mcts:iterations=2000",
/// or a JSON spec) with its own seeded generator. Movable, not copyable (its generator is its
/// own).
class Policy {
public:
    explicit Policy(const std::string &spec, std::uint64_t seed = 0) {
        pachisi_policy *p = nullptr;
        check(pachisi_policy_new(spec.c_str(), seed, &p));
        handle_.reset(p);
    }
    /// The index of the play it chooses in `game` (an index for Game::legal_play / Game::play).
    std::size_t choose(const Game &game) {
        std::size_t index = 0;
        check(pachisi_policy_choose(handle_.get(), game.get(), &index));
        return index;
    }
    /// Chooses a play of `game` and makes it.
    void play(Game &game) { game.play(choose(game)); }
    /// The canonical spec.
    std::string name() const {
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_policy_name(handle_.get(), b, n, w);
        });
    }
    /// The C handle (still owned by this object).
    pachisi_policy *get() const noexcept { return handle_.get(); }

private:
    std::unique_ptr<pachisi_policy, detail::PolicyDeleter> handle_;
};

/// Simulates `games` random-policy games of `rules` (threads 0 = every core).
inline std::vector<GameRecord> simulate(const Rules &rules, std::size_t games, std::uint64_t seed,
                                        std::uint32_t threads = 0) {
    std::vector<GameRecord> records(games);
    check(pachisi_simulate(rules.get(), seed, threads, records.data(), games));
    return records;
}

/// Games `first_game .. first_game + games` of the run `simulate` makes from `seed`.
inline std::vector<GameRecord> simulate_range(const Rules &rules, std::uint64_t seed,
                                              std::uint64_t first_game, std::size_t games,
                                              std::uint32_t threads = 0) {
    std::vector<GameRecord> records(games);
    check(pachisi_simulate_range(rules.get(), seed, first_game, threads, records.data(), games));
    return records;
}

} // namespace pachisi

#endif // PACHISI_HPP
