//! What pictures ask the rule systems: who owns which pieces and sits where, the teams, the
//! squares that are safe under the rules, and the path a step travels.

use pachisi::backgammon::BackgammonRules;
use pachisi::board::{TRACK_LEN, is_safe};
use pachisi::classic::{ClassicRules, END_SQUARE, END_SQUARE_AGAIN};
use pachisi::family::FamilyRules;
use pachisi::parcheesi::ParcheesiRules;
use pachisi::{Place, RuleSystem, SystemRules};

#[test]
fn parcheesi_seats_sit_at_their_sides_and_play_alone() {
    let sys = ParcheesiRules::parcheesi().build().unwrap();
    assert_eq!(sys.owners(), 4);
    for seat in 0..4 {
        assert_eq!(sys.side_of_owner(seat), seat);
        assert_eq!(sys.seat_of_owner(seat), seat);
        assert_eq!(sys.team(seat), 1 << seat);
    }
    let two = ParcheesiRules {
        seats: 2,
        ..ParcheesiRules::parcheesi()
    }
    .build()
    .unwrap();
    assert_eq!((two.side_of_owner(0), two.side_of_owner(1)), (0, 2));
}

/// PAR-9 / ONL-7: the safe squares exist only when the rules have them.
#[test]
fn parcheesi_safe_squares_follow_the_option() {
    let on = ParcheesiRules::parcheesi().build().unwrap().safe_places();
    let want: Vec<Place> = (0..TRACK_LEN)
        .filter(|&q| is_safe(q))
        .map(|square| Place::Track { square })
        .collect();
    assert_eq!(on, want);
    for base in [ParcheesiRules::parcheesi(), ParcheesiRules::online()] {
        let off = ParcheesiRules {
            safe_squares: false,
            ..base
        };
        assert!(off.build().unwrap().safe_places().is_empty());
    }
}

/// PAR-11: a route turns into the home path only when the step ends there; going round, the
/// lap's last square (76) leads on to the entry square (1).
#[test]
fn parcheesi_routes_turn_in_or_go_round() {
    let sys = ParcheesiRules::parcheesi().build().unwrap();
    assert_eq!(sys.route(0, 0, 1), [1]);
    assert_eq!(sys.route(0, 60, 65), [61, 62, 63, 64, 65]);
    assert_eq!(sys.route(0, 68, 72), [69, 70, 71, 72]);
    assert_eq!(sys.route(0, 62, 75), [63, 64, 73, 74, 75]);
    assert_eq!(sys.route(0, 75, 3), [76, 1, 2, 3]);
    assert_eq!(sys.route(0, 5, 5), Vec::<u8>::new());
    // The older numbering of later laps names the same squares.
    assert_eq!(sys.route(0, 80, 82), [5, 6]);
    // Positions no step joins give the landing only.
    assert_eq!(sys.route(0, 72, 3), [3]);
}

/// FAM-2: partners sit opposite when `teams` is on; FAM-8: the twelve safe squares.
#[test]
fn family_teams_and_safe_squares() {
    let sys = FamilyRules::family().build().unwrap();
    assert_eq!((sys.team(0), sys.team(3)), (0b0101, 0b1010));
    assert_eq!(sys.safe_places().len(), 12);
    let alone = FamilyRules {
        teams: false,
        ..FamilyRules::family()
    }
    .build()
    .unwrap();
    assert_eq!(alone.team(2), 0b0100);
    let three = FamilyRules {
        seats: 3,
        teams: false,
        ..FamilyRules::family()
    }
    .build()
    .unwrap();
    assert_eq!(three.owners(), 3);
    assert_eq!(three.side_of_owner(2), 2);
    assert_eq!(sys.route(1, 0, 1), [1]);
    assert_eq!(sys.route(1, 67, 71), [68, 69, 70, 71]);
}

/// CLS-1/CLS-2: four colours, opposite colours partners; with two players each plays a team.
#[test]
fn classic_colours_seats_and_teams() {
    let four = ClassicRules::classic().build().unwrap();
    assert_eq!(four.owners(), 4);
    for colour in 0..4 {
        assert_eq!(four.side_of_owner(colour), colour);
        assert_eq!(four.seat_of_owner(colour), colour);
        assert_eq!(four.team(colour), 1 << colour | 1 << ((colour + 2) % 4));
    }
    let two = ClassicRules {
        seats: 2,
        ..ClassicRules::classic()
    }
    .build()
    .unwrap();
    assert_eq!(two.owners(), 4);
    assert_eq!(
        (0..4).map(|c| two.seat_of_owner(c)).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    assert_eq!((two.team(0), two.team(1)), (0b01, 0b10));
}

/// CLS-9: the safe places are the castles, wherever `castle_from_outer_end` puts them.
#[test]
fn classic_safe_places_are_the_castles() {
    for n in [4, 5, 1, 8] {
        let sys = ClassicRules {
            castle_from_outer_end: n,
            ..ClassicRules::classic()
        }
        .build()
        .unwrap();
        let safe = sys.safe_places();
        assert_eq!(safe.len(), 12, "castle {n}");
        for pos in END_SQUARE..END_SQUARE_AGAIN {
            let square = sys.loop_square(0, pos).unwrap();
            assert_eq!(
                safe.contains(&sys.place(0, pos)),
                sys.is_castle(square),
                "castle {n}, loop square {square}"
            );
        }
        // The end squares (the outer end of each middle column) are castles.
        assert!(safe.contains(&Place::Cross {
            arm: 2,
            column: 1,
            row: 7
        }));
        // The n-th square from the outer end of an outer column.
        assert!(safe.contains(&Place::Cross {
            arm: 1,
            column: 0,
            row: 8 - n
        }));
    }
    let sys = ClassicRules::classic().build().unwrap();
    assert_eq!(sys.route(2, 0, 1), [1]);
    assert_eq!(sys.route(2, 1, 11), (2..=11).collect::<Vec<u8>>());
}

#[test]
fn backgammon_takes_the_defaults() {
    let sys = BackgammonRules::standard().build().unwrap();
    assert_eq!(sys.owners(), 2);
    assert_eq!(
        (sys.side_of_owner(1), sys.seat_of_owner(1), sys.team(1)),
        (1, 1, 2)
    );
    assert!(sys.safe_places().is_empty());
    assert_eq!(sys.route(1, 25, 22), [24, 23, 22]);
    assert_eq!(sys.route(0, 3, 0), [2, 1, 0]);
}
