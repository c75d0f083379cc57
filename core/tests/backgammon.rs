//! Backgammon: the seed's acceptance positions (BG-1..BG-6), hand-made edge cases, the cube,
//! position formats, bad input, and property tests.

use pachisi::backgammon::{
    BAR, BackgammonRules, BackgammonSystem, BgState, CUBE_CENTRED, OFF, Phase, from_gnubg_id,
    from_position_id, from_xgid, gnubg_id, match_id, position_id, xgid,
};
use pachisi::{
    Error, Game, GameOf, Node, Orders, Play, Roll, RuleSystem, Rules, StepKind, SystemRules,
};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

fn system() -> BackgammonSystem {
    BackgammonRules::standard().build().unwrap()
}

fn cube_system() -> BackgammonSystem {
    BackgammonRules {
        cube: true,
        ..BackgammonRules::standard()
    }
    .build()
    .unwrap()
}

/// A position with seat 0 (White) to roll. `white` is in White's numbering (25 = bar);
/// `black` is given in WHITE's numbering too, as the seed describes it (0 = Black's bar).
fn pos(white: &[(usize, u8)], black: &[(usize, u8)]) -> BgState {
    let mut s = BgState::start(Phase::Roll);
    s.checkers = [[0; 26]; 2];
    for &(p, n) in white {
        s.checkers[0][p] += n;
    }
    for &(p, n) in black {
        let own = if p == 0 { BAR } else { 25 - p };
        s.checkers[1][own] += n;
    }
    for side in s.checkers.iter_mut() {
        let on_board: u8 = side[1..].iter().sum();
        side[OFF] = 15 - on_board;
    }
    system().validate_state(&s).unwrap();
    s
}

fn game_at(sys: BackgammonSystem, s: BgState) -> GameOf<BackgammonSystem> {
    let rules = Rules::preset("backgammon").unwrap();
    GameOf::from_state(sys, rules, s, 1).unwrap()
}

/// The notations of the legal plays after `roll`.
fn plays_after(s: BgState, roll: [u8; 2]) -> BTreeSet<String> {
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice(roll)).unwrap();
    g.legal_plays().iter().map(|p| g.format_play(p)).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// The seed's acceptance positions: White has one checker on 8 and 14 off; Black holds the
// named points with two checkers each and has the rest on White's 24 point.

#[test]
fn seed_3_2_only_point_5_closed_lower_die_first() {
    // BG-2, BG-3: 8/5 is closed, so 8/6 then 6/3 uses both dice.
    let s = pos(&[(8, 1)], &[(5, 2), (24, 13)]);
    assert_eq!(plays_after(s, [3, 2]), set(&["8/3"]));
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([3, 2])).unwrap();
    let play = g.legal_plays()[0];
    assert_eq!(
        play.steps()
            .iter()
            .map(|s| (s.from, s.to, s.value))
            .collect::<Vec<_>>(),
        vec![(8, 6, 2), (6, 3, 3)]
    );
}

#[test]
fn seed_3_2_points_5_and_6_closed_no_move() {
    // BG-3: both intermediate landings closed; no direct 8/3 jump; the roll is lost.
    let s = pos(&[(8, 1)], &[(5, 2), (6, 2), (24, 11)]);
    assert!(plays_after(s, [3, 2]).is_empty());
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([3, 2])).unwrap();
    assert_eq!(g.to_move(), 1, "the forfeited roll passes the turn");
    assert_eq!(g.state().checkers[0][8], 1);
}

#[test]
fn seed_3_2_only_point_3_closed_play_the_higher() {
    // BG-1: each die alone, not both: the higher (3) must be played.
    let s = pos(&[(8, 1)], &[(3, 2), (24, 13)]);
    assert_eq!(plays_after(s, [3, 2]), set(&["8/5"]));
    assert_eq!(plays_after(s, [2, 3]), set(&["8/5"]));
}

#[test]
fn seed_5_3_bear_off_must_use_both_dice() {
    // BG-4: 5/off would leave the 3 unplayable; 5/2 4/off uses both.
    let s = pos(&[(5, 1), (4, 1)], &[(1, 2), (24, 13)]);
    assert_eq!(plays_after(s, [5, 3]), set(&["5/2 4/off"]));
}

#[test]
fn seed_2_2_play_as_many_as_possible() {
    // BG-5: 8/6 6/4, the third two lands on the closed 2; no combining into a four.
    let s = pos(&[(8, 1)], &[(2, 2), (24, 13)]);
    assert_eq!(plays_after(s, [2, 2]), set(&["8/4"]));
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([2, 2])).unwrap();
    assert_eq!(g.legal_plays()[0].len(), 2);
}

#[test]
fn seed_3_3_from_the_start_allows_8_5_2_6_3_2() {
    // BG-5: the seed's 3-3 example is one of the legal plays from the start.
    let s = BgState::start(Phase::Roll);
    let plays = plays_after(s, [3, 3]);
    assert!(plays.contains("8/5(2) 6/3(2)"), "{plays:?}");
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([3, 3])).unwrap();
    g.play_notation("6/3(2) 8/5(2)").unwrap();
    assert_eq!(g.state().checkers[0][5], 2);
    assert_eq!(g.state().checkers[0][3], 2);
}

// ---------------------------------------------------------------------------------------------
// Hand-made cases.

#[test]
fn bar_must_enter_first() {
    // BG-6: with a checker on the bar only entering is allowed first.
    let mut s = BgState::start(Phase::Roll);
    s.checkers[0][6] -= 1;
    s.checkers[0][BAR] = 1;
    let plays = plays_after(s, [6, 1]);
    for p in &plays {
        assert!(p.starts_with("bar/"), "{p}");
    }
    // Black's 6 point (White's 19) is closed: bar/19 is impossible, so bar/24 then a six.
    assert!(plays.iter().all(|p| !p.contains("bar/19")));
    assert!(
        plays.contains("bar/24 13/7") || plays.contains("bar/18"),
        "{plays:?}"
    );
}

#[test]
fn bar_with_doubles_partial_entry() {
    // Two on the bar, 4-4, only White's 21 open: both enter, two more fours elsewhere.
    let s = pos(
        &[(25, 2), (13, 5), (6, 5), (8, 3)],
        &[(19, 2), (20, 2), (22, 2), (23, 2), (24, 2), (1, 5)],
    );
    let plays = plays_after(s, [4, 4]);
    assert!(!plays.is_empty());
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([4, 4])).unwrap();
    for p in g.legal_plays() {
        assert_eq!(p.len(), 4);
        assert_eq!(p.steps()[0].kind, StepKind::Enter);
        assert_eq!(p.steps()[1].kind, StepKind::Enter);
        assert_eq!(p.steps()[0].to, 21);
    }
    // Two on the bar and only one entry point for one die: the other die is lost while a
    // checker remains on the bar (BG-6).
    let s = pos(
        &[(25, 2), (13, 5), (6, 5), (8, 3)],
        &[(19, 2), (20, 2), (21, 2), (23, 2), (24, 2), (1, 5)],
    );
    assert_eq!(plays_after(s, [3, 6]), set(&["bar/22"]));
    // Closed board: nothing enters, the roll is lost.
    let s = pos(
        &[(25, 1), (13, 5), (6, 6), (8, 3)],
        &[(19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (24, 2), (1, 3)],
    );
    assert!(plays_after(s, [6, 6]).is_empty());
}

#[test]
fn bear_off_edge_cases() {
    // A higher die bears off from the highest point only.
    let s = pos(&[(3, 1), (1, 1)], &[(24, 15)]);
    assert_eq!(plays_after(s, [6, 5]), set(&["3/off 1/off"]));
    // The lower die cannot bear off from a higher point; it moves inside.
    let s = pos(&[(6, 1), (2, 1)], &[(24, 15)]);
    // Every order leads to 6/1 (2/off with the four is blocked by the checker on 6).
    assert_eq!(plays_after(s, [4, 1]), set(&["6/1"]));
    // No bearing off while a checker is outside the home board.
    let s = pos(&[(7, 1), (1, 1)], &[(24, 15)]);
    let plays = plays_after(s, [6, 1]);
    assert!(
        plays.contains("7/1 1/off") || plays.contains("7/6 1/off") || plays.contains("7/off"),
        "{plays:?}"
    );
    assert!(
        plays
            .iter()
            .all(|p| !p.contains("7/1 ") || p.contains("off"))
    );
    // 7/6 brings the last checker home, then the six bears off from 6 (7/off).
    assert!(plays.contains("7/off"), "{plays:?}");
    // Exact bear-off with doubles, four checkers off.
    let s = pos(&[(2, 4)], &[(24, 15)]);
    assert_eq!(plays_after(s, [2, 2]), set(&["2/off(4)"]));
}

#[test]
fn bear_off_lower_die_only_when_higher_blocked() {
    // Checkers on 6 and 5; roll 6-1 with White's 4 and 5... both dice: 6/off then 5/4 or
    // 6/5 then 5/off... every play uses both dice.
    let s = pos(&[(6, 1), (5, 1)], &[(24, 15)]);
    let plays = plays_after(s, [6, 1]);
    assert!(plays.contains("6/off 5/4"), "{plays:?}");
    assert!(plays.contains("6/5 5/off") || plays.contains("6/off 5/4"));
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([6, 1])).unwrap();
    assert!(g.legal_plays().iter().all(|p| p.len() == 2));
}

#[test]
fn hit_on_intermediate_landing() {
    // 6-5 from 24: the blot on 18 can be hit on the way to 13 (24/18*/13), or not (24/19/13
    // written 24/13); both are legal and distinct.
    let s = pos(
        &[(24, 2), (13, 5), (8, 3), (6, 5)],
        &[(18, 1), (12, 5), (1, 9)],
    );
    let plays = plays_after(s, [6, 5]);
    assert!(plays.contains("24/18*/13"), "{plays:?}");
    assert!(plays.contains("24/13"), "{plays:?}");
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([6, 5])).unwrap();
    let hit = g.parse_play("24/18* 18/13").unwrap();
    assert_eq!(hit.captures(), 1);
    let quiet = g.parse_play("24/13").unwrap();
    assert_eq!(quiet.captures(), 0);
    assert_eq!(g.parse_play("24/19 19/13").unwrap(), quiet);
    // Naming the blot's point as a landing means hitting it, star or not.
    assert_eq!(g.parse_play("24/18/13").unwrap(), hit);
    assert_eq!(g.parse_play("24/19/13").unwrap(), quiet);
    g.play(&hit).unwrap();
    assert_eq!(g.state().checkers[1][BAR], 1);
}

#[test]
fn blocked_intermediate_point_with_doubles() {
    // 3-3 from 10: 7 closed stops the checker; others play the threes.
    let s = pos(&[(10, 1), (6, 14)], &[(7, 2), (24, 13)]);
    let plays = plays_after(s, [3, 3]);
    assert!(plays.iter().all(|p| !p.contains("10/")), "{plays:?}");
    assert!(plays.contains("6/3(4)"), "{plays:?}");
}

#[test]
fn notation_forms_resolve_to_the_same_play() {
    let s = BgState::start(Phase::Roll);
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([6, 5])).unwrap();
    let a = g.parse_play("24/13").unwrap();
    let b = g.parse_play("24/18/13").unwrap();
    let c = g.parse_play("24/18 18/13").unwrap();
    let d = g.parse_play("18/13 24/18").unwrap_or(a);
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a, d);
    assert_eq!(g.format_play(&a), "24/13");
    let e = g.parse_play("13/7 13/8").unwrap();
    assert_eq!(g.format_play(&e), "13/8 13/7");
    g.set_roll(Roll::Dice([1, 1])).ok();
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([6, 6])).unwrap();
    let p = g.parse_play("24/18(2) 13/7(2)").unwrap();
    assert_eq!(g.format_play(&p), "24/18(2) 13/7(2)");
    assert_eq!(g.parse_play("13/7 24/18 13/7 24/18").unwrap(), p);
    assert_eq!(
        g.parse_play("25/19").map(|_| ()),
        Err(g.parse_play("25/19").unwrap_err())
    );
    assert!(matches!(g.parse_play("24/17"), Err(Error::IllegalMove(_))));
    assert!(matches!(
        g.parse_play("24-18"),
        Err(Error::InvalidNotation(_))
    ));
    assert!(matches!(
        g.parse_play("18/24"),
        Err(Error::InvalidNotation(_))
    ));
    assert!(matches!(
        g.parse_play("13/7(9)"),
        Err(Error::InvalidNotation(_))
    ));
    assert!(matches!(g.parse_play(""), Err(Error::InvalidNotation(_))));
}

#[test]
fn bar_and_off_notation() {
    let s = pos(&[(25, 1), (3, 14)], &[(24, 15)]);
    let mut g = game_at(system(), s);
    g.set_roll(Roll::Dice([3, 2])).unwrap();
    let plays: BTreeSet<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    // The entered checker is outside the home board: no bearing off this turn.
    assert_eq!(plays, set(&["bar/20", "bar/22 3/1"]));
    assert_eq!(
        g.parse_play("25/22 22/20").unwrap(),
        g.parse_play("bar/20").unwrap()
    );
}

#[test]
fn opening_roll() {
    let rules = Rules::preset("backgammon").unwrap();
    let mut g = Game::new(&rules, 3);
    let outcomes = g.chance_outcomes();
    assert_eq!(outcomes.len(), 30);
    assert!(outcomes.iter().all(|o| !o.roll.is_doubles()));
    assert!((outcomes.iter().map(|o| o.probability).sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(matches!(
        g.set_roll(Roll::Dice([4, 4])),
        Err(Error::InvalidRoll(_))
    ));
    assert!(matches!(
        g.set_roll(Roll::Dice([7, 1])),
        Err(Error::InvalidRoll(_))
    ));
    // Seat 1 throws the higher die: it starts and plays 2 and 5.
    g.set_roll(Roll::Dice([2, 5])).unwrap();
    assert_eq!(g.to_move(), 1);
    let plays: BTreeSet<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    assert!(plays.contains("13/11 13/8"), "{plays:?}");
    g.play_notation("13/8 13/11").unwrap();
    assert_eq!(g.to_move(), 0);
    assert!(g.is_chance_node());
    assert_eq!(g.chance_outcomes().len(), 21);
    // Random opening rolls are never ties.
    for seed in 0..50 {
        let mut g = Game::new(&rules, seed);
        let r = g.roll().unwrap();
        assert!(!r.is_doubles());
    }
    // Plain first roll: seat 0 rolls two dice, doubles allowed.
    let plain =
        Rules::with_options("backgammon", &serde_json::json!({"first_roll": "plain"})).unwrap();
    let mut g = Game::new(&plain, 3);
    assert_eq!(g.to_move(), 0);
    assert_eq!(g.chance_outcomes().len(), 21);
    g.set_roll(Roll::Dice([4, 4])).unwrap();
    assert_eq!(g.to_move(), 0);
}

#[test]
fn gammon_and_backgammon_scoring() {
    let sys = system();
    // White bears off its last checker; Black has none off: gammon (2).
    let s = pos(&[(1, 1)], &[(12, 15)]);
    let mut g = game_at(sys.clone(), s);
    g.set_roll(Roll::Dice([2, 1])).unwrap();
    g.play_notation("1/off").unwrap();
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().points, 2);
    assert_eq!(g.winner(), Some(0));
    // Black still has a checker in White's home board: backgammon (3).
    let s = pos(&[(1, 1)], &[(3, 1), (12, 14)]);
    let mut g = game_at(sys.clone(), s);
    g.set_roll(Roll::Dice([2, 1])).unwrap();
    g.play_notation("1/off").unwrap();
    assert_eq!(g.outcome().unwrap().points, 3);
    // On the bar: backgammon too.
    let s = pos(&[(1, 1)], &[(0, 1), (12, 14)]);
    let mut g = game_at(sys.clone(), s);
    g.set_roll(Roll::Dice([2, 1])).unwrap();
    g.play_notation("1/off").unwrap();
    assert_eq!(g.outcome().unwrap().points, 3);
    // Black has borne off one: single game.
    let mut s = pos(&[(1, 1)], &[(12, 14)]);
    assert_eq!(s.checkers[1][OFF], 1);
    s.phase = Phase::Roll;
    let mut g = game_at(sys, s);
    g.set_roll(Roll::Dice([2, 1])).unwrap();
    g.play_notation("1/off").unwrap();
    assert_eq!(g.outcome().unwrap().points, 1);
    assert_eq!(g.returns(), vec![1.0, -1.0]);
    // Gammons off: single.
    let r = BackgammonRules {
        gammons: false,
        backgammons: false,
        ..BackgammonRules::standard()
    };
    let mut g = game_at(r.build().unwrap(), pos(&[(1, 1)], &[(3, 1), (12, 14)]));
    g.set_roll(Roll::Dice([2, 1])).unwrap();
    g.play_notation("1/off").unwrap();
    assert_eq!(g.outcome().unwrap().points, 1);
}

#[test]
fn cube_flow() {
    let sys = cube_system();
    let rules = Rules::with_options("backgammon", &serde_json::json!({"cube": true})).unwrap();
    let mut g = Game::new(&rules, 5);
    // No cube decision before the opening move.
    g.set_roll(Roll::Dice([3, 1])).unwrap();
    assert_eq!(g.to_move(), 0);
    g.play_notation("8/5 6/5").unwrap();
    // Seat 1 may double or roll.
    assert_eq!(g.node(), Node::Decision);
    assert_eq!(g.to_move(), 1);
    let names: BTreeSet<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    assert_eq!(names, set(&["double", "roll"]));
    g.play_notation("double").unwrap();
    assert_eq!(g.to_move(), 0, "the opponent answers the double");
    let names: BTreeSet<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    assert_eq!(names, set(&["take", "drop"]));
    let pos_before = g.position();
    g.play_notation("take").unwrap();
    assert!(g.is_chance_node());
    assert_eq!(g.to_move(), 1);
    // Seat 0 owns the cube at 2.
    g.set_roll(Roll::Dice([6, 5])).unwrap();
    g.play_notation("24/13").unwrap();
    assert_eq!(g.to_move(), 0);
    let names: BTreeSet<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    assert_eq!(names, set(&["double", "roll"]));
    g.play_notation("roll").unwrap();
    assert!(g.is_chance_node());
    // The declined-double moment round-trips through the notation.
    let text = g.position();
    assert!(text.ends_with(":roll"), "{text}");
    assert_eq!(sys.parse_position(&text).unwrap().phase, Phase::Roll);
    // A drop ends the game for the cube's value before doubling.
    let mut g2 = Game::from_position(&rules, &pos_before, 1).unwrap();
    g2.play_notation("drop").unwrap();
    assert!(g2.is_over());
    assert_eq!(g2.outcome().unwrap().points, 1);
    assert_eq!(g2.winner(), Some(1));
    // Points are multiplied by the cube: a gammon with the cube at 4.
    let mut s = pos(&[(1, 1)], &[(12, 15)]);
    s.cube_log2 = 2;
    s.cube_owner = 0;
    s.phase = Phase::CubeAction;
    let mut g3 = game_at(sys.clone(), s);
    g3.play_notation("roll").unwrap();
    g3.set_roll(Roll::Dice([2, 1])).unwrap();
    g3.play_notation("1/off").unwrap();
    assert_eq!(g3.outcome().unwrap().points, 8);
    // The owner of the cube's opponent cannot double: straight to the roll.
    let mut s = pos(&[(6, 15)], &[(12, 15)]);
    s.cube_log2 = 1;
    s.cube_owner = 1;
    let g4 = game_at(sys.clone(), s);
    assert!(g4.is_chance_node());
    // Jacoby: a gammon counts single while the cube is centred.
    let jac = BackgammonRules {
        cube: true,
        jacoby: true,
        ..BackgammonRules::standard()
    }
    .build()
    .unwrap();
    let mut s = pos(&[(1, 1)], &[(12, 15)]);
    s.phase = Phase::CubeAction;
    let mut g5 = game_at(jac, s);
    g5.play_notation("roll").unwrap();
    g5.set_roll(Roll::Dice([2, 1])).unwrap();
    g5.play_notation("1/off").unwrap();
    assert_eq!(g5.outcome().unwrap().points, 1);
    // Max cube reached: no more doubling.
    let capped = BackgammonRules {
        cube: true,
        max_cube: 2,
        ..BackgammonRules::standard()
    }
    .build()
    .unwrap();
    let mut s = pos(&[(6, 15)], &[(12, 15)]);
    s.cube_log2 = 1;
    s.cube_owner = 0;
    assert!(!capped.may_double(&s));
}

#[test]
fn position_ids() {
    let start = BgState::start(Phase::Roll);
    assert_eq!(
        position_id(&start.checkers[0], &start.checkers[1]),
        "4HPwATDgc/ABMA"
    );
    let sys = system();
    let g = Game::new(&Rules::preset("backgammon").unwrap(), 0);
    let text = g.position();
    assert!(text.starts_with("4HPwATDgc/ABMA:"), "{text}");
    assert_eq!(sys.parse_position(&text).unwrap(), sys.initial_state());
    // A bare Position ID: seat 0 to roll.
    let s = sys.parse_position("4HPwATDgc/ABMA").unwrap();
    assert_eq!(s.phase, Phase::Roll);
    assert_eq!(s.checkers, start.checkers);
    // An XGID through parse_position.
    let s = sys
        .parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
        .unwrap();
    assert_eq!((s.phase, s.turn, s.dice), (Phase::Move, 0, [5, 2]));
    // XGID with the top side to play, a checker on each bar.
    let x = "XGID=aa----E-C---dD---c-e---AB-:1:1:-1:31:0:0:0:0:10";
    let s = from_xgid(x).unwrap();
    assert_eq!(s.turn, 1);
    assert_eq!(s.checkers[1][BAR], 1);
    assert_eq!(s.checkers[0][BAR], 0);
    assert_eq!(s.checkers[0][24], 2);
    assert_eq!(s.checkers[0][23], 1);
    assert_eq!(s.checkers[1][24], 1);
    assert_eq!((s.cube_log2, s.cube_owner), (1, 0));
    assert_eq!(from_xgid(&xgid(&s)).unwrap(), s);
}

#[test]
fn bad_position_input() {
    let sys = system();
    for bad in [
        "",
        "4HPwATDgc/ABM",
        "4HPwATDgc/ABMAA",
        "4HPwATDgc/AB?A",
        "//////////////",
        "4HPwATDgc/ABMA:cAkAAAAAAAA",
        "4HPwATDgc/ABMA:cAk!AAAAAAAA",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0",
        "XGID=-b----E-C---eE---c-e----B-:0:0:2:52:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:5:1:52:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e---BB-:0:0:1:52:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e---+B-:0:0:1:52:0:0:0:0:10",
        "XGID=Bb----E-C---eE---c-e---B--:0:0:1:52:0:0:0:0:10",
    ] {
        assert!(sys.parse_position(bad).is_err(), "accepted `{bad}`");
    }
    // Cube fields in a cubeless game are impossible positions.
    assert!(matches!(
        sys.parse_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:0:0:10"),
        Err(Error::InvalidPosition(_))
    ));
    // Typed errors for the ID readers.
    assert!(matches!(
        from_position_id("4HPwATDgc/AB"),
        Err(Error::InvalidNotation(_))
    ));
    assert!(matches!(
        from_position_id("/////////////w"),
        Err(Error::InvalidPosition(_))
    ));
    // Both sides on one point: seat on roll has 1 on its 24, opponent has 14 on its 1.
    let mut a = [0u8; 26];
    a[24] = 1;
    let mut b = [0u8; 26];
    b[1] = 14;
    let id = position_id(&a, &b);
    assert!(matches!(
        from_position_id(&id),
        Err(Error::InvalidPosition(_))
    ));
    assert!(from_gnubg_id("nonsense").is_err());
    // Unknown options and bad combinations.
    assert!(Rules::with_options("backgammon", &serde_json::json!({"cubes": true})).is_err());
    assert!(Rules::with_options("backgammon", &serde_json::json!({"max_cube": 48})).is_err());
    assert!(Rules::with_options("backgammon", &serde_json::json!({"first_roll": "x"})).is_err());
    assert!(
        Rules::with_options(
            "backgammon",
            &serde_json::json!({"gammons": false, "backgammons": true})
        )
        .is_err()
    );
    // Illegal moves leave the game unchanged.
    let mut g = Game::new(&Rules::preset("backgammon").unwrap(), 1);
    g.set_roll(Roll::Dice([3, 1])).unwrap();
    let before = g.position();
    assert!(g.play_notation("24/18").is_err());
    assert!(g.play_notation("double").is_err());
    assert_eq!(g.position(), before);
}

#[test]
fn board_pieces_and_places() {
    let sys = system();
    assert_eq!(sys.board(), pachisi::BoardKind::Backgammon);
    assert_eq!(sys.place(0, 24), pachisi::Place::Point { point: 24 });
    assert_eq!(sys.place(1, 24), pachisi::Place::Point { point: 1 });
    assert_eq!(sys.place(1, 25), pachisi::Place::Bar);
    assert_eq!(sys.place(0, 0), pachisi::Place::Off);
    let pieces = sys.pieces(&BgState::start(Phase::Roll));
    assert_eq!(pieces.iter().map(|p| p.count as u32).sum::<u32>(), 30);
    assert!(
        pieces
            .iter()
            .any(|p| p.seat == 1 && p.place == pachisi::Place::Point { point: 1 } && p.count == 2)
    );
}

#[test]
fn step_interface_walks_a_play() {
    let mut g = game_at(system(), BgState::start(Phase::Roll));
    g.set_roll(Roll::Dice([4, 2])).unwrap();
    let steps = g.legal_steps();
    let first = *steps.iter().find(|s| s.from == 8 && s.to == 4).unwrap();
    g.step(&first).unwrap();
    let next = g.legal_steps();
    assert!(next.iter().all(|s| s.value == 2));
    let second = *next.iter().find(|s| s.from == 6 && s.to == 4).unwrap();
    g.step(&second).unwrap();
    assert_eq!(g.to_move(), 1);
    assert_eq!(g.state().checkers[0][4], 2);
}

// ---------------------------------------------------------------------------------------------
// Property tests.

/// Plays a seeded random game for `turns` decisions and returns the states met at decisions.
fn random_states(seed: u64, turns: usize) -> Vec<BgState> {
    let rules = Rules::preset("backgammon").unwrap();
    let sys = system();
    let mut g = GameOf::new(sys, rules, seed);
    let mut out = Vec::new();
    let mut rng = pachisi::dice::rng_from_seed(seed ^ 0xABCD);
    for _ in 0..turns {
        if g.is_over() {
            break;
        }
        if g.is_chance_node() {
            g.roll().unwrap();
            continue;
        }
        out.push(*g.state());
        let plays = g.legal_plays();
        let i = pachisi::sim::uniform_index(&mut rng, plays.len());
        g.play(&plays[i]).unwrap();
    }
    out
}

fn result(sys: &BackgammonSystem, s: &BgState, p: &Play) -> BgState {
    let mut t = *s;
    for st in p.steps() {
        sys.apply_step(&mut t, st);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn generated_plays_are_sound(seed in any::<u64>()) {
        let sys = system();
        for s in random_states(seed, 250) {
            let mut distinct = Vec::new();
            sys.generate(&s, Orders::Distinct, &mut distinct);
            let mut all = Vec::new();
            sys.generate(&s, Orders::All, &mut all);
            // Distinct results, every one reachable by some ordering in All, and vice versa.
            let d: HashSet<BgState> = distinct.iter().map(|p| result(&sys, &s, p)).collect();
            prop_assert_eq!(d.len(), distinct.len());
            let a: HashSet<BgState> = all.iter().map(|p| result(&sys, &s, p)).collect();
            prop_assert_eq!(&d, &a);
            for p in &distinct {
                let r = result(&sys, &s, p);
                prop_assert_eq!(r.checkers[0].iter().map(|&c| c as u32).sum::<u32>(), 15);
                prop_assert_eq!(r.checkers[1].iter().map(|&c| c as u32).sum::<u32>(), 15);
                let mut fin = r;
                sys.end_play(&mut fin, p.steps());
                prop_assert!(sys.validate_state(&fin).is_ok());
                // The notation reads back to the same play.
                let text = sys.format_play(&s, p);
                prop_assert_eq!(sys.parse_play(&s, &text).unwrap(), *p, "{}", text);
            }
            // Every play uses the same number of dice.
            if let Some(first) = distinct.first() {
                prop_assert!(distinct.iter().all(|p| p.len() == first.len()));
            }
            // Positions round-trip through every notation.
            let text = sys.format_position(&s);
            prop_assert_eq!(sys.parse_position(&text).unwrap(), s);
            prop_assert_eq!(from_gnubg_id(&gnubg_id(&s)).unwrap(), s);
            prop_assert_eq!(from_xgid(&xgid(&s)).unwrap(), s);
            let json = serde_json::to_string(&s).unwrap();
            prop_assert_eq!(serde_json::from_str::<BgState>(&json).unwrap(), s);
        }
    }

    #[test]
    fn step_interface_reaches_exactly_the_plays(seed in any::<u64>()) {
        let sys = system();
        let rules = Rules::preset("backgammon").unwrap();
        for s in random_states(seed, 60).into_iter().step_by(7) {
            let g = GameOf::from_state(sys.clone(), rules.clone(), s, 0).unwrap();
            let want: HashSet<BgState> =
                g.legal_plays().iter().map(|p| result(&sys, &s, p)).collect();
            // Walk every step path depth-first.
            let mut reached = HashSet::new();
            let mut stack = vec![g];
            while let Some(g) = stack.pop() {
                if g.to_move() != s.turn || g.taken().is_empty() && g.state() != &s {
                    continue;
                }
                for st in g.legal_steps() {
                    let mut h = g.clone();
                    h.step(&st).unwrap();
                    if h.taken().is_empty() {
                        // The play ended by itself.
                        let mut r = s;
                        let (_, play) = h.last_play().unwrap();
                        for x in play.steps() { sys.apply_step(&mut r, x); }
                        reached.insert(r);
                    } else {
                        stack.push(h);
                    }
                }
            }
            prop_assert_eq!(reached, want);
        }
    }

    #[test]
    fn games_finish_and_json_round_trips(seed in any::<u64>()) {
        let rules = Rules::with_options("backgammon", &serde_json::json!({"cube": true})).unwrap();
        let mut g = Game::new(&rules, seed);
        let mut rng = pachisi::dice::rng_from_seed(seed);
        let mut n = 0;
        while !g.is_over() && n < 5000 {
            n += 1;
            if g.is_chance_node() { g.roll().unwrap(); continue; }
            // Cube states (decisions, a pending answer) round-trip through the notation.
            let again = Game::from_position(&rules, &g.position(), 0).unwrap();
            prop_assert_eq!(again.state_value(), g.state_value());
            let plays = g.legal_plays();
            // Mostly no doubling (one decision in eight is random), so games reach the end.
            let quiet = plays.iter().position(|p| {
                matches!(p.steps()[0].kind, StepKind::NoDouble | StepKind::Take)
            });
            let pick = match quiet {
                Some(q) if pachisi::sim::uniform_index(&mut rng, 8) != 0 => q,
                _ => pachisi::sim::uniform_index(&mut rng, plays.len()),
            };
            g.play(&plays[pick]).unwrap();
        }
        prop_assert!(g.is_over());
        let o = g.outcome().unwrap();
        // 1, 2 or 3 times the cube (a drop scores the cube's value).
        prop_assert!(o.points >= 1 && [1, 2, 3].iter().any(|m| o.points % m == 0));
        // The whole game (rules, position, generator, history) round-trips through JSON.
        let back = Game::from_json(&g.to_json()).unwrap();
        prop_assert_eq!(back.to_json(), g.to_json());
        prop_assert_eq!(back.position(), g.position());
        // Replaying the log reproduces the final position.
        let mut replay = Game::new(&rules, seed);
        for ev in g.log() {
            match ev {
                pachisi::Event::Roll { roll, .. } => replay.set_roll(roll).unwrap(),
                pachisi::Event::Play { play, .. } => replay.play(&play).unwrap(),
                _ => {}
            }
        }
        prop_assert_eq!(replay.position(), g.position());
    }
}

#[test]
fn simulation_finishes_games() {
    let rules = Rules::preset("backgammon").unwrap();
    let recs = pachisi::sim::simulate(&rules, 200, 11, Some(1)).unwrap();
    assert!(
        recs.iter()
            .all(|r| r.winner < 2 && (1..=3).contains(&r.points))
    );
    let cube = Rules::with_options("backgammon", &serde_json::json!({"cube": true})).unwrap();
    let recs = pachisi::sim::simulate(&cube, 100, 11, Some(1)).unwrap();
    assert!(recs.iter().all(|r| r.winner < 2));
}

#[test]
fn centred_constant_is_two() {
    assert_eq!(CUBE_CENTRED, 2);
    assert_eq!(
        from_gnubg_id("4HPwATDgc/ABMA:MAEAAAAAAAAA")
            .unwrap()
            .cube_owner,
        CUBE_CENTRED
    );
}

#[test]
fn gnubg_ids_written_by_gnubg_itself() {
    // IDs printed by GNU Backgammon (Python bindings 1.1.0a16): player 1 on roll with 3-1 at the
    // start, then player 0 on roll after player 1 played 8/5 6/5.
    let s = from_gnubg_id("4HPwATDgc/ABMA:cIkFAAAAAAAA").unwrap();
    assert_eq!((s.turn, s.dice, s.phase), (1, [3, 1], Phase::Move));
    assert_eq!(gnubg_id(&s), "4HPwATDgc/ABMA:cIkFAAAAAAAA");
    let mut g = game_at(system(), s);
    g.play_notation("8/5 6/5").unwrap();
    assert_eq!(g.position(), "sGfwATDgc/ABMA:MAEAAAAAAAAA");
    let after = from_gnubg_id("sGfwATDgc/ABMA:MAEAAAAAAAAA").unwrap();
    assert_eq!(after.turn, 0);
    assert_eq!(after.checkers[1][5], 2);
    assert_eq!(after.checkers[1][6], 4);
    assert_eq!(after.checkers[0][6], 5);
    // gnubg's board for that position, (player not on roll, player on roll), points 1..24, bar.
    let (on_roll, opponent) = from_position_id("sGfwATDgc/ABMA").unwrap();
    assert_eq!(on_roll, after.checkers[0]);
    assert_eq!(opponent, after.checkers[1]);
}

#[test]
fn foreign_input_is_an_error_not_a_panic() {
    let sys = cube_system();
    let mut s = BgState::start(Phase::Roll);
    // A play from another variant: points far beyond 25.
    let odd = Play::from_steps(&[pachisi::Step {
        from: 60,
        to: 40,
        captured: 1,
        ..pachisi::Step::default()
    }]);
    let _ = sys.format_play(&s, &odd);
    let mut g = game_at(sys.clone(), s);
    g.set_roll(Roll::Dice([3, 1])).unwrap();
    assert!(matches!(g.play(&odd), Err(Error::IllegalMove(_))));
    // Impossible states from JSON.
    s.cube_log2 = 40;
    assert!(matches!(
        sys.validate_state(&s),
        Err(Error::InvalidPosition(_))
    ));
    s.cube_log2 = 0;
    s.checkers[0][6] = 200;
    assert!(matches!(
        sys.validate_state(&s),
        Err(Error::InvalidPosition(_))
    ));
    s.checkers[0][6] = 5;
    s.turn = 7;
    assert!(matches!(
        sys.validate_state(&s),
        Err(Error::InvalidPosition(_))
    ));
    let bad_json = r#"{"checkers":[[0],[0]],"turn":0,"dice":[0,0],"phase":"roll","cube_log2":0,"cube_owner":2}"#;
    assert!(serde_json::from_str::<BgState>(bad_json).is_err());
}

/// Cube states no game reaches are `InvalidPosition` (Match ID, XGID): a drop in a cubeless game,
/// a drop after a double its doubler could not make (the other side owned the cube, or it stood
/// at `max_cube`), a cube at 1 with an owner, a cube above 1 in the centre.
#[test]
fn unreachable_cube_states_are_refused() {
    let cube = Rules::with_options("backgammon", &serde_json::json!({"cube": true})).unwrap();
    let cubeless = Rules::preset("backgammon").unwrap();
    let id = "sGfwATDgc/ABMA";
    let refused = |rules: &Rules, pos: &str| {
        assert!(
            matches!(
                Game::from_position(rules, pos, 1),
                Err(Error::InvalidPosition(_))
            ),
            "{pos} was accepted"
        )
    };
    // Game state 4 (dropped), the double pending (state 1 with the double flag) alike.
    for mid in ["cAwAAAAAAAAA", "cBEAAAAAAAAA"] {
        refused(&cubeless, &format!("{id}:{mid}"));
    }
    for mid in [
        "QQwAAAAAAAAA",
        "QREAAAAAAAAA",
        "VgwAAAAAAAAA",
        "VhEAAAAAAAAA",
    ] {
        refused(&cube, &format!("{id}:{mid}"));
    }
    for x in [
        "XGID=-b----E-C---eE---c-e----B-:0:1:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:2:0:1:00:0:0:0:0:10",
    ] {
        refused(&cube, x);
    }
    // Reachable ones still load: a centred cube at 1, and a cube at 4 owned.
    for x in [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:2:1:1:00:0:0:0:0:10",
    ] {
        Game::from_position(&cube, x, 1).unwrap();
    }
}

#[test]
fn ids_of_a_state_with_a_turn_past_one_do_not_panic() {
    // `BgState`'s fields are public: `gnubg_id` indexed the checkers by the turn (out of bounds
    // from 2) and `match_id` computed `1 - turn` at a cube decision (an underflow); the other
    // writers read the turn's low bit, as the Match ID's one turn bit holds.
    let mut s = BgState::start(Phase::TakeDrop);
    s.turn = 3;
    let mut one = s;
    one.turn = 1;
    assert_eq!(match_id(&s), match_id(&one));
    assert_eq!(gnubg_id(&s), gnubg_id(&one));
    s.phase = Phase::Roll;
    s.turn = 24;
    one.phase = Phase::Roll;
    one.turn = 0;
    assert_eq!(gnubg_id(&s), gnubg_id(&one));
}
