//! [`Encode`] for each rule system: coordinates, amount classes and the system's own views.

use super::{Encode, moves_piece, one_hot};
use crate::backgammon::{BackgammonSystem, BgState, CUBE_CENTRED, Phase as BgPhase};
use crate::classic::{ClassicState, ClassicSystem, SHELLS};
use crate::family::{FamilyState, FamilySystem};
use crate::parcheesi::{HOME, LAP_END, NEST, ParcheesiState, ParcheesiSystem};
use crate::play::{Step, StepKind};
use crate::system::RuleSystem;

/// The two dice as two one-hots of six (nothing at a chance node).
fn write_dice(out: &mut [f32], dice: [u8; 2]) {
    for (i, &d) in dice.iter().enumerate() {
        if (1..=6).contains(&d) {
            out[i * 6 + d as usize - 1] = 1.0;
        }
    }
}

impl Encode for ParcheesiSystem {
    fn rl_positions(&self) -> u8 {
        LAP_END + 1
    }
    fn rl_nest_home(&self) -> (u8, u8) {
        (NEST, HOME)
    }
    fn rl_pieces(&self) -> u8 {
        4
    }
    fn rl_classes(&self) -> Vec<(u8, u8, u8)> {
        // The die faces (a sum-of-five entry is a 5), then each distinct bonus.
        let mut values: Vec<u8> = (1..=6).collect();
        for b in [self.rules().capture_bonus, self.rules().home_bonus] {
            if b != 0 && !values.contains(&b) {
                values.push(b);
            }
        }
        let mut c: Vec<(u8, u8, u8)> = values.iter().map(|&v| (v, 1, 0)).collect();
        if self.rules().go_round_again {
            // From near the branch square one value may enter the home path or go round.
            c.extend(values.iter().map(|&v| (v, 1, 1)));
        }
        c
    }
    fn rl_branch(&self, step: &Step) -> u8 {
        // Going round: from the first lap (or the squares after the branch) onto 73..=76 or
        // past the entry square again, rather than into the home path.
        u8::from(step.to >= crate::parcheesi::LAP || (step.to < step.from && step.to != NEST))
    }
    fn rl_offsets(&self) -> Vec<u8> {
        vec![0]
    }
    fn rl_acting_owner(&self, s: &ParcheesiState) -> u8 {
        s.turn
    }
    fn rl_occupancy(&self, s: &ParcheesiState, owner: u8, out: &mut [f32]) {
        if owner < self.seats() {
            for &p in &s.pieces[owner as usize] {
                out[p as usize] += 1.0;
            }
        }
    }
    fn rl_extra_views(&self) -> Vec<(&'static str, Vec<usize>)> {
        vec![
            ("dice", vec![2, 6]),
            ("values_left", vec![6]),
            ("pending_bonus", vec![2]),
            ("doubles", vec![3]),
        ]
    }
    fn rl_write_extra(&self, s: &ParcheesiState, _taken: &[Step], _observer: u8, out: &mut [f32]) {
        write_dice(&mut out[..12], s.dice);
        for &v in s.values_left() {
            if (1..=6).contains(&v) {
                out[12 + v as usize - 1] += 1.0;
            }
        }
        out[18] = s.pending_capture as f32;
        out[19] = s.pending_home as f32;
        one_hot(&mut out[20..23], s.doubles as usize);
    }
    fn rl_max_plays(&self) -> usize {
        PARCHEESI_MAX_PLAYS
    }
    const RL_NEXT_STEPS: bool = true;
    fn rl_next_steps(
        &self,
        start: &ParcheesiState,
        cur: &ParcheesiState,
        taken: &[Step],
        out: &mut Vec<Step>,
    ) -> bool {
        self.rl_next_steps_memo(start, cur, taken, &mut Vec::new(), out)
    }
    fn rl_next_steps_memo(
        &self,
        start: &ParcheesiState,
        cur: &ParcheesiState,
        taken: &[Step],
        memo: &mut Vec<u64>,
        out: &mut Vec<Step>,
    ) -> bool {
        // The steps in the generator's order, then in step-id order (one source, the mover's:
        // the id grows with `from`, then the amount class); the sort is stable, so of two steps
        // sharing an id the one listed first stays.
        let ends = self.next_steps(start, cur, taken, memo, out);
        sort_by_step_id(out, |st| st.from as u16 * 16 + self.rl_class(st) as u16);
        ends
    }
}

/// Sorts next steps into ascending order of `key` (their step id) and keeps the first of each
/// id: the sort is stable, so of two steps sharing an id the one listed first stays (the one the
/// environments apply for it).
fn sort_by_step_id(out: &mut Vec<Step>, key: impl Fn(&Step) -> u16) {
    let n = out.len();
    if n > KEYED {
        out.sort_by_key(&key);
        out.dedup_by_key(|st| key(st));
        return;
    }
    // An insertion sort on keys computed once (a few steps, most already in order).
    let mut keys = [0u16; KEYED];
    for (k, st) in keys.iter_mut().zip(out.iter()) {
        *k = key(st);
    }
    for i in 1..n {
        let (k, st) = (keys[i], out[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            keys[j] = keys[j - 1];
            out[j] = out[j - 1];
            j -= 1;
        }
        keys[j] = k;
        out[j] = st;
    }
    let mut kept = n.min(1);
    for i in 1..n {
        if keys[i] != keys[kept - 1] {
            keys[kept] = keys[i];
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Up to this many next steps, [`sort_by_step_id`] puts them in id order by an insertion sort on keys
/// kept on the stack.
const KEYED: usize = 64;

impl ParcheesiSystem {
    /// The index of a step's amount class in [`Encode::rl_classes`]' list.
    fn rl_class(&self, step: &Step) -> usize {
        let (cb, hb) = (self.rules().capture_bonus, self.rules().home_bonus);
        let v = step.value;
        let extra = |b: u8| b != 0 && !(1..=6).contains(&b);
        let index = if (1..=6).contains(&v) {
            v as usize - 1
        } else if v == cb {
            6
        } else if extra(cb) && hb != cb {
            7
        } else {
            6
        };
        let values = 6 + usize::from(extra(cb)) + usize::from(extra(hb) && hb != cb);
        index + values * self.rl_branch(step) as usize
    }
}

/// The `play` encoding's size for Parcheesi and Online Pachisi: not a proven bound. Random games
/// meet at most a few hundred plays; positions built by a hill climb for many plays have had up
/// to 3,444 (four seats, 4-4 with every piece out among twelve opponents, bonus chains
/// included), so this leaves a margin of almost five times that (`docs/RL.md`). A node with more
/// plays would list only the first this many.
pub const PARCHEESI_MAX_PLAYS: usize = 16_384;
/// The `play` encoding's size for Family Pachisi, proven (`docs/RL.md`): a play moves the pieces
/// of one colour (its own, or its partner's once it is all home), and its result and the values
/// it uses are fixed by which of the roll's values each of the four pieces takes (a piece that
/// captures stops there, so its squares and captures follow from its values). Two different dice:
/// each unused or taken by one of four pieces, 5 · 5 = 25 plays at most; doubles `[h, h, l, l]`:
/// at most two equal values over four pieces in 1 + 4 + 10 = 15 ways, for h and for l, 225
/// (without bottom faces doubles give two values: 15). 225 <= 256; `core/tests/rl.rs` searches adversarial
/// positions for the most (100 found, 10 · 10 when every play uses all four values).
pub const FAMILY_MAX_PLAYS: usize = 256;
/// The `play` encoding's size for Classic Pachisi, proven: a throw is one step (pass, enter, or
/// one piece or unit of the colour on turn moving; at most four pieces give at most four
/// choices of what moves), so at most 1 + 1 + 4 plays.
pub const CLASSIC_MAX_PLAYS: usize = 6;
/// The `play` encoding's size for Backgammon, proven: a play's result is fixed by the multiset
/// of the points its moves start from (each move of a roll's die `d` goes from its point to
/// `d` further, and a blot on a landing point is hit whatever the order), so doubles give at
/// most C(25 + 4 - 1, 4) = 20,475 results (25 starting places: 24 points and the bar) and two
/// different dice at most 25 x 25 + 2 x 25.
pub const BACKGAMMON_MAX_PLAYS: usize = 20_475;

/// Family Pachisi's source for a captured piece beside the start area (position 0 after it
/// has been in play), apart from the never-played pieces in it.
const FAMILY_CAPTURED: u8 = 78;

impl Encode for FamilySystem {
    fn rl_positions(&self) -> u8 {
        FAMILY_CAPTURED + 1
    }
    fn rl_source(&self, s: &FamilyState, step: &Step) -> u8 {
        let bit = 4 * (step.seat as u32 & 3) + (step.piece as u32 & 3);
        if step.from == 0 && s.played & (1 << bit) != 0 {
            FAMILY_CAPTURED
        } else {
            step.from
        }
    }
    fn rl_nest_home(&self) -> (u8, u8) {
        (0, 77)
    }
    fn rl_pieces(&self) -> u8 {
        4
    }
    fn rl_classes(&self) -> Vec<(u8, u8, u8)> {
        // Single pieces and gates (two pieces as one), by any value a die or a sum gives.
        let mut c = Vec::new();
        for count in 1..=2 {
            for v in 1..=12 {
                c.push((v, count, 0));
            }
        }
        c
    }
    fn rl_offsets(&self) -> Vec<u8> {
        // A seat whose pieces are all home plays its partner's (opposite) colour.
        if self.rules().teams {
            vec![0, 2]
        } else {
            vec![0]
        }
    }
    fn rl_acting_owner(&self, s: &FamilyState) -> u8 {
        s.turn
    }
    fn rl_occupancy(&self, s: &FamilyState, owner: u8, out: &mut [f32]) {
        if owner < self.seats() {
            for (i, &p) in s.pos[owner as usize].iter().enumerate() {
                let captured = p == 0 && s.played & (1 << (4 * owner as u32 + i as u32)) != 0;
                out[if captured { FAMILY_CAPTURED } else { p } as usize] += 1.0;
            }
        }
    }
    fn rl_extra_views(&self) -> Vec<(&'static str, Vec<usize>)> {
        vec![("dice", vec![2, 6]), ("tries", vec![1])]
    }
    fn rl_write_extra(&self, s: &FamilyState, _taken: &[Step], _observer: u8, out: &mut [f32]) {
        write_dice(&mut out[..12], s.dice);
        out[12] = s.tries as f32;
    }
    fn rl_max_plays(&self) -> usize {
        FAMILY_MAX_PLAYS
    }
    const RL_NEXT_STEPS: bool = true;
    fn rl_next_steps(
        &self,
        start: &FamilyState,
        cur: &FamilyState,
        taken: &[Step],
        out: &mut Vec<Step>,
    ) -> bool {
        self.rl_next_steps_memo(start, cur, taken, &mut Vec::new(), out)
    }
    fn rl_next_steps_memo(
        &self,
        start: &FamilyState,
        cur: &FamilyState,
        taken: &[Step],
        memo: &mut Vec<u64>,
        out: &mut Vec<Step>,
    ) -> bool {
        // The steps in the order of the first legal play of each, then in step-id order (one
        // owner: the colour that moves; the id grows with the source, then the amount class:
        // gates after single pieces, then the value); the sort is stable and keeps the first of
        // steps sharing an id, the one the environments apply for it.
        let ends = self.next_steps(start, taken, memo, out);
        sort_by_step_id(out, |st| {
            self.rl_source(cur, st) as u16 * 32 + (st.count as u16 & 3) * 16 + st.value as u16
        });
        ends
    }
}

impl Encode for ClassicSystem {
    fn rl_positions(&self) -> u8 {
        86
    }
    fn rl_nest_home(&self) -> (u8, u8) {
        (0, 85)
    }
    fn rl_pieces(&self) -> u8 {
        4
    }
    fn rl_classes(&self) -> Vec<(u8, u8, u8)> {
        // Each distinct throw value, moving one piece or a unit of 2..=4.
        let mut values: Vec<u8> = self.rules().throw_table.clone();
        values.sort_unstable();
        values.dedup();
        let max_count = if self.rules().units { 4 } else { 1 };
        let mut c = Vec::new();
        for count in 1..=max_count {
            for &v in &values {
                c.push((v, count, 0));
            }
        }
        c
    }
    fn rl_offsets(&self) -> Vec<u8> {
        vec![0]
    }
    fn rl_acting_owner(&self, s: &ClassicState) -> u8 {
        s.turn
    }
    fn rl_occupancy(&self, s: &ClassicState, owner: u8, out: &mut [f32]) {
        for &p in &s.pieces[owner as usize & 3] {
            out[p as usize] += 1.0;
        }
    }
    fn rl_extra_views(&self) -> Vec<(&'static str, Vec<usize>)> {
        vec![
            ("throw", vec![SHELLS as usize + 1]),
            ("colour_to_move", vec![4]),
        ]
    }
    fn rl_write_extra(&self, s: &ClassicState, _taken: &[Step], observer: u8, out: &mut [f32]) {
        if let Some(up) = s.throw {
            one_hot(&mut out[..7], up as usize);
        }
        one_hot(&mut out[7..11], ((s.turn + 4 - observer % 4) % 4) as usize);
    }
    fn rl_max_plays(&self) -> usize {
        CLASSIC_MAX_PLAYS
    }
}

impl Encode for BackgammonSystem {
    fn rl_positions(&self) -> u8 {
        26
    }
    fn rl_nest_home(&self) -> (u8, u8) {
        (25, 0)
    }
    fn rl_pieces(&self) -> u8 {
        15
    }
    fn rl_classes(&self) -> Vec<(u8, u8, u8)> {
        (1..=6).map(|v| (v, 1, 0)).collect()
    }
    fn rl_offsets(&self) -> Vec<u8> {
        vec![0]
    }
    fn rl_acting_owner(&self, s: &BgState) -> u8 {
        s.turn
    }
    fn rl_occupancy(&self, s: &BgState, owner: u8, out: &mut [f32]) {
        for (o, &n) in out.iter_mut().zip(&s.checkers[owner as usize & 1]) {
            *o += n as f32;
        }
    }
    fn rl_extra_views(&self) -> Vec<(&'static str, Vec<usize>)> {
        vec![
            ("dice", vec![2, 6]),
            ("values_left", vec![6]),
            ("cube_value", vec![1]),
            ("cube_owner", vec![3]),
            ("phase", vec![7]),
        ]
    }
    fn rl_write_extra(&self, s: &BgState, taken: &[Step], observer: u8, out: &mut [f32]) {
        let moving = matches!(s.phase, BgPhase::Move);
        if moving {
            write_dice(&mut out[..12], s.dice);
            let [a, b] = s.dice;
            if (1..=6).contains(&a) && (1..=6).contains(&b) {
                let n = if a == b { 2.0 } else { 1.0 };
                out[12 + a as usize - 1] += n;
                out[12 + b as usize - 1] += n;
                for st in taken.iter().filter(|st| moves_piece(st)) {
                    if (1..=6).contains(&st.value) {
                        out[12 + st.value as usize - 1] -= 1.0;
                    }
                }
            }
        }
        out[18] = s.cube_log2 as f32 / 6.0;
        let owner = if s.cube_owner == CUBE_CENTRED {
            2
        } else if s.cube_owner == observer {
            0
        } else {
            1
        };
        out[19 + owner] = 1.0;
        let phase = match s.phase {
            BgPhase::Opening => 0,
            BgPhase::CubeAction => 1,
            BgPhase::Roll => 2,
            BgPhase::Move => 3,
            BgPhase::TakeDrop => 4,
            BgPhase::Over => 5,
            BgPhase::Dropped => 6,
        };
        out[22 + phase] = 1.0;
    }
    fn rl_max_plays(&self) -> usize {
        BACKGAMMON_MAX_PLAYS
    }
    fn rl_special(&self, step: &Step) -> Option<usize> {
        match step.kind {
            StepKind::Double => Some(0),
            StepKind::NoDouble => Some(1),
            StepKind::Take => Some(2),
            StepKind::Drop => Some(3),
            _ => None,
        }
    }
    fn rl_special_count(&self) -> usize {
        if self.rules().cube { 4 } else { 0 }
    }
    const RL_NEXT_STEPS: bool = true;
    fn rl_next_steps(
        &self,
        start: &BgState,
        cur: &BgState,
        taken: &[Step],
        out: &mut Vec<Step>,
    ) -> bool {
        // Every play of a roll is as long as the longest (BG-1, BG-5) and a cube play is one
        // step, so a play ends with the steps taken only when none goes on.
        self.next_steps(start, cur, taken, out);
        out.is_empty() && !taken.is_empty()
    }
    fn rl_openspiel_size(&self) -> Option<usize> {
        // OpenSpiel's game has no cube.
        (!self.rules().cube).then_some(super::backgammon::OPENSPIEL_ACTIONS)
    }
    fn rl_openspiel_action(
        &self,
        start: &BgState,
        taken: usize,
        rest: &[Step],
    ) -> Option<(usize, usize, bool)> {
        Some(super::backgammon::openspiel_action(start, taken, rest))
    }
}
