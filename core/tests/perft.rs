//! Perft-like data files (`tests/perft/*.jsonl`, written by the reference generators with
//! `core/examples/write_perft.rs`): for each position and each of its rolls, the fast generator lists exactly
//! the number of distinct plays the reference found.

use pachisi::{Game, Node, Roll, Rules};
use std::path::PathBuf;

fn data_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/perft")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn fast_generators_count_what_the_references_counted() {
    let files = data_files();
    assert!(!files.is_empty(), "no perft data files");
    let mut records = 0;
    let mut variants = std::collections::BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let mut lines = text.lines().enumerate();
        let header: serde_json::Value =
            serde_json::from_str(lines.next().expect("a header line").1).expect("header JSON");
        let rules = Rules::from_value(&header["rules"]).expect("header rules");
        assert!(
            header["command"].is_string(),
            "{}: no command",
            file.display()
        );
        for (n, line) in lines {
            let where_ = format!("{}:{}", file.display(), n + 1);
            let rec: serde_json::Value = serde_json::from_str(line).expect(&where_);
            let position = rec["position"].as_str().expect(&where_);
            let rolls: Vec<Roll> = serde_json::from_value(rec["rolls"].clone()).expect(&where_);
            let plays: Vec<usize> = serde_json::from_value(rec["plays"].clone()).expect(&where_);
            assert_eq!(rolls.len(), plays.len(), "{where_}");
            let game = Game::from_position(&rules, position, 0)
                .unwrap_or_else(|e| panic!("{where_}: {e}"));
            assert_eq!(game.node(), Node::Chance, "{where_}: not a chance node");
            let listed: Vec<Roll> = game.chance_outcomes().iter().map(|o| o.roll).collect();
            assert_eq!(listed, rolls, "{where_}: the rolls of this chance node");
            for (roll, want) in rolls.into_iter().zip(plays) {
                let mut at = game.clone();
                at.set_roll(roll)
                    .unwrap_or_else(|e| panic!("{where_}: {e}"));
                let got = if at.node() == Node::Decision {
                    at.legal_plays().len()
                } else {
                    0
                };
                assert_eq!(got, want, "{where_}: {position} roll {roll}");
            }
            records += 1;
            variants.insert(rules.variant());
        }
    }
    assert!(records >= 500, "only {records} perft positions");
    eprintln!("{records} perft positions over {variants:?}");
}
