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

/// Up to `n` chance nodes parsed from the position texts `draw` makes with a generator seeded by
/// `seed`, trying at most `tries_per_node * n` texts; a text that does not parse, or parses to a
/// position that is not a chance node, is skipped (synthetic draws are often invalid).
#[allow(dead_code)]
pub fn drawn_chance_nodes<R: RuleSystem>(
    sys: &R,
    n: usize,
    tries_per_node: usize,
    seed: u64,
    mut draw: impl FnMut(&mut pachisi::dice::GameRng) -> String,
) -> Vec<R::State> {
    let mut rng = pachisi::dice::rng_from_seed(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < n * tries_per_node {
        tries += 1;
        let text = draw(&mut rng);
        if let Ok(s) = sys.parse_position(&text)
            && sys.node(&s) == Node::Chance
        {
            out.push(s);
        }
    }
    out
}

/// Calls `compare` on the position after each roll of each chance node in `nodes` (with the
/// running count of position-rolls) and keeps the first 20 failures, labelled with the option
/// set's `name`, in `failures`. Returns the number of position-rolls compared.
#[allow(dead_code)]
pub fn compare_each_roll<'a, R: RuleSystem + 'a>(
    sys: &R,
    name: &str,
    nodes: impl IntoIterator<Item = &'a R::State>,
    failures: &mut Vec<String>,
    mut compare: impl FnMut(&R::State, usize) -> Result<(), String>,
) -> usize {
    let mut count = 0;
    for s in nodes {
        each_roll(sys, s, |t| {
            count += 1;
            if let Err(e) = compare(t, count)
                && failures.len() < 20
            {
                failures.push(format!("[{name}] {e}"));
            }
        });
    }
    count
}
