//! Whole-play enumeration (P-B, P-C, P-D, P-E, PAR-4, PAR-6, PAR-11, O-F).
//!
//! A depth-first search walks every sequence of steps: each remaining die value (or a pair summing
//! to five, for entering) by each piece, each route at the branch square, then the pending
//! bonuses. A node where nothing can follow is a complete play; a node whose every continuation
//! breaks P-D is complete too (the values it could not use are forfeited). Complete plays are
//! then maximised: most values, most pips, most bonuses, most bonus pips, and (with a blockade
//! turn limit) opening an expired blockade. For [`Orders::Distinct`] the search is memoised on
//! the (canonical) state, so every resulting position is reached once.

use super::{
    BRANCH, BonusOrder, ENTRY, HOME, LAP, LAP_BRANCH, NEST, NO_SLOT, PIECES, Phase, RaceState,
    RaceSystem, SLOTS,
};
use crate::board;
use crate::play::{Play, Step, StepKind};
use crate::system::Orders;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A small fast hasher for states (FxHash's mixing).
#[derive(Default)]
pub(super) struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        let mut v = 0u64;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            v |= (b as u64) << (8 * i);
        }
        self.add(v);
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type Fx = BuildHasherDefault<FxHasher>;

struct Scratch {
    memo: HashMap<RaceState, bool, Fx>,
    seen: HashSet<RaceState, Fx>,
    results: Vec<RaceState>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        memo: HashMap::with_capacity_and_hasher(256, Fx::default()),
        seen: HashSet::with_capacity_and_hasher(64, Fx::default()),
        results: Vec::with_capacity(64),
    });
}

/// A position no route reaches (overshooting home).
const NO_POS: u8 = u8::MAX;

/// Where a piece at `p` stands after `k` steps; `home_route` chooses the home path at a branch.
#[inline]
pub(super) fn pos_after(p: u8, k: u8, home_route: bool) -> u8 {
    let t = p as u16 + k as u16;
    if p <= BRANCH {
        if t <= BRANCH as u16 {
            t as u8
        } else if home_route {
            if t <= HOME as u16 { t as u8 } else { NO_POS }
        } else {
            // Past the branch on round: 65 -> 73.
            (t + (LAP - BRANCH - 1) as u16) as u8
        }
    } else if p < HOME {
        if t <= HOME as u16 { t as u8 } else { NO_POS }
    } else if p >= LAP {
        if t <= LAP_BRANCH as u16 {
            t as u8
        } else if home_route {
            let h = t - (LAP_BRANCH as u16 + 1) + 65;
            if h <= HOME as u16 { h as u8 } else { NO_POS }
        } else {
            (t - (LAP_BRANCH as u16 + 1) + LAP as u16) as u8
        }
    } else {
        NO_POS
    }
}

impl RaceSystem {
    /// Whether a piece may finish a step on `pos` (P-E, O-D, O-E); the pieces it captures.
    #[inline]
    fn landing(&self, seat: usize, pos: u8, entering: bool, occ: &[u16; SLOTS]) -> Option<u8> {
        let sl = self.slot_of(seat, pos);
        if sl == NO_SLOT {
            return Some(0);
        }
        let cell = occ[sl as usize];
        let own = (cell >> (4 * seat)) & 0xF;
        if own >= self.most_own() {
            return None;
        }
        let others = cell & !(0xF << (4 * seat));
        if others == 0 {
            return Some(0);
        }
        if self.rules.blockades && others & 0xEEEE != 0 {
            return None;
        }
        let safe = self.rules.safe_squares && (sl as usize) < 68 && board::is_safe(sl);
        if self.rules.capture {
            if safe && !(entering && self.rules.entry_capture) {
                return None;
            }
            let count =
                (others & 0xF) + ((others >> 4) & 0xF) + ((others >> 8) & 0xF) + (others >> 12);
            Some(count as u8)
        } else if safe && !entering {
            None
        } else {
            Some(0)
        }
    }

    /// A move of `v` squares from `p` along a route: its end and captures, if legal.
    #[inline]
    fn try_move(
        &self,
        seat: usize,
        p: u8,
        v: u8,
        home_route: bool,
        occ: &[u16; SLOTS],
    ) -> Option<(u8, u8)> {
        let d = pos_after(p, v, home_route);
        if d == NO_POS {
            return None;
        }
        if self.rules.blockades {
            for k in 1..v {
                let sl = self.slot_of(seat, pos_after(p, k, home_route));
                if sl != NO_SLOT && occ[sl as usize] & 0xEEEE != 0 {
                    return None;
                }
            }
        }
        let c = self.landing(seat, d, false, occ)?;
        Some((d, c))
    }

    /// The routes a move of `v` from `p` may take (two when it passes the branch square).
    #[inline]
    fn routes(&self, p: u8, v: u8) -> &'static [bool] {
        let crossing = (p <= BRANCH && p + v > BRANCH)
            || (p >= LAP && p as u16 + v as u16 > LAP_BRANCH as u16);
        if crossing && self.rules.go_round_again {
            &[true, false]
        } else {
            &[true]
        }
    }
}

struct Ctx<'a> {
    sys: &'a RaceSystem,
    seat: usize,
    distinct: bool,
    out: &'a mut Vec<Play>,
    base: usize,
    best: u64,
    start_values: u8,
    start_pips: u8,
    /// Start square of each P-D group (index = group number).
    group_square: [u8; 5],
    has_groups: bool,
    memo: &'a mut HashMap<RaceState, bool, Fx>,
    results: &'a mut Vec<RaceState>,
}

/// Lists the legal complete plays of `s` into `out`.
pub(super) fn generate(sys: &RaceSystem, s: &RaceState, orders: Orders, out: &mut Vec<Play>) {
    if s.phase != Phase::Decision {
        return;
    }
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let scratch = &mut *guard;
        scratch.memo.clear();
        scratch.results.clear();
        let seat = s.turn as usize & 3;
        let mut group_square = [0u8; 5];
        let mut has_groups = false;
        for i in 0..PIECES {
            let g = s.groups[i] as usize;
            if g != 0 && g < 5 {
                group_square[g] = s.pieces[seat][i];
                has_groups = true;
            }
        }
        let mut ctx = Ctx {
            sys,
            seat,
            distinct: orders == Orders::Distinct,
            base: out.len(),
            out,
            best: 0,
            start_values: s.n_left() as u8,
            start_pips: s.left.iter().sum(),
            group_square,
            has_groups,
            memo: &mut scratch.memo,
            results: &mut scratch.results,
        };
        let mut play = Play::new();
        dfs(&mut ctx, s, &mut play, true);
        if ctx.distinct && ctx.has_groups {
            // States differing only in P-D group marks are one position.
            let base = ctx.base;
            let seen = &mut scratch.seen;
            seen.clear();
            let mut keep = base;
            for i in base..ctx.out.len() {
                let mut r = ctx.results[i - base];
                r.groups = [0; PIECES];
                for k in 0..4 {
                    r.sort_seat(k, false);
                }
                if seen.insert(r) {
                    ctx.out[keep] = ctx.out[i];
                    keep += 1;
                }
            }
            ctx.out.truncate(keep);
        }
    });
}

fn dfs(ctx: &mut Ctx, s: &RaceState, play: &mut Play, root: bool) -> bool {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let occ = sys.occupancy(s);
    let mut any = false;
    let pieces = s.pieces[seat];
    let n = s.n_left();
    let same = |i: usize| {
        i > 0
            && pieces[i] == pieces[i - 1]
            && s.groups[i] == s.groups[i - 1]
            && s.ages[seat][i] == s.ages[seat][i - 1]
    };
    let mut die_steps = false;
    for vi in 0..n {
        let v = s.left[vi];
        if vi > 0 && s.left[vi - 1] == v {
            continue;
        }
        for (pi, &p) in pieces.iter().enumerate() {
            if ctx.distinct && same(pi) {
                continue;
            }
            if p == NEST {
                if v == 5
                    && let Some(c) = sys.landing(seat, ENTRY, true, &occ)
                {
                    die_steps = true;
                    any |= child(
                        ctx,
                        s,
                        play,
                        step(seat, pi, p, ENTRY, 5, c, StepKind::Enter),
                    );
                }
                continue;
            }
            if p == HOME {
                continue;
            }
            for &route in sys.routes(p, v) {
                if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
                    die_steps = true;
                    any |= child(ctx, s, play, step(seat, pi, p, d, v, c, StepKind::Move));
                }
            }
        }
    }
    // PAR-2 / O-B: two values summing to five enter a piece (both spent).
    if sys.rules.enter_with_sum && n >= 2 && !s.left[..n].contains(&5) {
        let mut pair = false;
        for i in 0..n {
            for j in i + 1..n {
                pair |= s.left[i] + s.left[j] == 5;
            }
        }
        if pair && let Some(c) = sys.landing(seat, ENTRY, true, &occ) {
            for (pi, &p) in pieces.iter().enumerate() {
                if p != NEST || (ctx.distinct && same(pi)) {
                    continue;
                }
                die_steps = true;
                any |= child(
                    ctx,
                    s,
                    play,
                    step(seat, pi, p, ENTRY, 5, c, StepKind::Enter),
                );
            }
        }
    }
    // PAR-6: bonuses once no die can (usefully) be played; or at any time with `BonusOrder::Any`.
    let bonus_time = sys.rules.bonus_order == BonusOrder::Any || !any || !die_steps;
    if bonus_time && (s.pending_capture > 0 || s.pending_home > 0) {
        let cb = sys.rules.capture_bonus;
        let hb = sys.rules.home_bonus;
        let mut values = [0u8; 2];
        if s.pending_capture > 0 {
            values[0] = cb;
        }
        if s.pending_home > 0 && hb != values[0] {
            values[1] = hb;
        }
        for &v in &values {
            if v == 0 {
                continue;
            }
            for (pi, &p) in pieces.iter().enumerate() {
                if p == NEST || p == HOME || (ctx.distinct && same(pi)) {
                    continue;
                }
                for &route in sys.routes(p, v) {
                    if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
                        any |= child(ctx, s, play, step(seat, pi, p, d, v, c, StepKind::Bonus));
                    }
                }
            }
        }
    }
    let passing = sys.rules.pass_allowed;
    if (passing || (!any && !root)) && record(ctx, s, play) {
        any = true;
    }
    any
}

#[inline]
fn step(
    seat: usize,
    piece: usize,
    from: u8,
    to: u8,
    value: u8,
    captured: u8,
    kind: StepKind,
) -> Step {
    Step {
        seat: seat as u8,
        piece: piece as u8,
        from,
        to,
        value,
        count: 1,
        captured,
        kind,
    }
}

fn child(ctx: &mut Ctx, s: &RaceState, play: &mut Play, st: Step) -> bool {
    let mut t = *s;
    ctx.sys.apply(&mut t, &st);
    if ctx.distinct
        && let Some(&known) = ctx.memo.get(&t)
    {
        return known;
    }
    if play.len() >= crate::play::MAX_STEPS {
        return false;
    }
    play.push(st);
    let r = dfs(ctx, &t, play, false);
    play.pop();
    if ctx.distinct {
        ctx.memo.insert(t, r);
    }
    r
}

/// Records a complete play if P-D allows it; keeps only the best score (P-C).
fn record(ctx: &mut Ctx, s: &RaceState, play: &Play) -> bool {
    let seat = ctx.seat;
    let p = s.pieces[seat];
    if ctx.has_groups {
        for i in 0..PIECES {
            let g = s.groups[i];
            if g == 0 || p[i] == HOME || p[i] == NEST || p[i] == ctx.group_square[g as usize] {
                continue;
            }
            for j in i + 1..PIECES {
                if s.groups[j] == g && p[j] == p[i] {
                    return false;
                }
            }
        }
    }
    let limit_ok = u64::from(!expired_blockade_stands(ctx.sys, s, seat));
    let score = if ctx.sys.rules.pass_allowed {
        limit_ok
    } else {
        let values = (ctx.start_values as usize - s.n_left()) as u64;
        let pips = (ctx.start_pips - s.left.iter().sum::<u8>()) as u64;
        values << 40
            | pips << 32
            | (s.bonuses_played as u64) << 24
            | (s.bonus_pips as u64) << 8
            | limit_ok
    };
    if score > ctx.best || ctx.out.len() == ctx.base {
        ctx.best = score;
        ctx.out.truncate(ctx.base);
        ctx.results.clear();
    }
    if score == ctx.best {
        ctx.out.push(*play);
        if ctx.has_groups && ctx.distinct {
            ctx.results.push(*s);
        }
    }
    true
}

/// Whether a blockade of the mover that reached `blockade_turn_limit` still stands unchanged.
fn expired_blockade_stands(sys: &RaceSystem, s: &RaceState, seat: usize) -> bool {
    let limit = sys.rules.blockade_turn_limit;
    if limit == 0 {
        return false;
    }
    let p = s.pieces[seat];
    let a = s.ages[seat];
    for i in 0..PIECES {
        if p[i] == NEST || p[i] == HOME || a[i] < limit {
            continue;
        }
        if (0..PIECES).any(|j| j != i && p[j] == p[i] && a[j] >= limit) {
            return true;
        }
    }
    false
}
