//! What a `td` network reads: the input encoding of a position.
//!
//! Two encodings, named in the network file's header ([`crate::nn::NetworkInfo::encoding`]):
//!
//! - [`InputEncoding::Observation`]: the reinforcement-learning observation
//!   ([`crate::rl::Encoder::write_observation`]) as it is: raw piece counts per position. The
//!   first shipped networks read it; their files name no encoding.
//! - [`InputEncoding::Features`]: the same position in the form a small network learns from
//!   best (TD-Gammon's and Matthews' lesson: a count of 5 is not "5 times a count of 1"):
//!   1. **truncated-unary occupancy**: for each owner (the observer's colour first) and each
//!      position of its coordinates, four inputs `n >= 1`, `n >= 2`, `n >= 3` and
//!      `max(n - 3, 0) / 2` for `n` pieces there. A lone piece (a blot), a pair (a point, a
//!      blockade, a gate) and a stack each get their own input;
//!   2. **nest and home** per owner, as shares of its pieces;
//!   3. **derived features** per seat (the observer first): the rule system's evaluator features
//!      ([`super::Evaluate::FEATURES`]: progress or pips, pieces home, pieces at risk, safe
//!      pieces, blockades, primes, bonuses...), each multiplied by a scale stored in the network
//!      file ([`crate::nn::NetworkInfo::feature_scales`], one over the largest magnitude the
//!      feature reached in seeded random games when the network was made, see
//!      [`measure_feature_scales`]), so that each lies in about `[-1, 1]`;
//!   4. the rest of the observation unchanged: safe squares, the seat to move, partners, steps
//!      taken, and the system's own views (dice, values left, pending bonuses, counters, cube).
//!
//! The same encoding is the `features` observation of the reinforcement-learning interfaces
//! ([`crate::rl::Encoder`] writes the plain observation; [`TdInput`] writes this one).
//!
//! ```
//! use pachisi::players::{InputEncoding, TdInput, measure_feature_scales};
//! use pachisi::{RuleSystem, SystemRules, backgammon::BackgammonRules};
//! let sys = BackgammonRules::standard().build().unwrap();
//! let scales = measure_feature_scales(&sys, 1);
//! let input = TdInput::new(&sys, InputEncoding::Features, &scales).unwrap();
//! let mut x = vec![0.0; input.size()];
//! input.write(&sys.initial_state(), 0, &mut x);
//! // Our 24-point holds two checkers: its first two units are on, the third off.
//! let units = input.view("occupancy_units").unwrap().offset + 24 * 4;
//! assert_eq!(&x[units..units + 4], &[1.0, 1.0, 0.0, 0.0]);
//! ```

use super::Evaluate;
use super::eval::{MAX_FEATURES, Row};
use crate::dice::{GameRng, rng_from_seed};
use crate::play::Step;
use crate::rl::{Encoder, View};
use crate::system::{Node, Orders};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// Which input encoding a network reads (see the module docs).
///
/// ```
/// use pachisi::players::InputEncoding;
/// assert_eq!("features".parse::<InputEncoding>().unwrap(), InputEncoding::Features);
/// assert!("raw".parse::<InputEncoding>().is_err());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputEncoding {
    /// The reinforcement-learning observation, raw counts.
    #[default]
    Observation,
    /// Truncated-unary occupancy, shares, scaled evaluator features, the rest of the observation.
    Features,
}

impl InputEncoding {
    /// The encoding's name.
    pub fn name(self) -> &'static str {
        match self {
            InputEncoding::Observation => "observation",
            InputEncoding::Features => "features",
        }
    }
}

impl std::fmt::Display for InputEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputEncoding {
    type Err = Error;
    fn from_str(s: &str) -> Result<InputEncoding> {
        match s {
            "observation" => Ok(InputEncoding::Observation),
            "features" => Ok(InputEncoding::Features),
            _ => Err(Error::InvalidArgument(format!(
                "unknown input encoding `{s}`: expected `features` or `observation`"
            ))),
        }
    }
}

/// Units per position of the truncated-unary occupancy.
const UNITS: usize = 4;

/// The input encoder of one system and encoding.
#[derive(Clone, Debug)]
pub struct TdInput<R: Evaluate> {
    enc: Encoder<R>,
    kind: InputEncoding,
    scales: [f32; MAX_FEATURES],
    views: Vec<View>,
    size: usize,
    /// Where the copied tail of the observation starts in the observation.
    tail_from: usize,
}

thread_local! {
    /// The plain observation, transformed into the features encoding.
    static OBS: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

impl<R: Evaluate> TdInput<R> {
    /// The encoder of `sys` for `kind`; `scales` (one per evaluator feature) are needed by
    /// [`InputEncoding::Features`] and ignored otherwise. An error when their number is wrong
    /// or one is not finite.
    pub fn new(sys: &R, kind: InputEncoding, scales: &[f32]) -> Result<TdInput<R>> {
        let enc = Encoder::new(sys);
        let mut sc = [0.0f32; MAX_FEATURES];
        if kind == InputEncoding::Features {
            if scales.len() != R::FEATURES.len() || scales.iter().any(|x| !x.is_finite()) {
                return Err(Error::InvalidPlayer(format!(
                    "the `features` encoding needs {} finite feature scales, got {:?}",
                    R::FEATURES.len(),
                    scales
                )));
            }
            sc[..scales.len()].copy_from_slice(scales);
        }
        let (views, size, tail_from) = match kind {
            InputEncoding::Observation => (enc.views().to_vec(), enc.observation_size(), 0),
            InputEncoding::Features => {
                let owners = sys.owners() as usize;
                let seats = sys.seats() as usize;
                let positions = sys.rl_positions() as usize;
                let tail_from = enc
                    .view("safe")
                    .map_or(enc.observation_size(), |v| v.offset);
                let mut shapes: Vec<(&'static str, Vec<usize>)> = vec![
                    ("occupancy_units", vec![owners, positions, UNITS]),
                    ("nest_share", vec![owners]),
                    ("home_share", vec![owners]),
                    ("features", vec![seats, R::FEATURES.len()]),
                ];
                shapes.extend(
                    enc.views()
                        .iter()
                        .filter(|v| v.offset >= tail_from)
                        .map(|v| (v.name, v.shape.clone())),
                );
                let (views, size) = crate::rl::lay_out_views(shapes);
                (views, size, tail_from)
            }
        };
        Ok(TdInput {
            enc,
            kind,
            scales: sc,
            views,
            size,
            tail_from,
        })
    }

    /// The encoding.
    pub fn encoding(&self) -> InputEncoding {
        self.kind
    }

    /// The number of inputs.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The named views of the input vector, in order.
    pub fn views(&self) -> &[View] {
        &self.views
    }

    /// The view called `name`.
    pub fn view(&self, name: &str) -> Option<&View> {
        self.views.iter().find(|v| v.name == name)
    }

    /// The system.
    pub fn system(&self) -> &R {
        self.enc.system()
    }

    /// Writes the input of `s` from `observer`'s point of view into `out` (at least
    /// [`TdInput::size`] long), with no step of the current play taken
    /// ([`TdInput::write_taken`] with none).
    pub fn write(&self, s: &R::State, observer: u8, out: &mut [f32]) {
        self.write_taken(s, &[], observer, out);
    }

    /// Writes the input of `s`, the position with the steps `taken` so far in the current play
    /// applied, from `observer`'s point of view into `out` (at least [`TdInput::size`] long):
    /// what the reinforcement-learning environments write as their `features` observation
    /// ([`crate::rl::Observation::Features`]) in the middle of a play. The steps count in the
    /// copied `taken` view (and in the system's own views where it reads them: backgammon's
    /// dice still to play); the occupancy and the derived features are those of `s`.
    ///
    /// ```
    /// use pachisi::players::{InputEncoding, TdInput, measure_feature_scales};
    /// use pachisi::{Orders, Roll, RuleSystem, SystemRules, backgammon::BackgammonRules};
    /// let sys = BackgammonRules { cube: false, ..BackgammonRules::standard() }.build().unwrap();
    /// let scales = measure_feature_scales(&sys, 1);
    /// let input = TdInput::new(&sys, InputEncoding::Features, &scales).unwrap();
    /// let mut s = sys.initial_state();
    /// sys.begin_roll(&mut s, Roll::Dice([3, 1]));
    /// let mut plays = Vec::new();
    /// sys.generate(&s, Orders::All, &mut plays);
    /// let first = plays[0].steps()[0];
    /// sys.apply_step(&mut s, &first);
    /// let mut x = vec![0.0; input.size()];
    /// input.write_taken(&s, &[first], 0, &mut x);
    /// let taken = input.view("taken").unwrap();
    /// assert_eq!(x[taken.offset..taken.offset + taken.size()].iter().sum::<f32>(), 1.0);
    /// ```
    pub fn write_taken(&self, s: &R::State, taken: &[Step], observer: u8, out: &mut [f32]) {
        if self.kind == InputEncoding::Observation {
            self.enc.write_observation(s, taken, observer, out);
            return;
        }
        let out = &mut out[..self.size];
        OBS.with(|obs| {
            let mut obs = obs.borrow_mut();
            obs.resize(self.enc.observation_size(), 0.0);
            self.enc.write_observation(s, taken, observer, &mut obs);
            let sys = self.enc.system();
            let owners = sys.owners() as usize;
            let positions = sys.rl_positions() as usize;
            let pieces = f32::from(sys.rl_pieces().max(1));
            let cells = owners * positions;
            for (units, &n) in out[..cells * UNITS]
                .chunks_exact_mut(UNITS)
                .zip(&obs[..cells])
            {
                units[0] = f32::from(u8::from(n >= 1.0));
                units[1] = f32::from(u8::from(n >= 2.0));
                units[2] = f32::from(u8::from(n >= 3.0));
                units[3] = (n - 3.0).max(0.0) / 2.0;
            }
            let mut at = cells * UNITS;
            // The observation's `nest` and `home` views follow its occupancy.
            for (o, &n) in out[at..at + 2 * owners].iter_mut().zip(&obs[cells..]) {
                *o = n / pieces;
            }
            at += 2 * owners;
            let mut rows: [Row; 4] = [[0.0; MAX_FEATURES]; 4];
            sys.features(s, &mut rows);
            let seats = sys.seats() as usize;
            let nf = R::FEATURES.len();
            for r in 0..seats {
                let seat = (observer as usize + r) % seats;
                for i in 0..nf {
                    out[at + r * nf + i] = (rows[seat][i] as f32) * self.scales[i];
                }
            }
            at += seats * nf;
            out[at..].copy_from_slice(&obs[self.tail_from..]);
        });
    }
}

/// Scales for the `features` encoding of `sys`: for each evaluator feature, one over the
/// largest magnitude it reaches for any seat in 16 random games seeded from `seed` (at most
/// 2,000 rolls each), or 1 for a feature that stayed 0. Deterministic for the system and seed;
/// stored in the network file, so a network does not depend on how they were found.
///
/// ```
/// use pachisi::players::{Evaluate, measure_feature_scales};
/// use pachisi::{SystemRules, parcheesi::{ParcheesiRules, ParcheesiSystem}};
/// let sys = ParcheesiRules::parcheesi().build().unwrap();
/// let scales = measure_feature_scales(&sys, 1);
/// assert_eq!(scales.len(), ParcheesiSystem::FEATURES.len());
/// assert!(scales.iter().all(|&x| x > 0.0 && x.is_finite()));
/// ```
pub fn measure_feature_scales<R: Evaluate>(sys: &R, seed: u64) -> Vec<f32> {
    let nf = R::FEATURES.len();
    let seats = sys.seats() as usize;
    let mut most = vec![0.0f64; nf];
    let mut rng: GameRng = rng_from_seed(seed);
    let mut plays = Vec::new();
    let mut rows: [Row; 4] = [[0.0; MAX_FEATURES]; 4];
    for _ in 0..16 {
        let mut s = sys.initial_state();
        let mut rolls = 0;
        loop {
            match sys.node(&s) {
                Node::Over => break,
                Node::Chance => {
                    if rolls >= 2_000 {
                        break;
                    }
                    let roll = sys.sample_roll(&s, &mut rng);
                    sys.begin_roll(&mut s, roll);
                    rolls += 1;
                    continue;
                }
                Node::Decision => {}
            }
            play_at_random(sys, &mut s, &mut rng, &mut plays);
            sys.features(&s, &mut rows);
            for row in rows.iter().take(seats) {
                for (m, &f) in most.iter_mut().zip(row.iter()) {
                    *m = m.max(f.abs());
                }
            }
        }
    }
    most.iter()
        .map(|&m| if m > 0.0 { (1.0 / m) as f32 } else { 1.0 })
        .collect()
}

/// Plays one of the distinct legal plays of the decision node `s`, chosen uniformly (the
/// pass when there is none).
pub(crate) fn play_at_random<R: Evaluate>(
    sys: &R,
    s: &mut R::State,
    rng: &mut GameRng,
    plays: &mut Vec<crate::play::Play>,
) {
    plays.clear();
    sys.generate(s, Orders::Distinct, plays);
    let steps = if plays.is_empty() {
        Vec::new()
    } else {
        plays[crate::sim::uniform_index(rng, plays.len())]
            .steps()
            .to_vec()
    };
    for step in &steps {
        sys.apply_step(s, step);
    }
    sys.end_play(s, &steps);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    struct Check;
    impl super::super::SystemWork for Check {
        type Output = ();
        fn run<R: Evaluate>(self, sys: &R) {
            let scales = measure_feature_scales(sys, 3);
            assert_eq!(scales, measure_feature_scales(sys, 3), "deterministic");
            let input = TdInput::new(sys, InputEncoding::Features, &scales).unwrap();
            let last = input.views().last().unwrap();
            assert_eq!(last.offset + last.size(), input.size());
            let enc = Encoder::new(sys);
            let mut obs = vec![0.0; enc.observation_size()];
            let mut x = vec![f32::NAN; input.size()];
            let mut rng = rng_from_seed(9);
            let mut s = sys.initial_state();
            let mut plays = Vec::new();
            for _ in 0..300 {
                match sys.node(&s) {
                    Node::Over => break,
                    Node::Chance => {
                        let roll = sys.sample_roll(&s, &mut rng);
                        sys.begin_roll(&mut s, roll);
                        continue;
                    }
                    Node::Decision => {}
                }
                let observer = sys.to_move(&s);
                input.write(&s, observer, &mut x);
                enc.write_observation(&s, &[], observer, &mut obs);
                assert!(x.iter().all(|v| v.is_finite()));
                // The units decode back to the counts.
                let occ = enc.view("occupancy").unwrap();
                for (i, &n) in obs[occ.offset..occ.offset + occ.size()].iter().enumerate() {
                    let u = &x[i * UNITS..(i + 1) * UNITS];
                    let back = if n >= 3.0 {
                        3.0 + 2.0 * u[3]
                    } else {
                        u[0] + u[1]
                    };
                    assert_eq!(back, n);
                }
                // The tail is the observation's, from `safe` on.
                let safe = enc.view("safe").unwrap().offset;
                let tail = input.view("safe").unwrap().offset;
                assert_eq!(&x[tail..], &obs[safe..]);
                // The derived features are the evaluator's, scaled, observer first.
                let mut rows: [Row; 4] = [[0.0; MAX_FEATURES]; 4];
                sys.features(&s, &mut rows);
                let f = input.view("features").unwrap().offset;
                let nf = R::FEATURES.len();
                let want = rows[observer as usize][0] as f32 * scales[0];
                assert_eq!(x[f], want);
                let next = (observer as usize + 1) % sys.seats() as usize;
                assert_eq!(x[f + nf], rows[next][0] as f32 * scales[0]);
                play_at_random(sys, &mut s, &mut rng, &mut plays);
            }
            assert!(TdInput::new(sys, InputEncoding::Features, &scales[1..]).is_err());
            let plain = TdInput::new(sys, InputEncoding::Observation, &[]).unwrap();
            assert_eq!(plain.size(), enc.observation_size());
        }
    }

    /// The scales a shipped network stores are the ones the trainer measured, which the RL
    /// `features` observation measures again: the two encodings stay the same.
    struct ShippedScales(&'static str);
    impl super::super::SystemWork for ShippedScales {
        type Output = ();
        fn run<R: Evaluate>(self, sys: &R) {
            let net = super::super::shipped_network(self.0).unwrap();
            if net.info.encoding == InputEncoding::Features {
                assert_eq!(
                    net.info.feature_scales,
                    measure_feature_scales(sys, 1),
                    "{}",
                    self.0
                );
            }
        }
    }

    #[test]
    fn shipped_networks_store_the_measured_scales() {
        for preset in crate::rules::VARIANTS {
            let rules = Rules::preset(preset).unwrap();
            super::super::with_system(&rules, ShippedScales(preset)).unwrap();
        }
    }

    #[test]
    fn the_features_encoding_holds_the_observation_in_units_shares_and_features() {
        for preset in crate::rules::VARIANTS {
            let rules = Rules::preset(preset).unwrap();
            super::super::with_system(&rules, Check).unwrap();
        }
    }
}
