//! The fast Family Pachisi generator against the reference generator
//! (`pachisi::family::reference`, written from docs/RULES.md), FAM-* and F-*:
//! - the same set of positions, one play per position, every listed play's notation one the
//!   reference gives for its position, notations distinct;
//! - each listed play is the first play of every order (`Orders::All`) written its way, which is
//!   what `parse_play` returns (one play per position-roll goes through `parse_play` itself: a
//!   call generates and writes every order, too slow for all of them in a debug run);
//! - every order the fast generator lists for the step-by-step interface is one the reference
//!   lists, and the other way round;
//! - the reference's own steps, applied and written by the system, reach the position the
//!   reference computed and read as the reference writes them.
//!
//! Positions: random games' chance nodes under each option set, every roll (21), plus synthetic
//! crowded positions (gates, partners, pieces near and in the goal stretch, on their own start
//! square at either end of the lap, in the start area; a colour with nothing in play and its
//! entry tries; a seat whose pieces are all home). `REFERENCE_ROLLS=N` sets the position-rolls
//! per option set for a long run.

#[path = "common/compare.rs"]
mod compare;
#[path = "common/walk.rs"]
#[allow(dead_code)]
mod walk;

use pachisi::family::{FamilyRules, FamilyState, FamilySystem, reference};
use pachisi::{Node, Orders, Play, RuleSystem, SystemRules};
use rand::RngExt;
use std::collections::{BTreeMap, BTreeSet};

type Board = reference::Board;

/// Option sets: the preset, and from it every boolean flipped and every value of the others
/// (seats, `entry_tries`), where the combination is valid; plus a few combinations of the
/// options that share a rule.
fn option_sets() -> Vec<(String, FamilyRules)> {
    let base = FamilyRules::family();
    let mut out = vec![("pachisi-family".to_string(), base.clone())];
    let mut add = |what: &str, f: &dyn Fn(&mut FamilyRules)| {
        let mut r = base.clone();
        f(&mut r);
        if r.build().is_ok() && r != base {
            out.push((format!("pachisi-family {what}"), r));
        }
    };
    add("teams off", &|r| r.teams = false);
    add("two seats", &|r| {
        r.seats = 2;
        r.teams = false;
    });
    add("three seats", &|r| {
        r.seats = 3;
        r.teams = false;
    });
    add("sum_as_one_move off", &|r| r.sum_as_one_move = false);
    add("one_piece_both_dice off", &|r| {
        r.one_piece_both_dice = false
    });
    add("higher_die_first off", &|r| r.higher_die_first = false);
    // `bottom_faces` off validates only without the restriction of the higher values.
    add("bottom_faces off", &|r| {
        r.bottom_faces = false;
        r.doubles_restricted_until_all_played = false;
    });
    add("doubles_restricted_until_all_played off", &|r| {
        r.doubles_restricted_until_all_played = false
    });
    add("gate_moves_with_doubles off", &|r| {
        r.gate_moves_with_doubles = false
    });
    add("six_five_enters_and_moves off", &|r| {
        r.six_five_enters_and_moves = false
    });
    for tries in 1..=6 {
        add(&format!("entry_tries {tries}"), &|r| r.entry_tries = tries);
    }
    add("doubles_extra_roll off", &|r| r.doubles_extra_roll = false);
    add("compulsory_capture on", &|r| r.compulsory_capture = true);
    add("sum_of_five_enters on", &|r| r.sum_of_five_enters = true);
    add("either order, sum of five, no 6-5", &|r| {
        r.higher_die_first = false;
        r.sum_of_five_enters = true;
        r.six_five_enters_and_moves = false;
    });
    add("no sum, no second die", &|r| {
        r.sum_as_one_move = false;
        r.one_piece_both_dice = false;
    });
    add("two seats, compulsory capture, no gate moves", &|r| {
        r.seats = 2;
        r.teams = false;
        r.compulsory_capture = true;
        r.gate_moves_with_doubles = false;
    });
    out
}

fn board_of(s: &FamilyState) -> Board {
    std::array::from_fn(|c| {
        let mut pieces: [(u8, bool); 4] =
            std::array::from_fn(|i| (s.pos[c][i], s.played & (1 << (c * 4 + i)) != 0));
        pieces.sort_unstable();
        pieces
    })
}

/// `parse_pick` chooses the play whose notation goes through `parse_play`.
fn compare(sys: &FamilySystem, s: &FamilyState, parse_pick: usize) -> Result<(), String> {
    let here = || sys.format_position(s);
    let reference = reference::legal_plays(sys, s);
    let mut by_board: BTreeMap<Board, BTreeSet<String>> = BTreeMap::new();
    for p in &reference {
        // The reference's steps, read by the system, reach the position it computed and are
        // written as it writes them.
        let mut t = *s;
        for st in p.play.steps() {
            sys.apply_step(&mut t, st);
        }
        if board_of(&t) != p.board {
            return Err(format!(
                "{}: the system applies the reference's `{}` elsewhere",
                here(),
                p.notation
            ));
        }
        let text = sys.format_play(s, &p.play);
        if text != p.notation {
            return Err(format!(
                "{}: the reference's `{}` is written `{text}`",
                here(),
                p.notation
            ));
        }
        by_board
            .entry(p.board)
            .or_default()
            .insert(p.notation.clone());
    }
    // A notation names one position only.
    let mut owner: BTreeMap<&String, &Board> = BTreeMap::new();
    for (b, texts) in &by_board {
        for t in texts {
            if let Some(other) = owner.insert(t, b)
                && other != b
            {
                return Err(format!("{}: `{t}` reaches two positions", here()));
            }
        }
    }
    let mut fast: Vec<Play> = Vec::new();
    sys.generate(s, Orders::Distinct, &mut fast);
    // Every order, as the step-by-step interface and `parse_play` see them.
    let mut all: Vec<Play> = Vec::new();
    sys.generate(s, Orders::All, &mut all);
    let all_texts: Vec<String> = all.iter().map(|p| sys.format_play(s, p)).collect();
    let mut seen: BTreeSet<Board> = BTreeSet::new();
    let mut texts: BTreeSet<String> = BTreeSet::new();
    for (k, p) in fast.iter().enumerate() {
        let mut t = *s;
        for st in p.steps() {
            sys.apply_step(&mut t, st);
        }
        sys.end_play(&mut t, p.steps());
        let b = board_of(&t);
        let text = sys.format_play(s, p);
        compare::check_listed(&by_board, &mut seen, &mut texts, b, &text)
            .map_err(|e| format!("{}: {e}", here()))?;
        // `parse_play` returns the first play of every order written so: that must be this
        // one. Calling it (a generation and a notation per play) for one play of each
        // position-roll keeps the run short; the list checks the others the same way.
        let first = all_texts.iter().position(|t| *t == text).map(|i| all[i]);
        if first != Some(*p) {
            return Err(format!("{}: `{text}` is first read as {first:?}", here()));
        }
        if k == parse_pick % fast.len() {
            match sys.parse_play(s, &text) {
                Ok(q) if q == *p => {}
                other => return Err(format!("{}: `{text}` parses to {other:?}", here())),
            }
        }
    }
    compare::check_complete(&by_board, &seen).map_err(|e| format!("{}: {e}", here()))?;
    // Every order: what the step-by-step interface offers is exactly what the reference allows.
    let fast_all: BTreeSet<&String> = all_texts.iter().collect();
    let reference_all: BTreeSet<&String> = by_board.values().flatten().collect();
    if fast_all != reference_all {
        return Err(format!(
            "{}: every order: only the fast generator lists {:?}, only the reference {:?}",
            here(),
            fast_all.difference(&reference_all).collect::<Vec<_>>(),
            reference_all.difference(&fast_all).collect::<Vec<_>>()
        ));
    }
    Ok(())
}

/// Chance nodes of random games (uniformly random plays): every `every`-th decision node with
/// its roll taken back.
fn random_chance_nodes(
    sys: &FamilySystem,
    games: u64,
    seed: u64,
    every: usize,
) -> Vec<FamilyState> {
    let mut out = Vec::new();
    let mut k = 0;
    walk::for_each_decision(sys, games, 3_000, seed, |s| {
        k += 1;
        if k % every != 0 {
            return;
        }
        let mut c = *s;
        c.dice = [0, 0];
        if sys.validate_state(&c).is_ok() && sys.node(&c) == Node::Chance {
            out.push(c);
        }
    });
    out
}

/// One piece of the colour at `side`, in notation: drawn near the absolute square `centre` most
/// of the time, else in the start area, home, near the end of the lap or in the goal stretch, on
/// its own start square, or on the same position as the piece before it (a gate).
fn draw_piece(
    rng: &mut pachisi::dice::GameRng,
    side: u8,
    centre: u8,
    before: Option<&String>,
) -> String {
    match rng.random_range(0..13) {
        0 => "n".into(),
        1 => "x".into(),
        2 => "h".into(),
        3 => rng.random_range(60..=76u8).to_string(),
        4 | 5 => match before {
            Some(p) if p.parse::<u8>().is_ok() => p.clone(),
            _ => "1".into(),
        },
        // The own start square, just entered or at the end of the lap (FAM-8, FAM-10).
        6 => ["1", "69"][rng.random_range(0..2)].into(),
        _ => {
            let d: i16 = rng.random_range(-7..=7);
            let square = (centre as i16 + d).rem_euclid(68) as u8;
            let rel = (square + 68 - 17 * side) % 68 + 1;
            // The own start square is both the first and the last track position.
            if rel == 1 && rng.random_bool(0.5) {
                "69".into()
            } else {
                rel.to_string()
            }
        }
    }
}

/// Crowded synthetic positions: pieces of every colour drawn around one square (often a start
/// square or a safe square), gates, pieces near and in the goal stretch and in the start area;
/// sometimes the colour to move has nothing in play (entering, the 6-5 exception, its tries) or
/// the seat to move is all home (it plays its partner's pieces). Invalid draws are skipped.
fn synthetic_chance_nodes(sys: &FamilySystem, n: usize, seed: u64) -> Vec<FamilyState> {
    let rules = sys.rules();
    let seats = rules.seats;
    walk::drawn_chance_nodes(sys, n, 500, seed, |rng| {
        let centre: u8 = match rng.random_range(0..4) {
            // A start square (FAM-8, FAM-10) or a safe square.
            0 => 17 * rng.random_range(0..4u8),
            1 => 17 * rng.random_range(0..4u8) + [7, 12][rng.random_range(0..2)],
            _ => rng.random_range(0..68),
        };
        let turn = rng.random_range(0..seats);
        let mode = rng.random_range(0..8);
        let mut colours = Vec::new();
        for c in 0..seats {
            let side = if seats == 2 { 2 * c } else { c };
            let mut ps: Vec<String> = Vec::new();
            for _ in 0..4 {
                let p = draw_piece(rng, side, centre, ps.last());
                ps.push(p);
            }
            if c == turn && mode == 0 {
                // Nothing in play: the start area and home only.
                for p in ps.iter_mut() {
                    *p = ["n", "n", "x", "h"][rng.random_range(0..4)].into();
                }
            }
            if c == turn && mode == 1 && rules.teams {
                ps = vec!["h".into(); 4];
            }
            colours.push(ps.join(","));
        }
        let nothing_in_play = mode == 0;
        let missed = if nothing_in_play {
            rng.random_range(0..rules.entry_tries)
        } else {
            0
        };
        format!("{turn}:{missed}:- {}", colours.join("/"))
    })
}

/// Runs the comparison on random and synthetic positions of every option set; `budget` is the
/// number of position-rolls per option set (half random, half synthetic). Returns the number of
/// position-rolls compared.
fn run(budget: usize) -> usize {
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, rules) in option_sets() {
        let sys = rules.build().unwrap();
        let chance_nodes = budget.div_ceil(21);
        let random = random_chance_nodes(&sys, 1 + chance_nodes as u64 / 40, 7, 3);
        let synthetic = synthetic_chance_nodes(&sys, chance_nodes / 2 + 1, 11);
        let nodes = random
            .iter()
            .take(chance_nodes - chance_nodes / 2)
            .chain(synthetic.iter());
        total += walk::compare_each_roll(&sys, &name, nodes, &mut failures, |t, count| {
            compare(&sys, t, count).map_err(|e| format!("roll {:?}: {e}", t.dice))
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{total} position-rolls agree");
    total
}

/// At least 20,000 position-rolls in `cargo test`.
#[test]
fn fast_generator_agrees_with_the_reference() {
    let sets = option_sets().len();
    let budget = walk::reference_rolls_per_set().max(20_000 / sets + 1);
    let total = run(budget);
    assert!(total >= 20_000, "only {total} position-rolls");
}
