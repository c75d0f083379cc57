//! Backgammon (preset `backgammon`): the USBGF move obligations BG-1..BG-6, the opening roll,
//! single/gammon/backgammon results and an optional doubling cube.
//!
//! Coordinates: every seat counts points from its own side, 24 down to 1 towards its home board;
//! in a [`Step`] `from`/`to` are in the mover's numbering, with 25 the bar and 0 off. Pictures use
//! [`Place::Point`] numbered from seat 0's side (seat 1's point `p` is board point `25 - p`).
//!
//! Positions are read and written as GNU Backgammon IDs ([`position_id`], [`gnubg_id`]) and as
//! XGIDs ([`xgid`], [`from_xgid`]); moves in the usual notation (`8/5 6/5`, `bar/22`, `13/7(2)`,
//! `24/18*/13`, `6/off`).
//!
//! ```
//! use pachisi::{Game, Roll, Rules};
//! let mut g = Game::new(&Rules::preset("backgammon").unwrap(), 1);
//! assert_eq!(g.position(), "4HPwATDgc/ABMA:MAAAAAAAAAAA");
//! g.set_roll(Roll::Dice([3, 1])).unwrap(); // opening roll: seat 0 threw 3, seat 1 threw 1
//! assert_eq!(g.to_move(), 0);
//! g.play_notation("6/5 8/5").unwrap();
//! assert_eq!(g.to_move(), 1);
//! ```

mod ids;
mod movegen;
mod notation;
pub mod reference;
mod rules;

pub use rules::{BackgammonRules, FirstRoll};

pub use ids::{
    MatchKey, from_gnubg_id, from_match_id, from_position_id, from_xgid, gnubg_id, match_id,
    position_id, xgid,
};

use crate::dice::{ChanceOutcome, GameRng, Roll, roll_die, roll_two_dice, two_dice_outcomes};
use crate::play::{NO_PIECE, Play, PlayList, Step, StepKind};
use crate::system::{BoardKind, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Checkers per side.
pub const CHECKERS: u8 = 15;
/// Index of the bar in a side's checker array (and the `from` of an entering step).
pub const BAR: usize = 25;
/// Index of the borne-off tray in a side's checker array (and the `to` of a bearing-off step).
pub const OFF: usize = 0;

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The opening roll (one die per side) is due.
    Opening,
    /// The seat on turn may double or roll (cube games only).
    CubeAction,
    /// The seat on turn rolls.
    Roll,
    /// The seat on turn plays its dice.
    Move,
    /// The opponent of the seat on turn takes or drops the offered cube.
    TakeDrop,
    /// A side has borne off all its checkers; it is the seat on turn.
    Over,
    /// The opponent dropped the cube: the seat on turn won the cube's value.
    Dropped,
}

/// A backgammon position with everything the turn flow needs.
///
/// `checkers[seat][i]` counts the seat's checkers in its own numbering: `i` = 1..=24 points,
/// [`BAR`] = 25, [`OFF`] = 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BgState {
    /// Checkers of each seat, in that seat's numbering.
    pub checkers: [[u8; 26]; 2],
    /// The seat on turn (who rolls, moves or doubled; after the game, the winner).
    pub turn: u8,
    /// The dice being played (`[0, 0]` when none).
    pub dice: [u8; 2],
    /// Where the game stands.
    pub phase: Phase,
    /// log2 of the cube value (0 = cube at 1).
    pub cube_log2: u8,
    /// The seat owning the cube, or 2 while it is centred.
    pub cube_owner: u8,
}

/// Cube owner value meaning "centred".
pub const CUBE_CENTRED: u8 = 2;

impl BgState {
    /// The standard starting position (seat 0 numbering for both sides, each in its own).
    pub fn start(phase: Phase) -> BgState {
        let mut side = [0u8; 26];
        side[24] = 2;
        side[13] = 5;
        side[8] = 3;
        side[6] = 5;
        BgState {
            checkers: [side, side],
            turn: 0,
            dice: [0, 0],
            phase,
            cube_log2: 0,
            cube_owner: CUBE_CENTRED,
        }
    }

    /// The cube's value.
    pub fn cube_value(&self) -> u32 {
        1u32.checked_shl(self.cube_log2 as u32).unwrap_or(u32::MAX)
    }

    /// The pip count of `seat`: the points its checkers still have to travel to bear off (a
    /// checker on the bar counts 25).
    ///
    /// ```
    /// use pachisi::backgammon::{BgState, Phase};
    /// assert_eq!(BgState::start(Phase::Opening).pip_count(1), 167);
    /// ```
    pub fn pip_count(&self, seat: u8) -> u32 {
        self.checkers[seat as usize & 1]
            .iter()
            .enumerate()
            .map(|(point, &n)| point as u32 * n as u32)
            .sum()
    }
}

/// The backgammon rule system.
#[derive(Clone, Debug)]
pub struct BackgammonSystem {
    rules: BackgammonRules,
    max_cube_log2: u8,
}

impl BackgammonSystem {
    /// The options this system was built from.
    pub fn rules(&self) -> &BackgammonRules {
        &self.rules
    }

    /// Whether the seat on turn may offer the cube now (cube games, cube centred or its own,
    /// below the maximum).
    pub fn may_double(&self, s: &BgState) -> bool {
        self.rules.cube
            && (s.cube_owner == CUBE_CENTRED || s.cube_owner == s.turn)
            && s.cube_log2 < self.max_cube_log2
    }

    /// The phase in which a turn begins: a cube decision when doubling is possible, else the roll.
    fn turn_start(&self, s: &mut BgState) {
        s.dice = [0, 0];
        s.phase = Phase::Roll;
        if self.may_double(s) {
            s.phase = Phase::CubeAction;
        }
    }

    /// Points the winner of a borne-off game scores (before the cube).
    fn result_multiplier(&self, s: &BgState, winner: u8) -> u32 {
        let loser = &s.checkers[1 - winner as usize];
        if !self.rules.gammons || loser[OFF] > 0 {
            return 1;
        }
        if self.rules.jacoby && s.cube_log2 == 0 {
            return 1;
        }
        // The winner's home board is the loser's points 19..=24.
        if self.rules.backgammons && loser[19..=BAR].iter().any(|&c| c > 0) {
            3
        } else {
            2
        }
    }

    /// The position as an XGID written with this system's options (Jacoby flag, maximum cube).
    ///
    /// ```
    /// use pachisi::SystemRules;
    /// use pachisi::backgammon::{BackgammonRules, BgState, Phase};
    /// let sys = BackgammonRules::standard().build().unwrap();
    /// let x = sys.format_xgid(&BgState::start(Phase::Roll));
    /// assert_eq!(x, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:6");
    /// ```
    pub fn format_xgid(&self, s: &BgState) -> String {
        ids::xgid_with(s, self.rules.jacoby as u8, self.max_cube_log2)
    }

    /// Reads an XGID into a position of this system (validated).
    pub fn parse_xgid(&self, text: &str) -> Result<BgState> {
        let mut s = from_xgid(text)?;
        self.adjust_cube_phase(&mut s);
        self.validate_state(&s)?;
        Ok(s)
    }

    /// Formats that cannot say "the cube decision is made" read a pending roll as a cube
    /// decision when doubling is possible.
    fn adjust_cube_phase(&self, s: &mut BgState) {
        if s.phase == Phase::Roll && self.may_double(s) {
            s.phase = Phase::CubeAction;
        }
    }

    /// The legal next steps of a play under way from `start` with the steps `taken` so far
    /// (`cur`: `start` with them applied) into `out` (cleared first): a checker move's by
    /// [`movegen::next_steps`], without listing the roll's plays; a cube decision's two answers
    /// (a cube play is one step). The distinct next steps of the plays [`RuleSystem::generate`]
    /// lists with [`Orders::All`] that begin with `taken`, in ascending step-id order
    /// (`core/tests/rl_next_steps.rs` tests both).
    pub(crate) fn next_steps(
        &self,
        start: &BgState,
        cur: &BgState,
        taken: &[Step],
        out: &mut Vec<Step>,
    ) {
        out.clear();
        let kinds = match start.phase {
            Phase::Move => return movegen::next_steps(cur, taken, out),
            _ if !taken.is_empty() => return,
            Phase::CubeAction => [
                (start.turn, StepKind::Double),
                (start.turn, StepKind::NoDouble),
            ],
            Phase::TakeDrop => [
                (1 - start.turn, StepKind::Take),
                (1 - start.turn, StepKind::Drop),
            ],
            _ => return,
        };
        out.extend(kinds.map(|(seat, kind)| self.cube_step(seat, kind).steps()[0]));
    }

    fn cube_step(&self, seat: u8, kind: StepKind) -> Play {
        Play::from_steps(&[Step {
            seat,
            piece: NO_PIECE,
            from: 0,
            to: 0,
            value: 0,
            count: 1,
            captured: 0,
            kind,
        }])
    }
}

/// Suffix of the position notation for a cube game whose seat on turn has declined to double
/// and must now roll (the GNU IDs cannot express this moment).
const ROLL_SUFFIX: &str = ":roll";

impl RuleSystem for BackgammonSystem {
    type State = BgState;

    fn seats(&self) -> u8 {
        2
    }

    fn max_rolls(&self) -> u32 {
        self.rules.max_rolls
    }

    fn initial_state(&self) -> BgState {
        match self.rules.first_roll {
            FirstRoll::Opening => BgState::start(Phase::Opening),
            FirstRoll::Plain => {
                let mut s = BgState::start(Phase::Roll);
                self.turn_start(&mut s);
                s
            }
        }
    }

    fn canonical_state(&self, s: &BgState) -> BgState {
        BgState {
            dice: crate::dice::high_first(s.dice),
            ..*s
        }
    }

    fn validate_state(&self, s: &BgState) -> Result<()> {
        for seat in 0..2 {
            let total: u32 = s.checkers[seat].iter().map(|&c| c as u32).sum();
            if total != CHECKERS as u32 {
                return Err(Error::InvalidPosition(format!(
                    "seat {seat} has {total} checkers, must have {CHECKERS}"
                )));
            }
        }
        for p in 1..=24 {
            if s.checkers[0][p] > 0 && s.checkers[1][25 - p] > 0 {
                return Err(Error::InvalidPosition(format!(
                    "both sides have checkers on point {p} (seat 0's numbering)"
                )));
            }
        }
        if s.turn > 1 {
            return Err(Error::InvalidPosition(format!(
                "turn must be seat 0 or 1, got {}",
                s.turn
            )));
        }
        if s.cube_owner > CUBE_CENTRED {
            return Err(Error::InvalidPosition(format!(
                "cube owner must be 0, 1 or 2 (centred), got {}",
                s.cube_owner
            )));
        }
        if !self.rules.cube && (s.cube_log2 != 0 || s.cube_owner != CUBE_CENTRED) {
            return Err(Error::InvalidPosition(
                "the cube is off in these rules: it must stay centred at 1".into(),
            ));
        }
        // Only a take turns the cube, and it gives the cube to the taker: a cube at 1 is
        // centred, a cube above 1 has an owner.
        if (s.cube_log2 == 0) != (s.cube_owner == CUBE_CENTRED) {
            return Err(Error::InvalidPosition(format!(
                "a cube at {} {}: no game reaches it (the cube is centred at 1, and owned above)",
                s.cube_value(),
                if s.cube_owner == CUBE_CENTRED {
                    "in the centre".to_string()
                } else {
                    format!("owned by seat {}", s.cube_owner)
                }
            )));
        }
        if s.cube_log2 > self.max_cube_log2 {
            return Err(Error::InvalidPosition(format!(
                "cube value {} exceeds the maximum {}",
                s.cube_value(),
                self.rules.max_cube
            )));
        }
        let finished = [
            s.checkers[0][OFF] == CHECKERS,
            s.checkers[1][OFF] == CHECKERS,
        ];
        let dice_ok = s.dice.iter().all(|d| (1..=6).contains(d));
        let no_dice = s.dice == [0, 0];
        let ok = match s.phase {
            Phase::Over => finished[s.turn as usize] && !finished[1 - s.turn as usize],
            _ if finished[0] || finished[1] => {
                return Err(Error::InvalidPosition(
                    "a side has borne off every checker but the game is not over".into(),
                ));
            }
            Phase::Move => dice_ok,
            Phase::Opening => no_dice && s.cube_log2 == 0 && s.cube_owner == CUBE_CENTRED,
            Phase::Roll => no_dice,
            Phase::CubeAction | Phase::TakeDrop => no_dice && self.may_double(s),
            // The seat on turn doubled (and won by the drop): it must have been able to.
            Phase::Dropped => no_dice && self.may_double(s),
        };
        if !ok {
            return Err(Error::InvalidPosition(format!(
                "phase {:?} does not fit the dice {:?}, the cube or the checkers",
                s.phase, s.dice
            )));
        }
        Ok(())
    }

    fn node(&self, s: &BgState) -> Node {
        match s.phase {
            Phase::Opening | Phase::Roll => Node::Chance,
            Phase::CubeAction | Phase::Move | Phase::TakeDrop => Node::Decision,
            Phase::Over | Phase::Dropped => Node::Over,
        }
    }

    fn to_move(&self, s: &BgState) -> u8 {
        match s.phase {
            Phase::TakeDrop => 1 - s.turn,
            _ => s.turn,
        }
    }

    fn chance_outcomes(&self, s: &BgState) -> Vec<ChanceOutcome> {
        match s.phase {
            Phase::Opening => {
                let mut out = Vec::with_capacity(30);
                for a in 1..=6u8 {
                    for b in 1..=6u8 {
                        if a != b {
                            out.push(ChanceOutcome {
                                roll: Roll::Dice([a, b]),
                                probability: 1.0 / 30.0,
                            });
                        }
                    }
                }
                out
            }
            Phase::Roll => two_dice_outcomes(),
            _ => Vec::new(),
        }
    }

    fn sample_roll(&self, s: &BgState, rng: &mut GameRng) -> Roll {
        if s.phase == Phase::Opening {
            // Equal opening dice are thrown again.
            loop {
                let (a, b) = (roll_die(rng), roll_die(rng));
                if a != b {
                    return Roll::Dice([a, b]);
                }
            }
        }
        roll_two_dice(rng)
    }

    fn check_roll(&self, s: &BgState, roll: Roll) -> Result<()> {
        roll.check_dice()?;
        if s.phase == Phase::Opening && roll.is_doubles() {
            return Err(Error::InvalidRoll(
                "the opening roll is one die per side and cannot be a tie (ties are thrown again)"
                    .into(),
            ));
        }
        Ok(())
    }

    fn begin_roll(&self, s: &mut BgState, roll: Roll) {
        let Roll::Dice(d) = roll else { return };
        if s.phase == Phase::Opening {
            // d = [seat 0's die, seat 1's die]: the higher die starts and plays both numbers.
            s.turn = if d[0] > d[1] { 0 } else { 1 };
        }
        s.dice = d;
        s.phase = Phase::Move;
    }

    /// Checker moves: whether a die can be played (`movegen::any_step` proves the
    /// equivalence); a cube decision always has its two answers.
    fn has_play(&self, s: &BgState) -> Option<bool> {
        match s.phase {
            Phase::Move => Some(movegen::any_step(s)),
            Phase::CubeAction | Phase::TakeDrop => Some(true),
            _ => None,
        }
    }

    const LISTS_STEPS: bool = true;

    fn generate_list(&self, s: &BgState, orders: Orders, out: &mut PlayList) {
        match s.phase {
            Phase::Move => movegen::generate_list(s, orders, out),
            Phase::CubeAction => {
                out.clear();
                out.push(self.cube_step(s.turn, StepKind::Double).steps());
                out.push(self.cube_step(s.turn, StepKind::NoDouble).steps());
            }
            Phase::TakeDrop => {
                out.clear();
                out.push(self.cube_step(1 - s.turn, StepKind::Take).steps());
                out.push(self.cube_step(1 - s.turn, StepKind::Drop).steps());
            }
            _ => out.clear(),
        }
    }

    fn generate(&self, s: &BgState, orders: Orders, out: &mut Vec<Play>) {
        match s.phase {
            Phase::Move => movegen::generate(s, orders, out),
            Phase::CubeAction => {
                out.push(self.cube_step(s.turn, StepKind::Double));
                out.push(self.cube_step(s.turn, StepKind::NoDouble));
            }
            Phase::TakeDrop => {
                out.push(self.cube_step(1 - s.turn, StepKind::Take));
                out.push(self.cube_step(1 - s.turn, StepKind::Drop));
            }
            _ => {}
        }
    }

    #[inline]
    fn apply_step(&self, s: &mut BgState, step: &Step) {
        match step.kind {
            StepKind::Move | StepKind::Enter => {
                let seat = step.seat as usize;
                s.checkers[seat][step.from as usize] -= 1;
                s.checkers[seat][step.to as usize] += 1;
                if step.captured > 0 {
                    let opp = &mut s.checkers[1 - seat];
                    opp[25 - step.to as usize] -= 1;
                    opp[BAR] += 1;
                }
            }
            StepKind::Double => s.phase = Phase::TakeDrop,
            StepKind::NoDouble => s.phase = Phase::Roll,
            StepKind::Take => {
                s.cube_log2 += 1;
                s.cube_owner = 1 - s.turn;
                s.phase = Phase::Roll;
            }
            StepKind::Drop => s.phase = Phase::Dropped,
            StepKind::Bonus => {}
        }
    }

    fn end_play(&self, s: &mut BgState, _steps: &[Step]) {
        if s.phase != Phase::Move {
            // Cube decisions did their work in apply_step.
            return;
        }
        if s.checkers[s.turn as usize][OFF] == CHECKERS {
            s.phase = Phase::Over;
            s.dice = [0, 0];
            return;
        }
        s.turn = 1 - s.turn;
        self.turn_start(s);
    }

    fn outcome(&self, s: &BgState) -> Option<Outcome> {
        match s.phase {
            Phase::Over => Some(Outcome {
                winners: 1 << s.turn,
                points: self
                    .result_multiplier(s, s.turn)
                    .saturating_mul(s.cube_value()),
            }),
            Phase::Dropped => Some(Outcome {
                winners: 1 << s.turn,
                points: s.cube_value(),
            }),
            _ => None,
        }
    }

    fn format_position(&self, s: &BgState) -> String {
        let mut text = gnubg_id(s);
        if s.phase == Phase::Roll && self.may_double(s) {
            text.push_str(ROLL_SUFFIX);
        }
        text
    }

    fn parse_position(&self, text: &str) -> Result<BgState> {
        let text = text.trim();
        if text
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("XGID="))
        {
            return self.parse_xgid(text);
        }
        let (body, declined) = match text.strip_suffix(ROLL_SUFFIX) {
            Some(b) => (b, true),
            None => (text, false),
        };
        let mut s = if body.contains(':') {
            from_gnubg_id(body)?
        } else {
            // A bare Position ID: seat 0 on roll (its checkers first in the ID).
            let (on_roll, opponent) = from_position_id(body)?;
            let mut s = BgState::start(Phase::Roll);
            s.checkers = [on_roll, opponent];
            if s.checkers[0][OFF] == CHECKERS {
                s.phase = Phase::Over;
            } else if s.checkers[1][OFF] == CHECKERS {
                s.phase = Phase::Over;
                s.turn = 1;
            }
            s
        };
        if declined {
            if !(s.phase == Phase::Roll && self.may_double(&s)) {
                return Err(Error::InvalidNotation(format!(
                    "`{ROLL_SUFFIX}` marks a declined cube decision; it does not fit `{body}`"
                )));
            }
        } else {
            self.adjust_cube_phase(&mut s);
        }
        self.validate_state(&s)?;
        Ok(s)
    }

    fn format_play(&self, s: &BgState, play: &Play) -> String {
        notation::format_play(s, play)
    }

    fn parse_play(&self, s: &BgState, text: &str) -> Result<Play> {
        let mut plays = Vec::new();
        self.generate(s, Orders::Distinct, &mut plays);
        notation::parse_play(self, s, &plays, text)
    }

    fn board(&self) -> BoardKind {
        BoardKind::Backgammon
    }

    fn pieces(&self, s: &BgState) -> Vec<PieceView> {
        let mut out = Vec::new();
        for seat in 0..2u8 {
            for pos in 0..26u8 {
                let count = s.checkers[seat as usize][pos as usize];
                if count > 0 {
                    out.push(PieceView {
                        seat,
                        piece: NO_PIECE,
                        place: self.place(seat, pos),
                        count,
                    });
                }
            }
        }
        out
    }

    fn reference_plays(&self, s: &BgState) -> Vec<Play> {
        reference::distinct_plays(self, s)
            .into_iter()
            .map(|p| p.play)
            .collect()
    }
    fn captured_owner(&self, s: &BgState, step: &Step) -> Option<u8> {
        // The other seat numbers the mover's point `to` as `25 - to`; off and the bar hold no
        // victims. (The default, a search of `pieces`, costs a list of every checker.)
        let other = 1 - (step.seat & 1);
        let to = step.to as usize;
        ((1..=24).contains(&to) && s.checkers[other as usize][25 - to] > 0).then_some(other)
    }

    /// 25 is the bar.
    fn max_position(&self) -> u8 {
        25
    }

    fn place(&self, seat: u8, pos: u8) -> Place {
        match pos {
            0 => Place::Off,
            1..=24 => Place::Point {
                point: if seat == 0 { pos } else { 25 - pos },
            },
            _ => Place::Bar,
        }
    }
}
