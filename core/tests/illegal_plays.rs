//! Plays made of arbitrary steps (as the C and Python bindings accept them) are an error that
//! leaves the game unchanged, in every preset: found by the `steps` fuzz target, where such a
//! play in Family Pachisi panicked while its error message was written (docs/FUZZING.md).

use pachisi::{Error, Game, MAX_STEPS, Node, Play, Step, StepKind, variants};

/// Steps no generator makes: positions off the board, zero and maximal fields, every kind.
fn odd_steps() -> Vec<Step> {
    let kinds = StepKind::ALL;
    let mut out = Vec::new();
    for kind in kinds {
        for (from, to) in [(0, 0), (255, 255), (0, 255), (3, 0), (200, 1)] {
            for captured in [0, 1, 255] {
                out.push(Step {
                    seat: 0,
                    piece: 0,
                    from,
                    to,
                    value: 5,
                    count: 1,
                    captured,
                    kind,
                });
            }
        }
        out.push(Step {
            seat: 255,
            piece: 255,
            from: 1,
            to: 2,
            value: 255,
            count: 255,
            captured: 3,
            kind,
        });
    }
    out
}

/// The game of `variant` and `seed` rolled to its first decision node.
fn at_decision(variant: &str, seed: u64) -> Game {
    let mut g = Game::from_preset(variant, seed).unwrap();
    while g.node() != Node::Decision {
        g.roll().unwrap();
    }
    g
}

#[test]
fn arbitrary_steps_are_an_error_that_changes_nothing() {
    for variant in variants() {
        for seed in 0..4 {
            let mut g = at_decision(variant, seed);
            let before = g.to_json();
            let steps = odd_steps();
            let plays = steps
                .iter()
                .map(|s| Play::from_steps(&[*s]))
                .chain([Play::from_steps(&steps[..MAX_STEPS])]);
            for play in plays {
                match g.play(&play) {
                    Err(Error::IllegalMove(msg)) => {
                        assert!(msg.contains("not a legal play"), "{variant}: {msg}")
                    }
                    other => panic!("{variant}: {:?} gave {other:?}", play.steps()),
                }
                assert_eq!(
                    g.to_json(),
                    before,
                    "{variant}: a rejected play changed the game"
                );
            }
        }
    }
}

#[test]
fn the_error_names_the_steps() {
    let mut g = at_decision("pachisi-family", 1);
    let play = Play::from_steps(&[Step {
        seat: 2,
        from: 0,
        to: 7,
        captured: 1,
        ..Step::default()
    }]);
    let err = g.play(&play).unwrap_err().to_string();
    assert!(err.contains("`2:0-7`"), "{err}");
}
