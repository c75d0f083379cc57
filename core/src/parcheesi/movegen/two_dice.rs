//! Two values (most rolls): the plain search unrolled for two steps, skipping the transposed
//! order of two moves that touch no common square (for two moves along one run of position
//! numbers each, tested by comparing the runs: see [`span`]).
//!
//! The second steps reuse the root's die steps: the root tries every piece with both values
//! anyway (for the first steps) and keeps each step's end, also of an illegal one ([`Root`]).
//! A plain first step from `x` to `x'` changes only the mover's pieces on `x` and `x'`, so a
//! second step of another piece is the root's unless `x` or `x'` lies among the squares it
//! passes or lands on (its start does not matter: a blockade does not hold a piece leaving it;
//! the nest and home have no square). Those squares are one run of position numbers, so the
//! test is two comparisons each (a run that wraps on to the entry square takes in every
//! position it does not skip); only a piece that fails it is tried afresh, on the node's
//! occupancy, built then. The moved piece goes on from `x'`, ahead of both squares (two values
//! make less than a lap), so its continuation is tried on the root's occupancy: the common node
//! builds no occupancy. Not with P-D groups, nor when a root piece may go round (PAR-11; the
//! root keeps the home route's steps): there each node builds its own. (The same reuse tested
//! with 128-bit masks of the squares touched cost more than it saved: docs/PERFORMANCE.md.)
//!
//! Precondition: exactly two values left and no bonus pending; with P-D groups only when the two
//! values differ (no plain step can then break P-D; the groups are carried to the general
//! search, without transposition pruning, as `dfs` does).

use super::*;

/// The captures of an illegal step (or of no step).
pub(super) const ILLEGAL: u8 = u8::MAX;

/// The root's die steps by the home route, for the first steps and the second steps: per root
/// piece and value index, the end (also of an illegal step; [`NO_POS`] where there is none)
/// and the captures, or [`ILLEGAL`]. (Also the table of a node with two values left in the
/// memoised search: `plain::two_left`.)
pub(super) struct Root {
    pub(super) to: [[u8; 2]; PIECES],
    pub(super) captured: [[u8; 2]; PIECES],
    /// Entering with a five: the pieces it captures, or [`ILLEGAL`] (set when the mover has a
    /// piece in the nest and a five to play).
    pub(super) entry: u8,
    /// The higher value (a second step's value index is whether its value differs).
    pub(super) high: u8,
    /// The score of a play of both values without a bonus (`plain_score`).
    pub(super) full: u64,
    /// The second steps reuse the root's steps: no P-D groups, no root piece may go round
    /// (PAR-11: the steps kept are the home route's), and the two values make less than a lap
    /// (so the moved piece's continuation cannot reach its start).
    reuse: bool,
    /// A root piece may go round (PAR-11) by a value.
    pub(super) round: bool,
}

impl Root {
    /// The die steps of every piece of `root` by each of its `values` distinct values.
    #[inline(always)]
    pub(super) fn new(ctx: &Ctx, root: &Plain, occ: &Occ, values: usize) -> Root {
        let sys = ctx.sys;
        let seat = ctx.seat;
        let pieces = root.pieces;
        let mut rt = Root {
            to: [[NO_POS; 2]; PIECES],
            captured: [[ILLEGAL; 2]; PIECES],
            entry: ILLEGAL,
            high: root.left[0],
            full: plain_score(ctx, [0; 4]),
            reuse: false,
            round: false,
        };
        // (Pieces on one square are tried each: rarer than a test.)
        for (pi, &p) in pieces.iter().enumerate() {
            if p == NEST || p == HOME {
                continue;
            }
            for vi in 0..values {
                let v = root.left[vi];
                rt.round |= sys.goes_round(p, v);
                let to = pos_after(p, v, true);
                if to == NO_POS {
                    continue;
                }
                rt.to[pi][vi] = to;
                rt.captured[pi][vi] =
                    if occ.blocked != 0 && occ.blocked & sys.passed(seat, p, v, true) != 0 {
                        ILLEGAL
                    } else {
                        sys.landing(seat, to, false, occ).unwrap_or(ILLEGAL)
                    };
            }
        }
        let (a, b) = (root.left[0], root.left[1]);
        if pieces[0] == NEST && (a == 5 || b == 5) {
            rt.entry = sys.landing(seat, ENTRY, true, occ).unwrap_or(ILLEGAL);
        }
        rt.reuse = !ctx.has_groups && !rt.round && (a as u16 + b as u16) < 68;
        rt
    }

    /// Whether a change of the mover's pieces on `x` or `x2` can change the step of root piece
    /// `r` (at `p`) by value index `vi`: they lie among the squares it passes or lands on,
    /// `p + 1 ..= last` (as in [`span`]; going round from the first-lap numbers on to the entry
    /// square, the range wraps, and takes in every position it does not skip).
    #[inline(always)]
    pub(super) fn hits(&self, (r, vi): (usize, usize), p: u8, (x, x2): (u8, u8)) -> bool {
        let to = self.to[r][vi];
        let last = if to == HOME { HOME - 1 } else { to };
        let (lo, len) = (p + 1, last.wrapping_sub(p + 1));
        x.wrapping_sub(lo) <= len || x2.wrapping_sub(lo) <= len
    }
}

/// Going round (PAR-11, rare) from the root: the first step, if legal.
#[cold]
#[inline(never)]
fn root_round(
    ctx: &mut Ctx,
    root: Plain,
    occ: &(&Root, &Occ),
    play: &mut Play,
    at: (usize, u8, u8),
    lower: bool,
) {
    let (pi, p, v) = at;
    if let Some((d, c)) = ctx.sys.try_move(ctx.seat, p, v, false, occ.1) {
        let st = step(ctx.seat, pi, p, d, v, c, StepKind::Move);
        first_step(ctx, root, *occ, play, st, lower, false);
    }
}

/// A move of `w` from `p` by the home route on the node's occupancy, built here (a step the
/// first step may have changed; out of line: the rarer case): (end, captures or [`ILLEGAL`]).
#[cold]
#[inline(never)]
pub(super) fn fresh_step(ctx: &Ctx, pieces: &[u8; PIECES], p: u8, w: u8) -> (u8, u8) {
    let occ = mover_occupancy(ctx, pieces);
    ctx.sys
        .try_move(ctx.seat, p, w, true, &occ)
        .unwrap_or((NO_POS, ILLEGAL))
}

/// The transposition pruning below a first step (see `dfs`).
#[derive(Copy, Clone)]
enum Prune {
    Off,
    /// The first step touches the positions `lo ..= hi` (see [`span`]; its route is the home
    /// route: going round past the branch square is never one run).
    Run(u8, u8),
    /// The first step is not one run: its route (its squares are built when needed).
    Route(bool),
}

/// `plain_dfs` from a root with two values left ([`Orders::Distinct`]), unrolled: the common
/// roll by far. The first steps, then for each the second steps, in the order `plain_dfs` takes
/// them, with the same transposition pruning (for two different values).
pub(super) fn two_dice(ctx: &mut Ctx, root: Plain, play: &mut Play) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = root.pieces;
    let values = if root.left[0] == root.left[1] { 1 } else { 2 };
    let occ = mover_occupancy(ctx, &pieces);
    let rt = Root::new(ctx, &root, &occ, values);
    // As `dfs`, no transposition pruning with P-D groups.
    let prunes = !ctx.has_groups;
    for vi in 0..values {
        let v = root.left[vi];
        // A first step playing the lower value prunes the transposed second steps.
        let lower = vi == 1 && prunes;
        // (At the root the pieces on one square are all in its group, or in none.)
        for (pi, &p) in pieces.iter().enumerate() {
            if pi > 0 && p == pieces[pi - 1] {
                continue;
            }
            if p == NEST {
                if v == 5 && rt.entry != ILLEGAL {
                    let st = step(seat, pi, p, ENTRY, 5, rt.entry, StepKind::Enter);
                    first_step(ctx, root, (&rt, &occ), play, st, lower, true);
                }
                continue;
            }
            // The home route (none from home), then going round.
            let c = rt.captured[pi][vi];
            if c != ILLEGAL {
                let st = step(seat, pi, p, rt.to[pi][vi], v, c, StepKind::Move);
                first_step(ctx, root, (&rt, &occ), play, st, lower, true);
            }
            if rt.round && sys.goes_round(p, v) {
                root_round(ctx, root, &(&rt, &occ), play, (pi, p, v), lower);
            }
        }
    }
    // PAR-2 / O-B: the two values summing to five enter a piece.
    let (a, b) = (root.left[0], root.left[1]);
    if sys.rules.enter_with_sum
        && a != 5
        && b != 5
        && a + b == 5
        && let Some(c) = sys.landing(seat, ENTRY, true, &occ)
    {
        for (pi, &p) in pieces.iter().enumerate() {
            if p == NEST && !(pi > 0 && p == pieces[pi - 1]) {
                let st = step(seat, pi, p, ENTRY, 5, c, StepKind::Enter);
                first_step(ctx, root, (&rt, &occ), play, st, false, true);
            }
        }
    }
}

/// Of two values `left` (descending), the one left after a step of value `v`: the other one,
/// or none (0) after a sum-of-five entry, which spends both.
#[inline(always)]
pub(super) fn other_value(left: [u8; 4], v: u8) -> u8 {
    let (a, b) = (left[0], left[1]);
    if v == a {
        b
    } else if v == b {
        a
    } else {
        0
    }
}

/// One first step of [`two_dice()`] (by `route`) and everything that follows it; `lower`:
/// it plays the lower of two values, so the transposition pruning applies below it.
#[inline]
fn first_step(
    ctx: &mut Ctx,
    root: Plain,
    (rt, occ): (&Root, &Occ),
    play: &mut Play,
    first: Step,
    lower: bool,
    route: bool,
) {
    let prune = if !lower {
        Prune::Off
    } else if let Some((lo, hi)) = span(&first) {
        Prune::Run(lo, hi)
    } else {
        Prune::Route(route)
    };
    if ctx.leaves_plain(&first) {
        first_leaves_plain(ctx, root, play, first, lower.then_some(route));
        return;
    }
    let w = other_value(root.left, first.value);
    let left = [w, 0, 0, 0];
    let code = moved_code(root.code, first.from, first.to);
    play.push(first);
    if left[0] == 0 {
        // A sum-of-five entry spent both values.
        record_plain(ctx, Plain::key(code, left), left, play);
    } else {
        let mut node = Plain {
            pieces: root.pieces,
            left,
            code,
        };
        let idx = first.piece as usize & 3;
        if rt.reuse {
            node.pieces[idx] = first.to;
            let moved = place_moved_piece(&mut node.pieces, idx);
            // The moved piece's continuation by the home route, on the root's occupancy (see the
            // module doc); where it may go round (rare), both routes are tried in the loop.
            let round = ctx.sys.goes_round(first.to, w);
            let cont = if round {
                (NO_POS, ILLEGAL)
            } else {
                // (From home there is no step.)
                let r = ctx.sys.try_move(ctx.seat, first.to, w, true, occ);
                r.unwrap_or((NO_POS, ILLEGAL))
            };
            let at = (idx, moved, first.from, first.to);
            reused_second_steps(ctx, node, (rt, occ), at, (cont, round), play, prune);
        } else {
            // The P-D group of each piece (none without groups).
            let mut groups = [0; PIECES];
            if ctx.has_groups {
                (node.pieces, groups) = grouped_after(ctx, &first);
            } else {
                node.pieces[idx] = first.to;
                place_moved_piece(&mut node.pieces, idx);
            }
            second_steps(ctx, node, groups, play, prune);
        }
    }
    play.pop();
}

/// A first step that captures or reaches home: the search below it, by `capture_step` for a
/// capture (the second value walked as plain steps from the state after the capture), else by
/// the general search (out of line: the rarer case, kept out of the plain loop's code).
#[cold]
#[inline(never)]
fn first_leaves_plain(
    ctx: &mut Ctx,
    root: Plain,
    play: &mut Play,
    first: Step,
    prune: Option<bool>,
) {
    let s = root.state(ctx);
    // `Some` of its route when it plays the lower value: the pruning below it (see `dfs`).
    ctx.prune = prune.map_or(0, |route| first_touched(ctx, &first, route));
    if stays_plain_below(ctx, &first) {
        capture_step(ctx, &s, play, first);
    } else {
        child(ctx, &s, play, first);
    }
    ctx.prune = 0;
}

/// The slots a first step (by `route`) touches.
#[inline(always)]
fn first_touched(ctx: &Ctx, first: &Step, route: bool) -> u128 {
    ctx.sys
        .touched(ctx.seat, first.from, first.to, first.value, route)
}

/// The mover's pieces in the general search's order, (position, group), with their P-D groups,
/// after the first step `first` from a root with groups (out of line: rare, and kept out of
/// the first steps' code).
#[cold]
#[inline(never)]
fn grouped_after(ctx: &Ctx, first: &Step) -> ([u8; PIECES], [u8; PIECES]) {
    let mut t = ctx.root;
    let enter = first.kind == StepKind::Enter;
    t.apply_plain_move(
        ctx.seat,
        first.piece as usize & 3,
        first.to,
        first.value,
        enter,
    );
    (t.pieces[ctx.seat], t.groups)
}

/// The second level of [`two_dice()`] from the root's results ([`Root::reuse`]): one value left
/// at `node`, whose pieces are the root's with piece `idx` moved from `x` to `x2`, now at index
/// `moved`. The steps in `second_steps`' order.
#[inline]
fn reused_second_steps(
    ctx: &mut Ctx,
    node: Plain,
    (rt, occ): (&Root, &Occ),
    (idx, moved, x, x2): (usize, usize, u8, u8),
    (cont, round): ((u8, u8), bool),
    play: &mut Play,
    prune: Prune,
) {
    let seat = ctx.seat;
    let pieces = node.pieces;
    let w = node.left[0];
    let wi = (w != rt.high) as usize;
    let mut any = false;
    for (k, &p) in pieces.iter().enumerate() {
        if k > 0 && p == pieces[k - 1] {
            continue;
        }
        let (to, c) = if k == moved {
            if round {
                any |= moved_round(ctx, (node, rt.full), occ, play, prune, (k, p));
                continue;
            }
            cont
        } else if p == NEST {
            if w != 5 {
                continue;
            }
            if x == ENTRY || x2 == ENTRY {
                (ENTRY, fresh_entry(ctx, &pieces))
            } else {
                (ENTRY, rt.entry)
            }
        } else {
            // The others keep their order: the root index of the node's `k`-th piece. (A
            // piece at home has no step.)
            let m = k - (k > moved) as usize;
            let r = m + (m >= idx) as usize;
            if rt.hits((r, wi), p, (x, x2)) {
                fresh_step(ctx, &pieces, p, w)
            } else {
                (rt.to[r][wi], rt.captured[r][wi])
            }
        };
        if c == ILLEGAL {
            continue;
        }
        let kind = if p == NEST {
            StepKind::Enter
        } else {
            StepKind::Move
        };
        let st = step(seat, k, p, to, w, c, kind);
        any |= second_step(ctx, (node, [0; PIECES], rt.full), play, prune, st, true);
    }
    if !any {
        // The second value cannot be played: the first alone is a complete play.
        play_so_far(ctx, node, play);
    }
}

/// The moved piece's second steps when it may go round (PAR-11, rare): the home route, then
/// going round, on the root's occupancy; whether one continues the play.
#[cold]
#[inline(never)]
fn moved_round(
    ctx: &mut Ctx,
    (node, full): (Plain, u64),
    occ: &Occ,
    play: &mut Play,
    prune: Prune,
    (k, p): (usize, u8),
) -> bool {
    let w = node.left[0];
    let mut any = false;
    for route in [true, false] {
        if let Some((d, c)) = ctx.sys.try_move(ctx.seat, p, w, route, occ) {
            let st = step(ctx.seat, k, p, d, w, c, StepKind::Move);
            any |= second_step(ctx, (node, [0; PIECES], full), play, prune, st, route);
        }
    }
    any
}

/// Entering with a five on the node's occupancy (the first step left or reached the entry
/// square; out of line: rare): the captures, or [`ILLEGAL`].
#[cold]
#[inline(never)]
pub(super) fn fresh_entry(ctx: &Ctx, pieces: &[u8; PIECES]) -> u8 {
    let occ = mover_occupancy(ctx, pieces);
    ctx.sys
        .landing(ctx.seat, ENTRY, true, &occ)
        .unwrap_or(ILLEGAL)
}

/// The second level of [`two_dice()`]: one value left at `node`, whose pieces are in `groups`;
/// `prune` as for [`first_step`].
#[inline]
fn second_steps(ctx: &mut Ctx, node: Plain, groups: [u8; PIECES], play: &mut Play, prune: Prune) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = node.pieces;
    let w = node.left[0];
    let occ = mover_occupancy(ctx, &pieces);
    let full = plain_score(ctx, [0; 4]);
    let mut any = false;
    for (pi, &p) in pieces.iter().enumerate() {
        if pi > 0 && p == pieces[pi - 1] && groups[pi] == groups[pi - 1] {
            continue;
        }
        let (st, route) = if p == NEST {
            if w != 5 {
                continue;
            }
            let Some(c) = sys.landing(seat, ENTRY, true, &occ) else {
                continue;
            };
            (step(seat, pi, p, ENTRY, 5, c, StepKind::Enter), true)
        } else if p == HOME {
            continue;
        } else {
            // With two routes the home route is taken here and going round below.
            let round = sys.goes_round(p, w);
            if round && let Some((d, c)) = sys.try_move(seat, p, w, true, &occ) {
                any |= second_step(
                    ctx,
                    (node, groups, full),
                    play,
                    prune,
                    step(seat, pi, p, d, w, c, StepKind::Move),
                    true,
                );
            }
            let route = !round;
            let Some((d, c)) = sys.try_move(seat, p, w, route, &occ) else {
                continue;
            };
            (step(seat, pi, p, d, w, c, StepKind::Move), route)
        };
        any |= second_step(ctx, (node, groups, full), play, prune, st, route);
    }
    if !any {
        // The second value cannot be played: the first alone is a complete play.
        play_so_far(ctx, node, play);
    }
}

/// One second step of [`two_dice()`] from `node` (with its pieces' groups; `full`: the score of
/// a plain play of both values): skipped by the pruning, recorded, or handed to the general
/// search; whether it continues the play (as `plain_child` answers).
#[inline(always)]
fn second_step(
    ctx: &mut Ctx,
    (node, groups, full): (Plain, [u8; PIECES], u64),
    play: &mut Play,
    prune: Prune,
    st: Step,
    route: bool,
) -> bool {
    // The first step and this one touch no common slot: the transposed order was listed from
    // the other first step.
    let independent = match prune {
        Prune::Off => false,
        Prune::Run(lo, hi) => match span(&st) {
            Some((a, b)) => hi < a || b < lo,
            None => !touch_both(ctx, play, true, &st, route),
        },
        Prune::Route(first_route) => !touch_both(ctx, play, first_route, &st, route),
    };
    if independent {
        return true;
    }
    if ctx.leaves_plain(&st) {
        return general_second_step(ctx, (node, groups), play, st);
    }
    let code = moved_code(node.code, st.from, st.to);
    let key = Plain::key(code, [0; 4]);
    record_scored_then(ctx, full, key, play, st, plain_part(key));
    true
}

/// Whether the first step of `play` (by `first_route`) and `st` (by `route`) touch a common
/// slot, by their slot masks (out of line: only where a step is not one run of positions).
#[cold]
#[inline(never)]
fn touch_both(ctx: &Ctx, play: &Play, first_route: bool, st: &Step, route: bool) -> bool {
    let touched = first_touched(ctx, &play.steps()[0], first_route);
    ctx.sys
        .touches(ctx.seat, st.from, st.to, st.value, route, touched)
}

/// A second step that captures or earns a bonus: the general search takes over from the full
/// state (out of line: the rarer case, kept out of the plain loop's code).
#[cold]
#[inline(never)]
fn general_second_step(
    ctx: &mut Ctx,
    (node, groups): (Plain, [u8; PIECES]),
    play: &mut Play,
    st: Step,
) -> bool {
    let mut s = node.state(ctx);
    s.groups = groups;
    child(ctx, &s, play, st)
}

/// The positions a die step touches (its start, the squares it passes, its landing) when they
/// are one run of consecutive position numbers: `(first, last)`, home (which has no slot) left
/// out. Entering touches the entry square alone. A move that goes round past the branch square
/// (to the first-lap numbers, or on to the entry square) is not such a run: `None`.
///
/// A seat's positions are on distinct slots (the track squares 1 to 64 and the first-lap
/// numbers 73 to 76 are the seat's 68 track squares, 65 to 71 its home path), so two runs share
/// a slot exactly when they share a position: for two such steps the transposition pruning's
/// slot test is a comparison of the runs, without building the squares passed.
#[inline(always)]
pub(super) fn span(st: &Step) -> Option<(u8, u8)> {
    if st.from == NEST {
        return Some((ENTRY, ENTRY));
    }
    let last = if st.to == HOME { HOME - 1 } else { st.to };
    (st.from < st.to && !(st.from <= BRANCH && st.to >= LAP)).then_some((st.from, last))
}
