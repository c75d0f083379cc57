//! The one error type of the engine.

/// Everything that can go wrong when creating, loading or playing a game.
///
/// Every fallible call returns this; the game it was called on is left unchanged.
/// The variants are stable: the C ABI maps each to a fixed status code and the
/// Python package to an exception class.
///
/// ```
/// use pachisi::{Error, Rules};
/// let err = Rules::preset("snakes-and-ladders").unwrap_err();
/// assert!(matches!(err, Error::UnknownVariant { .. }));
/// assert!(err.to_string().contains("snakes-and-ladders"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A preset name that the engine does not know.
    #[error("unknown variant `{name}` (known variants: {known})")]
    UnknownVariant {
        /// The name that was asked for.
        name: String,
        /// The known names, comma separated.
        known: String,
    },
    /// An option that does not exist, has a wrong type or value, or an invalid combination.
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    /// A JSON document that cannot be parsed or has the wrong shape.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// Text in a position or play notation that cannot be parsed.
    #[error("invalid notation: {0}")]
    InvalidNotation(String),
    /// A position that parses but cannot occur (too many pieces, two seats on a square...).
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    /// Dice or a throw that this variant cannot produce here.
    #[error("invalid roll: {0}")]
    InvalidRoll(String),
    /// A play or step that is not legal now.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The call does not fit the game's phase (a play at a chance node, a roll while a play is due,
    /// anything after the game is over, undo with no history).
    #[error("wrong phase: {0}")]
    WrongPhase(String),
    /// A player spec that names no player, or a parameter a player does not have or cannot take.
    #[error("invalid player: {0}")]
    InvalidPlayer(String),
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
