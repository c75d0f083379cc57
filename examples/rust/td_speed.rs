//! Positions per second of the `td` evaluator: the network's input written by its encoding (the
//! shipped network's header names it: `features`, see `players::TdInput`) and the forward pass,
//! on positions of games played by `greedy` (one thread).
//!
//! `cargo run --release -p pachisi --example td_speed -- [positions] [preset] [weights file]`:
//! `preset` is `parcheesi` (the default: the largest input of the shipped networks but Classic
//! Pachisi's) or `backgammon` (the costliest derived features); the shipped network unless a
//! file is given. A second argument that is not one of these presets is read as the weights
//! file of a Parcheesi network.

#[path = "args.rs"]
mod args;
use pachisi::backgammon::BackgammonRules;
use pachisi::nn::Network;
use pachisi::parcheesi::ParcheesiRules;
use pachisi::players::{self, Evaluate, TdInput, shipped_network};
use pachisi::{Game, SystemRules};
use std::sync::Arc;
use std::time::Instant;

/// The positions after each play of games of `preset` played by `greedy`, as `state` reads
/// them from the game.
fn positions<S>(preset: &str, n: usize, state: impl Fn(&Game) -> Option<S>) -> Vec<S> {
    let mut out = Vec::new();
    let mut seed = 0;
    let mut p = players::from_spec("greedy").unwrap();
    while out.len() < n {
        let mut g = Game::from_preset(preset, seed).unwrap();
        seed += 1;
        while !g.is_over() && out.len() < n {
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                let play = p.choose_play(&g).unwrap();
                g.play(&play).unwrap();
                out.extend(state(&g));
            }
        }
    }
    out
}

/// Times the encoding and the forward pass of `net` over `states`, ten rounds, and prints it.
fn measure<R: Evaluate>(sys: &R, preset: &str, net: &Network, states: &[R::State]) {
    let enc = TdInput::new(sys, net.info.encoding, &net.info.feature_scales).unwrap();
    let mut x = vec![0.0f32; enc.size()];
    let mut h = vec![0.0f32; net.hidden()];
    let mut y = [0.0f32; 4];
    let mut sum = 0.0f32;
    let rounds = 10;
    let t = Instant::now();
    for _ in 0..rounds {
        for s in states {
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = args::count(&args, 0, "count", 20_000).unwrap_or_else(|e| {
        eprintln!("td_speed: {e}");
        std::process::exit(2);
    });
    let (preset, file) = match args.get(1).map(String::as_str) {
        Some(p @ ("parcheesi" | "backgammon")) => (p, args.get(2)),
        _ => ("parcheesi", args.get(1)),
    };
    let net = match file {
        Some(path) => Arc::new(
            Network::from_bytes(&std::fs::read(path).expect("readable weights file"))
                .expect("a network file"),
        ),
        None => shipped_network(preset).unwrap(),
    };
    if preset == "backgammon" {
        let sys = BackgammonRules::standard().build().unwrap();
        let states = positions(preset, n, |g| match g {
            Game::Backgammon(typed) => Some(*typed.state()),
            _ => None,
        });
        measure(&sys, preset, &net, &states);
    } else {
        let sys = ParcheesiRules::parcheesi().build().unwrap();
        let states = positions(preset, n, |g| match g {
            Game::Parcheesi(typed) => Some(*typed.state()),
            _ => None,
        });
        measure(&sys, preset, &net, &states);
    }
}
