//! Steps and plays: what a seat does with one roll.
//!
//! A *step* moves one piece (or a gate, unit or stack moving as one) by one value; a *play* is
//! every step of one roll, bonuses included. Both are plain `Copy` values, so move generation
//! never allocates per step.

use serde::{Deserialize, Serialize};

/// What a step does.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
#[repr(u8)]
pub enum StepKind {
    /// A piece in play moves forward (bearing off in backgammon is a move to the off position).
    #[default]
    Move = 0,
    /// A piece leaves the nest (or the bar, or the charkoni) and enters the board.
    Enter = 1,
    /// A bonus move (Parcheesi's 20 for a capture and 10 for home, Online Pachisi's 10).
    Bonus = 2,
    /// Backgammon: the player on roll offers the doubling cube.
    Double = 3,
    /// Backgammon: the player on roll rolls without offering the cube.
    NoDouble = 4,
    /// Backgammon: the opponent takes the cube.
    Take = 5,
    /// Backgammon: the opponent drops (passes) and loses the game at the current cube value.
    Drop = 6,
}

/// Marks a step that moves no identified piece (backgammon checkers have no identity,
/// cube decisions move nothing).
pub const NO_PIECE: u8 = u8::MAX;

/// One sub-move of a play.
///
/// Positions (`from`, `to`) are in the moving seat's own coordinates, as each variant documents
/// (for the Pachisi family: steps from the seat's entry square, 0 meaning the nest; for
/// backgammon: the point numbered from the mover's side, 25 the bar, 0 off).
///
/// ```
/// use pachisi::{Step, StepKind};
/// let s = Step { seat: 0, piece: 2, from: 10, to: 15, value: 5, ..Step::default() };
/// assert_eq!(s.kind, StepKind::Move);
/// assert_eq!(s.count, 1);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Step {
    /// The seat whose piece moves (a partner's seat when a finished seat plays for it).
    pub seat: u8,
    /// The piece's index within its seat, or [`NO_PIECE`].
    pub piece: u8,
    /// Where the piece stood, in the seat's coordinates.
    pub from: u8,
    /// Where it stands after the step.
    pub to: u8,
    /// The pips this step spends (a die, a sum, a bonus, a throw).
    pub value: u8,
    /// How many pieces move together (1; 2 for a gate; n for a unit).
    pub count: u8,
    /// How many opposing pieces this step captures (sends back).
    pub captured: u8,
    /// What the step does.
    pub kind: StepKind,
}

impl Default for Step {
    fn default() -> Self {
        Step {
            seat: 0,
            piece: NO_PIECE,
            from: 0,
            to: 0,
            value: 0,
            count: 1,
            captured: 0,
            kind: StepKind::Move,
        }
    }
}

/// The most steps one play can hold: four dice values plus every bonus a chain of captures and
/// homecomings can earn in one roll.
pub const MAX_STEPS: usize = 24;

/// Everything one seat does with one roll: a fixed-capacity list of steps (no heap).
///
/// A play with no steps is a *pass*: legal only where the variant lets a player pass.
///
/// ```
/// use pachisi::{Play, Step};
/// let mut p = Play::new();
/// assert!(p.is_pass());
/// p.push(Step { value: 3, ..Step::default() });
/// assert_eq!(p.len(), 1);
/// assert_eq!(p.steps()[0].value, 3);
/// ```
#[derive(Copy, Clone)]
pub struct Play {
    len: u8,
    steps: [Step; MAX_STEPS],
}

impl Play {
    /// The empty play (a pass).
    pub const fn new() -> Play {
        Play {
            len: 0,
            steps: [Step {
                seat: 0,
                piece: NO_PIECE,
                from: 0,
                to: 0,
                value: 0,
                count: 1,
                captured: 0,
                kind: StepKind::Move,
            }; MAX_STEPS],
        }
    }

    /// A play of the given steps.
    ///
    /// # Panics
    /// If there are more than [`MAX_STEPS`] steps (no legal play has that many).
    pub fn from_steps(steps: &[Step]) -> Play {
        let mut p = Play::new();
        for s in steps {
            p.push(*s);
        }
        p
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the play has no steps.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether this is a pass (no steps).
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// Appends a step.
    ///
    /// # Panics
    /// When the play already holds [`MAX_STEPS`] steps.
    #[inline]
    pub fn push(&mut self, step: Step) {
        self.steps[self.len as usize] = step;
        self.len += 1;
    }

    /// Removes the last step.
    #[inline]
    pub fn pop(&mut self) -> Option<Step> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.steps[self.len as usize])
        }
    }

    /// Whether `prefix` is the beginning of this play.
    pub fn starts_with(&self, prefix: &[Step]) -> bool {
        self.steps().starts_with(prefix)
    }

    /// Opposing pieces captured by the whole play.
    pub fn captures(&self) -> u32 {
        self.steps().iter().map(|s| s.captured as u32).sum()
    }
}

impl Default for Play {
    fn default() -> Self {
        Play::new()
    }
}

impl PartialEq for Play {
    fn eq(&self, other: &Self) -> bool {
        self.steps() == other.steps()
    }
}
impl Eq for Play {}

impl std::hash::Hash for Play {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.steps().hash(state)
    }
}

impl std::fmt::Debug for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}

impl Serialize for Play {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.steps().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Play {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let steps = Vec::<Step>::deserialize(d)?;
        if steps.len() > MAX_STEPS {
            return Err(serde::de::Error::custom(format!(
                "a play holds at most {MAX_STEPS} steps, got {}",
                steps.len()
            )));
        }
        Ok(Play::from_steps(&steps))
    }
}

/// Keeps one play per resulting position, in first-seen order.
///
/// `plays` and `results` are parallel: `results[i]` is the position `plays[i]` leads to.
/// Used by the move generators after they enumerate every order of the steps.
///
/// ```
/// use pachisi::{Play, Step};
/// use pachisi::play::dedup_by_result;
/// let a = Play::from_steps(&[Step { value: 1, ..Step::default() }]);
/// let b = Play::from_steps(&[Step { value: 2, ..Step::default() }]);
/// let mut plays = vec![a, b, a];
/// let mut results = vec![10u32, 20, 10];
/// dedup_by_result(&mut plays, &mut results);
/// assert_eq!(plays.len(), 2);
/// ```
pub fn dedup_by_result<S: Eq + std::hash::Hash + Copy>(
    plays: &mut Vec<Play>,
    results: &mut Vec<S>,
) {
    debug_assert_eq!(plays.len(), results.len());
    if plays.len() < 2 {
        return;
    }
    if plays.len() <= 16 {
        // Small lists: quadratic scan beats hashing.
        let mut keep = 0;
        for i in 0..plays.len() {
            if !results[..keep].contains(&results[i]) {
                plays[keep] = plays[i];
                results[keep] = results[i];
                keep += 1;
            }
        }
        plays.truncate(keep);
        results.truncate(keep);
        return;
    }
    let mut seen = std::collections::HashSet::with_capacity(plays.len());
    let mut keep = 0;
    for i in 0..plays.len() {
        if seen.insert(results[i]) {
            plays[keep] = plays[i];
            results[keep] = results[i];
            keep += 1;
        }
    }
    plays.truncate(keep);
    results.truncate(keep);
}
