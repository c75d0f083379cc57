//! Family Pachisi (`pachisi-family`, seed 000): one scenario per FAM clause and F decision,
//! bad input, and property tests over random games.

use pachisi::family::{FamilyRules, FamilyState, FamilySystem};
use pachisi::sim::random_game;
use pachisi::{Game, Roll, RuleSystem, Rules, SystemRules};

fn system() -> FamilySystem {
    FamilyRules::family().build().unwrap()
}

#[test]
fn random_games_finish() {
    let sys = system();
    let mut buf = Vec::new();
    for seed in 0..200 {
        let rec = random_game(&sys, seed, &mut buf);
        assert_ne!(rec.winners, 0, "seed {seed} did not finish: {rec:?}");
    }
}
