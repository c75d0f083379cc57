//! Every committed seed (and every regression input, `fuzz/regressions/<target>/`) through its
//! target's checks once, on stable: `cargo test --manifest-path fuzz/Cargo.toml`.

use serde_json::Value;
use std::fs;
use std::path::Path;

fn run_dir(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            eprintln!("{}", path.display());
            check(&data);
            count += 1;
        }
    }
    assert!(count > 0, "no seeds for {target}: run `make fuzz-seeds`");
}

#[test]
fn rules_json() {
    run_dir("rules_json", pachisi_fuzz::rules_json);
}

#[test]
fn game_json() {
    run_dir("game_json", pachisi_fuzz::game_json);
}

#[test]
fn game_tamper() {
    run_dir("game_tamper", pachisi_fuzz::game_tamper);
}

#[test]
fn position() {
    run_dir("position", pachisi_fuzz::position);
}

#[test]
fn play_text() {
    run_dir("play_text", pachisi_fuzz::play_text);
}

#[test]
fn steps() {
    run_dir("steps", pachisi_fuzz::steps);
}

/// The table of prepared games gives the game `seeded_game` plays, with its record, whatever
/// header selects it.
#[test]
fn prepared_games_are_the_seeded_games() {
    let n = pachisi_fuzz::rules_list().len() as u8;
    for header in [[0, 0, 0], [3, 17, 40], [n - 1, 255, 63], [5, 9, 22]] {
        let (game, _) = pachisi_fuzz::seeded_game(&header).unwrap();
        let json = game.to_json();
        // The same game by another rules byte and action count, then from the table again.
        let alias = [header[0] + n, header[1], header[2] + 64];
        for h in [header, alias, header] {
            let input = [h[0], h[1], h[2], 42];
            let (p, rest) = pachisi_fuzz::prepared_game(&input).unwrap();
            assert_eq!(rest, &[42]);
            assert_eq!(p.game().to_json(), json, "header {h:?}");
            assert_eq!(pachisi_fuzz::tampered_record(&p, &[]), json, "header {h:?}");
            assert_eq!(p.json(), json, "header {h:?}");
        }
    }
}

/// `tampered_record` edits a record's text exactly as the edits were first written, on the
/// record as a `serde_json::Value` (kept here as the reference): 600 random sequences of 1 to 8
/// edits of every kind, on records of every rule set.
#[test]
fn text_edits_are_the_value_edits() {
    let mut choices = pachisi_fuzz::Choices::new(11);
    let n = pachisi_fuzz::rules_list().len();
    for round in 0..600 {
        let header = [
            (round % n) as u8,
            choices.below(4) as u8,
            [0, 1, 5, 20, 63][choices.below(5)],
        ];
        let (p, _) = pachisi_fuzz::prepared_game(&header).unwrap();
        let count = 1 + choices.below(8);
        let edits: Vec<u8> = (0..4 * count).map(|_| choices.below(256) as u8).collect();
        let mut value: Value = serde_json::from_str(p.json()).unwrap();
        for edit in edits.chunks_exact(4) {
            reference::apply_edit(&mut value, edit);
        }
        assert_eq!(
            pachisi_fuzz::tampered_record(&p, &edits),
            value.to_string(),
            "header {header:?}, edits {edits:?}"
        );
    }
}

/// The edits of `game_tamper` as first written, on a `serde_json::Value`.
mod reference {
    use serde_json::Value;

    fn count_nodes(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(count_nodes).sum(),
            Value::Object(m) => m.values().map(count_nodes).sum(),
            _ => 0,
        }
    }

    /// Applies `edit` to the `index`th node in pre-order; false when there are fewer nodes.
    fn edit_nth(v: &mut Value, index: &mut usize, edit: &[u8]) -> bool {
        if *index == 0 {
            edit_node(v, edit);
            return true;
        }
        *index -= 1;
        match v {
            Value::Array(a) => a.iter_mut().any(|c| edit_nth(c, index, edit)),
            Value::Object(m) => m.values_mut().any(|c| edit_nth(c, index, edit)),
            _ => false,
        }
    }

    pub fn apply_edit(record: &mut Value, edit: &[u8]) {
        let total = count_nodes(record);
        let mut index = (usize::from(edit[0]) * 7 + usize::from(edit[3])) % total;
        edit_nth(record, &mut index, edit);
    }

    fn edit_node(node: &mut Value, edit: &[u8]) {
        let small = i64::from(edit[2]);
        *node = match edit[1] % 12 {
            0 | 1 => Value::from(small),
            2 => Value::from(small - 128),
            3 => Value::from(u64::from(edit[2]) << (edit[3] % 64)),
            4 => Value::from(f64::from(edit[2]) / 3.0),
            5 => Value::Null,
            6 => Value::Bool(edit[2].is_multiple_of(2)),
            7 => {
                let words = ["", "x", "5-3", "parcheesi", "backgammon", "move"];
                Value::String(words[usize::from(edit[2]) % words.len()].into())
            }
            8 => match node.take() {
                Value::Array(mut a) if !a.is_empty() => {
                    a.remove(usize::from(edit[2]) % a.len());
                    Value::Array(a)
                }
                Value::Object(mut m) if !m.is_empty() => {
                    let key = m
                        .keys()
                        .nth(usize::from(edit[2]) % m.len())
                        .unwrap()
                        .clone();
                    m.remove(&key);
                    Value::Object(m)
                }
                other => other,
            },
            9 => match node.take() {
                Value::Array(mut a) if !a.is_empty() => {
                    let i = usize::from(edit[2]) % a.len();
                    a.insert(i, a[i].clone());
                    Value::Array(a)
                }
                other => other,
            },
            10 => match node.take() {
                Value::Array(mut a) if a.len() > 1 => {
                    let (i, n) = (usize::from(edit[2]) % a.len(), a.len());
                    a.swap(i, (i + 1) % n);
                    Value::Array(a)
                }
                other => other,
            },
            _ => match node {
                Value::Number(n) => {
                    Value::from(n.as_i64().unwrap_or(0) + i64::from(edit[2] % 3) - 1)
                }
                _ => Value::Array(vec![Value::from(small), Value::from(small % 7)]),
            },
        };
    }
}
