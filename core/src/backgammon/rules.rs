//! The options of backgammon ([`BackgammonRules`]: the first roll, the cube, Jacoby, gammons
//! and backgammons) and their validation into a [`BackgammonSystem`].

use super::*;

/// How the first turn starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstRoll {
    /// Each side throws one die; the higher die starts and plays both numbers; ties are
    /// re-thrown (the chance node lists only the 30 non-double pairs).
    Opening,
    /// Seat 0 starts with an ordinary roll of two dice.
    Plain,
}

/// The options of backgammon.
///
/// ```
/// use pachisi::backgammon::BackgammonRules;
/// use pachisi::SystemRules;
/// let r = BackgammonRules::standard();
/// assert!(!r.cube && r.gammons && r.backgammons);
/// assert!(BackgammonRules { jacoby: true, ..r.clone() }.build().is_err()); // Jacoby needs the cube
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackgammonRules {
    /// Opening roll (one die each, the default) or a plain first roll by seat 0.
    pub first_roll: FirstRoll,
    /// Play with the doubling cube (off by default: the preset is cubeless money play, as the
    /// independent engines it is cross-checked against).
    pub cube: bool,
    /// The highest value the cube may reach (a power of two, 2..=32768).
    pub max_cube: u32,
    /// Jacoby rule: gammons and backgammons count single while the cube has not been turned.
    pub jacoby: bool,
    /// A loser with no checker off loses a gammon (2 points times the cube).
    pub gammons: bool,
    /// A gammoned loser with a checker on the bar or in the winner's home board loses a
    /// backgammon (3 points times the cube).
    pub backgammons: bool,
    /// Rolls (chance events) after which a game still going ends, truncated, with no winner:
    /// 1..=100000 (decision G-A of `docs/RULES.md`). The default is far above the longest games
    /// simulated; it only guards against games that cannot end.
    #[serde(default = "default_max_rolls")]
    pub max_rolls: u32,
}

/// The `max_rolls` of the `backgammon` preset (G-A).
pub const DEFAULT_MAX_ROLLS: u32 = 2_500;

fn default_max_rolls() -> u32 {
    DEFAULT_MAX_ROLLS
}

impl BackgammonRules {
    /// The preset: opening roll, no cube, gammons and backgammons count.
    pub fn standard() -> Self {
        BackgammonRules {
            first_roll: FirstRoll::Opening,
            cube: false,
            max_cube: 64,
            jacoby: false,
            gammons: true,
            backgammons: true,
            max_rolls: DEFAULT_MAX_ROLLS,
        }
    }
}

impl SystemRules for BackgammonRules {
    type System = BackgammonSystem;
    fn build(&self) -> Result<BackgammonSystem> {
        crate::sim::check_max_rolls(self.max_rolls)?;
        if !(2..=32768).contains(&self.max_cube) || !self.max_cube.is_power_of_two() {
            return Err(Error::InvalidRules(format!(
                "`max_cube` must be a power of two from 2 to 32768, got {}",
                self.max_cube
            )));
        }
        if self.jacoby && !self.cube {
            return Err(Error::InvalidRules(
                "the Jacoby rule needs the cube (`cube: true`)".into(),
            ));
        }
        if self.backgammons && !self.gammons {
            return Err(Error::InvalidRules(
                "backgammons count triple only when gammons count (`gammons: true`)".into(),
            ));
        }
        Ok(BackgammonSystem {
            rules: self.clone(),
            max_cube_log2: self.max_cube.trailing_zeros() as u8,
        })
    }
}
