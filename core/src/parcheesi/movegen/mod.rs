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
//! # Layout: one module per search path
//! Each step rule is written once, here: where a piece lands (`landing`, `try_move`, `pos_after`),
//! which die steps exist (`for_each_die_step`, entering with a five or a sum of five), the search
//! context (`Ctx`) and the entry points. The paths that use them list the same plays:
//! - [`general`] — the *general search* (`dfs`/`child`) over full states: every rule; the others
//!   hand a node to it as soon as their precondition fails. A node below the root with no value
//!   left and one bonus to play is searched by `last_bonus`: those bonus steps alone, without the
//!   set-up for die steps, each final one (no capture, no home) recorded with a key derived from
//!   its parent's, without building the child state;
//! - [`plain`] — the *plain search* (`plain_dfs`, [`Plain`]): until a step captures or earns a
//!   bonus, a node differs from the root only in the mover's pieces and the values left, so it is
//!   walked as that small value with an incremental position key; in the memoised search
//!   (doubles with four values) `two_left` and `last_value` unroll its last two levels as
//!   `two_dice` does, each last step recorded at once with one memo probe, a node below
//!   `two_left` reading its steps from its parent's table unless the step between moved a piece
//!   on a square they pass or land on, and a last step whose transposed order was listed first
//!   passed over without a probe. Below a
//!   capturing die step (`capture_step`) the walk goes on from the state after the capture as
//!   its root, with the general search's keys, until the dice are over. From a root with P-D
//!   groups and doubles, `grouped_dfs` walks the same nodes with the group marks added to the
//!   small value (sorted as the full state sorts them) and a memo key of pieces, marks and
//!   values; each complete play is recorded from the full state by `record`, which applies P-D,
//!   and the search's memo keeps each node's result (a node may not continue there);
//! - [`two_dice`](mod@two_dice) — the plain search unrolled for a roll of two values (most rolls), also from a
//!   root with P-D groups when the values differ: no plain step can then break P-D, and the
//!   groups are carried to the general search (without transposition pruning, as `dfs`). Two
//!   steps that each move along one run of position numbers are independent exactly when the
//!   runs do not overlap (a seat's positions are on distinct slots), which the pruning then
//!   tests without building the squares passed. A second step takes the root's result for its
//!   piece and value where the first step moved no piece on a square it passes or lands on;
//! - [`record`](mod@record) — complete plays, their scores and the obligations, one key per listed play.
//!   A plain play's key is looked up among the listed ones as it is recorded (up to
//!   `EARLY_DEDUP_MAX` of them), or, in the memoised search, not at all: there it is the memo key
//!   of the node it ends at, which the search enters once. So the final deduplication looks only
//!   at the keys of the general search's plays (and at all keys when the early lookup was
//!   skipped), and the per-dice-part bonus filter returns at once when every play of the general
//!   search has one bonus score and one blockade-limit flag (the usual case: nothing to drop),
//!   else finds each dice part's best bonus score in a small hash table keyed by the part;
//! - [`keys`] — position keys and the memo;
//! - [`next`] — not a generator: the legal next steps of a play under way for the `step` encoding
//!   of `crate::rl`, by a depth-first search with early exit per candidate step against what a
//!   legal play of the roll achieves (guessed, or from the distinct search), walking the steps
//!   through the same `for_each_die_step` and bonus rules.
//!
//! Each module's doc states its precondition. Rare paths inside the hot step loops (a step that
//! leaves the plain search, a play that cannot use its last value, the sum-of-five entries, a
//! first step from a root with P-D groups) are small `#[cold]` functions: kept out of line, they
//! leave the loops' code smaller (measured: fewer instructions per roll; the same steps in the
//! same order).
//!
//! Position keys (`generic_key`, `Plain::key`) are 64-bit hashes: a state's key is a hash of
//! everything but the mover's pieces combined with the sum of per-square codes of those pieces.
//! Two distinct positions of one roll sharing a key is a 2^-64 event per pair.

mod general;
mod keys;
mod next;
mod plain;
mod record;
mod two_dice;

use super::{
    BRANCH, BonusObligation, BonusOrder, ENTRY, HOME, HOME_PATH, LAP, LAP_END, NEST, Occ, PIECES,
    ParcheesiState, ParcheesiSystem, Phase, count_left, place_moved_piece, remove_pair,
    remove_value, sort_pieces, step,
};
use crate::board;
use crate::play::{MAX_STEPS, Play, PlayList, Step, StepKind};
use crate::system::Orders;
use general::*;
use keys::*;
pub(super) use next::next_steps;
use next::write_goal;
use plain::*;
use record::*;
use std::cell::RefCell;
use two_dice::*;

struct Scratch {
    memo: Memo,
    /// The positions kept by the final deduplication of many plays.
    listed: crate::dedup::KeySet<u64>,
    /// The key of each recorded play's resulting position (see `generic_key`, `Plain::key`).
    keys: Vec<u64>,
    /// Per recorded play with `bonus_obligation: "per-dice-play"`: (dice part key, bonus score,
    /// blockade-limit flag).
    dice_parts: Vec<(u64, u64, u64)>,
    /// The per-part best bonus table of `keep_best_bonuses_per_dice_part`.
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

/// Up to this many recorded plays, duplicates are found by a linear scan behind a bit filter
/// (measured: 12 -> 24 -> 48 took 2.0 M then 1.3 M instructions off `simulate parcheesi 300 1 1`).
const SMALL_DEDUP: usize = 48;

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
    #[inline(always)]
    fn landing(&self, seat: usize, pos: u8, entering: bool, occ: &Occ) -> Option<u8> {
        let bit = occ.bits[pos as usize];
        if occ.occupied & bit == 0 {
            // A free square (or home, which has no slot): the common case, inline.
            return Some(0);
        }
        self.landing_occupied(seat, pos, entering, occ, bit)
    }

    /// [`Self::landing`] on an occupied square (`bit`: its slot).
    #[inline(never)]
    fn landing_occupied(
        &self,
        seat: usize,
        pos: u8,
        entering: bool,
        occ: &Occ,
        bit: u128,
    ) -> Option<u8> {
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

    /// Every occupancy slot a legal move touches: where it starts (`p`), the squares it passes,
    /// its landing (`to`, where the move of `v` on its route ends).
    fn touched(&self, seat: usize, p: u8, to: u8, v: u8, home_route: bool) -> u128 {
        if p == NEST {
            return self.slot_bit(seat, ENTRY);
        }
        self.slot_bit(seat, p) | self.passed(seat, p, v, home_route) | self.slot_bit(seat, to)
    }

    /// Whether a legal move (as for [`Self::touched`]) touches a slot of `mask`: its start and
    /// landing are tested before the squares it passes are built.
    #[inline(always)]
    fn touches(&self, seat: usize, p: u8, to: u8, v: u8, home_route: bool, mask: u128) -> bool {
        if p == NEST {
            return mask & self.slot_bit(seat, ENTRY) != 0;
        }
        mask & (self.slot_bit(seat, p) | self.slot_bit(seat, to)) != 0
            || mask & self.passed(seat, p, v, home_route) != 0
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
    /// Below a capture ([`capture_step`]), in a memoised search: [`hash_pieces`] of the root
    /// with the mover's pieces cleared, the part of its nodes' keys they share.
    ext_pieces_hash: u64,
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
    with_scratch(|scratch| generate_with(scratch, sys, s, orders, out, None));
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
        generate_with(scratch, sys, s, orders, &mut list, None);
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
            listed: crate::dedup::KeySet::new(),
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

/// Whether the bonuses are maximised per dice part: `bonus_obligation: "per-dice-play"`, and
/// with passing (O-F: any of the dice may be given up, the bonuses they earn still have to be
/// played) whenever the dice come first.
fn per_dice_bonuses(sys: &ParcheesiSystem) -> bool {
    if sys.rules.pass_allowed {
        sys.rules.bonus_order == BonusOrder::DiceFirst
    } else {
        sys.rules.bonus_obligation == BonusObligation::PerDicePlay
    }
}

/// [`generate`] with the thread's scratch space.
#[inline(never)]
fn generate_with(
    scratch: &mut Scratch,
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    orders: Orders,
    out: &mut PlayList,
    goal: Option<&mut Vec<u64>>,
) {
    {
        scratch.memo.clear();
        scratch.keys.clear();
        scratch.dice_parts.clear();
        let seat = s.turn as usize & 3;
        let has_groups = s.groups != [0; PIECES];
        let distinct = orders == Orders::Distinct;
        let memoise = distinct && s.n_left() >= 3;
        let per_dice = per_dice_bonuses(sys);
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
            ext_pieces_hash: 0,
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
        // groups for the general search. Other rolls from a root with groups (doubles) take the
        // plain search carrying the group marks (`grouped_dfs`), which leaves P-D to `record`.
        let two_values = distinct && s.n_left() == 2 && s.left[0] != s.left[1];
        let plain_state = s.ages[seat] == [0; PIECES]
            && !sys.rules.pass_allowed
            && s.pending_capture == 0
            && s.pending_home == 0
            && s.bonuses_played == 0;
        if plain_state && (!has_groups || two_values) {
            let root = Plain::new(s.pieces[seat], s.left);
            if distinct && s.n_left() == 2 {
                two_dice(&mut ctx, root, play);
            } else {
                plain_dfs(&mut ctx, root, play, true);
            }
        } else if plain_state {
            // (`has_groups` here: the branch above takes every other plain root.)
            grouped_dfs(&mut ctx, Grouped::new(s, seat), play, true);
        } else {
            dfs(&mut ctx, s, play, true);
        }
        if let Some(goal) = goal {
            // What a legal play achieves, for `next::next_steps` (before the final filtering
            // and deduplication, which change no score).
            write_goal(&ctx, goal);
            return;
        }
        if ctx.per_dice && ctx.general_listed {
            keep_best_bonuses_per_dice_part(&mut ctx);
        }
        let late = (ctx.per_dice && ctx.general_listed) || ctx.late_dedup;
        if ctx.dedup && late && ctx.out.len() > 1 {
            // Orders reaching one position (and states differing only in P-D group marks) are
            // one play.
            let listed = &mut scratch.listed;
            let keys = &mut *ctx.keys;
            // Few plays (the usual case): a linear scan of the kept ones beats hashing. Many: the
            // generators' one set of resulting positions.
            let small = ctx.out.len() <= SMALL_DEDUP;
            if !small {
                listed.clear();
            }
            // Unless some were listed past the early lookup, the plain plays' keys are unique
            // (looked up as they were listed, or memo keys) and no other kind equals them.
            let plain_unique = !ctx.late_dedup;
            let mut kept = 0;
            // One bit per key scanned so far ([`key_bit`]): a key whose bit is clear is not kept
            // yet, and needs no scan (the skipped plain keys equal none of them).
            let mut scanned_bits = 0u64;
            ctx.out.retain(|i| {
                let key = keys[i];
                let dup = if plain_unique && key & PLAIN_TAG != 0 {
                    false
                } else if small {
                    let bit = key_bit(key);
                    let seen = scanned_bits & bit != 0 && keys[..kept].contains(&key);
                    scanned_bits |= bit;
                    seen
                } else {
                    !listed.insert(key)
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
    if prune != 0
        && !ctx
            .sys
            .touches(ctx.seat, st.from, st.to, st.value, route, prune)
    {
        return true;
    }
    if prune_root && vi == 1 {
        ctx.prune = ctx.sys.touched(ctx.seat, st.from, st.to, st.value, route);
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
/// `visit` returns whether to go on (the search for next steps stops at a step that completes a
/// legal play; the generators always go on, which compiles to no test).
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
    mut visit: impl FnMut(&mut Ctx<'a>, usize, Step, bool) -> bool,
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
                    && !visit(
                        ctx,
                        vi,
                        step(seat, pi, p, ENTRY, 5, c, StepKind::Enter),
                        true,
                    )
                {
                    return;
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
                if !visit(ctx, vi, step(seat, pi, p, d, v, c, StepKind::Move), true) {
                    return;
                }
            }
            if sys.goes_round(p, v)
                && let Some((d, c)) = sys.try_move(seat, p, v, false, occ)
                && !visit(ctx, vi, step(seat, pi, p, d, v, c, StepKind::Move), false)
            {
                return;
            }
        }
    }
    if sys.rules.enter_with_sum && n >= 2 && sums_to_five(left) {
        sum_entries(ctx, pieces, occ, same, visit);
    }
}

/// Whether two of the values `left` sum to five, none of them being a five (PAR-2, O-B: 1 + 4
/// or 2 + 3), by a bit per value left (the zero padding sets bit 0, which no pair tests).
#[inline(always)]
fn sums_to_five(left: &[u8; 4]) -> bool {
    let m = left.iter().fold(0u32, |m, &v| m | 1 << (v & 31));
    m & 1 << 5 == 0 && (m & 0b1_0010 == 0b1_0010 || m & 0b1100 == 0b1100)
}

/// The entries with two values summing to five of [`for_each_die_step`] (out of line: rare, and
/// kept out of the search loops' code).
#[cold]
#[inline(never)]
fn sum_entries<'a>(
    ctx: &mut Ctx<'a>,
    pieces: &[u8; PIECES],
    occ: &Occ,
    same: impl Fn(usize) -> bool,
    mut visit: impl FnMut(&mut Ctx<'a>, usize, Step, bool) -> bool,
) {
    let sys = ctx.sys;
    let seat = ctx.seat;
    if let Some(c) = sys.landing(seat, ENTRY, true, occ) {
        for (pi, &p) in pieces.iter().enumerate() {
            if p == NEST
                && !same(pi)
                && !visit(
                    ctx,
                    SUM_ENTRY,
                    step(seat, pi, p, ENTRY, 5, c, StepKind::Enter),
                    true,
                )
            {
                return;
            }
        }
    }
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
