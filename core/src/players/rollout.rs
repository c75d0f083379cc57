//! Rollouts: per-seat win probabilities of a position, and of each legal play (a hint), estimated
//! by playing the game out many times with a chosen player.
//!
//! The plays of a hint are compared with common random numbers, as GNU Backgammon's rollouts do:
//! rollout `i` of every play uses the same dice (one stream per seat, seeded by the rollout
//! seed and `i`) and the same players' generators, so the difference between two plays is
//! measured far more precisely than either play's win probability.

use super::greedy::child;
use super::run::{DiceStreams, GameStats, in_pool, play_out};
use super::{Evaluate, Player, PlayerSpec, Policy, TypedVisitor};
use crate::error::{checked_count, try_with_capacity};
use crate::game::Game;
use crate::play::Play;
use crate::sim::game_seed;
use crate::system::Node;
use crate::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How to roll out: how many games, with which player, from which seed, on how many threads.
///
/// ```
/// let o = pachisi::players::RolloutOptions::default();
/// assert_eq!((o.rollouts, o.policy.as_str()), (500, "greedy"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RolloutOptions {
    /// Games played out per position (per play, for a hint).
    pub rollouts: usize,
    /// The player spec for every seat in the games played out (`random`, `greedy`, ...).
    pub policy: String,
    /// The seed of the dice and of the players' generators.
    pub seed: u64,
    /// Worker threads (`None`: all cores). The result does not depend on it.
    pub threads: Option<usize>,
}

impl Default for RolloutOptions {
    fn default() -> Self {
        RolloutOptions {
            rollouts: 500,
            policy: "greedy".into(),
            seed: 0,
            threads: None,
        }
    }
}

/// Per-seat win probabilities of a position, estimated by rollouts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Per seat: the share of rollouts it won (a team's win counts for both partners).
    pub win: Vec<f64>,
    /// Per seat: the standard error of `win`.
    pub stderr: Vec<f64>,
    /// Games played out.
    pub rollouts: usize,
    /// Games stopped by the roll limit (counted as won by nobody).
    pub unfinished: usize,
}

/// One legal play of a hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HintRow {
    /// The play's index in the game's `legal_plays()`.
    pub index: usize,
    /// The play.
    pub play: Play,
    /// The play in the variant's move notation.
    pub notation: String,
    /// Per seat: the share of the rollouts after this play that the seat won.
    pub win: Vec<f64>,
    /// Per seat: the standard error of `win`.
    pub stderr: Vec<f64>,
    /// The mover's win probability after this play minus after the best play (0 for the best).
    pub diff: f64,
    /// The standard error of `diff` (paired rollouts: common dice).
    pub diff_stderr: f64,
}

/// Mean and standard error of the per-seat win indicators of some rollouts (`win` reads one
/// rollout's indicators).
fn mean_and_error<T>(
    rows: &[T],
    win: impl Fn(&T) -> [f64; 4],
    seats: usize,
) -> (Vec<f64>, Vec<f64>) {
    let n = rows.len().max(1) as f64;
    let mut mean = vec![0.0; seats];
    let mut err = vec![0.0; seats];
    for seat in 0..seats {
        let m = rows.iter().map(|r| win(r)[seat]).sum::<f64>() / n;
        mean[seat] = m;
        if rows.len() > 1 {
            // Wins are 0 or 1: the sample variance is m(1-m)n/(n-1).
            err[seat] = (m * (1.0 - m) / (n - 1.0)).sqrt();
        }
    }
    (mean, err)
}

/// Plays rollout `i` from `s`: 1 for each seat that won, and whether the game finished.
fn rollout<R: Evaluate>(
    sys: &R,
    s: R::State,
    spec: &PlayerSpec,
    seed: u64,
    i: u64,
) -> ([f64; 4], bool) {
    let seats = sys.seats();
    let game = game_seed(seed, i);
    let mut dice = DiceStreams::new(game, seats);
    // The players' generators: one per seat, the same for every play compared.
    let mut players: Vec<Box<dyn Policy>> = (0..seats)
        .map(|seat| {
            Box::new(Player::new(
                spec.clone(),
                game_seed(game ^ 0x5EED, seat as u64),
            )) as Box<dyn Policy>
        })
        .collect();
    let mut stats = GameStats::default();
    let mut buf = Vec::new();
    let outcome = play_out(sys, s, &mut players, &mut dice, &mut stats, &mut buf);
    let mut w = [0.0; 4];
    if let Some(o) = outcome {
        for (seat, x) in w.iter_mut().enumerate() {
            *x = o.is_winner(seat as u8) as u8 as f64;
        }
    }
    (w, outcome.is_some())
}

fn check(options: &RolloutOptions) -> Result<PlayerSpec> {
    if options.rollouts == 0 {
        return Err(Error::InvalidPlayer("rollouts must be at least 1".into()));
    }
    options.policy.parse()
}

/// Per-seat win probabilities of `game`'s position (from the start of the current play), by
/// `options.rollouts` games played out with `options.policy` in every seat.
///
/// ```
/// use pachisi::players::{RolloutOptions, evaluate};
/// let g = pachisi::Game::from_preset("backgammon", 1).unwrap();
/// let opts = RolloutOptions { rollouts: 40, policy: "random".into(), ..Default::default() };
/// let e = evaluate(&g, &opts).unwrap();
/// assert!((e.win[0] + e.win[1] - 1.0).abs() < 1e-9);
/// assert_eq!(e, evaluate(&g, &RolloutOptions { threads: Some(1), ..opts }).unwrap());
/// ```
pub fn evaluate(game: &Game, options: &RolloutOptions) -> Result<Evaluation> {
    let spec = check(options)?;
    struct Eval<'o>(&'o RolloutOptions, PlayerSpec);
    impl TypedVisitor for Eval<'_> {
        type Output = Result<Vec<([f64; 4], bool)>>;
        fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> Self::Output {
            let (opts, spec) = (self.0, &self.1);
            spec.check_system(sys)?;
            let s = *s;
            let mut results = try_with_capacity(opts.rollouts, "rollouts")?;
            in_pool(opts.threads, || {
                (0..opts.rollouts)
                    .into_par_iter()
                    .map(|i| rollout(sys, s, spec, opts.seed, i as u64))
                    .collect_into_vec(&mut results)
            })?;
            Ok(results)
        }
    }
    let seats = game.seats() as usize;
    if game.node() == Node::Over {
        // Every rollout of a finished game ends as it did: exact, nothing to play out (a game
        // cut by `max_rolls` stays cut, won by nobody).
        let w = super::eval::terminal_values(game.outcome());
        return Ok(Evaluation {
            win: w[..seats].to_vec(),
            stderr: vec![0.0; seats],
            rollouts: options.rollouts,
            unfinished: if game.is_truncated() {
                options.rollouts
            } else {
                0
            },
        });
    }
    let results = super::with_game_state(game, Eval(options, spec))?;
    let (win, stderr) = mean_and_error(&results, |r| r.0, seats);
    Ok(Evaluation {
        win,
        stderr,
        rollouts: results.len(),
        unfinished: results.iter().filter(|r| !r.1).count(),
    })
}

/// Every legal play of `game` with the per-seat win probabilities after it, by rollouts with
/// common random numbers: the best play for the seat to move first (the hint of GNU Backgammon).
///
/// An error ([`Error::WrongPhase`]) unless a play is due.
///
/// ```
/// use pachisi::players::{RolloutOptions, hint};
/// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
/// g.set_roll(pachisi::Roll::Dice([3, 1])).unwrap();
/// let opts = RolloutOptions { rollouts: 30, policy: "greedy".into(), ..Default::default() };
/// let rows = hint(&g, &opts).unwrap();
/// assert_eq!(rows.len(), g.legal_plays().len());
/// assert_eq!(rows[0].diff, 0.0);
/// assert!(rows.windows(2).all(|w| w[0].win[0] >= w[1].win[0]));
/// ```
pub fn hint(game: &Game, options: &RolloutOptions) -> Result<Vec<HintRow>> {
    let spec = check(options)?;
    if game.node() != Node::Decision {
        return Err(Error::WrongPhase(
            "a hint needs a decision: no play is due".into(),
        ));
    }
    let plays = game.legal_plays();
    struct Hint<'o>(&'o RolloutOptions, PlayerSpec, &'o [Play]);
    impl TypedVisitor for Hint<'_> {
        type Output = Result<Vec<[f64; 4]>>;
        fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> Self::Output {
            let (opts, spec, plays) = (self.0, &self.1, self.2);
            spec.check_system(sys)?;
            let children: Vec<R::State> = plays.iter().map(|p| child(sys, s, p)).collect();
            let n = opts.rollouts;
            let total = checked_count(children.len(), n, "rollouts (plays x rollouts)")?;
            let mut wins = try_with_capacity(total, "rollouts (plays x rollouts)")?;
            in_pool(opts.threads, || {
                (0..total)
                    .into_par_iter()
                    .map(|k| rollout(sys, children[k / n], spec, opts.seed, (k % n) as u64).0)
                    .collect_into_vec(&mut wins)
            })?;
            Ok(wins)
        }
    }
    let wins = super::with_game_state(game, Hint(options, spec, &plays))?;
    let seats = game.seats() as usize;
    let mover = game.to_move() as usize;
    let n = options.rollouts;
    let per_play: Vec<&[[f64; 4]]> = wins.chunks(n).collect();
    let mover_mean = |w: &[[f64; 4]]| w.iter().map(|x| x[mover]).sum::<f64>() / n as f64;
    let mut order: Vec<usize> = (0..plays.len()).collect();
    // Stable: equal plays keep the generator's order.
    order.sort_by(|&a, &b| mover_mean(per_play[b]).total_cmp(&mover_mean(per_play[a])));
    let best = per_play[order[0]];
    let formatter = game.play_formatter();
    Ok(order
        .into_iter()
        .map(|i| {
            let w = per_play[i];
            let (win, stderr) = mean_and_error(w, |x| *x, seats);
            // The paired differences, read twice rather than stored (n may be large).
            let d = || w.iter().zip(best).map(|(a, b)| a[mover] - b[mover]);
            let diff = d().sum::<f64>() / n as f64;
            let diff_stderr = if n > 1 {
                let var = d().map(|x| (x - diff).powi(2)).sum::<f64>() / (n - 1) as f64;
                (var / n as f64).sqrt()
            } else {
                0.0
            };
            HintRow {
                index: i,
                play: plays[i],
                notation: formatter(&plays[i]),
                win,
                stderr,
                diff,
                diff_stderr,
            }
        })
        .collect())
}
