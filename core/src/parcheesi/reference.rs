//! A slow reference generator for Parcheesi and Online Pachisi, written from the rules text
//! (`docs/RULES.md`: PAR-1..14, P-A..P-J, ONL-1..7, O-A..O-F), not from the fast generator.
//!
//! It walks every sequence of steps one square at a time — every value of the roll in every
//! order, every piece (pieces keep their identity, so two pieces on one square are both tried),
//! every route at the branch square — and keeps every prefix as a candidate play. The
//! obligations are then filters over the complete candidates, in the order the rules give them:
//!
//! 1. P-D: a play that ends with two pieces of one starting blockade together on a new square
//!    is illegal;
//! 2. P-C: the most values, then the most pips (not with passing allowed, O-F: any of the dice
//!    may be given up); then the bonuses: the most bonuses, then the most bonus pips — over all
//!    plays (`bonus_obligation: "most-bonuses"`) or among the plays with the same dice part
//!    (`"per-dice-play"`, and with passing whenever the dice come first: a bonus is no die);
//! 3. the blockade turn limit (PAR-10 local rule): if a play opens every expired blockade, one
//!    that does not is illegal.
//!
//! PAR-6 (`bonus_order: "dice-first"`) is structural: once a bonus step is taken no die step
//! follows. What remains is grouped by the position the play leaves (after the end of the play
//! renews the blockade ages), which is what a legal play *is* (BG-2's rule for whole plays).
//!
//! Its only use is checking: the differential tests compare it with the fast generator on
//! random and synthetic positions. Its steps name a piece by its index in the position the
//! search started from (the pieces' identity), not by the fast generator's order.
//!
//! The groups of P-D are taken from the start position: searched from the start of a roll (where
//! the engine sets them), the square a group stood on is the square its pieces share there.
//!
//! ```
//! use pachisi::parcheesi::{reference, ParcheesiRules};
//! use pachisi::{Roll, RuleSystem, SystemRules};
//! let sys = ParcheesiRules::parcheesi().build().unwrap();
//! let mut s = sys.parse_position("0:0,0,0,0 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0").unwrap();
//! sys.begin_roll(&mut s, Roll::Dice([5, 3]));
//! // Every order and every piece: four pieces in the nest could enter.
//! assert_eq!(reference::legal_plays(&sys, &s).len(), 4);
//! // One play per board.
//! let plays = reference::distinct_plays(&sys, &s);
//! let text: Vec<String> = plays.iter().map(|p| sys.format_play(&s, &p.play)).collect();
//! assert_eq!(text, ["enter 3:1-4"]);
//! ```

use super::{
    BRANCH, BonusObligation, BonusOrder, ENTRY, HOME, HOME_PATH, LAP, LAP_END, NEST, PIECES,
    ParcheesiState, ParcheesiSystem, Phase, step,
};
use crate::play::{MAX_STEPS, Play, Step, StepKind};
use crate::system::{Place, RuleSystem};

/// A board: each seat's pieces in ascending order with their blockade ages (seats not in play
/// hold zeros).
pub type Board = ([[u8; PIECES]; 4], [[u8; PIECES]; 4]);

/// One legal play found by the reference, with the board it leaves after the end of the play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePlay {
    /// The steps (pieces named by their index in the start position).
    pub play: Play,
    /// The board after the play, blockade ages renewed.
    pub board: Board,
}

/// Every legal play of the decision node `s` — every order of steps, not one per position —
/// each with the board it leaves. Empty when the roll cannot be played (or `s` is no decision).
pub fn legal_plays(sys: &ParcheesiSystem, s: &ParcheesiState) -> Vec<ReferencePlay> {
    if s.phase != Phase::Decision {
        return Vec::new();
    }
    let r = &sys.rules;
    let seat = s.turn as usize & 3;
    let mut pending = Vec::new();
    pending.extend(std::iter::repeat_n(
        r.capture_bonus,
        s.pending_capture as usize,
    ));
    pending.extend(std::iter::repeat_n(r.home_bonus, s.pending_home as usize));
    let mut root = Node {
        pieces: s.pieces,
        ages: s.ages,
        groups: s.groups,
        left: s.values_left().to_vec(),
        pending,
        values_used: 0,
        pips_used: 0,
        bonuses: s.bonuses_played as u32,
        bonus_pips: s.bonus_pips as u32,
        dice_part: None,
    };
    if s.bonuses_played > 0 {
        // A bonus was taken before this node: the dice part is over.
        root.dice_part = Some((board(&root), root.left.clone()));
    }
    let search = Search { sys, seat };
    let mut candidates = Vec::new();
    let mut steps = Vec::new();
    search.walk(&root, &mut steps, &mut candidates);
    search.filter(candidates)
}

/// The distinct legal plays: one per board, the first in search order.
pub fn distinct_plays(sys: &ParcheesiSystem, s: &ParcheesiState) -> Vec<ReferencePlay> {
    let mut out: Vec<ReferencePlay> = Vec::new();
    for p in legal_plays(sys, s) {
        if !out.iter().any(|q| q.board == p.board) {
            out.push(p);
        }
    }
    out
}

/// A node of the search: the whole position, pieces by identity.
#[derive(Clone, Debug)]
struct Node {
    pieces: [[u8; PIECES]; 4],
    ages: [[u8; PIECES]; 4],
    groups: [u8; PIECES],
    left: Vec<u8>,
    pending: Vec<u8>,
    values_used: u32,
    pips_used: u32,
    bonuses: u32,
    bonus_pips: u32,
    /// The board and values left when the first bonus was taken (the dice part of the play).
    dice_part: Option<(Board, Vec<u8>)>,
}

/// A candidate play: its steps and the node it ends in.
struct Candidate {
    steps: Vec<Step>,
    end: Node,
}

struct Search<'a> {
    sys: &'a ParcheesiSystem,
    seat: usize,
}

/// A square of the board: a track square, or a home-path square of one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Square {
    Track(u8),
    HomePath(u8, u8),
}

impl Search<'_> {
    fn square(&self, seat: usize, pos: u8) -> Option<Square> {
        match self.sys.place(seat as u8, pos) {
            Place::Track { square } => Some(Square::Track(square)),
            Place::HomePath { side, index } => Some(Square::HomePath(side, index)),
            _ => None,
        }
    }

    /// How many pieces of `seat` stand on `sq`.
    fn count_on(&self, n: &Node, seat: usize, sq: Square) -> usize {
        n.pieces[seat]
            .iter()
            .filter(|&&p| self.square(seat, p) == Some(sq))
            .count()
    }

    /// Whether any seat has a blockade (two or more pieces) on `sq`.
    fn blockade_on(&self, n: &Node, sq: Square) -> bool {
        (0..self.sys.seats as usize).any(|k| self.count_on(n, k, sq) >= 2)
    }

    /// The position one square ahead of `p`, on the home route or going round at the branch.
    fn next(&self, p: u8, home_route: bool) -> Option<u8> {
        match p {
            NEST | HOME => None,
            BRANCH if home_route => Some(HOME_PATH),
            BRANCH if self.sys.rules.go_round_again => Some(LAP),
            BRANCH => None,
            LAP_END => Some(ENTRY),
            _ => Some(p + 1),
        }
    }

    /// The moves of `v` squares from `p`: for each route, the squares passed and the end.
    fn routes(&self, p: u8, v: u8) -> Vec<(Vec<u8>, u8)> {
        let mut out = Vec::new();
        for home_route in [true, false] {
            let mut q = p;
            let mut passed = Vec::new();
            let mut crossed_branch = false;
            let mut ok = true;
            for i in 0..v {
                if q == BRANCH {
                    crossed_branch = true;
                }
                match self.next(q, home_route) {
                    Some(t) => q = t,
                    None => {
                        ok = false;
                        break;
                    }
                }
                if i + 1 < v {
                    passed.push(q);
                }
            }
            // A move that never leaves the branch square has one route: keep the first.
            if ok && (home_route || crossed_branch) {
                out.push((passed, q));
            }
        }
        out
    }

    /// Whether the mover's piece may end a step on `pos` (PAR-8..10, P-E, O-D, O-E); whether
    /// it captures there.
    fn landing(&self, n: &Node, pos: u8, entering: bool) -> Option<bool> {
        let r = &self.sys.rules;
        let Some(sq) = self.square(self.seat, pos) else {
            // Home holds any number.
            return Some(false);
        };
        let own = self.count_on(n, self.seat, sq);
        if own > 0 && !r.blockades {
            return None;
        }
        if r.blockades && own >= r.max_pieces_per_square as usize {
            return None;
        }
        let mut opponents = 0;
        for k in 0..self.sys.seats as usize {
            if k == self.seat {
                continue;
            }
            let c = self.count_on(n, k, sq);
            if c >= 2 && r.blockades {
                // No landing on another seat's blockade, not even entering (PAR-10).
                return None;
            }
            opponents += c;
        }
        if opponents == 0 {
            return Some(false);
        }
        let safe = r.safe_squares && matches!(sq, Square::Track(t) if crate::board::is_safe(t));
        if r.capture {
            if safe && !(entering && r.entry_capture) {
                return None;
            }
            Some(true)
        } else if safe && !entering {
            None
        } else {
            Some(false)
        }
    }

    /// Moves piece `i` of the mover to `to`: blockade ages follow the square (the piece takes
    /// the age of the own pieces there; a piece it leaves alone loses its age); opponents there
    /// go back to their nests when `captures`. Earns the bonuses (PAR-13, P-C).
    fn move_piece(&self, n: &mut Node, i: usize, to: u8, captures: bool, is_bonus: bool) {
        let r = &self.sys.rules;
        let seat = self.seat;
        let from = n.pieces[seat][i];
        let from_sq = self.square(seat, from);
        let to_sq = self.square(seat, to);
        let mut age = 0;
        for j in 0..PIECES {
            if j != i && to_sq.is_some() && self.square(seat, n.pieces[seat][j]) == to_sq {
                age = n.ages[seat][j];
            }
        }
        n.pieces[seat][i] = to;
        n.ages[seat][i] = age;
        if from_sq.is_some() {
            let staying: Vec<usize> = (0..PIECES)
                .filter(|&j| self.square(seat, n.pieces[seat][j]) == from_sq)
                .collect();
            if staying.len() == 1 {
                n.ages[seat][staying[0]] = 0;
            }
        }
        if captures {
            for k in 0..self.sys.seats as usize {
                if k == seat {
                    continue;
                }
                for j in 0..PIECES {
                    if self.square(k, n.pieces[k][j]) == to_sq {
                        n.pieces[k][j] = NEST;
                        n.ages[k][j] = 0;
                    }
                }
            }
        }
        let earns = !is_bonus || r.bonuses_chain;
        if captures && r.capture && r.capture_bonus > 0 && earns {
            n.pending.push(r.capture_bonus);
        }
        if to == HOME && r.home_bonus > 0 && earns {
            n.pending.push(r.home_bonus);
        }
    }

    /// Every step from `n` with its child node.
    fn children(&self, n: &Node) -> Vec<(Step, Node)> {
        let r = &self.sys.rules;
        let seat = self.seat;
        let mut out = Vec::new();
        // PAR-6: no die after a bonus (unless bonuses may come at any time).
        let dice_over = r.bonus_order == BonusOrder::DiceFirst && n.dice_part.is_some();
        if !dice_over {
            // Die steps: each distinct value left, each piece, each route (PAR-3, P-B); a die
            // showing five enters a piece (PAR-2).
            let mut values = n.left.clone();
            values.dedup();
            for &v in &values {
                for i in 0..PIECES {
                    if n.pieces[seat][i] != NEST {
                        self.moves(n, i, v, false, &mut out);
                    } else if v == 5 {
                        self.enter(n, i, &[5], &mut out);
                    }
                }
            }
            // PAR-2, O-B: two values summing to five enter a piece.
            let mut pairs: Vec<(u8, u8)> = Vec::new();
            for a in 0..n.left.len() {
                for b in a + 1..n.left.len() {
                    let pair = (n.left[a], n.left[b]);
                    if r.enter_with_sum && pair.0 + pair.1 == 5 && !pairs.contains(&pair) {
                        pairs.push(pair);
                    }
                }
            }
            for (a, b) in pairs {
                for i in 0..PIECES {
                    if n.pieces[seat][i] == NEST {
                        self.enter(n, i, &[a, b], &mut out);
                    }
                }
            }
        }
        // Bonuses (PAR-13): each pending value, whole, by one piece on the board.
        let mut bonuses = n.pending.clone();
        bonuses.sort_unstable();
        bonuses.dedup();
        for v in bonuses {
            for i in 0..PIECES {
                self.moves(n, i, v, true, &mut out);
            }
        }
        out
    }

    /// Piece `i` of the mover (in the nest) enters on its entry square, spending `values`.
    fn enter(&self, n: &Node, i: usize, values: &[u8], out: &mut Vec<(Step, Node)>) {
        if let Some(c) = self.landing(n, ENTRY, true) {
            let mut t = n.clone();
            spend(&mut t, values);
            self.move_piece(&mut t, i, ENTRY, c, false);
            out.push((
                step(self.seat, i, NEST, ENTRY, 5, c as u8, StepKind::Enter),
                t,
            ));
        }
    }

    /// The die or bonus moves of `v` squares by piece `i` of the mover (not from the nest).
    fn moves(&self, n: &Node, i: usize, v: u8, is_bonus: bool, out: &mut Vec<(Step, Node)>) {
        let seat = self.seat;
        let p = n.pieces[seat][i];
        if p == NEST || p == HOME {
            return;
        }
        for (passed, to) in self.routes(p, v) {
            let blocked = self.sys.rules.blockades
                && passed.iter().any(|&q| {
                    self.square(seat, q)
                        .is_some_and(|sq| self.blockade_on(n, sq))
                });
            if blocked {
                continue;
            }
            let Some(c) = self.landing(n, to, false) else {
                continue;
            };
            let mut t = n.clone();
            if is_bonus {
                if t.dice_part.is_none() {
                    t.dice_part = Some((board(n), n.left.clone()));
                }
                let k = t.pending.iter().position(|&b| b == v).expect("pending");
                t.pending.remove(k);
                t.bonuses += 1;
                t.bonus_pips += v as u32;
            } else {
                spend(&mut t, &[v]);
            }
            self.move_piece(&mut t, i, to, c, is_bonus);
            let kind = if is_bonus {
                StepKind::Bonus
            } else {
                StepKind::Move
            };
            out.push((step(seat, i, p, to, v, c as u8, kind), t));
        }
    }

    /// Depth-first: every prefix is a candidate.
    fn walk(&self, n: &Node, steps: &mut Vec<Step>, out: &mut Vec<Candidate>) {
        out.push(Candidate {
            steps: steps.clone(),
            end: n.clone(),
        });
        if steps.len() >= MAX_STEPS {
            return;
        }
        for (st, child) in self.children(n) {
            steps.push(st);
            self.walk(&child, steps, out);
            steps.pop();
        }
    }

    /// P-D: two pieces of one starting blockade together on a new square.
    fn breaks_p_d(&self, n: &Node) -> bool {
        let p = n.pieces[self.seat];
        (0..PIECES).any(|i| {
            let g = n.groups[i];
            g != 0
                && p[i] != NEST
                && p[i] != HOME
                // (A group's mark is the position its blockade stood on at the roll's start.)
                && self.square(self.seat, p[i]) != self.square(self.seat, g)
                && (i + 1..PIECES).any(|j| {
                    n.groups[j] == g && self.square(self.seat, p[j]) == self.square(self.seat, p[i])
                })
        })
    }

    /// The blockade turn limit: a blockade of the mover that reached the limit stands.
    fn expired_blockade_stands(&self, n: &Node) -> bool {
        let limit = self.sys.rules.blockade_turn_limit;
        if limit == 0 {
            return false;
        }
        let seat = self.seat;
        (0..PIECES).any(|i| {
            let sq = self.square(seat, n.pieces[seat][i]);
            sq.is_some() && n.ages[seat][i] >= limit && self.count_on(n, seat, sq.unwrap()) >= 2
        })
    }

    /// The obligations as filters over the candidates (see the module docs).
    fn filter(&self, candidates: Vec<Candidate>) -> Vec<ReferencePlay> {
        let r = &self.sys.rules;
        let mut kept: Vec<Candidate> = candidates
            .into_iter()
            .filter(|c| !self.breaks_p_d(&c.end))
            .collect();
        let bonus = |c: &Candidate| (c.end.bonuses, c.end.bonus_pips);
        // O-F: with passing any of the dice may be given up (no most-values or most-pips
        // rule), but a dice part still plays its best bonuses when the dice come first.
        let per_dice_part = if r.pass_allowed {
            r.bonus_order == BonusOrder::DiceFirst
        } else {
            let dice = |c: &Candidate| (c.end.values_used, c.end.pips_used);
            keep_max(&mut kept, |c| dice(c));
            if r.bonus_obligation == BonusObligation::MostBonuses {
                keep_max(&mut kept, |c| bonus(c));
            }
            r.bonus_obligation == BonusObligation::PerDicePlay
        };
        if per_dice_part {
            let part = |c: &Candidate| match &c.end.dice_part {
                Some(p) => p.clone(),
                None => (board(&c.end), c.end.left.clone()),
            };
            let mut best: std::collections::HashMap<(Board, Vec<u8>), (u32, u32)> =
                std::collections::HashMap::new();
            for c in &kept {
                let b = best.entry(part(c)).or_default();
                *b = (*b).max(bonus(c));
            }
            let best: Vec<bool> = kept.iter().map(|c| best[&part(c)] == bonus(c)).collect();
            let mut it = best.iter();
            kept.retain(|_| *it.next().unwrap());
        }
        keep_max(&mut kept, |c| !self.expired_blockade_stands(&c.end));
        // The empty play is a play only where the player may pass.
        kept.retain(|c| r.pass_allowed || !c.steps.is_empty());
        kept.into_iter()
            .map(|c| ReferencePlay {
                play: Play::from_steps(&c.steps),
                board: self.end_board(&c.end),
            })
            .collect()
    }

    /// The board after the play: the mover's blockades one play older, lone pieces ageless.
    fn end_board(&self, n: &Node) -> Board {
        let mut m = n.clone();
        let seat = self.seat;
        if self.sys.rules.blockade_turn_limit > 0 {
            for i in 0..PIECES {
                let sq = self.square(seat, m.pieces[seat][i]);
                m.ages[seat][i] = match sq {
                    Some(sq) if self.count_on(n, seat, sq) >= 2 => {
                        n.ages[seat][i].saturating_add(1)
                    }
                    _ => 0,
                };
            }
        }
        board(&m)
    }
}

/// Spends the given values from those left.
fn spend(n: &mut Node, values: &[u8]) {
    for &v in values {
        let k = n.left.iter().position(|&x| x == v).expect("value left");
        n.left.remove(k);
        n.values_used += 1;
        n.pips_used += v as u32;
    }
}

/// Keeps the candidates with the greatest key.
fn keep_max<K: Ord>(kept: &mut Vec<Candidate>, key: impl Fn(&Candidate) -> K) {
    if let Some(best) = kept.iter().map(&key).max() {
        kept.retain(|c| key(c) == best);
    }
}

/// The board of a node: pieces sorted with their ages.
fn board(n: &Node) -> Board {
    let mut out = ([[0u8; PIECES]; 4], [[0u8; PIECES]; 4]);
    for seat in 0..4 {
        let mut v: Vec<(u8, u8)> = (0..PIECES)
            .map(|i| (n.pieces[seat][i], n.ages[seat][i]))
            .collect();
        v.sort_unstable();
        for (i, (p, a)) in v.into_iter().enumerate() {
            out.0[seat][i] = p;
            out.1[seat][i] = a;
        }
    }
    out
}
