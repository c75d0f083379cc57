//! The legal next steps of a play under way, without listing the roll's plays in every order
//! (for the `step` encoding of `crate::rl`).
//!
//! A legal play is a complete play of [`Orders::All`] that survives the obligations (see the
//! parent module): its score is the best of the roll, and per dice play its bonuses are the best
//! of its dice part and its blockade-limit flag the best over the plays so kept. Those targets
//! (the *goal*) depend only on the position at the start of the play, so they are found once per
//! roll and kept by the caller between the decisions of the play:
//! - where bonuses are maximised per dice play after the dice, with no blockade turn limit and
//!   no passing (both presets), the best score is guessed to be every value of the roll played,
//!   and each dice part's best bonus score is found when the search first meets the part (a
//!   search of its bonus steps alone: the part's plays share their dice score). The guess holds
//!   exactly when some first step then leads to a play meeting it;
//! - otherwise, from the memoised [`Orders::Distinct`] search (`write_goal`: the best score, and
//!   per dice play the best bonus score of each dice part and the best blockade-limit flag; the
//!   distinct search meets every dice part and every score that the search in every order meets).
//!
//! Then at each decision each candidate next step (in the generator's order) is kept when a
//! depth-first search from it, which walks the steps exactly as `dfs` does (the same nodes are
//! complete plays, P-D applies), finds a complete play meeting the goal; it stops at the first.
//! Steps of a piece standing with an interchangeable one before it are skipped (they lead to the
//! same positions). The caller keeps, of steps sharing an id (a bonus of a die's value), the
//! first listed, which is the one the environments applied when they grouped the listed plays.

use super::*;

/// The first word of a goal: the goal is computed (see [`write_goal`]).
const GOAL_COMPUTED: u64 = 0x9e37_79b9_0000_0001;
/// Index of the word of a goal that says whether its per-dice-part bests are found as the search
/// meets the dice parts (1) or were all written by [`write_goal`] (0).
const LAZY: usize = 5;
/// Index of the four words of a goal that hold the other seats' occupancy at the start of the
/// play (see `others_occupancy`; it changes only by a capture).
const OTHERS: usize = 6;
/// Index of the first (key, bonus) pair of the per-dice-part bests in a goal.
const PARTS: usize = 10;

/// Writes what a legal play of the search in `ctx` achieves into `goal` (after the search, before
/// the filtering): `[GOAL_COMPUTED, start key, plays listed, best score, best blockade-limit
/// flag, 0 (not lazy), the others' occupancy (4 words), then (dice part key, best bonus score)
/// pairs]`. The start key and the occupancy are filled by the caller.
pub(super) fn write_goal(ctx: &Ctx, goal: &mut Vec<u64>) {
    goal.clear();
    goal.extend([
        GOAL_COMPUTED,
        0,
        u64::from(!ctx.out.is_empty()),
        ctx.best,
        1,
        0,
        0,
        0,
        0,
        0,
    ]);
    if !ctx.per_dice {
        return;
    }
    let parts = &*ctx.dice_parts;
    // The best bonus score of each dice part with a play that has a bonus.
    for &(key, bonus, _) in parts.iter().filter(|p| p.1 > 0) {
        match goal[PARTS..].chunks_exact(2).position(|e| e[0] == key) {
            Some(i) => {
                let at = PARTS + 2 * i + 1;
                goal[at] = goal[at].max(bonus);
            }
            None => goal.extend([key, bonus]),
        }
    }
    let best_bonus = |key: u64| part_best(goal, key);
    let best_limit = parts
        .iter()
        .filter(|p| p.0 & PLAIN_TAG != 0 || p.1 == best_bonus(p.0))
        .map(|p| p.2)
        .max()
        .unwrap_or(1);
    goal[4] = best_limit;
}

/// The best bonus score of the dice part `key` in a goal (0 when none of its plays has a bonus).
#[inline]
fn part_best(goal: &[u64], key: u64) -> u64 {
    goal[PARTS..]
        .chunks_exact(2)
        .find(|e| e[0] == key)
        .map_or(0, |e| e[1])
}

/// A complete play that breaks no rule (P-D).
const VALID: u8 = 1;
/// ... and meets the goal (it is legal).
const LEGAL: u8 = 2;

/// Whether a goal may be guessed (see [`next_steps`]): bonuses maximised per dice play, after
/// the dice, no blockade turn limit, no passing. The best score of a play is then its dice part's
/// (values, pips), and each dice part's best bonuses depend on that part alone.
fn guessable(sys: &ParcheesiSystem) -> bool {
    let r = &sys.rules;
    r.bonus_obligation == BonusObligation::PerDicePlay
        && r.bonus_order == BonusOrder::DiceFirst
        && r.blockade_turn_limit == 0
        && !r.pass_allowed
}

/// The legal next steps of a play from `start` (at a decision) after the steps `taken`, which
/// lead to `cur`, into `out` (cleared first), in the order the search in every order lists them,
/// a piece standing with an interchangeable one before it skipped; returns whether a legal play
/// ends with `taken`. `goal` keeps what a legal play of the roll achieves between calls
/// (computed when it is empty or was computed for another start).
///
/// Where the goal may be guessed ([`guessable`]), it is first guessed to be every value of the
/// roll played, with each dice part's best bonuses found as the search meets the part (a search
/// of its bonus steps alone); the guess holds exactly when the root then has a legal next step.
/// Otherwise (and for the other option sets) the goal comes from the distinct search.
pub(in crate::parcheesi) fn next_steps(
    sys: &ParcheesiSystem,
    start: &ParcheesiState,
    cur: &ParcheesiState,
    taken: &[Step],
    goal: &mut Vec<u64>,
    out: &mut Vec<Step>,
) -> bool {
    out.clear();
    if start.phase != Phase::Decision || cur.phase != Phase::Decision {
        return false;
    }
    let start_key = hash_state(start);
    if goal.len() < PARTS || goal[0] != GOAL_COMPUTED || goal[1] != start_key {
        if guessable(sys) {
            let all = dice_score_of(start, &[0; 4]);
            goal.clear();
            goal.extend([GOAL_COMPUTED, start_key, 1, all, 1, 1, 0, 0, 0, 0]);
            let ends = with_scratch(|scratch| {
                keep_others(scratch, sys, start, goal);
                search_next(scratch, sys, start, start, &[], goal, out)
            });
            if !out.is_empty() {
                if taken.is_empty() {
                    return ends;
                }
                out.clear();
            } else {
                goal.clear();
            }
        }
        if goal.is_empty() || goal[0] != GOAL_COMPUTED || goal[1] != start_key {
            with_scratch(|scratch| {
                let mut list = std::mem::take(&mut scratch.list);
                generate_with(scratch, sys, start, Orders::Distinct, &mut list, Some(goal));
                scratch.list = list;
                keep_others(scratch, sys, start, goal);
            });
            goal[1] = start_key;
        }
    }
    if goal[2] == 0 {
        return false;
    }
    with_scratch(|scratch| search_next(scratch, sys, start, cur, taken, goal, out))
}

/// Writes the other seats' occupancy at `start` into a goal.
fn keep_others(
    scratch: &mut Scratch,
    sys: &ParcheesiSystem,
    start: &ParcheesiState,
    goal: &mut [u64],
) {
    let seat = start.turn as usize & 3;
    let (a, b) = others_occupancy(sys, start, seat, &mut scratch.seat_masks);
    goal[OTHERS..PARTS].copy_from_slice(&[a as u64, (a >> 64) as u64, b as u64, (b >> 64) as u64]);
}

/// [`dice_score`] of a play from `start` that leaves the values `left`.
fn dice_score_of(start: &ParcheesiState, left: &[u8; 4]) -> u64 {
    let values = (start.n_left() - count_left(left)) as u64;
    let pips = (start.left.iter().sum::<u8>() - left.iter().sum::<u8>()) as u64;
    values << 40 | pips << 32
}

fn search_next(
    scratch: &mut Scratch,
    sys: &ParcheesiSystem,
    start: &ParcheesiState,
    cur: &ParcheesiState,
    taken: &[Step],
    goal: &mut Vec<u64>,
    out: &mut Vec<Step>,
) -> bool {
    let seat = start.turn as usize & 3;
    let has_groups = start.groups != [0; PIECES];
    let per_dice = per_dice_bonuses(sys);
    // The dice part of the play so far: the position its first bonus step was taken from.
    let mut part = None;
    if taken.iter().any(|st| st.kind == StepKind::Bonus) {
        let mut t = *start;
        for (k, st) in taken.iter().enumerate() {
            if st.kind == StepKind::Bonus && t.bonuses_played == 0 {
                part = Some((t, k));
                break;
            }
            sys.apply(&mut t, st);
        }
    }
    let mut ctx = Ctx {
        sys,
        seat,
        distinct: true,
        memoise: false,
        dedup: false,
        out: &mut scratch.list,
        best: 0,
        start_values: start.n_left() as u8,
        start_pips: start.left.iter().sum(),
        has_groups,
        memo: &mut scratch.memo,
        keys: &mut scratch.keys,
        prune: 0,
        per_dice,
        dice_key: part.as_ref().map_or(0, |(d, _)| dice_part_key(d)),
        dice_parts: &mut scratch.dice_parts,
        part_best: &mut scratch.part_best,
        others: (0, 0),
        root: *start,
        ext_pieces_hash: 0,
        plain_home: sys.rules.home_bonus == 0,
        late_dedup: false,
        listed_bits: 0,
        general_listed: false,
    };
    let mut search = Search { goal };
    if let Some((d, k)) = part
        && search.lazy()
    {
        ctx.others = others_occupancy(sys, &d, seat, &mut scratch.seat_masks);
        search.ensure_part(&mut ctx, &d, k);
    }
    ctx.others = if taken.iter().any(|st| st.captured > 0) {
        others_occupancy(sys, cur, seat, &mut scratch.seat_masks)
    } else {
        // No capture yet: as at the start of the play.
        let w = |i: usize| search.goal[OTHERS + i] as u128;
        (w(0) | w(1) << 64, w(2) | w(3) << 64)
    };
    let ends = search.children(&mut ctx, cur, taken.len(), taken.is_empty(), Some(out));
    ends & LEGAL != 0
}

/// The depth-first search with early exit, against a goal.
struct Search<'g> {
    goal: &'g mut Vec<u64>,
}

impl Search<'_> {
    /// Whether the per-dice-part bests are found as the search meets the parts.
    #[inline]
    fn lazy(&self) -> bool {
        self.goal[LAZY] != 0
    }

    /// With a lazy goal: finds and keeps the best bonus score of the dice part `d` (the position
    /// a first bonus step is taken from, `depth` steps into the play) unless known.
    fn ensure_part(&mut self, ctx: &mut Ctx, d: &ParcheesiState, depth: usize) {
        let key = dice_part_key(d);
        if self.goal[PARTS..].chunks_exact(2).any(|e| e[0] == key) {
            return;
        }
        let best = self.bonus_steps(ctx, d, depth, |this, ctx, t, depth| {
            this.best_bonus(ctx, t, depth)
        });
        self.goal.extend([key, best.unwrap_or(0)]);
    }

    /// The best of `f` over the children of `s` by its bonus steps (`None`: no child, or none
    /// gave a value).
    #[inline]
    fn bonus_steps(
        &mut self,
        ctx: &mut Ctx,
        s: &ParcheesiState,
        depth: usize,
        mut f: impl FnMut(&mut Self, &mut Ctx, &ParcheesiState, usize) -> Option<u64>,
    ) -> Option<u64> {
        let sys = ctx.sys;
        let seat = ctx.seat;
        let pieces = s.pieces[seat];
        let occ = occupancy(ctx, s);
        let mut values = [0u8; 2];
        if s.pending_capture > 0 {
            values[0] = sys.rules.capture_bonus;
        }
        if s.pending_home > 0 && sys.rules.home_bonus != values[0] {
            values[1] = sys.rules.home_bonus;
        }
        let mut best = None;
        for &v in &values {
            if v == 0 {
                continue;
            }
            for (pi, &p) in pieces.iter().enumerate() {
                if p == NEST || p == HOME || same_piece(s, seat, pi) {
                    continue;
                }
                let routes = 1 + sys.goes_round(p, v) as u8;
                for r in 0..routes {
                    let Some((d, c)) = sys.try_move(seat, p, v, r == 0, &occ) else {
                        continue;
                    };
                    if depth >= MAX_STEPS {
                        continue;
                    }
                    let st = step(seat, pi, p, d, v, c, StepKind::Bonus);
                    let mut t = *s;
                    sys.apply(&mut t, &st);
                    let others_before = ctx.others;
                    if c > 0 {
                        let gone = !sys.slot_bit(seat, d);
                        ctx.others = (ctx.others.0 & gone, ctx.others.1 & gone);
                    }
                    let r = f(self, ctx, &t, depth + 1);
                    ctx.others = others_before;
                    best = best.max(r);
                }
            }
        }
        best
    }

    /// The best bonus score of a valid complete play from `s`, after the first bonus step of
    /// the play (the dice are over), or `None` when no valid play completes from it.
    fn best_bonus(&mut self, ctx: &mut Ctx, s: &ParcheesiState, depth: usize) -> Option<u64> {
        let here =
            |ctx: &Ctx| pd_allows(ctx, s).then(|| bonus_score(s.bonuses_played, s.bonus_pips));
        if s.pending_capture == 0 && s.pending_home == 0 {
            return here(ctx);
        }
        let below = self.bonus_steps(ctx, s, depth, |this, ctx, t, depth| {
            this.best_bonus(ctx, t, depth)
        });
        // A child that completes no valid play does not count: the node is complete when none
        // does.
        below.or_else(|| here(ctx))
    }

    /// The best bonus score of the dice part `key`.
    #[inline]
    fn part_best(&self, key: u64) -> u64 {
        part_best(self.goal, key)
    }

    /// Whether the complete play ending in `s` is valid and legal.
    #[inline]
    fn complete(&self, ctx: &Ctx, s: &ParcheesiState) -> u8 {
        if !pd_allows(ctx, s) {
            return 0;
        }
        let limit_ok = u64::from(!expired_blockade_stands(ctx.sys, s, ctx.seat));
        let stop_part = || dice_part_key(s);
        self.verdict(
            ctx,
            &s.left,
            (s.bonuses_played, s.bonus_pips),
            limit_ok,
            stop_part,
        )
    }

    /// [`Search::complete`] once P-D holds: the values `left`, the bonuses played and their
    /// pips, 1 unless an expired blockade stands, and the dice part of the play when it played
    /// no bonus (`stop_part`: asked only with passing, where such a play may stop before a
    /// bonus its dice earned).
    #[inline(always)]
    fn verdict(
        &self,
        ctx: &Ctx,
        left: &[u8; 4],
        (bonuses, pips): (u8, u16),
        limit_ok: u64,
        stop_part: impl FnOnce() -> u64,
    ) -> u8 {
        let (best, best_limit) = (self.goal[3], self.goal[4]);
        let passing = ctx.sys.rules.pass_allowed;
        let legal = if ctx.per_dice {
            // The most values and pips (not when passing: any die may be given up), then the
            // dice part's best bonuses, then the blockade limit over all.
            let bonus_ok = if bonuses > 0 {
                bonus_score(bonuses, pips) == self.part_best(ctx.dice_key)
            } else {
                !passing || self.part_best(stop_part()) == 0
            };
            (passing || dice_score(ctx, left) == best) && limit_ok == best_limit && bonus_ok
        } else if passing {
            limit_ok == best
        } else {
            dice_score(ctx, left) | bonus_score(bonuses, pips) | limit_ok == best
        };
        VALID | if legal { LEGAL } else { 0 }
    }
    /// The search below `s` (`depth` steps taken): `VALID` when a valid complete play goes on
    /// from it or ends there, with `LEGAL` when a legal one does (the search stops at the first).
    /// With `out`, every next step that a legal play goes on with is listed there (no early
    /// exit), and the flags say whether a play ends at `s`.
    fn children(
        &mut self,
        ctx: &mut Ctx,
        s: &ParcheesiState,
        depth: usize,
        root: bool,
        mut out: Option<&mut Vec<Step>>,
    ) -> u8 {
        let sys = ctx.sys;
        let seat = ctx.seat;
        let passing = sys.rules.pass_allowed;
        let n = s.n_left();
        if n == 0 && s.pending_capture == 0 && s.pending_home == 0 {
            return if passing || !root {
                self.complete(ctx, s)
            } else {
                0
            };
        }
        let listing = out.is_some();
        let pieces = s.pieces[seat];
        let occ = occupancy(ctx, s);
        let same = |i: usize| same_piece(s, seat, i);
        let mut any = false;
        let mut found = false;
        let mut die_steps = false;
        let dice_over = sys.rules.bonus_order == BonusOrder::DiceFirst && s.bonuses_played > 0;
        if !dice_over {
            for_each_die_step(ctx, &pieces, &s.left, &occ, same, |ctx, _vi, st, _route| {
                die_steps = true;
                let r = self.child(ctx, s, st, depth);
                any |= r & VALID != 0;
                if r & LEGAL != 0 {
                    found = true;
                    if let Some(out) = out.as_deref_mut() {
                        out.push(st);
                    }
                }
                // Without a list to fill, the first legal play found answers.
                listing || !found
            });
            if found && !listing {
                return VALID | LEGAL;
            }
        }
        let bonus_time = sys.rules.bonus_order == BonusOrder::Any || passing || !any || !die_steps;
        if bonus_time && (s.pending_capture > 0 || s.pending_home > 0) {
            let mut values = [0u8; 2];
            if s.pending_capture > 0 {
                values[0] = sys.rules.capture_bonus;
            }
            if s.pending_home > 0 && sys.rules.home_bonus != values[0] {
                values[1] = sys.rules.home_bonus;
            }
            let outer_key = ctx.dice_key;
            for &v in &values {
                if v == 0 {
                    continue;
                }
                for (pi, &p) in pieces.iter().enumerate() {
                    if p == NEST || p == HOME || same(pi) {
                        continue;
                    }
                    let routes = 1 + sys.goes_round(p, v) as u8;
                    for r in 0..routes {
                        let Some((d, c)) = sys.try_move(seat, p, v, r == 0, &occ) else {
                            continue;
                        };
                        if ctx.per_dice && s.bonuses_played == 0 {
                            if self.lazy() {
                                self.ensure_part(ctx, s, depth);
                            }
                            ctx.dice_key = dice_part_key(s);
                        }
                        let st = step(seat, pi, p, d, v, c, StepKind::Bonus);
                        let r = self.child(ctx, s, st, depth);
                        ctx.dice_key = outer_key;
                        any |= r & VALID != 0;
                        if r & LEGAL != 0 {
                            match out.as_deref_mut() {
                                Some(out) => out.push(st),
                                None => return VALID | LEGAL,
                            }
                        }
                    }
                }
            }
        }
        if passing || (!any && !root) {
            let r = self.complete(ctx, s);
            return if listing { r } else { r | u8::from(any) };
        }
        if listing { 0 } else { u8::from(any) }
    }

    /// The search after the step `st` from `s` (`depth` steps before it).
    #[inline]
    fn child(&mut self, ctx: &mut Ctx, s: &ParcheesiState, st: Step, depth: usize) -> u8 {
        if depth >= MAX_STEPS {
            return 0;
        }
        let sys = ctx.sys;
        if st.kind != StepKind::Bonus
            && st.captured == 0
            && st.to != HOME
            && s.pending_capture == 0
            && s.pending_home == 0
            && !ctx.has_groups
            && sys.rules.blockade_turn_limit == 0
            && !sys.rules.pass_allowed
        {
            // A plain die step changes only the mover's piece and the values left: when it
            // spends the last value the play ends, valid (no P-D groups) with no expired
            // blockade, and only its values decide (no state built).
            let mut left = s.left;
            if !remove_value(&mut left, st.value) && st.kind == StepKind::Enter {
                remove_pair(&mut left, st.value);
            }
            if left[0] == 0 {
                // (Not passing: a play with no bonus needs no dice part.)
                let bonuses = (s.bonuses_played, s.bonus_pips);
                return self.verdict(ctx, &left, bonuses, 1, || ctx.dice_key);
            }
        }
        let mut t = *s;
        sys.apply(&mut t, &st);
        let others_before = ctx.others;
        if st.captured > 0 {
            // Every opposing piece on the landing square went back to its nest.
            let gone = !ctx.sys.slot_bit(ctx.seat, st.to);
            ctx.others = (ctx.others.0 & gone, ctx.others.1 & gone);
        }
        let r = self.children(ctx, &t, depth + 1, false, None);
        ctx.others = others_before;
        r
    }
}

/// Whether piece `i` of the mover stands with the one before it and is interchangeable with it
/// (the same P-D group and blockade age): its steps give the same positions.
#[inline(always)]
fn same_piece(s: &ParcheesiState, seat: usize, i: usize) -> bool {
    i > 0
        && s.pieces[seat][i] == s.pieces[seat][i - 1]
        && s.groups[i] == s.groups[i - 1]
        && s.ages[seat][i] == s.ages[seat][i - 1]
}
