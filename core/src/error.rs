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
    /// An argument of a call that is out of its range (not an option of the rules): a thread
    /// count of 0 or above [`crate::sim::MAX_THREADS`], a size outside its bounds.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A long call (a simulation) stopped early because its caller asked it to; it produced
    /// no result.
    #[error("cancelled: {0}")]
    Cancelled(String),
    /// The operating system refused a resource: worker threads could not be started, or memory
    /// for the results could not be allocated.
    #[error("resource error: {0}")]
    Resource(String),
}

/// At most `max` characters of `text` (whole characters), with `…` and the number of characters
/// left out when it is longer: error messages quote user input through this, so a 100 KB input
/// does not come back whole in the message.
///
/// ```
/// assert_eq!(pachisi::error::excerpt("abc", 80), "abc");
/// let long = "x".repeat(1000);
/// let short = pachisi::error::excerpt(&long, 80);
/// assert!(short.starts_with("xxx") && short.ends_with("(1000 characters)"));
/// assert!(short.chars().count() < 110);
/// ```
pub fn excerpt(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… ({n} characters)")
}

/// The longest excerpt of user input an error message quotes (see [`excerpt`]).
pub const EXCERPT_CHARS: usize = 80;

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// An empty vector with room for `len` elements, or [`Error::Resource`] when that much memory
/// cannot be had (the size overflows, or the allocator refuses). Results sized by a count the
/// caller chose (rollouts, deals, environments) are allocated through this, so that a huge count
/// is an error instead of an abort of the process.
pub(crate) fn try_with_capacity<T>(len: usize, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        let bytes = (len as u128) * (std::mem::size_of::<T>() as u128);
        Error::Resource(format!(
            "cannot allocate memory for {len} {what} ({bytes} bytes)"
        ))
    })?;
    Ok(v)
}

/// `a * b` for a count of results, or [`Error::InvalidArgument`] naming `what` when the product
/// does not fit in a `usize`.
pub(crate) fn checked_count(a: usize, b: usize, what: &str) -> Result<usize> {
    a.checked_mul(b)
        .ok_or_else(|| Error::InvalidArgument(format!("too many {what}: {a} x {b}")))
}
