//! The *general search*: depth-first over full states, every step rule applied (captures and
//! their bonuses, home bonuses, P-D groups, the blockade limit). Every other path hands a node to
//! it as soon as its own precondition no longer holds.
//!
//! Precondition: none; this is the search the others are shortcuts of.

use super::*;

pub(super) fn dfs(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play, root: bool) -> bool {
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
                true
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
        // (The last bonus of a play below the root is searched by `last_bonus`: `dfs_below`.)
        for &v in &values {
            if v == 0 {
                continue;
            }
            for (pi, &p) in pieces.iter().enumerate() {
                if p == NEST || p == HOME || (ctx.distinct && same(pi)) {
                    continue;
                }
                // The home route, then going round where it exists (a counted loop: cheaper than
                // iterating over `[true, false]` with a `break`).
                let routes = 1 + sys.goes_round(p, v) as u8;
                for r in 0..routes {
                    let route = r == 0;
                    if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
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

/// `dfs` at a node below the root: the last bonus of a play ([`last_bonus`]) without the
/// search's set-up for die steps.
#[inline(always)]
pub(super) fn dfs_below(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play) -> bool {
    if s.left[0] == 0
        && s.pending_capture as u16 + s.pending_home as u16 == 1
        && !ctx.has_groups
        && ctx.sys.rules.blockade_turn_limit == 0
        && !ctx.sys.rules.pass_allowed
        && s.ages[ctx.seat] == [0; PIECES]
    {
        last_bonus(ctx, s, play)
    } else {
        dfs(ctx, s, play, false)
    }
}

/// `dfs` below the root at a node with no value left and one bonus to play (no P-D groups, no
/// blockade ages or limit, no passing): the bonus steps, each a complete play unless it captures
/// or earns a home bonus, as `dfs` lists them.
#[inline(never)]
fn last_bonus(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play) -> bool {
    let sys = ctx.sys;
    let seat = ctx.seat;
    let pieces = s.pieces[seat];
    // As `dfs`: the pruning of the node's die steps ends here (it has none).
    ctx.prune = 0;
    let occ = occupancy(ctx, s);
    let v = if s.pending_capture > 0 {
        sys.rules.capture_bonus
    } else {
        sys.rules.home_bonus
    };
    let mut any = false;
    let mut after = *s;
    after.pending_capture = 0;
    after.pending_home = 0;
    after.bonuses_played += 1;
    after.bonus_pips += v as u16;
    after.pieces[seat] = [0; PIECES];
    // Zero already (no value is left); written so that the score is a constant here.
    after.left = [0; 4];
    let score = leaf_score(ctx, &after);
    let code = pieces_code(&pieces);
    if ctx.per_dice {
        // Keyed as `record` keys a play per dice part: the roll's counters cleared.
        (after.bonuses_played, after.bonus_pips) = (0, 0);
    }
    let rest = hash_state(&after);
    if ctx.per_dice && s.bonuses_played == 0 {
        // `after` is `s` without the mover's pieces and the pending bonus (and `s` has played
        // no bonus): `dice_part_key(s)`.
        ctx.dice_key = dice_part_key_of(rest, code, s.pending_capture, s.pending_home);
    }
    let earns_home = sys.rules.home_bonus > 0 && sys.rules.bonuses_chain;
    for (pi, &p) in pieces.iter().enumerate() {
        if p == NEST || p == HOME || (ctx.distinct && pi > 0 && p == pieces[pi - 1]) {
            continue;
        }
        let routes = 1 + sys.goes_round(p, v) as u8;
        for r in 0..routes {
            let route = r == 0;
            if let Some((d, c)) = sys.try_move(seat, p, v, route, &occ) {
                if c == 0 && !(d == HOME && earns_home) && play.len() < MAX_STEPS {
                    let key = combine_key(rest, moved_code(code, p, d));
                    let st = step(seat, pi, p, d, v, 0, StepKind::Bonus);
                    any = true;
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
                // (`ctx.dice_key` is this node's, set above: no node below resets it.)
                any |= child(ctx, s, play, step(seat, pi, p, d, v, c, StepKind::Bonus));
            }
        }
    }
    if !any && record(ctx, s, play) {
        any = true;
    }
    any
}

/// The occupancy of `s`: the mover's own recomputed, the others' kept in the context (updated
/// by `child` after a capturing step).
#[inline]
pub(super) fn occupancy<'a>(ctx: &Ctx<'a>, s: &ParcheesiState) -> Occ<'a> {
    mover_occupancy(ctx, &s.pieces[ctx.seat])
}

/// The occupancy with the mover's pieces at `pieces`, the others' from the context.
#[inline]
pub(super) fn mover_occupancy<'a>(ctx: &Ctx<'a>, pieces: &[u8; PIECES]) -> Occ<'a> {
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

pub(super) fn child(ctx: &mut Ctx, s: &ParcheesiState, play: &mut Play, st: Step) -> bool {
    child_then(ctx, s, play, st, false)
}

/// `child`; with `plain_below` (a capturing die step under [`capture_step`]'s precondition) a
/// node with values left is searched as a plain node from the state after the step.
#[inline(always)]
pub(super) fn child_then(
    ctx: &mut Ctx,
    s: &ParcheesiState,
    play: &mut Play,
    st: Step,
    plain_below: bool,
) -> bool {
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
    } else if plain_below && t.left[0] != 0 {
        // The state after the capture is the root of the plain walk below it.
        let root_before = std::mem::replace(&mut ctx.root, t);
        let hash_before = ctx.ext_pieces_hash;
        if ctx.memoise {
            let mut rest = t;
            rest.pieces[ctx.seat] = [0; PIECES];
            ctx.ext_pieces_hash = hash_pieces(&rest);
        }
        let r = ext_plain_dfs(ctx, Plain::new(t.pieces[ctx.seat], t.left), play);
        ctx.root = root_before;
        ctx.ext_pieces_hash = hash_before;
        r
    } else {
        dfs_below(ctx, &t, play)
    };
    play.pop();
    ctx.others = others_before;
    if ctx.memoise {
        ctx.memo.insert(hash, r);
    }
    r
}
