//! The options of Family Pachisi ([`FamilyRules`]: every decision F-A..F-J is one) and their
//! validation into a [`FamilySystem`].

use super::*;

/// The options of Family Pachisi. Every decision of `RULES.md` (F-A..F-J) is one of them.
///
/// ```
/// use pachisi::family::FamilyRules;
/// use pachisi::SystemRules;
/// let r = FamilyRules::family();
/// assert!(r.teams && r.seats == 4);
/// // Two seats play without teams unless teams are asked for (and then it is an error).
/// let two = pachisi::Rules::with_options("pachisi-family", &serde_json::json!({"seats": 2})).unwrap();
/// assert_eq!(two.options()["teams"], false);
/// assert!(FamilyRules { seats: 3, ..FamilyRules::family() }.build().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyRules {
    /// Colours in play: 4 (default), or 2 sitting opposite, or 3 (FAM-1, FAM-2).
    pub seats: u8,
    /// Opposite colours are partners (FAM-2, F-I); needs 4 seats. Off: every colour for itself.
    pub teams: bool,
    /// F-A: the sum of both dice may be played by one piece as one move (only its end lands).
    pub sum_as_one_move: bool,
    /// F-B: one piece may take both dice one after the other (each a landing).
    pub one_piece_both_dice: bool,
    /// FAM-4 / F-C: the higher die is played first; off: either order.
    pub higher_die_first: bool,
    /// FAM-5 / F-D: doubles play the bottom faces too (`[h, h, l, l]`, h = max(d, 7-d)).
    pub bottom_faces: bool,
    /// FAM-5b / F-E: until every piece has been in play once, doubles play only the two higher
    /// values and give no extra roll (unless the roll enters the last never-played piece).
    pub doubles_restricted_until_all_played: bool,
    /// FAM-5c: the two pieces of a gate may move as one with doubles (h, l or 7 squares), a
    /// step of two pieces (`(2)` in the notation). The positions are those the pieces reach
    /// value by value (F-D), so this changes how plays are written, not which are legal.
    pub gate_moves_with_doubles: bool,
    /// FAM-6: with no piece in play, a 6-5 may enter a piece and move it 6 at once.
    pub six_five_enters_and_moves: bool,
    /// FAM-6 / F-G: rolls a colour with no piece in play gets per turn to roll a five (1..=6).
    pub entry_tries: u8,
    /// FAM-5 / F-J: doubles give another roll.
    pub doubles_extra_roll: bool,
    /// F-H: off (default) capturing is a choice; on, a play that captures must be chosen if any.
    pub compulsory_capture: bool,
    /// F-F: off (default) only a die showing five enters; on, a sum of five (4-1, 3-2) may
    /// enter a piece too, using both dice.
    pub sum_of_five_enters: bool,
    /// Rolls (chance events) after which a game still going ends, truncated, with no winner:
    /// 1..=100000 (decision G-A of `docs/RULES.md`). The default is far above the longest games
    /// simulated; it only guards against games that cannot end.
    #[serde(default = "default_max_rolls")]
    pub max_rolls: u32,
}

/// The `max_rolls` of the `pachisi-family` preset (G-A).
pub const DEFAULT_MAX_ROLLS: u32 = 2_000;

fn default_max_rolls() -> u32 {
    DEFAULT_MAX_ROLLS
}

impl FamilyRules {
    /// The `pachisi-family` preset: the seed's rules with every F-x decision.
    pub fn family() -> Self {
        FamilyRules {
            seats: 4,
            teams: true,
            sum_as_one_move: true,
            one_piece_both_dice: true,
            higher_die_first: true,
            bottom_faces: true,
            doubles_restricted_until_all_played: true,
            gate_moves_with_doubles: true,
            six_five_enters_and_moves: true,
            entry_tries: 3,
            doubles_extra_roll: true,
            compulsory_capture: false,
            sum_of_five_enters: false,
            max_rolls: DEFAULT_MAX_ROLLS,
        }
    }
}

impl Default for FamilyRules {
    fn default() -> Self {
        FamilyRules::family()
    }
}

pub(super) fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidRules(msg.into())
}

impl SystemRules for FamilyRules {
    type System = FamilySystem;

    /// Seats other than four mean no teams (partners sit opposite) unless `teams` is given.
    fn imply(&mut self, given: &serde_json::Map<String, serde_json::Value>) {
        if given.contains_key("seats") && !given.contains_key("teams") && self.seats != 4 {
            self.teams = false;
        }
    }

    fn build(&self) -> Result<FamilySystem> {
        crate::sim::check_max_rolls(self.max_rolls)?;
        if !(2..=4).contains(&self.seats) {
            return Err(invalid(format!(
                "`seats` must be 2, 3 or 4 (got {})",
                self.seats
            )));
        }
        if self.teams && self.seats != 4 {
            return Err(invalid(format!(
                "`teams` needs 4 seats: partners sit opposite (seats s and s+2), and with {} \
                 seats a partner seat is not in play; use \"teams\": false for opponents",
                self.seats
            )));
        }
        if !(1..=6).contains(&self.entry_tries) {
            return Err(invalid(format!(
                "`entry_tries` must be 1..=6 (got {})",
                self.entry_tries
            )));
        }
        if self.doubles_restricted_until_all_played && !self.bottom_faces {
            return Err(invalid(
                "`doubles_restricted_until_all_played` limits doubles to their two higher \
                 values, which only exist with `bottom_faces`: set both or turn the restriction off",
            ));
        }
        let mut side = [0u8; 4];
        let mut partner = [NONE; 4];
        for seat in 0..self.seats {
            side[seat as usize] = side_of_seat(seat, self.seats);
            if self.teams {
                partner[seat as usize] = (seat + 2) % 4;
            }
        }
        Ok(FamilySystem {
            rules: self.clone(),
            side,
            partner,
            squares: square_table(&side),
        })
    }
}
