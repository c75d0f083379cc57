//! The option sets of Family Pachisi the tests run under (the generator against the reference,
//! the direct listing of next steps against the grouped plays), and crowded synthetic positions.

use super::walk;
use pachisi::SystemRules;
use pachisi::family::{FamilyRules, FamilyState, FamilySystem};
use rand::RngExt;

/// Option sets: the preset, and from it every boolean flipped and every value of the others
/// (seats, `entry_tries`), where the combination is valid; plus a few combinations of the
/// options that share a rule.
pub fn option_sets() -> Vec<(String, FamilyRules)> {
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
pub fn synthetic_chance_nodes(sys: &FamilySystem, n: usize, seed: u64) -> Vec<FamilyState> {
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
