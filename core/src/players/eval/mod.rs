//! Position evaluators: per-seat features, weighted into scores, turned into win probabilities.
//!
//! Each rule system describes a position by a few features per seat ([`Evaluate::FEATURES`]:
//! progress, pieces home, pieces at risk, safe squares, blockades or gates, ...). A seat's score
//! is the weighted sum of its features, in squares (pips) of progress; the scores of partners add
//! up to their side's score (teams score as teams); and the sides' scores become win
//! probabilities by a softmax whose scale grows with the race still to run
//! ([`Evaluate::scale`]): a lead of ten squares decides little at the start and much near the end.

mod backgammon;
mod classic;
mod family;
mod parcheesi;

use super::{Decision, TypedVisitor};
use crate::game::Game;
use crate::play::Play;
use crate::system::{Node, Outcome, RuleSystem};

/// How much of its risk a seat about to roll runs: it moves before anyone can hit it and may
/// carry a piece out of reach, but rarely all of them.
pub(crate) const ON_ROLL_RISK: f64 = 0.5;

/// Whether `attacker` moves before `victim` moves again, `turn` being the seat (or colour) to
/// move of `seats` in turn order: only those can hit the victim's pieces before it can run.
/// Every other seat counts for the victim on turn (its risk is then scaled by
/// [`ON_ROLL_RISK`]).
pub(crate) fn moves_first(turn: usize, victim: usize, attacker: usize, seats: usize) -> bool {
    if attacker == victim {
        return false;
    }
    if victim == turn {
        return true;
    }
    let after_turn = |x: usize| (x + seats - turn) % seats;
    after_turn(attacker) < after_turn(victim)
}

/// The most features an evaluator has.
pub const MAX_FEATURES: usize = 12;

/// One row of features (the first `FEATURES.len()` entries are used).
pub(crate) type Row = [f64; MAX_FEATURES];

/// One feature of an evaluator: its name (the key that overrides its weight in a player spec),
/// its default weight and what it measures.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Feature {
    /// The name, e.g. `risk`.
    pub name: &'static str,
    /// The default weight (score per unit of the feature, in squares of progress).
    pub weight: f64,
    /// What the feature measures.
    pub doc: &'static str,
}

/// A rule system the built-in players can play: its evaluator.
///
/// Implemented by every system of [`crate::for_each_system`]; a new system needs one to be
/// registered. Its observation encoding ([`crate::rl::Encode`]) is the learned (`td`)
/// evaluator's input.
pub trait Evaluate: RuleSystem + crate::rl::Encode {
    /// The features, in the order [`Evaluate::features`] writes them.
    const FEATURES: &'static [Feature];

    /// Writes each seat's features (`out[seat][i]` for feature `i`; seats not in play are
    /// ignored).
    fn features(&self, s: &Self::State, out: &mut [Row; 4]);

    /// [`Evaluate::features`] where only the features whose bit is set in `used` need to be
    /// right (the others may be left at 0): an evaluator may skip costly features whose
    /// weight is zero. The default computes them all.
    ///
    /// ```
    /// use pachisi::parcheesi::ParcheesiRules;
    /// use pachisi::players::{Evaluate, MAX_FEATURES};
    /// use pachisi::{RuleSystem, SystemRules};
    /// let sys = ParcheesiRules::parcheesi().build().unwrap();
    /// let s = sys.initial_state();
    /// let (mut all, mut some) = ([[0.0; MAX_FEATURES]; 4], [[0.0; MAX_FEATURES]; 4]);
    /// sys.features(&s, &mut all);
    /// sys.features_used(&s, &mut some, 1 << 2); // only feature 2 (`nest`) is needed
    /// assert_eq!(some[1][2], 4.0);
    /// assert_eq!(some[1][2], all[1][2]);
    /// ```
    fn features_used(&self, s: &Self::State, out: &mut [Row; 4], used: u16) {
        let _ = used;
        self.features(s, out);
    }

    /// The score difference that makes odds of e:1 between two sides at `s`.
    fn scale(&self, s: &Self::State) -> f64;

    /// This system's decision node at `s` (for [`crate::Policy::choose_at`]).
    fn decision<'a>(&'a self, s: &'a Self::State) -> Decision<'a>;

    /// Named weight sets besides the defaults, chosen by `weights=<name>` in a greedy,
    /// expectimax or mcts spec: `(name, weights that differ from the defaults)`. A set a
    /// system lacks leaves its defaults (a spec is not tied to one system).
    ///
    /// ```
    /// use pachisi::parcheesi::ParcheesiSystem;
    /// use pachisi::players::Evaluate;
    /// assert!(ParcheesiSystem::WEIGHT_SETS.iter().any(|(name, _)| *name == "tuned"));
    /// ```
    const WEIGHT_SETS: &'static [(&'static str, &'static [(&'static str, f64)])] = &[];

    /// Whether [`Evaluate::pubeval`] scores this system's positions (backgammon only).
    const HAS_PUBEVAL: bool = false;

    /// Tesauro's PubEval score of `after`, the position after the mover of `before` played,
    /// for that mover (higher is better; the player `pubeval` maximises it), or `None` where
    /// the system has no PubEval (every system but backgammon).
    ///
    /// ```
    /// use pachisi::backgammon::{BackgammonRules, BgState, Phase};
    /// use pachisi::players::Evaluate;
    /// use pachisi::SystemRules;
    /// let sys = BackgammonRules::standard().build().unwrap();
    /// let mut before = BgState::start(Phase::Move);
    /// before.turn = 0;
    /// let mut after = before;
    /// // 8/5 6/5 (the opening 3-1) scores higher than leaving the board as it was.
    /// after.checkers[0][8] -= 1;
    /// after.checkers[0][6] -= 1;
    /// after.checkers[0][5] += 2;
    /// assert!(sys.pubeval(&before, &after).unwrap() > sys.pubeval(&before, &before).unwrap());
    /// ```
    fn pubeval(&self, _before: &Self::State, _after: &Self::State) -> Option<f64> {
        None
    }
}

/// An evaluator with its weights resolved: per-seat win probabilities of positions.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator<'a, R: Evaluate> {
    pub sys: &'a R,
    weights: Row,
    /// Bit `i` set where feature `i`'s weight is not zero (the others need not be computed).
    used: u16,
    seats: usize,
    /// Side index of each seat.
    side_of: [usize; 4],
    sides: usize,
    /// A learned evaluator that replaces the weighted features (the `td` player).
    net: Option<super::td::NetEval<R>>,
}

impl<'a, R: Evaluate> Evaluator<'a, R> {
    /// The evaluator of `sys` with default weights, some changed by name (names the system's
    /// evaluator lacks are ignored: specs are not tied to one system).
    pub fn new(sys: &'a R, overrides: &[(String, f64)]) -> Evaluator<'a, R> {
        Evaluator::with_set(sys, None, overrides)
    }

    /// The evaluator of a player spec: the defaults, then its named weight set (where `sys`
    /// has one of that name, [`Evaluate::WEIGHT_SETS`]), then its single weights.
    pub fn for_spec(sys: &'a R, spec: &super::PlayerSpec) -> Evaluator<'a, R> {
        Evaluator::with_set(sys, spec.weight_set.as_deref(), &spec.weights)
    }

    fn with_set(sys: &'a R, set: Option<&str>, overrides: &[(String, f64)]) -> Evaluator<'a, R> {
        let mut weights = [0.0; MAX_FEATURES];
        for (w, f) in weights.iter_mut().zip(R::FEATURES) {
            *w = f.weight;
        }
        let mut set_weights = |name: &str, w: f64| {
            if let Some(i) = R::FEATURES.iter().position(|f| f.name == name) {
                weights[i] = w;
            }
        };
        if let Some((_, ws)) = set.and_then(|n| R::WEIGHT_SETS.iter().find(|(k, _)| *k == n)) {
            for &(name, w) in ws.iter() {
                set_weights(name, w);
            }
        }
        for (name, w) in overrides {
            set_weights(name, *w);
        }
        let seats = sys.seats().min(4) as usize;
        let mut side_of = [0usize; 4];
        let mut sides = 0;
        for seat in 0..seats {
            let team = sys.team(seat as u8);
            // A seat joins the side of its lowest partner.
            let first = team.trailing_zeros() as usize;
            if first < seat {
                side_of[seat] = side_of[first];
            } else {
                side_of[seat] = sides;
                sides += 1;
            }
        }
        let used = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0.0)
            .fold(0u16, |m, (i, _)| m | 1 << i);
        Evaluator {
            sys,
            weights,
            used,
            seats,
            side_of,
            sides,
            net: None,
        }
    }

    /// The evaluator whose values come from a network (see [`super::td`]); `None` when the
    /// network's shape does not fit the system.
    pub fn with_network(
        sys: &'a R,
        net: std::sync::Arc<crate::nn::Network>,
    ) -> Option<Evaluator<'a, R>> {
        let mut ev = Evaluator::new(sys, &[]);
        ev.net = Some(super::td::NetEval::new(sys, net)?);
        Some(ev)
    }

    /// The side (an index below [`Evaluator::sides`]) of each seat.
    pub fn side_of(&self) -> &[usize; 4] {
        &self.side_of
    }

    /// Number of sides (teams, or seats when there are none).
    pub fn sides(&self) -> usize {
        self.sides
    }

    /// Per-seat weighted scores.
    pub fn scores(&self, s: &R::State) -> [f64; 4] {
        let mut rows = [[0.0; MAX_FEATURES]; 4];
        self.sys.features_used(s, &mut rows, self.used);
        let mut out = [0.0; 4];
        for (seat, row) in rows.iter().enumerate().take(self.seats) {
            out[seat] = row.iter().zip(&self.weights).map(|(f, w)| f * w).sum();
        }
        out
    }

    /// Per-seat win probabilities: exact at the end of the game, else the evaluator's estimate.
    /// Partners get their side's probability. A finished game is valued on the estimates'
    /// scale: 1 for a win and 0 for a loss, except with a network trained on points
    /// ([`Evaluator::points_scale`]).
    pub fn values(&self, s: &R::State) -> [f64; 4] {
        if self.sys.node(s) == Node::Over {
            let outcome = self.sys.outcome(s);
            return match self.points_scale() {
                Some(max) => self.points_values(outcome, max),
                None => terminal_values(outcome),
            };
        }
        if let Some(net) = &self.net {
            return net.values(self, s);
        }
        let scores = self.scores(s);
        let mut side_score = [0.0; 4];
        for seat in 0..self.seats {
            side_score[self.side_of[seat]] += scores[seat];
        }
        let scale = self.sys.scale(s).max(1e-6);
        let top = side_score[..self.sides]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let mut p = [0.0; 4];
        let mut total = 0.0;
        for side in 0..self.sides {
            p[side] = ((side_score[side] - top) / scale).exp();
            total += p[side];
        }
        let mut out = [0.0; 4];
        for seat in 0..self.seats {
            out[seat] = p[self.side_of[seat]] / total;
        }
        out
    }
}

impl<R: Evaluate> Evaluator<'_, R> {
    /// `Some(max_points)` when this evaluator's values are points, not win probabilities: a
    /// network trained with `max_points` above 1 (the backgammon network: 3) between two sides
    /// gives a side half a point plus half the difference of the points the sides are expected to
    /// win over `max_points`, so that a single win is worth 2/3, a gammon 5/6 and a
    /// backgammon 1. A finished game is then valued on that scale, not at 1 and 0: otherwise a
    /// search would count an opponent's reply that ends the game in a single loss as badly as a
    /// backgammon.
    pub fn points_scale(&self) -> Option<u32> {
        let max = self.net.as_ref()?.max_points();
        (max > 1 && self.sides == 2).then_some(max)
    }

    /// The values of a finished game on the points scale of [`Evaluator::points_scale`].
    fn points_values(&self, outcome: Option<Outcome>, max: u32) -> [f64; 4] {
        let Some(o) = outcome else {
            return terminal_values(None);
        };
        let worth = super::td::win_worth(o.points, max);
        let mut v = [0.0; 4];
        for (seat, x) in v.iter_mut().enumerate().take(self.seats) {
            *x = if o.is_winner(seat as u8) {
                0.5 + worth / 2.0
            } else {
                0.5 - worth / 2.0
            };
        }
        v
    }

    /// On the points scale ([`Evaluator::points_scale`]), the position after the first of
    /// `plays` that ends the game at `s` with a win for the mover: the mover takes it, whatever
    /// the values of the other plays. Winning at once is always best without a doubling cube
    /// (waiting can only let the loser save a gammon), but the estimate of a position the game
    /// goes on from may exceed the exact 2/3 of a single win. `None` when no play wins at once,
    /// and always on the scale of win probabilities (a win is 1 there, above any estimate).
    pub fn winning_child(&self, s: &R::State, plays: &[Play]) -> Option<R::State> {
        self.points_scale()?;
        let mover = self.sys.to_move(s);
        plays.iter().find_map(|play| {
            let c = super::greedy::child(self.sys, s, play);
            self.won_by(&c, mover).then_some(c)
        })
    }

    /// Whether the game is over at `s` with `seat` (its side) among the winners.
    pub fn won_by(&self, s: &R::State, seat: u8) -> bool {
        self.sys.node(s) == Node::Over && self.sys.outcome(s).is_some_and(|o| o.is_winner(seat))
    }
}

/// 1 for each winning seat, 0 for the others (and for a game without an outcome).
pub(crate) fn terminal_values(outcome: Option<Outcome>) -> [f64; 4] {
    let mut v = [0.0; 4];
    if let Some(o) = outcome {
        for (seat, x) in v.iter_mut().enumerate() {
            if o.is_winner(seat as u8) {
                *x = 1.0;
            }
        }
    }
    v
}

/// The static evaluator's win probability of each seat in `game`'s position (exact once the
/// game is over), with default weights changed by `weights`.
///
/// ```
/// let g = pachisi::Game::from_preset("parcheesi", 1).unwrap();
/// let v = pachisi::players::static_values(&g, &[]);
/// assert_eq!(v.len(), 4);
/// assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-9);
/// ```
pub fn static_values(game: &Game, weights: &[(String, f64)]) -> Vec<f64> {
    struct Values<'w>(&'w [(String, f64)]);
    impl TypedVisitor for Values<'_> {
        type Output = Vec<f64>;
        fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> Vec<f64> {
            let v = Evaluator::new(sys, self.0).values(s);
            v[..sys.seats() as usize].to_vec()
        }
    }
    super::with_game_state(game, Values(weights))
}

/// The features of each seat in `game`'s position (at the start of the current play): one
/// `(feature, value per seat)` pair per feature of the game's evaluator.
///
/// ```
/// let g = pachisi::Game::from_preset("backgammon", 1).unwrap();
/// let f = pachisi::players::features(&g);
/// let progress = f.iter().find(|(feature, _)| feature.name == "progress").unwrap();
/// assert_eq!(progress.1, vec![-167.0, -167.0]); // the pip counts at the start
/// ```
pub fn features(game: &Game) -> Vec<(Feature, Vec<f64>)> {
    struct Features;
    impl TypedVisitor for Features {
        type Output = Vec<(Feature, Vec<f64>)>;
        fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> Self::Output {
            let mut rows = [[0.0; MAX_FEATURES]; 4];
            sys.features(s, &mut rows);
            let seats = sys.seats() as usize;
            R::FEATURES
                .iter()
                .enumerate()
                .map(|(i, f)| (*f, (0..seats).map(|seat| rows[seat][i]).collect()))
                .collect()
        }
    }
    super::with_game_state(game, Features)
}

/// The feature names of every evaluator (the weight keys a spec may use).
///
/// ```
/// assert!(pachisi::players::feature_names().contains(&"risk"));
/// ```
pub fn feature_names() -> Vec<&'static str> {
    super::all_feature_names()
}

/// Probability (in 36ths) that a roll of two dice lets a piece move exactly `d` squares with
/// one die or with both (the two dice's sum), for `d` in 1..=12; 0 elsewhere.
pub(crate) const fn two_dice_reach(d: usize) -> u32 {
    if d == 0 || d > 12 {
        return 0;
    }
    let mut n = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            if a == d || b == d || a + b == d {
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    n
}

/// A piece off the looping track (in a nest, start area or home column) in the per-seat square
/// tables the evaluators build for [`multiply_misses`].
pub(crate) const OFF_TRACK: u8 = u8::MAX;

/// Multiplies `p_missed` by the chance that each attacking piece misses `target` on a looping
/// track of `len` squares: piece `j` on square `attackers[j]` ([`OFF_TRACK`] when off it) hits
/// with chance `reach[d]`, `d` squares behind the target, when `may_reach(j, d)` (it would not
/// turn off the track first). Sequential, so every evaluator rounds the same way.
pub(crate) fn multiply_misses(
    p_missed: &mut f64,
    target: u8,
    attackers: &[u8],
    len: u8,
    reach: &[f64],
    mut may_reach: impl FnMut(usize, usize) -> bool,
) {
    for (j, &from) in attackers.iter().enumerate() {
        if from == OFF_TRACK {
            continue;
        }
        let d = (target as usize + len as usize - from as usize) % len as usize;
        if d < reach.len() && may_reach(j, d) {
            *p_missed *= 1.0 - reach[d];
        }
    }
}

/// [`two_dice_reach`] for 0..=12 as probabilities.
pub(crate) const REACH: [f64; 13] = {
    let mut t = [0.0; 13];
    let mut d = 1;
    while d <= 12 {
        t[d] = two_dice_reach(d) as f64 / 36.0;
        d += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_counts_single_dice_and_sums() {
        // A 1 needs a die showing 1: 11 of 36 rolls.
        assert_eq!(two_dice_reach(1), 11);
        // A 6: a die showing 6 (11) or a sum of 6 without a 6 (1-5, 5-1, 2-4, 4-2, 3-3).
        assert_eq!(two_dice_reach(6), 16);
        assert_eq!(two_dice_reach(12), 1);
        assert_eq!(two_dice_reach(13), 0);
    }

    #[test]
    fn misses_multiply_over_pieces_in_reach() {
        let mut p = 1.0;
        // 6 behind (reachable), off the track, 20 behind (out of reach), 3 behind but barred.
        multiply_misses(&mut p, 10, &[4, OFF_TRACK, 58, 7], 68, &REACH, |j, _| {
            j != 3
        });
        assert_eq!(p, 1.0 - REACH[6]);
        // Wrapping round the track: square 66 is 4 behind square 2.
        let mut q = 1.0;
        multiply_misses(&mut q, 2, &[66], 68, &REACH, |_, d| d == 4);
        assert_eq!(q, 1.0 - REACH[4]);
    }
}
