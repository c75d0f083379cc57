//! The options of Classic Pachisi ([`ClassicRules`]: the throw table, graces, castles, units)
//! and their validation into a [`ClassicSystem`] with its board data.

use super::*;

/// The options of Classic Pachisi (preset [`ClassicRules::classic`]).
///
/// ```
/// use pachisi::classic::ClassicRules;
/// use pachisi::SystemRules;
/// let mut r = ClassicRules::classic();
/// assert_eq!(r.throw_table, vec![25, 10, 2, 3, 4, 5, 6]);
/// r.shell_probability = 1.0;
/// assert!(r.build().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicRules {
    /// Players: 4 (one colour each, two teams) or 2 (each plays a whole team, C-B) (CLS-1).
    pub seats: u8,
    /// Squares moved for 0, 1, ..., 6 shells mouth up (CLS-3): seven values, each 1..=84.
    pub throw_table: Vec<u8>,
    /// Probability that one shell lands mouth up, 0.05..=0.95 (CLS-3, C-D).
    pub shell_probability: f64,
    /// Throw values that are graces: they enter a piece and give another throw (CLS-5, CLS-6).
    pub graces: Vec<u8>,
    /// Which square of each outer column, counted from its outer end (1..=8), is a castle
    /// (CLS-9; sources say the 4th, some boards show the 5th).
    pub castle_from_outer_end: u8,
    /// Each colour's first piece starts entered, on the charkoni (CLS-5).
    pub first_piece_in_play: bool,
    /// A grace gives another throw automatically (CLS-6, C-C); off: no extra throw.
    pub extra_throw_on_grace: bool,
    /// A colour's pieces on one square may move together as a unit (CLS-7, C-A).
    pub units: bool,
    /// Allow a move to a square from which no sequence of throws reaches home exactly (with the
    /// standard table: the square next to the charkoni, as no throw moves 1). Off by default so a
    /// piece can never be stranded for ever and every game can end.
    pub allow_dead_end: bool,
    /// Rolls (chance events) after which a game still going ends, truncated, with no winner:
    /// 1..=100000 (decision G-A of `docs/RULES.md`). The default is far above the longest games
    /// simulated; it only guards against games that cannot end.
    #[serde(default = "default_max_rolls")]
    pub max_rolls: u32,
}

/// The smallest `shell_probability` accepted (C-D).
pub const MIN_SHELL_PROBABILITY: f64 = 0.05;
/// The largest `shell_probability` accepted (C-D).
pub const MAX_SHELL_PROBABILITY: f64 = 0.95;

/// The `max_rolls` (throws) of the `pachisi` preset (G-A).
pub const DEFAULT_MAX_ROLLS: u32 = 6_000;

fn default_max_rolls() -> u32 {
    DEFAULT_MAX_ROLLS
}

impl ClassicRules {
    /// The preset `pachisi`: four players, table 25/10/2/3/4/5/6, p = 0.5, graces 6, 10, 25,
    /// castles on the 4th outer-column square, first piece in play, automatic extra throw, units.
    ///
    /// ```
    /// let r = pachisi::classic::ClassicRules::classic();
    /// assert_eq!(r.seats, 4);
    /// assert_eq!(r.graces, vec![6, 10, 25]);
    /// ```
    pub fn classic() -> Self {
        ClassicRules {
            seats: 4,
            throw_table: vec![25, 10, 2, 3, 4, 5, 6],
            shell_probability: 0.5,
            graces: vec![6, 10, 25],
            castle_from_outer_end: 4,
            first_piece_in_play: true,
            extra_throw_on_grace: true,
            units: true,
            allow_dead_end: false,
            max_rolls: DEFAULT_MAX_ROLLS,
        }
    }
}

impl Default for ClassicRules {
    fn default() -> Self {
        ClassicRules::classic()
    }
}

pub(super) fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidRules(msg.into())
}

impl SystemRules for ClassicRules {
    type System = ClassicSystem;

    fn build(&self) -> Result<ClassicSystem> {
        crate::sim::check_max_rolls(self.max_rolls)?;
        if self.seats != 2 && self.seats != 4 {
            return Err(invalid(format!(
                "seats must be 2 or 4 (two teams of opposite colours), got {}",
                self.seats
            )));
        }
        if self.throw_table.len() != SHELLS as usize + 1 {
            return Err(invalid(format!(
                "throw_table needs 7 values (for 0..=6 shells mouth up), got {}",
                self.throw_table.len()
            )));
        }
        if let Some(v) = self.throw_table.iter().find(|&&v| v == 0 || v > PATH_STEPS) {
            return Err(invalid(format!(
                "throw_table values must be 1..={PATH_STEPS} squares, got {v}"
            )));
        }
        let p = self.shell_probability;
        // Outside this range some throw values are so rare (below 1 in 10^7 at 0.05) that a
        // piece waiting for one stalls the game for ever; C-D of docs/RULES.md.
        if !(p.is_finite() && (MIN_SHELL_PROBABILITY..=MAX_SHELL_PROBABILITY).contains(&p)) {
            return Err(invalid(format!(
                "option `shell_probability` must be {MIN_SHELL_PROBABILITY}..={MAX_SHELL_PROBABILITY}, got {p}"
            )));
        }
        if self.graces.is_empty() {
            return Err(invalid(
                "graces must name at least one throw value (otherwise no piece can enter)",
            ));
        }
        for (i, g) in self.graces.iter().enumerate() {
            if !self.throw_table.contains(g) {
                return Err(invalid(format!(
                    "grace {g} is not a value of the throw table {:?}",
                    self.throw_table
                )));
            }
            if self.graces[..i].contains(g) {
                return Err(invalid(format!("grace {g} is listed twice")));
            }
        }
        if !(1..=ROWS).contains(&self.castle_from_outer_end) {
            return Err(invalid(format!(
                "castle_from_outer_end must be 1..=8 (a square of the outer column), got {}",
                self.castle_from_outer_end
            )));
        }
        let mut values = [0u8; 7];
        values.copy_from_slice(&self.throw_table);
        // reachable[d]: some sequence of throws covers exactly d squares.
        let mut reachable = [false; PATH_STEPS as usize + 1];
        reachable[0] = true;
        for d in 1..reachable.len() {
            reachable[d] = values
                .iter()
                .any(|&v| (v as usize) <= d && reachable[d - v as usize]);
        }
        if !reachable[PATH_STEPS as usize] {
            return Err(invalid(format!(
                "with throw_table {:?} no piece can cover the {PATH_STEPS} steps home exactly",
                self.throw_table
            )));
        }
        let mut dead = [false; HOME as usize + 1];
        for (t, d) in dead.iter_mut().enumerate().take(HOME as usize) {
            *d = t > CHARKONI_START as usize && !reachable[HOME as usize - t];
        }
        let mut grace = [false; 7];
        for (g, v) in grace.iter_mut().zip(values) {
            *g = self.graces.contains(&v);
        }
        let dist = cowrie_distribution(SHELLS, p);
        let mut distribution = [0.0; 7];
        distribution.copy_from_slice(&dist);

        let mut loop_square = [[NOT_ON_LOOP; HOME as usize + 1]; COLOURS];
        for (c, row) in loop_square.iter_mut().enumerate() {
            for pos in END_SQUARE..=END_SQUARE_AGAIN {
                row[pos as usize] = (c as u8 * ARM_SPACING + (pos - END_SQUARE)) % LOOP_LEN;
            }
        }
        // Castles (CLS-9): each end square (offset 0 from E), and on each outer column the
        // n-th square from its outer end: on the inward column of arm k that is offset n from
        // E_k, on the outward column of arm k+1 offset 17 - n (the mirror image).
        let n = self.castle_from_outer_end as u128;
        let mut castles = 0u128;
        for k in 0..4u128 {
            let e = k * ARM_SPACING as u128;
            castles |= 1 << e;
            castles |= 1 << (e + n);
            castles |= 1 << (e + ARM_SPACING as u128 - n);
        }
        Ok(ClassicSystem {
            rules: self.clone(),
            values,
            grace,
            distribution,
            board: Box::new(BoardData { loop_square, dead }),
            castles,
        })
    }
}
