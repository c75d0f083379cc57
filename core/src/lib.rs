//! # pachisi
//!
//! One rules engine for the family of dice race games: Parcheesi, Family Pachisi (two dice,
//! partners, gates), Online Pachisi (rule switches), Classic Pachisi (cowrie shells, the cross
//! board) and Backgammon.
//!
//! Rules are data ([`Rules`]: a preset plus options, serde JSON); a legal move is decided on the
//! whole play of a roll ([`Play`]: every step of the roll, deduplicated by resulting position);
//! chance is explicit ([`Game::chance_outcomes`], [`Game::roll`], [`Game::set_roll`]).
//!
//! ```
//! use pachisi::{Game, Roll, Rules};
//! let mut game = Game::new(&Rules::preset("parcheesi").unwrap(), 7);
//! game.set_roll(Roll::Dice([5, 3])).unwrap();
//! let plays = game.legal_plays();
//! assert!(!plays.is_empty());
//! game.play(&plays[0]).unwrap();
//! game.undo().unwrap();
//! ```
#![warn(missing_docs)]

pub mod backgammon;
pub mod board;
pub mod classic;
pub mod dedup;
pub mod dice;
pub mod error;
pub mod family;
pub mod game;
pub mod nn;
pub mod options;
pub mod parcheesi;
pub mod play;
pub mod players;
pub mod registry;
pub mod rl;
pub mod rules;
pub mod sim;
#[cfg(feature = "svg")]
pub mod svg;
pub mod system;
pub mod tournament;

pub use dice::{ChanceOutcome, Roll};
pub use error::{Error, Result};
pub use game::{BoardData, Event, Game, GameOf, HistoryEntry, PlayFormatter, SharedPlays};
pub use options::{OptionInfo, OptionKind};
pub use play::{MAX_STEPS, NO_PIECE, Play, PlayList, Step, StepKind};
pub use players::{Policy, from_spec};
pub use registry::{Registered, SystemVisitor};
pub use rules::{Rules, RulesConfig, variants};
pub use system::{
    BoardKind, CharkoniStage, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules,
};

/// The crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The README's examples, compiled and run as doctests so the README stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
