//! Players: policies that choose a play at a decision node, from uniform random to search.
//!
//! A player is built from a *spec*, a short text or a JSON object:
//!
//! ```text
//! spec   := name [ ":" param ( "," param )* ]
//! param  := key "=" value
//! name   := "random" | "greedy" | "expectimax" | "mcts" | "pubeval" | "td"
//! ```
//!
//! | player | parameters (default) |
//! |---|---|
//! | `random` | none: uniform over the distinct legal plays |
//! | `greedy` | evaluator weights: a named set (`weights=tuned`), single weights (`risk=-2`) |
//! | `expectimax` | `depth` (2), decision plies; `mode` (`auto`): `paranoid`, `maxn` or `greedy` (the other sides play as default `greedy`); weights |
//! | `td` | `depth` (1): 1 plays on the network, more searches with expectimax over it; `mode`; `weights` (the shipped network): a registered network's key, or a file's path in C, Python and the `pachisi` command |
//! | `mcts` | `iterations` (1000); `time_ms` (none); `c` (0.7); `prior` (8), virtual visits at the evaluator's value; `leaf` (`eval`): `eval`, `random`, `greedy`; `playout_depth` (0 = to the end); weights |
//! | `pubeval` | none: Tesauro's public linear backgammon evaluator at one ply (backgammon only) |
//!
//! In JSON the same spec is `{"player": "mcts", "iterations": 2000}`, weights flat or under
//! `"weights": {"risk": -2}`. A weight names a feature of an evaluator ([`Evaluate::FEATURES`]);
//! one the game's evaluator lacks (`gates` in backgammon) is ignored there.
//!
//! Every player is deterministic for its seed (the one exception: `mcts` with `time_ms` stops
//! after a time, so its choice depends on the machine's speed) and always returns one of the
//! legal plays.
//!
//! ```
//! use pachisi::{Game, players};
//! let mut game = Game::from_preset("parcheesi", 7).unwrap();
//! let mut greedy = players::from_spec_seeded("greedy", 1).unwrap();
//! while !game.is_over() {
//!     if game.is_chance_node() {
//!         game.roll().unwrap();
//!     } else {
//!         let i = greedy.choose(&game).unwrap();
//!         let play = game.legal_plays()[i];
//!         game.play(&play).unwrap();
//!     }
//! }
//! ```
//!
//! What each player does, its evaluator's features and measured strength: `docs/PLAYERS.md`.

mod eval;
mod expectimax;
mod greedy;
mod mcts;
mod pubeval;
mod rollout;
mod run;
mod spec;
mod td;
mod td_input;

pub use eval::{Evaluate, Feature, MAX_FEATURES, feature_names, features, static_values};
pub use rollout::{Evaluation, HintRow, RolloutOptions, evaluate, hint};
pub use spec::{Leaf, PlayerKind, PlayerSpec, SearchMode};
pub(crate) use td::check_spec;
pub use td::{
    CurvePoint, TrainOptions, TrainProgress, Trainer, register_network, registered_network,
    shipped_network,
};
pub use td_input::{InputEncoding, TdInput, measure_feature_scales};

pub(crate) use eval::Evaluator;
pub(crate) use run::{DiceStreams, GameStats, in_pool, play_out};

use crate::dice::{GameRng, rng_from_seed};
use crate::game::{Game, GameOf};
use crate::play::Play;
use crate::rules::{Rules, RulesConfig};
use crate::system::{Node, RuleSystem, SystemRules};
use crate::{Error, Result};

/// Something that chooses a play at a decision node: a built-in [`Player`] or your own type.
///
/// Object safe and `Send`, so line-ups are `Vec<Box<dyn Policy>>` and games run on worker threads.
///
/// ```
/// use pachisi::{Game, Play, Policy, players::Decision};
/// /// Always the first play the generator lists.
/// struct First;
/// impl Policy for First {
///     fn name(&self) -> String { "first".into() }
///     fn choose_at(&mut self, _node: Decision<'_>, _plays: &[Play]) -> usize { 0 }
/// }
/// let mut game = Game::from_preset("backgammon", 3).unwrap();
/// game.roll().unwrap();
/// assert_eq!(First.choose(&game).unwrap(), 0);
/// ```
pub trait Policy: Send {
    /// The player's spec (or a name for a policy of your own).
    fn name(&self) -> String;

    /// Chooses one of `plays`, the distinct legal plays at the decision node `node` (never
    /// empty), and returns its index.
    ///
    /// `plays` are whole plays from `node`'s position; a policy must return an index below
    /// `plays.len()`.
    fn choose_at(&mut self, node: Decision<'_>, plays: &[Play]) -> usize;

    /// Chooses one of `game.legal_plays()` and returns its index.
    ///
    /// An error ([`Error::WrongPhase`]) unless a play is due. Steps already taken with
    /// [`Game::step`] are respected: the plays are those that begin with them.
    fn choose(&mut self, game: &Game) -> Result<usize> {
        choose_legal(self, game)
    }

    /// The play [`Policy::choose`] chooses (an [`Error::InvalidPlayer`] when a `choose` of
    /// your own returns an index past the legal plays).
    fn choose_play(&mut self, game: &Game) -> Result<Play> {
        let i = self.choose(game)?;
        let plays = game.legal_plays_ref();
        plays.get(i).copied().ok_or_else(|| {
            Error::InvalidPlayer(format!(
                "`{}` chose play {i} of {}",
                self.name(),
                plays.len()
            ))
        })
    }
}

/// [`Policy::choose`]: the checks around `choose_at`.
fn choose_legal<P: Policy + ?Sized>(policy: &mut P, game: &Game) -> Result<usize> {
    if game.node() != Node::Decision {
        return Err(Error::WrongPhase(match game.node() {
            Node::Over => "cannot choose a play: the game is over".into(),
            _ => "cannot choose a play: a roll is due".into(),
        }));
    }
    let plays = game.legal_plays();
    let n = plays.len();
    let i = match n {
        0 => return Err(Error::WrongPhase("no legal play to choose".into())),
        1 => 0,
        _ => with_game(game, |node| policy.choose_at(node, &plays)),
    };
    if i >= n {
        return Err(Error::InvalidPlayer(format!(
            "`{}` chose play {i} of {n}",
            policy.name()
        )));
    }
    Ok(i)
}

/// A built-in player: a [`PlayerSpec`] and its own seeded generator (PCG-64).
///
/// ```
/// use pachisi::{Game, Policy, players::Player};
/// let mut game = Game::from_preset("backgammon", 5).unwrap();
/// game.roll().unwrap();
/// let spec = "expectimax:depth=2".parse().unwrap();
/// let a = Player::new(spec, 9).choose(&game).unwrap();
/// let b = Player::new("expectimax:depth=2".parse().unwrap(), 9).choose(&game).unwrap();
/// assert_eq!(a, b);
/// ```
#[derive(Clone, Debug)]
pub struct Player {
    spec: PlayerSpec,
    rng: GameRng,
    /// `td`: the network found for the last system played (by its type).
    td_cache: Option<(std::any::TypeId, Option<std::sync::Arc<crate::nn::Network>>)>,
}

impl Player {
    /// A player of this spec whose generator is seeded with `seed`.
    pub fn new(spec: PlayerSpec, seed: u64) -> Player {
        Player {
            spec,
            rng: rng_from_seed(seed),
            td_cache: None,
        }
    }

    /// A player of a spec text or JSON object (checked as [`from_spec_seeded`] checks it),
    /// its generator seeded with `seed`.
    ///
    /// ```
    /// use pachisi::players::Player;
    /// let p = Player::from_spec("mcts:iterations=200", 3).unwrap();
    /// assert_eq!(p.spec().to_string(), "mcts:iterations=200");
    /// assert!(Player::from_spec("chess-engine", 3).is_err());
    /// ```
    pub fn from_spec(spec: &str, seed: u64) -> Result<Player> {
        let spec: PlayerSpec = spec.parse()?;
        check_spec(&spec)?;
        Ok(Player::new(spec, seed))
    }

    /// The spec.
    pub fn spec(&self) -> &PlayerSpec {
        &self.spec
    }

    /// The player's generator as it stands (its state decides the random choices to come).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces the player's generator: with the state of another player's [`Player::rng`],
    /// this one makes the same choices from here on.
    ///
    /// ```
    /// use pachisi::{Game, Policy, players::Player};
    /// let mut game = Game::from_preset("parcheesi", 5).unwrap();
    /// game.roll().unwrap();
    /// let mut a = Player::from_spec("random", 1).unwrap();
    /// a.choose(&game).unwrap();
    /// let mut b = Player::from_spec("random", 99).unwrap();
    /// b.set_rng(a.rng().clone());
    /// assert_eq!(a.choose(&game).unwrap(), b.choose(&game).unwrap());
    /// ```
    pub fn set_rng(&mut self, rng: GameRng) {
        self.rng = rng;
    }
}

impl Policy for Player {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    /// As [`Policy::choose`], and an error ([`Error::InvalidPlayer`]) if the player cannot
    /// play this game (`pubeval` outside backgammon).
    fn choose(&mut self, game: &Game) -> Result<usize> {
        struct Check<'s>(&'s PlayerSpec);
        impl TypedVisitor for Check<'_> {
            type Output = Result<()>;
            fn visit<R: Evaluate>(self, sys: &R, _s: &R::State) -> Result<()> {
                self.0.check_system(sys)
            }
        }
        with_game_state(game, Check(&self.spec))?;
        choose_legal(self, game)
    }

    fn choose_at(&mut self, node: Decision<'_>, plays: &[Play]) -> usize {
        struct Choose<'p> {
            player: &'p mut Player,
            plays: &'p [Play],
        }
        impl TypedVisitor for Choose<'_> {
            type Output = usize;
            fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> usize {
                choose_typed(self.player, sys, s, self.plays)
            }
        }
        if plays.len() <= 1 {
            return 0;
        }
        node.visit(Choose {
            player: self,
            plays,
        })
    }
}

/// The choice of a built-in player at a typed decision node.
pub(crate) fn choose_typed<R: Evaluate>(
    player: &mut Player,
    sys: &R,
    s: &R::State,
    plays: &[Play],
) -> usize {
    if plays.len() <= 1 {
        return 0;
    }
    let net = match player.spec.kind {
        PlayerKind::Td => td::network_for(player, sys),
        _ => None,
    };
    let spec = &player.spec;
    let rng = &mut player.rng;
    match spec.kind {
        PlayerKind::Random => crate::sim::uniform_index(rng, plays.len()),
        PlayerKind::Greedy => {
            let ev = Evaluator::for_spec(sys, spec);
            greedy::choose(&ev, s, plays, rng)
        }
        PlayerKind::Expectimax => {
            let ev = Evaluator::for_spec(sys, spec);
            expectimax::choose(&ev, s, plays, spec, rng)
        }
        PlayerKind::Mcts => {
            let ev = Evaluator::for_spec(sys, spec);
            mcts::choose(&ev, s, plays, spec, rng)
        }
        // Outside backgammon (reached only through `choose_at`, which cannot fail; `choose`,
        // tournaments and rollouts refuse the line-up) PubEval has no score: play as greedy.
        PlayerKind::PubEval if !R::HAS_PUBEVAL => {
            greedy::choose(&Evaluator::new(sys, &[]), s, plays, rng)
        }
        PlayerKind::PubEval => pubeval::choose(sys, s, plays, rng),
        PlayerKind::Td => {
            // No network fits these rules: play as greedy (docs/PLAYERS.md).
            let ev = net
                .and_then(|n| Evaluator::with_network(sys, n))
                .unwrap_or_else(|| Evaluator::new(sys, &[]));
            if spec.depth <= 1 {
                greedy::choose(&ev, s, plays, rng)
            } else {
                expectimax::choose(&ev, s, plays, spec, rng)
            }
        }
    }
}

/// A player built from a spec text or JSON object (see the module docs), seeded with 0.
///
/// ```
/// let p = pachisi::players::from_spec("mcts:iterations=200").unwrap();
/// assert_eq!(p.name(), "mcts:iterations=200");
/// assert!(pachisi::players::from_spec("chess-engine").is_err());
/// ```
pub fn from_spec(spec: &str) -> Result<Box<dyn Policy>> {
    from_spec_seeded(spec, 0)
}

/// A player built from a spec text or JSON object, its generator seeded with `seed`.
pub fn from_spec_seeded(spec: &str, seed: u64) -> Result<Box<dyn Policy>> {
    Ok(Box::new(Player::from_spec(spec, seed)?))
}

/// The play a player of `spec` seeded with `seed` chooses in `game`.
///
/// ```
/// let mut g = pachisi::Game::from_preset("pachisi", 1).unwrap();
/// g.roll().unwrap();
/// let play = pachisi::players::best_play(&g, "greedy", 0).unwrap();
/// assert!(g.legal_plays().contains(&play));
/// ```
pub fn best_play(game: &Game, spec: &str, seed: u64) -> Result<Play> {
    from_spec_seeded(spec, seed)?.choose_play(game)
}

/// Work done with one system's typed position (see [`Decision::visit`]).
pub(crate) trait TypedVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work for one system.
    fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> Self::Output;
}

/// Work done with a rule system built from a [`Rules`] value (see [`with_system`]).
pub(crate) trait SystemWork {
    /// What the work returns.
    type Output;
    /// Does the work for one system.
    fn run<R: Evaluate>(self, sys: &R) -> Self::Output;
}

macro_rules! decision_enum {
    ($(($name:ident, $rules:ty, $doc:literal)),* $(,)?) => {
        /// A decision node of one rule system: the system and the position at the start of the
        /// play (one variant per system of [`crate::for_each_system`]).
        ///
        /// Built-in players read the typed position; a policy of your own may ignore it or match
        /// on the systems it knows.
        #[derive(Copy, Clone, Debug)]
        #[non_exhaustive]
        pub enum Decision<'a> {
            $(#[doc = $doc] $name(
                &'a <$rules as SystemRules>::System,
                &'a <<$rules as SystemRules>::System as RuleSystem>::State,
            ),)*
        }

        impl Decision<'_> {
            /// Runs typed work on this node's system and position.
            pub(crate) fn visit<V: TypedVisitor>(&self, v: V) -> V::Output {
                match *self {
                    $(Decision::$name(sys, s) => v.visit(sys, s),)*
                }
            }
        }

        /// The decision node of `game`, at the start of the current play.
        fn with_game<T>(game: &Game, f: impl FnOnce(Decision<'_>) -> T) -> T {
            match game {
                $(Game::$name(g) => f(typed_decision(g)),)*
            }
        }

        /// Builds the system of `rules` and runs `work` on it.
        pub(crate) fn with_system<W: SystemWork>(rules: &Rules, work: W) -> Result<W::Output> {
            match rules.config() {
                $(RulesConfig::$name(r) => Ok(work.run(&r.build()?)),)*
            }
        }

        /// Every named weight set of every evaluator, once each.
        fn all_weight_set_names() -> Vec<&'static str> {
            let mut names: Vec<&'static str> = Vec::new();
            $(
                for (name, _) in <<$rules as SystemRules>::System as Evaluate>::WEIGHT_SETS {
                    if !names.contains(name) {
                        names.push(name);
                    }
                }
            )*
            names
        }

        /// Every feature name of every evaluator, once each.
        fn all_feature_names() -> Vec<&'static str> {
            let mut names: Vec<&'static str> = Vec::new();
            $(
                for f in <<$rules as SystemRules>::System as Evaluate>::FEATURES {
                    if !names.contains(&f.name) {
                        names.push(f.name);
                    }
                }
            )*
            names
        }
    };
}
crate::for_each_system!(decision_enum);

fn typed_decision<R: Evaluate>(g: &GameOf<R>) -> Decision<'_> {
    g.system().decision(g.play_start())
}

/// Runs typed work on the position of `game` (at the start of the current play).
pub(crate) fn with_game_state<V: TypedVisitor>(game: &Game, v: V) -> V::Output {
    with_game(game, |node| node.visit(v))
}

/// What one decision of an `mcts` player did (see [`mcts_report`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MctsReport {
    /// The chosen play, an index into `game.legal_plays()`.
    pub choice: usize,
    /// Iterations run (fewer than asked when `time_ms` stopped the search).
    pub iterations: u64,
    /// Plays simulated: decision edges walked down the tree plus plays made in playouts (the
    /// evaluator's one-ply look at a new node's plays, for `prior`, is not counted).
    pub simulated_plays: u64,
    /// Nodes in the tree at the end.
    pub nodes: u64,
}

/// Runs the `mcts` player of `spec`, seeded with `seed`, at `game`'s decision and reports what
/// the search did: the measure of MCTS throughput (simulated plays per second).
///
/// ```
/// let mut g = pachisi::Game::from_preset("backgammon", 2).unwrap();
/// g.roll().unwrap(); // the opening roll: a play is due
/// let r = pachisi::players::mcts_report(&g, "mcts:iterations=200", 1).unwrap();
/// assert_eq!(r.iterations, 200);
/// assert!(r.simulated_plays >= 200 && r.choice < g.legal_plays().len());
/// assert!(pachisi::players::mcts_report(&g, "greedy", 1).is_err());
/// ```
pub fn mcts_report(game: &Game, spec: &str, seed: u64) -> Result<MctsReport> {
    let spec: PlayerSpec = spec.parse()?;
    if spec.kind != PlayerKind::Mcts {
        return Err(Error::InvalidPlayer(format!(
            "mcts_report needs an `mcts` spec, got `{spec}`"
        )));
    }
    if game.node() != Node::Decision {
        return Err(Error::WrongPhase(
            "mcts_report needs a decision: no play is due".into(),
        ));
    }
    let plays = game.legal_plays();
    if plays.is_empty() {
        return Err(Error::WrongPhase("no legal play to choose".into()));
    }
    struct Report<'a>(&'a PlayerSpec, &'a [Play], u64);
    impl TypedVisitor for Report<'_> {
        type Output = MctsReport;
        fn visit<R: Evaluate>(self, sys: &R, s: &R::State) -> MctsReport {
            let (spec, plays) = (self.0, self.1);
            let ev = Evaluator::for_spec(sys, spec);
            let mut rng = rng_from_seed(self.2);
            let (choice, c) = mcts::search(&ev, s, plays, spec, &mut rng);
            MctsReport {
                choice,
                iterations: c.iterations,
                simulated_plays: c.simulated,
                nodes: c.nodes,
            }
        }
    }
    Ok(with_game_state(game, Report(&spec, &plays, seed)))
}
