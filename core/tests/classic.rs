//! Classic Pachisi (preset `pachisi`): one test per clause CLS-1..CLS-9 and decision C-A..C-C of
//! `RULES.md`, the exact cowrie distribution, bad input, and property tests over random games.
//!
//! Positions are written in the classic notation `<turn>:<throw>:<c0>/<c1>/<c2>/<c3>` with
//! seat-relative positions (0 not entered, 1 on the charkoni, 2..=84 the path, 85 home). For
//! colour `c` at position `p` (9..=77) the shared loop square is `(17 c + p - 9) % 68`; the
//! castles are loop squares 0, 4, 13 (+ 17 k), i.e. colour 0 positions 9, 13, 22, 26, 30, 39,
//! 43, 47, 56, 60, 64, 73 and 77.

use pachisi::classic::{ClassicRules, ClassicState, ClassicSystem, HOME};
use pachisi::{
    CharkoniStage, Error, Game, Node, Place, Play, Roll, RuleSystem, Rules, StepKind, SystemRules,
};
use proptest::prelude::*;
use serde_json::json;

fn classic() -> Rules {
    Rules::preset("pachisi").unwrap()
}

fn with(opts: serde_json::Value) -> Rules {
    Rules::with_options("pachisi", &opts).unwrap()
}

fn at(rules: &Rules, position: &str) -> Game {
    Game::from_position(rules, position, 1).unwrap()
}

/// The sorted notations of the legal plays after throwing `up` shells mouth up.
fn throw(game: &mut Game, up: u8) -> Vec<String> {
    game.set_roll(Roll::Cowries(up)).unwrap();
    let mut v: Vec<String> = game
        .legal_plays()
        .iter()
        .map(|p| game.format_play(p))
        .collect();
    v.sort();
    v
}

fn set(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn system() -> ClassicSystem {
    ClassicRules::classic().build().unwrap()
}

fn state(game: &Game) -> ClassicState {
    serde_json::from_value(game.state_value()).unwrap()
}

const START: &str = "0:-:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0";

// ---------------------------------------------------------------------------------------------
// Clauses

#[test]
fn cls_1_two_or_four_players_with_four_pieces_each() {
    let g = Game::new(&classic(), 1);
    assert_eq!(g.seats(), 4);
    assert_eq!(g.position(), START);
    assert_eq!(g.pieces().iter().map(|v| v.count as u32).sum::<u32>(), 16);
    let g2 = Game::new(&with(json!({"seats": 2})), 1);
    assert_eq!(g2.seats(), 2);
    assert_eq!(g2.position(), START);
    for bad in [0, 1, 3, 5, 8] {
        let err = Rules::with_options("pachisi", &json!({ "seats": bad })).unwrap_err();
        assert!(matches!(err, Error::InvalidRules(_)), "{bad}: {err}");
        assert!(err.to_string().contains("seats"));
    }
}

#[test]
fn cls_2_cross_board_and_opposite_colours_win_together_with_all_eight_home() {
    assert_eq!(Game::new(&classic(), 1).board(), pachisi::BoardKind::Cross);
    // Colour 0 is home, colour 2 (its partner) brings its last piece home: the team wins.
    let mut g = at(&classic(), "2:-:85,85,85,85/30,1,0,0/85,85,85,80/1,0,0,0");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(throw(&mut g, 5), set(&["pass", "80-85"]));
    g.play_notation("80-85").unwrap();
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().winners, 0b0101);
    assert_eq!(g.returns(), vec![1.0, -1.0, 1.0, -1.0]);
    // One colour home is not enough: the game goes on, and that colour is skipped.
    let mut g = at(&classic(), "1:-:85,85,85,85/30,1,0,0/80,1,0,0/1,0,0,0");
    assert!(!g.is_over());
    throw(&mut g, 2);
    g.play_notation("pass").unwrap();
    assert_eq!(g.position(), "2:-:85,85,85,85/30,1,0,0/80,1,0,0/1,0,0,0");
    throw(&mut g, 2);
    g.play_notation("pass").unwrap();
    assert_eq!(g.to_move(), 3);
    throw(&mut g, 2);
    g.play_notation("pass").unwrap();
    assert_eq!(g.to_move(), 1, "colour 0 has every piece home: skipped");
}

#[test]
fn cls_2_board_data_covers_the_96_squares_of_the_cross() {
    let sys = system();
    let mut seen = std::collections::HashSet::new();
    for c in 0..4u8 {
        for pos in 2..HOME {
            match sys.place(c, pos) {
                Place::Cross { arm, column, row } => {
                    assert!(arm < 4 && column < 3 && row < 8);
                    if (2..=8).contains(&pos) || pos >= 78 {
                        assert_eq!((arm, column), (c, 1), "private run: own middle column");
                    }
                }
                other => panic!("{c}/{pos}: {other:?}"),
            }
            seen.insert(sys.place(c, pos));
        }
        let charkoni = |stage| Place::Charkoni { stage };
        assert_eq!(sys.place(c, 0), charkoni(CharkoniStage::Waiting));
        assert_eq!(sys.place(c, 1), charkoni(CharkoniStage::Entered));
        assert_eq!(sys.place(c, HOME), charkoni(CharkoniStage::Home));
    }
    assert_eq!(seen.len(), 96);
}

#[test]
fn cls_3_throw_table_moves_25_10_2_to_6() {
    let expected = [25u8, 10, 2, 3, 4, 5, 6];
    for (up, v) in expected.iter().enumerate() {
        let mut g = at(&classic(), START);
        let plays = throw(&mut g, up as u8);
        let mv = format!("1-{}", 1 + v);
        assert!(plays.contains(&mv), "{up} up: {plays:?}");
        assert_eq!(system().throw_value(up as u8), *v);
    }
    // The table is data: 6 up may move 12 (a grace when listed as one).
    let r = with(json!({"throw_table": [25, 10, 2, 3, 4, 5, 12], "graces": [10, 12, 25]}));
    let mut g = at(&r, START);
    assert_eq!(throw(&mut g, 6), set(&["pass", "enter", "1-13"]));
}

/// C(6, k) p^k (1-p)^(6-k), written out independently of the engine.
fn binomial(k: u32, p: f64) -> f64 {
    let c = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0][k as usize];
    c * p.powi(k as i32) * (1.0 - p).powi(6 - k as i32)
}

#[test]
fn cls_3_exact_binomial_distribution_of_a_throw() {
    for p in [0.5, 0.524, 0.1, 0.9, 0.333] {
        let g = Game::new(&with(json!({ "shell_probability": p })), 1);
        let outcomes = g.chance_outcomes();
        assert_eq!(outcomes.len(), 7);
        let mut total = 0.0;
        for (k, o) in outcomes.iter().enumerate() {
            assert_eq!(o.roll, Roll::Cowries(k as u8));
            assert!(
                (o.probability - binomial(k as u32, p)).abs() < 1e-14,
                "{p} {k}"
            );
            total += o.probability;
        }
        assert!((total - 1.0).abs() < 1e-12, "{p}: {total}");
    }
    let g = Game::new(&classic(), 1);
    assert_eq!(g.chance_outcomes()[0].probability, 1.0 / 64.0);
    assert_eq!(g.chance_outcomes()[3].probability, 20.0 / 64.0);
}

#[test]
fn cls_3_sampled_throws_follow_the_shell_probability() {
    // 4000 throws at p = 0.9: mostly 5 or 6 up. A loose check that the option is used.
    let mut g = Game::new(&with(json!({"shell_probability": 0.9})), 5);
    let mut up_total = 0u32;
    let mut n = 0u32;
    while n < 4000 {
        if g.is_chance_node() {
            if let Roll::Cowries(up) = g.roll().unwrap() {
                up_total += up as u32;
                n += 1;
            }
        } else {
            g.play_notation("pass").unwrap();
        }
    }
    let mean = up_total as f64 / n as f64;
    assert!((mean - 5.4).abs() < 0.1, "mean shells up {mean}");
}

#[test]
fn cls_4_path_down_the_middle_round_counter_clockwise_and_back_up() {
    let sys = system();
    let cross = |arm, column, row| Place::Cross { arm, column, row };
    assert_eq!(sys.place(0, 2), cross(0, 1, 0));
    assert_eq!(sys.place(0, 8), cross(0, 1, 6));
    assert_eq!(sys.place(0, 9), cross(0, 1, 7));
    assert_eq!(sys.place(0, 10), cross(0, 2, 7));
    assert_eq!(sys.place(0, 17), cross(0, 2, 0));
    assert_eq!(sys.place(0, 18), cross(1, 0, 0));
    assert_eq!(sys.place(0, 25), cross(1, 0, 7));
    assert_eq!(sys.place(0, 26), cross(1, 1, 7));
    assert_eq!(sys.place(0, 76), cross(0, 0, 7));
    assert_eq!(sys.place(0, 77), cross(0, 1, 7));
    assert_eq!(sys.place(0, 78), cross(0, 1, 6));
    assert_eq!(sys.place(0, 84), cross(0, 1, 0));
    assert_eq!(sys.place(1, 9), cross(1, 1, 7));
    assert_eq!(sys.place(3, 26), cross(0, 1, 7));
    // 84 steps from the charkoni (1) to home (85).
    assert_eq!(HOME - 1, 84);
}

#[test]
fn cls_4_home_only_by_an_exact_throw() {
    let mut g = at(&classic(), "0:-:80,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 6), set(&["pass", "enter", "1-7"]));
    let mut g = at(&classic(), "0:-:80,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 5), set(&["pass", "1-6", "80-85"]));
    g.play_notation("80-85").unwrap();
    assert_eq!(g.position(), "1:-:85,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
}

#[test]
fn cls_4_dead_end_square_next_to_the_charkoni_is_not_entered_by_default() {
    // CLS-4, C-E: no throw moves 1, so a piece on 84 could never get home: by default it may
    // not go there.
    let mut g = at(&classic(), "0:-:82,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 2), set(&["pass", "1-3"]));
    let open = with(json!({"allow_dead_end": true}));
    let mut g = at(&open, "0:-:82,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 2), set(&["pass", "1-3", "82-84"]));
    assert!(system().is_dead_end(84) && !system().is_dead_end(83));
}

#[test]
fn cls_5_enter_on_a_grace_first_piece_in_play() {
    assert_eq!(Game::new(&classic(), 1).position(), START);
    for up in [0u8, 1, 6] {
        let mut g = at(&classic(), START);
        let plays = throw(&mut g, up);
        assert!(plays.contains(&"enter".to_string()), "{up}: {plays:?}");
    }
    for up in 2..=5u8 {
        let mut g = at(&classic(), START);
        assert!(!throw(&mut g, up).contains(&"enter".to_string()));
    }
    let mut g = at(&classic(), START);
    throw(&mut g, 6);
    let enter = g.parse_play("enter").unwrap();
    assert_eq!(enter.steps()[0].kind, StepKind::Enter);
    assert_eq!((enter.steps()[0].from, enter.steps()[0].to), (0, 1));
    g.play(&enter).unwrap();
    // Entering spends the throw; the entered piece waits on the charkoni (1).
    assert_eq!(g.position(), "0:-:1,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    // Without the first-piece rule nothing is in play at the start.
    let r = with(json!({"first_piece_in_play": false}));
    let mut g = Game::new(&r, 1);
    assert_eq!(g.position(), "0:-:0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0");
    assert_eq!(throw(&mut g, 3), set(&["pass"]));
}

#[test]
fn cls_6_a_grace_gives_another_throw() {
    for up in [0u8, 1, 6] {
        let mut g = at(&classic(), START);
        throw(&mut g, up);
        g.play_notation("pass").unwrap();
        assert_eq!(g.to_move(), 0, "{up} up is a grace: throw again");
        assert!(g.is_chance_node());
    }
    let mut g = at(&classic(), START);
    throw(&mut g, 4);
    g.play_notation("1-5").unwrap();
    assert_eq!(g.to_move(), 1);
    let r = with(json!({"extra_throw_on_grace": false}));
    let mut g = at(&r, START);
    throw(&mut g, 0);
    g.play_notation("1-26").unwrap();
    assert_eq!(g.to_move(), 1);
}

#[test]
fn cls_7_pieces_of_one_team_share_and_a_players_pieces_move_as_a_unit() {
    let mut g = at(&classic(), "0:-:20,20,1,0/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 3), set(&["pass", "1-4", "20-23", "2x20-23"]));
    g.play_notation("2x20-23").unwrap();
    assert_eq!(g.position(), "1:-:23,23,1,0/1,0,0,0/1,0,0,0/1,0,0,0");
    // A partner's square (colour 2 at 10 = loop 35 = colour 0 at 44) may be shared.
    let mut g = at(&classic(), "0:-:40,1,0,0/1,0,0,0/10,1,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 4), set(&["pass", "1-5", "40-44"]));
    g.play_notation("40-44").unwrap();
    assert_eq!(g.position(), "1:-:44,1,0,0/1,0,0,0/10,1,0,0/1,0,0,0");
    // Without units every piece moves alone.
    let mut g = at(
        &with(json!({"units": false})),
        "0:-:20,20,1,0/1,0,0,0/1,0,0,0/1,0,0,0",
    );
    assert_eq!(throw(&mut g, 3), set(&["pass", "1-4", "20-23"]));
}

#[test]
fn cls_8_capture_needs_at_least_as_many_pieces_and_sends_them_back() {
    // Colour 3 at 41 stands on loop square 15 = colour 0's 24 (no castle).
    let mut g = at(&classic(), "0:-:20,1,0,0/1,0,0,0/1,0,0,0/41,1,0,0");
    assert_eq!(throw(&mut g, 4), set(&["pass", "1-5", "20-24*"]));
    let play = g.parse_play("20-24*").unwrap();
    assert_eq!(play.steps()[0].captured, 1);
    g.play(&play).unwrap();
    assert_eq!(g.position(), "1:-:24,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    // Two opposing pieces there (colour 1 at 75 is loop 15 too): a single piece may not land.
    let mut g = at(&classic(), "0:-:20,1,0,0/75,0,0,0/1,0,0,0/41,1,0,0");
    assert_eq!(throw(&mut g, 4), set(&["pass", "1-5"]));
    // A unit of two captures both; a unit of one from the same square still may not land.
    let mut g = at(&classic(), "0:-:20,20,0,0/75,0,0,0/1,0,0,0/41,1,0,0");
    assert_eq!(throw(&mut g, 4), set(&["pass", "2x20-24*"]));
    g.play_notation("2x20-24*").unwrap();
    assert_eq!(g.position(), "1:-:24,24,0,0/0,0,0,0/1,0,0,0/1,0,0,0");
    // Captured pieces re-enter only with a grace.
    assert_eq!(throw(&mut g, 3), set(&["pass"]));
}

#[test]
fn cls_9_castles_protect_and_cannot_be_landed_on_by_the_other_team() {
    // Colour 3 at 39 holds loop square 13 (a castle) = colour 0's 22.
    let mut g = at(&classic(), "0:-:20,20,0,0/1,0,0,0/1,0,0,0/39,1,0,0");
    assert_eq!(throw(&mut g, 2), set(&["pass"]));
    // Passing over it is allowed.
    let mut g = at(&classic(), "0:-:20,20,0,0/1,0,0,0/1,0,0,0/39,1,0,0");
    assert_eq!(throw(&mut g, 3), set(&["pass", "20-23", "2x20-23"]));
    // The own team may join a castle (colour 2 at 56 = loop 13).
    let mut g = at(&classic(), "0:-:20,0,0,0/1,0,0,0/56,1,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 2), set(&["pass", "20-22"]));
    // Twelve castles; the fifth square from the outer end as an option.
    let sys = system();
    let castles: Vec<u8> = (0..68).filter(|&q| sys.is_castle(q)).collect();
    assert_eq!(castles, vec![0, 4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64]);
    let fifth = ClassicRules {
        castle_from_outer_end: 5,
        ..ClassicRules::classic()
    }
    .build()
    .unwrap();
    let castles: Vec<u8> = (0..68).filter(|&q| fifth.is_castle(q)).collect();
    assert_eq!(castles, vec![0, 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63]);
    // On the board: the 4th square from the outer end of arm 0's inward column is row 4.
    assert_eq!(
        sys.place(0, 13),
        Place::Cross {
            arm: 0,
            column: 2,
            row: 4
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Decisions

#[test]
fn c_a_units_are_single_colour_all_or_some_never_from_the_charkoni() {
    let mut g = at(&classic(), "0:-:30,30,30,1/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(
        throw(&mut g, 2),
        set(&["pass", "1-3", "30-32", "2x30-32", "3x30-32"])
    );
    let mut g = at(&classic(), "0:-:1,1,1,0/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(throw(&mut g, 2), set(&["pass", "1-3"]));
    // A partner's piece on the same square does not join the unit: colour 0 alone (1 piece)
    // cannot take the two opponents (colours 1 and 3) on loop 15 although colour 2 stands with it
    // (colour 2 at 54 = loop 11 = colour 0's 20).
    let mut g = at(&classic(), "0:-:20,0,0,0/75,0,0,0/54,0,0,0/41,1,0,0");
    assert_eq!(throw(&mut g, 4), set(&["pass"]));
}

#[test]
fn c_b_two_players_each_colour_keeps_its_own_turn() {
    let r = with(json!({"seats": 2}));
    let mut g = at(&r, START);
    assert_eq!(g.to_move(), 0);
    throw(&mut g, 3);
    g.play_notation("1-4").unwrap();
    assert_eq!(g.to_move(), 1, "colour 1 (player 1)");
    throw(&mut g, 3);
    g.play_notation("1-4").unwrap();
    assert_eq!(g.to_move(), 0, "colour 2 is played by player 0");
    assert_eq!(state(&g).turn, 2);
    // Colour 2 has its own first piece and graces.
    assert_eq!(throw(&mut g, 6), set(&["pass", "enter", "1-7"]));
    let mut g = at(&r, "2:-:85,85,85,85/30,1,0,0/85,85,85,80/1,0,0,0");
    throw(&mut g, 5);
    g.play_notation("80-85").unwrap();
    assert_eq!(g.outcome().unwrap().winners, 0b01);
    assert_eq!(g.returns(), vec![1.0, -1.0]);
}

#[test]
fn c_c_passing_is_always_allowed_and_the_extra_throw_is_automatic() {
    let mut g = at(&classic(), "0:-:20,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    let plays = throw(&mut g, 0);
    assert!(plays.contains(&"pass".to_string()));
    g.play_notation("pass").unwrap();
    assert_eq!(g.position(), "0:-:20,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    // The pass is also reachable through the step-by-step interface.
    g.set_roll(Roll::Cowries(3)).unwrap();
    g.finish_play().unwrap();
    assert_eq!(g.to_move(), 1);
}

// ---------------------------------------------------------------------------------------------
// Bad input

#[test]
fn bad_rules_are_typed_errors() {
    let bad = [
        json!({"shell_probability": 0.0}),
        json!({"shell_probability": 1.0}),
        json!({"shell_probability": -0.2}),
        json!({"shell_probability": 1.5}),
        json!({"shell_probability": "half"}),
        json!({"throw_table": [25, 10, 2, 3, 4, 5]}),
        json!({"throw_table": [25, 10, 2, 3, 4, 5, 6, 7]}),
        json!({"throw_table": [25, 10, 0, 3, 4, 5, 6]}),
        json!({"throw_table": [25, 10, 2, 3, 4, 5, 90]}),
        json!({"throw_table": [10, 10, 10, 10, 10, 10, 10], "graces": [10]}),
        json!({"throw_table": "25,10"}),
        json!({"graces": []}),
        json!({"graces": [7]}),
        json!({"graces": [6, 6]}),
        json!({"castle_from_outer_end": 0}),
        json!({"castle_from_outer_end": 9}),
        json!({"no_such_option": true}),
    ];
    for opts in bad {
        let err = Rules::with_options("pachisi", &opts).unwrap_err();
        assert!(matches!(err, Error::InvalidRules(_)), "{opts}: {err:?}");
    }
    let err = Rules::with_options("pachisi", &json!({"shell_probability": 1.0})).unwrap_err();
    assert!(err.to_string().contains("shell_probability"), "{err}");
    let err = Rules::with_options("pachisi", &json!({"throw_table": [1, 2]})).unwrap_err();
    assert!(err.to_string().contains("7 values"), "{err}");
}

#[test]
fn malformed_position_notation_is_a_notation_error() {
    for text in [
        "",
        "0:-",
        "0:-:1,0,0,0/1,0,0,0/1,0,0,0",
        "0:-:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "0:-:1,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "x:-:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "0:?:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "0:-:a,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "0:-:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,-1",
        "0:-:1,0,0,0:1,0,0,0/1,0,0,0/1,0,0,0",
    ] {
        let err = Game::from_position(&classic(), text, 1).unwrap_err();
        assert!(
            matches!(err, Error::InvalidNotation(_)),
            "{text:?}: {err:?}"
        );
    }
}

#[test]
fn impossible_positions_are_position_errors() {
    for text in [
        "4:-:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "0:7:1,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        "0:-:86,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        // Colour 0 at 24 and colour 3 at 41 on one square (CLS-8).
        "0:-:24,0,0,0/1,0,0,0/1,0,0,0/41,0,0,0",
        // Colour 0's end square after a lap (77) is colour 1's 60.
        "0:-:77,0,0,0/60,0,0,0/1,0,0,0/1,0,0,0",
        // A piece on the dead-end square.
        "0:-:84,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0",
        // Both teams home.
        "0:-:85,85,85,85/85,85,85,85/85,85,85,85/85,85,85,85",
        // The game is over but a throw is pending.
        "1:3:85,85,85,85/1,0,0,0/85,85,85,85/1,0,0,0",
        // The colour on turn has every piece home.
        "0:-:85,85,85,85/1,0,0,0/1,0,0,0/1,0,0,0",
    ] {
        let err = Game::from_position(&classic(), text, 1).unwrap_err();
        assert!(
            matches!(err, Error::InvalidPosition(_)),
            "{text:?}: {err:?}"
        );
    }
    // Order within a colour does not matter in notation; the value is canonical.
    let g = at(&classic(), "0:-:0,1,0,30/1,0,0,0/1,0,0,0/1,0,0,0");
    assert_eq!(g.position(), "0:-:30,1,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
    // Positions round-trip, at a decision node too.
    let g = at(&classic(), "2:4:30,23,1,0/1,0,0,0/9,1,0,0/1,0,0,0");
    assert_eq!(g.position(), "2:4:30,23,1,0/1,0,0,0/9,1,0,0/1,0,0,0");
    assert_eq!(g.node(), Node::Decision);
    // A state (e.g. read from JSON) that breaks the canonical order is refused too.
    let unsorted: ClassicState = serde_json::from_value(json!({
        "pieces": [[0, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]],
        "turn": 0,
        "throw": null
    }))
    .unwrap();
    assert!(matches!(
        system().validate_state(&unsorted),
        Err(Error::InvalidPosition(_))
    ));
}

#[test]
fn illegal_plays_and_rolls_leave_the_game_unchanged() {
    let mut g = at(&classic(), "0:-:20,1,0,0/1,0,0,0/1,0,0,0/41,1,0,0");
    assert!(matches!(
        g.set_roll(Roll::Dice([3, 4])),
        Err(Error::InvalidRoll(_))
    ));
    assert!(matches!(
        g.set_roll(Roll::Cowries(7)),
        Err(Error::InvalidRoll(_))
    ));
    assert!(matches!(g.play_notation("pass"), Err(Error::WrongPhase(_))));
    g.set_roll(Roll::Cowries(4)).unwrap();
    let before = (g.position(), g.history_len(), g.to_json());
    assert!(matches!(
        g.set_roll(Roll::Cowries(2)),
        Err(Error::WrongPhase(_))
    ));
    for (text, kind) in [
        ("1-6", "illegal"),
        ("20-25", "illegal"),
        ("20-24", "illegal"),
        ("2x20-24*", "illegal"),
        ("enter", "illegal"),
        ("20--24", "notation"),
        ("fly", "notation"),
        ("0x20-24*", "notation"),
        ("20-x", "notation"),
    ] {
        let err = g.play_notation(text).unwrap_err();
        match kind {
            "illegal" => assert!(matches!(err, Error::IllegalMove(_)), "{text}: {err:?}"),
            _ => assert!(matches!(err, Error::InvalidNotation(_)), "{text}: {err:?}"),
        }
        assert_eq!((g.position(), g.history_len(), g.to_json()), before);
    }
    // A hand-made play that is not legal.
    let mut fake = g.legal_plays()[1];
    fake.pop();
    fake.push(pachisi::Step {
        seat: 0,
        piece: 0,
        from: 20,
        to: 30,
        value: 10,
        ..pachisi::Step::default()
    });
    assert!(matches!(g.play(&fake), Err(Error::IllegalMove(_))));
    assert_eq!((g.position(), g.history_len(), g.to_json()), before);
    g.play_notation("20-24*").unwrap();
    g.undo().unwrap();
    assert_eq!((g.position(), g.history_len(), g.to_json()), before);
}

#[test]
fn state_is_copy_and_at_most_64_bytes() {
    fn is_copy<T: Copy>() {}
    is_copy::<ClassicState>();
    assert!(std::mem::size_of::<ClassicState>() <= 64);
}

#[test]
fn random_games_finish_for_many_seeds() {
    for (opts, seats) in [
        (json!({}), 4u8),
        (json!({"seats": 2}), 2),
        (
            json!({"shell_probability": 0.524, "castle_from_outer_end": 5}),
            4,
        ),
        (json!({"units": false, "extra_throw_on_grace": false}), 4),
    ] {
        let rules = with(opts.clone());
        let records = pachisi::sim::simulate(&rules, 200, 11, Some(1)).unwrap();
        let summary = pachisi::sim::summarize(&records, seats);
        assert_eq!(summary.unfinished, 0, "{opts}");
        for r in &records {
            let team = if r.winners & 0b0101 != 0 {
                0b0101
            } else {
                0b1010
            };
            assert_eq!(r.winners, team & ((1u16 << seats) - 1), "{opts}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Properties over random games

fn check_invariants(sys: &ClassicSystem, s: &ClassicState) {
    sys.validate_state(s).unwrap();
    for c in 0..4usize {
        assert_eq!(s.pieces[c].len(), 4);
        for &p in &s.pieces[c] {
            let Some(sq) = sys.loop_square(c as u8, p) else {
                continue;
            };
            for o in (0..4usize).filter(|o| o % 2 != c % 2) {
                for &q in &s.pieces[o] {
                    assert_ne!(sys.loop_square(o as u8, q), Some(sq), "{s:?}");
                }
            }
        }
    }
}

fn classic_state(game: &Game) -> ClassicState {
    state(game)
}

/// Plays one random game, checking every listed play; returns the log length.
fn play_checked(rules: &Rules, seed: u64, choice_seed: u64, deep_every: usize) -> usize {
    let sys = match rules.config() {
        pachisi::RulesConfig::Classic(c) => c.build().unwrap(),
        _ => unreachable!(),
    };
    let mut g = Game::new(rules, seed);
    let mut rng = pachisi::dice::rng_from_seed(choice_seed);
    let mut decisions = 0usize;
    let mut rolls = 0usize;
    while !g.is_over() {
        assert!(rolls < 20_000, "game did not finish");
        check_invariants(&sys, &classic_state(&g));
        if g.is_chance_node() {
            g.roll().unwrap();
            rolls += 1;
            continue;
        }
        let plays = g.legal_plays();
        assert!(plays.iter().any(|p| p.is_pass()), "C-C: pass listed");
        let deep = decisions % deep_every == 0;
        decisions += 1;
        if deep {
            let mut results = Vec::new();
            for p in &plays {
                let mut h = g.clone();
                h.play(p).unwrap();
                let after = classic_state(&h);
                check_invariants(&sys, &after);
                assert!(!results.contains(&after), "distinct results");
                results.push(after);
                // Notation round trip of the play.
                let text = g.format_play(p);
                assert_eq!(g.parse_play(&text).unwrap(), *p);
                // Captures never happen on a castle.
                for st in p.steps() {
                    if st.captured > 0 {
                        let sq = sys.loop_square(st.seat, st.to).unwrap();
                        assert!(!sys.is_castle(sq));
                    }
                }
            }
            // The step-by-step interface reaches exactly the whole plays.
            let steps = g.legal_steps();
            let firsts: Vec<_> = plays
                .iter()
                .filter(|p| !p.is_pass())
                .map(|p| p.steps()[0])
                .collect();
            assert_eq!(steps.len(), firsts.len());
            for st in &steps {
                assert!(firsts.contains(st));
                let mut h = g.clone();
                h.step(st).unwrap();
                let mut whole = g.clone();
                whole.play(&Play::from_steps(&[*st])).unwrap();
                assert_eq!(h.position(), whole.position());
                assert_eq!(h.taken().len(), 0, "one throw = one step: the play ends");
            }
            // Position notation round trip.
            let back = Game::from_position(rules, &g.position(), 0).unwrap();
            assert_eq!(back.position(), g.position());
        }
        let pick = pachisi::sim::uniform_index(&mut rng, plays.len());
        g.play(&plays[pick]).unwrap();
    }
    assert!(g.outcome().is_some());
    g.log().len()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn prop_random_games_keep_the_invariants(seed in any::<u64>(), choice in any::<u64>(),
                                             two in any::<bool>(), p in 0.3f64..0.7) {
        let rules = with(json!({"seats": if two { 2 } else { 4 }, "shell_probability": p}));
        play_checked(&rules, seed, choice, 7);
    }

    #[test]
    fn prop_seed_replays_the_same_game(seed in any::<u64>()) {
        let run = |seed| {
            let mut g = Game::new(&classic(), seed);
            let mut rng = pachisi::dice::rng_from_seed(seed ^ 0xABCD);
            for _ in 0..300 {
                if g.is_over() { break; }
                if g.is_chance_node() { g.roll().unwrap(); continue; }
                let plays = g.legal_plays();
                let i = pachisi::sim::uniform_index(&mut rng, plays.len());
                g.play(&plays[i]).unwrap();
            }
            g.to_json()
        };
        prop_assert_eq!(run(seed), run(seed));
    }

    #[test]
    fn prop_undo_restores_every_action(seed in any::<u64>()) {
        let mut g = Game::new(&classic(), seed);
        let mut rng = pachisi::dice::rng_from_seed(seed);
        for _ in 0..200 {
            let before = (g.position(), g.history_len(), g.log().to_vec());
            if g.is_chance_node() {
                let first = g.roll().unwrap();
                g.undo().unwrap();
                prop_assert_eq!(&(g.position(), g.history_len(), g.log().to_vec()), &before);
                // The generator was restored: the same throw comes again.
                prop_assert_eq!(g.roll().unwrap(), first);
            } else {
                let plays = g.legal_plays();
                let i = pachisi::sim::uniform_index(&mut rng, plays.len());
                g.play(&plays[i]).unwrap();
                let after = g.position();
                g.undo().unwrap();
                prop_assert_eq!(&(g.position(), g.history_len(), g.log().to_vec()), &before);
                g.play(&plays[i]).unwrap();
                prop_assert_eq!(g.position(), after);
            }
        }
    }
}

#[test]
fn json_round_trip_of_a_whole_game() {
    // Needs the shared layer to write the generator into JSON (u128 state): see the report.
    let mut g = Game::new(&classic(), 3);
    let mut rng = pachisi::dice::rng_from_seed(3);
    for _ in 0..400 {
        if g.is_over() {
            break;
        }
        if g.is_chance_node() {
            g.roll().unwrap();
        } else {
            let plays = g.legal_plays();
            let i = pachisi::sim::uniform_index(&mut rng, plays.len());
            g.play(&plays[i]).unwrap();
        }
    }
    let text = g.to_json();
    let back = Game::from_json(&text).unwrap();
    assert_eq!(back.to_json(), text);
    assert_eq!(back.position(), g.position());
}

/// The charkoni holds pieces at three stages; the views tell them apart (three home and one not
/// entered are two views, not four pieces "in the charkoni").
#[test]
fn pieces_in_the_charkoni_are_waiting_entered_or_home() {
    let g = at(&classic(), "0:-:85,85,85,0/1,0,0,0/1,0,0,0/1,0,0,0");
    let mine: Vec<_> = g.pieces().into_iter().filter(|v| v.seat == 0).collect();
    let stage_count = |stage| {
        mine.iter()
            .filter(|v| v.place == Place::Charkoni { stage })
            .map(|v| v.count)
            .sum::<u8>()
    };
    assert_eq!(stage_count(CharkoniStage::Home), 3);
    assert_eq!(stage_count(CharkoniStage::Waiting), 1);
    assert_eq!(stage_count(CharkoniStage::Entered), 0);
    assert_eq!(mine.len(), 2);
}

#[test]
fn pieces_and_places_for_pictures() {
    let mut g = at(&classic(), "0:-:30,30,9,1/77,0,0,0/1,0,0,0/1,0,0,0");
    let views = g.pieces();
    assert_eq!(views.iter().map(|v| v.count as u32).sum::<u32>(), 16);
    let unit = views
        .iter()
        .find(|v| v.seat == 0 && v.count == 2)
        .expect("the unit of two on 30");
    // Colour 0's 30 is loop square 21: the 4th square from the outer end of arm 1's column 2.
    assert_eq!(
        unit.place,
        Place::Cross {
            arm: 1,
            column: 2,
            row: 4
        }
    );
    assert_eq!(unit.piece, pachisi::NO_PIECE);
    // Colour 1's 77 is its own end square after the lap.
    assert!(views.iter().any(|v| v.seat == 1
        && v.place
            == Place::Cross {
                arm: 1,
                column: 1,
                row: 7
            }));
    let entered = Place::Charkoni {
        stage: CharkoniStage::Entered,
    };
    assert!(views.iter().any(|v| v.seat == 0 && v.place == entered));
    let waiting = Place::Charkoni {
        stage: CharkoniStage::Waiting,
    };
    assert!(
        views
            .iter()
            .any(|v| v.seat == 1 && v.place == waiting && v.count == 3)
    );
    // No chance outcomes while a play is due.
    g.set_roll(Roll::Cowries(2)).unwrap();
    assert!(g.chance_outcomes().is_empty());
}

#[test]
fn checked_place_takes_every_colour_of_a_game_for_two() {
    // Steps of Classic Pachisi for two carry the owners 0 to 3 (each player plays two colours);
    // checked_place refused owners 2 and 3 as seats not in the game, though `place` takes them.
    let rules = Rules::with_options("pachisi", &serde_json::json!({"seats": 2})).unwrap();
    let mut g = Game::new(&rules, 3);
    let mut owners = std::collections::BTreeSet::new();
    for _ in 0..200 {
        if g.is_over() {
            break;
        }
        if g.is_chance_node() {
            g.roll().unwrap();
            continue;
        }
        for p in g.legal_plays() {
            for s in p.steps() {
                owners.insert(s.seat);
                assert_eq!(
                    g.checked_place(s.seat, s.to).unwrap(),
                    g.place(s.seat, s.to)
                );
                assert_eq!(
                    g.checked_place(s.seat, s.from).unwrap(),
                    g.place(s.seat, s.from)
                );
            }
        }
        g.play_index(0).unwrap();
    }
    assert!(owners.contains(&2) || owners.contains(&3), "{owners:?}");
    assert!(g.checked_place(4, 0).is_err());
}
