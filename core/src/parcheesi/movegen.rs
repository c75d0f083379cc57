//! Whole-play enumeration (P-B, P-C, P-D, P-E, PAR-4, PAR-6, PAR-11, O-F).
//!
//! A depth-first search walks every sequence of steps: each remaining die value (or a pair summing
//! to five, for entering) by each piece, each route at the branch square, then the pending
//! bonuses — after which no die follows (PAR-6; with `bonus_order: "any"` a bonus may come at any
//! time). A node where nothing can follow is a complete play; a node whose every continuation
//! breaks P-D is complete too (the values it could not use are forfeited). Complete plays are
//! then maximised: most values, most pips, most bonuses, most bonus pips, and (with a blockade
//! turn limit) opening an expired blockade. With `bonus_obligation: "per-dice-play"` (the
//! default) only the dice part (values, pips) is compared across plays; the bonuses are compared
//! within each dice part (the state before the first bonus step), then the blockade limit over
//! all.
//!
//! For [`Orders::Distinct`] the search is memoised on the (canonical) state, so every resulting
//! position is reached once; for two values the search instead skips the transposed order of
//! two moves that touch no common square, and drops a play whose resulting position is already
//! listed as it records it.
//!
//! # Checked against the reference
//! [`super::reference`] enumerates the same plays the slow way, from the rules text;
//! `core/tests/parcheesi_reference.rs` compares the two on random and synthetic positions, every roll,
//! under every option set. Any change here is checked there.
//!
//! # Speed
//! The rules live in `dfs`/`child`/`record` (the *general search*, over full states). Four
//! faster paths list the same plays:
//! - the *plain search* (`plain_dfs`, [`Plain`]): until a step captures or earns a bonus, a node
//!   differs from the root only in the mover's pieces and the values left, so it is walked as
//!   that small value with an incremental position key;
//! - `two_dice`: the plain search unrolled for a roll of two values (most rolls), also from a
//!   root with P-D groups when the values differ: no plain step can then break P-D, and the
//!   groups are carried to the general search (without transposition pruning, as `dfs`);
//! - `last_value`: the last level of the memoised plain search (doubles with four values)
//!   unrolled, each step recorded at once with one memo probe;
//! - the last bonus of a play (no capture, no home) is recorded with a key derived from its
//!   parent's, without building the child state.
//!
//! Position keys (`generic_key`, `Plain::key`) are 64-bit hashes: a state's key is a hash of
//! everything but the mover's pieces combined with the sum of per-square codes of those pieces.
//! Two distinct positions of one roll sharing a key is a 2^-64 event per pair.

use super::{
    BRANCH, BonusObligation, BonusOrder, ENTRY, HOME, HOME_PATH, LAP, LAP_END, NEST, Occ, PIECES,
    ParcheesiState, ParcheesiSystem, Phase, count_left, place_moved_piece, remove_pair,
    remove_value, step,
};
use crate::board;
use crate::play::{MAX_STEPS, Play, PlayList, Step, StepKind};
use crate::system::Orders;
use std::cell::RefCell;

/// FxHash's mixing step.
#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

#[inline]
fn pack(a: [u8; 4], b: [u8; 4]) -> u64 {
    u32::from_le_bytes(a) as u64 | (u32::from_le_bytes(b) as u64) << 32
}

/// A hash of every field of a state.
#[inline]
pub(super) fn hash_state(s: &ParcheesiState) -> u64 {
    let p = &s.pieces;
    let a = &s.ages;
    let mut h = mix(0, pack(p[0], p[1]));
    h = mix(h, pack(p[2], p[3]));
    h = mix(h, pack(a[0], a[1]));
    h = mix(h, pack(a[2], a[3]));
    h = mix(h, pack(s.groups, s.left));
    h = mix(
        h,
        pack(
            [s.dice[0], s.dice[1], s.turn, s.doubles],
            [
                s.pending_capture,
                s.pending_home,
                s.bonuses_played,
                s.phase as u8,
            ],
        ),
    );
    h = mix(h, s.bonus_pips as u64);
    h = (h ^ (h >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 29)
}

/// An open-addressing set of state hashes with a flag, cleared in O(1) by a generation stamp.
///
/// Only the 64-bit hash of a state is kept (16-byte entries stay in cache); two distinct states
/// of one roll sharing a hash is a 2^-64 event per pair.
struct Memo {
    /// (hash, stamp << 1 | flag)
    entries: Vec<(u64, u32)>,
    stamp: u32,
    len: usize,
}

impl Memo {
    fn new(capacity: usize) -> Memo {
        Memo {
            entries: vec![(0, 0); capacity],
            stamp: 1,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.stamp += 1;
        if self.stamp >= 1 << 30 {
            self.entries.fill((0, 0));
            self.stamp = 1;
        }
        self.len = 0;
    }

    #[inline]
    fn get(&self, hash: u64) -> Option<bool> {
        let mask = self.entries.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (h, tag) = self.entries[i];
            if tag >> 1 != self.stamp {
                return None;
            }
            if h == hash {
                return Some(tag & 1 != 0);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn insert(&mut self, hash: u64, known: bool) {
        if (self.len + 1) * 2 > self.entries.len() {
            self.grow();
        }
        let mask = self.entries.len() - 1;
        let mut i = hash as usize & mask;
        let tag = self.stamp << 1 | known as u32;
        loop {
            let e = &mut self.entries[i];
            if e.1 >> 1 != self.stamp {
                *e = (hash, tag);
                self.len += 1;
                return;
            }
            if e.0 == hash {
                e.1 = tag;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Inserts `hash` with the flag set unless present: whether it was absent (one probe where
    /// `get` then `insert` take two).
    #[inline]
    fn insert_new(&mut self, hash: u64) -> bool {
        if (self.len + 1) * 2 > self.entries.len() {
            self.grow();
        }
        let mask = self.entries.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let e = &mut self.entries[i];
            if e.1 >> 1 != self.stamp {
                *e = (hash, self.stamp << 1 | 1);
                self.len += 1;
                return true;
            }
            if e.0 == hash {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let stamp = self.stamp;
        let old: Vec<(u64, u32)> = self
            .entries
            .iter()
            .filter(|e| e.1 >> 1 == stamp)
            .copied()
            .collect();
        self.entries = vec![(0, 0); self.entries.len() * 2];
        self.len = 0;
        for (h, tag) in old {
            self.insert(h, tag & 1 != 0);
        }
    }
}

struct Scratch {
    memo: Memo,
    table: Vec<u32>,
    /// The key of each recorded play's resulting position (see `generic_key`, `Plain::key`).
    keys: Vec<u64>,
    /// Per recorded play with `bonus_obligation: "per-dice-play"`: (dice part key, bonus score,
    /// blockade-limit flag).
    dice_parts: Vec<(u64, u64, u64)>,
    /// (dice part key, bonus score) sorted, for `keep_best_bonuses_per_dice_part`.
    part_best: Vec<(u64, u64)>,
    /// The play being built (empty between searches; kept here to skip its initialisation).
    play: Play,
    /// Each seat's occupancy masks from the last generation (see [`SeatMasks`]).
    seat_masks: [SeatMasks; 4],
    /// The list [`generate`] fills before it copies the plays out as [`Play`]s.
    list: PlayList,
}

/// One seat's occupancy masks, kept between generations: from one roll to the next usually
/// only the last mover's pieces (and any it captured) changed. The masks depend only on the
/// seat's side of the board and its pieces, which key them.
#[derive(Copy, Clone, Default)]
struct SeatMasks {
    valid: bool,
    side: u8,
    pieces: [u8; PIECES],
    /// Slots the seat occupies.
    here: u128,
    /// Slots where it has two or more pieces.
    twice: u128,
}

/// The other seats' occupancy (slots, slots with two or more pieces of one seat).
fn others_occupancy(
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    mover: usize,
    cache: &mut [SeatMasks; 4],
) -> (u128, u128) {
    let mut others = (0u128, 0u128);
    for (seat, c) in cache.iter_mut().enumerate().take(sys.seats as usize) {
        if seat == mover {
            continue;
        }
        let side = sys.side[seat];
        let pieces = s.pieces[seat];
        if !(c.valid && c.side == side && c.pieces == pieces) {
            let (mut here, mut twice) = (0u128, 0u128);
            for &p in &pieces {
                let bit = sys.slot_bit(seat, p);
                twice |= here & bit;
                here |= bit;
            }
            *c = SeatMasks {
                valid: true,
                side,
                pieces,
                here,
                twice,
            };
        }
        others.0 |= c.here;
        others.1 |= c.twice;
    }
    others
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// Up to this many recorded plays, duplicates are found by a linear scan.
const SMALL_DEDUP: usize = 12;

/// A position no route reaches (overshooting home).
const NO_POS: u8 = u8::MAX;

/// Where a piece at `p` stands after `k` steps; `home_route` chooses the home path at a branch.
/// (A move is shorter than a lap: at most one branch square and one entry square lie ahead.)
#[inline]
pub(super) fn pos_after(p: u8, k: u8, home_route: bool) -> u8 {
    let t = p as u16 + k as u16;
    if p <= BRANCH {
        if t <= BRANCH as u16 {
            t as u8
        } else if home_route {
            if t <= HOME as u16 { t as u8 } else { NO_POS }
        } else {
            // Past the branch on round: 65 -> 73 ... 68 -> 76, then 69 -> 1 (the entry square).
            let past = t - BRANCH as u16;
            if past <= (LAP_END - BRANCH - 8) as u16 {
                (past + (LAP - 1) as u16) as u8
            } else {
                (past - (LAP_END - LAP + 1) as u16) as u8
            }
        }
    } else if p < HOME {
        if t <= HOME as u16 { t as u8 } else { NO_POS }
    } else if (LAP..=LAP_END).contains(&p) {
        // On to the entry square and the first-lap numbers (no branch square within reach).
        if t <= LAP_END as u16 {
            t as u8
        } else {
            (t - LAP_END as u16) as u8
        }
    } else {
        NO_POS
    }
}

impl ParcheesiSystem {
    /// Whether a piece may finish a step on `pos` (P-E, O-D, O-E); the pieces it captures.
    #[inline]
    fn landing(&self, seat: usize, pos: u8, entering: bool, occ: &Occ) -> Option<u8> {
        let bit = occ.bits[pos as usize];
        if occ.occupied & bit == 0 {
            // A free square (or home, which has no slot).
            return Some(0);
        }
        if occ.own & bit != 0 {
            if !self.rules.blockades {
                return None;
            }
            if occ.own_blocked & bit != 0 {
                let most = self.rules.max_pieces_per_square;
                if most <= 2 || self.count_own(seat, occ, self.slot_of(seat, pos)) >= most {
                    return None;
                }
            }
        }
        if occ.others & bit == 0 {
            return Some(0);
        }
        // `others_blocked` marks squares where one other seat has two or more pieces.
        if self.rules.blockades && occ.others_blocked & bit != 0 {
            return None;
        }
        let sl = self.slot_of(seat, pos);
        let safe = self.rules.safe_squares && (sl as usize) < 68 && board::is_safe(sl);
        if self.rules.capture {
            // With capture on a square never holds two seats: one opposing piece is there.
            if safe && !(entering && self.rules.entry_capture) {
                return None;
            }
            Some(1)
        } else if safe && !entering {
            None
        } else {
            Some(0)
        }
    }

    /// Own pieces on a slot (only needed when more than two may share one).
    fn count_own(&self, seat: usize, occ: &Occ, sl: u8) -> u8 {
        occ.mover
            .iter()
            .filter(|&&p| self.slot_of(seat, p) == sl)
            .count() as u8
    }

    /// A move of `v` squares from `p` along a route: its end and captures, if legal.
    #[inline(always)]
    fn try_move(&self, seat: usize, p: u8, v: u8, home_route: bool, occ: &Occ) -> Option<(u8, u8)> {
        let d = pos_after(p, v, home_route);
        if d == NO_POS {
            return None;
        }
        if occ.blocked != 0 && occ.blocked & self.passed(seat, p, v, home_route) != 0 {
            return None;
        }
        let c = self.landing(seat, d, false, occ)?;
        Some((d, c))
    }

    /// The occupancy slots of the squares a move of `v` from `p` passes (not its start or end).
    ///
    /// Track squares are consecutive slots (wrapping after square 67), and so are a home path's
    /// squares; going round past the branch square continues on consecutive track slots. So the
    /// passed squares are one track run, possibly followed by one home-path run.
    #[inline(never)]
    fn passed(&self, seat: usize, p: u8, v: u8, home_route: bool) -> u128 {
        if v <= 1 {
            return 0;
        }
        let inner = (v - 1) as usize;
        let start = self.slot_of(seat, p) as u32 + 1;
        if (HOME_PATH..HOME).contains(&p) {
            return run(inner) << start;
        }
        const TRACK: u128 = (1u128 << 68) - 1;
        let track_run = |len: usize| {
            let m = run(len) << start;
            (m & TRACK) | ((m >> 68) & TRACK)
        };
        let to_branch = TO_BRANCH[p as usize] as usize;
        if !home_route || inner <= to_branch {
            return track_run(inner);
        }
        let home_start = self.slot_of(seat, HOME_PATH) as u32;
        track_run(to_branch) | run(inner - to_branch) << home_start
    }

    /// Every occupancy slot a move touches: where it starts, the squares it passes, its landing.
    fn touched(&self, seat: usize, p: u8, v: u8, home_route: bool) -> u128 {
        if p == NEST {
            return self.slot_bit(seat, ENTRY);
        }
        let mut m = self.slot_bit(seat, p) | self.passed(seat, p, v, home_route);
        let q = pos_after(p, v, home_route);
        if q != NO_POS {
            m |= self.slot_bit(seat, q);
        }
        m
    }

    /// Whether a move of `v` from `p` may also go round past the branch square (PAR-11): a
    /// second route, after the home route (the search tries the home route first).
    #[inline(always)]
    fn goes_round(&self, p: u8, v: u8) -> bool {
        self.rules.go_round_again && v > TO_BRANCH[p as usize]
    }
}

/// `len` low bits set (a run of `len` squares from slot 0), from a table: a variable 128-bit
/// shift is several instructions.
#[inline(always)]
fn run(len: usize) -> u128 {
    RUNS[len & 127]
}

static RUNS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 1;
    while i < 128 {
        t[i] = (t[i - 1] << 1) | 1;
        i += 1;
    }
    t
};

/// Squares from a position to the branch square ahead of it (where the home route and going
/// round part: a move of more crosses it), or 255 where none lies ahead.
static TO_BRANCH: [u8; 256] = to_branch();

const fn to_branch() -> [u8; 256] {
    let mut t = [u8::MAX; 256];
    let mut p = 0;
    while p < 256 {
        if p <= BRANCH as usize {
            t[p] = BRANCH - p as u8;
        } else if p >= LAP as usize && p <= LAP_END as usize {
            // On to the entry square, then round to the branch square.
            t[p] = LAP_END - p as u8 + BRANCH;
        }
        p += 1;
    }
    t
}

struct Ctx<'a> {
    sys: &'a ParcheesiSystem,
    seat: usize,
    distinct: bool,
    /// Memoise the search on states (big trees: doubles with four values).
    memoise: bool,
    /// Deduplicate the recorded plays by resulting position at the end.
    dedup: bool,
    /// The plays listed so far (the list starts empty).
    out: &'a mut PlayList,
    best: u64,
    start_values: u8,
    start_pips: u8,
    /// Start square of each P-D group (index = group number).
    group_square: [u8; 5],
    has_groups: bool,
    memo: &'a mut Memo,
    keys: &'a mut Vec<u64>,
    /// The other seats' occupancy (others, others_blocked) at the node being searched: they
    /// change only by captures, so it is recomputed only after a capturing step.
    others: (u128, u128),
    /// Squares touched by the first step when it played the lower of two different dice (see
    /// `dfs`); 0 = no pruning.
    prune: u128,
    /// `bonus_obligation: "per-dice-play"` (and passing off): bonuses are maximised per dice part.
    per_dice: bool,
    /// The key (state hash) of the dice part of the play being searched, set when its first bonus
    /// step is taken.
    dice_key: u64,
    dice_parts: &'a mut Vec<(u64, u64, u64)>,
    part_best: &'a mut Vec<(u64, u64)>,
    /// The position searched (the plain search rebuilds full states from it).
    root: ParcheesiState,
    /// Whether reaching home is a plain step (no home bonus to play).
    plain_home: bool,
    /// Plays were listed past [`EARLY_DEDUP_MAX`] without the early lookup (see `push_best`).
    late_dedup: bool,
    /// One bit per listed play's key ([`key_bit`]): a key whose bit is clear is not listed, and
    /// needs no scan (a scan's data-dependent end was a frequently mispredicted branch).
    listed_bits: u64,
    /// Per dice play: a play of the general search (which may carry bonuses) is listed among the
    /// best; without one, every listed play is its own dice part with no bonus, and the final
    /// filtering and deduplication have nothing to do.
    general_listed: bool,
}

impl Ctx<'_> {
    /// Whether a step changes more than the mover's pieces (it captures, or earns a home
    /// bonus): the plain search hands it to the general search.
    #[inline(always)]
    fn leaves_plain(&self, st: &Step) -> bool {
        st.captured > 0 || (st.to == HOME && !self.plain_home)
    }
}

/// The bit of a position key in [`Ctx::listed_bits`].
#[inline(always)]
fn key_bit(key: u64) -> u64 {
    1 << ((key >> 40) & 63)
}

/// Lists the legal complete plays of `s` into `out` (cleared first).
pub(super) fn generate_list(
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    orders: Orders,
    out: &mut PlayList,
) {
    out.clear();
    if s.phase != Phase::Decision {
        return;
    }
    with_scratch(|scratch| generate_with(scratch, sys, s, orders, out));
}

/// Appends the legal complete plays of `s` to `out`.
pub(super) fn generate(
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    orders: Orders,
    out: &mut Vec<Play>,
) {
    if s.phase != Phase::Decision {
        return;
    }
    with_scratch(|scratch| {
        let mut list = std::mem::take(&mut scratch.list);
        list.clear();
        generate_with(scratch, sys, s, orders, &mut list);
        out.extend(list.iter().map(Play::from_steps));
        scratch.list = list;
    });
}

/// Runs `f` with the thread's scratch space.
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let scratch = guard.get_or_insert_with(|| Scratch {
            memo: Memo::new(1024),
            table: Vec::with_capacity(64),
            keys: Vec::with_capacity(64),
            dice_parts: Vec::new(),
            part_best: Vec::new(),
            play: Play::new(),
            seat_masks: [SeatMasks::default(); 4],
            list: PlayList::new(),
        });
        f(scratch)
    })
}

/// [`generate`] with the thread's scratch space.
#[inline(never)]
fn generate_with(
    scratch: &mut Scratch,
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    orders: Orders,
    out: &mut PlayList,
) {
    {
        scratch.memo.clear();
        scratch.keys.clear();
        scratch.dice_parts.clear();
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
        let distinct = orders == Orders::Distinct;
        let memoise = distinct && s.n_left() >= 3;
        let per_dice =
            sys.rules.bonus_obligation == BonusObligation::PerDicePlay && !sys.rules.pass_allowed;
        let mut ctx = Ctx {
            sys,
            seat,
            distinct,
            memoise,
            // Per dice part, one position may be reached after two dice parts, and two plays may
            // reach one position with different bonus counts.
            // With a blockade turn limit two states that differ only in blockade ages can be
            // one position once `end_play` has renewed the ages, which the memo cannot see.
            // With passing, plays that leave different values unplayed can leave one board.
            dedup: distinct
                && (has_groups
                    || !memoise
                    || per_dice
                    || sys.rules.blockade_turn_limit > 0
                    || sys.rules.pass_allowed),
            out,
            best: 0,
            start_values: s.n_left() as u8,
            start_pips: s.left.iter().sum(),
            group_square,
            has_groups,
            memo: &mut scratch.memo,
            keys: &mut scratch.keys,
            prune: 0,
            per_dice,
            dice_key: 0,
            dice_parts: &mut scratch.dice_parts,
            part_best: &mut scratch.part_best,
            others: others_occupancy(sys, s, seat, &mut scratch.seat_masks),
            root: *s,
            plain_home: sys.rules.home_bonus == 0,
            late_dedup: false,
            listed_bits: 0,
            general_listed: false,
        };
        let play = &mut scratch.play;
        // Empty unless a search was interrupted by a panic.
        while play.pop().is_some() {}
        // The plain search needs a root where only the mover's pieces and the values left will
        // change until a step captures or earns a bonus (see `plain_dfs`).
        // P-D groups only for two different values: no plain step can then break P-D (two
        // pieces leaving one square by different values end apart), and `two_dice` tracks the
        // groups for the general search.
        let two_values = distinct && s.n_left() == 2 && s.left[0] != s.left[1];
        let plain_root = (!has_groups || two_values)
            && s.ages[seat] == [0; PIECES]
            && !sys.rules.pass_allowed
            && s.pending_capture == 0
            && s.pending_home == 0
            && s.bonuses_played == 0;
        if plain_root {
            let root = Plain::new(s.pieces[seat], s.left);
            if distinct && s.n_left() == 2 {
                two_dice(&mut ctx, root, play);
            } else {
                plain_dfs(&mut ctx, root, play, true);
            }
        } else {
            dfs(&mut ctx, s, play, true);
        }
        if ctx.per_dice && ctx.general_listed {
            keep_best_bonuses_per_dice_part(&mut ctx);
        }
        let late = (ctx.per_dice && ctx.general_listed) || ctx.late_dedup;
        if ctx.dedup && late && ctx.out.len() > 1 {
            // Orders reaching one position (and states differing only in P-D group marks) are
            // one play.
            let table = &mut scratch.table;
            let keys = &mut *ctx.keys;
            let found = ctx.out.len();
            // Few plays (the usual case): a linear scan of the kept ones beats hashing. Many: an
            // open-addressing table of kept indices (+1; 0 = empty), at most half full.
            let small = found <= SMALL_DEDUP;
            let size = (found * 2).next_power_of_two().max(16);
            if !small {
                table.clear();
                table.resize(size, 0);
            }
            let mask = size - 1;
            let mut kept = 0;
            ctx.out.retain(|i| {
                let key = keys[i];
                let dup = if small {
                    keys[..kept].contains(&key)
                } else {
                    let mut slot = (key ^ key >> 32) as usize & mask;
                    loop {
                        let e = table[slot] as usize;
                        if e == 0 {
                            table[slot] = (kept + 1) as u32;
                            break false;
                        }
                        if keys[e - 1] == key {
                            break true;
                        }
                        slot = (slot + 1) & mask;
                    }
                };
                if !dup {
                    keys[kept] = key;
                    kept += 1;
                }
                !dup
            });
        }
    }
}

/// One die step under the transposition pruning of `dfs` (see there): skipped when `prune`
/// shows the transposed order was listed (a skipped step counts as a continuation that
/// completes), else searched by `descend`, with `ctx.prune` set for the node below when it plays
/// the lower of two values at a pruning root. Whether it continues the play.
#[inline(always)]
fn pruned_step(
    ctx: &mut Ctx,
    vi: usize,
    st: Step,
    route: bool,
    prune: u128,
    prune_root: bool,
    descend: impl FnOnce(&mut Ctx, Step) -> bool,
) -> bool {
    if vi == SUM_ENTRY {
        return descend(ctx, st);
    }
    let touched = if prune != 0 || (prune_root && vi == 1) {
        ctx.sys.touched(ctx.seat, st.from, st.value, route)
    } else {
        0
    };
    if prune != 0 && prune & touched == 0 {
        return true;
    }
    if prune_root && vi == 1 {
        ctx.prune = touched;
    }
    let continues = descend(ctx, st);
    ctx.prune = 0;
    continues
}

/// The value index [`for_each_die_step`] gives a sum-of-five entry (it spends two values).
const SUM_ENTRY: usize = usize::MAX;

/// Calls `visit(ctx, value index, step, route)` for every legal die step of the mover with
/// `pieces` and values `left` (descending, zero-padded), in search order: the values from high to
/// low (each distinct value once), for each the pieces from the lowest position up (`same(i)`:
/// piece `i` is interchangeable with the one before and is skipped), the home route before going
/// round; then the entries with two values summing to five (PAR-2, O-B; index [`SUM_ENTRY`]).
/// `dfs` and `plain_dfs` list their steps through this one loop, which keeps their orders
/// identical; `two_dice` keeps its own unrolled copy of it (through this closure interface the
/// most common roll measured ~10% slower), checked against the reference generator.
#[inline(always)]
fn for_each_die_step<'a>(
    ctx: &mut Ctx<'a>,
    pieces: &[u8; PIECES],
    left: &[u8; 4],
    occ: &Occ,
    same: impl Fn(usize) -> bool,
    mut visit: impl FnMut(&mut Ctx<'a>, usize, Step, bool),
) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let n = count_left(left);
    for vi in 0..n {
        let v = left[vi];
        if vi > 0 && left[vi - 1] == v {
            continue;
        }
        for (pi, &p) in pieces.iter().enumerate() {
            if same(pi) {
                continue;
            }
            if p == NEST {
                if v == 5
                    && let Some(c) = sys.landing(seat, ENTRY, true, occ)
                {
                    visit(
                        ctx,
                        vi,
                        step(seat, pi, p, ENTRY, 5, c, StepKind::Enter),
                        true,
                    );
                }
                continue;
            }
            if p == HOME {
                continue;
            }
            // The home route, then going round (`ParcheesiSystem::goes_round`), unrolled: the
            // `for route in [true, false]` form of `dfs` and `two_dice` measured +1.3%
            // instructions here, where `visit` is inlined.
            if let Some((d, c)) = sys.try_move(seat, p, v, true, occ) {
                visit(ctx, vi, step(seat, pi, p, d, v, c, StepKind::Move), true);
            }
            if sys.goes_round(p, v)
                && let Some((d, c)) = sys.try_move(seat, p, v, false, occ)
            {
                visit(ctx, vi, step(seat, pi, p, d, v, c, StepKind::Move), false);
            }
        }
    }
    if sys.rules.enter_with_sum && n >= 2 && !left[..n].contains(&5) {
        let mut pair = false;
        for i in 0..n {
            for j in i + 1..n {
                pair |= left[i] + left[j] == 5;
            }
        }
        if pair && let Some(c) = sys.landing(seat, ENTRY, true, occ) {
            for (pi, &p) in pieces.iter().enumerate() {
                if p == NEST && !same(pi) {
                    visit(
                        ctx,
                        SUM_ENTRY,
                        step(seat, pi, p, ENTRY, 5, c, StepKind::Enter),
                        true,
                    );
                }
            }
        }
    }
}

fn dfs(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play, root: bool) -> bool {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let mut any = false;
    let pieces = s.pieces[seat];
    let n = s.n_left();
    if n == 0 && s.pending_capture == 0 && s.pending_home == 0 {
        // Nothing left to play: a complete play (the common leaf, kept cheap).
        return (sys.rules.pass_allowed || !root) && record(ctx, s, play);
    }
    // Transposition pruning for two different dice (Distinct lists only): after the lower die
    // moved piece Y, the higher die moving another piece X whose path (departure, passed
    // squares, landing) shares no square with Y's gives the same position, by the same legal
    // steps, as X first and Y second, which the search has already listed: skip it.
    let prune = std::mem::take(&mut ctx.prune);
    // (Not with P-D groups: there a skipped continuation might be illegal, and the node's own
    // completeness depends on it.) A skipped step counts as a continuation that completes.
    let prune_root = root
        && ctx.distinct
        && !ctx.memoise
        && !ctx.has_groups
        && !sys.rules.pass_allowed
        && n == 2
        && s.left[0] != s.left[1];
    let occ = occupancy(ctx, s);
    let same = |i: usize| {
        i > 0
            && pieces[i] == pieces[i - 1]
            && s.groups[i] == s.groups[i - 1]
            && s.ages[seat][i] == s.ages[seat][i - 1]
    };
    let mut die_steps = false;
    let distinct = ctx.distinct;
    // PAR-6: once a bonus was taken the dice are over; a value still left is forfeited.
    let dice_over = sys.rules.bonus_order == BonusOrder::DiceFirst && s.bonuses_played > 0;
    if !dice_over {
        for_each_die_step(
            ctx,
            &pieces,
            &s.left,
            &occ,
            |i| distinct && same(i),
            #[inline(always)]
            |ctx, vi, st, route| {
                die_steps = true;
                any |= pruned_step(ctx, vi, st, route, prune, prune_root, |ctx, st| {
                    child(ctx, s, play, st)
                });
            },
        );
    }
    // PAR-6: bonuses once no die can (usefully) be played, after which no die follows; at any
    // time with `BonusOrder::Any`; with passing allowed the player may give up the dice left
    // and take a bonus at once (O-F).
    let bonus_time =
        sys.rules.bonus_order == BonusOrder::Any || sys.rules.pass_allowed || !any || !die_steps;
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
        // The last bonus after the dice (the usual case): a bonus step that neither captures nor
        // earns a home bonus ends the play, and its position differs from `s` only in the
        // mover's pieces, so it is recorded here with a key derived from `s`.
        let last_bonus = n == 0
            && !ctx.has_groups
            && sys.rules.blockade_turn_limit == 0
            && !sys.rules.pass_allowed
            && s.ages[seat] == [0; PIECES]
            && s.pending_capture as u16 + s.pending_home as u16 == 1;
        for &v in &values {
            if v == 0 {
                continue;
            }
            let leaf = if last_bonus {
                let mut after = *s;
                after.pending_capture = 0;
                after.pending_home = 0;
                after.bonuses_played += 1;
                after.bonus_pips += v as u16;
                after.pieces[seat] = [0; PIECES];
                let score = leaf_score(ctx, &after);
                if ctx.per_dice {
                    // Keyed as `record` keys a play per dice part: the roll's counters cleared.
                    (after.bonuses_played, after.bonus_pips) = (0, 0);
                    if s.bonuses_played == 0 {
                        ctx.dice_key = dice_part_key(s);
                    }
                }
                Some((score, hash_state(&after), pieces_code(&pieces)))
            } else {
                None
            };
            let earns_home = sys.rules.home_bonus > 0 && sys.rules.bonuses_chain;
            for (pi, &p) in pieces.iter().enumerate() {
                if p == NEST || p == HOME || (ctx.distinct && same(pi)) {
                    continue;
                }
                for route in [true, false] {
                    if !route && !sys.goes_round(p, v) {
                        break;
                    }
                    if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
                        if let Some((score, rest, code)) = leaf
                            && c == 0
                            && !(d == HOME && earns_home)
                            && play.len() < MAX_STEPS
                        {
                            let code = moved_code(code, p, d);
                            let key = combine_key(rest, code);
                            let st = step(seat, pi, p, d, v, 0, StepKind::Bonus);
                            any = true;
                            // The same memo entry `child` would use for this position. (Per dice
                            // play one position may end two dice parts, each listed: no memo.)
                            if ctx.memoise && !ctx.per_dice {
                                if ctx.memo.get(key).is_some() {
                                    continue;
                                }
                                ctx.memo.insert(key, true);
                            }
                            let bonus = bonus_score(s.bonuses_played + 1, s.bonus_pips + v as u16);
                            record_scored_then(ctx, score, key, play, st, (ctx.dice_key, bonus, 1));
                            continue;
                        }
                        if ctx.per_dice && s.bonuses_played == 0 {
                            // The first bonus: `s` is the position the dice part led to.
                            ctx.dice_key = dice_part_key(s);
                        }
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

/// The occupancy of `s`: the mover's own recomputed, the others' kept in the context (updated
/// by `child` after a capturing step).
#[inline]
fn occupancy<'a>(ctx: &Ctx<'a>, s: &ParcheesiState) -> Occ<'a> {
    mover_occupancy(ctx, &s.pieces[ctx.seat])
}

/// The occupancy with the mover's pieces at `pieces`, the others' from the context.
#[inline]
fn mover_occupancy<'a>(ctx: &Ctx<'a>, pieces: &[u8; PIECES]) -> Occ<'a> {
    let bits = ctx.sys.slot_bits(ctx.seat);
    let (mut here, mut twice) = (0u128, 0u128);
    for &p in pieces {
        let bit = bits[p as usize];
        twice |= here & bit;
        here |= bit;
    }
    Occ::new(
        bits,
        (here, twice),
        ctx.others,
        *pieces,
        ctx.sys.rules.blockades,
    )
}

fn child(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play, st: Step) -> bool {
    let mut t = *s;
    if st.kind != StepKind::Bonus && st.captured == 0 && st.to != HOME {
        let enter = st.kind == StepKind::Enter;
        t.apply_plain_move(
            st.seat as usize & 3,
            st.piece as usize & 3,
            st.to,
            st.value,
            enter,
        );
    } else {
        ctx.sys.apply(&mut t, &st);
    }
    let mut hash = if ctx.memoise {
        generic_key(&t, ctx.seat)
    } else {
        0
    };
    if ctx.per_dice && ctx.memoise && t.bonuses_played > 0 {
        // One position reached by bonuses after two different dice parts is searched for each:
        // the bonuses are maximised per dice part.
        hash = mix(hash, ctx.dice_key) & !PLAIN_TAG;
    }
    if ctx.memoise
        && let Some(known) = ctx.memo.get(hash)
    {
        return known;
    }
    if play.len() >= crate::play::MAX_STEPS {
        return false;
    }
    let others_before = ctx.others;
    if st.captured > 0 {
        // Every opposing piece on the landing square went back to its nest.
        let gone = !ctx.sys.slot_bit(ctx.seat, st.to);
        ctx.others = (ctx.others.0 & gone, ctx.others.1 & gone);
    }
    play.push(st);
    // The common leaf (nothing left to play) without the call into the search.
    let r = if t.left[0] == 0 && t.pending_capture == 0 && t.pending_home == 0 {
        record(ctx, &t, play)
    } else {
        dfs(ctx, &t, play, false)
    };
    play.pop();
    ctx.others = others_before;
    if ctx.memoise {
        ctx.memo.insert(hash, r);
    }
    r
}

/// Records a complete play if P-D allows it; keeps only the best score (P-C).
#[inline]
fn record(ctx: &mut Ctx, s: &ParcheesiState, play: &Play) -> bool {
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
    } else if ctx.per_dice {
        // Only the dice part here; the bonuses are compared within each dice part at the end.
        dice_score(ctx, &s.left)
    } else {
        dice_score(ctx, &s.left) | bonus_score(s.bonuses_played, s.bonus_pips) | limit_ok
    };
    if among_best(ctx, score) {
        let key = if !ctx.dedup {
            0
        } else if !ctx.has_groups
            && !ctx.per_dice
            && ctx.sys.rules.blockade_turn_limit == 0
            && !ctx.sys.rules.pass_allowed
        {
            generic_key(s, ctx.seat)
        } else {
            // The position as `end_play` leaves it: plays that differ only in P-D group marks or
            // in blockade ages that the end of the play renews reach one position.
            let mut r = *s;
            if ctx.sys.rules.blockade_turn_limit > 0 {
                ctx.sys.update_ages(&mut r, ctx.seat);
            }
            if ctx.has_groups || ctx.sys.rules.blockade_turn_limit > 0 {
                r.groups = [0; PIECES];
                for k in 0..4 {
                    r.sort_seat(k, false);
                }
            }
            if ctx.per_dice || ctx.sys.rules.pass_allowed {
                // The roll's values and bonus counters end with the play.
                (r.pending_capture, r.pending_home) = (0, 0);
                (r.bonuses_played, r.bonus_pips) = (0, 0);
                r.left = [0; 4];
            }
            generic_key(&r, ctx.seat)
        };
        let part = if !ctx.per_dice {
            NO_PART
        } else if s.bonuses_played == 0 {
            (dice_part_key(s), 0, limit_ok)
        } else {
            let bonus = bonus_score(s.bonuses_played, s.bonus_pips);
            (ctx.dice_key, bonus, limit_ok)
        };
        push_best(ctx, key, play, part);
    }
    true
}

/// The score `record` gives a complete play ending in `s` (no pass, no per-dice-part bonuses,
/// the mover's blockades all of age zero).
#[inline]
fn leaf_score(ctx: &Ctx, s: &ParcheesiState) -> u64 {
    if ctx.per_dice {
        // The dice part only, as `record` scores it.
        return dice_score(ctx, &s.left);
    }
    dice_score(ctx, &s.left) | bonus_score(s.bonuses_played, s.bonus_pips) | 1
}

/// The dice part of a play's score (P-C: the most values, then the most pips), values `left`
/// unplayed.
#[inline(always)]
fn dice_score(ctx: &Ctx, left: &[u8; 4]) -> u64 {
    let values = (ctx.start_values as usize - count_left(left)) as u64;
    let pips = (ctx.start_pips - left.iter().sum::<u8>()) as u64;
    values << 40 | pips << 32
}

/// The bonus part of a play's score (P-C: the most bonuses, then the most bonus pips).
#[inline(always)]
fn bonus_score(bonuses: u8, pips: u16) -> u64 {
    (bonuses as u64) << 24 | (pips as u64) << 8
}

/// P-C: whether a complete play of `score` is among the best so far; a better score first drops
/// every play listed before it (with the keys and dice parts kept alongside).
#[inline(always)]
fn among_best(ctx: &mut Ctx, score: u64) -> bool {
    if score > ctx.best || ctx.out.is_empty() {
        ctx.best = score;
        ctx.out.clear();
        ctx.keys.clear();
        ctx.listed_bits = 0;
        ctx.general_listed = false;
        ctx.dice_parts.clear();
    }
    score == ctx.best
}

/// Records a complete play with a known score and position key (P-C: only the best score).
#[inline]
/// A plain play (see [`Plain`]): it earned no bonus, so no play with a bonus shares its dice part
/// (that one captured or reached home); its own key names its part.
fn record_scored(ctx: &mut Ctx, score: u64, key: u64, play: &Play) {
    if among_best(ctx, score) {
        push_best(ctx, key, play, plain_part(key));
    }
}

/// The dice part of a plain play: its own, with no bonus and no expired blockade.
#[inline(always)]
fn plain_part(key: u64) -> DicePart {
    (key, 0, 1)
}

/// [`record_scored`] for the play `play` then `last` (appended only if the play is listed), with
/// its dice part.
#[inline(always)]
fn record_scored_then(
    ctx: &mut Ctx,
    score: u64,
    key: u64,
    play: &Play,
    last: Step,
    part: DicePart,
) {
    if among_best(ctx, score) && lists_key(ctx, key, part) {
        ctx.out.push_then(play.steps(), last);
    }
}

/// Per dice play, what [`keep_best_bonuses_per_dice_part`] needs of a listed play: its dice
/// part's key, its bonus score, and 1 unless an expired blockade stands at its end.
type DicePart = (u64, u64, u64);

/// The dice part of a play when bonuses are not maximised per dice part (not kept).
const NO_PART: DicePart = (0, 0, 0);

/// Up to this many listed plays, a new play's position is looked up among them as it is
/// recorded; past it, the rest is deduplicated at the end.
const EARLY_DEDUP_MAX: usize = 24;

/// Lists a play of the best score so far (`key`: its position's key when deduplicating). Without
/// per-dice-part bonuses a position already listed is skipped here, which keeps the first play
/// reaching it, as the final pass would, without copying the play first.
#[inline]
fn push_best(ctx: &mut Ctx, key: u64, play: &Play, part: DicePart) {
    if lists_key(ctx, key, part) {
        ctx.out.push(play.steps());
    }
}

/// The dedup bookkeeping of [`push_best`]: whether a play reaching the position `key` is to be
/// listed (its key then kept, and per dice play its dice part, alongside the listed plays).
#[inline(always)]
fn lists_key(ctx: &mut Ctx, key: u64, part: DicePart) -> bool {
    if ctx.dedup {
        // Per dice play, a play of the general search may yet be dropped for its bonuses, so its
        // position is looked up at the end; a plain play (no bonus, its own dice part) is kept.
        if !ctx.per_dice || key & PLAIN_TAG != 0 {
            if ctx.keys.len() <= EARLY_DEDUP_MAX {
                let bit = key_bit(key);
                if ctx.listed_bits & bit != 0 && ctx.keys.contains(&key) {
                    return false;
                }
                ctx.listed_bits |= bit;
            } else {
                ctx.late_dedup = true;
            }
        }
        ctx.keys.push(key);
    }
    if ctx.per_dice {
        ctx.dice_parts.push(part);
        ctx.general_listed |= part.0 & PLAIN_TAG == 0;
    }
    true
}

/// `bonus_obligation: "per-dice-play"`: among the plays kept for the dice (most values, most
/// pips), keeps for each dice part those that play the most bonuses, then the most bonus pips;
/// then, over all, those that open an expired blockade if any does.
fn keep_best_bonuses_per_dice_part(ctx: &mut Ctx) {
    let parts = &*ctx.dice_parts;
    // The best bonus score of each dice part that has a play with a bonus: sorted by key, the
    // best first. A part with no such play keeps all its plays (all score 0), and so does a plain
    // play (its own part).
    let best = &mut *ctx.part_best;
    best.clear();
    best.extend(parts.iter().filter(|p| p.1 > 0).map(|p| (p.0, p.1)));
    best.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let best_bonus = |key: u64| {
        let i = best.partition_point(|e| e.0 < key);
        best.get(i).filter(|e| e.0 == key).map_or(0, |e| e.1)
    };
    let keep_bonus = |i: usize| {
        let (key, bonus, _) = parts[i];
        key & PLAIN_TAG != 0 || best.is_empty() || bonus == best_bonus(key)
    };
    let best_limit = (0..parts.len())
        .filter(|&i| keep_bonus(i))
        .map(|i| parts[i].2)
        .max()
        .unwrap_or(0);
    let mut kept = 0;
    let keys = &mut *ctx.keys;
    let dedup = ctx.dedup;
    ctx.out.retain(|i| {
        let part = &parts[i];
        let keep = part.2 == best_limit && keep_bonus(i);
        if keep {
            if dedup {
                keys[kept] = keys[i];
            }
            kept += 1;
        }
        keep
    });
    if dedup {
        keys.truncate(kept);
    }
}

/// Whether a blockade of the mover that reached `blockade_turn_limit` still stands unchanged.
fn expired_blockade_stands(sys: &ParcheesiSystem, s: &ParcheesiState, seat: usize) -> bool {
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

/// The key of a dice part (the position the dice led to), per dice play: never tagged as a plain
/// play's key, which is its own dice part.
#[inline]
fn dice_part_key(s: &ParcheesiState) -> u64 {
    hash_state(s) & !PLAIN_TAG
}

/// Marks the keys of plain positions (see [`Plain::key`]); the keys of the general search have
/// this bit clear, so the two kinds never compare equal.
const PLAIN_TAG: u64 = 1 << 63;

/// The dedup and memo key of a state of the general search: a hash of everything but the
/// mover's pieces, combined with the sum of their codes (so that a leaf that differs from its
/// parent only in the mover's pieces gets its key from the parent's in two operations).
#[inline]
fn generic_key(s: &ParcheesiState, seat: usize) -> u64 {
    let mut rest = *s;
    rest.pieces[seat] = [0; PIECES];
    combine_key(hash_state(&rest), pieces_code(&s.pieces[seat]))
}

/// The sum of the codes of a set of pieces (see [`PIECE_CODES`]).
#[inline]
fn pieces_code(pieces: &[u8; PIECES]) -> u64 {
    pieces
        .iter()
        .fold(0u64, |c, &p| c.wrapping_add(PIECE_CODES[p as usize]))
}

/// A general-search key from the hash of the rest of the state and the mover's pieces' code.
#[inline]
fn combine_key(rest: u64, code: u64) -> u64 {
    let h = mix(rest, code);
    (h ^ (h >> 29)) & !PLAIN_TAG
}

/// The code of a set of pieces after one of them moved from `from` to `to`.
#[inline(always)]
fn moved_code(code: u64, from: u8, to: u8) -> u64 {
    code.wrapping_sub(PIECE_CODES[from as usize])
        .wrapping_add(PIECE_CODES[to as usize])
}

/// A random 64-bit code per position: the key of a set of pieces is the (wrapping) sum of its
/// pieces' codes, whatever their order, so a step updates it in two operations.
static PIECE_CODES: [u64; 256] = piece_codes();

const fn piece_codes() -> [u64; 256] {
    let mut codes = [0u64; 256];
    let mut z: u64 = 0x2545_F491_4F6C_DD1D;
    let mut i = 0;
    while i < 256 {
        // SplitMix64.
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = z;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        codes[i] = x ^ (x >> 31);
        i += 1;
    }
    codes
}

/// A node of the plain search: what differs from the root position when every step so far moved
/// one of the mover's pieces without capturing or earning a bonus (the common case by far).
///
/// Such a node is the root with these pieces and values left: its ages, groups, bonus counters
/// and the other seats are the root's. The plain search walks these nodes as this small value
/// instead of a full state, and hands a step that captures or earns a bonus to the general
/// search (`child`) with the full state rebuilt. It lists the same plays in the same order as
/// `dfs` would from the same root.
#[derive(Copy, Clone)]
struct Plain {
    /// The mover's pieces, ascending.
    pieces: [u8; PIECES],
    /// Values of the roll still to play, descending, zero-padded.
    left: [u8; 4],
    /// The sum of the pieces' codes ([`PIECE_CODES`]).
    code: u64,
}

impl Plain {
    fn new(pieces: [u8; PIECES], left: [u8; 4]) -> Plain {
        let code = pieces_code(&pieces);
        Plain { pieces, left, code }
    }

    /// The key of the position with pieces coded `code` and values `left` (a plain position
    /// differs from another of the same roll only in these two).
    #[inline]
    fn key(code: u64, left: [u8; 4]) -> u64 {
        (code ^ (u32::from_le_bytes(left) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | PLAIN_TAG
    }

    /// The full state this node stands for.
    #[inline]
    fn state(&self, ctx: &Ctx) -> ParcheesiState {
        let mut s = ctx.root;
        s.pieces[ctx.seat] = self.pieces;
        s.left = self.left;
        s
    }
}

/// `dfs` for a plain node (see [`Plain`]); the root's mover has no P-D groups and no blockade
/// ages, nothing is pending, and passing is not allowed.
fn plain_dfs(ctx: &mut Ctx, node: Plain, play: &mut Play, root: bool) -> bool {
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
fn plain_child(ctx: &mut Ctx, node: Plain, play: &mut Play, st: Step) -> bool {
    if ctx.leaves_plain(&st) {
        // The step changes more than the mover's pieces: the general search takes over.
        let s = node.state(ctx);
        return child(ctx, &s, play, st);
    }
    let mut left = node.left;
    if !remove_value(&mut left, st.value) && st.kind == StepKind::Enter {
        remove_pair(&mut left, st.value);
    }
    let code = moved_code(node.code, st.from, st.to);
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
    let mut t = Plain {
        pieces: node.pieces,
        left,
        code,
    };
    t.pieces[st.piece as usize & 3] = st.to;
    place_moved_piece(&mut t.pieces, st.piece as usize & 3);
    play.push(st);
    let r = if left[0] == 0 {
        record_plain(ctx, key, left, play)
    } else if ctx.memoise && left[1] == 0 {
        last_value(ctx, t, play)
    } else {
        plain_dfs(ctx, t, play, false)
    };
    play.pop();
    r
}

/// `plain_dfs` at a non-root node with one value left in a memoised search (doubles with four
/// values), unrolled as `second_steps`: every step ends the play, so each is recorded at once,
/// its position looked up in the memo with one probe (the memo is where the memoised search
/// finds positions already listed). Steps in `for_each_die_step`'s order.
fn last_value(ctx: &mut Ctx, node: Plain, play: &mut Play) -> bool {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = node.pieces;
    let w = node.left[0];
    let occ = mover_occupancy(ctx, &pieces);
    let mut any = false;
    for (pi, &p) in pieces.iter().enumerate() {
        if pi > 0 && p == pieces[pi - 1] {
            continue;
        }
        if p == NEST {
            if w == 5
                && let Some(c) = sys.landing(seat, ENTRY, true, &occ)
            {
                let st = step(seat, pi, p, ENTRY, 5, c, StepKind::Enter);
                any |= last_step(ctx, node, play, st);
            }
            continue;
        }
        if p == HOME {
            continue;
        }
        if let Some((d, c)) = sys.try_move(seat, p, w, true, &occ) {
            any |= last_step(ctx, node, play, step(seat, pi, p, d, w, c, StepKind::Move));
        }
        if sys.goes_round(p, w)
            && let Some((d, c)) = sys.try_move(seat, p, w, false, &occ)
        {
            any |= last_step(ctx, node, play, step(seat, pi, p, d, w, c, StepKind::Move));
        }
    }
    if !any {
        // The last value cannot be played: the play so far is complete.
        record_plain(ctx, Plain::key(node.code, node.left), node.left, play);
    }
    true
}

/// One step of [`last_value`]: recorded unless its position is in the memo, or handed to the
/// general search; whether it continues the play (always, as in `plain_child`).
#[inline(always)]
fn last_step(ctx: &mut Ctx, node: Plain, play: &mut Play, st: Step) -> bool {
    if ctx.leaves_plain(&st) {
        let s = node.state(ctx);
        return child(ctx, &s, play, st);
    }
    let code = moved_code(node.code, st.from, st.to);
    let key = Plain::key(code, [0; 4]);
    if ctx.memo.insert_new(key) {
        record_scored_then(
            ctx,
            plain_score(ctx, [0; 4]),
            key,
            play,
            st,
            plain_part(key),
        );
    }
    true
}

/// `record` for a plain position (key `key`, values `left` unplayed): no groups, no bonuses, no
/// expired blockade (the mover's blockades all have age zero), so only the values and pips
/// played count.
#[inline]
fn record_plain(ctx: &mut Ctx, key: u64, left: [u8; 4], play: &Play) -> bool {
    record_scored(ctx, plain_score(ctx, left), key, play);
    true
}

/// The score `record` gives a plain position with values `left` unplayed.
#[inline(always)]
fn plain_score(ctx: &Ctx, left: [u8; 4]) -> u64 {
    // Per dice play only the dice part is scored here (as `record` does).
    dice_score(ctx, &left) | u64::from(!ctx.per_dice)
}

/// `plain_dfs` from a root with two values left ([`Orders::Distinct`]), unrolled: the common
/// roll by far. The first steps, then for each the second steps, in the order `plain_dfs` takes
/// them, with the same transposition pruning (for two different values).
fn two_dice(ctx: &mut Ctx, root: Plain, play: &mut Play) {
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
                        sys.touched(seat, p, v, true)
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
            for route in [true, false] {
                if !route && !sys.goes_round(p, v) {
                    break;
                }
                if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
                    let touched = if vi == 1 && prunes {
                        sys.touched(seat, p, v, route)
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

/// One first step of [`two_dice`] and everything that follows it.
#[inline]
fn first_step(ctx: &mut Ctx, root: Plain, play: &mut Play, first: Step, prune: u128) {
    if ctx.leaves_plain(&first) {
        let s = root.state(ctx);
        ctx.prune = prune;
        child(ctx, &s, play, first);
        ctx.prune = 0;
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
            // The pieces in the general search's order, (position, group), with their groups.
            let mut t = ctx.root;
            let enter = first.kind == StepKind::Enter;
            t.apply_plain_move(ctx.seat, idx, first.to, first.value, enter);
            node.pieces = t.pieces[ctx.seat];
            groups = t.groups;
        } else {
            node.pieces[idx] = first.to;
            place_moved_piece(&mut node.pieces, idx);
        }
        second_steps(ctx, node, groups, play, prune);
    }
    play.pop();
}

/// The second level of [`two_dice`]: one value left at `node`, whose pieces are in `groups`;
/// `prune` as in `dfs`.
#[inline]
fn second_steps(ctx: &mut Ctx, node: Plain, groups: [u8; PIECES], play: &mut Play, prune: u128) {
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
        record_plain(ctx, Plain::key(node.code, node.left), node.left, play);
    }
}

/// One second step of [`two_dice`] from `node` (with its pieces' groups): skipped by the pruning,
/// recorded, or handed to the general search; whether it continues the play (as `plain_child`
/// answers).
#[inline(always)]
fn second_step(
    ctx: &mut Ctx,
    (node, groups): (Plain, [u8; PIECES]),
    play: &mut Play,
    prune: u128,
    st: Step,
    route: bool,
) -> bool {
    if prune != 0 && prune & ctx.sys.touched(ctx.seat, st.from, st.value, route) == 0 {
        // The transposed order was listed from the other first step.
        return true;
    }
    if ctx.leaves_plain(&st) {
        let mut s = node.state(ctx);
        s.groups = groups;
        return child(ctx, &s, play, st);
    }
    let code = moved_code(node.code, st.from, st.to);
    let score = plain_score(ctx, [0; 4]);
    let key = Plain::key(code, [0; 4]);
    record_scored_then(ctx, score, key, play, st, plain_part(key));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pos_after` against the route rules spelled out case by case.
    #[test]
    fn pos_after_follows_the_routes() {
        // One square at a time along the route.
        fn reference(p: u8, k: u8, home_route: bool) -> u8 {
            let mut q = p;
            for _ in 0..k {
                q = match q {
                    HOME => return NO_POS,
                    BRANCH if home_route => HOME_PATH,
                    BRANCH => LAP,
                    LAP_END => ENTRY,
                    _ => q + 1,
                };
            }
            q
        }
        for p in 0..=LAP_END {
            for k in [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 20] {
                for home_route in [true, false] {
                    assert_eq!(
                        pos_after(p, k, home_route),
                        reference(p, k, home_route),
                        "{p} + {k}, home route {home_route}"
                    );
                }
            }
        }
    }
}
