//! Playing a game out with one policy per seat and one dice stream per seat.

use super::{Evaluate, Policy};
use crate::dice::{GameRng, rng_from_seed};
use crate::play::Play;
use crate::sim::game_seed;
use crate::system::{Node, Orders, Outcome};
use crate::{Error, Result};
use std::time::Instant;

/// One generator per seat for its rolls: the k-th roll of a seat is the same whatever the seats
/// played before it, so games that differ only in the players share their luck seat by seat
/// (duplicate dice, common random numbers).
#[derive(Clone, Debug)]
pub(crate) struct DiceStreams {
    rngs: Vec<GameRng>,
}

impl DiceStreams {
    /// The streams of a game seeded with `seed`.
    pub fn new(seed: u64, seats: u8) -> DiceStreams {
        DiceStreams {
            rngs: (0..seats.max(1))
                .map(|s| rng_from_seed(game_seed(seed, s as u64)))
                .collect(),
        }
    }

    fn of(&mut self, seat: u8) -> &mut GameRng {
        let n = self.rngs.len();
        &mut self.rngs[seat as usize % n]
    }
}

/// What a game played out produced besides its outcome.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub(crate) struct GameStats {
    /// Rolls (chance events).
    pub rolls: u32,
    /// Pieces captured.
    pub captures: u32,
    /// Decisions with a choice (two or more plays) per seat.
    pub decisions: [u32; 4],
    /// Seconds each seat's policy spent choosing.
    pub seconds: [f64; 4],
}

/// Plays from `s` until the game ends (or the rules' `max_rolls` rolls, G-A): `policies[seat]`
/// chooses each play of `seat`, the rolls come from `dice`. `None` when the roll limit stopped
/// the game (truncated).
pub(crate) fn play_out<R: Evaluate>(
    sys: &R,
    mut s: R::State,
    policies: &mut [Box<dyn Policy>],
    dice: &mut DiceStreams,
    stats: &mut GameStats,
    buf: &mut Vec<Play>,
) -> Option<Outcome> {
    loop {
        match sys.node(&s) {
            Node::Over => return sys.outcome(&s),
            Node::Chance => {
                if stats.rolls >= sys.max_rolls() {
                    return None;
                }
                let roll = sys.sample_roll(&s, dice.of(sys.to_move(&s)));
                sys.begin_roll(&mut s, roll);
                stats.rolls += 1;
            }
            Node::Decision => {
                buf.clear();
                sys.generate(&s, Orders::Distinct, buf);
                let seat = sys.to_move(&s) as usize;
                let i = match buf.len() {
                    0 => {
                        sys.end_play(&mut s, &[]);
                        continue;
                    }
                    1 => 0,
                    n => {
                        let start = Instant::now();
                        let policy = &mut policies[seat % policies.len()];
                        let i = policy.choose_at(sys.decision(&s), buf);
                        stats.seconds[seat & 3] += start.elapsed().as_secs_f64();
                        stats.decisions[seat & 3] += 1;
                        // A policy of the caller's own may misbehave: its index is checked.
                        if i < n { i } else { 0 }
                    }
                };
                let play = buf[i];
                for step in play.steps() {
                    stats.captures += step.captured as u32;
                    sys.apply_step(&mut s, step);
                }
                sys.end_play(&mut s, play.steps());
            }
        }
    }
}

/// Runs `job` on `threads` worker threads (`None`: rayon's global pool, all cores); the count
/// is checked as [`crate::sim::worker_threads`] does (1..=[`crate::sim::MAX_THREADS`]), and a
/// pool that cannot start is [`Error::Resource`].
pub(crate) fn in_pool<T: Send>(
    threads: Option<usize>,
    job: impl FnOnce() -> T + Send,
) -> Result<T> {
    crate::sim::worker_threads(threads)?;
    match threads {
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| Error::Resource(format!("could not start {n} worker threads: {e}")))?;
            Ok(pool.install(job))
        }
        None => Ok(job()),
    }
}
