//! A slow reference generator for Classic Pachisi (cowrie shells, cross board), written from the
//! rules text (`docs/RULES.md`: CLS-1..CLS-9 and the decisions C-A..C-C; the board, the path and
//! the position numbers of `docs/rules/pachisi.md`), not from the fast generator.
//!
//! It builds the board from its description, square by square, instead of the fast code's
//! arithmetic on loop numbers: a square is an arm, a column and a row; the loop is walked from one
//! square to the next counter-clockwise; each colour's path is the list of the 85 places it goes
//! through. Then it lists every candidate of a throw — the pass, every piece not entered, every
//! non-empty set of the mover's pieces moving the throw's squares together — and keeps those the
//! clauses allow, one filter per clause:
//!
//! * **CLS-3**: the throw moves `throw_table[up]` squares (the table is data, an option);
//! * **CLS-5**: a grace (a throw whose value is in `graces`) may enter one piece not entered;
//!   entering spends the whole throw (the piece stands on the charkoni, position 1); the player may
//!   instead move a piece in play or decline;
//! * **CLS-4**: only pieces in play (on the charkoni ready to leave, or on the path) move, and home
//!   takes an exact throw: no move goes past the charkoni;
//! * **dead end** (the decision of `docs/rules/pachisi.md` under CLS-4, option `allow_dead_end`):
//!   unless allowed, no move ends on a square from which no sum of table values reaches home;
//! * **CLS-7, C-A**: pieces moving together are one colour's, all on one position (two pieces of a
//!   colour at 9 and at 77 share the end square but not the way on, so they are no unit), and a
//!   unit of more than one piece needs `units` on and may not leave the charkoni (position 1);
//!   any number of the pieces there may go, from one to all;
//! * **CLS-8**: the target square may hold opposing pieces (both colours of the other team
//!   counted) only if the unit is no smaller than all of them; they are then all captured and go
//!   back to position 0 (not entered). Teammates share squares freely (CLS-7);
//! * **CLS-9, C-C**: a castle (each middle column's outer end, and the
//!   `castle_from_outer_end`-th square of each outer column from its outer end) held by the
//!   other team is never a landing square; squares passed over do not matter;
//! * **C-C, CLS-5**: the pass is always legal;
//! * **CLS-2, CLS-6, C-B, C-C**: after the play, a team with all eight pieces home has won (the
//!   turn then stays with the mover: nothing is passed on); otherwise a grace gives the same colour
//!   the next throw (when `extra_throw_on_grace` is on and the colour still has a piece out), and
//!   else the next colour in the order 0, 1, 2, 3 with a piece out throws. With two players the
//!   four colours still take their own turns (C-B).
//!
//! One throw is one play (RULES.md, classic facts: a throw goes to a single piece or unit and is
//! never shared; CLS-6's further throw is a new chance node, not part of this play), so a play
//! here has at most one step. Pieces keep their identity: every piece not entered is tried for
//! `enter` and every subset of the pieces on a position for a move, so [`legal_plays`] lists
//! several plays for one resulting position; [`distinct_plays`] keeps one per position.
//!
//! Known limits: it trusts the position to be valid (`validate_state`) and uses the system's state
//! type, whose canonical form (each colour's positions in descending order) is how two positions
//! are compared; the notation of a play is the system's (`format_play`), which this module does
//! not check. It does not check the throw's probabilities (`chance_outcomes`). A step names its
//! piece by the lowest index (in the position the search started from) among the pieces it moves.
//! When a play wins, the rules end the game and say nothing of a turn; the result then keeps the
//! mover's colour as the turn (a convention of the state, shared with the fast code).
//!
//! ```
//! use pachisi::classic::{reference, ClassicRules};
//! use pachisi::{Roll, RuleSystem, SystemRules};
//! let sys = ClassicRules::classic().build().unwrap();
//! let mut s = sys.initial_state();
//! sys.begin_roll(&mut s, Roll::Cowries(6)); // six up: 6, a grace
//! // Every piece: the three pieces not entered could each enter.
//! assert_eq!(reference::legal_plays(&sys, &s).len(), 5);
//! // One play per resulting position.
//! let plays = reference::distinct_plays(&sys, &s);
//! let text: Vec<String> = plays.iter().map(|p| sys.format_play(&s, &p.play)).collect();
//! assert_eq!(text, ["pass", "enter", "1-7"]);
//! // A grace: the same colour throws again.
//! assert!(plays.iter().all(|p| p.result.turn == 0 && p.result.throw.is_none()));
//! ```

use super::{ClassicState, ClassicSystem};
use crate::play::{Play, Step, StepKind};

/// Colours on the board (CLS-1: two or four players, always four colours, C-B).
const COLOURS: usize = 4;
/// Pieces of a colour (CLS-1).
const PIECES: usize = 4;
/// Position of a piece not entered (in the charkoni, waiting for a grace).
const WAITING: u8 = 0;
/// Position of a piece entered and still standing on the charkoni.
const ON_CHARKONI: u8 = 1;
/// Position of a piece home (back in the charkoni).
const HOME: u8 = 85;
/// Rows of an arm; row 0 touches the charkoni, row 7 is the outer edge.
const ROWS: u8 = 8;
/// The middle column of an arm.
const MIDDLE: u8 = 1;

/// One legal play found by the reference, with the position it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePlay {
    /// The steps: none (a pass) or one (pieces named by their index in the start position).
    pub play: Play,
    /// The position after the play, at the next chance node (or the game over): pieces in the
    /// state's canonical order, the turn passed on as the rules say, no throw.
    pub result: ClassicState,
}

/// Every legal play of the decision node `s`, each with the position it leaves: one play per
/// piece (or set of pieces) that could make it, not one per position. Empty when `s` is not a
/// decision node (no throw pending, or the game is over).
///
/// ```
/// use pachisi::classic::{reference, ClassicRules};
/// use pachisi::{RuleSystem, SystemRules};
/// let sys = ClassicRules::classic().build().unwrap();
/// // Three pieces of colour 0 on 30, a throw of 2 (two shells up).
/// let s = sys.parse_position("0:2:30,30,30,1/1,0,0,0/1,0,0,0/1,0,0,0").unwrap();
/// // pass, 1-3, and the 7 non-empty sets of the three pieces on 30.
/// assert_eq!(reference::legal_plays(&sys, &s).len(), 9);
/// ```
pub fn legal_plays(sys: &ClassicSystem, s: &ClassicState) -> Vec<ReferencePlay> {
    let Some(up) = s.throw else {
        return Vec::new();
    };
    if team_won(&s.pieces).is_some() {
        return Vec::new();
    }
    let board = Board::new(sys);
    let rules = sys.rules();
    let colour = s.turn as usize % COLOURS;
    // CLS-3: the number of shells mouth up picks the squares from the table.
    let value = rules.throw_table[up as usize];
    let grace = rules.graces.contains(&value);
    let mine = s.pieces[colour];

    let mut out = Vec::new();
    // C-C, CLS-5: the player may always decline to move.
    out.push(board.finish(colour, grace, s.pieces, Vec::new()));
    // CLS-5: a grace may enter any one piece not yet entered; it spends the throw.
    if grace {
        for i in (0..PIECES).filter(|&i| mine[i] == WAITING) {
            let mut pieces = s.pieces;
            pieces[colour][i] = ON_CHARKONI;
            let step = Step {
                seat: colour as u8,
                piece: i as u8,
                from: WAITING,
                to: ON_CHARKONI,
                value,
                count: 1,
                captured: 0,
                kind: StepKind::Enter,
            };
            out.push(board.finish(colour, grace, pieces, vec![step]));
        }
    }
    // Every non-empty set of the colour's pieces moving `value` squares together; the filters
    // are the clauses.
    for set in 1u32..(1 << PIECES) {
        let movers: Vec<usize> = (0..PIECES).filter(|&i| set & (1 << i) != 0).collect();
        let from = mine[movers[0]];
        // CLS-4: only pieces in play move (not entered ones need a grace to enter, home is home).
        if !movers
            .iter()
            .all(|&i| (ON_CHARKONI..HOME).contains(&mine[i]))
        {
            continue;
        }
        // CLS-7, C-A: a unit stands on one position (the same square and the same way on) ...
        if !movers.iter().all(|&i| mine[i] == from) {
            continue;
        }
        // ... needs `units`, and never leaves the charkoni.
        if movers.len() > 1 && (!rules.units || from == ON_CHARKONI) {
            continue;
        }
        // CLS-4: home only by an exact throw.
        let to = from as u32 + value as u32;
        if to > HOME as u32 {
            continue;
        }
        let to = to as u8;
        // The dead-end decision (CLS-4): never onto a square home cannot be reached from.
        if !rules.allow_dead_end && !board.home_reachable_from(to) {
            continue;
        }
        // CLS-8, CLS-9: the opposing pieces on the target square.
        let target = board.path[colour][to as usize];
        let opposing = board.opposing_on(&s.pieces, colour, target);
        if !opposing.is_empty() && (board.is_castle(target) || movers.len() < opposing.len()) {
            continue;
        }
        let mut pieces = s.pieces;
        for &i in &movers {
            pieces[colour][i] = to;
        }
        // CLS-8: the captured pieces go back into the charkoni, not entered.
        for &(o, j) in &opposing {
            pieces[o][j] = WAITING;
        }
        let step = Step {
            seat: colour as u8,
            piece: movers[0] as u8,
            from,
            to,
            value,
            count: movers.len() as u8,
            captured: opposing.len() as u8,
            kind: StepKind::Move,
        };
        out.push(board.finish(colour, grace, pieces, vec![step]));
    }
    out
}

/// The distinct legal plays: one per resulting position, the first [`legal_plays`] lists.
///
/// ```
/// use pachisi::classic::{reference, ClassicRules};
/// use pachisi::{RuleSystem, SystemRules};
/// let sys = ClassicRules::classic().build().unwrap();
/// let s = sys.parse_position("0:2:30,30,30,1/1,0,0,0/1,0,0,0/1,0,0,0").unwrap();
/// let plays = reference::distinct_plays(&sys, &s);
/// let text: Vec<String> = plays.iter().map(|p| sys.format_play(&s, &p.play)).collect();
/// assert_eq!(text, ["pass", "30-32", "2x30-32", "3x30-32", "1-3"]);
/// ```
pub fn distinct_plays(sys: &ClassicSystem, s: &ClassicState) -> Vec<ReferencePlay> {
    let mut out: Vec<ReferencePlay> = Vec::new();
    for p in legal_plays(sys, s) {
        if !out.iter().any(|q| q.result == p.result) {
            out.push(p);
        }
    }
    out
}

/// A place of the cross board (CLS-2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Square {
    /// The big central square: pieces wait, set out and come home there; it is not a square of
    /// the race (nobody is captured there).
    Charkoni,
    /// A square of an arm: arm 0..4, column 0..3 (1 the middle one), row 0..8 from the centre.
    Arm { arm: u8, column: u8, row: u8 },
}

/// The board as the rules describe it, built for one option set.
struct Board {
    /// `path[colour][position]`: the square of each seat-relative position 0..=85.
    path: [Vec<Square>; COLOURS],
    /// Which square of an outer column, from its outer end, is a castle.
    castle_from_outer_end: u8,
    /// `reachable[d]`: some sum of throw values is exactly `d`.
    reachable: Vec<bool>,
    extra_throw_on_grace: bool,
}

impl Board {
    fn new(sys: &ClassicSystem) -> Board {
        let rules = sys.rules();
        let path = std::array::from_fn(|c| colour_path(c as u8));
        let mut reachable = vec![false; HOME as usize + 1];
        reachable[0] = true;
        for d in 1..reachable.len() {
            reachable[d] = rules
                .throw_table
                .iter()
                .any(|&v| v as usize <= d && reachable[d - v as usize]);
        }
        Board {
            path,
            castle_from_outer_end: rules.castle_from_outer_end,
            reachable,
            extra_throw_on_grace: rules.extra_throw_on_grace,
        }
    }

    /// Whether some sequence of throws takes a piece on `pos` home exactly.
    fn home_reachable_from(&self, pos: u8) -> bool {
        self.reachable[(HOME - pos) as usize]
    }

    /// CLS-9: the outer end of each middle column, and on each outer column the
    /// `castle_from_outer_end`-th square counted from its outer end (row 7 is the first).
    fn is_castle(&self, sq: Square) -> bool {
        match sq {
            Square::Charkoni => false,
            Square::Arm { column, row, .. } if column == MIDDLE => row == ROWS - 1,
            Square::Arm { row, .. } => row == ROWS - self.castle_from_outer_end,
        }
    }

    /// The opposing pieces (colour, index) of the mover's `colour` on the race square `sq`.
    fn opposing_on(
        &self,
        pieces: &[[u8; PIECES]; COLOURS],
        colour: usize,
        sq: Square,
    ) -> Vec<(usize, usize)> {
        if sq == Square::Charkoni {
            return Vec::new();
        }
        let mut out = Vec::new();
        for o in (0..COLOURS).filter(|&o| team(o) != team(colour)) {
            for (j, &q) in pieces[o].iter().enumerate() {
                if self.path[o][q as usize] == sq {
                    out.push((o, j));
                }
            }
        }
        out
    }

    /// The play of `steps` leaving `pieces`: the next throw's position (CLS-2, CLS-6, C-C).
    fn finish(
        &self,
        colour: usize,
        grace: bool,
        mut pieces: [[u8; PIECES]; COLOURS],
        steps: Vec<Step>,
    ) -> ReferencePlay {
        let turn = if team_won(&pieces).is_some() {
            // The game is over: the turn goes nowhere.
            colour
        } else if grace && self.extra_throw_on_grace && !all_home(&pieces[colour]) {
            colour
        } else {
            // The next colour counter-clockwise that still has a piece out; one exists, as the
            // other team has not won and the mover's team has not either.
            (1..=COLOURS)
                .map(|i| (colour + i) % COLOURS)
                .find(|&c| !all_home(&pieces[c]))
                .unwrap_or(colour)
        };
        for ps in pieces.iter_mut() {
            // The state's canonical form: each colour's positions in descending order.
            ps.sort_unstable_by(|a, b| b.cmp(a));
        }
        ReferencePlay {
            play: Play::from_steps(&steps),
            result: ClassicState {
                pieces,
                turn: turn as u8,
                throw: None,
            },
        }
    }
}

/// Seats facing each other form a team (CLS-2): colours 0 and 2, 1 and 3.
fn team(colour: usize) -> usize {
    colour % 2
}

fn all_home(ps: &[u8; PIECES]) -> bool {
    ps.iter().all(|&p| p == HOME)
}

/// The team whose eight pieces are all home (CLS-2).
fn team_won(pieces: &[[u8; PIECES]; COLOURS]) -> Option<usize> {
    (0..2).find(|&t| all_home(&pieces[t]) && all_home(&pieces[t + 2]))
}

/// The next loop square counter-clockwise: from a middle column's outer end onto the inward
/// outer column of the same arm (column 2), down it to the inner corner, across to the outward
/// outer column (column 0) of the next arm, up it to the edge, then that arm's middle end.
fn next_on_loop(sq: Square) -> Square {
    let Square::Arm { arm, column, row } = sq else {
        unreachable!("the charkoni is not on the loop")
    };
    let at = |arm: u8, column: u8, row: u8| Square::Arm { arm, column, row };
    match (column, row) {
        (1, _) => at(arm, 2, ROWS - 1),
        (2, 0) => at((arm + 1) % COLOURS as u8, 0, 0),
        (2, r) => at(arm, 2, r - 1),
        (0, r) if r == ROWS - 1 => at(arm, MIDDLE, ROWS - 1),
        (0, r) => at(arm, 0, r + 1),
        _ => unreachable!("three columns"),
    }
}

/// CLS-4: the squares of colour `c`'s positions 0..=85: the charkoni (not entered, and entered),
/// down the own middle column to its outer end (position 9), the 68 loop squares back to it
/// (position 77), up the middle column (rows 6..0) and home into the charkoni.
fn colour_path(c: u8) -> Vec<Square> {
    let mut path = vec![Square::Charkoni, Square::Charkoni];
    for row in 0..ROWS {
        path.push(Square::Arm {
            arm: c,
            column: MIDDLE,
            row,
        });
    }
    let end = *path.last().unwrap();
    let mut sq = end;
    loop {
        sq = next_on_loop(sq);
        path.push(sq);
        if sq == end {
            break;
        }
    }
    for row in (0..ROWS - 1).rev() {
        path.push(Square::Arm {
            arm: c,
            column: MIDDLE,
            row,
        });
    }
    path.push(Square::Charkoni);
    debug_assert_eq!(path.len(), HOME as usize + 1);
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::{Place, RuleSystem};
    use crate::{Roll, SystemRules};

    /// The board built square by square has the numbers the docs give: 68 loop squares, the end
    /// square at positions 9 and 77, twelve castles (colour 0's at 9, 13, 22, ... 77).
    #[test]
    fn board_matches_the_documented_numbers() {
        let sys = super::super::ClassicRules::classic().build().unwrap();
        let b = Board::new(&sys);
        let p = &b.path[0];
        assert_eq!(p.len(), 86);
        assert_eq!(p[9], p[77]);
        let loop_squares: std::collections::HashSet<_> = p[9..77].iter().collect();
        assert_eq!(loop_squares.len(), 68);
        let castles: Vec<usize> = (9..=77).filter(|&i| b.is_castle(p[i])).collect();
        assert_eq!(castles, [9, 13, 22, 26, 30, 39, 43, 47, 56, 60, 64, 73, 77]);
        // The same places as the system draws (Place::Cross), for every colour and position.
        for c in 0..4u8 {
            for pos in 0..=HOME {
                let got = sys.place(c, pos);
                match b.path[c as usize][pos as usize] {
                    Square::Charkoni => assert!(
                        matches!(got, Place::Charkoni { .. }),
                        "colour {c} position {pos}: {got:?}"
                    ),
                    Square::Arm { arm, column, row } => assert_eq!(
                        got,
                        Place::Cross { arm, column, row },
                        "colour {c} position {pos}"
                    ),
                }
            }
        }
    }

    #[test]
    fn no_decision_no_plays() {
        let sys = super::super::ClassicRules::classic().build().unwrap();
        let mut s = sys.initial_state();
        assert!(legal_plays(&sys, &s).is_empty());
        sys.begin_roll(&mut s, Roll::Cowries(3));
        assert_eq!(distinct_plays(&sys, &s).len(), 2);
    }
}
