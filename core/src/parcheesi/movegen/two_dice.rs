//! Two values (most rolls): the plain search unrolled for two steps, skipping the transposed
//! order of two moves that touch no common square (for two moves along one run of position
//! numbers each, tested by comparing the runs: see [`span`]).
//!
//! Precondition: exactly two values left and no bonus pending; with P-D groups only when the two
//! values differ (no plain step can then break P-D; the groups are carried to the general
//! search, without transposition pruning, as `dfs` does).

use super::*;

/// `plain_dfs` from a root with two values left ([`Orders::Distinct`]), unrolled: the common
/// roll by far. The first steps, then for each the second steps, in the order `plain_dfs` takes
/// them, with the same transposition pruning (for two different values).
pub(super) fn two_dice(ctx: &mut Ctx, root: Plain, play: &mut Play) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = root.pieces;
    let occ = mover_occupancy(ctx, &pieces);
    let values = if root.left[0] == root.left[1] { 1 } else { 2 };
    // As `dfs`, no transposition pruning with P-D groups.
    let prunes = !ctx.has_groups;
    for vi in 0..values {
        let v = root.left[vi];
        // (At the root the pieces on one square are all in its group, or in none.)
        for (pi, &p) in pieces.iter().enumerate() {
            if pi > 0 && p == pieces[pi - 1] {
                continue;
            }
            if p == NEST {
                if v == 5
                    && let Some(c) = sys.landing(seat, ENTRY, true, &occ)
                {
                    // A first step playing the lower value prunes the transposed second steps.
                    let touched = if vi == 1 && prunes {
                        sys.touched(seat, p, ENTRY, v, true)
                    } else {
                        0
                    };
                    let st = step(seat, pi, p, ENTRY, 5, c, StepKind::Enter);
                    first_step(ctx, root, play, st, touched);
                }
                continue;
            }
            if p == HOME {
                continue;
            }
            // The home route, then going round where it exists (a counted loop: cheaper than
            // iterating over `[true, false]` with a `break`).
            let routes = 1 + sys.goes_round(p, v) as u8;
            for r in 0..routes {
                let route = r == 0;
                if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
                    let touched = if vi == 1 && prunes {
                        sys.touched(seat, p, d, v, route)
                    } else {
                        0
                    };
                    let st = step(seat, pi, p, d, v, c, StepKind::Move);
                    first_step(ctx, root, play, st, touched);
                }
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
                first_step(ctx, root, play, st, 0);
            }
        }
    }
}

/// One first step of [`two_dice()`] and everything that follows it.
#[inline]
pub(super) fn first_step(ctx: &mut Ctx, root: Plain, play: &mut Play, first: Step, prune: u128) {
    if ctx.leaves_plain(&first) {
        first_leaves_plain(ctx, root, play, first, prune);
        return;
    }
    let mut left = root.left;
    if !remove_value(&mut left, first.value) {
        remove_pair(&mut left, first.value);
    }
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
    play.pop();
}

/// A first step that captures or reaches home: the search below it, by `capture_step` for a
/// capture (the second value walked as plain steps from the state after the capture), else by
/// the general search (out of line: the rarer case, kept out of the plain loop's code).
#[cold]
#[inline(never)]
fn first_leaves_plain(ctx: &mut Ctx, root: Plain, play: &mut Play, first: Step, prune: u128) {
    let s = root.state(ctx);
    ctx.prune = prune;
    if stays_plain_below(ctx, &first) {
        capture_step(ctx, &s, play, first);
    } else {
        child(ctx, &s, play, first);
    }
    ctx.prune = 0;
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

/// The second level of [`two_dice()`]: one value left at `node`, whose pieces are in `groups`;
/// `prune` as in `dfs`.
#[inline]
pub(super) fn second_steps(
    ctx: &mut Ctx,
    node: Plain,
    groups: [u8; PIECES],
    play: &mut Play,
    prune: u128,
) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = node.pieces;
    let w = node.left[0];
    let occ = mover_occupancy(ctx, &pieces);
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
                    (node, groups),
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
        any |= second_step(ctx, (node, groups), play, prune, st, route);
    }
    if !any {
        // The second value cannot be played: the first alone is a complete play.
        play_so_far(ctx, node, play);
    }
}

/// One second step of [`two_dice()`] from `node` (with its pieces' groups): skipped by the pruning,
/// recorded, or handed to the general search; whether it continues the play (as `plain_child`
/// answers).
#[inline(always)]
pub(super) fn second_step(
    ctx: &mut Ctx,
    (node, groups): (Plain, [u8; PIECES]),
    play: &mut Play,
    prune: u128,
    st: Step,
    route: bool,
) -> bool {
    if prune != 0 {
        // The first step (`prune` holds the slots it touched) and this one touch no common
        // slot: the transposed order was listed from the other first step.
        let independent = match (span(&play.steps()[0]), span(&st)) {
            (Some((lo, hi)), Some((a, b))) => hi < a || b < lo,
            _ => !ctx
                .sys
                .touches(ctx.seat, st.from, st.to, st.value, route, prune),
        };
        if independent {
            return true;
        }
    }
    if ctx.leaves_plain(&st) {
        return general_second_step(ctx, (node, groups), play, st);
    }
    let code = moved_code(node.code, st.from, st.to);
    let score = plain_score(ctx, [0; 4]);
    let key = Plain::key(code, [0; 4]);
    record_scored_then(ctx, score, key, play, st, plain_part(key));
    true
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
fn span(st: &Step) -> Option<(u8, u8)> {
    if st.from == NEST {
        return Some((ENTRY, ENTRY));
    }
    let last = if st.to == HOME { HOME - 1 } else { st.to };
    (st.from < st.to && !(st.from <= BRANCH && st.to >= LAP)).then_some((st.from, last))
}
