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

impl StepKind {
    /// Every kind, in the order of their numbers.
    ///
    /// ```
    /// use pachisi::StepKind;
    /// assert!(StepKind::ALL.iter().enumerate().all(|(i, k)| *k as usize == i));
    /// ```
    pub const ALL: [StepKind; 7] = [
        StepKind::Move,
        StepKind::Enter,
        StepKind::Bonus,
        StepKind::Double,
        StepKind::NoDouble,
        StepKind::Take,
        StepKind::Drop,
    ];
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

/// Plays stored back to back: each play's steps, then the next play's.
///
/// What a generator fills when most listed plays are never read whole: a random policy reads one
/// of them, and copying a whole [`Play`] (room for [`MAX_STEPS`] steps) per listed play costs more
/// than the two or three steps it usually holds.
///
/// ```
/// use pachisi::{PlayList, Step};
/// let mut list = PlayList::new();
/// list.push(&[Step { value: 3, ..Step::default() }, Step { value: 5, ..Step::default() }]);
/// list.push(&[]);
/// assert_eq!(list.len(), 2);
/// assert_eq!(list.get(0)[1].value, 5);
/// assert!(list.get(1).is_empty());
/// assert_eq!(list.to_play(0).len(), 2);
/// list.retain(|i| i == 1);
/// assert_eq!(list.iter().collect::<Vec<_>>(), [&[] as &[Step]]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayList {
    steps: Vec<Step>,
    /// Where each play ends in `steps`.
    ends: Vec<u32>,
}

impl PlayList {
    /// An empty list.
    pub const fn new() -> PlayList {
        PlayList {
            steps: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Number of plays.
    #[inline]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the list holds no play.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every play (keeping the memory).
    #[inline]
    pub fn clear(&mut self) {
        self.steps.clear();
        self.ends.clear();
    }

    /// Appends a play given by its steps.
    #[inline]
    pub fn push(&mut self, steps: &[Step]) {
        self.steps.extend_from_slice(steps);
        self.ends.push(self.steps.len() as u32);
    }

    /// Appends a play given by its steps but the last, then the last.
    ///
    /// ```
    /// use pachisi::{PlayList, Step};
    /// let mut list = PlayList::new();
    /// list.push_then(&[Step { value: 3, ..Step::default() }], Step { value: 5, ..Step::default() });
    /// assert_eq!(list.get(0).iter().map(|s| s.value).collect::<Vec<_>>(), [3, 5]);
    /// ```
    #[inline]
    pub fn push_then(&mut self, steps: &[Step], last: Step) {
        if let [first] = steps {
            // The common prefix (the first step of two) without a call to copy a slice.
            self.steps.push(*first);
        } else {
            self.steps.extend_from_slice(steps);
        }
        self.steps.push(last);
        self.ends.push(self.steps.len() as u32);
    }

    /// The steps of play `i`.
    ///
    /// # Panics
    /// When `i >= self.len()`.
    #[inline]
    pub fn get(&self, i: usize) -> &[Step] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.steps[start..self.ends[i] as usize]
    }

    /// Play `i` as a [`Play`].
    ///
    /// # Panics
    /// When `i >= self.len()`.
    pub fn to_play(&self, i: usize) -> Play {
        Play::from_steps(self.get(i))
    }

    /// The plays' steps, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[Step]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Keeps the first `n` plays.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if n < self.ends.len() {
            let end = if n == 0 { 0 } else { self.ends[n - 1] as usize };
            self.steps.truncate(end);
            self.ends.truncate(n);
        }
    }

    /// Keeps the plays for whose index `keep` answers true (asked once per play, in order).
    pub fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let (mut written, mut kept, mut start) = (0usize, 0usize, 0usize);
        for i in 0..self.ends.len() {
            let end = self.ends[i] as usize;
            if keep(i) {
                if written != start {
                    self.steps.copy_within(start..end, written);
                }
                written += end - start;
                self.ends[kept] = written as u32;
                kept += 1;
            }
            start = end;
        }
        self.ends.truncate(kept);
        self.steps.truncate(written);
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

#[cfg(test)]
mod play_list_tests {
    use super::*;

    fn play(len: usize, tag: u8) -> Vec<Step> {
        (0..len)
            .map(|k| Step {
                value: tag,
                to: k as u8,
                ..Step::default()
            })
            .collect()
    }

    /// Every subset kept by `retain`, and every `truncate`, against a list of vectors.
    #[test]
    fn retain_and_truncate_match_a_model() {
        let model: Vec<Vec<Step>> = [2, 0, 3, 1, 2]
            .iter()
            .enumerate()
            .map(|(i, &len)| play(len, i as u8))
            .collect();
        for mask in 0u32..32 {
            let mut list = PlayList::new();
            for p in &model {
                list.push(p);
            }
            let mut asked = Vec::new();
            list.retain(|i| {
                asked.push(i);
                mask & (1 << i) != 0
            });
            assert_eq!(asked, [0, 1, 2, 3, 4]);
            let want: Vec<&[Step]> = (0..5)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| model[i].as_slice())
                .collect();
            assert_eq!(list.iter().collect::<Vec<_>>(), want);
            for n in (0..=want.len() + 1).rev() {
                let mut cut = list.clone();
                cut.truncate(n);
                assert_eq!(cut.len(), n.min(want.len()));
                assert_eq!(cut.iter().collect::<Vec<_>>(), want[..n.min(want.len())]);
                cut.push(&model[0]);
                assert_eq!(cut.get(cut.len() - 1), model[0].as_slice());
            }
        }
    }
}
