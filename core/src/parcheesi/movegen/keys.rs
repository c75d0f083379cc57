//! Position keys and the memo of the fast search: 64-bit hashes of states, and of the mover's
//! pieces as a sum of per-square codes so that a step updates the key in O(1).
//!
//! A state's key ([`generic_key`]) is a hash of everything but the mover's pieces combined with
//! the code of those pieces ([`pieces_code`]); the plain search keeps the code incrementally
//! ([`moved_code`]). Two distinct positions of one roll sharing a key is a 2^-64 event per pair.

use super::*;

/// FxHash's mixing step.
#[inline]
pub(super) fn mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

#[inline]
pub(super) fn pack(a: [u8; 4], b: [u8; 4]) -> u64 {
    u32::from_le_bytes(a) as u64 | (u32::from_le_bytes(b) as u64) << 32
}

/// A hash of every field of a state.
#[inline]
pub(super) fn hash_state(s: &ParcheesiState) -> u64 {
    hash_tail(hash_pieces(s), s, s.left)
}

/// The first part of [`hash_state`]: the pieces and ages, which the nodes below a capture
/// ([`super::plain::ext_plain_dfs`]) share, so that their keys hash only the rest.
#[inline]
pub(super) fn hash_pieces(s: &ParcheesiState) -> u64 {
    let p = &s.pieces;
    let a = &s.ages;
    let mut h = mix(0, pack(p[0], p[1]));
    h = mix(h, pack(p[2], p[3]));
    h = mix(h, pack(a[0], a[1]));
    mix(h, pack(a[2], a[3]))
}

/// [`hash_state`] from [`hash_pieces`]`(s)` (`h`), with the values left `left`.
#[inline]
pub(super) fn hash_tail(h: u64, s: &ParcheesiState, left: [u8; 4]) -> u64 {
    let mut h = mix(h, pack(s.groups, left));
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
pub(super) struct Memo {
    /// (hash, stamp << 1 | flag)
    pub(super) entries: Vec<(u64, u32)>,
    pub(super) stamp: u32,
    pub(super) len: usize,
}

impl Memo {
    pub(super) fn new(capacity: usize) -> Memo {
        Memo {
            entries: vec![(0, 0); capacity],
            stamp: 1,
            len: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.stamp += 1;
        if self.stamp >= 1 << 30 {
            self.entries.fill((0, 0));
            self.stamp = 1;
        }
        self.len = 0;
    }

    #[inline]
    pub(super) fn get(&self, hash: u64) -> Option<bool> {
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
    pub(super) fn insert(&mut self, hash: u64, known: bool) {
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
    pub(super) fn insert_new(&mut self, hash: u64) -> bool {
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

    pub(super) fn grow(&mut self) {
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

/// The bit of a position key in [`Ctx::listed_bits`].
#[inline(always)]
pub(super) fn key_bit(key: u64) -> u64 {
    1 << ((key >> 40) & 63)
}

/// The key of a dice part (the position the dice led to), per dice play: never tagged as a plain
/// play's key, which is its own dice part.
///
/// It is [`dice_part_key_of`] of the hash of the state without the mover's pieces and the
/// pending bonuses, so that the last bonus of a play (see `dfs`), which hashes that state for
/// its own key, derives the key of its dice part from it.
#[inline]
pub(super) fn dice_part_key(s: &ParcheesiState) -> u64 {
    let seat = s.turn as usize & 3;
    let mut rest = *s;
    rest.pieces[seat] = [0; PIECES];
    (rest.pending_capture, rest.pending_home) = (0, 0);
    dice_part_key_of(
        hash_state(&rest),
        pieces_code(&s.pieces[seat]),
        s.pending_capture,
        s.pending_home,
    )
}

/// [`dice_part_key`] from `rest` (the hash of the state with the mover's pieces and the pending
/// bonuses cleared), the code of the mover's pieces and the pending bonuses.
#[inline]
pub(super) fn dice_part_key_of(rest: u64, code: u64, pending_capture: u8, pending_home: u8) -> u64 {
    let pending = u16::from_le_bytes([pending_capture, pending_home]) as u64;
    combine_key(mix(rest, code), pending)
}

/// Marks the keys of plain positions (see [`Plain::key`]); the keys of the general search have
/// this bit clear, so the two kinds never compare equal.
pub(super) const PLAIN_TAG: u64 = 1 << 63;

/// The dedup and memo key of a state of the general search: a hash of everything but the
/// mover's pieces, combined with the sum of their codes (so that a leaf that differs from its
/// parent only in the mover's pieces gets its key from the parent's in two operations).
#[inline]
pub(super) fn generic_key(s: &ParcheesiState, seat: usize) -> u64 {
    generic_key_with(s, seat, pieces_code(&s.pieces[seat]))
}

/// [`generic_key`] of `s` with the mover's pieces coded `code` (`s`'s own mover's pieces are
/// not read): the key of a node known by its incremental code.
#[inline]
pub(super) fn generic_key_with(s: &ParcheesiState, seat: usize, code: u64) -> u64 {
    let mut rest = *s;
    rest.pieces[seat] = [0; PIECES];
    combine_key(hash_state(&rest), code)
}

/// The sum of the codes of a set of pieces (see [`PIECE_CODES`]).
#[inline]
pub(super) fn pieces_code(pieces: &[u8; PIECES]) -> u64 {
    pieces
        .iter()
        .fold(0u64, |c, &p| c.wrapping_add(PIECE_CODES[p as usize]))
}

/// A general-search key from the hash of the rest of the state and the mover's pieces' code.
#[inline]
pub(super) fn combine_key(rest: u64, code: u64) -> u64 {
    let h = mix(rest, code);
    (h ^ (h >> 29)) & !PLAIN_TAG
}

/// The code of a set of pieces after one of them moved from `from` to `to`.
#[inline(always)]
pub(super) fn moved_code(code: u64, from: u8, to: u8) -> u64 {
    code.wrapping_sub(PIECE_CODES[from as usize])
        .wrapping_add(PIECE_CODES[to as usize])
}

/// A random 64-bit code per position: the key of a set of pieces is the (wrapping) sum of its
/// pieces' codes, whatever their order, so a step updates it in two operations.
pub(super) static PIECE_CODES: [u64; 256] = piece_codes();

pub(super) const fn piece_codes() -> [u64; 256] {
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
