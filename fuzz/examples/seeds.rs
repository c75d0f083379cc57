//! Writes the committed seed corpora, `fuzz/seeds/<target>/`, from presets and seeded games:
//! `cargo run --manifest-path fuzz/Cargo.toml --example seeds` (or `make fuzz-seeds`). Each
//! file is named after what it holds; the output is the same on every run.

use pachisi::{Game, Node};
use pachisi_fuzz::{Choices, advance, rules_list, seeded_game};
use std::fs;
use std::path::{Path, PathBuf};

struct Corpus(PathBuf);

impl Corpus {
    fn new(root: &Path, target: &str) -> Corpus {
        let dir = root.join(target);
        // Old seeds go, so a generator change leaves no stale files behind.
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create the seed directory");
        Corpus(dir)
    }
    fn add(&self, name: &str, bytes: &[u8]) {
        fs::write(self.0.join(name), bytes).expect("write a seed");
    }
}

/// The header of [`seeded_game`]: rules index, seed, actions.
fn header(rules: usize, seed: u8, actions: u8) -> Vec<u8> {
    vec![rules as u8, seed, actions]
}

/// The number of actions (below 64) after which the seeded game of `rules` and `seed` stands at
/// a decision node, trying from `from` on.
fn decision_after(rules: usize, seed: u8, from: u8) -> Option<u8> {
    (from..64).find(|&n| {
        seeded_game(&header(rules, seed, n))
            .is_some_and(|(g, _)| g.node() == Node::Decision && g.legal_plays().len() > 1)
    })
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds");
    let list = rules_list();

    let rules = Corpus::new(&root, "rules_json");
    for (i, r) in list.iter().enumerate() {
        rules.add(&format!("{i}-{}-full", r.variant()), r.to_json().as_bytes());
        let mut changed = r.changed_options();
        changed.insert("variant".into(), r.variant().into());
        let text = serde_json::Value::Object(changed).to_string();
        rules.add(&format!("{i}-{}-changed", r.variant()), text.as_bytes());
        // The options alone (no `variant`): what `overlay` takes.
        let opts = serde_json::Value::Object(r.options()).to_string();
        rules.add(&format!("{i}-{}-options", r.variant()), opts.as_bytes());
    }
    for (name, text) in [
        ("empty-object", "{}"),
        ("seats-3", r#"{"seats":3}"#),
        ("unknown-variant", r#"{"variant":"ludo"}"#),
        ("wrong-type", r#"{"variant":"parcheesi","seats":"4"}"#),
    ] {
        rules.add(name, text.as_bytes());
    }

    let games = Corpus::new(&root, "game_json");
    for (i, r) in list.iter().enumerate() {
        for actions in [0, 7, 30] {
            let seed = (i + actions) as u64;
            let mut g = Game::new(r, seed);
            advance(&mut g, &mut Choices::new(seed), actions);
            games.add(
                &format!("{i}-{}-{actions}", r.variant()),
                g.to_json().as_bytes(),
            );
        }
        // A record with a step taken in the middle of a play.
        if let Some(n) = decision_after(i, 3, 4) {
            let (mut g, _) = seeded_game(&header(i, 3, n)).unwrap();
            let step = g.legal_steps()[0];
            g.step(&step).unwrap();
            games.add(&format!("{i}-{}-step", r.variant()), g.to_json().as_bytes());
        }
    }

    let tamper = Corpus::new(&root, "game_tamper");
    for i in 0..list.len() {
        for (seed, actions) in [(1u8, 6u8), (2, 20), (3, 41)] {
            let mut bytes = header(i, seed, actions);
            // One edit each: a number changed, an entry removed, an entry repeated.
            bytes.extend([seed * 11, seed * 4, seed, actions]);
            tamper.add(&format!("{i}-s{seed}-a{actions}"), &bytes);
        }
    }

    let positions = Corpus::new(&root, "position");
    for (i, r) in list.iter().enumerate() {
        for (seed, actions) in [(0u64, 0usize), (1, 9), (2, 24), (3, 60)] {
            let mut g = Game::new(r, seed);
            advance(&mut g, &mut Choices::new(seed), actions);
            let mut bytes = vec![i as u8];
            bytes.extend(g.position().as_bytes());
            positions.add(&format!("{i}-{}-{actions}", r.variant()), &bytes);
        }
    }

    let plays = Corpus::new(&root, "play_text");
    let steps = Corpus::new(&root, "steps");
    for (i, r) in list.iter().enumerate() {
        let variant = r.variant();
        for seed in [1u8, 2, 5] {
            let Some(n) = decision_after(i, seed, seed * 3) else {
                continue;
            };
            let (g, _) = seeded_game(&header(i, seed, n)).unwrap();
            let legal = g.legal_plays();
            let text = g.format_play(&legal[legal.len() / 2]);
            let mut bytes = header(i, seed, n);
            bytes.extend(text.as_bytes());
            plays.add(&format!("{i}-{variant}-s{seed}"), &bytes);
            // Ops: two legal steps, undo, a legal play, a listed roll, a raw step, finish.
            let mut ops = header(i, seed, n);
            ops.extend([
                0, seed, 0, 1, 4, 4, 6, seed, 9, 2, 1, 0, 1, 10, 15, 5, 1, 0, 3,
            ]);
            steps.add(&format!("{i}-{variant}-s{seed}"), &ops);
        }
    }
    println!("seeds written to {}", root.display());
}
