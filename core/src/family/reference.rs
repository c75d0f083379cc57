//! A slow reference generator for Family Pachisi, written from the rules text (`docs/RULES.md`:
//! FAM-1..11, F-A..F-J, and the board decisions of its "Family Pachisi" geometry section), not
//! from the fast generator. Its only use is checking: `core/tests/family_reference.rs` compares it
//! with the fast generator on random and synthetic positions, and `core/examples/write_perft.rs`
//! counts its plays for `tests/perft/pachisi-family.jsonl`.
//!
//! It walks every sequence of moves: every piece (pieces keep their identity, so two pieces on
//! one square are both tried), every value of the roll in every order, and every way of using
//! values together. It keeps every prefix as a candidate play, and then applies the obligations
//! as filters over the complete candidates.
//!
//! # What it implements, clause by clause
//!
//! *The board* (RULES.md geometry, a decision): a loop of 68 squares; side `k`'s start square is
//! square `17 k`. The four start squares are conditionally safe, and the squares 7 and 12 after
//! each start square are safe. Two seats sit at sides 0 and 2, otherwise seat `c` sits at side
//! `c`. A piece goes one whole lap: positions `1..=69` are track squares (1 and 69 are both the
//! own start square), `70..=76` the goal stretch, and 77 the goal.
//!
//! *Values* (FAM-3, FAM-5, F-D): two different dice give `[high, low]`. Doubles give
//! `[h, h, l, l]` with `h = max(d, 7 - d)` and `l = 7 - h`, or `[d, d]` without `bottom_faces`.
//!
//! *Moves*, each using one value or several (a move is what the walk branches on):
//! - one value moves one piece that many squares, a landing at the end (FAM-3, F-B, F-D); a five
//!   (a die showing five, on top or underneath: FAM-6, F-F) may instead bring a piece from the
//!   start area onto its start square;
//! - the two dice, or the two equal values of a doubles pair, move one piece as one move with only
//!   its end a landing (F-A, F-D; `sum_as_one_move`); with `sum_of_five_enters` the two dice of a
//!   4-1 or 3-2 bring a piece in (F-F);
//! - on doubles, the two pieces of a gate (two pieces of the colour on one position) move as one
//!   by a pair of equal values, or by `h + l = 7` using all four (FAM-5c;
//!   `gate_moves_with_doubles`);
//! - with no piece on the track or in the goal stretch, a 6-5 brings a piece in with the five and
//!   moves it 6 at once: two steps, each a landing; not when the entry captures, because the
//!   capturing piece may not move on (FAM-6, FAM-7; `six_five_enters_and_moves`).
//!
//! *Which moves the rules allow*:
//! - FAM-10: no move passes a square holding two pieces of one colour (a gate), on the track or
//!   (the colour's own pieces, F-H) in the goal stretch;
//! - landing (FAM-7, FAM-8, FAM-9, FAM-10, F-H): an empty square; a square of the own colour
//!   with room (two pieces at most, on the track and in the goal stretch); a single opponent who
//!   is captured, except on a safe square or on a start square other than the mover's own, which
//!   closes the square (RULES.md decision in FAM-8); never a partner's square (FAM-9) nor another
//!   colour's gate. The goal takes any number, by exact count;
//! - FAM-7: a piece (or a gate) that captured does not move again in this roll; F-B off: on a
//!   non-doubles roll a piece that used one die does not take the other;
//! - FAM-5b, F-E: on doubles, a colour that has not yet had every piece in play may play the `l`
//!   values only once every piece has been in play (so only a play that brings in the last
//!   never-played piece gets them);
//! - F-I: a seat whose pieces are all home plays its partner's colour (with teams), under the
//!   partner's FAM-5b status and entering.
//!
//! *Filters over the complete candidates*, in this order:
//! 1. FAM-4, F-C, F-D (the order of the values): the play must follow a permitted order of the
//!    values (`[high, low]`; both orders without `higher_die_first`; `[h, h, l, l]` on doubles):
//!    the value due is used by the next move (alone or with later values), or it had no use at
//!    all where it came up, and is then lost for good; a value left unused at the end had no use
//!    at the end. A use is any move the rules allow there that spends the value.
//! 2. FAM-4b, F-D, F-E: the most values used. A roll none of whose values can be used has no play.
//! 3. F-H (`compulsory_capture`): if some play captures, only plays that capture.
//!
//! Filter 1 only ever rejects a play for a choice already made in it, so the walk applies it to
//! each prefix as it grows (dropping a prefix whose extensions it would all reject) and checks
//! the unused values at the end; this saves time and drops nothing filter 1 keeps.
//!
//! What remains is grouped by the position the play leaves: each colour's pieces with their
//! positions and "has been in play" marks (FAM-1), which is what [`distinct_plays`] keeps one
//! play of.
//!
//! # Known limits
//! - It decides the plays of one roll only: the turn flow (extra rolls, entry tries, the end of
//!   the game: FAM-5, FAM-6, FAM-11, F-G, F-J) is not its business, and its positions leave out
//!   the turn and tries.
//! - A gate moves as one only when its two pieces have the same position; two pieces on the own
//!   start square, one just entered (1) and one at the end of its lap (69), are a gate for
//!   passing and landing but would not stay together, so they move one by one.
//! - The colour that plays is decided at the start of the roll (`docs/rules/pachisi-family.md`,
//!   F-I): `legal_plays` is meant for the state a roll was just made in.
//! - It is slow (it walks every order of every piece): tests and data files only.
//!
//! Steps name a piece by its index in the position as it stands before the step, as
//! [`FamilyState`] holds it (the given order for the first step; each colour sorted by position
//! and "has been in play" after any step), so [`RuleSystem::apply_step`] and
//! [`RuleSystem::format_play`] read them. The notation is written by the reference itself
//! (`docs/rules/pachisi-family.md`, "Play notation").
//!
//! ```
//! use pachisi::family::{reference, FamilyRules};
//! use pachisi::{Roll, RuleSystem, SystemRules};
//! let sys = FamilyRules::family().build().unwrap();
//! let mut s = sys.parse_position("0:0:- 20,20,h,h/n,n,n,n/n,n,n,n/n,n,n,n").unwrap();
//! sys.begin_roll(&mut s, Roll::Dice([6, 6]));
//! let text: Vec<String> = reference::legal_plays(&sys, &s)
//!     .into_iter()
//!     .map(|p| p.notation)
//!     .collect();
//! // The gate moves 7 at once (FAM-5c), or the values 6, 6, 1, 1 go to the pieces one by one or
//! // a pair at a time (F-D).
//! assert!(text.contains(&"0:20-27(2)".to_string()));
//! assert!(text.contains(&"0:20-26 0:20-26 0:26-27 0:26-27".to_string()));
//! assert!(text.contains(&"0:20-32 0:20-22".to_string()));
//! // Five positions: 27+27, 26+28, 32+22, 34+20, 33+21.
//! assert_eq!(reference::distinct_plays(&sys, &s).len(), 5);
//! ```

use super::{FamilyRules, FamilyState, FamilySystem, GOAL, GOAL_STRETCH, LAP_END, PIECES};
use crate::play::{Play, Step, StepKind};
use crate::system::{Node as NodeKind, RuleSystem};

/// A piece: its position in its colour's coordinates (0 the start area, 77 the goal) and whether
/// it has ever been in play (FAM-1).
pub type Piece = (u8, bool);

/// The pieces of a position: per colour, sorted by position and then "has been in play";
/// colours not in play hold `(0, false)`.
pub type Board = [[Piece; PIECES]; 4];

/// One legal play found by the reference, with its notation and the position it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePlay {
    /// The steps, pieces named as [`FamilyState`] holds them before each step.
    pub play: Play,
    /// The play in the notation of `docs/rules/pachisi-family.md`, written by the reference.
    pub notation: String,
    /// The pieces after the play.
    pub board: Board,
}

/// Every legal play of the decision node `s`, each order of steps and each piece (not one per
/// position), with its notation and the position it leaves. Empty when no value of the roll can
/// be used (the roll is forfeited) or when `s` is not a decision node.
///
/// ```
/// use pachisi::family::{reference, FamilyRules};
/// use pachisi::{Roll, RuleSystem, SystemRules};
/// let sys = FamilyRules::family().build().unwrap();
/// let mut s = sys.parse_position("0:0:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n").unwrap();
/// sys.begin_roll(&mut s, Roll::Dice([5, 3]));
/// let plays = reference::legal_plays(&sys, &s);
/// // Any of the four pieces enters with the five and takes the three (F-B).
/// assert_eq!(plays.len(), 4);
/// assert!(plays.iter().all(|p| p.notation == "0:n-1 0:1-4"));
/// // One position.
/// assert_eq!(reference::distinct_plays(&sys, &s).len(), 1);
/// ```
pub fn legal_plays(sys: &FamilySystem, s: &FamilyState) -> Vec<ReferencePlay> {
    if sys.node(s) != NodeKind::Decision {
        return Vec::new();
    }
    let table = Table::new(sys.rules(), s);
    let mut root = Node {
        board: [[(0, false); PIECES]; 4],
        used: 0,
        frozen: 0,
        steps: Vec::new(),
        moves: Vec::new(),
    };
    for c in 0..4 {
        for i in 0..PIECES {
            root.board[c][i] = (s.pos[c][i], s.played & (1 << (c * 4 + i)) != 0);
        }
    }
    let mut candidates = Vec::new();
    table.walk(root, &mut candidates);
    table.filter(candidates)
}

/// The distinct legal plays: one per position left, the first in search order.
pub fn distinct_plays(sys: &FamilySystem, s: &FamilyState) -> Vec<ReferencePlay> {
    let mut out: Vec<ReferencePlay> = Vec::new();
    for p in legal_plays(sys, s) {
        if !out.iter().any(|q| q.board == p.board) {
            out.push(p);
        }
    }
    out
}

/// Squares of the loop.
const TRACK: u8 = 68;
/// Squares from one side's start square to the next.
const SPACING: u8 = 17;

/// The roll being played and the rules that decide it.
struct Table<'a> {
    rules: &'a FamilyRules,
    seats: usize,
    /// The colour whose pieces move (F-I: the partner's when the seat is all home).
    colour: usize,
    /// The values in their order (FAM-4, F-D).
    values: Vec<u8>,
    doubles: bool,
    /// FAM-5b: the `l` values need every piece of the colour to have been in play.
    restricted: bool,
    /// The permitted orders of the values, as indices into `values` (F-C).
    orders: Vec<Vec<usize>>,
}

/// A node of the search: the pieces by identity and what the play did so far.
#[derive(Clone, Debug)]
struct Node {
    /// Pieces in the order of the start position (identity), not sorted.
    board: Board,
    /// Bit `k`: value `k` has been spent.
    used: u8,
    /// Bit `i`: the mover's piece `i` may not move again in this roll (FAM-7, F-B).
    frozen: u8,
    /// The steps, each with whether its piece had been in play before it (`x` or `n`).
    steps: Vec<(Step, bool)>,
    /// Per move: the values that had a use where it was made, and the values it spent.
    moves: Vec<(u8, u8)>,
}

/// A move from a node: the node it leads to and the values it spends.
struct Child {
    node: Node,
    spends: u8,
}

impl<'a> Table<'a> {
    fn new(rules: &'a FamilyRules, s: &FamilyState) -> Table<'a> {
        let seats = rules.seats as usize;
        let turn = s.turn as usize;
        let all_home = s.pos[turn].iter().all(|&p| p == GOAL);
        let colour = if rules.teams && all_home {
            (turn + 2) % 4
        } else {
            turn
        };
        let [a, b] = s.dice;
        let doubles = a == b;
        let values = if !doubles {
            vec![a.max(b), a.min(b)]
        } else if rules.bottom_faces {
            let h = a.max(7 - a);
            vec![h, h, 7 - h, 7 - h]
        } else {
            vec![a, a]
        };
        let all_played = (0..PIECES).all(|i| s.played & (1 << (colour * 4 + i)) != 0);
        let restricted = doubles
            && rules.bottom_faces
            && rules.doubles_restricted_until_all_played
            && !all_played;
        let mut orders = vec![(0..values.len()).collect::<Vec<usize>>()];
        if !doubles && !rules.higher_die_first {
            orders.push(vec![1, 0]);
        }
        Table {
            rules,
            seats,
            colour,
            values,
            doubles,
            restricted,
            orders,
        }
    }

    fn side(&self, colour: usize) -> u8 {
        if self.seats == 2 {
            2 * colour as u8
        } else {
            colour as u8
        }
    }

    /// The absolute square of a track position (1..=69) of `colour`.
    fn square(&self, colour: usize, pos: u8) -> u8 {
        (self.side(colour) * SPACING + pos - 1) % TRACK
    }

    fn on_track(pos: u8) -> bool {
        (1..=LAP_END).contains(&pos)
    }

    fn partners(&self, a: usize, b: usize) -> bool {
        self.rules.teams && b == (a + 2) % 4
    }

    /// How many pieces of `colour` stand on the absolute track square `sq`.
    fn count_on(&self, board: &Board, colour: usize, sq: u8) -> usize {
        board[colour]
            .iter()
            .filter(|&&(p, _)| Self::on_track(p) && self.square(colour, p) == sq)
            .count()
    }

    /// FAM-10, F-H: whether the mover's position `q` holds a gate nobody passes.
    fn gate_at(&self, board: &Board, q: u8) -> bool {
        let c = self.colour;
        if Self::on_track(q) {
            let sq = self.square(c, q);
            (0..self.seats).any(|k| self.count_on(board, k, sq) >= 2)
        } else {
            // The goal stretch is the colour's own: only its own pairs stand there.
            board[c].iter().filter(|&&(p, _)| p == q).count() >= 2
        }
    }

    /// Whether `movers` pieces of the mover may end a move on `to`, and whether they capture
    /// there (FAM-7..10, F-H). `board` no longer holds the movers.
    fn landing(&self, board: &Board, to: u8, movers: usize) -> Option<bool> {
        let c = self.colour;
        if to == GOAL {
            return Some(false);
        }
        if to >= GOAL_STRETCH {
            let own = board[c].iter().filter(|&&(p, _)| p == to).count();
            return (own + movers <= 2).then_some(false);
        }
        let sq = self.square(c, to);
        for k in 0..self.seats {
            let n = self.count_on(board, k, sq);
            if n == 0 {
                continue;
            }
            if k == c {
                return (n + movers <= 2).then_some(false);
            }
            if self.partners(c, k) || n >= 2 {
                return None;
            }
            let start_square = sq % SPACING == 0;
            let safe = sq % SPACING == 7 || sq % SPACING == 12;
            let own_start = sq == self.side(c) * SPACING;
            return (!safe && (!start_square || own_start)).then_some(true);
        }
        Some(false)
    }

    /// Moves the mover's pieces `movers` (identities, all on one position) to `to` by `value`:
    /// checks passing and landing, captures, records the step. `None` when the rules forbid it.
    fn shift(&self, n: &Node, movers: &[usize], to: u8, value: u8) -> Option<Node> {
        let c = self.colour;
        let (from, was_played) = n.board[c][movers[0]];
        if to > GOAL {
            // The goal needs an exact count (F-H).
            return None;
        }
        let mut t = n.clone();
        for &i in movers {
            t.board[c][i].0 = 0;
        }
        if from != 0 && (from + 1..to).any(|q| self.gate_at(&t.board, q)) {
            return None;
        }
        let captures = self.landing(&t.board, to, movers.len())?;
        if captures {
            let sq = self.square(c, to);
            for k in 0..self.seats {
                for piece in t.board[k].iter_mut() {
                    if k != c && Self::on_track(piece.0) && self.square(k, piece.0) == sq {
                        *piece = (0, true);
                    }
                }
            }
        }
        let step = Step {
            seat: c as u8,
            piece: self.name(n, movers[0]),
            from,
            to,
            value,
            count: movers.len() as u8,
            captured: captures as u8,
            kind: if from == 0 {
                StepKind::Enter
            } else {
                StepKind::Move
            },
        };
        for &i in movers {
            t.board[c][i] = (to, true);
            if captures {
                t.frozen |= 1 << i;
            }
        }
        t.steps.push((step, was_played));
        Some(t)
    }

    /// The index a step gives piece `i` of the mover: as the position holds it before the step.
    fn name(&self, n: &Node, i: usize) -> u8 {
        if n.steps.is_empty() {
            return i as u8;
        }
        let pieces = &n.board[self.colour];
        let before = (0..PIECES)
            .filter(|&j| pieces[j] < pieces[i] || (pieces[j] == pieces[i] && j < i))
            .count();
        before as u8
    }

    /// Whether value `k` may be spent at `n` (unspent; the FAM-5b restriction).
    fn open(&self, n: &Node, k: usize) -> bool {
        let all_played = n.board[self.colour].iter().all(|&(_, played)| played);
        n.used & (1 << k) == 0 && !(self.restricted && k >= 2 && !all_played)
    }

    /// Every move the rules allow at `n`.
    fn children(&self, n: &Node) -> Vec<Child> {
        let c = self.colour;
        let r = self.rules;
        let mut out = Vec::new();
        let free = |i: usize| n.frozen & (1 << i) == 0;
        let mut push = |node: Option<Node>, spends: u8, freeze: Option<usize>| {
            if let Some(mut node) = node {
                node.used |= spends;
                if let Some(i) = freeze {
                    node.frozen |= 1 << i;
                }
                out.push(Child { node, spends });
            }
        };
        // One value, one piece; a five may enter (FAM-3, FAM-6, F-B, F-D, F-F). Of equal values
        // the first unspent one is taken: they are the same value.
        let mut seen_values = Vec::new();
        for k in 0..self.values.len() {
            let v = self.values[k];
            if !self.open(n, k) || seen_values.contains(&v) {
                continue;
            }
            seen_values.push(v);
            for i in (0..PIECES).filter(|&i| free(i)) {
                let p = n.board[c][i].0;
                let node = match p {
                    0 if v == 5 => self.shift(n, &[i], 1, 5),
                    0 => None,
                    GOAL => None,
                    _ => self.shift(n, &[i], p + v, v),
                };
                // F-B off: on two different dice, a piece takes one die only.
                let freeze = (!self.doubles && !r.one_piece_both_dice).then_some(i);
                push(node, 1 << k, freeze);
            }
        }
        // Two values together: the two dice, or a pair of equal values on doubles.
        let pairs: &[(usize, usize)] = if self.values.len() == 4 {
            &[(0, 1), (2, 3)]
        } else {
            &[(0, 1)]
        };
        for &(a, b) in pairs {
            if !self.open(n, a) || !self.open(n, b) {
                continue;
            }
            let spends = 1 << a | 1 << b;
            let total = self.values[a] + self.values[b];
            for i in (0..PIECES).filter(|&i| free(i)) {
                let p = n.board[c][i].0;
                // F-A, F-D: one piece, one move, only its end a landing.
                if r.sum_as_one_move && p != 0 && p != GOAL {
                    push(self.shift(n, &[i], p + total, total), spends, None);
                }
                // F-F option: a sum of five enters.
                if !self.doubles && r.sum_of_five_enters && total == 5 && p == 0 {
                    push(self.shift(n, &[i], 1, 5), spends, None);
                }
            }
            // FAM-5c: a gate moves as one by a pair of equal values.
            if self.doubles && r.gate_moves_with_doubles {
                let v = self.values[a];
                for (i, j) in self.gates(n) {
                    let p = n.board[c][i].0;
                    push(self.shift(n, &[i, j], p + v, v), spends, None);
                }
            }
        }
        // FAM-5c: each piece of a gate takes h and l, the gate moves 7.
        if self.doubles
            && r.gate_moves_with_doubles
            && self.values.len() == 4
            && (0..4).all(|k| self.open(n, k))
        {
            let (h, seven) = (self.values[0], self.values[0] + self.values[2]);
            for (i, j) in self.gates(n) {
                let p = n.board[c][i].0;
                // F-D: each piece takes h, then l, each a landing: the gate must be able to stop
                // h ahead as a gate, and not by capturing (a capturing piece moves no more).
                let stops = self
                    .shift(n, &[i, j], p + h, h)
                    .is_some_and(|m| m.steps.last().is_some_and(|(s, _)| s.captured == 0));
                if stops {
                    push(self.shift(n, &[i, j], p + seven, seven), 0b1111, None);
                }
            }
        }
        // FAM-6: with no piece in play, 6-5 enters a piece with the five and moves it 6 at once.
        let no_piece_in_play = n.board[c].iter().all(|&(p, _)| p == 0 || p == GOAL);
        if !self.doubles
            && r.six_five_enters_and_moves
            && self.values == [6, 5]
            && self.open(n, 0)
            && self.open(n, 1)
            && no_piece_in_play
        {
            for i in (0..PIECES).filter(|&i| n.board[c][i].0 == 0) {
                let Some(entered) = self.shift(n, &[i], 1, 5) else {
                    continue;
                };
                // FAM-7: a piece that captured by entering does not move on.
                if entered.frozen & (1 << i) != 0 {
                    continue;
                }
                push(self.shift(&entered, &[i], 7, 6), 0b11, None);
            }
        }
        out
    }

    /// The mover's gates whose two pieces may move as one: two free pieces on one position of
    /// the track or the goal stretch.
    fn gates(&self, n: &Node) -> Vec<(usize, usize)> {
        let pieces = &n.board[self.colour];
        let mut out = Vec::new();
        for i in 0..PIECES {
            for j in i + 1..PIECES {
                let p = pieces[i].0;
                let free = n.frozen & (1 << i | 1 << j) == 0;
                if free && p != 0 && p != GOAL && pieces[j].0 == p {
                    out.push((i, j));
                }
            }
        }
        out
    }

    /// Depth-first: every prefix is a candidate, kept with the values that had a use at its end.
    fn walk(&self, n: Node, out: &mut Vec<(Node, u8)>) {
        let children = self.children(&n);
        let usable = children.iter().fold(0, |m, ch| m | ch.spends);
        for ch in children {
            let mut next = ch.node;
            next.moves.push((usable, ch.spends));
            // Filter 1 rejects this prefix and all it leads to: not worth walking.
            if self.orders.iter().any(|o| follows(o, &next.moves, None)) {
                self.walk(next, out);
            }
        }
        out.push((n, usable));
    }

    /// The filters over the complete candidates (see the module docs).
    fn filter(&self, candidates: Vec<(Node, u8)>) -> Vec<ReferencePlay> {
        let mut kept: Vec<Node> = candidates
            .into_iter()
            .filter(|(n, usable)| {
                self.orders
                    .iter()
                    .any(|o| follows(o, &n.moves, Some(*usable)))
            })
            .map(|(n, _)| n)
            .collect();
        let most = kept.iter().map(|n| n.used.count_ones()).max().unwrap_or(0);
        if most == 0 {
            return Vec::new();
        }
        kept.retain(|n| n.used.count_ones() == most);
        let captures = |n: &Node| n.steps.iter().any(|(st, _)| st.captured > 0);
        if self.rules.compulsory_capture && kept.iter().any(captures) {
            kept.retain(captures);
        }
        kept.into_iter()
            .map(|n| {
                let steps: Vec<Step> = n.steps.iter().map(|(st, _)| *st).collect();
                ReferencePlay {
                    play: Play::from_steps(&steps),
                    notation: notation(&n.steps),
                    board: sorted(&n.board),
                }
            })
            .collect()
    }
}

/// Filter 1 (FAM-4, F-C, F-D) for one order of the values: each move spends the value due, after
/// passing over only values that had no use where it was made (those are lost and are never
/// spent later); with `end` (the values with a use at the end of the play), no value left unspent
/// had a use.
fn follows(order: &[usize], moves: &[(u8, u8)], end: Option<u8>) -> bool {
    let (mut k, mut spent, mut lost) = (0, 0u8, 0u8);
    for &(usable, spends) in moves {
        if spends & lost != 0 {
            return false;
        }
        loop {
            let Some(&due) = order.get(k) else {
                return false;
            };
            let bit = 1 << due;
            if spent & bit != 0 {
                k += 1;
            } else if spends & bit != 0 {
                break;
            } else if usable & bit != 0 {
                return false;
            } else {
                lost |= bit;
                k += 1;
            }
        }
        spent |= spends;
    }
    match end {
        Some(usable) => order[k.min(order.len())..]
            .iter()
            .all(|&due| spent & (1 << due) != 0 || usable & (1 << due) == 0),
        None => true,
    }
}

/// The play notation: `<colour>:<from>-<to>`, `n`/`x` from the start area, `h` for the goal,
/// `(2)` for a gate moving as one, `*` for a capture.
fn notation(steps: &[(Step, bool)]) -> String {
    let text: Vec<String> = steps
        .iter()
        .map(|(st, played)| {
            let from = match (st.from, played) {
                (0, true) => "x".to_string(),
                (0, false) => "n".to_string(),
                (p, _) => p.to_string(),
            };
            let to = if st.to == GOAL {
                "h".to_string()
            } else {
                st.to.to_string()
            };
            let gate = if st.count == 2 { "(2)" } else { "" };
            let capture = if st.captured > 0 { "*" } else { "" };
            format!("{}:{from}-{to}{gate}{capture}", st.seat)
        })
        .collect();
    text.join(" ")
}

/// The board with each colour's pieces sorted.
fn sorted(board: &Board) -> Board {
    let mut b = *board;
    for pieces in b.iter_mut() {
        pieces.sort_unstable();
    }
    b
}
