// The C++ wrapper (pachisi.hpp): RAII handles, copies that clone, errors as exceptions with
// the status code and message, string and vector conveniences; over every preset. Compiled as
// C++11, 14, 17 and 20 by `make test-c`.
#include "pachisi.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

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

// Runs `body`, which must throw pachisi::Error with `code`.
template <typename Body> static void expect_error(pachisi::Code code, Body body) {
    try {
        body();
        CHECK(!"no exception");
    } catch (const pachisi::Error &e) {
        CHECK(e.code() == code);
        CHECK(std::string(e.what()).find(e.name()) == 0);
        if (e.code() != code) std::fprintf(stderr, "  got %s\n", e.what());
    }
}

static void test_errors() {
    expect_error(pachisi::Code::UnknownVariant, [] { pachisi::Game g("ludo", 1); });
    expect_error(pachisi::Code::InvalidRules, [] { pachisi::Rules r("parcheesi", "{\"x\": 1}"); });
    expect_error(pachisi::Code::InvalidJson, [] { pachisi::Rules::from_json("{"); });
    expect_error(pachisi::Code::InvalidJson, [] { pachisi::Game::from_json("[]"); });
    try {
        pachisi::Game g("snakes", 1);
    } catch (const pachisi::Error &e) {
        CHECK(std::string(e.what()).find("snakes") != std::string::npos);
    }
    pachisi::Game g("backgammon", 3);
    expect_error(pachisi::Code::IndexOutOfRange, [&] { g.play(g.legal_play_count()); });
    expect_error(pachisi::Code::WrongPhase, [&] { g.undo(); });
    pachisi::Game moved(std::move(g));
    CHECK(!g.valid() && moved.valid()); // NOLINT: moved-from on purpose
    expect_error(pachisi::Code::NullPointer, [&] { (void)g.position(); }); // NOLINT
    try {
        (void)g.node(); // NOLINT
    } catch (const pachisi::Error &e) {
        CHECK(std::string(e.what()).find("moved from") != std::string::npos);
    }
    pachisi::Game copy_of_empty = g; // NOLINT: an empty object copies as empty
    CHECK(!copy_of_empty.valid());
    CHECK(moved.seats() == 2);
}

static void test_preset(const std::string &preset) {
    pachisi::Rules rules(preset);
    CHECK(rules.variant() == preset);
    CHECK(pachisi::Rules::from_json(rules.to_json()).to_json() == rules.to_json());
    pachisi::Rules copy_of_rules = rules;
    CHECK(copy_of_rules.to_json() == rules.to_json());

    pachisi::Game game(rules, 77);
    std::mt19937_64 choose(77);
    CHECK(game.variant() == preset);
    CHECK(game.rules().to_json() == rules.to_json());
    CHECK(game.returns().size() == game.seats());
    std::size_t actions = 0;
    while (!game.is_over() && actions++ < 100000) {
        if (game.node() == pachisi::Node::Chance) {
            double total = 0;
            for (const pachisi::ChanceOutcome &o : game.chance_outcomes()) total += o.probability;
            CHECK(std::fabs(total - 1.0) < 1e-9);
            if (actions < 60) { // the game JSON holds the whole history: check early on only
                pachisi::Game copy = game; // clones
                pachisi::RollValue r = game.roll();
                copy.set_roll(r);
                CHECK(copy.position() == game.position()); // same roll, same position
            } else {
                game.roll();
            }
            continue;
        }
        std::vector<pachisi::Play> plays = game.legal_plays();
        CHECK(!plays.empty());
        if (actions < 60) {
            pachisi::Game by_text = game;
            pachisi::Game by_steps = game;
            by_text.play(plays.back().notation);
            by_steps.play(plays.back().steps);
            game.play(plays.size() - 1);
            CHECK(by_text.position() == game.position());
            CHECK(by_steps.position() == game.position());
            game.undo();
            CHECK(game.legal_play_count() == plays.size());
            CHECK(game.taken_steps().empty());
            CHECK(!game.legal_steps().empty() || plays.back().steps.empty());
        }
        game.play(std::uniform_int_distribution<std::size_t>(0, plays.size() - 1)(choose));
    }
    CHECK(pachisi::Game::from_json(game.to_json()).to_json() == game.to_json());
    const std::string svg = game.svg(300);
    CHECK(svg.rfind("<svg", 0) == 0 && svg.size() > 1000);
    CHECK(svg.find("width=\"300\"") != std::string::npos);
    CHECK(svg.compare(svg.size() - 6, 6, "</svg>") == 0);
    if (actions > 0) {
        pachisi::Outcome o = game.outcome();
        CHECK(o.over && game.winner() == o.winner);
    }
    // Arguments in the order of pachisi_simulate: seed, threads, games.
    std::vector<pachisi::GameRecord> a = pachisi::simulate(rules, 3, 1, 8);
    std::vector<pachisi::GameRecord> b = pachisi::simulate(rules, 3, 2, 8);
    CHECK(a.size() == 8 && b.size() == 8);
    for (std::size_t i = 0; i < a.size() && i < b.size(); i++)
        CHECK(a[i].winners == b[i].winners && a[i].rolls == b[i].rolls);
    std::vector<pachisi::GameRecord> tail = pachisi::simulate_range(rules, 3, 5, 1, 3);
    CHECK(tail.size() == 3);
    for (std::size_t i = 0; i < tail.size(); i++)
        CHECK(tail[i].winners == a[5 + i].winners && tail[i].rolls == a[5 + i].rolls);
    if (actions > 0) CHECK(game.log_text().rfind("roll ", 0) == 0);
    std::printf("%s: %zu actions\n", preset.c_str(), actions);
}

// A greedy player against a random one, through the RAII wrapper: legal indices, a finished game.
static void test_policies() {
    expect_error(pachisi::Code::InvalidPlayer, [] { pachisi::Policy p("oracle"); });
    pachisi::Policy greedy("greedy", 1), random("random", 2);
    CHECK(greedy.name() == "greedy");
    pachisi::Game game("backgammon", 5);
    expect_error(pachisi::Code::WrongPhase, [&] { (void)greedy.choose(game); });
    for (int i = 0; i < 20000 && !game.is_over(); i++) {
        if (game.node() == pachisi::Node::Chance) {
            game.roll();
            continue;
        }
        pachisi::Policy &p = game.to_move() == 0 ? greedy : random;
        std::size_t index = p.choose(game);
        CHECK(index < game.legal_play_count());
        game.play(index);
    }
    CHECK(game.is_over());
    pachisi::Policy moved(std::move(greedy));
    CHECK(moved.name() == "greedy");
}

// Events, history, redo, board data, hash, hypothetical rolls and options through the wrapper.
static void test_game_features(const std::string &preset) {
    pachisi::Game g(preset, 17);
    CHECK(g.events().empty());
    CHECK(!g.rules().options().empty());
    for (const auto &o : g.rules().options()) CHECK(o.name && o.default_json);
    for (int i = 0; i < 60 && !g.is_over(); i++) {
        std::uint64_t h = g.hash();
        if (g.node() == pachisi::Node::Chance) {
            auto outcomes = g.chance_outcomes();
            auto plays = g.plays_for_roll(outcomes[0].roll);
            CHECK(g.hash() == h && g.node() == pachisi::Node::Chance);
            pachisi::Game copy = g;
            copy.set_roll(outcomes[0].roll);
            if (copy.node() == pachisi::Node::Decision) CHECK(plays.size() == copy.legal_play_count());
            g.roll();
            CHECK(g.events().at(0).kind == PACHISI_EVENT_KIND_ROLL);
        } else {
            g.play(g.legal_play_count() - 1);
            CHECK(g.events().at(0).kind == PACHISI_EVENT_KIND_PLAY);
        }
        pachisi::Game before = g;
        g.undo();
        CHECK(g.redo_len() == 1 && g.hash() == h);
        g.redo();
        CHECK(g.same_position(before) && g.redo_len() == 0);
        pachisi::Board b = g.board();
        CHECK(b.piece_count > 0 && b.to_move == g.to_move());
    }
    CHECK(g.history(0).at(0).kind == PACHISI_EVENT_KIND_ROLL);
    expect_error(pachisi::Code::IndexOutOfRange, [&] { g.history(g.history_len()); });
    expect_error(pachisi::Code::WrongPhase, [&] { g.redo(); });
}

static void test_env(const std::string &preset) {
    // A game to its end through legal action ids, in each encoding the preset has.
    pachisi::Rules rules(preset);
    for (pachisi::Encoding encoding : {pachisi::Encoding::Step, pachisi::Encoding::Play}) {
        pachisi::Env env(rules, encoding, pachisi::Observation::Plain, 3, true);
        const std::size_t n = env.num_actions();
        const std::size_t size = env.observation_size();
        std::size_t tiled = 0;
        for (const pachisi::View &v : env.views()) {
            CHECK(v.offset == tiled && !v.name.empty());
            tiled += v.size;
        }
        CHECK(tiled == size);
        pachisi::Env copy;
        std::size_t actions = 0;
        while (env.node() != pachisi::Node::Over) {
            std::vector<std::uint32_t> ids = env.legal_actions();
            std::vector<std::uint8_t> mask = env.action_mask();
            CHECK(!ids.empty() && mask.size() == n && mask[ids.back()] == 1);
            CHECK(env.observe(env.current_player()).size() == size);
            if (actions == 10) copy = env; // a clone, going on alone
            env.apply_action(ids[actions % ids.size()]);
            actions++;
        }
        double sum = 0;
        for (double r : env.returns()) sum += r;
        CHECK(std::fabs(sum) < 1e-9);
        CHECK(copy.valid() && copy.node() == pachisi::Node::Decision);
        const std::string json = copy.to_json();
        copy.apply_action(copy.legal_actions().front());
        copy.load_json(json);
        CHECK(copy.to_json() == json);
        expect_error(pachisi::Code::IndexOutOfRange,
                     [&] { copy.apply_action(static_cast<std::uint32_t>(n)); });
        CHECK(copy.to_json() == json);
        expect_error(pachisi::Code::WrongPhase, [&] { env.apply_action(0); });
    }
    // Explicit chance: a roll is due first.
    pachisi::Env env(rules, pachisi::Encoding::Play, pachisi::Observation::Features, 5, false);
    CHECK(env.node() == pachisi::Node::Chance);
    double total = 0;
    for (const pachisi::ChanceOutcome &o : env.chance_outcomes()) total += o.probability;
    CHECK(std::fabs(total - 1.0) < 1e-9);
    env.apply_chance_outcome(0);
    const pachisi::Node node = env.node();
    CHECK(node != pachisi::Node::Over);
    CHECK(env.legal_actions().empty() == (node != pachisi::Node::Decision));
    CHECK(!env.is_truncated());
}

int main() {
    CHECK(!pachisi::version().empty());
    CHECK(pachisi::variants().size() == 5);
    CHECK(pachisi::to_string(pachisi::dice(5, 3)) == "5-3");
    CHECK(pachisi::to_string(pachisi::cowries(2)) == "2 up");
    test_errors();
    test_policies();
    for (const std::string &preset : pachisi::variants()) {
        try {
            test_preset(preset);
            test_game_features(preset);
            test_env(preset);
        } catch (const pachisi::Error &e) {
            failed++;
            std::fprintf(stderr, "%s: unexpected error: %s\n", preset.c_str(), e.what());
        }
    }
    std::printf("cpp: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
