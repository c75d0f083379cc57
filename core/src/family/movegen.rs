//! Whole-play generation for Family Pachisi (FAM-4..FAM-10, F-B..F-H): a depth-first search over
//! the values of the roll (higher die first where FAM-4 says so), gates moving as one (FAM-5c),
//! then the obligations (most values, compulsory capture) as filters over complete plays; one
//! play per resulting position for [`crate::Orders::Distinct`]. Checked against [`super::reference`].

use super::*;

/// The position plus the occupancy of the 68 track squares, used while generating plays.
#[derive(Copy, Clone)]
pub(super) struct Board {
    pub(super) s: FamilyState,
    /// 0 = empty, else `colour << 2 | count` (count 1 or 2).
    pub(super) track: [u8; TRACK_LEN as usize],
}

/// What a landing does.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Landing {
    Free,
    Capture,
}

pub(super) struct Gen<'a> {
    pub(super) out: &'a mut Vec<Play>,
    pub(super) keys: &'a mut Vec<u128>,
    pub(super) uses: &'a mut Vec<u8>,
    /// Listing one play per result: (position, value index, values used, frozen pieces)
    /// already explored are pruned (their continuations give the same results).
    pub(super) seen: Option<&'a mut Seen>,
    /// Tag bit of the second, reversed-order search (`higher_die_first` off).
    pub(super) run: u32,
    pub(super) values: [u8; 4],
    pub(super) count: usize,
    pub(super) colour: u8,
    /// FAM-5b: the last two values are only available once every piece has been in play.
    pub(super) restricted: bool,
    pub(super) doubles: bool,
    pub(super) six_five: bool,
}

/// Result keys, values used per play, and the set of positions seen.
pub(super) type Scratch = (Vec<u128>, Vec<u8>, Seen);

/// The positions (with a search tag) already explored or listed.
pub(super) type Seen = crate::dedup::KeySet<(u128, u32)>;

thread_local! {
    /// Reused buffers of the generator (result keys, values used, a sort buffer): no heap
    /// allocation per call once warm.
    static SCRATCH: RefCell<Scratch> = const { RefCell::new((Vec::new(), Vec::new(), Seen::new())) };
}

impl FamilySystem {
    pub(super) fn board(&self, s: &FamilyState) -> Board {
        let mut track = [0u8; TRACK_LEN as usize];
        for c in 0..self.seat_count() {
            for &p in &s.pos[c as usize] {
                if (START_SQUARE..=LAP_END).contains(&p) {
                    let sq = self.square(c, p) as usize;
                    track[sq] = (c << 2) | ((track[sq] & 3) + 1);
                }
            }
        }
        Board { s: *s, track }
    }

    pub(super) fn own_count(b: &Board, colour: u8, pos: u8) -> u8 {
        b.s.pos[colour as usize]
            .iter()
            .filter(|&&p| p == pos)
            .count() as u8
    }

    /// FAM-10: no piece passes a gate; checks the positions strictly between `from` and `to`.
    pub(super) fn can_pass(&self, b: &Board, colour: u8, from: u8, to: u8) -> bool {
        let track_end = to.min(LAP_END + 1);
        if from + 1 < track_end {
            // Walk the track squares with a wrapping index (no division per square).
            let mut sq = self.square(colour, from + 1) as usize;
            for _ in from + 1..track_end {
                if b.track[sq] & 3 == 2 {
                    return false;
                }
                sq += 1;
                if sq == TRACK_LEN as usize {
                    sq = 0;
                }
            }
        }
        for p in (from + 1).max(GOAL_STRETCH)..to.min(GOAL) {
            if Self::own_count(b, colour, p) >= 2 {
                return false;
            }
        }
        true
    }

    /// Whether `movers` pieces of `colour` may land on `to`, and whether they capture there
    /// (FAM-7, FAM-8, FAM-9, FAM-10, F-H).
    pub(super) fn landing(&self, b: &Board, colour: u8, to: u8, movers: u8) -> Option<Landing> {
        if to > GOAL {
            return None;
        }
        if to == GOAL {
            return Some(Landing::Free);
        }
        if to >= GOAL_STRETCH {
            return (Self::own_count(b, colour, to) + movers <= 2).then_some(Landing::Free);
        }
        let sq = self.square(colour, to);
        let code = b.track[sq as usize];
        if code == 0 {
            return Some(Landing::Free);
        }
        let (other, count) = (code >> 2, code & 3);
        if other == colour {
            return (count + movers <= 2).then_some(Landing::Free);
        }
        if other == self.partner[colour as usize] || count >= 2 {
            return None;
        }
        let own_start = sq == entry_square(self.side[colour as usize]);
        (!is_safe(sq) || own_start).then_some(Landing::Capture)
    }

    pub(super) fn remove_from_track(&self, b: &mut Board, colour: u8, pos: u8) {
        if (START_SQUARE..=LAP_END).contains(&pos) {
            let sq = self.square(colour, pos) as usize;
            let count = b.track[sq] & 3;
            b.track[sq] = if count <= 1 {
                0
            } else {
                (colour << 2) | (count - 1)
            };
        }
    }

    pub(super) fn capture_at(&self, b: &mut Board, colour: u8, to: u8) -> Option<u8> {
        let sq = self.square(colour, to);
        let code = b.track[sq as usize];
        let victim = code >> 2;
        if code == 0 || victim == colour {
            return None;
        }
        for i in 0..PIECES {
            let p = b.s.pos[victim as usize][i];
            if (START_SQUARE..=LAP_END).contains(&p) && self.square(victim, p) == sq {
                b.s.pos[victim as usize][i] = START_AREA;
            }
        }
        b.track[sq as usize] = 0;
        Some(victim)
    }

    pub(super) fn put(&self, b: &mut Board, colour: u8, piece: usize, to: u8) {
        b.s.pos[colour as usize][piece] = to;
        b.s.played |= 1 << (colour as usize * 4 + piece);
        if (START_SQUARE..=LAP_END).contains(&to) {
            let sq = self.square(colour, to) as usize;
            let count = if b.track[sq] >> 2 == colour {
                b.track[sq] & 3
            } else {
                0
            };
            b.track[sq] = (colour << 2) | (count + 1);
        }
    }

    /// Applies a step to a board (the steps come from the generator), then keeps the pieces of
    /// each colour sorted, so one position is one state. Returns where the mover's pieces came
    /// from: new index `k` holds the piece that had index `perm[k]`.
    pub(super) fn apply_on(&self, b: &mut Board, step: &Step) -> [u8; PIECES] {
        let colour = step.seat & 3;
        let piece = (step.piece & 3) as usize;
        let mut victim = None;
        if step.captured > 0 {
            victim = self.capture_at(b, colour, step.to);
        }
        if step.count == 2 {
            let from = step.from;
            let other = (0..PIECES).find(|&j| j != piece && b.s.pos[colour as usize][j] == from);
            self.remove_from_track(b, colour, from);
            self.put(b, colour, piece, step.to);
            if let Some(j) = other {
                self.remove_from_track(b, colour, from);
                self.put(b, colour, j, step.to);
            }
        } else {
            self.remove_from_track(b, colour, step.from);
            self.put(b, colour, piece, step.to);
        }
        if let Some(v) = victim {
            Self::sort_colour(&mut b.s, v);
        }
        Self::sort_colour(&mut b.s, colour)
    }

    /// Sorts one colour's pieces by (position, played); returns the permutation applied.
    pub(super) fn sort_colour(s: &mut FamilyState, c: u8) -> [u8; PIECES] {
        let ci = c as usize;
        let mut codes = [0u8; PIECES];
        for (i, code) in codes.iter_mut().enumerate() {
            *code = s.pos[ci][i] << 1 | ((s.played >> (ci * 4 + i)) & 1) as u8;
        }
        let mut order = [0u8, 1, 2, 3];
        if codes.windows(2).all(|w| w[0] <= w[1]) {
            return order;
        }
        // Insertion sort of four: stable, no allocation.
        for k in 1..PIECES {
            let mut j = k;
            while j > 0 && codes[j - 1] > codes[j] {
                codes.swap(j - 1, j);
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut played = s.played & !(0xF << (ci * 4));
        for (k, &code) in codes.iter().enumerate() {
            s.pos[ci][k] = code >> 1;
            played |= ((code & 1) as u16) << (ci * 4 + k);
        }
        s.played = played;
        order
    }

    /// The pieces worth trying: one representative of identical pieces (same place, same
    /// played flag, same frozen state), skipping pieces home.
    pub(super) fn representatives(b: &Board, colour: u8, frozen: u8) -> u8 {
        let mut mask = 0u8;
        let pos = &b.s.pos[colour as usize];
        'next: for i in 0..PIECES {
            if pos[i] == GOAL {
                continue;
            }
            let code = |k: usize| (pos[k], b.s.is_played(colour, k), frozen & (1 << k) != 0);
            for j in 0..i {
                if mask & (1 << j) != 0 && code(j) == code(i) {
                    continue 'next;
                }
            }
            mask |= 1 << i;
        }
        mask
    }

    pub(super) fn record(&self, g: &mut Gen, b: &Board, play: &Play, used: u8) {
        let best = g.uses.first().copied();
        match best {
            Some(best) if used < best => return,
            Some(best) if used > best => {
                g.out.clear();
                g.keys.clear();
                g.uses.clear();
            }
            _ => {}
        }
        g.out.push(*play);
        g.keys.push(b.s.key());
        g.uses.push(used);
    }

    /// Depth-first over the values in order (FAM-4: higher first; a value that cannot be played
    /// at all is lost).
    pub(super) fn dfs(
        &self,
        g: &mut Gen,
        b: &Board,
        i: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) {
        let colour = g.colour;
        if i >= g.count || (g.restricted && i == 2 && !b.s.all_played(colour)) {
            self.record(g, b, play, used);
            return;
        }
        if i > 0
            && let Some(seen) = g.seen.as_deref_mut()
        {
            let tag = 1 << 31 | g.run | (i as u32) << 16 | (used as u32) << 8 | frozen as u32;
            if !seen.insert((b.s.key(), tag)) {
                return;
            }
        }
        let v = g.values[i];
        let mut any = false;
        let reps = Self::representatives(b, colour, frozen);
        let both_dice_ok = self.rules.one_piece_both_dice || g.doubles;

        // FAM-6 exception: with no piece in play, 6-5 enters a piece with the five and moves it
        // on by the six at once: two steps (each a landing), the five before the six.
        if i == 0 && g.six_five {
            for piece in 0..PIECES {
                if reps & (1 << piece) == 0 || b.s.pos[colour as usize][piece] != START_AREA {
                    continue;
                }
                // Entering onto an opponent captures it and ends the piece's move (FAM-7):
                // then the six is lost and the plain entry below covers it.
                if self.landing(b, colour, START_SQUARE, 1) != Some(Landing::Free) {
                    continue;
                }
                let enter = Step {
                    seat: colour,
                    piece: piece as u8,
                    from: START_AREA,
                    to: START_SQUARE,
                    value: 5,
                    count: 1,
                    captured: 0,
                    kind: StepKind::Enter,
                };
                let mut entered = *b;
                let perm = self.apply_on(&mut entered, &enter);
                let moved = perm.iter().position(|&p| p as usize == piece).unwrap_or(0);
                let to = START_SQUARE + 6;
                if !self.can_pass(&entered, colour, START_SQUARE, to) {
                    continue;
                }
                let Some(land) = self.landing(&entered, colour, to, 1) else {
                    continue;
                };
                any = true;
                let six = Step {
                    seat: colour,
                    piece: moved as u8,
                    from: START_SQUARE,
                    to,
                    value: 6,
                    count: 1,
                    captured: (land == Landing::Capture) as u8,
                    kind: StepKind::Move,
                };
                play.push(enter);
                self.descend(g, &entered, &six, i + 2, used + 2, 0, play);
                play.pop();
            }
        }

        // Order of listing (the first of plays with one result is the one kept): moves that use
        // more values at once come first (gate moves, sums), then single values.
        // A pair of values (the two dice, or an equal pair of a doubles roll) summed by one
        // piece as one move (F-A, F-D); and a gate moving as one (FAM-5c).
        let pair_available = i + 1 < g.count
            && (!g.doubles && i == 0 || g.doubles && i % 2 == 0 && g.values[i + 1] == v);
        if g.doubles && self.rules.gate_moves_with_doubles && pair_available {
            // Both pieces taking h and l each: the gate moves 7 (FAM-5c), all four values.
            if i == 0 && g.count == 4 && !g.restricted {
                let seven = g.values[0] + g.values[2];
                any |= self.gate_moves(g, b, i, seven, 4, used, frozen, play);
            }
            any |= self.gate_moves(g, b, i, v, 2, used, frozen, play);
        }
        if pair_available && !g.doubles && self.rules.sum_of_five_enters && v + g.values[1] == 5 {
            for piece in 0..PIECES {
                if reps & (1 << piece) == 0 || b.s.pos[colour as usize][piece] != START_AREA {
                    continue;
                }
                if let Some(land) = self.landing(b, colour, START_SQUARE, 1) {
                    any = true;
                    let step = Step {
                        seat: colour,
                        piece: piece as u8,
                        from: START_AREA,
                        to: START_SQUARE,
                        value: 5,
                        count: 1,
                        captured: (land == Landing::Capture) as u8,
                        kind: StepKind::Enter,
                    };
                    self.descend(g, b, &step, i + 2, used + 2, frozen, play);
                }
            }
        }
        if pair_available && self.rules.sum_as_one_move {
            let total = v + g.values[i + 1];
            for piece in 0..PIECES {
                if reps & (1 << piece) == 0 || frozen & (1 << piece) != 0 {
                    continue;
                }
                let from = b.s.pos[colour as usize][piece];
                if from == START_AREA || !self.can_pass(b, colour, from, from + total) {
                    continue;
                }
                let Some(land) = self.landing(b, colour, from + total, 1) else {
                    continue;
                };
                any = true;
                let step = Step {
                    seat: colour,
                    piece: piece as u8,
                    from,
                    to: from + total,
                    value: total,
                    count: 1,
                    captured: (land == Landing::Capture) as u8,
                    kind: StepKind::Move,
                };
                let fz = frozen
                    | if land == Landing::Capture {
                        1 << piece
                    } else {
                        0
                    };
                self.descend(g, b, &step, i + 2, used + 2, fz, play);
            }
        }

        // One value, one piece (entering with a five, F-F).
        for piece in 0..PIECES {
            if reps & (1 << piece) == 0 || frozen & (1 << piece) != 0 {
                continue;
            }
            let from = b.s.pos[colour as usize][piece];
            let (to, kind) = if from == START_AREA {
                if v != 5 {
                    continue;
                }
                (START_SQUARE, StepKind::Enter)
            } else {
                if !self.can_pass(b, colour, from, from + v) {
                    continue;
                }
                (from + v, StepKind::Move)
            };
            let Some(land) = self.landing(b, colour, to, 1) else {
                continue;
            };
            any = true;
            let step = Step {
                seat: colour,
                piece: piece as u8,
                from,
                to,
                value: v,
                count: 1,
                captured: (land == Landing::Capture) as u8,
                kind,
            };
            let mut fz = frozen;
            if land == Landing::Capture || !both_dice_ok {
                fz |= 1 << piece;
            }
            self.descend(g, b, &step, i + 1, used + 1, fz, play);
        }

        if !any {
            // FAM-4: a value that cannot be played at all is lost.
            self.dfs(g, b, i + 1, used, frozen, play);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn gate_moves(
        &self,
        g: &mut Gen,
        b: &Board,
        i: usize,
        v: u8,
        consumes: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) -> bool {
        let colour = g.colour;
        let pos = b.s.pos[colour as usize];
        let mut any = false;
        for a in 0..PIECES {
            let from = pos[a];
            if from == START_AREA || from == GOAL || frozen & (1 << a) != 0 {
                continue;
            }
            // The first piece of the pair at `from`; the other must be free too.
            if (0..a).any(|j| pos[j] == from) {
                continue;
            }
            let Some(other) = (a + 1..PIECES).find(|&j| pos[j] == from) else {
                continue;
            };
            if frozen & (1 << other) != 0 || !self.can_pass(b, colour, from, from + v) {
                continue;
            }
            let Some(land) = self.landing(b, colour, from + v, 2) else {
                continue;
            };
            any = true;
            let step = Step {
                seat: colour,
                piece: a as u8,
                from,
                to: from + v,
                value: v,
                count: 2,
                captured: (land == Landing::Capture) as u8,
                kind: StepKind::Move,
            };
            let fz = if land == Landing::Capture {
                frozen | 1 << a | 1 << other
            } else {
                frozen
            };
            self.descend(g, b, &step, i + consumes, used + consumes as u8, fz, play);
        }
        any
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn descend(
        &self,
        g: &mut Gen,
        b: &Board,
        step: &Step,
        next: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) {
        let mut nb = *b;
        let perm = self.apply_on(&mut nb, step);
        let mut fz = 0u8;
        for (k, &from) in perm.iter().enumerate() {
            fz |= ((frozen >> from) & 1) << k;
        }
        play.push(*step);
        self.dfs(g, &nb, next, used, fz, play);
        play.pop();
    }

    /// Values of a roll in playing order, and whether the last two are FAM-5b-restricted.
    pub(super) fn values(&self, s: &FamilyState, colour: u8) -> ([u8; 4], usize, bool) {
        let [a, b] = s.dice;
        if a != b {
            return ([a.max(b), a.min(b), 0, 0], 2, false);
        }
        if !self.rules.bottom_faces {
            return ([a, a, 0, 0], 2, false);
        }
        let h = a.max(7 - a);
        let l = 7 - h;
        let restricted = self.rules.doubles_restricted_until_all_played && !s.all_played(colour);
        ([h, h, l, l], 4, restricted)
    }

    pub(super) fn generate_into(&self, s: &FamilyState, orders: Orders, out: &mut Vec<Play>) {
        if self.node(s) != Node::Decision {
            return;
        }
        let colour = self.playing_colour(s);
        let (values, count, restricted) = self.values(s, colour);
        let doubles = s.dice[0] == s.dice[1];
        let six_five = !doubles
            && self.rules.six_five_enters_and_moves
            && values[0] == 6
            && values[1] == 5
            && !s.has_piece_in_play(colour);
        out.clear();
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let (keys, uses, seen) = &mut *scratch;
            seen.clear();
            keys.clear();
            uses.clear();
            let board = self.board(s);
            let mut play = Play::new();
            let mut g = Gen {
                out: &mut *out,
                keys: &mut *keys,
                uses: &mut *uses,
                seen: (orders == Orders::Distinct).then_some(&mut *seen),
                run: 0,
                values,
                count,
                colour,
                restricted,
                doubles,
                six_five,
            };
            self.dfs(&mut g, &board, 0, 0, 0, &mut play);
            if !self.rules.higher_die_first && !doubles {
                g.values = [values[1], values[0], 0, 0];
                g.six_five = false;
                g.run = 1 << 30;
                self.dfs(&mut g, &board, 0, 0, 0, &mut play);
            }
            // Nothing playable at all: the roll is lost (the generic layer forfeits it).
            if uses.first().copied().unwrap_or(0) == 0 {
                out.clear();
                return;
            }
            if self.rules.compulsory_capture && out.iter().any(|p| p.captures() > 0) {
                let mut k = 0;
                for j in 0..out.len() {
                    if out[j].captures() > 0 {
                        out[k] = out[j];
                        keys[k] = keys[j];
                        k += 1;
                    }
                }
                out.truncate(k);
                keys.truncate(k);
            }
            if orders == Orders::Distinct {
                seen.clear();
                let mut keep = 0;
                for i in 0..out.len() {
                    if seen.insert((keys[i], 0)) {
                        out[keep] = out[i];
                        keep += 1;
                    }
                }
                out.truncate(keep);
            }
        });
    }
}
