//! The `pachisi` command: train learned (`td`) players and play tournaments.
//!
//! ```text
//! pachisi train <preset> [--games N] [--seed S] [--threads T] [--out FILE] [--resume FILE]
//!                        [--eval-every K] [--eval-deals D] [--curve FILE] [--hidden H]
//!                        [--alpha A] [--lambda L] [--opponent SPEC] [--encoding E]
//!                        [--max-points P] [--discount G]
//! pachisi tournament <preset> <deals> <seed> <spec>... [--threads T]
//! ```
//!
//! `train` plays self-play TD(λ) games until the network has played `N` games in total (a
//! resumed network counts its games), saves the network to `--out` (default `<preset>.td`)
//! every `K` games as a checkpoint, and appends a learning-curve row (win rate against `greedy`,
//! seats rotated, `D` deals) to `--curve` (default `<out>.curve.csv`). `docs/PLAYERS.md`
//! describes the options. `tournament` is the players example with weights files: a spec
//! `td:weights=PATH` reads the network from `PATH`.

use pachisi::Rules;
use pachisi::nn::Network;
use pachisi::players::{PlayerKind, PlayerSpec, TrainOptions, Trainer};
use pachisi::tournament::{TournamentOptions, tournament};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  pachisi train <preset> [--games N] [--seed S] [--threads T] [--out FILE] [--resume FILE]
                         [--eval-every K] [--eval-deals D] [--curve FILE] [--hidden H]
                         [--alpha A] [--lambda L] [--opponent SPEC] [--encoding E]
                         [--max-points P] [--discount G]
  pachisi tournament <preset> <deals> <seed> <spec>... [--threads T]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("train") => train(&args[1..]),
        Some("tournament") => run_tournament(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("unknown command\n{USAGE}")),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pachisi: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Splits `args` into positional arguments and `--flag value` pairs (every flag takes a value).
/// Positional arguments and `(flag, value)` pairs.
type Args = (Vec<String>, Vec<(String, String)>);

fn parse(args: &[String], flags: &[&str]) -> Result<Args, String> {
    let mut pos = Vec::new();
    let mut opts = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            if !flags.contains(&name) {
                return Err(format!("unknown option `{a}`\n{USAGE}"));
            }
            let v = it.next().ok_or_else(|| format!("`{a}` needs a value"))?;
            opts.push((name.to_string(), v.clone()));
        } else {
            pos.push(a.clone());
        }
    }
    Ok((pos, opts))
}

fn value<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("`--{name}` cannot take `{text}`"))
}

/// Registers the network file of every `td:weights=PATH` spec under its path.
fn load_weights(specs: &[String]) -> Result<(), String> {
    for text in specs {
        let spec: PlayerSpec = text.parse().map_err(|e| format!("{e}"))?;
        if spec.kind != PlayerKind::Td {
            continue;
        }
        if let Some(path) = &spec.network {
            if pachisi::players::registered_network(path).is_none() {
                pachisi::players::register_network(path, read_network(path)?);
            }
        }
    }
    Ok(())
}

fn read_network(path: &str) -> Result<Network, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    Network::from_reader(file).map_err(|e| format!("`{path}`: {e}"))
}

fn run_tournament(args: &[String]) -> Result<(), String> {
    let (pos, opts) = parse(args, &["threads"])?;
    if pos.len() < 4 {
        return Err(USAGE.into());
    }
    let rules = Rules::preset(&pos[0]).map_err(|e| e.to_string())?;
    let deals: usize = value("deals", &pos[1])?;
    let seed: u64 = value("seed", &pos[2])?;
    let lineup: Vec<&str> = pos[3..].iter().map(String::as_str).collect();
    load_weights(&pos[3..])?;
    let mut o = TournamentOptions::new(&lineup, deals, seed);
    for (k, v) in &opts {
        if k == "threads" {
            o.threads = Some(value(k, v)?);
        }
    }
    let t = Instant::now();
    let result = tournament(&rules, &o).map_err(|e| e.to_string())?;
    print!("{}", result.summary());
    println!(
        "{}, {deals} deals, seed {seed}, {:.1} s",
        pos[0],
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn train(args: &[String]) -> Result<(), String> {
    let flags = [
        "games",
        "seed",
        "threads",
        "out",
        "resume",
        "eval-every",
        "eval-deals",
        "curve",
        "hidden",
        "alpha",
        "lambda",
        "opponent",
        "encoding",
        "max-points",
        "discount",
    ];
    let (pos, opts) = parse(args, &flags)?;
    let [preset] = pos.as_slice() else {
        return Err(format!("`train` takes one preset\n{USAGE}"));
    };
    let mut o = TrainOptions::new(preset);
    let mut games: u64 = 1000;
    let mut out = format!("{preset}.td");
    let mut resume = None;
    let mut every: u64 = 1000;
    let mut curve = None;
    for (k, v) in &opts {
        match k.as_str() {
            "games" => games = value(k, v)?,
            "seed" => o.seed = value(k, v)?,
            "threads" => o.threads = Some(value(k, v)?),
            "out" => out = v.clone(),
            "resume" => resume = Some(v.clone()),
            "eval-every" => every = value::<u64>(k, v)?.max(1),
            "eval-deals" => o.eval_deals = value(k, v)?,
            "curve" => curve = Some(v.clone()),
            "hidden" => o.hidden = value(k, v)?,
            "alpha" => o.alpha = value(k, v)?,
            "lambda" => o.lambda = value(k, v)?,
            "opponent" => o.opponent = Some(v.clone()),
            "max-points" => o.max_points = value(k, v)?,
            "discount" => o.discount = value(k, v)?,
            "encoding" => o.encoding = v.parse().map_err(|e: pachisi::Error| e.to_string())?,
            _ => unreachable!("parse accepts only the listed flags"),
        }
    }
    let curve = curve.unwrap_or_else(|| format!("{out}.curve.csv"));
    let mut trainer = match &resume {
        Some(path) => Trainer::resume(o.clone(), read_network(path)?),
        None => Trainer::new(o.clone()),
    }
    .map_err(|e| e.to_string())?;
    let fresh_curve = !std::path::Path::new(&curve).exists();
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&curve)
        .map_err(|e| format!("cannot open `{curve}`: {e}"))?;
    if fresh_curve {
        writeln!(
            csv,
            "games,tournament_games,win_rate,ci_low,ci_high,fair,seconds"
        )
        .map_err(|e| e.to_string())?;
    }
    // Every curve point plays the same deals, so points differ by the network only.
    let eval_seed = o.seed ^ 0xC0FFEE;
    let point = |trainer: &Trainer, csv: &mut std::fs::File| -> Result<(), String> {
        if o.eval_deals == 0 {
            return Ok(());
        }
        let p = trainer
            .evaluate(o.eval_deals, eval_seed)
            .map_err(|e| e.to_string())?;
        writeln!(
            csv,
            "{},{},{:.5},{:.5},{:.5},{:.5},{:.1}",
            p.games, p.tournament_games, p.win_rate, p.ci_low, p.ci_high, p.fair, p.seconds
        )
        .map_err(|e| e.to_string())?;
        eprintln!(
            "\n{} games: win rate vs greedy {:.3} [{:.3}, {:.3}] (fair {:.3}), {} games",
            p.games, p.win_rate, p.ci_low, p.ci_high, p.fair, p.tournament_games
        );
        Ok(())
    };
    if resume.is_none() {
        point(&trainer, &mut csv)?;
    }
    let start = Instant::now();
    let first = trainer.network().info.games;
    while trainer.network().info.games < games {
        let done = trainer.network().info.games;
        // Chunks end on multiples of `every`, so a resumed run keeps the same curve points.
        let chunk = (every - done % every).min(games - done);
        trainer
            .train(chunk, |p| {
                let rate = (p.games - first) as f64 / start.elapsed().as_secs_f64().max(1e-9);
                eprint!(
                    "\r{preset}: {}/{games} games, {rate:.1} games/s, {:.0} plays/game   ",
                    p.games, p.plays_per_game
                );
                true
            })
            .map_err(|e| e.to_string())?;
        let bytes = trainer.network().to_bytes();
        std::fs::write(&out, bytes).map_err(|e| format!("cannot write `{out}`: {e}"))?;
        point(&trainer, &mut csv)?;
    }
    eprintln!(
        "\nsaved {out} ({} games; curve in {curve}); {:.0} s",
        trainer.network().info.games,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
