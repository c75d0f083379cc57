//! The *plain search*: until a step captures or earns a bonus, a node differs from the root only
//! in the mover's pieces and the values left, so it is walked as that small value ([`Plain`])
//! with an incremental position key.
//!
//! In the memoised search (doubles with four values) the last two levels are unrolled as
//! `two_dice` unrolls its two: a node with two values left ([`two_left`]) tries its pieces' die
//! steps by both values once, on its occupancy, into a table ([`Root`]), and a node below it
//! (one value left, [`last_value`]) records each step at once with one memo probe, taking the
//! table's step of a piece where the step that led there moved no piece on a square that step
//! passes or lands on ([`Root::hits`]: two comparisons of positions); the moved piece goes on on
//! the parent's occupancy, which differs from the node's only on squares behind it. So the
//! common node of the last level builds no occupancy. A last step that the parent tried before
//! the step that led there (a larger value, or the same value from a lower square) and that
//! touches none of its positions reaches a position the other order listed first
//! ([`transposed`]): it is passed over without its key or memo probe, as the memo would answer.
//! (Tables derived the same way for the level above, from its parent's, cost more than the steps
//! they saved there: docs/PERFORMANCE.md.)
//!
//! Precondition: no capture and no bonus so far in the play (a step that captures or earns a
//! home bonus goes to the general search with the full state rebuilt).
//!
//! Below a capturing die step ([`capture_step`]: from the four-value search, or the first step
//! of two values) the same walk goes on from the state after the capture, which is then the
//! context's root ([`ext_plain_dfs`]): there a node is keyed as the general search keys its full
//! state, so that the memo and the deduplication meet the same positions by either path. Those
//! nodes share all of that state but the mover's pieces and the values left, so the first part of
//! its hash (the pieces and ages, `hash_pieces`) is taken once per capture and a node's key
//! hashes only the rest (`hash_tail`): the same key, fewer instructions.
//!
//! From a root whose mover has P-D groups, with doubles (two different values go to
//! `two_dice`), [`grouped_dfs`] is `dfs` over [`Grouped`] nodes: the pieces with their group
//! marks and the values left. A complete play is still recorded from its full state by
//! `record` (which rejects a play breaking P-D, so a node may end up not continuing): the memo
//! stores each node's result, as `child` does, rather than marking it before its search.

use super::*;

/// A node of the plain search: what differs from the root position when every step so far moved
/// one of the mover's pieces without capturing or earning a bonus (the common case by far).
///
/// Such a node is the root with these pieces and values left: its ages, groups, bonus counters
/// and the other seats are the root's. The plain search walks these nodes as this small value
/// instead of a full state, and hands a step that captures or earns a bonus to the general
/// search (`child`) with the full state rebuilt. It lists the same plays in the same order as
/// `dfs` would from the same root.
#[derive(Copy, Clone)]
pub(super) struct Plain {
    /// The mover's pieces, ascending.
    pub(super) pieces: [u8; PIECES],
    /// Values of the roll still to play, descending, zero-padded.
    pub(super) left: [u8; 4],
    /// The sum of the pieces' codes ([`PIECE_CODES`]).
    pub(super) code: u64,
}

impl Plain {
    pub(super) fn new(pieces: [u8; PIECES], left: [u8; 4]) -> Plain {
        let code = pieces_code(&pieces);
        Plain { pieces, left, code }
    }

    /// The values left and the pieces' code after the plain step `st`: its value (or pair
    /// summing to five) used, the piece moved.
    #[inline(always)]
    fn used(&self, st: &Step) -> ([u8; 4], u64) {
        let mut left = self.left;
        if !remove_value(&mut left, st.value) && st.kind == StepKind::Enter {
            remove_pair(&mut left, st.value);
        }
        (left, moved_code(self.code, st.from, st.to))
    }

    /// The node after the plain step `st`, given what [`Plain::used`] returns for it (split so
    /// that a leaf is recorded before the pieces are moved and sorted).
    #[inline(always)]
    fn after(&self, st: &Step, (left, code): ([u8; 4], u64)) -> Plain {
        let mut t = Plain {
            pieces: self.pieces,
            left,
            code,
        };
        t.pieces[st.piece as usize & 3] = st.to;
        place_moved_piece(&mut t.pieces, st.piece as usize & 3);
        t
    }

    /// The key of the position with pieces coded `code` and values `left` (a plain position
    /// differs from another of the same roll only in these two).
    #[inline]
    pub(super) fn key(code: u64, left: [u8; 4]) -> u64 {
        (code ^ (u32::from_le_bytes(left) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | PLAIN_TAG
    }

    /// The full state this node stands for.
    #[inline]
    pub(super) fn state(&self, ctx: &Ctx) -> ParcheesiState {
        let mut s = ctx.root;
        s.pieces[ctx.seat] = self.pieces;
        s.left = self.left;
        s
    }
}

/// `dfs` for a plain node (see [`Plain`]); the root's mover has no P-D groups and no blockade
/// ages, nothing is pending, and passing is not allowed.
pub(super) fn plain_dfs(ctx: &mut Ctx, node: Plain, play: &mut Play, root: bool) -> bool {
    let pieces = node.pieces;
    let n = count_left(&node.left);
    if n == 0 {
        return !root && record_plain(ctx, Plain::key(node.code, node.left), node.left, play);
    }
    let mut any = false;
    // The transposition pruning of `dfs` (no P-D groups here, and passing is off).
    let prune = std::mem::take(&mut ctx.prune);
    let prune_root = root && ctx.distinct && !ctx.memoise && n == 2 && node.left[0] != node.left[1];
    let occ = mover_occupancy(ctx, &pieces);
    let same = |i: usize| i > 0 && pieces[i] == pieces[i - 1];
    let distinct = ctx.distinct;
    for_each_die_step(
        ctx,
        &pieces,
        &node.left,
        &occ,
        |i| distinct && same(i),
        #[inline(always)]
        |ctx, vi, st, route| {
            any |= pruned_step(ctx, vi, st, route, prune, prune_root, |ctx, st| {
                plain_child(ctx, node, play, st)
            });
            true
        },
    );
    // No bonus is pending at a plain node.
    if !any && !root && record_plain(ctx, Plain::key(node.code, node.left), node.left, play) {
        any = true;
    }
    any
}

/// `child` for a step from a plain node.
#[inline(always)]
pub(super) fn plain_child(ctx: &mut Ctx, node: Plain, play: &mut Play, st: Step) -> bool {
    if ctx.leaves_plain(&st) {
        // The step changes more than the mover's pieces: the general search takes over.
        return general_step(ctx, node, play, st);
    }
    let (left, code) = node.used(&st);
    let key = Plain::key(code, left);
    if ctx.memoise {
        // A plain node always continues (a non-root node with no step is a complete play, and
        // no P-D groups can reject it), so it is marked visited before its search, in one probe.
        if !ctx.memo.insert_new(key) {
            return true;
        }
    } else if left[0] == 0 {
        // A complete play (the common leaf): its position needs no sorted pieces.
        record_scored_then(ctx, plain_score(ctx, left), key, play, st, plain_part(key));
        return true;
    }
    if play.len() >= crate::play::MAX_STEPS {
        return false;
    }
    let t = node.after(&st, (left, code));
    play.push(st);
    let r = if left[0] == 0 {
        record_plain(ctx, key, left, play)
    } else if ctx.memoise && left[1] != 0 && left[2] == 0 {
        two_left(ctx, t, play)
    } else {
        plain_dfs(ctx, t, play, false)
    };
    play.pop();
    r
}

/// Records the play so far from `node`, whose values left cannot be played (out of line: rare,
/// and kept out of the step loops' code).
#[cold]
#[inline(never)]
pub(super) fn play_so_far(ctx: &mut Ctx, node: Plain, play: &Play) {
    record_plain(ctx, Plain::key(node.code, node.left), node.left, play);
}

/// One step of [`last_value`] (`full`: the score of a plain play of every value): recorded
/// unless its position is in the memo, or handed to the general search; whether it continues
/// the play (always, as in `plain_child`).
#[inline(always)]
fn last_step(ctx: &mut Ctx, (node, full): (Plain, u64), play: &mut Play, st: Step) -> bool {
    if ctx.leaves_plain(&st) {
        return general_step(ctx, node, play, st);
    }
    let code = moved_code(node.code, st.from, st.to);
    let key = Plain::key(code, [0; 4]);
    if ctx.memo.insert_new(key) {
        record_scored_then(ctx, full, key, play, st, plain_part(key));
    }
    true
}

/// `plain_dfs` at a non-root node with two values left in a memoised search (the level above
/// [`last_value`]'s), unrolled as `two_dice` (see the module doc): the node's die steps by the
/// home route by both values are tried once, into a table ([`Root::new`]) that the nodes
/// below read. The steps in `for_each_die_step`'s order, each first step marked in the memo
/// before its search as in `plain_child`.
pub(super) fn two_left(ctx: &mut Ctx, node: Plain, play: &mut Play) -> bool {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = node.pieces;
    let values = if node.left[0] == node.left[1] { 1 } else { 2 };
    let occ = mover_occupancy(ctx, &pieces);
    let rt = Root::new(ctx, &node, &occ, values);
    let mut any = false;
    for vi in 0..values {
        let v = node.left[vi];
        for (pi, &p) in pieces.iter().enumerate() {
            if pi > 0 && p == pieces[pi - 1] {
                continue;
            }
            if p == NEST {
                if v == 5 && rt.entry != ILLEGAL {
                    let st = step(seat, pi, p, ENTRY, 5, rt.entry, StepKind::Enter);
                    any |= two_left_step(ctx, node, (&rt, &occ), play, st);
                }
                continue;
            }
            // The home route (none from home), then going round.
            let c = rt.captured[pi][vi];
            if c != ILLEGAL {
                let st = step(seat, pi, p, rt.to[pi][vi], v, c, StepKind::Move);
                any |= two_left_step(ctx, node, (&rt, &occ), play, st);
            }
            if rt.round && sys.goes_round(p, v) {
                any |= two_left_round(ctx, node, (&rt, &occ), play, (pi, p, v));
            }
        }
    }
    if sys.rules.enter_with_sum && sums_to_five(&node.left) {
        let same = |i: usize| i > 0 && pieces[i] == pieces[i - 1];
        sum_entries(ctx, &pieces, &occ, same, |ctx, _, st, _| {
            any |= two_left_step(ctx, node, (&rt, &occ), play, st);
            true
        });
    }
    if !any {
        play_so_far(ctx, node, play);
    }
    true
}

/// Going round (PAR-11, rare) from a node of [`two_left`]: the first step, if legal.
#[cold]
#[inline(never)]
fn two_left_round(
    ctx: &mut Ctx,
    node: Plain,
    at: (&Root, &Occ),
    play: &mut Play,
    (pi, p, v): (usize, u8, u8),
) -> bool {
    match ctx.sys.try_move(ctx.seat, p, v, false, at.1) {
        Some((d, c)) => {
            let st = step(ctx.seat, pi, p, d, v, c, StepKind::Move);
            two_left_step(ctx, node, at, play, st)
        }
        None => false,
    }
}

/// A first step from a [`two_left`] node (`plain_child` unrolled): handed to the general
/// search, or marked in the memo and followed by the last value's steps
/// ([`last_value`]).
#[inline(always)]
fn two_left_step(
    ctx: &mut Ctx,
    node: Plain,
    (rt, occ): (&Root, &Occ),
    play: &mut Play,
    st: Step,
) -> bool {
    if ctx.leaves_plain(&st) {
        return general_step(ctx, node, play, st);
    }
    let left = [other_value(node.left, st.value), 0, 0, 0];
    let code = moved_code(node.code, st.from, st.to);
    let key = Plain::key(code, left);
    if !ctx.memo.insert_new(key) {
        return true;
    }
    if play.len() >= crate::play::MAX_STEPS {
        return false;
    }
    let idx = st.piece as usize & 3;
    let mut t = Plain {
        pieces: node.pieces,
        left,
        code,
    };
    t.pieces[idx] = st.to;
    let moved = place_moved_piece(&mut t.pieces, idx);
    play.push(st);
    if left[0] == 0 {
        // A sum-of-five entry spent both values.
        record_plain(ctx, key, left, play);
    } else {
        let first = first_run(&st);
        last_value(ctx, t, (rt, occ), (idx, moved, st.from, st.to), first, play);
    }
    play.pop();
    true
}

/// `plain_dfs` at a node with one value left below a [`two_left`] node (its table `rt`, its
/// occupancy `occ`), unrolled as `two_dice`'s second steps: every step ends the play, so each is
/// recorded at once, its position looked up in the memo with one probe (the memo is where the
/// memoised search finds positions already listed). The pieces of `node` are the parent's with
/// piece `idx` moved from `x` to `x2` (by the move `first`, as [`first_run`] gives it), now at
/// index `moved`; a step of another piece is the parent's unless the first step moved a piece
/// on a square it passes or lands on ([`Root::hits`]); the moved piece goes on on the parent's
/// occupancy; a piece that may go round (PAR-11, rare) or whose step the first step may have
/// changed is tried afresh on the node's occupancy, built then. Steps in
/// `for_each_die_step`'s order.
#[inline(always)]
fn last_value(
    ctx: &mut Ctx,
    node: Plain,
    (rt, occ): (&Root, &Occ),
    (idx, moved, x, x2): (usize, usize, u8, u8),
    first: (u8, u8, u8),
    play: &mut Play,
) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = node.pieces;
    let w = node.left[0];
    let wi = (w != rt.high) as usize;
    let at = (node, rt.full);
    let mut any = false;
    for (k, &p) in pieces.iter().enumerate() {
        if k > 0 && p == pieces[k - 1] {
            continue;
        }
        if k == moved {
            // Ahead of both squares the first step changed: the parent's occupancy holds.
            if let Some((d, c)) = sys.try_move(seat, p, w, true, occ) {
                any |= last_step(ctx, at, play, step(seat, k, p, d, w, c, StepKind::Move));
            }
            if sys.goes_round(p, w) {
                any |= last_round(ctx, at, occ, play, (k, p));
            }
            continue;
        }
        if p == NEST {
            if w == 5 {
                let c = if x == ENTRY || x2 == ENTRY {
                    fresh_entry(ctx, &pieces)
                } else {
                    rt.entry
                };
                if c != ILLEGAL {
                    let st = step(seat, k, p, ENTRY, 5, c, StepKind::Enter);
                    any |= last_step(ctx, at, play, st);
                }
            }
            continue;
        }
        if rt.round && sys.goes_round(p, w) {
            any |= fresh_last_round(ctx, at, play, (k, p));
            continue;
        }
        // The others keep their order: the parent's index of the node's `k`-th piece. (A
        // piece at home has no step.)
        let m = k - (k > moved) as usize;
        let r = m + (m >= idx) as usize;
        let (to, c) = if rt.hits((r, wi), p, (x, x2)) {
            fresh_step(ctx, &pieces, p, w)
        } else {
            (rt.to[r][wi], rt.captured[r][wi])
        };
        if c != ILLEGAL {
            let st = step(seat, k, p, to, w, c, StepKind::Move);
            if transposed(first, &st) {
                // (What the memo would answer: the position is listed.)
                any = true;
                continue;
            }
            any |= last_step(ctx, at, play, st);
        }
    }
    if !any {
        // The last value cannot be played: the play so far is complete.
        play_so_far(ctx, node, play);
    }
}

/// Going round (PAR-11, rare) in [`last_value`], on `occ`: the step, if legal.
#[cold]
#[inline(never)]
fn last_round(
    ctx: &mut Ctx,
    (node, full): (Plain, u64),
    occ: &Occ,
    play: &mut Play,
    (k, p): (usize, u8),
) -> bool {
    let w = node.left[0];
    match ctx.sys.try_move(ctx.seat, p, w, false, occ) {
        Some((d, c)) => {
            let st = step(ctx.seat, k, p, d, w, c, StepKind::Move);
            last_step(ctx, (node, full), play, st)
        }
        None => false,
    }
}

/// A piece other than the moved one that may go round (PAR-11, rare) in [`last_value`]: both
/// routes on the node's occupancy, built here.
#[cold]
#[inline(never)]
fn fresh_last_round(ctx: &mut Ctx, at: (Plain, u64), play: &mut Play, (k, p): (usize, u8)) -> bool {
    let w = at.0.left[0];
    let occ = &mover_occupancy(ctx, &at.0.pieces);
    let mut any = false;
    if let Some((d, c)) = ctx.sys.try_move(ctx.seat, p, w, true, occ) {
        any |= last_step(ctx, at, play, step(ctx.seat, k, p, d, w, c, StepKind::Move));
    }
    any | last_round(ctx, at, occ, play, (k, p))
}

/// A plain move `st` (not entering) by the positions it touches, `lo ..= hi` (one run: see
/// `span`), and its value; [`NO_RUN`] for any other step.
#[inline(always)]
fn first_run(st: &Step) -> (u8, u8, u8) {
    match span(st) {
        Some((lo, hi)) if st.kind == StepKind::Move => (lo, hi, st.value),
        _ => NO_RUN,
    }
}

/// No step for [`transposed`] (no value is larger).
const NO_RUN: (u8, u8, u8) = (0, 0, u8::MAX);

/// In the memoised search, whether the plain move `st` from a node reached from its parent by
/// the move `first` (as [`first_run`] gives it) leads to a node already searched: the parent
/// tried `st` before `first` (a larger value, or the same value from a lower square: the
/// order of `for_each_die_step`), and the two touch no common position, so the same two moves
/// in the other order reached it first. The memo would find it; this answers without its key.
/// (`st`'s positions lie in `from ..= to`, also going round past the branch square; one
/// wrapping on to the entry square is not tested.)
#[inline(always)]
fn transposed((lo, hi, u): (u8, u8, u8), st: &Step) -> bool {
    let (p, to, w) = (st.from, st.to, st.value);
    let before = w > u || (w == u && p < lo);
    before
        && st.kind == StepKind::Move
        && st.captured == 0
        && p < to
        && to != HOME
        && (hi < p || to < lo)
}

/// `record` for a plain position (key `key`, values `left` unplayed): no groups, no bonuses, no
/// expired blockade (the mover's blockades all have age zero), so only the values and pips
/// played count.
#[inline]
pub(super) fn record_plain(ctx: &mut Ctx, key: u64, left: [u8; 4], play: &Play) -> bool {
    record_scored(ctx, plain_score(ctx, left), key, play);
    true
}

/// The score `record` gives a plain position with values `left` unplayed.
#[inline(always)]
pub(super) fn plain_score(ctx: &Ctx, left: [u8; 4]) -> u64 {
    // Per dice play only the dice part is scored here (as `record` does).
    dice_score(ctx, &left) | u64::from(!ctx.per_dice)
}

/// A step from a plain node that captures or earns a bonus: the general search takes over from
/// the full state, or for a capture [`capture_step`] (out of line: the rarer case, kept out of
/// the plain loops' code).
#[cold]
#[inline(never)]
fn general_step(ctx: &mut Ctx, node: Plain, play: &mut Play, st: Step) -> bool {
    let s = node.state(ctx);
    if stays_plain_below(ctx, &st) {
        return capture_step(ctx, &s, play, st);
    }
    child(ctx, &s, play, st)
}

/// Whether the search below the die step `st` (which leaves the plain search) goes on as a
/// plain search from the state after it ([`capture_step`]): it captures, no bonus comes before
/// the dice are over, and the mover has no P-D groups.
#[inline(always)]
pub(super) fn stays_plain_below(ctx: &Ctx, st: &Step) -> bool {
    st.captured > 0
        && st.kind != StepKind::Bonus
        && !ctx.has_groups
        && ctx.sys.rules.bonus_order == BonusOrder::DiceFirst
}

/// `child` for a capturing die step from a plain node (the four-value search, or the first step
/// of two values; `ctx.prune` as `child` leaves it for `dfs`): the nodes below differ from the
/// state after the capture only in the mover's pieces and the values left, until a step
/// captures again, reaches home or the dice are over, so the search below goes on as a plain
/// search ([`ext_plain_dfs`]) from that state, which becomes the context's root for the
/// subtree. Its nodes are keyed as the general search keys them (`generic_key`), so that the
/// memo and the deduplication see the same positions.
///
/// No bonus step comes before the dice are over (`BonusOrder::DiceFirst`), so a node with
/// values left takes only die steps, as a plain node does; without P-D groups every node below
/// the root continues (a node with no step is a complete play, or plays its bonus), so a node
/// is marked visited in the memo before its search, in one probe.
#[inline(never)]
pub(super) fn capture_step(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play, st: Step) -> bool {
    child_then(ctx, s, play, st, true)
}

/// `dfs` at a node below a capture ([`capture_step`]): values left, the context's root the
/// state after the capture (with its pending bonus), the mover's pieces and values `node`. The
/// steps in `for_each_die_step`'s order, with `dfs`'s transposition pruning (the node below a
/// first step of two values); a step that leaves the plain search goes on as from a plain node.
pub(super) fn ext_plain_dfs(ctx: &mut Ctx, node: Plain, play: &mut Play) -> bool {
    let pieces = node.pieces;
    // The transposition pruning of `dfs` (set by the first step of two values).
    let prune = std::mem::take(&mut ctx.prune);
    let occ = mover_occupancy(ctx, &pieces);
    let same = |i: usize| i > 0 && pieces[i] == pieces[i - 1];
    let mut any = false;
    for_each_die_step(
        ctx,
        &pieces,
        &node.left,
        &occ,
        same,
        #[inline(always)]
        |ctx, vi, st, route| {
            any |= pruned_step(ctx, vi, st, route, prune, false, |ctx, st| {
                if ctx.leaves_plain(&st) {
                    general_step(ctx, node, play, st)
                } else {
                    ext_child(ctx, node, play, st)
                }
            });
            true
        },
    );
    if !any {
        // No die step: the bonuses (or the play as it stands), as `dfs` plays them.
        let s = node.state(ctx);
        return dfs(ctx, &s, play, false);
    }
    any
}

/// `child` for a plain step below a capture (see [`ext_plain_dfs`]): the node is keyed as
/// `generic_key` keys its full state, and marked visited before its search (it always continues,
/// as a plain node does: no P-D groups, and no bonus before the dice are over).
fn ext_child(ctx: &mut Ctx, node: Plain, play: &mut Play, st: Step) -> bool {
    let (left, code) = node.used(&st);
    if ctx.memoise {
        // `generic_key_with` of the root with values `left`: only its last part is hashed here.
        let key = combine_key(hash_tail(ctx.ext_pieces_hash, &ctx.root, left), code);
        if !ctx.memo.insert_new(key) {
            return true;
        }
    }
    let t = node.after(&st, (left, code));
    play.push(st);
    if t.left[0] == 0 {
        let s = t.state(ctx);
        dfs_below(ctx, &s, play);
    } else {
        ext_plain_dfs(ctx, t, play);
    }
    play.pop();
    true
}

/// A node of the plain search from a root whose mover has P-D groups (doubles: `two_dice` takes
/// two different values): the mover's pieces with their group marks, sorted by (position,
/// group) as the full state sorts them, and the values left. Everything else is the root's, as
/// for [`Plain`].
#[derive(Copy, Clone)]
pub(super) struct Grouped {
    pieces: [u8; PIECES],
    groups: [u8; PIECES],
    left: [u8; 4],
}

impl Grouped {
    pub(super) fn new(s: &ParcheesiState, seat: usize) -> Grouped {
        Grouped {
            pieces: s.pieces[seat],
            groups: s.groups,
            left: s.left,
        }
    }

    /// The full state this node stands for (what `dfs` would hold there).
    #[inline]
    fn state(&self, ctx: &Ctx) -> ParcheesiState {
        let mut s = ctx.root;
        s.pieces[ctx.seat] = self.pieces;
        s.groups = self.groups;
        s.left = self.left;
        s
    }

    /// The node after the plain step `st` (`apply_plain_move` with groups: the piece moved,
    /// then the pieces sorted by (position, group) as `sort_seat` sorts them; no ages here).
    #[inline(always)]
    fn after(&self, st: &Step) -> Grouped {
        let mut t = *self;
        if !remove_value(&mut t.left, st.value) && st.kind == StepKind::Enter {
            remove_pair(&mut t.left, st.value);
        }
        t.pieces[st.piece as usize & 3] = st.to;
        sort_pieces(&mut t.pieces, &mut t.groups, &mut [0; PIECES]);
        t
    }

    /// The memo key of this node: the root's state with these pieces, groups and values differs
    /// from another such node only in them (tagged as a plain key: never a general key).
    #[inline]
    fn key(&self) -> u64 {
        let h = mix(
            mix(0, pack(self.pieces, self.groups)),
            u32::from_le_bytes(self.left) as u64,
        );
        (h ^ (h >> 29)) | PLAIN_TAG
    }
}

/// `dfs` for a [`Grouped`] node: the same steps in the same order, each complete play recorded
/// by `record` from the full state (which applies P-D), a step that leaves the plain search
/// handed to `child`; the nodes between are walked without building full states or their keys.
pub(super) fn grouped_dfs(ctx: &mut Ctx, node: Grouped, play: &mut Play, root: bool) -> bool {
    let pieces = node.pieces;
    let groups = node.groups;
    let occ = mover_occupancy(ctx, &pieces);
    let same = |i: usize| i > 0 && pieces[i] == pieces[i - 1] && groups[i] == groups[i - 1];
    let distinct = ctx.distinct;
    let mut any = false;
    for_each_die_step(
        ctx,
        &pieces,
        &node.left,
        &occ,
        |i| distinct && same(i),
        #[inline(always)]
        |ctx, _vi, st, _route| {
            any |= grouped_child(ctx, node, play, st);
            true
        },
    );
    if !any && !root {
        let s = node.state(ctx);
        any = record(ctx, &s, play);
    }
    any
}

/// `child` for a step from a [`Grouped`] node.
#[inline(always)]
fn grouped_child(ctx: &mut Ctx, node: Grouped, play: &mut Play, st: Step) -> bool {
    if ctx.leaves_plain(&st) {
        return grouped_general_step(ctx, node, play, st);
    }
    let t = node.after(&st);
    let key = if ctx.memoise { t.key() } else { 0 };
    if ctx.memoise
        && let Some(known) = ctx.memo.get(key)
    {
        return known;
    }
    if play.len() >= crate::play::MAX_STEPS {
        return false;
    }
    play.push(st);
    let r = if t.left[0] == 0 {
        let s = t.state(ctx);
        record(ctx, &s, play)
    } else {
        grouped_dfs(ctx, t, play, false)
    };
    play.pop();
    if ctx.memoise {
        ctx.memo.insert(key, r);
    }
    r
}

/// A step from a [`Grouped`] node that captures or earns a bonus: the general search takes over
/// from the full state (out of line: rare).
#[cold]
#[inline(never)]
fn grouped_general_step(ctx: &mut Ctx, node: Grouped, play: &mut Play, st: Step) -> bool {
    let s = node.state(ctx);
    child(ctx, &s, play, st)
}
