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
#[path = "common/family_options.rs"]
mod family_options;
#[path = "common/walk.rs"]
#[allow(dead_code)]
mod walk;

use pachisi::family::{FamilyState, FamilySystem, reference};
use pachisi::{Node, Orders, Play, RuleSystem, SystemRules};
use std::collections::{BTreeMap, BTreeSet};

use family_options::{option_sets, synthetic_chance_nodes};

type Board = reference::Board;

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
    compare::check_every_order(&by_board, &all_texts).map_err(|e| format!("{}: {e}", here()))?;
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
