//! `RuleSystem::captured_owner` (the victim a game records for a capture) against the plain
//! search of the pieces it replaces: every capturing step of every legal play, applied step by
//! step, in random games of every preset and of its two-seat form.

use pachisi::{Game, GameOf, Node, Orders, RuleSystem, Rules, Step, variants};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64 as StdRng;

/// The owner found by searching every piece, as the default method does.
fn by_search<R: RuleSystem>(sys: &R, s: &R::State, step: &Step) -> Option<u8> {
    let place = sys.place(step.seat, step.to);
    sys.pieces(s)
        .iter()
        .find(|v| v.place == place && v.seat != step.seat)
        .map(|v| v.seat)
}

/// Checks every capturing step of the legal plays at `g`'s decision node; returns how many.
fn check_node<R: RuleSystem>(g: &GameOf<R>) -> usize {
    let sys = g.system();
    let mut plays = Vec::new();
    sys.generate(g.state(), Orders::Distinct, &mut plays);
    let mut checked = 0;
    for play in &plays {
        let mut s = *g.state();
        for step in play.steps() {
            if step.captured > 0 {
                let want = by_search(sys, &s, step);
                assert!(
                    want.is_some(),
                    "a capture with no victim: {step:?} in {s:?}"
                );
                assert_eq!(sys.captured_owner(&s, step), want, "{step:?} in {s:?}");
                checked += 1;
            }
            sys.apply_step(&mut s, step);
        }
    }
    checked
}

#[test]
fn captured_owner_names_the_piece_the_search_finds() {
    let mut rules: Vec<Rules> = variants()
        .iter()
        .map(|v| Rules::preset(v).unwrap())
        .collect();
    let two: Vec<Rules> = rules
        .iter()
        .filter_map(|r| r.with("seats", 2.into()).ok())
        .collect();
    rules.extend(two);
    let mut rng = StdRng::seed_from_u64(3);
    for r in &rules {
        let mut checked = 0;
        for seed in 0..6 {
            let mut g = Game::new(r, seed);
            while !g.is_over() && g.rolls() < 400 {
                if g.node() == Node::Decision {
                    checked += match &g {
                        Game::Parcheesi(x) => check_node(x),
                        Game::Family(x) => check_node(x),
                        Game::Classic(x) => check_node(x),
                        Game::Backgammon(x) => check_node(x),
                        _ => panic!("a system this test does not know"),
                    };
                    let plays = g.legal_plays();
                    let i = rng.random_range(0..plays.len());
                    g.play(&plays[i]).unwrap();
                } else {
                    g.roll().unwrap();
                }
            }
        }
        assert!(
            checked > 20,
            "{}: only {checked} captures seen",
            r.variant()
        );
    }
}
