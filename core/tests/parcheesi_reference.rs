//! The fast Parcheesi / Online Pachisi generator against the reference generator
//! (`pachisi::parcheesi::reference`, written from docs/RULES.md): the same set of boards, one play per
//! board, every listed play's notation one the reference gives for its board, notations distinct
//! between boards and parsing back to their play, and every order of every play (`Orders::All`)
//! exactly the reference's plays (PAR-*, P-*, ONL-*, O-*).
//!
//! Positions: random games' chance nodes under each option set, every roll (21), plus synthetic
//! crowded positions (blockades, pieces at the branch square, in the home path and on the squares
//! reached only by going round). `REFERENCE_ROLLS` sets how many position-rolls per option set
//! (`make test-reference-long` runs a million in all). Doubles rolls with their bottom faces that
//! capture or reach home at their second, third or fourth value have their own positions.

#[path = "common/compare.rs"]
mod compare;
#[path = "common/parcheesi_options.rs"]
mod parcheesi_options;
#[path = "common/walk.rs"]
#[allow(dead_code)]
mod walk;

use pachisi::parcheesi::{ParcheesiState, ParcheesiSystem, reference};
use pachisi::{Node, Orders, Play, RuleSystem, SystemRules};
use parcheesi_options::option_sets;
use rand::RngExt;
use std::collections::{BTreeMap, BTreeSet};

type Board = reference::Board;

fn board_of(s: &ParcheesiState, seats: u8) -> Board {
    let mut b: Board = ([[0; 4]; 4], [[0; 4]; 4]);
    for seat in 0..seats {
        b.0[seat as usize] = s.pieces(seat);
        b.1[seat as usize] = s.blockade_ages(seat);
    }
    b
}

/// Compares the two generators at the decision node `s`; the error names the position.
fn compare(sys: &ParcheesiSystem, s: &ParcheesiState) -> Result<(), String> {
    let here = || sys.format_position(s);
    let mut fast: Vec<Play> = Vec::new();
    sys.generate(s, Orders::Distinct, &mut fast);
    let reference = reference::legal_plays(sys, s);
    let mut by_board: BTreeMap<Board, BTreeSet<String>> = BTreeMap::new();
    for p in &reference {
        by_board
            .entry(p.board)
            .or_default()
            .insert(sys.format_play(s, &p.play));
    }
    // A notation names one board only (issue: two plays, one notation).
    let mut owner: BTreeMap<&String, &Board> = BTreeMap::new();
    for (b, texts) in &by_board {
        for t in texts {
            if let Some(other) = owner.insert(t, b)
                && other != b
            {
                return Err(format!("{}: `{t}` reaches two boards", here()));
            }
        }
    }
    let mut seen: BTreeSet<Board> = BTreeSet::new();
    let mut texts: BTreeSet<String> = BTreeSet::new();
    for p in &fast {
        let mut t = *s;
        for st in p.steps() {
            sys.apply_step(&mut t, st);
        }
        sys.end_play(&mut t, p.steps());
        let b = board_of(&t, sys.seats());
        let text = sys.format_play(s, p);
        compare::check_listed(&by_board, &mut seen, &mut texts, b, &text)
            .map_err(|e| format!("{}: {e}", here()))?;
        match sys.parse_play(s, &text) {
            Ok(q) if q == *p => {}
            other => return Err(format!("{}: `{text}` parses to {other:?}", here())),
        }
    }
    compare::check_complete(&by_board, &seen).map_err(|e| format!("{}: {e}", here()))?;
    // Every order of every play (`Orders::All`: what taking a play one step at a time and
    // checking a given play use) is exactly the reference's list, not only one play per board.
    let mut all: Vec<Play> = Vec::new();
    sys.generate(s, Orders::All, &mut all);
    let all_texts: Vec<String> = all.iter().map(|p| sys.format_play(s, p)).collect();
    compare::check_every_order(&by_board, &all_texts).map_err(|e| format!("{}: {e}", here()))?;
    Ok(())
}

/// Chance nodes of random games (uniformly random plays): every `every`-th decision node with
/// its roll taken back (the notation without the fields of a roll being played).
fn random_chance_nodes(
    sys: &ParcheesiSystem,
    games: u64,
    seed: u64,
    every: usize,
) -> Vec<ParcheesiState> {
    const ROLL_FIELDS: [&str; 5] = ["roll:", "left:", "bonus:", "played:", "group:"];
    let mut out = Vec::new();
    let mut k = 0;
    walk::for_each_decision(sys, games, 2_000, seed, |s| {
        k += 1;
        if k % every != 0 {
            return;
        }
        let text = sys.format_position(s);
        let chance: Vec<&str> = text
            .split_whitespace()
            .filter(|t| !ROLL_FIELDS.iter().any(|f| t.starts_with(f)))
            .collect();
        if let Ok(c) = sys.parse_position(&chance.join(" "))
            && sys.node(&c) == Node::Chance
        {
            out.push(c);
        }
    });
    out
}

/// Crowded synthetic positions: pieces drawn near one another, around the branch square, in the
/// home path, on the going-round squares; invalid draws are skipped.
fn synthetic_chance_nodes(sys: &ParcheesiSystem, n: usize, seed: u64) -> Vec<ParcheesiState> {
    let seats = sys.seats();
    let limit = sys.rules().blockade_turn_limit;
    walk::drawn_chance_nodes(sys, n, 200, seed, |rng| {
        let centre: u8 = rng.random_range(1..=76);
        let mut text = String::new();
        for seat in 0..seats {
            let mut ps = Vec::new();
            for _ in 0..4 {
                let p: u8 = match rng.random_range(0..10) {
                    0 => 0,
                    1 => 72,
                    2 => rng.random_range(58..=76),
                    3 => rng.random_range(65..=71),
                    _ => {
                        let d: i16 = rng.random_range(-6..=6);
                        (centre as i16 + d).clamp(1, 76) as u8
                    }
                };
                ps.push(p.to_string());
            }
            text.push_str(&format!("{seat}:{} ", ps.join(",")));
        }
        let turn = rng.random_range(0..seats);
        text.push_str(&format!("turn:{turn} doubles:0"));
        if limit > 0 && rng.random_bool(0.5) {
            // Blockade ages on the mover's blockades.
            if let Ok(s) = sys.parse_position(&text) {
                let p = s.pieces(turn);
                let age: u8 = rng.random_range(1..=limit + 1);
                let ages: Vec<String> = (0..4)
                    .map(|i| {
                        let shared = p[i] != 0
                            && p[i] != 72
                            && p.iter().filter(|&&q| q == p[i]).count() >= 2;
                        if shared { age } else { 0 }.to_string()
                    })
                    .collect();
                text.push_str(&format!(" age{turn}:{}", ages.join(",")));
            }
        }
        text
    })
}

/// Runs the comparison on random and synthetic positions of every option set; `budget` is the
/// number of position-rolls per option set (half random, half synthetic).
fn run(budget: usize) {
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
        total += walk::compare_each_roll(&sys, &name, nodes, &mut failures, |t, _| {
            compare(&sys, t).map_err(|e| format!("roll {:?}: {e}", t.dice()))
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{total} position-rolls agree");
}

/// At least 20,000 position-rolls for the system in `cargo test`.
#[test]
fn fast_generator_agrees_with_the_reference() {
    let sets = option_sets().len();
    let budget = walk::reference_rolls_per_set().max(20_000 / sets + 1);
    run(budget);
}

/// Seat `seat`'s position for the track square at position `q` of seat 0, with each seat's entry
/// square `shift` squares after the previous seat's (either direction is tried: the test does not
/// depend on the board's orientation); `None` off the shared track.
fn same_square(q: u8, seat: u8, shift: u8) -> Option<u8> {
    let a = match q {
        1..=64 => q - 1,
        73..=76 => q - 9,
        _ => return None,
    } as u16;
    let b = ((a + 68 * 4 - (shift as u16 * seat as u16) % 68) % 68) as u8;
    Some(if b <= 63 { b + 1 } else { b + 9 })
}

/// Chance nodes built so that a doubles roll with its bottom faces (four values) can capture or
/// reach home at its second, third or fourth value: the mover's pieces at `c`, `c + 3` and in
/// reach of home, single opposing pieces 7, 10 to 13 and 14 squares ahead of them (the sums of
/// two, three and four values of every doubles roll).
fn four_value_boundary_nodes(sys: &ParcheesiSystem) -> Vec<ParcheesiState> {
    let seats = sys.seats();
    let mut out = Vec::new();
    // Few nodes by default: each is compared on all 21 rolls under every option set, and these
    // positions list hundreds of plays per doubles roll (`REFERENCE_ROLLS` set: more).
    let step = if walk::reference_rolls_per_set() > 0 {
        3
    } else {
        14
    };
    for shift in [17u8, 51] {
        for c in (2u8..=44).step_by(step) {
            // The home pieces and the third value's square vary with `c`.
            let (home_a, home_b) = [(58u8, 65u8), (61, 62), (60, 69)][c as usize / 3 % 3];
            let third = 10 + c % 4;
            let ahead = [c + 7, c + third, c + 14];
            let mut text = format!("0:{c},{},{home_a},{home_b} ", c + 3);
            for seat in 1..seats {
                let q = ahead[(seat as usize - 1) % 3];
                let Some(p) = same_square(q, seat, shift) else {
                    continue;
                };
                text.push_str(&format!("{seat}:{p},0,0,0 "));
            }
            text.push_str("turn:0 doubles:0");
            if let Ok(s) = sys.parse_position(&text)
                && sys.node(&s) == Node::Chance
            {
                out.push(s);
            }
        }
    }
    out
}

/// The four-value search's boundaries under every option set: doubles rolls whose second, third
/// or fourth value captures or reaches home (handing the node to the general search), checked
/// against the reference; the counts show that such plays were generated. These positions list
/// hundreds of plays per doubles roll, too slow for the unoptimised build of `make test`: run by
/// `cargo test --release -p pachisi --test parcheesi_reference` and `make test-reference-long`.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow unoptimised: run with --release")]
fn four_value_rolls_capturing_or_reaching_home_agree_with_the_reference() {
    let mut failures = Vec::new();
    // [capture, home arrival] by step index 1..=3 among plays of four die steps.
    let mut seen = [[0usize; 4]; 2];
    for (name, rules) in option_sets() {
        let sys = rules.build().unwrap();
        let nodes = four_value_boundary_nodes(&sys);
        assert!(nodes.len() >= 6, "[{name}] only {} nodes", nodes.len());
        walk::compare_each_roll(&sys, &name, nodes.iter(), &mut failures, |t, _| {
            let mut plays: Vec<Play> = Vec::new();
            sys.generate(t, Orders::Distinct, &mut plays);
            for p in &plays {
                let dice: Vec<_> = p
                    .steps()
                    .iter()
                    .filter(|st| st.kind != pachisi::StepKind::Bonus)
                    .collect();
                if dice.len() != 4 {
                    continue;
                }
                for (i, st) in dice.iter().enumerate() {
                    seen[0][i] += (st.captured > 0) as usize;
                    seen[1][i] += (st.to == 72) as usize;
                }
            }
            compare(&sys, t).map_err(|e| format!("roll {:?}: {e}", t.dice()))
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (what, counts) in ["captures", "reaches home"].iter().zip(seen) {
        for (i, &n) in counts.iter().enumerate().skip(1) {
            assert!(n > 0, "no four-value play {what} at value {}", i + 1);
        }
    }
    eprintln!(
        "captures by value {:?}, home arrivals by value {:?}",
        seen[0], seen[1]
    );
}
