//! Positions per second of the `td` evaluator: the network's input written by its encoding (the
//! shipped network's header names it: `features`, see `players::TdInput`) and the forward pass,
//! on positions of games played by `greedy` (one thread).
//!
//! `cargo run --release -p pachisi --example td_speed -- [positions] [weights file]` (Parcheesi:
//! the largest input of the shipped networks but Classic Pachisi's; the shipped network unless a
//! file is given).

use pachisi::parcheesi::{ParcheesiRules, ParcheesiState};
use pachisi::players::{self, TdInput, shipped_network};
use pachisi::{Game, RuleSystem, SystemRules};
use std::time::Instant;

/// Positions of Parcheesi games played by `greedy`.
fn positions(n: usize) -> Vec<ParcheesiState> {
    let mut out = Vec::new();
    let mut seed = 0;
    let mut p = players::from_spec("greedy").unwrap();
    while out.len() < n {
        let mut g = Game::from_preset("parcheesi", seed).unwrap();
        seed += 1;
        while !g.is_over() && out.len() < n {
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                let play = p.choose_play(&g).unwrap();
                g.play(&play).unwrap();
                if let Game::Parcheesi(typed) = &g {
                    out.push(*typed.state());
                }
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let preset = "parcheesi";
    let sys = ParcheesiRules::parcheesi().build().unwrap();
    let net = match args.get(1) {
        Some(path) => std::sync::Arc::new(
            pachisi::nn::Network::from_bytes(&std::fs::read(path).expect("readable weights file"))
                .expect("a network file"),
        ),
        None => shipped_network(preset).unwrap(),
    };
    let enc = TdInput::new(&sys, net.info.encoding, &net.info.feature_scales).unwrap();
    let states = positions(n);
    let mut x = vec![0.0f32; enc.size()];
    let mut h = vec![0.0f32; net.hidden()];
    let mut y = [0.0f32; 4];
    let mut sum = 0.0f32;
    let rounds = 10;
    let t = Instant::now();
    for _ in 0..rounds {
        for s in &states {
            enc.write(s, sys.to_move(s), &mut x);
            net.forward(&x, &mut h, &mut y);
            sum += y[0];
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let evals = (rounds * states.len()) as f64;
    println!(
        "{preset}: {} inputs ({} encoding), {} hidden: {:.0} positions/s on one thread ({:.2} us \
         each; checksum {sum:.1})",
        enc.size(),
        enc.encoding().name(),
        net.hidden(),
        evals / secs,
        1e6 * secs / evals
    );
}
