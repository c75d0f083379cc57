//! Family Pachisi (`pachisi-family`, seed 000): the scenario files of
//! `tests/scenarios/pachisi-family/` (one per FAM clause and F decision), further clause tests,
//! bad input, and property tests over random games.

use pachisi::family::{FamilyRules, FamilyState, FamilySystem};
use pachisi::sim::random_game;
use pachisi::{Error, Game, Node, Orders, Play, Roll, RuleSystem, Rules, StepKind, SystemRules};
use serde_json::Value;
use std::collections::BTreeSet;

fn system() -> FamilySystem {
    FamilyRules::family().build().unwrap()
}

fn rules_with(options: Value) -> Rules {
    Rules::with_options("pachisi-family", &options).unwrap()
}

fn game_at(rules: &Rules, position: &str) -> Game {
    Game::from_position(rules, position, 0).unwrap()
}

/// The notations of the legal plays after `roll` at `position`.
fn plays_after(rules: &Rules, position: &str, roll: [u8; 2]) -> (Game, BTreeSet<String>) {
    let mut g = game_at(rules, position);
    g.set_roll(Roll::Dice(roll)).unwrap();
    let plays = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    (g, plays)
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The positions (after the turn flow) every legal play leads to.
fn results(g: &Game) -> BTreeSet<String> {
    g.legal_plays()
        .iter()
        .map(|p| {
            let mut h = g.clone();
            h.play(p).unwrap();
            h.position()
        })
        .collect()
}

fn preset() -> Rules {
    Rules::preset("pachisi-family").unwrap()
}

const N4: &str = "n,n,n,n";

fn pos4(header: &str, c: [&str; 4]) -> String {
    format!("{header} {}/{}/{}/{}", c[0], c[1], c[2], c[3])
}

// The scenario files of tests/scenarios/pachisi-family/ are replayed by the shared runner
// (core/tests/scenarios.rs), as by the C and Python suites.

// ---------------------------------------------------------------------------------------------
// Clauses and decisions beyond the scenario files.

/// FAM-5b/F-E: a captured piece is not a never-played one: with 5-5 the never-played piece must
/// be the one entered, because only that unlocks the bottom values (and the extra roll).
#[test]
fn fam5b_exception_needs_the_never_played_piece() {
    let (g, plays) = plays_after(&preset(), &pos4("0:0:-", ["n,x,20,h", N4, N4, N4]), [5, 5]);
    assert!(!plays.is_empty());
    for p in &plays {
        assert!(p.starts_with("0:n-1") || p.contains(" 0:n-1"), "{p}");
    }
    for r in results(&g) {
        // Extra roll: the same seat rolls again; no never-played piece is left.
        assert!(r.starts_with("0:0:-"), "{r}");
        assert!(
            !r.split(' ')
                .nth(1)
                .unwrap()
                .split('/')
                .next()
                .unwrap()
                .contains('n')
        );
    }
}

/// FAM-5b: without the exception the restricted doubles give no extra roll, and a captured
/// piece entering does not lift the restriction.
#[test]
fn fam5b_restricted_no_extra_roll() {
    let (g, plays) = plays_after(&preset(), &pos4("0:0:-", ["n,n,n,x", N4, N4, N4]), [5, 5]);
    assert!(plays.contains("0:x-1 0:1-6"), "{plays:?}");
    assert!(plays.contains("0:n-1 0:x-1"), "{plays:?}");
    // Only two values are played: nothing uses the bottom twos.
    for p in &plays {
        assert!(p.split(' ').count() <= 2, "{p}");
    }
    for r in results(&g) {
        assert!(r.starts_with("1:0:-"), "{r}");
    }
}

/// F-E counts values: when the last never-played piece can come in, a play that does not bring
/// it in (fewer values) is not legal.
#[test]
fn fe_entering_last_piece_is_required() {
    let (_, plays) = plays_after(&preset(), &pos4("0:0:-", ["n,20,h,h", N4, N4, N4]), [5, 5]);
    assert!(!plays.contains("0:20-30"), "{plays:?}");
    assert!(plays.iter().all(|p| p.contains("0:n-1")), "{plays:?}");
    // Every play uses all four values (5, 5, 2, 2).
    assert!(plays.iter().all(|p| p.split(' ').count() >= 3), "{plays:?}");
}

/// FAM-5 / F-D: unrestricted doubles play [h, h, l, l]; h values before l values.
#[test]
fn fd_doubles_values_and_order() {
    let rules = preset();
    let (g, _) = plays_after(&rules, &pos4("0:0:-", ["20,h,h,h", N4, N4, N4]), [3, 3]);
    // One piece takes all 14 points (4 + 4 + 3 + 3) in some grouping: every play ends on 34.
    for r in results(&g) {
        assert_eq!(r, pos4("0:0:-", ["34,h,h,h", N4, N4, N4]));
    }
    for p in g.legal_plays() {
        let values: Vec<u8> = p.steps().iter().map(|s| s.value).collect();
        assert_eq!(values.iter().map(|&v| v as u32).sum::<u32>(), 14);
        // The higher values come first: no 4 after a 3.
        assert!(
            !values.windows(2).any(|w| w[0] == 3 && w[1] == 4),
            "{values:?}"
        );
    }
}

/// FAM-7 with doubles: the capturing piece stops; the remaining values go to other pieces.
#[test]
fn fam7_capture_stops_piece_with_doubles() {
    // Colour 1's single piece stands on colour 0's position 26 (square 25, not safe).
    let pos = pos4("0:0:-", ["20,30,h,h", "9,n,n,n", N4, N4]);
    let (g, _) = plays_after(&preset(), &pos, [6, 6]);
    for p in g.legal_plays() {
        let steps = p.steps();
        if let Some(k) = steps.iter().position(|s| s.captured > 0) {
            let capturer_to = steps[k].to;
            assert!(
                steps[k + 1..].iter().all(|s| s.from != capturer_to),
                "{}",
                g.format_play(&p)
            );
        }
    }
    assert!(g.legal_plays().iter().any(|p| p.captures() > 0));
}

/// FAM-2: partners never capture each other; without teams the same landing captures.
#[test]
fn fam2_partners_do_not_capture_but_opponents_do() {
    let pos = pos4("0:0:-", ["10,h,h,h", N4, "50,n,n,n", N4]);
    let (_, plays) = plays_after(&preset(), &pos, [6, 1]);
    assert_eq!(plays, set(&["0:10-17"]));
    let no_teams = rules_with(serde_json::json!({"teams": false}));
    let (_, plays) = plays_after(&no_teams, &pos, [6, 1]);
    assert!(plays.contains("0:10-17"));
    // Capturing with the six leaves the one for no other piece: FAM-4b keeps the sum only.
    assert!(!plays.iter().any(|p| p.contains('*')), "{plays:?}");
    let (_, plays) = plays_after(
        &no_teams,
        &pos4("0:0:-", ["10,30,h,h", N4, "50,n,n,n", N4]),
        [6, 1],
    );
    assert!(plays.contains("0:10-16* 0:30-31"), "{plays:?}");
}

/// F-I: the partner's FAM-5b status applies to a seat playing for its partner.
#[test]
fn fi_partner_status_applies() {
    let pos = pos4("0:0:-", ["h,h,h,h", N4, "n,20,h,h", N4]);
    let (g, plays) = plays_after(&preset(), &pos, [1, 1]);
    assert_eq!(plays, set(&["2:20-32"]));
    for r in results(&g) {
        assert!(r.starts_with("1:0:-"), "no extra roll: {r}");
    }
    // The partner's entering and tries: no piece of colour 2 in play, no five: a missed try.
    let pos = pos4("0:0:-", ["h,h,h,h", N4, "x,x,h,h", N4]);
    let (g, plays) = plays_after(&preset(), &pos, [6, 4]);
    assert!(plays.is_empty());
    assert_eq!(g.position(), pos4("0:1:-", ["h,h,h,h", N4, "x,x,h,h", N4]));
}

/// F-J: doubles give another roll, without a penalty for a third doubles.
#[test]
fn fj_no_third_doubles_penalty() {
    let mut g = game_at(&preset(), &pos4("0:0:-", ["20,30,40,50", N4, N4, N4]));
    for _ in 0..3 {
        g.set_roll(Roll::Dice([4, 4])).unwrap();
        let p = g.legal_plays()[0];
        g.play(&p).unwrap();
        assert_eq!(g.to_move(), 0);
        assert!(g.is_chance_node());
    }
    let no_extra = rules_with(serde_json::json!({"doubles_extra_roll": false}));
    let mut g = game_at(&no_extra, &pos4("0:0:-", ["20,30,40,50", N4, N4, N4]));
    g.set_roll(Roll::Dice([4, 4])).unwrap();
    let p = g.legal_plays()[0];
    g.play(&p).unwrap();
    assert_eq!(g.to_move(), 1);
}

/// FAM-8 decision: a square holding an uncapturable opponent cannot be landed on, also by a
/// piece going round to its own start square after a lap (which may capture there).
#[test]
fn fam8_lap_end_on_own_start_square_captures() {
    // Colour 1 single on colour 0's start square (colour 1 position 52); colour 0 piece at 64.
    let pos = pos4("0:0:-", ["64,h,h,h", "52,n,n,n", N4, N4]);
    let (_, plays) = plays_after(&preset(), &pos, [5, 2]);
    // 64+5 = 69 (own start square again) captures, but then the 2 has no other piece
    // (FAM-4b): the sum 64+7 = 71 passes the single opponent.
    assert_eq!(plays, set(&["0:64-71"]));
    let (_, plays) = plays_after(
        &preset(),
        &pos4("0:0:-", ["64,h,h,h", "52,n,n,n", N4, N4]),
        [6, 5],
    );
    // 6 first: 64-70; then 5: 70-75. Or the sum 64-75.
    assert_eq!(plays, set(&["0:64-75"]));
}

/// FAM-10: a gate is never captured and not landed on, even on the owner's start square; a
/// gate on a start square stops the 6-5 exception too.
#[test]
fn fam10_gate_on_start_square_blocks_six_five_and_entering() {
    // Colour 1 gate on colour 0's start square.
    let pos = pos4("0:0:-", [N4, "52,52,n,n", N4, N4]);
    let (g, plays) = plays_after(&preset(), &pos, [6, 5]);
    assert!(plays.is_empty(), "{plays:?}");
    // A single opponent there is captured by the entering piece, which then stops (FAM-7):
    // the six is lost.
    let single = pos4("0:0:-", [N4, "n,n,n,52", N4, N4]);
    let (_, plays) = plays_after(&preset(), &single, [6, 5]);
    assert_eq!(plays, set(&["0:n-1*"]));
    assert_eq!(g.position(), pos4("0:1:-", [N4, "n,n,52,52", N4, N4]));
}

/// F-F: a five that cannot enter (partner on the start square) is a die that cannot be played.
#[test]
fn ff_partner_on_start_square_blocks_entering() {
    // Colour 2 (partner) on colour 0's start square: colour 2 position 35.
    let pos = pos4("0:0:-", ["n,n,n,30", N4, "35,n,n,n", N4]);
    let (_, plays) = plays_after(&preset(), &pos, [5, 3]);
    assert_eq!(plays, set(&["0:30-38"]));
}

// ---------------------------------------------------------------------------------------------
// Options.

/// F-F option: a sum of five enters (using both dice) only when `sum_of_five_enters` is on.
#[test]
fn option_sum_of_five_enters() {
    let start = pos4("0:0:-", [N4, N4, N4, N4]);
    let (g, plays) = plays_after(&preset(), &start, [4, 1]);
    assert!(plays.is_empty());
    assert_eq!(g.position(), pos4("0:1:-", [N4, N4, N4, N4]));
    let r = rules_with(serde_json::json!({"sum_of_five_enters": true}));
    let (g, plays) = plays_after(&r, &start, [4, 1]);
    assert_eq!(plays, set(&["0:n-1"]));
    let p = g.legal_plays()[0];
    assert_eq!(
        (p.steps()[0].kind, p.steps()[0].value),
        (StepKind::Enter, 5)
    );
}

#[test]
fn option_compulsory_capture() {
    let pos = pos4("0:0:-", ["10,30,h,h", "67,n,n,n", N4, N4]);
    let r = rules_with(serde_json::json!({"compulsory_capture": true}));
    let (_, plays) = plays_after(&r, &pos, [6, 2]);
    assert_eq!(plays, set(&["0:10-16* 0:30-32"]));
}

#[test]
fn option_higher_die_first_off() {
    let pos = pos4("0:0:-", ["n,20,h,h", "9,9,n,n", N4, N4]);
    let r = rules_with(serde_json::json!({"higher_die_first": false}));
    let (_, plays) = plays_after(&r, &pos, [6, 5]);
    assert_eq!(plays, set(&["0:n-1 0:1-7"]));
}

#[test]
fn option_sum_as_one_move_off() {
    let pos = pos4("0:0:-", ["20,h,h,h", "8,n,n,n", N4, N4]);
    let r = rules_with(serde_json::json!({"sum_as_one_move": false}));
    let (_, plays) = plays_after(&r, &pos, [5, 1]);
    assert_eq!(plays, set(&["0:20-21"]));
}

#[test]
fn option_one_piece_both_dice_off() {
    let start = pos4("0:0:-", [N4, N4, N4, N4]);
    let r = rules_with(serde_json::json!({"one_piece_both_dice": false}));
    let (_, plays) = plays_after(&r, &start, [5, 3]);
    assert_eq!(plays, set(&["0:n-1"]));
}

#[test]
fn option_six_five_off() {
    let start = pos4("0:0:-", [N4, N4, N4, N4]);
    let r = rules_with(serde_json::json!({"six_five_enters_and_moves": false}));
    let (_, plays) = plays_after(&r, &start, [6, 5]);
    assert_eq!(plays, set(&["0:n-1"]));
}

#[test]
fn option_bottom_faces_off() {
    let r = rules_with(
        serde_json::json!({"bottom_faces": false, "doubles_restricted_until_all_played": false}),
    );
    let (g, _) = plays_after(&r, &pos4("0:0:-", ["20,h,h,h", N4, N4, N4]), [1, 1]);
    assert_eq!(
        results(&g),
        set(&[&pos4("0:0:-", ["22,h,h,h", N4, N4, N4])])
    );
}

#[test]
fn option_restriction_off_plays_full_doubles() {
    let r = rules_with(serde_json::json!({"doubles_restricted_until_all_played": false}));
    let (g, _) = plays_after(&r, &pos4("0:0:-", ["n,20,h,h", N4, N4, N4]), [1, 1]);
    // 6, 6, 1, 1 all played; extra roll.
    assert!(results(&g).iter().all(|r| r.starts_with("0:0:-")));
    assert!(results(&g).contains(&pos4("0:0:-", ["n,34,h,h", N4, N4, N4])));
}

/// FAM-5c with F-D: a gate moving 7 on doubles is each piece taking h and then l, each a
/// landing, so the gate must be able to stop h ahead: not on a square closed to it, not where
/// it would make three pieces, and not by capturing (FAM-7: the capturing piece moves no more).
#[test]
fn fam5c_gate_seven_stops_h_ahead() {
    let r = Rules::preset("pachisi-family").unwrap();
    // 3-3: values 4, 4, 3, 3. Square 13 of colour 0 is a safe square held by colour 1.
    let (_, plays) = plays_after(&r, "0:0:- 9,9,x,x/64,n,n,n/n,n,n,n/n,n,n,n", [3, 3]);
    assert!(!plays.contains("0:9-16(2)"), "{plays:?}");
    assert_eq!(
        plays,
        set(&["0:9-17 0:9-15", "0:9-17 0:17-23", "0:9-17 0:9-12 0:17-20"])
    );
    // 4-4: values 4, 4, 3, 3; a piece of its own on 10 would make three there.
    let (_, plays) = plays_after(&r, "0:0:- 6,6,10,x/n,n,n,n/n,n,n,n/n,n,n,n", [4, 4]);
    assert!(!plays.contains("0:6-13(2)"), "{plays:?}");
    // 6-6 from 20: the gate moves 7 over a free square 26; with an opponent's piece on 26 (not
    // a safe square: colour 0's square 25) the gate would capture there and stop.
    let (_, plays) = plays_after(&r, "0:0:- 20,20,x,x/n,n,n,n/n,n,n,n/n,n,n,n", [6, 6]);
    assert!(plays.contains("0:20-27(2)"), "{plays:?}");
    let pos = "0:0:- 20,20,x,x/n,n,n,n/n,n,n,n/n,n,n,n";
    let g = game_at(&r, pos);
    let sq = g.place(0, 26);
    let mut blocked = None;
    for c in 1..4u8 {
        for p in 1..=68u8 {
            if g.place(c, p) == sq {
                let mut cols = ["n,n,n,n".to_string(), "n,n,n,n".into(), "n,n,n,n".into()];
                cols[c as usize - 1] = format!("{p},n,n,n");
                blocked = Some(format!("0:0:- 20,20,x,x/{}", cols.join("/")));
            }
        }
    }
    let blocked = blocked.expect("a colour numbers square 26 of colour 0");
    let (_, plays) = plays_after(&r, &blocked, [6, 6]);
    assert!(!plays.contains("0:20-27(2)"), "{blocked}: {plays:?}");
}

#[test]
fn option_gate_moves_off() {
    let r = rules_with(serde_json::json!({"gate_moves_with_doubles": false}));
    let (g, _) = plays_after(&r, &pos4("0:0:-", ["66,66,h,h", N4, N4, N4]), [6, 6]);
    assert!(
        g.legal_plays()
            .iter()
            .all(|p| p.steps().iter().all(|s| s.count == 1))
    );
    // Same places reachable piece by piece.
    assert_eq!(
        results(&g),
        set(&[
            &pos4("0:0:-", ["73,73,h,h", N4, N4, N4]),
            &pos4("0:0:-", ["72,74,h,h", N4, N4, N4])
        ])
    );
}

#[test]
fn option_entry_tries() {
    let r = rules_with(serde_json::json!({"entry_tries": 1}));
    let (g, plays) = plays_after(&r, &pos4("0:0:-", [N4, N4, N4, N4]), [6, 4]);
    assert!(plays.is_empty());
    assert_eq!(g.to_move(), 1);
}

#[test]
fn three_seats_without_teams() {
    let r = rules_with(serde_json::json!({"seats": 3, "teams": false}));
    let g = Game::new(&r, 1);
    assert_eq!(g.seats(), 3);
    assert_eq!(g.position(), "0:0:- n,n,n,n/n,n,n,n/n,n,n,n");
}

/// FAM-2: teams need four seats, so fewer seats mean each colour for itself unless teams are
/// asked for (then the combination is an error naming the fix).
#[test]
fn fewer_seats_imply_no_teams() {
    for seats in [2, 3] {
        let r = rules_with(serde_json::json!({ "seats": seats }));
        assert_eq!(r.options()["teams"], false, "{seats} seats");
        assert_eq!(Game::new(&r, 1).seats(), seats);
        let err = Rules::with_options(
            "pachisi-family",
            &serde_json::json!({"seats": seats, "teams": true}),
        )
        .unwrap_err();
        assert!(err.to_string().contains("\"teams\": false"), "{err}");
    }
    // Four seats keep the preset's teams, and a later overlay keeps what the value holds.
    assert_eq!(
        rules_with(serde_json::json!({"seats": 4})).options()["teams"],
        true
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn invalid_rules_are_typed_errors() {
    let bad = [
        serde_json::json!({"seats": 3, "teams": true}),
        serde_json::json!({"seats": 2, "teams": true}),
        serde_json::json!({"seats": 5, "teams": false}),
        serde_json::json!({"seats": 1, "teams": false}),
        serde_json::json!({"entry_tries": 0}),
        serde_json::json!({"entry_tries": 9}),
        serde_json::json!({"bottom_faces": false}),
        serde_json::json!({"no_such_option": true}),
        serde_json::json!({"teams": "yes"}),
    ];
    for b in bad {
        let e = Rules::with_options("pachisi-family", &b).unwrap_err();
        assert!(matches!(e, Error::InvalidRules(_)), "{b}: {e:?}");
    }
    let e = Rules::with_options(
        "pachisi-family",
        &serde_json::json!({"seats": 2, "teams": true}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("partner"), "{e}");
    // Rules JSON round trip.
    let r = preset();
    assert_eq!(Rules::from_json(&r.to_json()).unwrap(), r);
}

#[test]
fn malformed_positions_are_notation_errors() {
    let r = preset();
    for text in [
        "",
        "0:0:-",
        "0:0 n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "a:0:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:7-1 n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:61 n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:- n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:- n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:- n,n,n,q/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:- n,n,n,0/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:- n,n,n,77/n,n,n,n/n,n,n,n/n,n,n,n",
        "0:0:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n extra",
    ] {
        let e = Game::from_position(&r, text, 0).unwrap_err();
        assert!(matches!(e, Error::InvalidNotation(_)), "`{text}`: {e:?}");
    }
}

#[test]
fn impossible_positions_are_position_errors() {
    let r = preset();
    for (text, why) in [
        ("4:0:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n", "turn out of range"),
        ("0:3:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n", "too many tries"),
        (
            "0:1:- 5,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
            "tries with a piece in play",
        ),
        ("0:0:- 5,5,5,n/n,n,n,n/n,n,n,n/n,n,n,n", "three on a square"),
        (
            "0:0:- 72,72,72,n/n,n,n,n/n,n,n,n/n,n,n,n",
            "three in the goal stretch",
        ),
        (
            "0:0:- 18,n,n,n/1,n,n,n/n,n,n,n/n,n,n,n",
            "two colours on a square",
        ),
        (
            "0:0:- 1,n,n,n/n,n,n,n/35,n,n,n/n,n,n,n",
            "partners on a square",
        ),
        (
            "0:0:- n,n,n,69/n,n,n,n/n,n,n,n/18,n,n,n",
            "lap end meets another colour",
        ),
        (
            "0:0:6-6 h,h,h,h/n,n,n,n/h,h,h,h/n,n,n,n",
            "roll pending after the end",
        ),
    ] {
        let e = Game::from_position(&r, text, 0).unwrap_err();
        assert!(matches!(e, Error::InvalidPosition(_)), "{why}: {e:?}");
    }
    // A state from JSON is validated too.
    let sys = system();
    let mut s = sys.initial_state();
    s.pos[1][0] = 90;
    s.played = 0xFFFF;
    assert!(matches!(
        sys.validate_state(&s),
        Err(Error::InvalidPosition(_))
    ));
    let mut s = sys.initial_state();
    s.pos[0][0] = 10;
    assert!(
        sys.validate_state(&s).is_err(),
        "a piece in play must be marked played"
    );
}

#[test]
fn positions_round_trip() {
    let r = preset();
    for text in [
        "0:0:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "2:1:- n,x,x,h/1,17,30,69/x,x,x,x/70,71,71,h",
        "3:0:6-5 n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n",
        "1:0:- 1,69,h,h/n,n,n,n/n,n,n,n/n,n,n,n",
    ] {
        let g = game_at(&r, text);
        assert_eq!(g.position(), text);
    }
    // Pieces may be given in any order; the notation lists them sorted.
    let g = game_at(&r, "0:0:- h,20,n,x/n,n,n,n/n,n,n,n/n,n,n,n");
    assert_eq!(g.position(), "0:0:- n,x,20,h/n,n,n,n/n,n,n,n/n,n,n,n");
}

#[test]
fn illegal_moves_and_wrong_phase_leave_the_game_unchanged() {
    let mut g = Game::new(&preset(), 3);
    assert!(matches!(
        g.play_notation("0:n-1"),
        Err(Error::WrongPhase(_))
    ));
    assert!(matches!(
        g.set_roll(Roll::Dice([0, 3])),
        Err(Error::InvalidRoll(_))
    ));
    assert!(matches!(
        g.set_roll(Roll::Cowries(3)),
        Err(Error::InvalidRoll(_))
    ));
    g.set_roll(Roll::Dice([5, 3])).unwrap();
    let before = g.to_json();
    for bad in ["0:n-2", "0:n-1", "1:n-1 1:1-4", "0:n-1 0:1-5"] {
        assert!(
            matches!(g.play_notation(bad), Err(Error::IllegalMove(_))),
            "{bad}"
        );
        assert_eq!(g.to_json(), before);
    }
    // Text that is not move notation at all.
    for bad in ["garbage", ""] {
        assert!(
            matches!(g.play_notation(bad), Err(Error::InvalidNotation(_))),
            "{bad}"
        );
        assert_eq!(g.to_json(), before);
    }
    assert!(g.roll().is_err());
}

// ---------------------------------------------------------------------------------------------
// Steps, places, sizes.

#[test]
fn state_is_small_and_copy() {
    fn is_copy<T: Copy>() {}
    is_copy::<FamilyState>();
    assert!(std::mem::size_of::<FamilyState>() <= 64);
    assert_eq!(std::mem::size_of::<FamilyState>(), 22);
}

#[test]
fn steps_carry_kind_count_capture_and_colour() {
    let (g, _) = plays_after(&preset(), &pos4("0:0:-", [N4, N4, N4, N4]), [5, 3]);
    let p = g.legal_plays()[0];
    let s = p.steps();
    assert_eq!(
        (s[0].kind, s[0].from, s[0].to, s[0].value),
        (StepKind::Enter, 0, 1, 5)
    );
    assert_eq!(
        (s[1].kind, s[1].from, s[1].to, s[1].value),
        (StepKind::Move, 1, 4, 3)
    );
    let (g, _) = plays_after(&preset(), &pos4("0:0:-", ["66,66,h,h", N4, N4, N4]), [6, 6]);
    assert!(
        g.legal_plays()
            .iter()
            .any(|p| p.steps()[0].count == 2 && p.steps()[0].value == 7)
    );
    let (g, _) = plays_after(
        &preset(),
        &pos4("0:0:-", ["h,h,h,h", N4, "30,n,n,n", N4]),
        [4, 2],
    );
    assert_eq!(g.legal_plays()[0].steps()[0].seat, 2);
}

#[test]
fn places_are_absolute() {
    use pachisi::Place;
    let g = Game::new(&preset(), 0);
    assert_eq!(g.board(), pachisi::BoardKind::Loop);
    assert_eq!(g.place(0, 0), Place::Nest { side: 0 });
    assert_eq!(g.place(0, 1), Place::Track { square: 0 });
    assert_eq!(g.place(1, 1), Place::Track { square: 17 });
    assert_eq!(g.place(3, 68), Place::Track { square: 50 });
    assert_eq!(g.place(2, 69), Place::Track { square: 34 });
    assert_eq!(g.place(1, 70), Place::HomePath { side: 1, index: 0 });
    assert_eq!(g.place(1, 76), Place::HomePath { side: 1, index: 6 });
    assert_eq!(g.place(3, 77), Place::Home { side: 3 });
    assert_eq!(g.pieces().len(), 16);
    let two = Game::new(
        &rules_with(serde_json::json!({"seats": 2, "teams": false})),
        0,
    );
    assert_eq!(two.place(1, 1), Place::Track { square: 34 });
    assert_eq!(two.pieces().len(), 8);
}

// ---------------------------------------------------------------------------------------------
// Random games.

#[test]
fn random_games_finish() {
    let sys = system();
    let mut buf = pachisi::sim::SimBuffers::new();
    for seed in 0..200 {
        let rec = random_game(&sys, seed, &mut buf);
        assert_ne!(rec.winners, 0, "seed {seed} did not finish: {rec:?}");
    }
}

/// Rule sets the property tests draw from.
fn rule_sets() -> Vec<Rules> {
    [
        serde_json::json!({}),
        serde_json::json!({"seats": 2, "teams": false}),
        serde_json::json!({"seats": 3, "teams": false}),
        serde_json::json!({"teams": false, "compulsory_capture": true, "sum_of_five_enters": true}),
        serde_json::json!({"higher_die_first": false, "sum_as_one_move": false}),
        serde_json::json!({"one_piece_both_dice": false, "gate_moves_with_doubles": false,
                           "six_five_enters_and_moves": false, "entry_tries": 1}),
        serde_json::json!({"bottom_faces": false, "doubles_restricted_until_all_played": false,
                           "doubles_extra_roll": false}),
    ]
    .into_iter()
    .map(rules_with)
    .collect()
}

fn pieces_by_place(g: &Game) -> Vec<(pachisi::Place, u8, u8)> {
    let mut v: Vec<(pachisi::Place, u8, u8)> = Vec::new();
    for pv in g.pieces() {
        if let Some(e) = v.iter_mut().find(|e| e.0 == pv.place && e.1 == pv.seat) {
            e.2 += pv.count;
        } else {
            v.push((pv.place, pv.seat, pv.count));
        }
    }
    v
}

/// Board invariants: four pieces per colour, at most two of a colour on a square (track and
/// goal stretch), never two colours on one track square (so never two teams).
fn check_invariants(g: &Game) {
    let seats = g.seats();
    let pieces = g.pieces();
    for c in 0..seats {
        assert_eq!(pieces.iter().filter(|p| p.seat == c).count(), 4);
    }
    let by_place = pieces_by_place(g);
    for (place, seat, count) in &by_place {
        match place {
            pachisi::Place::Track { .. } => {
                assert!(*count <= 2, "{place:?}: {count} of colour {seat}");
                let colours = by_place.iter().filter(|e| e.0 == *place).count();
                assert_eq!(colours, 1, "{place:?}: two colours");
            }
            pachisi::Place::HomePath { .. } => assert!(*count <= 2),
            _ => {}
        }
    }
}

/// FAM-10: no step passes a gate (the places strictly between its start and end).
fn check_no_gate_passed(g: &Game, step: &pachisi::Step) {
    let by_place = pieces_by_place(g);
    let first = if step.from == 0 { 1 } else { step.from + 1 };
    for p in first..step.to {
        let place = g.place(step.seat, p);
        let gate = by_place.iter().any(|(pl, seat, count)| {
            *pl == place && *count >= 2 && (p <= 69 || *seat == step.seat)
        });
        assert!(!gate, "step {step:?} passes a gate at {place:?}");
    }
}

/// Every complete play reachable through `legal_steps`/`step`, as positions after the play.
fn step_results(g: &Game, out: &mut BTreeSet<String>, budget: &mut usize) {
    for s in g.legal_steps() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let mut h = g.clone();
        h.step(&s).unwrap();
        if h.taken().is_empty() {
            out.insert(h.position());
        } else {
            step_results(&h, out, budget);
        }
    }
}

/// Plays a seeded random game through the public API, checking at every decision that every
/// listed play applies, plays lead to distinct positions, the step interface reaches the same
/// positions, the board invariants hold and the game survives JSON and notation round trips.
fn checked_random_game(rules: &Rules, seed: u64, max_actions: usize) {
    let mut g = Game::new(rules, seed);
    let mut policy = pachisi::dice::rng_from_seed(seed ^ 0x5eed);
    for _ in 0..max_actions {
        if g.is_over() {
            let o = g.outcome().unwrap();
            assert_ne!(o.winners, 0);
            return;
        }
        if g.is_chance_node() {
            g.roll().unwrap();
            continue;
        }
        let plays = g.legal_plays();
        assert!(!plays.is_empty(), "a decision node always has a play");
        let mut after = BTreeSet::new();
        for (i, p) in plays.iter().enumerate() {
            let mut h = g.clone();
            h.play(p).unwrap();
            after.insert(h.position());
            // The notation parses back to a play with the same result (a sample, for speed).
            if i % 7 == 0 {
                let text = g.format_play(p);
                let mut k = g.clone();
                k.play_notation(&text).unwrap();
                assert_eq!(k.position(), h.position(), "{text}");
            }
        }
        assert_eq!(
            after.len(),
            plays.len(),
            "plays must lead to distinct positions"
        );
        if plays.len() <= 16 {
            let mut reached = BTreeSet::new();
            let mut budget = 400;
            step_results(&g, &mut reached, &mut budget);
            if budget > 0 {
                assert_eq!(reached, after, "step interface vs whole plays");
            }
        }
        let choice = plays[pachisi::sim::uniform_index(&mut policy, plays.len())];
        // Walk the chosen play step by step, checking gates before each step.
        for s in choice.steps() {
            check_no_gate_passed(&g, s);
            g.step(s).unwrap();
        }
        assert!(g.taken().is_empty(), "a complete play ends by itself");
        check_invariants(&g);
        // JSON round trips: the whole game, and the state alone.
        // (The whole game carries its history, so only now and then.)
        if g.log().len() % 40 < 2 {
            let json = g.to_json();
            assert_eq!(Game::from_json(&json).unwrap().to_json(), json);
        }
        let Game::Family(fg) = &g else {
            panic!("not a family game")
        };
        let back: FamilyState = serde_json::from_value(g.state_value()).unwrap();
        assert_eq!(&back, fg.state());
        fg.system().validate_state(&back).unwrap();
        let again = Game::from_position(rules, &g.position(), 0).unwrap();
        assert_eq!(again.position(), g.position());
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 10, failure_persistence: None, ..Default::default() })]

    #[test]
    fn prop_random_games_keep_invariants(seed in 0u64..u64::MAX, which in 0usize..7) {
        checked_random_game(&rule_sets()[which], seed, 160);
    }

    #[test]
    fn prop_seed_replays_game(seed in 0u64..u64::MAX) {
        let play_out = |seed: u64| {
            let mut g = Game::new(&preset(), seed);
            let mut policy = pachisi::dice::rng_from_seed(seed);
            for _ in 0..300 {
                if g.is_over() { break; }
                if g.is_chance_node() { g.roll().unwrap(); continue; }
                let plays = g.legal_plays();
                g.play(&plays[pachisi::sim::uniform_index(&mut policy, plays.len())]).unwrap();
            }
            g.to_json()
        };
        proptest::prop_assert_eq!(play_out(seed), play_out(seed));
    }
}

#[test]
fn random_games_finish_in_every_configuration() {
    let mut buf = pachisi::sim::SimBuffers::new();
    for rules in rule_sets() {
        let pachisi::RulesConfig::Family(cfg) = rules.config() else {
            panic!("not family rules");
        };
        let sys = cfg.build().unwrap();
        for seed in 0..40 {
            let rec = random_game(&sys, seed, &mut buf);
            assert_ne!(rec.winners, 0, "{rules:?} seed {seed}: {rec:?}");
            let o = sys.outcome(&sys.initial_state());
            assert!(o.is_none());
        }
    }
}

#[test]
fn generator_orders_all_contains_distinct() {
    let sys = system();
    let mut s = sys
        .parse_position("0:0:5-5 n,20,30,x/n,n,n,n/n,n,n,n/n,n,n,n")
        .unwrap();
    assert_eq!(sys.node(&s), Node::Decision);
    let (mut all, mut distinct) = (Vec::new(), Vec::new());
    sys.generate(&s, Orders::All, &mut all);
    sys.generate(&s, Orders::Distinct, &mut distinct);
    assert!(all.len() >= distinct.len());
    assert!(distinct.iter().all(|p: &Play| all.contains(p)));
    s.dice = [0, 0];
    assert_eq!(sys.node(&s), Node::Chance);
}

/// F-I detail: the roll stays with the colour that started it; when the seat's last piece gets
/// home with the higher die, the lower die is not played with the partner's pieces.
#[test]
fn fi_partner_takes_over_from_the_next_roll() {
    let pos = pos4("0:0:-", ["75,h,h,h", N4, "n,n,n,30", N4]);
    let (g, plays) = plays_after(&preset(), &pos, [2, 1]);
    assert_eq!(plays, set(&["0:75-h"]));
    let mut g = g;
    g.play_notation("0:75-h").unwrap();
    assert_eq!(g.position(), pos4("1:0:-", ["h,h,h,h", N4, "n,n,n,30", N4]));
}

static VALID_STATES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// ---------------------------------------------------------------------------------------------
// Robustness: arbitrary text and arbitrary states never panic; valid states generate plays that
// apply and keep the state valid.

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

    #[test]
    fn prop_position_parser_never_panics(text in "[0-9nxh,/: -]{0,60}") {
        let sys = system();
        if let Ok(s) = sys.parse_position(&text) {
            proptest::prop_assert!(sys.validate_state(&s).is_ok());
            let again = sys.parse_position(&sys.format_position(&s)).unwrap();
            proptest::prop_assert_eq!(again, s);
        }
    }

    #[test]
    fn prop_arbitrary_valid_states_generate_applicable_plays(
        raw in proptest::collection::vec(0u8..140, 16),
        played in proptest::prelude::any::<u16>(),
        turn in 0u8..4,
        dice in (1u8..7, 1u8..7),
    ) {
        let sys = system();
        let mut s = sys.initial_state();
        for c in 0..4 {
            for i in 0..4 {
                // About half the pieces off the board (start area or goal), so that valid
                // positions (no two colours on a square) are common.
                let r = raw[c * 4 + i];
                s.pos[c][i] = match r {
                    0..=77 => r,
                    78..=125 => 0,
                    _ => 77,
                };
            }
        }
        // In-play pieces are marked played; the rest keep the random flag.
        let mut p = played;
        for c in 0..4 {
            for i in 0..4 {
                if s.pos[c][i] != 0 {
                    p |= 1 << (c * 4 + i);
                }
            }
        }
        s.played = p;
        s.turn = turn;
        s.dice = [dice.0, dice.1];
        if sys.validate_state(&s).is_err() || sys.node(&s) != Node::Decision {
            return Ok(());
        }
        VALID_STATES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut plays = Vec::new();
        sys.generate(&s, Orders::Distinct, &mut plays);
        let mut all = Vec::new();
        sys.generate(&s, Orders::All, &mut all);
        proptest::prop_assert!(plays.iter().all(|p| all.contains(p)));
        for play in &plays {
            let mut t = s;
            for st in play.steps() {
                sys.apply_step(&mut t, st);
            }
            sys.end_play(&mut t, play.steps());
            proptest::prop_assert!(sys.validate_state(&t).is_ok(), "{}", sys.format_play(&s, play));
            let text = sys.format_play(&s, play);
            proptest::prop_assert!(sys.parse_play(&s, &text).is_ok(), "{}", text);
        }
    }
}

#[test]
fn arbitrary_states_are_often_valid() {
    // Guards the property above against testing nothing: run it here and count.
    prop_arbitrary_valid_states_generate_applicable_plays();
    let n = VALID_STATES.load(std::sync::atomic::Ordering::Relaxed);
    assert!(n >= 30, "only {n} valid random states");
}

/// Move text that is not in the notation is an `InvalidNotation` error; well-formed text that
/// names no legal play is `IllegalMove` (as in the other presets).
#[test]
fn unparseable_move_text_is_invalid_notation() {
    let mut g = Game::from_preset("pachisi-family", 1).unwrap();
    while g.node() != Node::Decision {
        g.roll().unwrap();
    }
    for text in ["", "zz top", "(", "0:n-", "0-1", "a:1-2", "0:1-2(3)"] {
        let e = g.play_notation(text).unwrap_err();
        assert!(matches!(e, Error::InvalidNotation(_)), "{text:?}: {e}");
    }
    for text in ["0:80-81", "3:n-1 2:x-h*", "0:5-9(2)*"] {
        let e = g.play_notation(text).unwrap_err();
        assert!(matches!(e, Error::IllegalMove(_)), "{text:?}: {e}");
    }
    let first = g.legal_plays()[0];
    let text = g.format_play(&first);
    g.play_notation(&text).unwrap();
}
