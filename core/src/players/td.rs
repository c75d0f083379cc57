//! Learned players: a network ([`crate::nn`]) trained by self-play TD(λ) values positions; the
//! `td` player plays the play whose resulting position it values best (`td:depth=2` searches
//! with expectimax over it).
//!
//! The network's input is an encoding of the position ([`super::TdInput`]: the `features`
//! encoding for networks trained now, the plain reinforcement-learning observation for older
//! files) from the seat to move (at a chance node, the seat about to roll); output `k` is the estimated win probability of the seat `k` places after it.
//! Partners' outputs are averaged into their side's, and the sides' values are normalised to
//! sum to 1 before a player compares them.
//!
//! Networks are found by key: [`register_network`] stores one under a key that a spec names
//! (`td:weights=KEY`); without a key, `td` uses the network shipped for the game's preset
//! (embedded in the library, so no file is needed at run time). Rules that differ from every
//! preset use the shipped network of a preset of the same rule system whose input size and seat
//! count fit; when none fits, `td` plays as `greedy` (documented in `docs/PLAYERS.md`).
//!
//! ```
//! use pachisi::{Game, players};
//! let mut game = Game::from_preset("backgammon", 3).unwrap();
//! game.roll().unwrap();
//! let play = players::best_play(&game, "td", 0).unwrap();
//! assert!(game.legal_plays().contains(&play));
//! ```

use super::eval::Evaluator;
use super::td_input::{InputEncoding, TdInput, measure_feature_scales};
use super::{Evaluate, Player, PlayerKind, SystemWork, choose_typed, with_system};
use crate::dice::rng_from_seed;
use crate::nn::{Network, NetworkInfo};
use crate::play::Play;
use crate::rules::Rules;
use crate::sim::game_seed;
use crate::system::{Node, Orders, RuleSystem};
use crate::tournament::{TournamentOptions, tournament};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The shipped networks, one per preset (the files in `core/weights/`, see its README).
const SHIPPED: &[(&str, &[u8])] = &[
    ("parcheesi", include_bytes!("../../weights/parcheesi.td")),
    (
        "pachisi-family",
        include_bytes!("../../weights/pachisi-family.td"),
    ),
    (
        "pachisi-online",
        include_bytes!("../../weights/pachisi-online.td"),
    ),
    ("pachisi", include_bytes!("../../weights/pachisi.td")),
    ("backgammon", include_bytes!("../../weights/backgammon.td")),
];

fn registry() -> &'static Mutex<HashMap<String, Arc<Network>>> {
    static REG: OnceLock<Mutex<HashMap<String, Arc<Network>>>> = OnceLock::new();
    REG.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Registers `net` under `key` (replacing any network registered under it), for specs
/// `td:weights=KEY`.
///
/// ```
/// use pachisi::{Game, nn::Network, players};
/// let net = players::shipped_network("backgammon").unwrap();
/// players::register_network("my-net", (*net).clone());
/// assert!(players::registered_network("my-net").is_some());
/// let mut g = Game::from_preset("backgammon", 1).unwrap();
/// g.roll().unwrap();
/// players::best_play(&g, "td:weights=my-net", 0).unwrap();
/// ```
pub fn register_network(key: &str, net: Network) {
    let mut reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    reg.insert(key.to_string(), Arc::new(net));
}

/// The network registered under `key`, if any.
pub fn registered_network(key: &str) -> Option<Arc<Network>> {
    let reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    reg.get(key).cloned()
}

/// The network shipped for a preset (`None` for an unknown preset).
///
/// ```
/// let net = pachisi::players::shipped_network("parcheesi").unwrap();
/// assert_eq!(net.info.preset, "parcheesi");
/// assert_eq!(net.outputs(), 4);
/// ```
pub fn shipped_network(preset: &str) -> Option<Arc<Network>> {
    type Shipped = Vec<(&'static str, Option<Arc<Network>>)>;
    static NETS: OnceLock<Shipped> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|(p, bytes)| (*p, Network::from_bytes(bytes).ok().map(Arc::new)))
            .collect()
    });
    nets.iter()
        .find(|(p, _)| *p == preset)
        .and_then(|(_, n)| n.clone())
}

/// Whether the system `sys` is built from the preset `preset`'s rules exactly.
fn is_preset<R: RuleSystem>(sys: &R, preset: &str) -> bool {
    struct Same<'a, R>(&'a R);
    impl<R: RuleSystem> SystemWork for Same<'_, R> {
        type Output = bool;
        fn run<R2: Evaluate>(self, other: &R2) -> bool {
            // The systems have no equality; their full Debug text stands for it.
            (other as &dyn Any)
                .downcast_ref::<R>()
                .is_some_and(|o| format!("{o:?}") == format!("{:?}", self.0))
        }
    }
    Rules::preset(preset)
        .and_then(|r| with_system(&r, Same(sys)))
        .unwrap_or(false)
}

/// Whether `net` can value positions of `sys`: its input encoding and size and its outputs
/// (one per seat) fit.
pub(crate) fn network_fits<R: Evaluate>(sys: &R, net: &Network) -> bool {
    input_for(sys, net).is_some() && net.outputs() == sys.seats() as usize
}

/// The shipped network for `sys`: its preset's, else one of the same system that fits.
fn default_network<R: Evaluate>(sys: &R) -> Option<Arc<Network>> {
    let fits = |n: &Network| network_fits(sys, n);
    for (preset, _) in SHIPPED {
        if is_preset(sys, preset) {
            return shipped_network(preset).filter(|n| fits(n));
        }
    }
    SHIPPED.iter().find_map(|(preset, _)| {
        let same_system = Rules::preset(preset)
            .and_then(|r| with_system(&r, SameType::<R>(std::marker::PhantomData)))
            .unwrap_or(false);
        shipped_network(preset).filter(|n| same_system && fits(n))
    })
}

struct SameType<R>(std::marker::PhantomData<R>);
impl<R: 'static> SystemWork for SameType<R> {
    type Output = bool;
    fn run<R2: Evaluate>(self, _: &R2) -> bool {
        TypeId::of::<R2>() == TypeId::of::<R>()
    }
}

/// The network a `td` player uses in `sys`, cached in the player (looked up once per system).
pub(crate) fn network_for<R: Evaluate>(player: &mut Player, sys: &R) -> Option<Arc<Network>> {
    if let Some((t, n)) = &player.td_cache {
        if *t == TypeId::of::<R>() {
            return n.clone();
        }
    }
    let n = match &player.spec.network {
        Some(key) => registered_network(key),
        None => default_network(sys),
    };
    player.td_cache = Some((TypeId::of::<R>(), n.clone()));
    n
}

/// Checks that a spec's network can be found: `td:weights=KEY` needs `KEY` registered.
pub(crate) fn check_spec(spec: &super::PlayerSpec) -> Result<()> {
    if spec.kind == PlayerKind::Td {
        if let Some(key) = &spec.network {
            if registered_network(key).is_none() {
                return Err(Error::InvalidPlayer(format!(
                    "no network registered under `{key}` (register one with \
                     players::register_network; the C and Python bindings and the `pachisi` \
                     command read a weights file given by its path)"
                )));
            }
        }
    }
    Ok(())
}

thread_local! {
    /// Scratch for one evaluation: the input, the hidden layer, the outputs.
    static SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// The input encoder of `net` in `sys`: `None` when the network's header names scales that do
/// not fit, or its input size is not the encoding's, or its layers and weight vectors do not
/// agree ([`Network::check`] but the finite weights, which cost a pass over them per decision).
fn input_for<R: Evaluate>(sys: &R, net: &Network) -> Option<TdInput<R>> {
    if net.shape_error().is_some() {
        return None;
    }
    TdInput::new(sys, net.info.encoding, &net.info.feature_scales)
        .ok()
        .filter(|i| i.size() == net.inputs())
}

/// What a win of `points` teaches a network trained with `max_points` (its target for the
/// winner; 0 for the others), and so the scale of its outputs: `min(points, max) / max`.
pub(crate) fn win_worth(points: u32, max_points: u32) -> f64 {
    let max = max_points.max(1);
    f64::from(points.clamp(1, max)) / f64::from(max)
}

/// A network with the encoder of one system: an evaluator of positions.
#[derive(Clone, Debug)]
pub(crate) struct NetEval<R: Evaluate> {
    net: Arc<Network>,
    enc: TdInput<R>,
    /// The `max_points` the network was trained with (1 when its header does not say).
    max_points: u32,
}

impl<R: Evaluate> NetEval<R> {
    /// `None` when the network's input or output size does not fit `sys`.
    pub fn new(sys: &R, net: Arc<Network>) -> Option<NetEval<R>> {
        let enc = input_for(sys, &net)?;
        let max_points = net.info.training["max_points"]
            .as_u64()
            .map_or(1, |m| m.clamp(1, u64::from(u32::MAX)) as u32);
        (net.outputs() == sys.seats() as usize).then_some(NetEval {
            net,
            enc,
            max_points,
        })
    }

    /// The `max_points` the network was trained with ([`TrainOptions::max_points`]; 1 for a
    /// network whose header does not record it): its outputs estimate the points a seat wins
    /// over this many.
    pub fn max_points(&self) -> u32 {
        self.max_points
    }

    /// The network's raw output per seat (not normalised): the win probability it gives each.
    pub fn outputs(&self, s: &R::State) -> [f32; 4] {
        SCRATCH.with(|buf| {
            let mut buf = buf.borrow_mut();
            let (ni, nh) = (self.net.inputs(), self.net.hidden());
            buf.resize(ni + nh + 4, 0.0);
            let (x, rest) = buf.split_at_mut(ni);
            let (h, y) = rest.split_at_mut(nh);
            let sys = self.enc.system();
            let observer = sys.to_move(s);
            self.enc.write(s, observer, x);
            self.net.forward(x, h, y);
            let seats = sys.seats() as usize;
            let mut out = [0.0; 4];
            for (k, &v) in y.iter().enumerate().take(seats) {
                out[(observer as usize + k) % seats] = v;
            }
            out
        })
    }

    /// Per-seat values for the players: partners averaged into their side, sides normalised.
    pub fn values(&self, ev: &Evaluator<'_, R>, s: &R::State) -> [f64; 4] {
        let y = self.outputs(s);
        let seats = self.enc.system().seats() as usize;
        let side_of = ev.side_of();
        let mut side = [0.0f64; 4];
        let mut count = [0u32; 4];
        for (&v, &sd) in y.iter().zip(side_of).take(seats) {
            side[sd] += f64::from(v);
            count[sd] += 1;
        }
        let mut total = 0.0;
        for (v, &n) in side.iter_mut().zip(&count).take(ev.sides()) {
            *v /= f64::from(n.max(1));
            total += *v;
        }
        let mut out = [0.0; 4];
        if ev.sides() == 2 {
            // Two sides: half a point plus half the difference, so that a network trained on
            // points (`TrainOptions::max_points`) maximises the points it expects to win.
            for (o, &sd) in out.iter_mut().zip(side_of).take(seats) {
                *o = (0.5 + (side[sd] - side[1 - sd]) / 2.0).clamp(0.0, 1.0);
            }
            return out;
        }
        for (o, &sd) in out.iter_mut().zip(side_of).take(seats) {
            *o = if total > 0.0 {
                side[sd] / total
            } else {
                1.0 / ev.sides() as f64
            };
        }
        out
    }
}

/// How a network is trained (see [`Trainer`]).
///
/// ```
/// let o = pachisi::players::TrainOptions::new("backgammon");
/// assert_eq!(o.hidden, 40);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainOptions {
    /// The preset.
    pub preset: String,
    /// The seed: game `g`'s dice come from `game_seed(seed, g)`, the first weights from `seed`.
    pub seed: u64,
    /// Hidden units of a new network.
    pub hidden: usize,
    /// The learning rate.
    pub alpha: f32,
    /// The trace decay λ.
    pub lambda: f32,
    /// Train against this player (a spec) rather than by self-play: the network plays one seat
    /// (and its partners), rotating with the game number; every position still trains it.
    pub opponent: Option<String>,
    /// What a win is worth to the network: the final target of a winner is
    /// `min(points, max_points) / max_points` (0 for the others), so with `max_points` 3 in
    /// backgammon a gammon (2 points) teaches 2/3 and a backgammon 1, and the outputs estimate
    /// the points a seat wins (over 3) rather than its chance to win. 1 (the default except in
    /// backgammon) learns wins alone.
    #[serde(default = "one")]
    pub max_points: u32,
    /// The discount γ per play (0 < γ ≤ 1): the network is moved toward γ times its value of
    /// the next position, so a win sooner is worth more than a win later. Below 1 it matters
    /// where a player may pass (Classic Pachisi, C-C): with γ = 1 a position passed round the
    /// table keeps its value, and two networks that value waiting can pass for ever. 1 (the
    /// default) is plain TD(λ).
    #[serde(default = "one_f32")]
    pub discount: f32,
    /// The input encoding of a new network (a resumed one keeps its own).
    #[serde(default)]
    pub encoding: InputEncoding,
    /// Deals of each learning-curve tournament (against `greedy`, seats rotated).
    pub eval_deals: usize,
    /// Worker threads of the learning-curve tournaments (`None`: all cores). The training games
    /// themselves run on one thread, so the network depends only on the options.
    pub threads: Option<usize>,
}

impl TrainOptions {
    /// The defaults for a preset.
    pub fn new(preset: &str) -> TrainOptions {
        TrainOptions {
            preset: preset.to_string(),
            seed: 1,
            hidden: 40,
            alpha: 0.1,
            lambda: 0.7,
            opponent: None,
            encoding: InputEncoding::Features,
            max_points: if preset == "backgammon" { 3 } else { 1 },
            discount: 1.0,
            eval_deals: 200,
            threads: None,
        }
    }
}

fn one() -> u32 {
    1
}

fn one_f32() -> f32 {
    1.0
}

/// One point of the learning curve: the network's win rate against `greedy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Training games played.
    pub games: u64,
    /// Games of the tournament.
    pub tournament_games: usize,
    /// The network's win rate (its side's).
    pub win_rate: f64,
    /// 95% Wilson interval.
    pub ci_low: f64,
    /// 95% Wilson interval.
    pub ci_high: f64,
    /// The fair share (the win rate of a player as strong as `greedy`).
    pub fair: f64,
    /// Seconds of training so far (this process; wall clock).
    pub seconds: f64,
}

/// Self-play TD(λ) training of a network for one preset.
///
/// Each game starts from the preset's initial position with dice from `game_seed(seed, g)`;
/// every seat plays the play the network values best for it (or the opponent's choice, see
/// [`TrainOptions::opponent`]). After each play the network is moved toward its value of the
/// next position (at the end, toward the result: 1 for each winner, 0 for the others) with
/// eligibility traces per seat. Deterministic for the options and the starting network.
///
/// ```
/// use pachisi::players::{TrainOptions, Trainer};
/// let mut opts = TrainOptions::new("backgammon");
/// opts.hidden = 8;
/// let mut t = Trainer::new(opts.clone()).unwrap();
/// t.train(2, |_| true).unwrap();
/// assert_eq!(t.network().info.games, 2);
/// let mut again = Trainer::new(opts).unwrap();
/// again.train(2, |_| true).unwrap();
/// assert_eq!(again.network(), t.network());
/// ```
#[derive(Clone, Debug)]
pub struct Trainer {
    rules: Rules,
    options: TrainOptions,
    net: Arc<Network>,
    key: String,
    seconds: f64,
}

/// Progress of [`Trainer::train`]: games played and the mean length of the last games.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TrainProgress {
    /// Training games played (in total, resumed ones included).
    pub games: u64,
    /// Plays per game, averaged over the games of this call.
    pub plays_per_game: f64,
    /// Seconds of this call.
    pub seconds: f64,
}

impl Trainer {
    /// A trainer with a new network (random weights from the seed).
    pub fn new(options: TrainOptions) -> Result<Trainer> {
        let rules = Rules::preset(&options.preset)?;
        let (inputs, seats, scales) = with_system(&rules, Shape(options.encoding, None))??;
        if !(1..=crate::nn::MAX_HIDDEN).contains(&options.hidden) {
            return Err(Error::InvalidArgument(format!(
                "`hidden` must be 1..={}, got {}",
                crate::nn::MAX_HIDDEN,
                options.hidden
            )));
        }
        let mut info = NetworkInfo::new(&options.preset, inputs, options.hidden, seats);
        info.seed = options.seed;
        info.encoding = options.encoding;
        info.feature_scales = scales;
        let net = Network::random(info, options.seed);
        Trainer::resume(options, net)
    }

    /// A trainer that continues from `net` (a checkpoint): its games count where the dice go
    /// on. The network must be of the options' preset and pass [`Network::check`].
    pub fn resume(mut options: TrainOptions, mut net: Network) -> Result<Trainer> {
        net.check()?;
        // The network's own shape and encoding win over the options' defaults for a new one,
        // so that the header records what was trained.
        options.hidden = net.hidden();
        options.encoding = net.info.encoding;
        let rules = Rules::preset(&options.preset)?;
        let shape = Shape(net.info.encoding, Some(net.info.feature_scales.clone()));
        let (inputs, seats, _) = with_system(&rules, shape)??;
        if net.info.preset != options.preset || net.inputs() != inputs || net.outputs() != seats {
            return Err(Error::InvalidPlayer(format!(
                "the network was trained for `{}` ({} inputs, {} outputs), not `{}` ({inputs} \
                 inputs, {seats} outputs)",
                net.info.preset,
                net.inputs(),
                net.outputs(),
                options.preset
            )));
        }
        if !(options.alpha.is_finite()
            && options.alpha > 0.0
            && (0.0..=1.0).contains(&options.lambda))
        {
            return Err(Error::InvalidArgument(
                "`alpha` must be > 0 and `lambda` in 0..=1".into(),
            ));
        }
        if !(options.discount > 0.0 && options.discount <= 1.0) {
            return Err(Error::InvalidArgument(format!(
                "`discount` must be in (0, 1], got {}",
                options.discount
            )));
        }
        if options.max_points == 0 {
            return Err(Error::InvalidArgument(
                "`max_points` must be at least 1".into(),
            ));
        }
        if let Some(o) = &options.opponent {
            let spec: super::PlayerSpec = o.parse()?;
            check_spec(&spec)?;
            // As tournaments and rollouts check a line-up (`pubeval` plays backgammon only).
            struct Plays<'a>(&'a super::PlayerSpec);
            impl SystemWork for Plays<'_> {
                type Output = Result<()>;
                fn run<R: Evaluate>(self, sys: &R) -> Result<()> {
                    self.0.check_system(sys)
                }
            }
            with_system(&rules, Plays(&spec))??;
        }
        crate::sim::worker_threads(options.threads)?;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let key = format!(
            "training:{}:{}",
            options.preset,
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        net.info.seed = options.seed;
        net.info.training = serde_json::to_value(&options).unwrap_or_default();
        Ok(Trainer {
            rules,
            options,
            net: Arc::new(net),
            key,
            seconds: 0.0,
        })
    }

    /// The network as trained so far.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The network, consuming the trainer.
    pub fn into_network(self) -> Network {
        Arc::try_unwrap(self.net).unwrap_or_else(|a| (*a).clone())
    }

    /// The options.
    pub fn options(&self) -> &TrainOptions {
        &self.options
    }

    /// Plays `games` more training games. `progress` is called about once a second and after
    /// the last game; returning `false` stops early (after the current game).
    pub fn train(
        &mut self,
        games: u64,
        mut progress: impl FnMut(&TrainProgress) -> bool,
    ) -> Result<()> {
        let start = Instant::now();
        let work = TrainWork {
            net: &mut self.net,
            options: &self.options,
            games,
            progress: &mut progress,
        };
        let r = with_system(&self.rules, work)?;
        self.seconds += start.elapsed().as_secs_f64();
        r
    }

    /// A learning-curve point: a tournament of the current network against `greedy`, seats
    /// rotated (the network's seat and its partners against `greedy` in the others), `deals`
    /// deals seeded with `seed`.
    pub fn evaluate(&self, deals: usize, seed: u64) -> Result<CurvePoint> {
        register_network(&self.key, (*self.net).clone());
        let td = format!("td:weights={}", self.key);
        let seats = self.net.outputs() as u8;
        let team = with_system(&self.rules, TeamOf0)?;
        let lineup: Vec<&str> = (0..seats)
            .map(|s| {
                if team & (1 << s) != 0 {
                    td.as_str()
                } else {
                    "greedy"
                }
            })
            .collect();
        let mut opts = TournamentOptions::new(&lineup, deals, seed);
        opts.threads = self.options.threads;
        let result = tournament(&self.rules, &opts)?;
        let st = &result.standings[0];
        Ok(CurvePoint {
            games: self.net.info.games,
            tournament_games: st.games,
            win_rate: st.win_rate,
            ci_low: st.win_rate_ci.0,
            ci_high: st.win_rate_ci.1,
            fair: st.fair,
            seconds: self.seconds,
        })
    }
}

/// The input size of an encoding, the seat count and the feature scales of a system (the
/// scales given, else measured for a new network).
struct Shape(InputEncoding, Option<Vec<f32>>);
impl SystemWork for Shape {
    type Output = Result<(usize, usize, Vec<f32>)>;
    fn run<R: Evaluate>(self, sys: &R) -> Self::Output {
        let scales = match (self.0, self.1) {
            (InputEncoding::Observation, _) => Vec::new(),
            (_, Some(given)) => given,
            (_, None) => measure_feature_scales(sys, 1),
        };
        let input = TdInput::new(sys, self.0, &scales)?;
        Ok((input.size(), sys.seats() as usize, scales))
    }
}

/// Seat 0's team mask.
struct TeamOf0;
impl SystemWork for TeamOf0 {
    type Output = u16;
    fn run<R: Evaluate>(self, sys: &R) -> u16 {
        sys.team(0)
    }
}

struct TrainWork<'a, F> {
    net: &'a mut Arc<Network>,
    options: &'a TrainOptions,
    games: u64,
    progress: &'a mut F,
}

impl<F: FnMut(&TrainProgress) -> bool> SystemWork for TrainWork<'_, F> {
    type Output = Result<()>;
    fn run<R: Evaluate>(self, sys: &R) -> Result<()> {
        let mut td = Td::new(sys, self.net, self.options)?;
        let start = Instant::now();
        let mut last = start;
        let mut plays = 0u64;
        for i in 0..self.games {
            plays += td.game(self.net, self.options)?;
            let now = Instant::now();
            let done = i + 1 == self.games;
            if done || now.duration_since(last).as_secs_f64() >= 1.0 {
                last = now;
                let p = TrainProgress {
                    games: self.net.info.games,
                    plays_per_game: plays as f64 / (i + 1) as f64,
                    seconds: now.duration_since(start).as_secs_f64(),
                };
                if !(self.progress)(&p) {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// The state of TD(λ) training in one system: traces per seat and scratch buffers.
struct Td<'s, R: Evaluate> {
    sys: &'s R,
    enc: TdInput<R>,
    seats: usize,
    /// Per seat, the trace of every parameter (laid out as the network's `w1, b1, w2, b2`).
    traces: Vec<Vec<f32>>,
    x: Vec<f32>,
    h: Vec<f32>,
    y: Vec<f32>,
    plays: Vec<Play>,
    /// The nonzero inputs at the last gradient: with λ = 0 only their rows of `w1`'s traces
    /// are nonzero, so an update visits only them.
    rows: Vec<usize>,
}

impl<'s, R: Evaluate> Td<'s, R> {
    fn new(sys: &'s R, net: &Network, _options: &TrainOptions) -> Result<Td<'s, R>> {
        let seats = sys.seats() as usize;
        let enc = input_for(sys, net)
            .ok_or_else(|| Error::InvalidPlayer("the network does not fit its preset".into()))?;
        Ok(Td {
            sys,
            enc,
            seats,
            traces: vec![vec![0.0; net.parameters()]; seats],
            x: vec![0.0; net.inputs()],
            h: vec![0.0; net.hidden()],
            y: vec![0.0; net.outputs()],
            plays: Vec::new(),
            rows: Vec::new(),
        })
    }

    /// Runs the network at `s` (into `x`, `h`, `y`) and returns the output per seat.
    fn forward(&mut self, net: &Network, s: &R::State) -> (u8, [f32; 4]) {
        let observer = self.sys.to_move(s);
        self.enc.write(s, observer, &mut self.x);
        net.forward(&self.x, &mut self.h, &mut self.y);
        let mut out = [0.0; 4];
        for (k, &v) in self.y.iter().enumerate().take(self.seats) {
            out[(observer as usize + k) % self.seats] = v;
        }
        (observer, out)
    }

    /// Adds each seat's output gradient at the last forward pass to its traces (decayed by
    /// [`Td::update`]).
    fn add_gradients(&mut self, net: &Network, observer: u8) {
        let (ni, nh) = (net.inputs(), net.hidden());
        let (b1_at, w2_at) = (ni * nh, ni * nh + nh);
        let b2_at = w2_at + net.outputs() * nh;
        self.rows.clear();
        self.rows
            .extend((0..self.x.len()).filter(|&i| self.x[i] != 0.0));
        for seat in 0..self.seats {
            let k = (seat + self.seats - observer as usize) % self.seats;
            let e = &mut self.traces[seat];
            let g = self.y[k] * (1.0 - self.y[k]);
            e[b2_at + k] += g;
            let w2 = &net.w2[k * nh..(k + 1) * nh];
            let mut dh = [0.0f32; crate::nn::MAX_HIDDEN];
            let (e_b1, e_w2) = e[b1_at..].split_at_mut(nh);
            let e_w2 = &mut e_w2[k * nh..(k + 1) * nh];
            for (j, (&hj, &wj)) in self.h.iter().zip(w2).enumerate() {
                e_w2[j] += g * hj;
                dh[j] = g * wj * hj * (1.0 - hj);
                e_b1[j] += dh[j];
            }
            for &i in &self.rows {
                let xi = self.x[i];
                let row = &mut e[i * nh..(i + 1) * nh];
                for (r, d) in row.iter_mut().zip(&dh[..nh]) {
                    *r += xi * d;
                }
            }
        }
    }

    /// Moves every parameter by `alpha * sum over seats of delta[seat] * trace[seat]`, then
    /// decays the traces by `lambda` (γλ with a discount; one pass over each trace).
    fn update(&mut self, net: &mut Network, delta: &[f32; 4], alpha: f32, lambda: f32) {
        let (n1, nb1, n2) = (net.w1.len(), net.b1.len(), net.w2.len());
        for (e, &dl) in self.traces.iter_mut().zip(delta).take(self.seats) {
            let d = alpha * dl;
            if lambda == 0.0 {
                // TD(0): the trace is the last gradient, nonzero in `rows` of `w1` only.
                let nh = net.info.hidden;
                for &i in &self.rows {
                    let (w, t) = (
                        &mut net.w1[i * nh..(i + 1) * nh],
                        &mut e[i * nh..(i + 1) * nh],
                    );
                    for (w, t) in w.iter_mut().zip(t.iter_mut()) {
                        *w += d * *t;
                        *t = 0.0;
                    }
                }
                for (w, t) in net
                    .b1
                    .iter_mut()
                    .chain(net.w2.iter_mut())
                    .chain(net.b2.iter_mut())
                    .zip(e[n1..].iter_mut())
                {
                    *w += d * *t;
                    *t = 0.0;
                }
                continue;
            }
            let (e1, rest) = e.split_at_mut(n1);
            let (eb1, rest) = rest.split_at_mut(nb1);
            let (e2, eb2) = rest.split_at_mut(n2);
            let parts: [(&mut Vec<f32>, &mut [f32]); 4] = [
                (&mut net.w1, e1),
                (&mut net.b1, eb1),
                (&mut net.w2, e2),
                (&mut net.b2, eb2),
            ];
            for (w, t) in parts {
                for (w, t) in w.iter_mut().zip(t.iter_mut()) {
                    *w += d * *t;
                    *t *= lambda;
                }
            }
        }
    }

    /// One training game; returns its number of plays.
    fn game(&mut self, net: &mut Arc<Network>, options: &TrainOptions) -> Result<u64> {
        let sys = self.sys;
        let g = net.info.games;
        let mut dice = rng_from_seed(game_seed(options.seed, g));
        // Against an opponent: the network's seat rotates with the game number.
        let net_team = sys.team((g % self.seats as u64) as u8);
        let mut opponent = match &options.opponent {
            Some(o) => Some(Player::new(o.parse()?, game_seed(options.seed ^ 0x9e37, g))),
            None => None,
        };
        let mut choice_rng = rng_from_seed(game_seed(options.seed ^ 0x5bd1, g));
        for e in self.traces.iter_mut() {
            e.fill(0.0);
        }
        let mut s = sys.initial_state();
        let (observer, mut prev) = self.forward(net, &s);
        self.add_gradients(net, observer);
        let mut rolls = 0u32;
        let mut plays = 0u64;
        loop {
            match sys.node(&s) {
                Node::Over => break,
                Node::Chance => {
                    if rolls >= sys.max_rolls() {
                        // Truncated (G-A): no result to learn from.
                        break;
                    }
                    let roll = sys.sample_roll(&s, &mut dice);
                    sys.begin_roll(&mut s, roll);
                    rolls += 1;
                    continue;
                }
                Node::Decision => {}
            }
            self.plays.clear();
            sys.generate(&s, Orders::Distinct, &mut self.plays);
            if self.plays.is_empty() {
                sys.end_play(&mut s, &[]);
                continue;
            }
            let mover = sys.to_move(&s);
            let i = match (&mut opponent, net_team & (1 << mover) != 0) {
                (Some(p), false) => choose_typed(p, sys, &s, &self.plays),
                _ if self.plays.len() == 1 => 0,
                _ => {
                    // The evaluator shares the network; it is dropped before the update, so
                    // `Arc::make_mut` below never copies.
                    let ev = Evaluator::with_network(sys, net.clone())
                        .ok_or_else(|| Error::InvalidPlayer("network does not fit".into()))?;
                    super::greedy::choose(&ev, &s, &self.plays, &mut choice_rng)
                }
            };
            let play = self.plays[i];
            for step in play.steps() {
                sys.apply_step(&mut s, step);
            }
            sys.end_play(&mut s, play.steps());
            plays += 1;
            let next = if sys.node(&s) == Node::Over {
                let mut t = [0.0f32; 4];
                if let Some(o) = sys.outcome(&s) {
                    let worth = win_worth(o.points, options.max_points) as f32;
                    for (seat, v) in t.iter_mut().enumerate().take(self.seats) {
                        *v = if o.is_winner(seat as u8) { worth } else { 0.0 };
                    }
                }
                t
            } else {
                let mut v = self.forward(net, &s).1;
                v.iter_mut().for_each(|x| *x *= options.discount);
                v
            };
            let mut delta = [0.0f32; 4];
            for ((d, n), p) in delta.iter_mut().zip(next).zip(prev).take(self.seats) {
                *d = n - p;
            }
            let decay = options.discount * options.lambda;
            self.update(Arc::make_mut(net), &delta, options.alpha, decay);
            if sys.node(&s) == Node::Over {
                break;
            }
            // The gradient at the new position, with the weights just updated.
            let (observer, now) = self.forward(net, &s);
            self.add_gradients(net, observer);
            prev = now;
        }
        Arc::make_mut(net).info.games += 1;
        Ok(plays)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_ships_a_network_that_fits() {
        for preset in crate::rules::VARIANTS {
            let net = shipped_network(preset).expect(preset);
            let rules = Rules::preset(preset).unwrap();
            let shape = Shape(net.info.encoding, Some(net.info.feature_scales.clone()));
            let (inputs, seats, _) = with_system(&rules, shape).unwrap().unwrap();
            assert_eq!((net.inputs(), net.outputs()), (inputs, seats), "{preset}");
        }
    }

    /// The backgammon network is trained on points (`max_points` 3): a finished game is valued
    /// on its scale (a single win 2/3, not 1), and the `td` player, at one ply and searching,
    /// still takes an immediate win where the network rates another play above 2/3.
    #[test]
    fn a_points_network_values_the_end_on_its_scale_and_wins_at_once() {
        use crate::SystemRules;
        use crate::backgammon::{BackgammonRules, BgState, OFF, Phase};
        let sys = BackgammonRules::standard().build().unwrap();
        let mut net = (*shipped_network("backgammon").unwrap()).clone();
        // Outputs from the biases alone: about 0 for the seat to move after a play (output 0
        // is the observer's), about 1 for the seat that played, so any play that does not end
        // the game is valued about 1 for its player.
        net.w2.fill(0.0);
        net.b2 = vec![-10.0, 10.0];
        let ev = Evaluator::with_network(&sys, Arc::new(net)).unwrap();
        assert_eq!(ev.points_scale(), Some(3));
        // Seat 0 has a checker on its 2-point and one on its 1-point, the rest off, and rolls
        // 2-1: 2/off 1/off wins; 2/1 1/off (or 1/off 2/1) leaves a checker. Seat 1 has borne
        // off one checker: a single game.
        let mut s = BgState::start(Phase::Move);
        s.checkers[0] = [0; 26];
        (s.checkers[0][OFF], s.checkers[0][2], s.checkers[0][1]) = (13, 1, 1);
        s.checkers[1] = [0; 26];
        (s.checkers[1][OFF], s.checkers[1][6], s.checkers[1][5]) = (1, 7, 7);
        (s.turn, s.dice) = (0, [2, 1]);
        let mut plays = Vec::new();
        sys.generate(&s, Orders::Distinct, &mut plays);
        let child = |p: &Play| super::super::greedy::child(&sys, &s, p);
        let wins: Vec<bool> = plays.iter().map(|p| ev.won_by(&child(p), 0)).collect();
        assert!(wins.contains(&true) && wins.contains(&false), "{plays:?}");
        for (p, &won) in plays.iter().zip(&wins) {
            let v = ev.values(&child(p));
            if won {
                assert!((v[0] - 2.0 / 3.0).abs() < 1e-9 && (v[1] - 1.0 / 3.0).abs() < 1e-9);
            } else {
                // Without the rule that an immediate win comes first, this play would be taken.
                assert!(v[0] > 0.99, "{v:?}");
            }
        }
        let mut rng = rng_from_seed(1);
        let i = super::super::greedy::choose(&ev, &s, &plays, &mut rng);
        assert!(wins[i], "one ply chose {:?}", plays[i]);
        // Two plies: with the biases the other way round the seat to move is valued about 1,
        // so after the opponent's reply a play that does not win is worth about 1 again.
        let mut net = (*shipped_network("backgammon").unwrap()).clone();
        net.w2.fill(0.0);
        net.b2 = vec![10.0, -10.0];
        let ev2 = Evaluator::with_network(&sys, Arc::new(net)).unwrap();
        let spec: super::super::PlayerSpec = "td:depth=2".parse().unwrap();
        let i = super::super::expectimax::choose(&ev2, &s, &plays, &spec, &mut rng);
        assert!(wins[i], "two plies chose {:?}", plays[i]);
        // Static evaluators keep values of 1 and 0 at the end.
        let plain = Evaluator::new(&sys, &[]);
        assert_eq!(plain.points_scale(), None);
        let won = plays.iter().zip(&wins).find(|(_, w)| **w).unwrap().0;
        assert_eq!(plain.values(&child(won))[..2], [1.0, 0.0]);
    }

    #[test]
    fn training_moves_values_toward_results() {
        let mut opts = TrainOptions::new("backgammon");
        opts.hidden = 6;
        let mut t = Trainer::new(opts).unwrap();
        let before = t.network().clone();
        t.train(3, |_| true).unwrap();
        assert_eq!(t.network().info.games, 3);
        assert_ne!(&before, t.network());
        assert!(t.network().w1.iter().all(|w| w.is_finite()));
    }

    #[test]
    fn a_resumed_network_records_its_own_shape_not_the_defaults() {
        let mut opts = TrainOptions::new("backgammon");
        opts.hidden = 6;
        let mut t = Trainer::new(opts).unwrap();
        t.train(1, |_| true).unwrap();
        let net = t.into_network();
        // Resuming with the defaults (hidden 40) keeps the network's 6 hidden units, and the
        // header says so.
        let resumed = Trainer::resume(TrainOptions::new("backgammon"), net).unwrap();
        assert_eq!(resumed.options().hidden, 6);
        assert_eq!(resumed.network().info.training["hidden"], 6);
    }

    #[test]
    fn a_discount_changes_what_is_learned_and_must_lie_in_0_1() {
        let mut opts = TrainOptions::new("backgammon");
        opts.hidden = 6;
        let mut plain = Trainer::new(opts.clone()).unwrap();
        plain.train(2, |_| true).unwrap();
        opts.discount = 0.9;
        let mut discounted = Trainer::new(opts.clone()).unwrap();
        discounted.train(2, |_| true).unwrap();
        assert_ne!(plain.network().w1, discounted.network().w1);
        for bad in [0.0, -0.5, 1.01, f32::NAN] {
            opts.discount = bad;
            let err = Trainer::new(opts.clone()).unwrap_err().to_string();
            assert!(err.contains("discount"), "{bad}: {err}");
        }
    }

    #[test]
    fn the_shipped_classic_network_finishes_its_games_against_itself() {
        // C-C lets a player pass; an undiscounted network learnt to pass for ever (see
        // core/weights/README.md). Every game of two `td` teams must end with a winner.
        let rules = Rules::preset("pachisi").unwrap();
        let opts = TournamentOptions::new(&["td", "td", "td", "td"], 4, 5);
        let r = tournament(&rules, &opts).unwrap();
        assert!(
            r.games.iter().all(|g| g.winners != 0),
            "a td game was truncated"
        );
    }
}
