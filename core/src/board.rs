//! Board geometry of the Parcheesi board (also used by Family and Online Pachisi): a loop of 68
//! squares, four sides with an entry square each, twelve safe squares, and each side's home path.
//!
//! Squares are numbered 0..68 clockwise from side 0's entry square; side `k`'s entry square is
//! `17 * k`. Coordinates in notation and steps are seat-relative (steps from the seat's entry
//! square), so a scenario reads the same for every seat.

/// Squares on the shared loop.
pub const TRACK_LEN: u8 = 68;
/// Squares between two neighbouring sides' entry squares.
pub const SIDE_SPACING: u8 = 17;
/// Offsets from a side's entry square of the safe squares it contributes (E, E+7, E+12).
pub const SAFE_OFFSETS: [u8; 3] = [0, 7, 12];
/// Squares on a home path (the seat's private run before home).
pub const HOME_PATH_LEN: u8 = 7;

/// The absolute square of side `side`'s entry square.
///
/// ```
/// assert_eq!(pachisi::board::entry_square(2), 34);
/// ```
pub const fn entry_square(side: u8) -> u8 {
    side * SIDE_SPACING
}

/// The absolute square `offset` squares after side `side`'s entry square.
///
/// ```
/// assert_eq!(pachisi::board::square_at(3, 20), 3);
/// ```
pub const fn square_at(side: u8, offset: u32) -> u8 {
    ((entry_square(side) as u32 + offset) % TRACK_LEN as u32) as u8
}

/// Whether an absolute square is one of the twelve safe squares.
///
/// ```
/// use pachisi::board::is_safe;
/// assert!(is_safe(0) && is_safe(7) && is_safe(12) && is_safe(63));
/// assert!(!is_safe(1));
/// ```
pub const fn is_safe(square: u8) -> bool {
    let off = square % SIDE_SPACING;
    off == 0 || off == 7 || off == 12
}

/// Whether an absolute square is some side's entry square.
pub const fn is_entry(square: u8) -> bool {
    square % SIDE_SPACING == 0
}

/// The board side each seat sits at: seats take sides in order, and two seats sit opposite.
///
/// ```
/// use pachisi::board::side_of_seat;
/// assert_eq!(side_of_seat(1, 2), 2);
/// assert_eq!(side_of_seat(2, 3), 2);
/// ```
pub const fn side_of_seat(seat: u8, seats: u8) -> u8 {
    if seats == 2 { seat * 2 } else { seat }
}
