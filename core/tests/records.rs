//! Game records (`Game::to_json`) are verified on load by replaying them: a genuine record of
//! any preset loads back exactly, and a tampered one is an error naming what does not match.

use pachisi::{Game, Node, Roll, Rules, variants};
use serde_json::Value;

/// A game of `variant` played for `actions` actions with a fixed policy: whole plays, steps
/// one at a time, set rolls and undos mixed in.
fn played(variant: &str, seed: u64, actions: usize) -> Game {
    let mut g = Game::from_preset(variant, seed).unwrap();
    for k in 0..actions {
        match g.node() {
            Node::Over => break,
            Node::Chance => {
                if k % 5 == 0 {
                    let outcomes = g.chance_outcomes();
                    g.set_roll(outcomes[k % outcomes.len()].roll).unwrap();
                } else {
                    g.roll().unwrap();
                }
            }
            Node::Decision => {
                if k % 3 == 0 {
                    let steps = g.legal_steps();
                    if steps.is_empty() {
                        g.finish_play().unwrap();
                    } else {
                        g.step(&steps[k % steps.len()]).unwrap();
                    }
                } else {
                    let plays = g.legal_plays();
                    g.play(&plays[k % plays.len()]).unwrap();
                }
            }
        }
        if k % 11 == 10 {
            g.undo().unwrap();
        }
    }
    g
}

#[test]
fn genuine_records_load_back_exactly() {
    for v in variants() {
        for seed in 0..4 {
            let g = played(v, seed, 120);
            let text = g.to_json();
            let back = Game::from_json(&text).unwrap_or_else(|e| panic!("{v} {seed}: {e}"));
            assert_eq!(back.to_json(), text, "{v} {seed}");
            // Undo all the way back stays on positions the notation accepts.
            let mut back = back;
            while back.undo().is_ok() {
                let rules = back.rules().clone();
                if back.taken().is_empty() {
                    Game::from_position(&rules, &back.position(), 0)
                        .unwrap_or_else(|e| panic!("{v} {seed}: {e}"));
                }
            }
        }
    }
}

#[test]
fn records_of_games_from_a_position_load_back() {
    let rules = Rules::preset("backgammon").unwrap();
    let mut g = Game::from_position(&rules, "4HPwATDgc/ABMA", 3).unwrap();
    for _ in 0..30 {
        if g.is_over() {
            break;
        }
        if g.is_chance_node() {
            g.roll().unwrap();
        } else {
            g.play(&g.legal_plays()[0]).unwrap();
        }
    }
    assert_eq!(
        Game::from_json(&g.to_json()).unwrap().to_json(),
        g.to_json()
    );
}

fn tampered(record: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(record).unwrap();
    edit(&mut v);
    v.to_string()
}

/// 6-6, or 1-2 when the roll was 6-6.
fn other_roll(roll: &Value) -> Value {
    if *roll == serde_json::json!([6, 6]) {
        serde_json::json!([1, 2])
    } else {
        serde_json::json!([6, 6])
    }
}

fn first_roll_index(v: &Value) -> usize {
    v["log"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["event"] == "roll")
        .unwrap()
}

#[test]
fn tampered_records_are_errors_naming_the_mismatch() {
    let g = played("parcheesi", 7, 80);
    let record = g.to_json();
    let cases: Vec<(&str, String)> = vec![
        (
            "a roll edited",
            tampered(&record, |v| {
                let i = first_roll_index(v);
                v["log"][i]["roll"] = other_roll(&v["log"][i]["roll"]);
            }),
        ),
        (
            "the history reversed",
            tampered(&record, |v| {
                v["history"].as_array_mut().unwrap().reverse();
            }),
        ),
        (
            "a log length of 256",
            tampered(&record, |v| v["history"][3]["log_len"] = 256.into()),
        ),
        (
            "a history entry moved a piece to 250",
            tampered(&record, |v| {
                let h = v["history"].as_array_mut().unwrap();
                let i = h.len() / 2;
                h[i]["state"]["pieces"][0][0] = 250.into();
            }),
        ),
        (
            "a play claims 200 captures",
            tampered(&record, |v| {
                let log = v["log"].as_array_mut().unwrap();
                let e = log.iter_mut().find(|e| e["event"] == "play").unwrap();
                e["play"][0]["captured"] = 200.into();
            }),
        ),
        (
            "an event dropped from the log",
            tampered(&record, |v| {
                v["log"].as_array_mut().unwrap().remove(1);
            }),
        ),
        (
            "the generator edited",
            tampered(&record, |v| {
                let rng = v["rng"].clone();
                v["history"][1]["rng"] = rng;
            }),
        ),
    ];
    for (what, text) in cases {
        assert_ne!(text, record, "{what}: the edit changed nothing");
        match Game::from_json(&text) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => {
                let msg = e.to_string();
                assert!(!msg.contains("internal"), "{what}: {msg}");
            }
        }
    }
    // The named field.
    let text = tampered(&record, |v| {
        let i = first_roll_index(v);
        v["log"][i]["roll"] = other_roll(&v["log"][i]["roll"]);
    });
    let msg = Game::from_json(&text).unwrap_err().to_string();
    assert!(
        msg.contains("history[") && msg.contains("game record"),
        "{msg}"
    );
}

#[test]
fn a_record_standing_at_an_unplayable_roll_is_rejected() {
    // At the start of Parcheesi a 6-6 (with bottom faces 1-1) cannot be played: the engine
    // forfeits it at once, so a record still waiting for that roll's play is not a game.
    use pachisi::parcheesi::ParcheesiRules;
    use pachisi::{RuleSystem, SystemRules};
    let sys = ParcheesiRules::parcheesi().build().unwrap();
    let mut s = sys.initial_state();
    sys.begin_roll(&mut s, Roll::Dice([6, 6]));
    assert_eq!(sys.node(&s), Node::Decision);
    let record = Game::from_preset("parcheesi", 1).unwrap().to_json();
    let text = tampered(&record, |v| v["state"] = serde_json::to_value(s).unwrap());
    let msg = Game::from_json(&text).unwrap_err().to_string();
    assert!(msg.contains("no legal play"), "{msg}");
}

/// `to_json` writes the record from parts each history entry keeps once written; its text must
/// be exactly that of the record as a JSON value (`to_value`), after every kind of action, for
/// every preset, and for a game that opened with forfeits.
#[test]
fn to_json_is_the_text_of_to_value() {
    for v in variants() {
        for seed in 0..2 {
            let mut g = Game::from_preset(v, seed).unwrap();
            for k in 0..70 {
                let copy = g.clone();
                g = played_on(g, k);
                // A copy shares the entries written for the game it was copied from.
                assert_eq!(
                    copy.to_json(),
                    copy.to_value().to_string(),
                    "{v} {seed} {k}"
                );
                assert_eq!(g.to_json(), g.to_value().to_string(), "{v} {seed} {k}");
            }
        }
    }
    let rules = Rules::preset("backgammon").unwrap();
    let mut g = Game::from_position(&rules, "4HPwATDgc/ABMA", 3).unwrap();
    for k in 0..20 {
        g = played_on(g, k);
        assert_eq!(
            g.to_json(),
            g.to_value().to_string(),
            "backgammon position {k}"
        );
    }
}

/// One action of [`played`]'s policy (the `k`th).
fn played_on(mut g: Game, k: usize) -> Game {
    match g.node() {
        Node::Over => {
            g.undo().unwrap();
        }
        Node::Chance if k % 5 == 0 => {
            let outcomes = g.chance_outcomes();
            g.set_roll(outcomes[k % outcomes.len()].roll).unwrap();
        }
        Node::Chance => {
            g.roll().unwrap();
        }
        Node::Decision if k % 3 == 0 => {
            let steps = g.legal_steps();
            if steps.is_empty() {
                g.finish_play().unwrap();
            } else {
                g.step(&steps[k % steps.len()]).unwrap();
            }
        }
        Node::Decision => {
            let plays = g.legal_plays();
            g.play(&plays[k % plays.len()]).unwrap();
        }
    }
    if k % 11 == 10 {
        g.undo().unwrap();
    }
    g
}

/// `from_json` reads most records straight into their types and the rest through a JSON value;
/// both read the same records the same way: other key orders, spacing and a repeated key (the
/// last one counts, as in a JSON value) load, and a field of the wrong type is still named.
#[test]
fn records_in_other_layouts_load_the_same() {
    let g = played("parcheesi", 5, 60);
    let text = g.to_json();
    let value: Value = serde_json::from_str(&text).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(Game::from_json(&pretty).unwrap().to_json(), text);
    // Keys in another order than the sorted one the engine writes.
    let obj = value.as_object().unwrap();
    let reordered: Vec<String> = obj
        .iter()
        .rev()
        .map(|(k, v)| format!("{}:{v}", Value::from(k.as_str())))
        .collect();
    let reordered = format!("{{{}}}", reordered.join(","));
    assert_eq!(Game::from_json(&reordered).unwrap().to_json(), text);
    // A repeated key: the last one counts.
    let repeated = format!("{{\"taken\":[[1,2]],{}", &text[1..]);
    assert_eq!(Game::from_json(&repeated).unwrap().to_json(), text);
    // A field of the wrong type is named by its path.
    let bad = tampered(&text, |v| v["history"][3]["taken"] = Value::from("x"));
    let msg = Game::from_json(&bad).unwrap_err().to_string();
    assert!(msg.contains("history[3].taken"), "{msg}");
}

/// `Game: PartialEq` is the equality of records: over games of every preset at many points of
/// their play (copies, games played again independently from the same seed, games read back
/// from their records, a game from a position), two games are equal exactly when they write
/// the same record.
#[test]
fn games_are_equal_exactly_when_their_records_are() {
    let rules = Rules::preset("backgammon").unwrap();
    let mut pool: Vec<(String, Game)> = Vec::new();
    for v in variants() {
        for seed in 0..2 {
            let mut g = Game::from_preset(v, seed).unwrap();
            for k in 0..48 {
                if k % 6 == 0 {
                    // The same game played again: equal without sharing anything.
                    let again = (0..k).fold(Game::from_preset(v, seed).unwrap(), played_on);
                    assert!(again == g, "{v} {seed} {k}: played again");
                    let back = Game::from_json(&g.to_json()).unwrap();
                    assert!(back == g, "{v} {seed} {k}: read back");
                    assert!(g == back, "{v} {seed} {k}: read back");
                    pool.push((format!("{v} {seed} {k}"), g.clone()));
                    pool.push((format!("{v} {seed} {k} read back"), back));
                }
                g = played_on(g, k);
            }
        }
    }
    let mut g = Game::from_position(&rules, "4HPwATDgc/ABMA", 3).unwrap();
    for k in 0..12 {
        pool.push((format!("backgammon position {k}"), g.clone()));
        pool.push((
            format!("backgammon position {k} read back"),
            Game::from_json(&g.to_json()).unwrap(),
        ));
        g = played_on(g, k);
    }
    let records: Vec<String> = pool.iter().map(|(_, g)| g.to_json()).collect();
    let mut equal_pairs = 0;
    for (i, (a, ga)) in pool.iter().enumerate() {
        for (j, (b, gb)) in pool.iter().enumerate() {
            let same = records[i] == records[j];
            assert_eq!(ga == gb, same, "{a} vs {b}: equal games, equal records");
            equal_pairs += usize::from(same && i != j);
        }
    }
    // Not only a game and itself: reloads and repeated points (an undo back) are equal pairs.
    assert!(equal_pairs >= pool.len() / 2, "{equal_pairs}");
}
