//! Helpers shared by the Parcheesi and Online Pachisi tests (scenario runner, invariants).
#![allow(dead_code)]

#[path = "../common/scenario.rs"]
mod scenario;

use pachisi::{Game, Place, Play, Rules, StepKind};
use std::collections::{BTreeSet, HashMap};

pub fn notations(g: &Game) -> BTreeSet<String> {
    g.legal_plays().iter().map(|p| g.format_play(p)).collect()
}

pub fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Runs one scenario file of the shared format through the shared runner.
pub fn run_scenario(variant: &str, file: &str) {
    scenario::run_file(variant, file);
}

/// Seat-relative positions strictly between `from` and `to` of a move of `value` squares.
pub fn passed_positions(from: u8, to: u8, value: u8) -> Vec<u8> {
    let mut out = Vec::new();
    // Which route at the branch square (64): a move that ends in the home path (65..=72) turned
    // in; any other went round (73..=76, then on from 76 to the entry square 1).
    let mut p = from;
    for _ in 1..value {
        p = match p {
            64 if (65..=72).contains(&to) => 65,
            64 => 73,
            76 => 1,
            x => x + 1,
        };
        out.push(p);
    }
    out
}

/// The passed squares of a move going round, in the one numbering (PAR-11).
#[test]
fn passed_positions_go_round_in_the_one_numbering() {
    assert_eq!(passed_positions(62, 2, 8), [63, 64, 73, 74, 75, 76, 1]);
    assert_eq!(passed_positions(62, 67, 5), [63, 64, 65, 66]);
    assert_eq!(passed_positions(75, 3, 4), [76, 1, 2]);
}

/// Counts pieces of each seat per place (track and home path only).
pub fn stacks(g: &Game) -> HashMap<Place, Vec<u8>> {
    let mut m: HashMap<Place, Vec<u8>> = HashMap::new();
    for pv in g.pieces() {
        if matches!(pv.place, Place::Track { .. } | Place::HomePath { .. }) {
            let e = m.entry(pv.place).or_insert_with(|| vec![0; 4]);
            e[pv.seat as usize] += pv.count;
        }
    }
    m
}

/// Board invariants of the current position.
pub fn check_board(g: &Game, capture: bool, most: u8) {
    assert_eq!(
        g.pieces().len(),
        4 * g.seats() as usize,
        "four pieces per seat"
    );
    for (place, counts) in stacks(g) {
        let seats_here = counts.iter().filter(|&&c| c > 0).count();
        if capture {
            assert!(seats_here <= 1, "two seats on {place:?}: {}", g.position());
        }
        assert!(
            counts.iter().all(|&c| c <= most),
            "too many on {place:?}: {}",
            g.position()
        );
    }
}

/// Checks that no step of `play` (applied from `g`'s position) passes a blockade.
pub fn check_no_blockade_passed(g: &Game, play: &Play) {
    let mut h = g.clone();
    for st in play.steps() {
        if st.kind != StepKind::Enter {
            let st_stacks = stacks(&h);
            for q in passed_positions(st.from, st.to, st.value) {
                let place = h.place(st.seat, q);
                if let Some(c) = st_stacks.get(&place) {
                    assert!(
                        c.iter().all(|&n| n < 2),
                        "{:?} passes a blockade on {place:?} in {}",
                        st,
                        h.position()
                    );
                }
            }
        }
        h.step(st).unwrap();
    }
}

/// Plays a game with a seeded choice policy, checking invariants at each decision.
pub fn random_game_checked(rules: &Rules, seed: u64, max_rolls: usize, deep: bool) -> Game {
    use rand::{RngExt, SeedableRng};
    let opts = rules.options();
    let capture = opts["capture"].as_bool().unwrap();
    let most = if opts["blockades"].as_bool().unwrap() {
        opts["max_pieces_per_square"].as_u64().unwrap() as u8
    } else {
        1
    };
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed ^ 0xABCD);
    let mut g = Game::new(rules, seed);
    let mut rolls = 0;
    while !g.is_over() && rolls < max_rolls {
        if g.is_chance_node() {
            g.roll().unwrap();
            rolls += 1;
            continue;
        }
        check_board(&g, capture, most);
        // The position notation round-trips, also in the middle of a roll.
        let back = Game::from_position(rules, &g.position(), 0).unwrap();
        assert_eq!(back.position(), g.position());
        let plays = g.legal_plays();
        assert!(!plays.is_empty());
        // Listed plays are distinct by resulting position, and each applies.
        let mut results = BTreeSet::new();
        for p in &plays {
            let mut h = g.clone();
            h.play(p).unwrap();
            assert!(
                results.insert(h.position()),
                "two plays give {}",
                h.position()
            );
        }
        let pick = plays[rng.random_range(0..plays.len())];
        if deep && plays.len() <= 12 {
            check_no_blockade_passed(&g, &pick);
            check_steps_reach_plays(&g, &results);
        }
        // Notation of the chosen play parses back to a play with the same result.
        let text = g.format_play(&pick);
        let parsed = g.parse_play(&text).unwrap();
        let mut a = g.clone();
        a.play(&pick).unwrap();
        let mut b = g.clone();
        b.play(&parsed).unwrap();
        assert_eq!(a.position(), b.position());
        g.play(&pick).unwrap();
        check_board(&g, capture, most);
    }
    g
}

/// The step-by-step interface reaches exactly the positions of the whole plays.
pub fn check_steps_reach_plays(g: &Game, want: &BTreeSet<String>) {
    // Skip very large trees (doubles with many pieces): the walk is exponential.
    let mut got = BTreeSet::new();
    let mut budget = 400usize;
    walk(g, &mut got, &mut budget);
    if budget > 0 {
        assert_eq!(&got, want, "steps vs plays at {}", g.position());
    }
}

fn walk(g: &Game, got: &mut BTreeSet<String>, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let steps = g.legal_steps();
    if steps.is_empty() {
        // A pass where one is allowed.
        let mut h = g.clone();
        h.finish_play().unwrap();
        got.insert(h.position());
        return;
    }
    // A complete play that other plays extend may also be finished here.
    let mut h = g.clone();
    if h.finish_play().is_ok() {
        got.insert(h.position());
    }
    for st in steps {
        let mut h = g.clone();
        h.step(&st).unwrap();
        if h.taken().is_empty() {
            got.insert(h.position());
        } else {
            walk(&h, got, budget);
        }
    }
}
