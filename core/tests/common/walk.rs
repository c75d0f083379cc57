//! Random walks through the decision nodes of a rule system, for tests that check every position
//! a random game reaches.

use pachisi::{Node, Orders, Play, RuleSystem};

/// Calls `visit` at each decision node of random games of `sys`: game seeds `0..seeds` (the
/// dice), at most `max_nodes` chance and decision nodes a game; after each visit it plays one of
/// the distinct legal plays, chosen uniformly by a generator seeded with `choice_seed`. Returns
/// the number of visits.
pub fn for_each_decision<R: RuleSystem>(
    sys: &R,
    seeds: u64,
    max_nodes: usize,
    choice_seed: u64,
    mut visit: impl FnMut(&R::State),
) -> usize {
    let mut rng = pachisi::dice::rng_from_seed(choice_seed);
    let mut plays = Vec::new();
    let mut visits = 0;
    for seed in 0..seeds {
        let mut s = sys.initial_state();
        let mut game_rng = pachisi::dice::rng_from_seed(seed);
        for _ in 0..max_nodes {
            match sys.node(&s) {
                Node::Over => break,
                Node::Chance => {
                    let roll = sys.sample_roll(&s, &mut game_rng);
                    sys.begin_roll(&mut s, roll);
                }
                Node::Decision => {
                    visit(&s);
                    visits += 1;
                    plays.clear();
                    sys.generate(&s, Orders::Distinct, &mut plays);
                    let play = if plays.is_empty() {
                        Play::new()
                    } else {
                        plays[pachisi::sim::uniform_index(&mut rng, plays.len())]
                    };
                    for step in play.steps() {
                        sys.apply_step(&mut s, step);
                    }
                    sys.end_play(&mut s, play.steps());
                }
            }
        }
    }
    visits
}

/// Calls `f` with the position after each roll of the chance node `s` that leaves a decision
/// (every outcome of `RuleSystem::chance_outcomes`).
#[allow(dead_code)] // not every test that walks games compares generators
pub fn each_roll<R: RuleSystem>(sys: &R, s: &R::State, mut f: impl FnMut(&R::State)) {
    for outcome in sys.chance_outcomes(s) {
        let mut t = *s;
        sys.begin_roll(&mut t, outcome.roll);
        if sys.node(&t) == Node::Decision {
            f(&t);
        }
    }
}

/// Position-rolls per option set asked for by the `REFERENCE_ROLLS` environment variable (0
/// when unset: each test then runs its own default).
#[allow(dead_code)]
pub fn reference_rolls_per_set() -> usize {
    std::env::var("REFERENCE_ROLLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
