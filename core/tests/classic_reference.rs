//! The fast Classic Pachisi generator against the reference generator
//! (`pachisi::classic::reference`, written from docs/RULES.md): the same set of resulting
//! positions (the turn passed on included), one play per position, every listed play's notation
//! one the reference gives for its position, notations distinct and parsing back to their play
//! (CLS-*, C-*). Every order (`Orders::All`) reaches only positions the reference reaches.
//!
//! Positions: random games' chance nodes under each option set, every throw (0..=6 shells up),
//! plus synthetic hard positions (castles, units, pieces on the charkoni entered or not, pieces
//! home and near home, the own end square at 9 and 77, partners and opponents around one square).
//! `REFERENCE_ROLLS` sets how many position-rolls per option set.

#[path = "common/compare.rs"]
#[allow(dead_code)] // `check_every_order`: Classic checks every order by position instead
mod compare;
#[path = "common/walk.rs"]
#[allow(dead_code)]
mod walk;

use pachisi::classic::{ClassicRules, ClassicState, ClassicSystem, reference};
use pachisi::dice::rng_from_seed;
use pachisi::{Node, Orders, Play, RuleSystem, StepKind, SystemRules};
use rand::RngExt;
use std::collections::{BTreeMap, BTreeSet};

/// A resulting position, comparable: pieces (canonical order), the turn, the throw (none).
type After = ([[u8; 4]; 4], u8, Option<u8>);

fn key(s: &ClassicState) -> After {
    (s.pieces, s.turn, s.throw)
}

/// Option sets: the preset, and from it every boolean flipped, both seat counts, other castle
/// squares and other throw tables and graces, where the combination is valid.
fn option_sets() -> Vec<(String, ClassicRules)> {
    let mut out = Vec::new();
    let base = ClassicRules::classic();
    out.push(("pachisi".to_string(), base.clone()));
    let mut add = |what: &str, f: &dyn Fn(&mut ClassicRules)| {
        let mut r = base.clone();
        f(&mut r);
        if r.build().is_ok() && r != base {
            out.push((format!("pachisi {what}"), r));
        }
    };
    add("two seats", &|r| r.seats = 2);
    add("first_piece_in_play flipped", &|r| {
        r.first_piece_in_play ^= true
    });
    add("extra_throw_on_grace flipped", &|r| {
        r.extra_throw_on_grace ^= true
    });
    add("units flipped", &|r| r.units ^= true);
    add("allow_dead_end flipped", &|r| r.allow_dead_end ^= true);
    add("castle 5th from the outer end", &|r| {
        r.castle_from_outer_end = 5
    });
    add("castle 1st from the outer end", &|r| {
        r.castle_from_outer_end = 1
    });
    add("castle 8th from the outer end", &|r| {
        r.castle_from_outer_end = 8
    });
    add("six up moves 12", &|r| {
        r.throw_table = vec![25, 10, 2, 3, 4, 5, 12];
        r.graces = vec![12, 10, 25];
    });
    add("only 6 is a grace", &|r| r.graces = vec![6]);
    // No 1, 2 or 3: positions 82..=84 are dead ends.
    add("table without 2 and 3", &|r| {
        r.throw_table = vec![25, 10, 4, 5, 6, 7, 8]
    });
    add("table without 2 and 3, dead ends allowed", &|r| {
        r.throw_table = vec![25, 10, 4, 5, 6, 7, 8];
        r.allow_dead_end = true;
    });
    add("shell probability 0.524", &|r| r.shell_probability = 0.524);
    out
}

/// What the checked plays did, so the run can show that every clause came up.
#[derive(Debug, Default)]
struct Seen {
    enters: usize,
    captures: usize,
    unit_moves: usize,
    unit_captures: usize,
    homecomings: usize,
    extra_throws: usize,
    skipped_colours: usize,
    wins: usize,
}

/// Compares the two generators at the decision node `s`; the error names the position.
fn compare(sys: &ClassicSystem, s: &ClassicState, stats: &mut Seen) -> Result<(), String> {
    let here = || sys.format_position(s);
    let reference = reference::legal_plays(sys, s);
    let mut by_result: BTreeMap<After, BTreeSet<String>> = BTreeMap::new();
    for p in &reference {
        by_result
            .entry(key(&p.result))
            .or_default()
            .insert(sys.format_play(s, &p.play));
    }
    // A notation names one position only.
    let mut owner: BTreeMap<&String, &After> = BTreeMap::new();
    for (b, texts) in &by_result {
        for t in texts {
            if let Some(other) = owner.insert(t, b)
                && other != b
            {
                return Err(format!("{}: `{t}` reaches two positions", here()));
            }
        }
    }
    let after = |p: &Play| {
        let mut t = *s;
        for st in p.steps() {
            sys.apply_step(&mut t, st);
        }
        sys.end_play(&mut t, p.steps());
        key(&t)
    };
    let mut fast: Vec<Play> = Vec::new();
    sys.generate(s, Orders::Distinct, &mut fast);
    let mut seen: BTreeSet<After> = BTreeSet::new();
    let mut texts: BTreeSet<String> = BTreeSet::new();
    for p in &fast {
        let b = after(p);
        let text = sys.format_play(s, p);
        if let Some(st) = p.steps().first() {
            stats.enters += (st.kind == StepKind::Enter) as usize;
            stats.captures += (st.captured > 0) as usize;
            stats.unit_moves += (st.count > 1) as usize;
            stats.unit_captures += (st.count > 1 && st.captured > 1) as usize;
            stats.homecomings += (st.to == 85) as usize;
        }
        let over = [0, 1]
            .iter()
            .any(|&t| b.0[t] == [85; 4] && b.0[t + 2] == [85; 4]);
        stats.wins += over as usize;
        stats.extra_throws += (!over && b.1 == s.turn) as usize;
        stats.skipped_colours += (!over && b.1 != s.turn && b.1 != (s.turn + 1) % 4) as usize;
        compare::check_listed(&by_result, &mut seen, &mut texts, b, &text)
            .map_err(|e| format!("{}: {e}", here()))?;
        match sys.parse_play(s, &text) {
            Ok(q) if q == *p => {}
            other => return Err(format!("{}: `{text}` parses to {other:?}", here())),
        }
    }
    compare::check_complete(&by_result, &seen).map_err(|e| format!("{}: {e}", here()))?;
    // Every order the step-by-step interface walks ends on a position the reference reaches.
    let mut all: Vec<Play> = Vec::new();
    sys.generate(s, Orders::All, &mut all);
    for p in &all {
        if !by_result.contains_key(&after(p)) {
            let text = sys.format_play(s, p);
            return Err(format!("{}: `{text}` (all orders) is not legal", here()));
        }
    }
    Ok(())
}

/// Chance nodes of random games (uniformly random plays): every `every`-th decision node with its
/// throw taken back.
fn random_chance_nodes(
    sys: &ClassicSystem,
    games: u64,
    seed: u64,
    every: usize,
    want: usize,
) -> Vec<ClassicState> {
    let mut out = Vec::new();
    let mut k = 0;
    walk::for_each_decision(sys, games, 3_000, seed, |s| {
        k += 1;
        if k % every != 0 || out.len() >= want {
            return;
        }
        let c = ClassicState { throw: None, ..*s };
        if sys.validate_state(&c).is_ok() && sys.node(&c) == Node::Chance {
            out.push(c);
        }
    });
    out
}

/// The position of colour `c` on loop square `q` (0 = arm 0's end square), the end square read
/// as 9 or, when `again`, as 77 (docs/rules/pachisi.md).
fn on_loop(c: u8, q: u8, again: bool) -> u8 {
    let j = (q as u16 + 68 - 17 * c as u16) % 68;
    if j == 0 && again { 77 } else { 9 + j as u8 }
}

/// Hard synthetic positions: the mover's pieces one throw short of a square where partners,
/// opponents or castles stand; units (several pieces on one position); pieces not entered, on
/// the charkoni, home, near home (dead ends where allowed), on the own end square as 9 and 77;
/// colours all home. Invalid draws are skipped.
fn synthetic_chance_nodes(sys: &ClassicSystem, n: usize, seed: u64) -> Vec<ClassicState> {
    let mut rng = rng_from_seed(seed);
    let rules = sys.rules().clone();
    let castle_n = rules.castle_from_outer_end;
    let castles: Vec<u8> = (0..4u8)
        .flat_map(|k| [17 * k, 17 * k + castle_n, 17 * k + 17 - castle_n])
        .collect();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < n * 500 {
        tries += 1;
        let turn: u8 = rng.random_range(0..4);
        // The square where things happen: often a castle.
        let centre: u8 = if rng.random_bool(0.3) {
            castles[rng.random_range(0..castles.len())]
        } else {
            rng.random_range(0..68)
        };
        let mut pieces = [[0u8; 4]; 4];
        for c in 0..4u8 {
            let all_home = c != turn && rng.random_bool(0.05);
            for i in 0..4 {
                let v = rules.throw_table[rng.random_range(0..7)];
                let p: u8 = if all_home {
                    85
                } else {
                    match rng.random_range(0..16) {
                        0 => 0,
                        1 => 1,
                        2 => 85,
                        3 => rng.random_range(70..=84),
                        4 => rng.random_range(2..=9),
                        5 | 6 if i > 0 => pieces[c as usize][rng.random_range(0..i)],
                        7 => on_loop(c, castles[rng.random_range(0..castles.len())], false),
                        8 => on_loop(c, centre, rng.random_bool(0.5)),
                        // The mover one throw short of the centre, or of the home.
                        9..=11 if c == turn => {
                            if rng.random_bool(0.2) {
                                85u8.saturating_sub(v).max(1)
                            } else {
                                let q = (centre as u16 + 68 * 2 - v as u16 % 68) % 68;
                                on_loop(c, q as u8, rng.random_bool(0.3))
                            }
                        }
                        _ => {
                            let d: i16 = rng.random_range(-6..=6);
                            on_loop(c, (centre as i16 + 68 + d) as u8 % 68, false)
                        }
                    }
                };
                pieces[c as usize][i] = p;
            }
            pieces[c as usize].sort_unstable_by(|a, b| b.cmp(a));
        }
        let s = ClassicState {
            pieces,
            turn,
            throw: None,
        };
        if sys.validate_state(&s).is_ok() && sys.node(&s) == Node::Chance {
            out.push(s);
        }
    }
    out
}

/// Runs the comparison on random and synthetic positions of every option set; `budget` is the
/// number of position-rolls per option set (half random, half synthetic). Returns the count.
fn run(budget: usize) -> usize {
    let mut failures = Vec::new();
    let mut total = 0;
    let mut stats = Seen::default();
    for (name, rules) in option_sets() {
        let sys = rules.build().unwrap();
        let chance_nodes = budget.div_ceil(7);
        let random_want = chance_nodes - chance_nodes / 2;
        let random = random_chance_nodes(&sys, 1 + random_want as u64 / 100, 7, 5, random_want);
        let synthetic = synthetic_chance_nodes(&sys, chance_nodes - random.len(), 11);
        let nodes = random.iter().chain(synthetic.iter());
        let count = walk::compare_each_roll(&sys, &name, nodes, &mut failures, |t, _| {
            compare(&sys, t, &mut stats).map_err(|e| format!("throw {:?}: {e}", t.throw))
        });
        assert!(
            count >= budget,
            "[{name}] only {count} position-rolls of {budget}"
        );
        total += count;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{total} position-rolls agree; fast plays checked: {stats:?}");
    let Seen {
        enters,
        captures,
        unit_moves,
        unit_captures,
        homecomings,
        extra_throws,
        skipped_colours,
        wins,
    } = stats;
    for (what, n) in [
        ("enter", enters),
        ("capture", captures),
        ("unit move", unit_moves),
        ("unit capture", unit_captures),
        ("homecoming", homecomings),
        ("extra throw", extra_throws),
        ("skipped colour", skipped_colours),
        ("win", wins),
    ] {
        assert!(n > 0, "no {what} among the checked plays");
    }
    total
}

/// At least 20,000 position-rolls for the system in `cargo test` (about 56,000: they are cheap).
#[test]
fn fast_generator_agrees_with_the_reference() {
    let sets = option_sets().len();
    let budget = walk::reference_rolls_per_set().max(56_000 / sets + 1);
    assert!(run(budget) >= 20_000);
}

/// The reference on hand-made positions, each clause once (the notations a reader can check).
#[test]
fn reference_on_hand_made_positions() {
    let sys = ClassicRules::classic().build().unwrap();
    let texts = |pos: &str| {
        let s = sys.parse_position(pos).unwrap();
        let mut v: Vec<String> = reference::distinct_plays(&sys, &s)
            .iter()
            .map(|p| sys.format_play(&s, &p.play))
            .collect();
        v.sort();
        v
    };
    // CLS-8: colour 0 at 27 (loop square 18) throws 2 onto square 20, where colour 1 has two
    // pieces (its position 12): one piece may not land there, the unit of two captures both.
    assert_eq!(
        texts("0:2:27,27,1,0/12,12,1,0/1,0,0,0/1,0,0,0"),
        ["1-3", "2x27-29*", "pass"]
    );
    // CLS-9: colour 0's 30 is loop square 21, a castle, held by colour 3 (its 47): no landing,
    // whatever the unit.
    assert_eq!(
        texts("0:2:28,28,1,0/1,0,0,0/1,0,0,0/47,0,0,0"),
        ["1-3", "pass"]
    );
    // CLS-4: home only exactly; 84 is a dead end with the standard table (no throw moves 1).
    assert_eq!(
        texts("0:4:81,80,1,0/1,0,0,0/1,0,0,0/1,0,0,0"),
        ["1-5", "81-85", "pass"]
    );
    // CLS-5: a grace enters one piece (three waiting: one `enter`).
    assert_eq!(
        texts("0:6:30,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0"),
        ["30-36", "enter", "pass"]
    );
}
