// The error-code API of pachisi.hpp (the `try_` methods, `create`, pachisi::Result and
// pachisi::Status), scoped enums, empty and moved-from objects, const handles, string_view
// overloads (C++17) and reads from several threads. `make test-c` compiles it as C++11, 14, 17
// and 20, and as C++11 and C++17 with -fno-exceptions: nothing here needs exceptions.
#include "pachisi.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

static int passed = 0, failed = 0;
#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (cond) {                                                                            \
            passed++;                                                                          \
        } else {                                                                               \
            failed++;                                                                          \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
        }                                                                                      \
    } while (0)

// The types an engine relies on.
static_assert(std::is_same<std::underlying_type<pachisi::Code>::type, std::uint32_t>::value,
              "Code is a uint32_t");
static_assert(std::is_same<std::underlying_type<pachisi::Node>::type, std::uint32_t>::value,
              "Node is a uint32_t");
static_assert(std::is_same<std::underlying_type<pachisi::StepKind>::type, std::uint8_t>::value,
              "StepKind is a uint8_t");
static_assert(std::is_same<decltype(std::declval<const pachisi::Game &>().get()),
                           const pachisi_game *>::value,
              "get() const gives a const handle");
static_assert(std::is_same<decltype(std::declval<pachisi::Game &>().get()), pachisi_game *>::value,
              "get() gives the handle");
static_assert(!std::is_copy_constructible<pachisi::Policy>::value, "a Policy is not copied");
static_assert(std::is_nothrow_move_constructible<pachisi::Game>::value, "a Game moves");

static void test_results() {
    pachisi::Result<pachisi::Game> bad = pachisi::Game::create("ludo", 1);
    CHECK(!bad && !bad.ok());
    CHECK(bad.code() == pachisi::Code::UnknownVariant);
    CHECK(bad.message().find("ludo") != std::string::npos);
    CHECK(std::strcmp(pachisi::name(bad.code()), "UnknownVariant") == 0);
    CHECK(std::strcmp(pachisi::description(pachisi::Code::NullPointer),
                      "a required pointer was NULL") == 0);

    pachisi::Result<pachisi::Rules> opts = pachisi::Rules::create("parcheesi", "{\"variant\": 1}");
    CHECK(opts.code() == pachisi::Code::InvalidRules);

    pachisi::Result<pachisi::Game> made = pachisi::Game::create("backgammon", 3);
    CHECK(made.ok());
    pachisi::Game game = std::move(made).value();
    CHECK(game.valid());
    CHECK(game.try_node().value_or(pachisi::Node::Over) == pachisi::Node::Chance);
    pachisi::Status s = game.try_undo();
    CHECK(!s && s.code() == pachisi::Code::WrongPhase && !s.message().empty());
    s = game.try_play(std::size_t(0));
    CHECK(s.code() == pachisi::Code::IndexOutOfRange);
    CHECK(game.try_set_roll(pachisi::dice(3, 1)).ok());
    pachisi::Result<std::vector<pachisi::Play>> plays = game.try_legal_plays();
    CHECK(plays.ok() && !plays.value().empty());
    CHECK(game.try_play("8/5 6/5").ok());
    CHECK(game.try_play("8/5 6/5").code() == pachisi::Code::WrongPhase);
    pachisi::Result<pachisi::RollValue> roll = game.try_roll();
    CHECK(roll.ok() && pachisi::kind(roll.value()) == pachisi::RollKind::Dice);
    pachisi::Result<std::vector<pachisi::Step>> steps = game.try_legal_steps();
    CHECK(steps.ok());
    for (const pachisi::Step &st : steps.value()) {
        pachisi::StepKind k = pachisi::kind(st);
        CHECK(k == pachisi::StepKind::Move || k == pachisi::StepKind::Enter);
        CHECK(st.seat == st.colour); // backgammon: the colour is the seat
    }
    pachisi::Result<std::string> json = game.try_to_json();
    CHECK(json.ok() && pachisi::Game::try_from_json(json.value()).ok());
    CHECK(pachisi::Game::try_from_json("{").code() == pachisi::Code::InvalidJson);
    CHECK(game.try_svg(200).value().compare(0, 4, "<svg") == 0);

    // Classic Pachisi for two: the seat of a step is a seat, its colour one of four.
    pachisi::Game classic = pachisi::Game::create("pachisi", 5, "{\"seats\": 2}").value();
    for (int i = 0; i < 200 && !classic.try_is_over().value(); i++) {
        if (classic.try_node().value() == pachisi::Node::Chance) {
            CHECK(classic.try_roll().ok());
            continue;
        }
        std::uint8_t mover = classic.try_to_move().value();
        for (const pachisi::Step &st : classic.try_legal_steps().value())
            if (st.piece != PACHISI_NO_PIECE) CHECK(st.seat == mover && st.colour % 2 == mover);
        CHECK(classic.try_play(std::size_t(0)).ok());
    }
}

static void test_empty_objects() {
    pachisi::Game game = pachisi::Game::create("parcheesi", 1).value();
    pachisi::Game other(std::move(game));
    CHECK(!game.valid() && other.valid()); // NOLINT: moved-from on purpose
    pachisi::Result<pachisi::Node> n = game.try_node(); // NOLINT
    CHECK(n.code() == pachisi::Code::NullPointer);
    CHECK(n.message().find("moved from") != std::string::npos);
    CHECK(game.try_roll().code() == pachisi::Code::NullPointer); // NOLINT
    CHECK(game.try_play("x").code() == pachisi::Code::NullPointer); // NOLINT
    pachisi::Game copy = game; // NOLINT: an empty object copies as empty
    CHECK(!copy.valid());
    pachisi::Game none;
    CHECK(!none.valid() && none.try_to_json().code() == pachisi::Code::NullPointer);
    pachisi::Rules rules;
    CHECK(pachisi::Game::create(rules, 1).code() == pachisi::Code::NullPointer);
    CHECK(pachisi::try_simulate(rules, 1, 1, 2).code() == pachisi::Code::NullPointer);
    pachisi::Policy p = pachisi::Policy::create("greedy", 1).value();
    pachisi::Policy q(std::move(p));
    CHECK(!p.valid() && q.valid()); // NOLINT
    CHECK(p.try_choose(other).code() == pachisi::Code::NullPointer); // NOLINT
    CHECK(q.try_choose(none).code() == pachisi::Code::NullPointer);
    CHECK(q.try_name().value() == "greedy");
    CHECK(pachisi::Policy::create("oracle").code() == pachisi::Code::InvalidPlayer);
}

static void test_string_views() {
#if PACHISI_HPP_CPLUSPLUS >= 201703L
    // Views into a larger buffer: the wrapper passes pointer + length, nothing past the view.
    const char buffer[] = "pachisi-familyXXXX{\"seats\": 2}YY";
    std::string_view preset(buffer, 14), options(buffer + 18, 12);
    pachisi::Result<pachisi::Game> g = pachisi::Game::create(preset, 4, options);
    CHECK(g.ok() && g.value().try_seats().value() == 2);
    std::string_view rules_json = "{\"variant\": \"backgammon\"}trailing";
    CHECK(pachisi::Rules::try_from_json(rules_json.substr(0, 25)).ok());
    std::string spec = "random";
    CHECK(pachisi::Policy::create(spec).ok()); // a std::string converts to the view
#else
    CHECK(pachisi::Game::create(std::string("pachisi-family"), 4, "{\"seats\": 2}").ok());
#endif
}

static void test_simulate_order() {
    pachisi::Rules rules = pachisi::Rules::create("pachisi-online").value();
    // (rules, seed, threads, games), as pachisi_simulate.
    pachisi::Result<std::vector<pachisi::GameRecord>> a = pachisi::try_simulate(rules, 9, 1, 6);
    pachisi::Result<std::vector<pachisi::GameRecord>> b = pachisi::try_simulate(rules, 9, 2, 6);
    CHECK(a.ok() && b.ok() && a.value().size() == 6 && b.value().size() == 6);
    for (std::size_t i = 0; i < 6 && a.ok() && b.ok(); i++)
        CHECK(a.value()[i].rolls == b.value()[i].rolls);
    pachisi::Result<std::vector<pachisi::GameRecord>> tail =
        pachisi::try_simulate_range(rules, 9, 4, 1, 2);
    CHECK(tail.ok() && tail.value().size() == 2 && tail.value()[1].rolls == a.value()[5].rolls);
}

// Const methods of one Game from several threads at once.
static void test_threads() {
    const pachisi::Game game = [] {
        pachisi::Game g = pachisi::Game::create("parcheesi", 8).value();
        while (g.try_node().value() == pachisi::Node::Chance) g.try_roll().value();
        return g;
    }();
    pachisi::Game alone = game;
    const std::string expected = alone.try_to_json().value() + alone.try_position().value();
    const std::size_t expected_plays = alone.try_legal_plays().value().size();
    std::vector<int> ok(4, 0);
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; t++)
        readers.emplace_back([&game, &ok, &expected, expected_plays, t] {
            int good = 1;
            for (int i = 0; i < 3; i++) {
                pachisi::Result<std::vector<pachisi::Play>> plays = game.try_legal_plays();
                pachisi::Result<std::string> json = game.try_to_json();
                pachisi::Result<std::string> position = game.try_position();
                good &= plays.ok() && plays.value().size() == expected_plays && json.ok() &&
                        position.ok() && json.value() + position.value() == expected;
            }
            ok[static_cast<std::size_t>(t)] = good;
        });
    for (std::thread &r : readers) r.join();
    for (int v : ok) CHECK(v == 1);
}

int main() {
    CHECK(pachisi::try_variants().value().size() == 5);
    test_results();
    test_empty_objects();
    test_string_views();
    test_simulate_order();
    test_threads();
    std::printf("cpp errors (C++%ld, exceptions %s): %d passed, %d failed\n",
                static_cast<long>(PACHISI_HPP_CPLUSPLUS / 100 % 100),
                PACHISI_HPP_EXCEPTIONS ? "on" : "off", passed, failed);
    return failed == 0 ? 0 : 1;
}
