//! The options of the Parcheesi rule system (Parcheesi and Online Pachisi) and their validation.

use super::ParcheesiSystem;
use crate::system::SystemRules;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Deserializers that name the option in their error message (serde's own do not).
mod named {
    use serde::de::{Deserialize, Deserializer, Error};

    macro_rules! named {
        ($($fn_name:ident: $ty:ty = $name:literal, $expect:literal;)*) => {$(
            pub fn $fn_name<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                <$ty>::deserialize(d).map_err(|e| {
                    D::Error::custom(format!("option `{}` must be {} ({e})", $name, $expect))
                })
            }
        )*};
    }

    named! {
        seats: u8 = "seats", "2, 3 or 4";
        enter_with_sum: bool = "enter_with_sum", "true or false";
        doubles_bottom_faces: bool = "doubles_bottom_faces", "true or false";
        doubles_extra_roll: bool = "doubles_extra_roll", "true or false";
        third_doubles_penalty: bool = "third_doubles_penalty", "true or false";
        capture: bool = "capture", "true or false";
        capture_bonus: u8 = "capture_bonus", "a number of squares (0 = none)";
        home_bonus: u8 = "home_bonus", "a number of squares (0 = none)";
        bonus_order: super::BonusOrder = "bonus_order", "\"dice-first\" or \"any\"";
        bonuses_chain: bool = "bonuses_chain", "true or false";
        bonus_obligation: super::BonusObligation = "bonus_obligation",
            "\"most-bonuses\" or \"per-dice-play\"";
        blockades: bool = "blockades", "true or false";
        blockade_no_joint_move: bool = "blockade_no_joint_move", "true or false";
        blockade_turn_limit: u8 = "blockade_turn_limit", "a number of plays (0 = no limit)";
        max_pieces_per_square: u8 = "max_pieces_per_square", "2, 3 or 4";
        safe_squares: bool = "safe_squares", "true or false";
        entry_capture: bool = "entry_capture", "true or false";
        go_round_again: bool = "go_round_again", "true or false";
        pass_allowed: bool = "pass_allowed", "true or false";
        max_rolls: u32 = "max_rolls", "a number of rolls (1..=100000)";
    }
}

/// When bonus moves may be taken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BonusOrder {
    /// Every die value that can be played is played before any bonus (PAR-6, the default).
    DiceFirst,
    /// A pending bonus may be played at any point of the roll, before or between the dice.
    Any,
}

/// How the obligation to play bonuses (P-C) constrains the choice of the dice play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BonusObligation {
    /// The literal reading of P-C: among all plays kept for the dice, keep those that play the
    /// most bonuses, then the most bonus pips. A capture (or reaching home) is then compulsory
    /// whenever the bonus it earns can be played.
    MostBonuses,
    /// P-C as revised (the default of both presets): the dice part is maximised (P-D, most
    /// values, most pips); the bonuses are then maximised separately after each distinct dice
    /// part (the position the dice lead to), so capturing is a choice, and a bonus once earned
    /// must be played whole if any piece can. Needs `bonus_order: "dice-first"`.
    PerDicePlay,
}

/// The options of Parcheesi and Online Pachisi.
///
/// Every field is an option of the rules JSON (`{"variant": "parcheesi", "capture_bonus": 10}`).
/// The two presets are [`ParcheesiRules::parcheesi`] and [`ParcheesiRules::online`]; see
/// `docs/rules/parcheesi.md` and `docs/rules/pachisi-online.md` for every clause and decision.
///
/// ```
/// use pachisi::parcheesi::ParcheesiRules;
/// use pachisi::SystemRules;
/// let mut r = ParcheesiRules::parcheesi();
/// r.seats = 2;
/// assert!(r.build().is_ok());
/// r.seats = 5;
/// assert!(r.build().unwrap_err().to_string().contains("seats"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParcheesiRules {
    /// Seats in play: 2, 3 or 4 (ONL-1). Two seats sit opposite each other.
    #[serde(deserialize_with = "named::seats")]
    pub seats: u8,
    /// A pair of dice summing to five (1+4, 2+3) may enter a piece, spending both (PAR-2, O-B).
    #[serde(deserialize_with = "named::enter_with_sum")]
    pub enter_with_sum: bool,
    /// Doubles also give the bottom faces ([d, d, 7-d, 7-d]) when no piece of the seat is in the
    /// nest at the roll (PAR-7, P-A); off: only the top faces (Online Pachisi, O-A).
    #[serde(deserialize_with = "named::doubles_bottom_faces")]
    pub doubles_bottom_faces: bool,
    /// The seat rolls again after playing doubles (PAR-7, P-I, ONL-4).
    #[serde(deserialize_with = "named::doubles_extra_roll")]
    pub doubles_extra_roll: bool,
    /// Third doubles in a row: the seat's piece nearest home goes back to the nest and the turn
    /// passes, before any move (P-H; Online Pachisi's "pair punishment", ONL-4, O-C).
    #[serde(deserialize_with = "named::third_doubles_penalty")]
    pub third_doubles_penalty: bool,
    /// Landing on a single opposing piece sends it back to its nest (PAR-8, ONL-5). Off: opposing
    /// pieces may share a square (O-D).
    #[serde(deserialize_with = "named::capture")]
    pub capture: bool,
    /// Squares of the bonus move earned by a capture (PAR-13: 20; ONL-5: 10); 0 = no bonus.
    /// Ignored while `capture` is off.
    #[serde(deserialize_with = "named::capture_bonus")]
    pub capture_bonus: u8,
    /// Squares of the bonus move earned by bringing a piece home (PAR-13: 10); 0 = no bonus.
    #[serde(deserialize_with = "named::home_bonus")]
    pub home_bonus: u8,
    /// Whether bonuses wait until every die is played (PAR-6) or may be played at any time.
    #[serde(deserialize_with = "named::bonus_order")]
    pub bonus_order: BonusOrder,
    /// A bonus move that itself captures or reaches home earns a further bonus (P-C).
    #[serde(deserialize_with = "named::bonuses_chain")]
    pub bonuses_chain: bool,
    /// Whether the bonuses are maximised only after the dice play the player chose
    /// (`"per-dice-play"`, the default: capturing is a choice, P-C) or count in choosing among
    /// the dice plays (`"most-bonuses"`, the literal reading: a capture whose bonus can be
    /// played is compulsory).
    #[serde(deserialize_with = "named::bonus_obligation")]
    pub bonus_obligation: BonusObligation,
    /// Two own pieces may share a square and form a blockade that nobody passes (PAR-10, ONL-6).
    /// Off: a piece may not land on a square its own piece holds (O-D).
    #[serde(deserialize_with = "named::blockades")]
    pub blockades: bool,
    /// P-D: the pieces of a blockade standing at the start of a roll may not end that roll's play
    /// together on one new square (PAR-10). Needs `blockades`.
    #[serde(deserialize_with = "named::blockade_no_joint_move")]
    pub blockade_no_joint_move: bool,
    /// Local rule (PAR-10): a blockade that has stood through this many of its owner's plays must
    /// be opened by the next play when any legal play opens it; 0 = no limit. Needs `blockades`.
    #[serde(deserialize_with = "named::blockade_turn_limit")]
    pub blockade_turn_limit: u8,
    /// Most pieces of one seat on one square of the track or home path while `blockades` is on
    /// (2 in both presets; 2..=4).
    #[serde(deserialize_with = "named::max_pieces_per_square")]
    pub max_pieces_per_square: u8,
    /// The 12 safe squares (entry squares, E+7, E+12): an opponent standing there cannot be
    /// captured, and the square is closed to opponents (PAR-9, ONL-7, O-E).
    #[serde(deserialize_with = "named::safe_squares")]
    pub safe_squares: bool,
    /// A piece entering from its nest captures a single opponent on its own (safe) entry square
    /// (PAR-9, P-E, O-E). Off: entering there is illegal, like landing on any occupied safe square.
    #[serde(deserialize_with = "named::entry_capture")]
    pub entry_capture: bool,
    /// PAR-11 / P-G: a piece may pass its home path and go round the track again.
    #[serde(deserialize_with = "named::go_round_again")]
    pub go_round_again: bool,
    /// O-F: the player may give up the whole roll or any of its dice (no obligation to use the
    /// dice; the bonuses the dice played earn are still played when they can be, maximised per
    /// dice play). Off: the most values, then the most pips, must be used (P-C).
    #[serde(deserialize_with = "named::pass_allowed")]
    pub pass_allowed: bool,
    /// Rolls (chance events) after which a game still going ends, truncated, with no winner:
    /// 1..=100000 (decision G-A of `docs/RULES.md`). The default is far above the longest games
    /// simulated; it only guards against games that cannot end.
    #[serde(deserialize_with = "named::max_rolls", default = "default_max_rolls")]
    pub max_rolls: u32,
}

/// The `max_rolls` of both presets of this system (G-A).
pub const DEFAULT_MAX_ROLLS: u32 = 5_000;

fn default_max_rolls() -> u32 {
    DEFAULT_MAX_ROLLS
}

impl ParcheesiRules {
    /// The `parcheesi` preset: PAR-1..PAR-14 with decisions P-A..P-J.
    ///
    /// ```
    /// let r = pachisi::parcheesi::ParcheesiRules::parcheesi();
    /// assert_eq!((r.capture_bonus, r.home_bonus), (20, 10));
    /// ```
    pub fn parcheesi() -> ParcheesiRules {
        ParcheesiRules {
            seats: 4,
            enter_with_sum: true,
            doubles_bottom_faces: true,
            doubles_extra_roll: true,
            third_doubles_penalty: true,
            capture: true,
            capture_bonus: 20,
            home_bonus: 10,
            bonus_order: BonusOrder::DiceFirst,
            bonuses_chain: true,
            bonus_obligation: BonusObligation::PerDicePlay,
            blockades: true,
            blockade_no_joint_move: true,
            blockade_turn_limit: 0,
            max_pieces_per_square: 2,
            safe_squares: true,
            entry_capture: true,
            go_round_again: true,
            pass_allowed: false,
            max_rolls: DEFAULT_MAX_ROLLS,
        }
    }

    /// The `pachisi-online` preset: ONL-1..ONL-7 with decisions O-A..O-F; the switches capture,
    /// blocking, safe squares and pair punishment are on, passing is off.
    ///
    /// ```
    /// let r = pachisi::parcheesi::ParcheesiRules::online();
    /// assert_eq!((r.capture_bonus, r.home_bonus), (10, 0));
    /// assert!(!r.doubles_bottom_faces && !r.go_round_again);
    /// ```
    pub fn online() -> ParcheesiRules {
        ParcheesiRules {
            seats: 4,
            enter_with_sum: true,
            doubles_bottom_faces: false,
            doubles_extra_roll: true,
            third_doubles_penalty: true,
            capture: true,
            capture_bonus: 10,
            home_bonus: 0,
            bonus_order: BonusOrder::DiceFirst,
            bonuses_chain: true,
            bonus_obligation: BonusObligation::PerDicePlay,
            blockades: true,
            blockade_no_joint_move: false,
            blockade_turn_limit: 0,
            max_pieces_per_square: 2,
            safe_squares: true,
            entry_capture: true,
            go_round_again: false,
            pass_allowed: false,
            max_rolls: DEFAULT_MAX_ROLLS,
        }
    }

    /// Checks every option and every combination.
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::InvalidRules(msg));
        crate::sim::check_max_rolls(self.max_rolls)?;
        if !(2..=4).contains(&self.seats) {
            return bad(format!("`seats` must be 2, 3 or 4, got {}", self.seats));
        }
        if !(2..=4).contains(&self.max_pieces_per_square) {
            return bad(format!(
                "`max_pieces_per_square` must be 2..=4, got {}",
                self.max_pieces_per_square
            ));
        }
        if self.capture_bonus > super::MAX_BONUS {
            return bad(format!(
                "`capture_bonus` must be at most {}, got {}",
                super::MAX_BONUS,
                self.capture_bonus
            ));
        }
        if self.home_bonus > super::MAX_BONUS {
            return bad(format!(
                "`home_bonus` must be at most {}, got {}",
                super::MAX_BONUS,
                self.home_bonus
            ));
        }
        if self.third_doubles_penalty && !self.doubles_extra_roll {
            return bad(
                "`third_doubles_penalty` needs `doubles_extra_roll` (without the extra roll there \
                 is never a third doubles in a row)"
                    .into(),
            );
        }
        if self.bonus_obligation == BonusObligation::PerDicePlay
            && self.bonus_order == BonusOrder::Any
        {
            return bad(
                "`bonus_obligation: \"per-dice-play\"` (the default) needs `bonus_order: \
                 \"dice-first\"`: when bonuses may come between the dice, a die step may depend on \
                 an earlier bonus, so a play has no bonus-free dice part to maximise the bonuses \
                 after; with `bonus_order: \"any\"` set `bonus_obligation: \"most-bonuses\"`"
                    .into(),
            );
        }
        if !self.blockades && self.blockade_no_joint_move {
            return bad(
                "`blockade_no_joint_move` needs `blockades` (turn it off too when blockades are off)"
                    .into(),
            );
        }
        if !self.blockades && self.blockade_turn_limit > 0 {
            return bad(
                "`blockade_turn_limit` needs `blockades` (set it to 0 when blockades are off)"
                    .into(),
            );
        }
        Ok(())
    }
}

impl SystemRules for ParcheesiRules {
    type System = ParcheesiSystem;

    fn build(&self) -> Result<ParcheesiSystem> {
        self.validate()?;
        Ok(ParcheesiSystem::new(self.clone()))
    }
}
