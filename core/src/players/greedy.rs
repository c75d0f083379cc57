//! The greedy player: one ply, the play whose resulting position the evaluator likes best.

use super::{Evaluate, Evaluator};
use crate::dice::GameRng;
use crate::play::Play;
use crate::system::RuleSystem;

/// Scores closer than this are a tie (the evaluator's sums are not exact).
pub(crate) const TIE: f64 = 1e-12;

/// The position after `play` at `s`, the turn passed on (extra rolls and game end included).
#[inline]
pub(crate) fn child<R: RuleSystem>(sys: &R, s: &R::State, play: &Play) -> R::State {
    let mut c = *s;
    for step in play.steps() {
        sys.apply_step(&mut c, step);
    }
    sys.end_play(&mut c, play.steps());
    c
}

/// The index of the play that maximises the mover's (its side's) win probability after it;
/// ties broken uniformly with `rng`.
pub(crate) fn choose<R: Evaluate>(
    ev: &Evaluator<'_, R>,
    s: &R::State,
    plays: &[Play],
    rng: &mut GameRng,
) -> usize {
    let mover = ev.sys.to_move(s);
    let points = ev.points_scale().is_some();
    best_index(plays, rng, |play| {
        let c = child(ev.sys, s, play);
        let v = ev.values(&c)[mover as usize];
        // On the points scale an immediate win comes first (`Evaluator::winning_child`); the
        // values are in [0, 1], so 2 more puts every winning play above every other one.
        if points && ev.won_by(&c, mover) {
            v + 2.0
        } else {
            v
        }
    })
}

/// The index of the first play with the highest `value` (0 when `plays` is empty): the first of
/// the plays [`best_index`] chooses among, without a generator (searches that predict a greedy
/// player's play deterministically).
pub(crate) fn first_best_index(plays: &[Play], mut value: impl FnMut(&Play) -> f64) -> usize {
    let (mut best, mut index) = (f64::NEG_INFINITY, 0);
    for (i, play) in plays.iter().enumerate() {
        let v = value(play);
        if v > best + TIE {
            (best, index) = (v, i);
        }
    }
    index
}

/// The index of the play with the highest `value` (0 when `plays` is empty); plays within
/// [`TIE`] of the best are tied, and ties are broken uniformly with `rng`.
pub(crate) fn best_index(
    plays: &[Play],
    rng: &mut GameRng,
    mut value: impl FnMut(&Play) -> f64,
) -> usize {
    let mut best = f64::NEG_INFINITY;
    let mut ties: Vec<usize> = Vec::new();
    for (i, play) in plays.iter().enumerate() {
        let v = value(play);
        if v > best + TIE {
            best = v;
            ties.clear();
            ties.push(i);
        } else if v >= best - TIE {
            ties.push(i);
        }
    }
    match ties.len() {
        0 => 0,
        1 => ties[0],
        n => ties[crate::sim::uniform_index(rng, n)],
    }
}
