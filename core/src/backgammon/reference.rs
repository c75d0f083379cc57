//! A slow reference generator for Backgammon's checker plays, written from the rules text
//! (`docs/RULES.md`: BG-1..BG-6 and the board facts under "Backgammon"; the coordinates and step
//! fields of `docs/rules/backgammon.md`), not from the fast generator (`movegen.rs`).
//!
//! It walks every sequence of single checker moves: every die value left in every order (the
//! two values of a non-double roll are tried both ways round, BG-2), from every point holding a
//! checker of the mover, and keeps every prefix as a candidate play. A single move of a checker
//! from point `p` with die `d` (the mover's numbering: 24 down to 1, 25 the bar, 0 off):
//!
//! - BG-6: while the mover has a checker on the bar, only a checker on the bar may move; it
//!   enters on point `25 - d` (in the opponent's home board) and uses up that die;
//! - BG-3: it lands on `p - d`, which must not hold two or more opposing checkers; a single
//!   opposing checker there is hit and goes to its owner's bar. Every single move lands, so the
//!   stop in between when one checker plays two dice is checked like any other landing;
//! - bearing off ("Board geometry ... Backgammon"): `p - d <= 0` takes the checker off, only
//!   while every checker of the mover is in its home board (points 1..6) or off; a die larger
//!   than needed (`p - d < 0`) only when no checker of the mover stands on a point above `p`.
//!
//! The obligations are then filters over the complete candidates:
//!
//! 1. BG-1 (first sentence), BG-4 and BG-5: the most dice used (both dice of a non-double roll
//!    when any sequence uses both; as many of the four moves of a double as possible). BG-4's
//!    "no deliberate unplayable die" is exactly this filter: it looks at nothing but the count;
//! 2. BG-1 (third sentence): when a non-double roll can use only one die, and some candidate
//!    uses the higher die, the higher die must be played (when only one of them can be played
//!    at all, that one remains: BG-1's second sentence);
//! 3. a roll with no candidate that moves anything has no legal play: the list is empty and the
//!    engine forfeits the roll (as BG's acceptance test with the 5 and 6 points closed says).
//!
//! BG-2 ("the complete move counts") is the shape of the search: obligations are never applied
//! to a first part. What remains is grouped by the position the play leaves (both sides'
//! checkers, so which blots were hit counts), which is what a legal play *is*.
//!
//! Known limits:
//!
//! - checker plays only: at a cube decision (`Phase::CubeAction`, `Phase::TakeDrop`) or any
//!   node other than `Phase::Move` the result is empty; the cube's plays are checked separately
//!   by the differential test (`core/tests/backgammon_reference.rs`);
//! - checkers have no identity, so "every checker" is "every point holding a checker": two
//!   checkers on one point make the same step. Likewise the four values of a double are one
//!   value, tried once per step;
//! - the options of [`BackgammonRules`](super::BackgammonRules) (cube, scoring, first roll) do
//!   not change which checker plays are legal, so the reference reads none of them.
//!
//! Its only use is checking: the differential test compares it with the fast generator on random
//! and synthetic positions, and `core/examples/write_perft.rs` writes `tests/perft/backgammon.jsonl`
//! with it.
//!
//! ```
//! use pachisi::backgammon::{BackgammonRules, BgState, Phase, reference};
//! use pachisi::{Roll, RuleSystem, SystemRules};
//! let sys = BackgammonRules::standard().build().unwrap();
//! let mut s = BgState::start(Phase::Roll);
//! sys.begin_roll(&mut s, Roll::Dice([3, 1]));
//! // Every order of the steps: 8/5 6/5 and 6/5 8/5 are two plays of one position.
//! let all = reference::legal_plays(&sys, &s);
//! assert!(all.iter().all(|p| p.play.len() == 2));
//! // One play per position: 16 from the start with 3-1, as GNU Backgammon counts them.
//! let plays = reference::distinct_plays(&sys, &s);
//! assert_eq!(plays.len(), 16);
//! assert!(plays.iter().any(|p| sys.format_play(&s, &p.play) == "8/5 6/5"));
//! ```

use super::{BAR, BackgammonSystem, BgState, OFF, Phase};
use crate::play::{NO_PIECE, Play, Step, StepKind};

/// A position's checkers: `board[seat][i]` in that seat's own numbering (`i` = 1..=24 points,
/// 25 the bar, 0 off), as in [`BgState::checkers`].
pub type Board = [[u8; 26]; 2];

/// One legal play found by the reference, with the checkers it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePlay {
    /// The steps, in the order they are made.
    pub play: Play,
    /// Both sides' checkers after the play.
    pub board: Board,
}

/// Every legal checker play of the decision node `s` — every order of steps, not one per
/// position — each with the checkers it leaves. Empty when the roll cannot be played, or when
/// `s` is not a checker play (`Phase::Move`).
///
/// ```
/// use pachisi::backgammon::{BackgammonRules, BgState, Phase, reference};
/// use pachisi::{Roll, RuleSystem, SystemRules};
/// let sys = BackgammonRules::standard().build().unwrap();
/// let s = BgState::start(Phase::Roll);
/// let orders = |dice: [u8; 2], text: &str| {
///     let mut t = s;
///     sys.begin_roll(&mut t, Roll::Dice(dice));
///     let mut found: Vec<Vec<(u8, u8)>> = reference::legal_plays(&sys, &t)
///         .iter()
///         .filter(|p| sys.format_play(&t, &p.play) == text)
///         .map(|p| p.play.steps().iter().map(|st| (st.from, st.to)).collect())
///         .collect();
///     found.sort();
///     found
/// };
/// // 3-1: one checker from 24 to 20 either way round.
/// assert_eq!(orders([3, 1], "24/20"), [vec![(24, 21), (21, 20)], vec![(24, 23), (23, 20)]]);
/// // 6-5: the stop on 19 (the opponent's 6 point) is closed, so 24/13 goes by 18 only (BG-3).
/// assert_eq!(orders([6, 5], "24/13"), [vec![(24, 18), (18, 13)]]);
/// ```
pub fn legal_plays(sys: &BackgammonSystem, s: &BgState) -> Vec<ReferencePlay> {
    // The options do not bear on checker plays (see the module docs).
    let _ = sys;
    if s.phase != Phase::Move {
        return Vec::new();
    }
    let [a, b] = s.dice;
    let mut left = [0u8; 7];
    if a == b {
        // BG-5: a double gives four moves of its number.
        left[a as usize] = 4;
    } else {
        left[a as usize] += 1;
        left[b as usize] += 1;
    }
    let root = Node {
        board: s.checkers,
        left,
    };
    let search = Search {
        seat: s.turn as usize,
    };
    let mut candidates = Vec::new();
    let mut steps = Vec::new();
    search.walk(&root, &mut steps, &mut candidates);
    filter(candidates, s.dice)
}

/// The distinct legal plays: one per resulting position, the first in search order.
pub fn distinct_plays(sys: &BackgammonSystem, s: &BgState) -> Vec<ReferencePlay> {
    let mut out: Vec<ReferencePlay> = Vec::new();
    for p in legal_plays(sys, s) {
        if !out.iter().any(|q| q.board == p.board) {
            out.push(p);
        }
    }
    out
}

/// A node of the search: the checkers and the dice left (`left[v]`: how many dice showing `v`
/// are still to be played).
#[derive(Copy, Clone, Debug)]
struct Node {
    board: Board,
    left: [u8; 7],
}

/// A candidate play: its steps and the node it ends in.
struct Candidate {
    steps: Vec<Step>,
    end: Node,
}

struct Search {
    /// The mover.
    seat: usize,
}

impl Search {
    /// The opposing checkers on the mover's point `p` (1..=24): the opponent counts the same
    /// point as `25 - p`.
    fn opponents_on(&self, n: &Node, p: usize) -> u8 {
        n.board[1 - self.seat][25 - p]
    }

    /// Whether every checker of the mover is in its home board (points 1..6) or off.
    fn all_home(&self, n: &Node) -> bool {
        (7..=BAR).all(|p| n.board[self.seat][p] == 0)
    }

    /// One checker of the mover from `p` with die `d`, if the rules allow it (module docs).
    fn single_move(&self, n: &Node, p: usize, d: u8) -> Option<(Step, Node)> {
        let me = self.seat;
        let d = d as usize;
        if n.board[me][p] == 0 {
            return None;
        }
        // BG-6: the bar first.
        if n.board[me][BAR] > 0 && p != BAR {
            return None;
        }
        let mut t = *n;
        let mut hit = false;
        let to = if p > d {
            let to = p - d;
            // BG-3: no landing on a closed point.
            match self.opponents_on(n, to) {
                0 => {}
                1 => hit = true,
                _ => return None,
            }
            to
        } else {
            // Bearing off: everything home; a larger die only from the highest point.
            if !self.all_home(n) {
                return None;
            }
            if p < d && (p + 1..=6).any(|q| n.board[me][q] > 0) {
                return None;
            }
            OFF
        };
        t.board[me][p] -= 1;
        t.board[me][to] += 1;
        if hit {
            t.board[1 - me][25 - to] -= 1;
            t.board[1 - me][BAR] += 1;
        }
        t.left[d] -= 1;
        let step = Step {
            seat: me as u8,
            piece: NO_PIECE,
            from: p as u8,
            to: to as u8,
            value: d as u8,
            count: 1,
            captured: hit as u8,
            kind: if p == BAR {
                StepKind::Enter
            } else {
                StepKind::Move
            },
        };
        Some((step, t))
    }

    /// Every single move from `n`: each die value left, each point of the mover.
    fn children(&self, n: &Node) -> Vec<(Step, Node)> {
        let mut out = Vec::new();
        for d in (1..=6u8).filter(|&d| n.left[d as usize] > 0) {
            for p in (1..=BAR).rev() {
                if let Some(c) = self.single_move(n, p, d) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// Depth-first: every prefix is a candidate.
    fn walk(&self, n: &Node, steps: &mut Vec<Step>, out: &mut Vec<Candidate>) {
        out.push(Candidate {
            steps: steps.clone(),
            end: *n,
        });
        for (st, child) in self.children(n) {
            steps.push(st);
            self.walk(&child, steps, out);
            steps.pop();
        }
    }
}

/// The obligations as filters over the candidates (see the module docs).
fn filter(mut kept: Vec<Candidate>, dice: [u8; 2]) -> Vec<ReferencePlay> {
    // BG-1, BG-4, BG-5: the most dice (each step uses one die).
    let most = kept.iter().map(|c| c.steps.len()).max().unwrap_or(0);
    kept.retain(|c| c.steps.len() == most);
    // BG-1: one die of two: the higher when it can be played.
    if dice[0] != dice[1] && most == 1 {
        let higher = dice[0].max(dice[1]);
        if kept.iter().any(|c| c.steps[0].value == higher) {
            kept.retain(|c| c.steps[0].value == higher);
        }
    }
    // Nothing playable: no play (the roll is forfeited).
    kept.retain(|c| !c.steps.is_empty());
    kept.into_iter()
        .map(|c| ReferencePlay {
            play: Play::from_steps(&c.steps),
            board: c.end.board,
        })
        .collect()
}
