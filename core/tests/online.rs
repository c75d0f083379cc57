//! Online Pachisi (`pachisi-online` preset): a test per clause (ONL-n) and decision (O-x), each
//! switch on and off, bad input, and property tests. Scenario files:
//! `tests/scenarios/pachisi-online/`.

mod parcheesi_common;

use pachisi::{Error, Game, Roll, Rules, StepKind};
use parcheesi_common::*;
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeSet;

const O: &str = "pachisi-online";

fn rules(opts: serde_json::Value) -> Rules {
    Rules::with_options(O, &opts).unwrap()
}

fn rolled(opts: serde_json::Value, pos: &str, dice: [u8; 2]) -> Game {
    let mut g = Game::from_position(&rules(opts), pos, 1).unwrap();
    g.set_roll(Roll::Dice(dice)).unwrap();
    g
}

const EMPTY: &str = "0:0,0,0,0 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0";

// ---------------------------------------------------------------- scenario files, by clause

#[test]
fn o_a_doubles_top_faces_only() {
    run_scenario(O, "o-a-doubles-top-faces-only");
}
#[test]
fn o_b_five_as_a_total() {
    run_scenario(O, "o-b-five-as-a-total");
}
#[test]
fn onl_2_no_five_turn_lost() {
    run_scenario(O, "onl-2-no-five-turn-lost");
}
#[test]
fn onl_5_capture_on_bonus_10() {
    run_scenario(O, "onl-5-capture-bonus-10");
}
#[test]
fn onl_5_capture_off_pieces_share() {
    run_scenario(O, "onl-5-capture-off-pieces-share");
}
#[test]
fn onl_6_blocking_on() {
    run_scenario(O, "onl-6-blockade-stops-its-owner");
}
#[test]
fn onl_6_blocking_off() {
    run_scenario(O, "onl-6-blocking-off-no-doubling-up");
}
#[test]
fn onl_7_safe_squares_on() {
    run_scenario(O, "onl-7-safe-square-on");
}
#[test]
fn onl_7_safe_squares_off() {
    run_scenario(O, "onl-7-safe-square-off");
}
#[test]
fn onl_4_pair_punishment_on() {
    run_scenario(O, "onl-4-pair-punishment");
}
#[test]
fn onl_4_pair_punishment_off() {
    run_scenario(O, "onl-4-pair-punishment-off");
}
#[test]
fn o_f_pass_allowed_on() {
    run_scenario(O, "o-f-pass-allowed");
}
#[test]
fn o_f_exact_count_no_going_round() {
    run_scenario(O, "o-f-exact-count-home");
}

// ---------------------------------------------------------------- more clauses, in Rust

/// ONL-1: 2 to 4 seats; the preset is the Parcheesi board with online defaults.
#[test]
fn onl_1_seats_and_preset() {
    let r = Rules::preset(O).unwrap();
    let o = r.options();
    assert_eq!(o["capture_bonus"], 10);
    assert_eq!(o["home_bonus"], 0);
    assert_eq!(o["doubles_bottom_faces"], false);
    assert_eq!(o["go_round_again"], false);
    assert_eq!(o["pass_allowed"], false);
    assert_eq!(o["capture"], true);
    assert_eq!(o["blockades"], true);
    assert_eq!(o["safe_squares"], true);
    assert_eq!(o["third_doubles_penalty"], true);
    for seats in 2..=4 {
        assert!(Rules::with_options(O, &json!({"seats": seats})).is_ok());
    }
    assert!(matches!(
        Rules::with_options(O, &json!({"seats": 5})),
        Err(Error::InvalidRules(_))
    ));
}

/// ONL-1: the first seat with all four pieces home wins.
#[test]
fn onl_1_first_home_wins() {
    let mut g = rolled(
        json!({}),
        "0:0,0,0,0 1:0,71,72,72 2:0,0,0,0 3:0,0,0,0 turn:1 doubles:0",
        [1, 6],
    );
    assert_eq!(notations(&g), set(&["1:71-72"]));
    g.play_notation("1:71-72").unwrap();
    assert!(!g.is_over(), "one piece is still in the start area");
    let mut g = rolled(
        json!({}),
        "0:0,0,0,0 1:71,72,72,72 2:0,0,0,0 3:0,0,0,0 turn:1 doubles:0",
        [1, 6],
    );
    g.play_notation("1:71-72").unwrap();
    assert!(g.is_over());
    assert_eq!(g.winner(), Some(1));
}

/// ONL-3 / O-A: each die moves a piece, or one piece takes both.
#[test]
fn onl_3_dice_split_between_pieces() {
    let g = rolled(
        json!({}),
        "0:0,0,10,30 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0",
        [6, 2],
    );
    assert_eq!(
        notations(&g),
        set(&[
            "6:10-16 2:16-18",
            "6:10-16 2:30-32",
            "6:30-36 2:10-12",
            "6:30-36 2:36-38"
        ])
    );
}

/// O-A / ONL-4: doubles give another roll, also with every piece in the start area.
#[test]
fn o_a_doubles_roll_again_from_the_start_area() {
    let g = rolled(json!({}), EMPTY, [3, 3]);
    assert!(g.is_chance_node());
    assert_eq!(g.to_move(), 0);
    let g = rolled(
        json!({"doubles_extra_roll": false, "third_doubles_penalty": false}),
        EMPTY,
        [3, 3],
    );
    assert_eq!(g.to_move(), 1);
}

/// O-B: 5-5 enters two; a total of five may be switched off.
#[test]
fn o_b_double_five_and_sum_switch() {
    let g = rolled(json!({}), EMPTY, [5, 5]);
    assert_eq!(notations(&g), set(&["enter enter", "enter 5:1-6"]));
    let g = rolled(json!({"enter_with_sum": false}), EMPTY, [1, 4]);
    assert!(g.is_chance_node(), "no die shows five: the turn is lost");
}

/// O-C: the capture bonus is played whole by one piece, after the dice, or lost.
#[test]
fn o_c_bonus_whole_or_lost() {
    // The capturing piece ends on 71 of its home path: 10 cannot be played by it, and no
    // other piece is out: the bonus is lost.
    let pos = "0:0,0,0,60 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0";
    let g = rolled(json!({}), pos, [6, 5]);
    for p in g.legal_plays() {
        assert!(p.steps().iter().all(|s| s.kind != StepKind::Bonus));
    }
    // With capture off no bonus ever arises (the 10 is ignored).
    let pos = "0:0,0,0,10 1:0,0,0,0 2:0,0,0,0 3:0,0,0,33 turn:0 doubles:0";
    let g = rolled(json!({"capture": false}), pos, [6, 3]);
    assert_eq!(notations(&g), set(&["6:10-16 3:16-19"]));
}

/// O-D: blocking on: no opponent lands on a blockade (even entering); no third own piece.
#[test]
fn o_d_blocking_on_closes_the_square() {
    // Seat 3 has a blockade on seat 0's entry square.
    let g = rolled(
        json!({}),
        "0:0,0,0,0 1:0,0,0,0 2:0,0,0,0 3:0,0,18,18 turn:0 doubles:0",
        [5, 2],
    );
    assert!(g.is_chance_node());
    // Blocking off: the same two pieces cannot stand together, so no blockade exists.
    let r = rules(json!({"blockades": false}));
    assert!(matches!(
        Game::from_position(
            &r,
            "0:0,0,0,0 1:0,0,0,0 2:0,0,0,0 3:0,0,18,18 turn:0 doubles:0",
            0
        ),
        Err(Error::InvalidPosition(_))
    ));
}

/// O-D: blocking off: not even entering onto a square the seat's own piece holds.
#[test]
fn o_d_blocking_off_entering() {
    let pos = "0:0,0,0,1 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0";
    let off = rolled(json!({"blockades": false}), pos, [5, 2]);
    assert_eq!(notations(&off), set(&["5:1-6 2:6-8", "2:1-3 enter"]));
    let on = rolled(json!({}), pos, [5, 2]);
    assert_eq!(notations(&on), set(&["enter 2:1-3", "5:1-6 2:6-8"]));
}

/// O-D: capture off: several seats may share a square, and a piece may stop there.
#[test]
fn o_d_capture_off_sharing_positions_are_valid() {
    let r = rules(json!({"capture": false}));
    let g = Game::from_position(
        &r,
        "0:0,0,0,16 1:0,0,0,0 2:0,0,0,0 3:0,0,0,33 turn:0 doubles:0",
        0,
    );
    assert!(g.is_ok());
    let r = rules(json!({}));
    let g = Game::from_position(
        &r,
        "0:0,0,0,16 1:0,0,0,0 2:0,0,0,0 3:0,0,0,33 turn:0 doubles:0",
        0,
    );
    assert!(matches!(g, Err(Error::InvalidPosition(_))));
}

/// O-E: an entering piece captures a single opponent on its own entry square (safe squares
/// on); the same square reached by moving stays closed.
#[test]
fn o_e_entry_capture() {
    let pos = "0:0,0,0,0 1:0,0,0,0 2:0,0,0,0 3:0,0,0,18 turn:0 doubles:0";
    let g = rolled(json!({}), pos, [5, 1]);
    assert_eq!(notations(&g), set(&["enter* 1:1-2 +10:2-12"]));
    let g = rolled(json!({"entry_capture": false}), pos, [5, 1]);
    assert!(g.is_chance_node());
}

/// O-F: pass off: the most dice, then the most pips (the higher die when only one fits).
#[test]
fn o_f_pass_off_forfeits_the_lower() {
    let pos = "0:0,0,0,66 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0";
    let g = rolled(json!({}), pos, [6, 3]);
    assert_eq!(notations(&g), set(&["6:66-72"]));
    let g = rolled(json!({"pass_allowed": true}), pos, [6, 3]);
    assert_eq!(notations(&g), set(&["pass", "6:66-72", "3:66-69"]));
}

/// O-F: pass allowed lets a player give up the whole roll or a die (the empty play is
/// listed), not a bonus the dice played earn (O-C, P-C: a bonus is played when it can be).
#[test]
fn o_f_pass_allowed_lists_the_empty_play_but_no_skipped_bonus() {
    let pos = "0:0,0,0,10 1:0,0,0,0 2:0,0,0,0 3:0,0,0,33 turn:0 doubles:0";
    let mut g = rolled(json!({"pass_allowed": true}), pos, [6, 3]);
    let plays = notations(&g);
    assert!(plays.contains("pass"));
    assert!(plays.contains("6:10-16* 3:16-19 +10:19-29"));
    // The 3 given up, the capture's bonus still played (at once: the dice are over).
    assert!(plays.contains("6:10-16* +10:16-26"), "{plays:?}");
    assert!(!plays.contains("6:10-16*"), "{plays:?}");
    assert!(!plays.contains("6:10-16* 3:16-19"), "{plays:?}");
    assert!(plays.contains("3:10-13"), "{plays:?}");
    g.play_notation("pass").unwrap();
    assert_eq!(
        g.position(),
        "0:0,0,0,10 1:0,0,0,0 2:0,0,0,0 3:0,0,0,33 turn:1 doubles:0"
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_options_and_notation() {
    for o in [
        json!({"blocking": true}),
        json!({"blockades": false, "blockade_turn_limit": 3}),
        json!({"pass_allowed": 1}),
        json!({"third_doubles_penalty": true, "doubles_extra_roll": false}),
    ] {
        let e = Rules::with_options(O, &o).unwrap_err();
        assert!(matches!(e, Error::InvalidRules(_)), "{o}: {e:?}");
    }
    let r = Rules::preset(O).unwrap();
    // Going round does not exist in Online Pachisi.
    assert!(matches!(
        Game::from_position(
            &r,
            "0:0,0,0,80 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0",
            0
        ),
        Err(Error::InvalidPosition(_))
    ));
    assert!(matches!(
        Game::from_position(&r, "0:0,0,0,0 1:0,0,0,0 turn:0 doubles:0", 0),
        Err(Error::InvalidNotation(_))
    ));
    let mut g = rolled(
        json!({}),
        "0:0,0,10,30 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0",
        [6, 2],
    );
    let before = g.to_json();
    assert!(g.play_notation("pass").is_err());
    assert!(g.play_notation("6:10-16").is_err());
    assert_eq!(g.to_json(), before);
}

// ---------------------------------------------------------------- random games

#[test]
fn random_games_finish_with_every_switch() {
    for (i, opts) in [
        json!({}),
        json!({"capture": false}),
        json!({"blockades": false}),
        json!({"safe_squares": false}),
        json!({"third_doubles_penalty": false}),
        json!({"pass_allowed": true}),
        json!({"seats": 2}),
        json!({"seats": 3, "capture": false, "blockades": false}),
    ]
    .into_iter()
    .enumerate()
    {
        let r = rules(opts.clone());
        let recs = pachisi::sim::simulate(&r, 10, i as u64, Some(1)).unwrap();
        let seats = r.options()["seats"].as_u64().unwrap() as u8;
        assert!(recs.iter().all(|x| x.winner < seats), "{opts}: {recs:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_online_games_keep_the_rules(
        seed in any::<u64>(),
        capture in any::<bool>(),
        blockades in any::<bool>(),
        safe in any::<bool>(),
        pass in any::<bool>(),
    ) {
        let r = rules(json!({
            "capture": capture,
            "blockades": blockades,
            "safe_squares": safe,
            "pass_allowed": pass,
        }));
        let g = random_game_checked(&r, seed, 50, true);
        let back = Game::from_json(&g.to_json()).unwrap();
        prop_assert_eq!(back.to_json(), g.to_json());
    }
}

/// PAR-10 local rule with P-H: the third doubles send one piece of an aged blockade back, and the
/// piece left alone loses the blockade's age, so a blockade it forms later starts at age 1 and
/// need not open on the next roll (the age used to stay with the lone piece and pass on).
#[test]
fn par_10_penalty_leaves_a_lone_piece_without_age() {
    let r = rules(json!({"blockade_turn_limit": 2}));
    let pos = "0:40,40,36,20 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:2 age0:1,1,0,0";
    let mut g = Game::from_position(&r, pos, 1).unwrap();
    g.set_roll(Roll::Dice([3, 3])).unwrap();
    assert_eq!(g.to_move(), 1, "the third doubles end the turn (P-H)");
    assert!(
        !g.position().contains("age0"),
        "no age left: {}",
        g.position()
    );
    for _ in 0..3 {
        g.set_roll(Roll::Dice([1, 2])).unwrap();
    }
    g.set_roll(Roll::Dice([3, 1])).unwrap();
    g.play_notation("3:36-39 1:39-40").unwrap();
    // The new blockade on 40 is one play old.
    assert!(g.position().contains("age0:0,0,1,1"), "{}", g.position());
    for _ in 0..3 {
        g.set_roll(Roll::Dice([1, 2])).unwrap();
    }
    g.set_roll(Roll::Dice([6, 1])).unwrap();
    assert!(
        notations(&g).contains("6:20-26 1:26-27"),
        "{:?}",
        notations(&g)
    );
}

/// O-F with the PAR-10 local rule: a blockade that must be opened is opened also when passing
/// is allowed; the pass and the plays that keep it are dropped while some play opens it.
#[test]
fn o_f_pass_allowed_yields_to_the_blockade_turn_limit() {
    let opts = json!({"seats": 2, "pass_allowed": true, "blockade_turn_limit": 2});
    let pos = "0:10,10,30,0 1:0,0,0,0 turn:0 doubles:0";
    let fresh = notations(&rolled(
        opts.clone(),
        &format!("{pos} age0:1,1,0,0"),
        [6, 1],
    ));
    assert!(
        fresh.contains("pass") && fresh.contains("6:30-36"),
        "{fresh:?}"
    );
    let old = notations(&rolled(opts, &format!("{pos} age0:2,2,0,0"), [6, 1]));
    assert!(!old.contains("pass") && !old.contains("6:30-36"), "{old:?}");
    assert!(old.contains("1:10-11"), "{old:?}");
}

/// Plays are listed once per resulting position also when they leave different bonuses unplayed:
/// here `5:48-53* 1:53-54 +10:54-64*` (the bonus captures, earning nothing more without
/// chaining) and `5:48-53* 1:63-64* +10:53-63` (two captures, one 10 unplayable) reach one
/// position with one score (`bonus_obligation: "most-bonuses"`). The second used to be listed too.
#[test]
fn plays_leaving_different_bonuses_unplayed_are_one_play() {
    let pos = "0:1,2,63,72 1:0,48,63,72 2:0,0,47,48 turn:1 doubles:0";
    for opts in [
        json!({"seats": 3, "bonus_obligation": "most-bonuses", "bonuses_chain": false,
               "capture_bonus": 10, "max_pieces_per_square": 3, "blockades": false,
               "blockade_no_joint_move": false, "safe_squares": false}),
        json!({"seats": 3, "bonus_obligation": "most-bonuses", "bonuses_chain": false,
               "capture_bonus": 10, "safe_squares": false}),
    ] {
        let g = rolled(opts.clone(), pos, [5, 1]);
        let mut results = BTreeSet::new();
        for p in g.legal_plays() {
            let mut h = g.clone();
            h.play(&p).unwrap();
            assert!(
                results.insert(h.position()),
                "{opts}: {} listed twice",
                h.position()
            );
        }
        assert!(!results.is_empty());
    }
}

/// `blockade_turn_limit`: an age belongs to a blockade, so a position with an aged piece alone on
/// its square cannot arise and is refused (the rules clear the age of a piece left alone).
#[test]
fn a_lone_piece_with_a_blockade_age_is_refused() {
    let r = rules(json!({"blockade_turn_limit": 3}));
    let lone = "0:11,72,72,72 1:0,35,44,72 2:0,8,14,72 3:0,0,0,0 turn:1 doubles:0 age1:0,0,1,0";
    match Game::from_position(&r, lone, 1) {
        Err(Error::InvalidPosition(m)) => assert!(m.contains("not in a blockade"), "{m}"),
        other => panic!("{other:?}"),
    }
    let pair = "0:11,72,72,72 1:0,44,44,72 2:0,8,14,72 3:0,0,0,0 turn:1 doubles:0 age1:0,1,1,0";
    Game::from_position(&r, pair, 1).unwrap();
}
