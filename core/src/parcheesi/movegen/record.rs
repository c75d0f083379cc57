//! Recording complete plays and the obligations: the score of a play (values, pips, bonuses,
//! bonus pips; PAR-5, PAR-6, P-C), keeping only the best, the per-dice-play bonus filter
//! (`bonus_obligation: "per-dice-play"`), the blockade turn limit, and deduplication by resulting
//! position (one key per listed play).

use super::*;

/// Records a complete play if P-D allows it; keeps only the best score (P-C).
#[inline]
pub(super) fn record(ctx: &mut Ctx, s: &ParcheesiState, play: &Play) -> bool {
    if !pd_allows(ctx, s) {
        return false;
    }
    let seat = ctx.seat;
    let limit_ok = u64::from(!expired_blockade_stands(ctx.sys, s, seat));
    // Per dice part, only the dice here (nothing when passing, which may give up any die); the
    // bonuses are compared within each dice part at the end, then the blockade limit.
    let score = match (ctx.per_dice, ctx.sys.rules.pass_allowed) {
        (true, true) => 0,
        (true, false) => dice_score(ctx, &s.left),
        (false, true) => limit_ok,
        (false, false) => {
            dice_score(ctx, &s.left) | bonus_score(s.bonuses_played, s.bonus_pips) | limit_ok
        }
    };
    if among_best(ctx, score) {
        let key = if !ctx.dedup {
            0
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
            // The roll's values and bonuses not played end with the play; the bonuses played
            // too where the score does not count them here.
            (r.pending_capture, r.pending_home, r.left) = (0, 0, [0; 4]);
            if ctx.per_dice || ctx.sys.rules.pass_allowed {
                (r.bonuses_played, r.bonus_pips) = (0, 0);
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

/// P-D: whether a complete play ending in `s` leaves no blockade standing at the start of the
/// roll moved together onto one new square.
#[inline]
pub(super) fn pd_allows(ctx: &Ctx, s: &ParcheesiState) -> bool {
    if !ctx.has_groups {
        return true;
    }
    let p = s.pieces[ctx.seat];
    for i in 0..PIECES {
        let g = s.groups[i];
        // (A group's mark is the position its blockade stood on at the start of the roll.)
        if g == 0 || p[i] == HOME || p[i] == NEST || p[i] == g {
            continue;
        }
        for j in i + 1..PIECES {
            if s.groups[j] == g && p[j] == p[i] {
                return false;
            }
        }
    }
    true
}

/// The score `record` gives a complete play ending in `s` (no pass, no per-dice-part bonuses,
/// the mover's blockades all of age zero).
#[inline]
pub(super) fn leaf_score(ctx: &Ctx, s: &ParcheesiState) -> u64 {
    if ctx.per_dice {
        // The dice part only, as `record` scores it.
        return dice_score(ctx, &s.left);
    }
    dice_score(ctx, &s.left) | bonus_score(s.bonuses_played, s.bonus_pips) | 1
}

/// The dice part of a play's score (P-C: the most values, then the most pips), values `left`
/// unplayed.
#[inline(always)]
pub(super) fn dice_score(ctx: &Ctx, left: &[u8; 4]) -> u64 {
    let values = (ctx.start_values as usize - count_left(left)) as u64;
    let pips = (ctx.start_pips - left.iter().sum::<u8>()) as u64;
    values << 40 | pips << 32
}

/// The bonus part of a play's score (P-C: the most bonuses, then the most bonus pips).
#[inline(always)]
pub(super) fn bonus_score(bonuses: u8, pips: u16) -> u64 {
    (bonuses as u64) << 24 | (pips as u64) << 8
}

/// P-C: whether a complete play of `score` is among the best so far; a better score first drops
/// every play listed before it (with the keys and dice parts kept alongside).
#[inline(always)]
pub(super) fn among_best(ctx: &mut Ctx, score: u64) -> bool {
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
pub(super) fn record_scored(ctx: &mut Ctx, score: u64, key: u64, play: &Play) {
    if among_best(ctx, score) {
        push_best(ctx, key, play, plain_part(key));
    }
}

/// The dice part of a plain play: its own, with no bonus and no expired blockade.
#[inline(always)]
pub(super) fn plain_part(key: u64) -> DicePart {
    (key, 0, 1)
}

/// [`record_scored`] for the play `play` then `last` (appended only if the play is listed), with
/// its dice part.
#[inline(always)]
pub(super) fn record_scored_then(
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
pub(super) type DicePart = (u64, u64, u64);

/// The dice part of a play when bonuses are not maximised per dice part (not kept).
pub(super) const NO_PART: DicePart = (0, 0, 0);

/// Up to this many listed plays, a new play's position is looked up among them as it is
/// recorded; past it, the rest is deduplicated at the end.
pub(super) const EARLY_DEDUP_MAX: usize = 24;

/// Lists a play of the best score so far (`key`: its position's key when deduplicating). Without
/// per-dice-part bonuses a position already listed is skipped here, which keeps the first play
/// reaching it, as the final pass would, without copying the play first.
#[inline]
pub(super) fn push_best(ctx: &mut Ctx, key: u64, play: &Play, part: DicePart) {
    if lists_key(ctx, key, part) {
        ctx.out.push(play.steps());
    }
}

/// The dedup bookkeeping of [`push_best`]: whether a play reaching the position `key` is to be
/// listed (its key then kept, and per dice play its dice part, alongside the listed plays).
#[inline(always)]
pub(super) fn lists_key(ctx: &mut Ctx, key: u64, part: DicePart) -> bool {
    if ctx.dedup {
        let plain = key & PLAIN_TAG != 0;
        // Per dice play, a play of the general search may yet be dropped for its bonuses, so its
        // position is looked up at the end; a plain play (no bonus, its own dice part) is kept.
        // In a memoised search a plain play's key is its node's memo key, entered once (see
        // `plain_child`): it cannot be listed yet, and no other kind of key equals it.
        let unique = plain && ctx.memoise;
        if !unique && (!ctx.per_dice || plain) {
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
pub(super) fn keep_best_bonuses_per_dice_part(ctx: &mut Ctx) {
    let parts = &*ctx.dice_parts;
    // The usual case: the plays of the general search all have one bonus score (every dice part
    // has the same best), so each keeps all its plays, and only the blockade limit filters.
    let mut general = parts.iter().filter(|p| p.0 & PLAIN_TAG == 0).map(|p| p.1);
    let first = general.next();
    if general.all(|b| Some(b) == first) {
        let best_limit = parts.iter().map(|p| p.2).max().unwrap_or(0);
        if parts.iter().all(|p| p.2 == best_limit) {
            return;
        }
    }
    // The best bonus score of each dice part that has a play with a bonus, in an open-addressing
    // table indexed by the part's key (a hash; a slot with bonus 0 is empty, as no entry kept
    // has bonus 0). A part with no such play keeps all its plays (all score 0), and so does a
    // plain play (its own part). (A sort of the (key, bonus) pairs cost ~8,000 instructions on
    // the four-value rolls' ~150 entries.)
    let best = &mut *ctx.part_best;
    let with_bonus = parts.iter().filter(|p| p.1 > 0).count();
    let size = (2 * with_bonus).next_power_of_two().max(16);
    best.clear();
    best.resize(size, (0, 0));
    let mask = size - 1;
    for &(key, bonus, _) in parts.iter().filter(|p| p.1 > 0) {
        let mut i = key as usize & mask;
        loop {
            let e = &mut best[i];
            if e.1 == 0 {
                *e = (key, bonus);
                break;
            }
            if e.0 == key {
                e.1 = e.1.max(bonus);
                break;
            }
            i = (i + 1) & mask;
        }
    }
    let best = &*best;
    let best_bonus = |key: u64| {
        let mut i = key as usize & mask;
        loop {
            let e = best[i];
            if e.1 == 0 || e.0 == key {
                return e.1;
            }
            i = (i + 1) & mask;
        }
    };
    let keep_bonus = |i: usize| {
        let (key, bonus, _) = parts[i];
        key & PLAIN_TAG != 0 || with_bonus == 0 || bonus == best_bonus(key)
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
pub(super) fn expired_blockade_stands(
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    seat: usize,
) -> bool {
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
