//! `RuleSystem::has_play` (the forfeit check without generation) against the generator: on the
//! chance nodes of random games of every preset, under every roll, the cheap answer (where a
//! system gives one) is exactly whether `generate` lists a play; and a game that skipped the
//! generation at a roll lists the same plays as a fresh generation.

use pachisi::{Game, GameOf, Node, Orders, RuleSystem, Rules, variants};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64 as StdRng;

#[derive(Default, Debug)]
struct Seen {
    /// Position-rolls compared (the system answered).
    compared: usize,
    /// Of those, rolls with no legal play.
    unplayable: usize,
    /// Decision nodes where the system left the answer to the generator.
    generated: usize,
}

/// Every roll of the chance node `g` stands at: the cheap answer against the generator.
fn check_rolls<R: RuleSystem>(g: &GameOf<R>, seen: &mut Seen, what: &str) {
    let sys = g.system();
    for outcome in sys.chance_outcomes(g.state()) {
        let mut s = *g.state();
        sys.begin_roll(&mut s, outcome.roll);
        check_decision(sys, &s, seen, what);
    }
}

fn check_decision<R: RuleSystem>(sys: &R, s: &R::State, seen: &mut Seen, what: &str) {
    if sys.node(s) != Node::Decision {
        return;
    }
    let mut plays = Vec::new();
    sys.generate(s, Orders::Distinct, &mut plays);
    match sys.has_play(s) {
        Some(answer) => {
            assert_eq!(answer, !plays.is_empty(), "{what}: {s:?}");
            seen.compared += 1;
            seen.unplayable += plays.is_empty() as usize;
        }
        None => seen.generated += 1,
    }
}

/// Random games of `rules`; at each chance node every roll is checked, at each decision node
/// the game's kept list against a fresh one (the game may not have generated at the roll).
fn walk(rules: &Rules, games: u64, seen: &mut Seen) {
    let mut rng = StdRng::seed_from_u64(7);
    for seed in 0..games {
        let mut g = Game::new(rules, seed);
        while !g.is_over() {
            let what = format!("{} seed {seed} roll {}", rules.variant(), g.rolls());
            if g.is_chance_node() {
                match &g {
                    Game::Parcheesi(x) => check_rolls(x, seen, &what),
                    Game::Family(x) => check_rolls(x, seen, &what),
                    Game::Classic(x) => check_rolls(x, seen, &what),
                    Game::Backgammon(x) => check_rolls(x, seen, &what),
                    _ => panic!("a system this test does not know"),
                }
                g.roll().unwrap();
                continue;
            }
            if let Game::Backgammon(x) = &g {
                // Cube decisions are decision nodes too.
                check_decision(x.system(), x.state(), seen, &what);
            }
            let fresh = g.fresh_copy();
            assert_eq!(g.legal_plays(), fresh.legal_plays(), "{what}");
            let n = g.legal_plays_ref().len();
            assert!(n > 0, "{what}: an unplayable roll was not forfeited");
            g.play_index(rng.random_range(0..n)).unwrap();
        }
    }
}

#[test]
fn has_play_agrees_with_the_generator() {
    let games: u64 = std::env::var("HAS_PLAY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut by_variant = Vec::new();
    for name in variants() {
        let mut seen = Seen::default();
        walk(&Rules::preset(name).unwrap(), games, &mut seen);
        by_variant.push((name.to_string(), seen));
    }
    let cube = Rules::with_options("backgammon", &serde_json::json!({"cube": true})).unwrap();
    let mut seen = Seen::default();
    walk(&cube, games, &mut seen);
    by_variant.push(("backgammon with the cube".into(), seen));
    for (name, seen) in &by_variant {
        println!("{name}: {seen:?}");
    }
    // Backgammon answers without generating, and its random games reach unplayable rolls
    // (closed boards against the bar, bearing off), so both answers were compared (cube games
    // end early, on drops: they add cube decisions, counted together).
    let bg: Vec<&Seen> = by_variant
        .iter()
        .filter(|(n, _)| n.starts_with("backgammon"))
        .map(|(_, s)| s)
        .collect();
    assert_eq!(bg.len(), 2);
    assert!(
        bg.iter().all(|s| s.generated == 0 && s.compared > 100),
        "{bg:?}"
    );
    assert!(
        bg.iter().map(|s| s.compared).sum::<usize>() > 1_000,
        "{bg:?}"
    );
    assert!(
        bg.iter().map(|s| s.unplayable).sum::<usize>() > 10,
        "{bg:?}"
    );
}
