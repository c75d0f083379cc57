// pachisi.hpp: a header-only C++ wrapper of the pachisi C ABI (pachisi.h), for C++11 and later.
//
// RAII handles (pachisi::Rules, pachisi::Game: copyable by clone, movable; pachisi::Policy:
// movable), std::string / std::vector in place of caller-sized buffers, scoped enums
// (pachisi::Code, pachisi::Node, pachisi::StepKind, pachisi::RollKind), and two ways to see a
// failure:
//
// - exceptions: the plain methods and the constructors throw pachisi::Error (its code() and
//   the engine's message in what()). Available when exceptions are enabled.
// - error codes: every method has a `try_` twin returning pachisi::Result<T> (a value or a Code
//   and a message; Result<void> is pachisi::Status), and every constructor a static `create`
//   returning Result<Rules/Game/Policy>. This API never throws for a failed call; it is the
//   only one compiled with -fno-exceptions.
//
//     pachisi::Game game("parcheesi", 42);                 // throws pachisi::Error
//     while (!game.is_over()) {
//         if (game.node() == pachisi::Node::Chance) game.roll();
//         else game.play(0);
//     }
//
//     pachisi::Result<pachisi::Game> made = pachisi::Game::create("parcheesi", 42);
//     if (!made) std::fprintf(stderr, "%s\n", made.message().c_str());
//
// Threads: const methods only read (they call the C functions taking a const handle), so any
// number of threads may call const methods of one object at once; a non-const method needs the
// object to itself. A Policy's choose() is non-const (it advances its generator).
//
// Empty objects: a default-constructed or moved-from Rules, Game or Policy holds no handle:
// valid() is false, and every call fails with Code::NullPointer and a message saying so (the
// plain methods throw it).
//
// With C++17, string parameters are std::string_view (so std::string, string literals and
// views all work, with no copy); before, const std::string &. Link exactly as for the C API.
#ifndef PACHISI_HPP
#define PACHISI_HPP

#ifndef __cplusplus
#error "pachisi.hpp is the C++ wrapper; from C, include pachisi.h"
#endif

#if defined(_MSVC_LANG)
#define PACHISI_HPP_CPLUSPLUS _MSVC_LANG
#else
#define PACHISI_HPP_CPLUSPLUS __cplusplus
#endif

#if PACHISI_HPP_CPLUSPLUS < 201103L
#error "pachisi.hpp needs C++11 or later (compile with -std=c++11 or newer), as pachisi.h does when included from C++"
#endif

// 1 when exceptions are enabled (the throwing API is compiled); define it to 0 to leave that
// API out even so.
#ifndef PACHISI_HPP_EXCEPTIONS
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define PACHISI_HPP_EXCEPTIONS 1
#else
#define PACHISI_HPP_EXCEPTIONS 0
#endif
#endif

#include "pachisi.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#if PACHISI_HPP_EXCEPTIONS
#include <stdexcept>
#endif
#if PACHISI_HPP_CPLUSPLUS >= 201703L
#include <string_view>
#endif

namespace pachisi {

/// The status of a call (the C pachisi_result, same numbers).
enum class Code : std::uint32_t {
    Ok = PACHISI_RESULT_OK,
    UnknownVariant = PACHISI_RESULT_UNKNOWN_VARIANT,
    InvalidRules = PACHISI_RESULT_INVALID_RULES,
    InvalidJson = PACHISI_RESULT_INVALID_JSON,
    InvalidNotation = PACHISI_RESULT_INVALID_NOTATION,
    InvalidPosition = PACHISI_RESULT_INVALID_POSITION,
    InvalidRoll = PACHISI_RESULT_INVALID_ROLL,
    IllegalMove = PACHISI_RESULT_ILLEGAL_MOVE,
    WrongPhase = PACHISI_RESULT_WRONG_PHASE,
    InvalidPlayer = PACHISI_RESULT_INVALID_PLAYER,
    InvalidArgument = PACHISI_RESULT_INVALID_ARGUMENT,
    Cancelled = PACHISI_RESULT_CANCELLED,
    ResourceError = PACHISI_RESULT_RESOURCE_ERROR,
    NullPointer = PACHISI_RESULT_NULL_POINTER,
    BufferTooSmall = PACHISI_RESULT_BUFFER_TOO_SMALL,
    IndexOutOfRange = PACHISI_RESULT_INDEX_OUT_OF_RANGE,
    InvalidUtf8 = PACHISI_RESULT_INVALID_UTF8,
    Panic = PACHISI_RESULT_PANIC,
    OtherError = PACHISI_RESULT_OTHER_ERROR,
};

/// What happens next in a game.
enum class Node : std::uint32_t {
    Chance = PACHISI_NODE_CHANCE,
    Decision = PACHISI_NODE_DECISION,
    Over = PACHISI_NODE_OVER,
};

/// What a step does (Step::kind).
enum class StepKind : std::uint8_t {
    Move = PACHISI_STEP_KIND_MOVE,
    Enter = PACHISI_STEP_KIND_ENTER,
    Bonus = PACHISI_STEP_KIND_BONUS,
    Double = PACHISI_STEP_KIND_DOUBLE,
    NoDouble = PACHISI_STEP_KIND_NO_DOUBLE,
    Take = PACHISI_STEP_KIND_TAKE,
    Drop = PACHISI_STEP_KIND_DROP,
};

/// What a roll holds (RollValue::kind).
enum class RollKind : std::uint8_t {
    Dice = PACHISI_ROLL_KIND_DICE,
    Cowries = PACHISI_ROLL_KIND_COWRIES,
};

using Step = pachisi_step;
using RollValue = pachisi_roll;
using Outcome = pachisi_outcome;
using GameRecord = pachisi_game_record;
using Board = pachisi_board;
using Event = pachisi_event;
using PlaySteps = pachisi_play;
using OptionInfo = pachisi_option_info;

/// A step's kind as the scoped enum.
inline StepKind kind(const Step &s) noexcept { return static_cast<StepKind>(s.kind); }
/// A roll's kind as the scoped enum.
inline RollKind kind(const RollValue &r) noexcept { return static_cast<RollKind>(r.kind); }

/// The name of a status ("InvalidRoll"); a static string.
inline const char *name(Code code) noexcept {
    return pachisi_result_name(static_cast<std::uint32_t>(code));
}
/// A one-line description of a status; a static string.
inline const char *description(Code code) noexcept {
    return pachisi_result_description(static_cast<std::uint32_t>(code));
}

#if PACHISI_HPP_CPLUSPLUS >= 201703L
/// The string parameter type: any std::string, literal or view, not copied.
using StringArg = std::string_view;
#else
/// The string parameter type.
using StringArg = const std::string &;
#endif

#if PACHISI_HPP_EXCEPTIONS
/// A failed call, as an exception: the status and the engine's message.
class Error : public std::runtime_error {
public:
    Error(Code code, const std::string &message)
        : std::runtime_error(std::string(pachisi::name(code)) + ": " + message), code_(code) {}
    /// The status of the failed call.
    Code code() const noexcept { return code_; }
    /// The status's name ("InvalidRoll", "IllegalMove"...).
    const char *name() const noexcept { return pachisi::name(code_); }

private:
    Code code_;
};
#endif

namespace detail {
// A failure reaching a place that needs a value: the exception, or without exceptions a
// message on stderr and abort() (as std::optional::value() would do).
[[noreturn]] inline void fail(Code code, const std::string &message) {
#if PACHISI_HPP_EXCEPTIONS
    throw Error(code, message);
#else
    std::fprintf(stderr, "pachisi: %s: %s\n", pachisi::name(code), message.c_str());
    std::abort();
#endif
}
} // namespace detail

/// A value or a failure (a Code other than Ok and the engine's message). Test it with ok() or
/// `if (result)`; value() gives the value (on a failure it throws pachisi::Error, or without
/// exceptions prints the message and aborts).
template <typename T> class Result {
public:
    Result(T value) : value_(std::move(value)), code_(Code::Ok) {}
    Result(Code code, std::string message)
        : value_(), code_(code), message_(std::move(message)) {}

    bool ok() const noexcept { return code_ == Code::Ok; }
    explicit operator bool() const noexcept { return ok(); }
    /// Code::Ok, or the failure's status.
    Code code() const noexcept { return code_; }
    /// The failure's message (empty on success).
    const std::string &message() const noexcept { return message_; }
    T &value() & {
        if (!ok()) detail::fail(code_, message_);
        return value_;
    }
    const T &value() const & {
        if (!ok()) detail::fail(code_, message_);
        return value_;
    }
    T value() && {
        if (!ok()) detail::fail(code_, message_);
        return std::move(value_);
    }
    /// The value, or `fallback` on a failure.
    T value_or(T fallback) const & { return ok() ? value_ : fallback; }
    T value_or(T fallback) && { return ok() ? std::move(value_) : std::move(fallback); }

private:
    T value_;
    Code code_;
    std::string message_;
};

/// Success, or a failure (a Code other than Ok and the engine's message).
template <> class Result<void> {
public:
    Result() : code_(Code::Ok) {}
    Result(Code code, std::string message) : code_(code), message_(std::move(message)) {}

    bool ok() const noexcept { return code_ == Code::Ok; }
    explicit operator bool() const noexcept { return ok(); }
    Code code() const noexcept { return code_; }
    const std::string &message() const noexcept { return message_; }
    /// Nothing on success; on a failure throws pachisi::Error (or prints and aborts).
    void value() const {
        if (!ok()) detail::fail(code_, message_);
    }

private:
    Code code_;
    std::string message_;
};

/// The outcome of a call that returns nothing.
using Status = Result<void>;

/// The message of the last failure on this thread (empty if none).
inline std::string last_error_message() {
    std::size_t needed = 0;
    if (pachisi_last_error(nullptr, 0, &needed) != PACHISI_RESULT_BUFFER_TOO_SMALL) return {};
    std::string text(needed, '\0');
    if (pachisi_last_error(&text[0], text.size(), &needed) != PACHISI_RESULT_OK) return {};
    text.resize(needed - 1);
    return text;
}

namespace detail {
inline Status status(pachisi_result r) {
    if (r == PACHISI_RESULT_OK) return Status();
    return Status(static_cast<Code>(r), last_error_message());
}

template <typename T> Result<T> failed(const Status &s) { return Result<T>(s.code(), s.message()); }

template <typename T> Result<T> empty_object(const char *type) {
    return Result<T>(Code::NullPointer,
                     std::string("this pachisi::") + type +
                         " is empty (moved from or default-constructed): it holds no handle");
}

// A string parameter as pointer + length for the `_n` C functions.
inline const char *data(StringArg s) noexcept { return s.data(); }
inline std::size_t size(StringArg s) noexcept { return s.size(); }

// Reads a string output into a std::string: one call when the text fits a first guess,
// otherwise a second with the size the first reported (the library keeps the text it made for
// the first call, so the game is not serialised twice).
template <typename Call> Result<std::string> read_string(Call call) {
    std::string text(256, '\0');
    std::size_t needed = 0;
    pachisi_result r = call(&text[0], text.size(), &needed);
    if (r == PACHISI_RESULT_BUFFER_TOO_SMALL) {
        text.assign(needed, '\0');
        r = call(&text[0], text.size(), &needed);
    }
    if (r != PACHISI_RESULT_OK) return failed<std::string>(status(r));
    text.resize(needed - 1); // drop the NUL
    return text;
}

// Reads an array output the same way.
template <typename T, typename Call> Result<std::vector<T>> read_array(Call call) {
    std::size_t needed = 0;
    pachisi_result r = call(nullptr, 0, &needed);
    if (r == PACHISI_RESULT_OK) return std::vector<T>();
    if (r != PACHISI_RESULT_BUFFER_TOO_SMALL) return failed<std::vector<T>>(status(r));
    std::vector<T> items(needed);
    r = call(items.data(), items.size(), &needed);
    if (r != PACHISI_RESULT_OK) return failed<std::vector<T>>(status(r));
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
struct EnvDeleter {
    void operator()(pachisi_env *e) const noexcept { pachisi_env_free(e); }
};
} // namespace detail

/// The library version ("0.1.0").
inline std::string version() { return pachisi_version(); }

/// The names of every preset.
inline Result<std::vector<std::string>> try_variants() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < pachisi_variant_count(); i++) {
        Result<std::string> name = detail::read_string(
            [&](char *b, std::size_t n, std::size_t *w) { return pachisi_variant_name(i, b, n, w); });
        if (!name) return detail::failed<std::vector<std::string>>(Status(name.code(), name.message()));
        names.push_back(std::move(name).value());
    }
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

/// Rules: a preset and the value of every option. Immutable: every method is const and safe
/// from several threads at once.
class Rules {
public:
    /// An empty object (valid() is false).
    Rules() = default;
    /// Takes ownership of a handle from the C API.
    explicit Rules(pachisi_rules *owned) noexcept : handle_(owned) {}

    /// A preset, optionally with options as a JSON object (`{"seats": 2}`; empty: defaults).
    static Result<Rules> create(StringArg preset, StringArg options_json = {}) {
        pachisi_rules *r = nullptr;
        Status s = detail::status(pachisi_rules_from_preset_n(
            detail::data(preset), detail::size(preset),
            detail::size(options_json) ? detail::data(options_json) : nullptr,
            detail::size(options_json), &r));
        if (!s) return detail::failed<Rules>(s);
        return Rules(r);
    }
    /// Rules from a JSON document `{"variant": ..., options}`.
    static Result<Rules> try_from_json(StringArg json) {
        pachisi_rules *r = nullptr;
        Status s = detail::status(
            pachisi_rules_from_json_n(detail::data(json), detail::size(json), &r));
        if (!s) return detail::failed<Rules>(s);
        return Rules(r);
    }
    /// An independent copy (an empty object copies as empty).
    Result<Rules> try_clone() const {
        if (!handle_) return detail::empty_object<Rules>("Rules");
        Result<std::string> json = try_to_json();
        if (!json) return detail::failed<Rules>(Status(json.code(), json.message()));
        return try_from_json(json.value());
    }

    Result<std::string> try_to_json() const {
        if (!handle_) return detail::empty_object<std::string>("Rules");
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_rules_to_json(handle_.get(), b, n, w);
        });
    }
    Result<std::string> try_variant() const {
        if (!handle_) return detail::empty_object<std::string>("Rules");
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_rules_variant(handle_.get(), b, n, w);
        });
    }
    /// Every option of the preset: name, type, default, range or choices (static strings).
    Result<std::vector<OptionInfo>> try_options() const {
        if (!handle_) return detail::empty_object<std::vector<OptionInfo>>("Rules");
        std::size_t n = 0;
        Status s = detail::status(pachisi_rules_option_count(handle_.get(), &n));
        if (!s) return detail::failed<std::vector<OptionInfo>>(s);
        std::vector<OptionInfo> out(n);
        for (std::size_t i = 0; i < n; i++) {
            s = detail::status(pachisi_rules_option_info(handle_.get(), i, &out[i]));
            if (!s) return detail::failed<std::vector<OptionInfo>>(s);
        }
        return out;
    }

#if PACHISI_HPP_EXCEPTIONS
    /// A preset, optionally with options as a JSON object. Throws pachisi::Error.
    explicit Rules(StringArg preset, StringArg options_json = {})
        : Rules(create(preset, options_json).value()) {}
    static Rules from_json(StringArg json) { return try_from_json(json).value(); }
    std::string to_json() const { return try_to_json().value(); }
    std::string variant() const { return try_variant().value(); }
    std::vector<OptionInfo> options() const { return try_options().value(); }
#endif

    /// Copying clones; an empty object copies as empty. A failed clone throws pachisi::Error
    /// (without exceptions it leaves the copy empty).
    Rules(const Rules &other) : handle_() {
        if (other.valid()) adopt(other.try_clone());
    }
    Rules &operator=(const Rules &other) {
        if (this != &other) *this = Rules(other);
        return *this;
    }
    Rules(Rules &&) noexcept = default;
    Rules &operator=(Rules &&) noexcept = default;

    /// Whether this object holds a handle (false once moved from).
    bool valid() const noexcept { return handle_ != nullptr; }
    /// The C handle (still owned by this object).
    const pachisi_rules *get() const noexcept { return handle_.get(); }

private:
    void adopt(Result<Rules> made) {
#if PACHISI_HPP_EXCEPTIONS
        made.value();
#endif
        if (made) handle_ = std::move(std::move(made).value().handle_);
    }

    std::unique_ptr<pachisi_rules, detail::RulesDeleter> handle_;
};

/// A game in progress. Copying clones the game (position, generator, history). Const methods
/// are safe from several threads at once; non-const ones need the object to themselves.
class Game {
public:
    /// An empty object (valid() is false).
    Game() = default;
    /// Takes ownership of a handle from the C API.
    explicit Game(pachisi_game *owned) noexcept : handle_(owned) {}

    /// A new game of a preset (optionally with options JSON), seeded.
    static Result<Game> create(StringArg preset, std::uint64_t seed,
                               StringArg options_json = {}) {
        pachisi_game *g = nullptr;
        const pachisi_result r = pachisi_game_from_preset_n(
            detail::data(preset), detail::size(preset),
            detail::size(options_json) ? detail::data(options_json) : nullptr,
            detail::size(options_json), seed, &g);
        return wrap(r, g); // g is read after the call wrote it
    }
    /// A new game of `rules`, seeded.
    static Result<Game> create(const Rules &rules, std::uint64_t seed) {
        if (!rules.valid()) return detail::empty_object<Game>("Rules");
        pachisi_game *g = nullptr;
        const pachisi_result r = pachisi_game_new(rules.get(), seed, &g);
        return wrap(r, g); // g is read after the call wrote it
    }
    /// A game of `rules` from a position in the variant's notation.
    static Result<Game> try_from_position(const Rules &rules, StringArg position,
                                          std::uint64_t seed = 0) {
        if (!rules.valid()) return detail::empty_object<Game>("Rules");
        pachisi_game *g = nullptr;
        const pachisi_result r = pachisi_game_from_position_n(
            rules.get(), detail::data(position), detail::size(position), seed, &g);
        return wrap(r, g); // g is read after the call wrote it
    }
    /// A game from the JSON of a whole game (to_json()).
    static Result<Game> try_from_json(StringArg json) {
        pachisi_game *g = nullptr;
        const pachisi_result r =
            pachisi_game_from_json_n(detail::data(json), detail::size(json), &g);
        return wrap(r, g); // g is read after the call wrote it
    }
    /// An independent copy.
    Result<Game> try_clone() const {
        if (!handle_) return detail::empty_object<Game>("Game");
        pachisi_game *g = nullptr;
        const pachisi_result r = pachisi_game_clone(handle_.get(), &g);
        return wrap(r, g); // g is read after the call wrote it
    }

    // State
    Result<Node> try_node() const {
        Result<pachisi_node> n = read<pachisi_node>(pachisi_game_node);
        if (!n) return detail::failed<Node>(Status(n.code(), n.message()));
        return static_cast<Node>(n.value());
    }
    Result<bool> try_is_over() const { return read<bool>(pachisi_game_is_over); }
    Result<std::uint8_t> try_to_move() const { return read<std::uint8_t>(pachisi_game_to_move); }
    Result<std::uint8_t> try_seats() const { return read<std::uint8_t>(pachisi_game_seats); }
    /// The lowest winning seat, or PACHISI_NO_SEAT.
    Result<std::uint8_t> try_winner() const { return read<std::uint8_t>(pachisi_game_winner); }
    Result<Outcome> try_outcome() const { return read<Outcome>(pachisi_game_outcome); }
    Result<std::size_t> try_history_len() const {
        return read<std::size_t>(pachisi_game_history_len);
    }
    Result<std::vector<double>> try_returns() const {
        if (!handle_) return detail::empty_object<std::vector<double>>("Game");
        return detail::read_array<double>([&](double *b, std::size_t n, std::size_t *w) {
            return pachisi_game_returns(handle_.get(), b, n, w);
        });
    }
    Result<std::string> try_position() const { return text(pachisi_game_position); }
    /// The log, one event per line (`roll 0 5-3`, `play 0 <notation>`, `forfeit 1`).
    Result<std::string> try_log_text() const { return text(pachisi_game_log_text); }
    Result<std::string> try_to_json() const { return text(pachisi_game_to_json); }
    Result<std::string> try_rules_json() const { return text(pachisi_game_rules_json); }
    Result<std::string> try_variant() const { return text(pachisi_game_variant); }
    /// A picture of the board: an SVG document `size` pixels wide (pachisi_game_svg).
    Result<std::string> try_svg(double size = 560.0) const {
        if (!handle_) return detail::empty_object<std::string>("Game");
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_game_svg(handle_.get(), size, b, n, w);
        });
    }
    Result<Rules> try_rules() const {
        if (!handle_) return detail::empty_object<Rules>("Game");
        pachisi_rules *r = nullptr;
        Status s = detail::status(pachisi_game_rules(handle_.get(), &r));
        if (!s) return detail::failed<Rules>(s);
        return Rules(r);
    }

    // Chance
    Result<std::vector<ChanceOutcome>> try_chance_outcomes() const {
        Result<std::size_t> count = read<std::size_t>(pachisi_game_chance_outcome_count);
        if (!count) return detail::failed<std::vector<ChanceOutcome>>(Status(count.code(), count.message()));
        std::vector<ChanceOutcome> out(count.value());
        for (std::size_t i = 0; i < out.size(); i++) {
            Status s = detail::status(
                pachisi_game_chance_outcome(handle_.get(), i, &out[i].roll, &out[i].probability));
            if (!s) return detail::failed<std::vector<ChanceOutcome>>(s);
        }
        return out;
    }
    /// Rolls with the game's seeded generator and returns the roll.
    Result<RollValue> try_roll() {
        if (!handle_) return detail::empty_object<RollValue>("Game");
        RollValue r{};
        Status s = detail::status(pachisi_game_roll(handle_.get(), &r));
        if (!s) return detail::failed<RollValue>(s);
        return r;
    }
    Status try_set_roll(const RollValue &r) { return call(pachisi_game_set_roll, &r); }

    // Plays
    Result<std::size_t> try_legal_play_count() const {
        return read<std::size_t>(pachisi_game_legal_play_count);
    }
    Result<Play> try_legal_play(std::size_t index) const {
        if (!handle_) return detail::empty_object<Play>("Game");
        Play p;
        Result<std::vector<Step>> steps =
            detail::read_array<Step>([&](Step *b, std::size_t n, std::size_t *w) {
                return pachisi_game_legal_play(handle_.get(), index, b, n, w);
            });
        if (!steps) return detail::failed<Play>(Status(steps.code(), steps.message()));
        Result<std::string> notation =
            detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
                return pachisi_game_legal_play_notation(handle_.get(), index, b, n, w);
            });
        if (!notation) return detail::failed<Play>(Status(notation.code(), notation.message()));
        p.steps = std::move(steps).value();
        p.notation = std::move(notation).value();
        return p;
    }
    Result<std::vector<Play>> try_legal_plays() const {
        Result<std::size_t> count = try_legal_play_count();
        if (!count) return detail::failed<std::vector<Play>>(Status(count.code(), count.message()));
        std::vector<Play> plays;
        for (std::size_t i = 0; i < count.value(); i++) {
            Result<Play> p = try_legal_play(i);
            if (!p) return detail::failed<std::vector<Play>>(Status(p.code(), p.message()));
            plays.push_back(std::move(p).value());
        }
        return plays;
    }
    /// Makes legal play number `index`.
    Status try_play(std::size_t index) { return call(pachisi_game_play, index); }
    /// Makes the play written in move notation.
    Status try_play(StringArg notation) {
        if (!handle_) return detail::empty_object<void>("Game");
        return detail::status(pachisi_game_play_notation_n(handle_.get(), detail::data(notation),
                                                           detail::size(notation)));
    }
    /// Makes the play given as its steps.
    Status try_play(const std::vector<Step> &steps) {
        return call(pachisi_game_play_steps, steps.data(), steps.size());
    }

    // Steps
    Result<std::vector<Step>> try_legal_steps() const {
        Result<std::size_t> count = read<std::size_t>(pachisi_game_legal_step_count);
        if (!count) return detail::failed<std::vector<Step>>(Status(count.code(), count.message()));
        std::vector<Step> out(count.value());
        for (std::size_t i = 0; i < out.size(); i++) {
            Status s = detail::status(pachisi_game_legal_step(handle_.get(), i, &out[i]));
            if (!s) return detail::failed<std::vector<Step>>(s);
        }
        return out;
    }
    Status try_step(std::size_t index) { return call(pachisi_game_step_index, index); }
    Status try_step(const Step &s) { return call(pachisi_game_step, &s); }
    Result<std::vector<Step>> try_taken_steps() const {
        if (!handle_) return detail::empty_object<std::vector<Step>>("Game");
        return detail::read_array<Step>([&](Step *b, std::size_t n, std::size_t *w) {
            return pachisi_game_taken_steps(handle_.get(), b, n, w);
        });
    }
    Status try_finish_play() { return call(pachisi_game_finish_play); }
    Status try_undo() { return call(pachisi_game_undo); }
    /// Makes again the last action undo took back.
    Status try_redo() { return call(pachisi_game_redo); }
    /// How many undone actions redo can make again.
    Result<std::size_t> try_redo_len() const { return read<std::size_t>(pachisi_game_redo_len); }

    // Events, history, search
    /// The events of the last action (the action, then what it caused).
    Result<std::vector<Event>> try_events() const {
        if (!handle_) return detail::empty_object<std::vector<Event>>("Game");
        return detail::read_array<Event>([&](Event *b, std::size_t n, std::size_t *w) {
            return pachisi_game_events(handle_.get(), b, n, w);
        });
    }
    /// The events of action number `index` of the history (0 = the first).
    Result<std::vector<Event>> try_history(std::size_t index) const {
        if (!handle_) return detail::empty_object<std::vector<Event>>("Game");
        return detail::read_array<Event>([&](Event *b, std::size_t n, std::size_t *w) {
            return pachisi_game_history(handle_.get(), index, b, n, w);
        });
    }
    /// The board as plain data (pieces in board coordinates, safe places, roll, turn).
    Result<Board> try_board() const { return read<Board>(pachisi_game_board); }
    /// A hash of the position (stable within one library version on one platform).
    Result<std::uint64_t> try_hash() const { return read<std::uint64_t>(pachisi_game_hash); }
    /// Whether both games stand at the same position under the same rules.
    Result<bool> try_same_position(const Game &other) const {
        if (!handle_ || !other.handle_) return detail::empty_object<bool>("Game");
        bool same = false;
        Status s = detail::status(
            pachisi_game_same_position(handle_.get(), other.handle_.get(), &same));
        if (!s) return detail::failed<bool>(s);
        return same;
    }
    /// The legal plays of a hypothetical roll at this chance node (the game is unchanged).
    Result<std::vector<PlaySteps>> try_plays_for_roll(const RollValue &r) const {
        if (!handle_) return detail::empty_object<std::vector<PlaySteps>>("Game");
        return detail::read_array<PlaySteps>([&](PlaySteps *b, std::size_t n, std::size_t *w) {
            return pachisi_game_plays_for_roll(handle_.get(), &r, b, n, w);
        });
    }

#if PACHISI_HPP_EXCEPTIONS
    /// A new game of a preset (optionally with options JSON), seeded. Throws pachisi::Error.
    Game(StringArg preset, std::uint64_t seed, StringArg options_json = {})
        : Game(create(preset, seed, options_json).value()) {}
    /// A new game of `rules`, seeded.
    Game(const Rules &rules, std::uint64_t seed) : Game(create(rules, seed).value()) {}
    static Game from_position(const Rules &rules, StringArg position, std::uint64_t seed = 0) {
        return try_from_position(rules, position, seed).value();
    }
    static Game from_json(StringArg json) { return try_from_json(json).value(); }

    Node node() const { return try_node().value(); }
    bool is_over() const { return try_is_over().value(); }
    std::uint8_t to_move() const { return try_to_move().value(); }
    std::uint8_t seats() const { return try_seats().value(); }
    std::uint8_t winner() const { return try_winner().value(); }
    Outcome outcome() const { return try_outcome().value(); }
    std::size_t history_len() const { return try_history_len().value(); }
    std::vector<double> returns() const { return try_returns().value(); }
    std::string position() const { return try_position().value(); }
    std::string log_text() const { return try_log_text().value(); }
    std::string to_json() const { return try_to_json().value(); }
    std::string rules_json() const { return try_rules_json().value(); }
    std::string variant() const { return try_variant().value(); }
    std::string svg(double size = 560.0) const { return try_svg(size).value(); }
    Rules rules() const { return try_rules().value(); }
    std::vector<ChanceOutcome> chance_outcomes() const { return try_chance_outcomes().value(); }
    RollValue roll() { return try_roll().value(); }
    void set_roll(const RollValue &r) { try_set_roll(r).value(); }
    std::size_t legal_play_count() const { return try_legal_play_count().value(); }
    Play legal_play(std::size_t index) const { return try_legal_play(index).value(); }
    std::vector<Play> legal_plays() const { return try_legal_plays().value(); }
    void play(std::size_t index) { try_play(index).value(); }
    void play(StringArg notation) { try_play(notation).value(); }
    void play(const std::vector<Step> &steps) { try_play(steps).value(); }
    std::vector<Step> legal_steps() const { return try_legal_steps().value(); }
    void step(std::size_t index) { try_step(index).value(); }
    void step(const Step &s) { try_step(s).value(); }
    std::vector<Step> taken_steps() const { return try_taken_steps().value(); }
    void finish_play() { try_finish_play().value(); }
    void undo() { try_undo().value(); }
    void redo() { try_redo().value(); }
    std::size_t redo_len() const { return try_redo_len().value(); }
    std::vector<Event> events() const { return try_events().value(); }
    std::vector<Event> history(std::size_t index) const { return try_history(index).value(); }
    Board board() const { return try_board().value(); }
    std::uint64_t hash() const { return try_hash().value(); }
    bool same_position(const Game &other) const { return try_same_position(other).value(); }
    std::vector<PlaySteps> plays_for_roll(const RollValue &r) const {
        return try_plays_for_roll(r).value();
    }
#endif

    /// Copying clones; an empty object copies as empty. A failed clone throws pachisi::Error
    /// (without exceptions it leaves the copy empty).
    Game(const Game &other) : handle_() {
        if (!other.valid()) return;
        Result<Game> made = other.try_clone();
#if PACHISI_HPP_EXCEPTIONS
        made.value();
#endif
        if (made) handle_ = std::move(std::move(made).value().handle_);
    }
    Game &operator=(const Game &other) {
        if (this != &other) *this = Game(other);
        return *this;
    }
    Game(Game &&) noexcept = default;
    Game &operator=(Game &&) noexcept = default;

    /// Whether this object holds a handle (false once moved from).
    bool valid() const noexcept { return handle_ != nullptr; }
    /// The C handle, for reading (still owned by this object).
    const pachisi_game *get() const noexcept { return handle_.get(); }
    /// The C handle (still owned by this object).
    pachisi_game *get() noexcept { return handle_.get(); }

private:
    // Takes the status and the handle as two arguments, so the call that writes `g` must be
    // made before (argument evaluation order is unspecified).
    static Result<Game> wrap(pachisi_result r, pachisi_game *g) {
        Status s = detail::status(r);
        if (!s) return detail::failed<Game>(s);
        return Game(g);
    }
    template <typename T, typename Fn> Result<T> read(Fn fn) const {
        if (!handle_) return detail::empty_object<T>("Game");
        T value{};
        Status s = detail::status(fn(handle_.get(), &value));
        if (!s) return detail::failed<T>(s);
        return value;
    }
    template <typename Fn> Result<std::string> text(Fn fn) const {
        if (!handle_) return detail::empty_object<std::string>("Game");
        return detail::read_string(
            [&](char *b, std::size_t n, std::size_t *w) { return fn(handle_.get(), b, n, w); });
    }
    template <typename Fn, typename... Args> Status call(Fn fn, Args... args) {
        if (!handle_) return detail::empty_object<void>("Game");
        return detail::status(fn(handle_.get(), args...));
    }

    std::unique_ptr<pachisi_game, detail::GameDeleter> handle_;
};

/// A player: a built-in policy ("random", "greedy", "expectimax:depth=2", "mcts:iterations=2000",
/// or a JSON spec) with its own seeded generator. Movable, not copyable (its generator is its
/// own). choose() is non-const: one Policy per thread.
class Policy {
public:
    /// An empty object (valid() is false).
    Policy() = default;
    /// Takes ownership of a handle from the C API.
    explicit Policy(pachisi_policy *owned) noexcept : handle_(owned) {}

    static Result<Policy> create(StringArg spec, std::uint64_t seed = 0) {
        pachisi_policy *p = nullptr;
        Status s = detail::status(
            pachisi_policy_new_n(detail::data(spec), detail::size(spec), seed, &p));
        if (!s) return detail::failed<Policy>(s);
        return Policy(p);
    }
    /// The index of the play it chooses in `game` (an index for Game::legal_play / Game::play).
    Result<std::size_t> try_choose(const Game &game) {
        if (!handle_) return detail::empty_object<std::size_t>("Policy");
        if (!game.valid()) return detail::empty_object<std::size_t>("Game");
        std::size_t index = 0;
        Status s = detail::status(pachisi_policy_choose(handle_.get(), game.get(), &index));
        if (!s) return detail::failed<std::size_t>(s);
        return index;
    }
    /// Chooses a play of `game` and makes it.
    Status try_play(Game &game) {
        Result<std::size_t> index = try_choose(game);
        if (!index) return Status(index.code(), index.message());
        return game.try_play(index.value());
    }
    /// The canonical spec.
    Result<std::string> try_name() const {
        if (!handle_) return detail::empty_object<std::string>("Policy");
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_policy_name(handle_.get(), b, n, w);
        });
    }

#if PACHISI_HPP_EXCEPTIONS
    /// A player from a spec, seeded. Throws pachisi::Error.
    explicit Policy(StringArg spec, std::uint64_t seed = 0) : Policy(create(spec, seed).value()) {}
    std::size_t choose(const Game &game) { return try_choose(game).value(); }
    void play(Game &game) { try_play(game).value(); }
    std::string name() const { return try_name().value(); }
#endif

    Policy(Policy &&) noexcept = default;
    Policy &operator=(Policy &&) noexcept = default;

    /// Whether this object holds a handle (false once moved from).
    bool valid() const noexcept { return handle_ != nullptr; }
    /// The C handle, for reading (still owned by this object).
    const pachisi_policy *get() const noexcept { return handle_.get(); }
    /// The C handle (still owned by this object).
    pachisi_policy *get() noexcept { return handle_.get(); }

private:
    std::unique_ptr<pachisi_policy, detail::PolicyDeleter> handle_;
};

/// The action encodings of Env (docs/RL.md).
enum class Encoding : std::uint32_t {
    Step = PACHISI_ENCODING_STEP,
    Play = PACHISI_ENCODING_PLAY,
    OpenSpiel = PACHISI_ENCODING_OPENSPIEL,
};

/// The observations of Env (docs/RL.md).
enum class Observation : std::uint32_t {
    Plain = PACHISI_OBSERVATION_PLAIN,
    Features = PACHISI_OBSERVATION_FEATURES,
};

/// A named part of an Env observation: floats offset .. offset + size.
struct View {
    std::string name;
    std::size_t offset;
    std::size_t size;
};

/// A game driven through action ids, for reinforcement learning (pachisi_env). Copying
/// clones. Const methods may run on several threads at once; the others need the object alone.
class Env {
public:
    /// An empty object (valid() is false).
    Env() = default;
    /// Takes ownership of a handle from the C API.
    explicit Env(pachisi_env *owned) noexcept : handle_(owned) {}

    /// A new environment of `rules`; with `auto_chance` the rolls are made for it.
    static Result<Env> create(const Rules &rules, Encoding encoding = Encoding::Step,
                              Observation observation = Observation::Plain,
                              std::uint64_t seed = 0, bool auto_chance = true) {
        if (!rules.valid()) return detail::empty_object<Env>("Rules");
        pachisi_env *e = nullptr;
        const pachisi_result r =
            pachisi_env_new(rules.get(), static_cast<std::uint32_t>(encoding),
                            static_cast<std::uint32_t>(observation), seed, auto_chance, &e);
        return wrap(r, e); // e is read after the call wrote it
    }
    /// An independent copy.
    Result<Env> try_clone() const {
        if (!handle_) return detail::empty_object<Env>("Env");
        pachisi_env *e = nullptr;
        const pachisi_result r = pachisi_env_clone(handle_.get(), &e);
        return wrap(r, e); // e is read after the call wrote it
    }

    Result<std::size_t> try_num_actions() const {
        return read<std::size_t>(pachisi_env_num_actions);
    }
    Result<std::size_t> try_observation_size() const {
        return read<std::size_t>(pachisi_env_observation_size);
    }
    Result<std::uint8_t> try_seats() const { return read<std::uint8_t>(pachisi_env_seats); }
    Result<std::vector<View>> try_views() const {
        Result<std::size_t> count = read<std::size_t>(pachisi_env_view_count);
        if (!count) return detail::failed<std::vector<View>>(Status(count.code(), count.message()));
        std::vector<View> views(count.value());
        for (std::size_t i = 0; i < views.size(); i++) {
            std::size_t offset = 0, size = 0;
            Result<std::string> name =
                detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
                    return pachisi_env_view(handle_.get(), i, &offset, &size, b, n, w);
                });
            if (!name) return detail::failed<std::vector<View>>(Status(name.code(), name.message()));
            views[i] = View{std::move(name).value(), offset, size};
        }
        return views;
    }
    Result<Node> try_node() const {
        Result<pachisi_node> n = read<pachisi_node>(pachisi_env_node);
        if (!n) return detail::failed<Node>(Status(n.code(), n.message()));
        return static_cast<Node>(n.value());
    }
    Result<std::uint8_t> try_current_player() const {
        return read<std::uint8_t>(pachisi_env_current_player);
    }
    Result<bool> try_is_truncated() const { return read<bool>(pachisi_env_is_truncated); }
    Result<std::vector<ChanceOutcome>> try_chance_outcomes() const {
        Result<std::size_t> count = read<std::size_t>(pachisi_env_chance_outcome_count);
        if (!count) return detail::failed<std::vector<ChanceOutcome>>(Status(count.code(), count.message()));
        std::vector<ChanceOutcome> out(count.value());
        for (std::size_t i = 0; i < out.size(); i++) {
            Status s = detail::status(
                pachisi_env_chance_outcome(handle_.get(), i, &out[i].roll, &out[i].probability));
            if (!s) return detail::failed<std::vector<ChanceOutcome>>(s);
        }
        return out;
    }
    Status try_apply_chance_outcome(std::size_t index) {
        return call(pachisi_env_apply_chance_outcome, index);
    }
    /// Rolls with the environment's seeded generator and returns the roll.
    Result<RollValue> try_roll() {
        if (!handle_) return detail::empty_object<RollValue>("Env");
        RollValue r{};
        Status s = detail::status(pachisi_env_roll(handle_.get(), &r));
        if (!s) return detail::failed<RollValue>(s);
        return r;
    }
    /// The legal action ids, ascending.
    Result<std::vector<std::uint32_t>> try_legal_actions() const {
        if (!handle_) return detail::empty_object<std::vector<std::uint32_t>>("Env");
        return detail::read_array<std::uint32_t>(
            [&](std::uint32_t *b, std::size_t n, std::size_t *w) {
                return pachisi_env_legal_actions(handle_.get(), b, n, w);
            });
    }
    /// One byte per action id: 1 where legal.
    Result<std::vector<std::uint8_t>> try_action_mask() const {
        if (!handle_) return detail::empty_object<std::vector<std::uint8_t>>("Env");
        return detail::read_array<std::uint8_t>(
            [&](std::uint8_t *b, std::size_t n, std::size_t *w) {
                return pachisi_env_action_mask(handle_.get(), b, n, w);
            });
    }
    Result<bool> try_is_legal(std::uint32_t action) const {
        if (!handle_) return detail::empty_object<bool>("Env");
        bool legal = false;
        Status s = detail::status(pachisi_env_is_legal(handle_.get(), action, &legal));
        if (!s) return detail::failed<bool>(s);
        return legal;
    }
    Status try_apply_action(std::uint32_t action) { return call(pachisi_env_apply_action, action); }
    /// The observation from `observer`'s point of view.
    Result<std::vector<float>> try_observe(std::uint8_t observer) const {
        if (!handle_) return detail::empty_object<std::vector<float>>("Env");
        return detail::read_array<float>([&](float *b, std::size_t n, std::size_t *w) {
            return pachisi_env_observe(handle_.get(), observer, b, n, w);
        });
    }
    Result<std::vector<double>> try_returns() const {
        if (!handle_) return detail::empty_object<std::vector<double>>("Env");
        return detail::read_array<double>([&](double *b, std::size_t n, std::size_t *w) {
            return pachisi_env_returns(handle_.get(), b, n, w);
        });
    }
    Result<std::string> try_action_to_string(std::uint32_t action) const {
        if (!handle_) return detail::empty_object<std::string>("Env");
        return detail::read_string([&](char *b, std::size_t n, std::size_t *w) {
            return pachisi_env_action_to_string(handle_.get(), action, b, n, w);
        });
    }
    Result<std::string> try_position() const { return text(pachisi_env_position); }
    Result<std::string> try_to_json() const { return text(pachisi_env_to_json); }
    Status try_load_json(StringArg json) {
        return call(pachisi_env_load_json_n, detail::data(json), detail::size(json));
    }
    Status try_reset(std::uint64_t seed) { return call(pachisi_env_reset, seed); }

#if PACHISI_HPP_EXCEPTIONS
    /// A new environment. Throws pachisi::Error.
    explicit Env(const Rules &rules, Encoding encoding = Encoding::Step,
                 Observation observation = Observation::Plain, std::uint64_t seed = 0,
                 bool auto_chance = true)
        : Env(create(rules, encoding, observation, seed, auto_chance).value()) {}
    std::size_t num_actions() const { return try_num_actions().value(); }
    std::size_t observation_size() const { return try_observation_size().value(); }
    std::uint8_t seats() const { return try_seats().value(); }
    std::vector<View> views() const { return try_views().value(); }
    Node node() const { return try_node().value(); }
    std::uint8_t current_player() const { return try_current_player().value(); }
    bool is_truncated() const { return try_is_truncated().value(); }
    std::vector<ChanceOutcome> chance_outcomes() const { return try_chance_outcomes().value(); }
    void apply_chance_outcome(std::size_t index) { try_apply_chance_outcome(index).value(); }
    RollValue roll() { return try_roll().value(); }
    std::vector<std::uint32_t> legal_actions() const { return try_legal_actions().value(); }
    std::vector<std::uint8_t> action_mask() const { return try_action_mask().value(); }
    bool is_legal(std::uint32_t action) const { return try_is_legal(action).value(); }
    void apply_action(std::uint32_t action) { try_apply_action(action).value(); }
    std::vector<float> observe(std::uint8_t observer) const {
        return try_observe(observer).value();
    }
    std::vector<double> returns() const { return try_returns().value(); }
    std::string action_to_string(std::uint32_t action) const {
        return try_action_to_string(action).value();
    }
    std::string position() const { return try_position().value(); }
    std::string to_json() const { return try_to_json().value(); }
    void load_json(StringArg json) { try_load_json(json).value(); }
    void reset(std::uint64_t seed) { try_reset(seed).value(); }
#endif

    /// Copying clones; an empty object copies as empty. A failed clone throws pachisi::Error
    /// (without exceptions it leaves the copy empty).
    Env(const Env &other) : handle_() {
        if (!other.valid()) return;
        Result<Env> made = other.try_clone();
#if PACHISI_HPP_EXCEPTIONS
        made.value();
#endif
        if (made) handle_ = std::move(std::move(made).value().handle_);
    }
    Env &operator=(const Env &other) {
        if (this != &other) *this = Env(other);
        return *this;
    }
    Env(Env &&) noexcept = default;
    Env &operator=(Env &&) noexcept = default;

    /// Whether this object holds a handle (false once moved from).
    bool valid() const noexcept { return handle_ != nullptr; }
    /// The C handle, for reading (still owned by this object).
    const pachisi_env *get() const noexcept { return handle_.get(); }
    /// The C handle (still owned by this object).
    pachisi_env *get() noexcept { return handle_.get(); }

private:
    static Result<Env> wrap(pachisi_result r, pachisi_env *e) {
        Status s = detail::status(r);
        if (!s) return detail::failed<Env>(s);
        return Env(e);
    }
    template <typename T, typename Fn> Result<T> read(Fn fn) const {
        if (!handle_) return detail::empty_object<T>("Env");
        T value{};
        Status s = detail::status(fn(handle_.get(), &value));
        if (!s) return detail::failed<T>(s);
        return value;
    }
    template <typename Fn> Result<std::string> text(Fn fn) const {
        if (!handle_) return detail::empty_object<std::string>("Env");
        return detail::read_string(
            [&](char *b, std::size_t n, std::size_t *w) { return fn(handle_.get(), b, n, w); });
    }
    template <typename Fn, typename... Args> Status call(Fn fn, Args... args) {
        if (!handle_) return detail::empty_object<void>("Env");
        return detail::status(fn(handle_.get(), args...));
    }

    std::unique_ptr<pachisi_env, detail::EnvDeleter> handle_;
};

/// Simulates `games` random-policy games of `rules` (threads 0 = every core); the arguments
/// in the order of pachisi_simulate.
inline Result<std::vector<GameRecord>> try_simulate(const Rules &rules, std::uint64_t seed,
                                                    std::uint32_t threads, std::size_t games) {
    if (!rules.valid()) return detail::empty_object<std::vector<GameRecord>>("Rules");
    std::vector<GameRecord> records(games);
    Status s = detail::status(pachisi_simulate(rules.get(), seed, threads, records.data(), games));
    if (!s) return detail::failed<std::vector<GameRecord>>(s);
    return records;
}

/// Games `first_game .. first_game + games` of the run `simulate` makes from `seed`; the
/// arguments in the order of pachisi_simulate_range.
inline Result<std::vector<GameRecord>> try_simulate_range(const Rules &rules, std::uint64_t seed,
                                                          std::uint64_t first_game,
                                                          std::uint32_t threads,
                                                          std::size_t games) {
    if (!rules.valid()) return detail::empty_object<std::vector<GameRecord>>("Rules");
    std::vector<GameRecord> records(games);
    Status s = detail::status(
        pachisi_simulate_range(rules.get(), seed, first_game, threads, records.data(), games));
    if (!s) return detail::failed<std::vector<GameRecord>>(s);
    return records;
}

#if PACHISI_HPP_EXCEPTIONS
/// The names of every preset. Throws pachisi::Error.
inline std::vector<std::string> variants() { return try_variants().value(); }
/// try_simulate, throwing pachisi::Error.
inline std::vector<GameRecord> simulate(const Rules &rules, std::uint64_t seed,
                                        std::uint32_t threads, std::size_t games) {
    return try_simulate(rules, seed, threads, games).value();
}
/// try_simulate_range, throwing pachisi::Error.
inline std::vector<GameRecord> simulate_range(const Rules &rules, std::uint64_t seed,
                                              std::uint64_t first_game, std::uint32_t threads,
                                              std::size_t games) {
    return try_simulate_range(rules, seed, first_game, threads, games).value();
}
#endif

} // namespace pachisi

#endif // PACHISI_HPP
