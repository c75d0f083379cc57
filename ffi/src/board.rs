//! Board data for renderers, the position hash and equality, and the plays of a hypothetical
//! roll: reads that change nothing.

use crate::error::{Failure, Outcome, boundary};
use crate::events::pachisi_play;
use crate::game::{pachisi_game, pachisi_roll};
use crate::pachisi_result;
use crate::util::{Out, handle, write_slice};
use engine::{BoardKind, CharkoniStage, Node, PieceView, Place};

/// Where a place is (the `zone` field of `pachisi_place`).
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_zone {
    /// Loop board: a nest (start area) of board side `side`.
    Nest = 0,
    /// Loop board: square `square` (0..68) of the shared loop, counted from side 0's entry.
    Track = 1,
    /// Loop board: square `index` (0 = first) of side `side`'s home path.
    HomePath = 2,
    /// Loop board: the home of side `side`.
    Home = 3,
    /// Cross board: the square of arm `side`, column `column` (1 = middle), row `row` (0 next
    /// to the centre, 7 at the edge).
    Cross = 4,
    /// Cross board: the charkoni (centre); `stage` tells waiting, entered and home pieces apart.
    Charkoni = 5,
    /// Backgammon: point `square` (1..=24, numbered from seat 0's side).
    Point = 6,
    /// Backgammon: the bar.
    Bar = 7,
    /// Backgammon: borne off.
    Off = 8,
}

/// The board a game is played on (the `board` field of `pachisi_board`).
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_board_kind {
    /// The Parcheesi board: a loop of 68 squares, four nests and home paths.
    Loop = 0,
    /// The classic cross of four arms around the charkoni.
    Cross = 1,
    /// The backgammon board.
    Backgammon = 2,
}

/// A place on a board in absolute board coordinates (the places the SVG picture draws). The
/// fields a zone does not use are 0.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_place {
    /// A `pachisi_zone` value.
    pub zone: u8,
    /// Nest, home path, home: the board side (0..4); cross: the arm (0..4).
    pub side: u8,
    /// Track: the loop square (0..68); point: the point (1..=24).
    pub square: u8,
    /// Home path: the index along it (0 = first).
    pub index: u8,
    /// Cross: the column (0, 1 = middle, 2).
    pub column: u8,
    /// Cross: the row (0 next to the charkoni .. 7 at the edge).
    pub row: u8,
    /// Charkoni: 0 waiting to enter, 1 entered, 2 home.
    pub stage: u8,
}

impl From<Place> for pachisi_place {
    fn from(p: Place) -> pachisi_place {
        let z = |zone: pachisi_zone| pachisi_place {
            zone: zone as u8,
            ..Default::default()
        };
        match p {
            Place::Nest { side } => pachisi_place {
                side,
                ..z(pachisi_zone::Nest)
            },
            Place::Track { square } => pachisi_place {
                square,
                ..z(pachisi_zone::Track)
            },
            Place::HomePath { side, index } => pachisi_place {
                side,
                index,
                ..z(pachisi_zone::HomePath)
            },
            Place::Home { side } => pachisi_place {
                side,
                ..z(pachisi_zone::Home)
            },
            Place::Cross { arm, column, row } => pachisi_place {
                side: arm,
                column,
                row,
                ..z(pachisi_zone::Cross)
            },
            Place::Charkoni { stage } => pachisi_place {
                stage: match stage {
                    CharkoniStage::Waiting => 0,
                    CharkoniStage::Entered => 1,
                    CharkoniStage::Home => 2,
                },
                ..z(pachisi_zone::Charkoni)
            },
            Place::Point { point } => pachisi_place {
                square: point,
                ..z(pachisi_zone::Point)
            },
            Place::Bar => z(pachisi_zone::Bar),
            Place::Off => z(pachisi_zone::Off),
        }
    }
}

/// Some pieces of one owner on one place.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_piece {
    /// The owner (a seat; a colour 0..4 in Classic Pachisi, where a player of two plays two).
    pub owner: u8,
    /// The seat that plays the owner's pieces.
    pub seat: u8,
    /// The board side whose colour the pieces wear.
    pub side: u8,
    /// The piece's index within its owner, or `PACHISI_NO_PIECE` for a group (backgammon).
    pub piece: u8,
    /// How many pieces (1 for an identified piece).
    pub count: u8,
    /// Where.
    pub place: pachisi_place,
}

/// The most pieces (or groups of pieces) `pachisi_board` holds: more than any variant has.
pub const PACHISI_MAX_BOARD_PIECES: usize = 64;

/// The most safe places `pachisi_board` holds.
pub const PACHISI_MAX_SAFE_PLACES: usize = 32;

/// Everything a renderer draws, as plain data (see `pachisi_game_board`).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct pachisi_board {
    /// A `pachisi_board_kind` value.
    pub board: u8,
    /// What happens next: a `pachisi_node` value (0 chance, 1 decision, 2 over).
    pub node: u8,
    /// The seat to roll or to play.
    pub to_move: u8,
    /// The number of seats.
    pub seats: u8,
    /// Whether `roll` holds the roll being played (at a decision node after a roll).
    pub has_roll: bool,
    /// The roll being played (zero when `has_roll` is false).
    pub roll: pachisi_roll,
    /// Always 0: the bytes that align `piece_count`, named so that they are written (a
    /// `memcmp` of two boards compares only written bytes).
    pub reserved: [u8; 3],
    /// How many entries of `pieces` are used.
    pub piece_count: u32,
    /// Every piece, or group of pieces, of the current position.
    pub pieces: [pachisi_piece; PACHISI_MAX_BOARD_PIECES],
    /// How many entries of `safe` are used.
    pub safe_count: u32,
    /// The squares where pieces cannot be captured (safe squares, castles) under these rules.
    pub safe: [pachisi_place; PACHISI_MAX_SAFE_PLACES],
}

fn piece_of(game: &engine::Game, v: &PieceView) -> pachisi_piece {
    let (seat, side) = (game.seat_of_owner(v.seat), game.side_of_owner(v.seat));
    pachisi_piece {
        owner: v.seat,
        seat,
        side,
        piece: v.piece,
        count: v.count,
        place: v.place.into(),
    }
}

fn board_of(game: &engine::Game) -> Outcome<pachisi_board> {
    let data = game.board_data();
    if data.pieces.len() > PACHISI_MAX_BOARD_PIECES || data.safe.len() > PACHISI_MAX_SAFE_PLACES {
        return Err(Failure::new(
            pachisi_result::OtherError,
            "the position has more pieces or safe places than pachisi_board holds",
        ));
    }
    let mut out = pachisi_board {
        board: match data.board {
            BoardKind::Loop => pachisi_board_kind::Loop as u8,
            BoardKind::Cross => pachisi_board_kind::Cross as u8,
            BoardKind::Backgammon => pachisi_board_kind::Backgammon as u8,
        },
        node: match data.node {
            Node::Chance => 0,
            Node::Decision => 1,
            Node::Over => 2,
        },
        to_move: data.to_move,
        seats: game.seats(),
        has_roll: data.roll.is_some(),
        reserved: [0; 3],
        roll: data.roll.map(pachisi_roll::from).unwrap_or_default(),
        piece_count: data.pieces.len() as u32,
        pieces: [pachisi_piece::default(); PACHISI_MAX_BOARD_PIECES],
        safe_count: data.safe.len() as u32,
        safe: [pachisi_place::default(); PACHISI_MAX_SAFE_PLACES],
    };
    for (slot, v) in out.pieces.iter_mut().zip(&data.pieces) {
        *slot = piece_of(game, v);
    }
    for (slot, p) in out.safe.iter_mut().zip(&data.safe) {
        *slot = (*p).into();
    }
    Ok(out)
}

/// Writes the board as plain data to `*out`: every piece with its place in board coordinates
/// (the places `pachisi_game_svg` draws), the safe squares and castles of the rules, the roll
/// being played and whose turn it is. With steps of an unfinished play taken, they are applied.
///
/// - `out`: caller-owned, written on success.
///
/// Errors: `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_board(
    game: *const pachisi_game,
    out: *mut pachisi_board,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let out = unsafe { Out::new(out, "out") }?;
        let board = board_of(g.game()?)?;
        out.set(board);
        Ok(())
    })
}

/// Writes a 64-bit hash of the position (the position at the start of the play and the steps
/// taken; not the history or the generator) to `*out`, for transposition tables. Games with
/// equal positions (`pachisi_game_same_position`) have equal hashes. Stable within one version
/// of the library on one platform; not a format to store.
///
/// Errors: `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_hash(
    game: *const pachisi_game,
    out: *mut u64,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let out = unsafe { Out::new(out, "out") }?;
        out.set(g.game()?.position_hash());
        Ok(())
    })
}

/// Writes to `*out` whether two games stand at the same position under the same rules
/// (history, generator and log aside, and the order of two dice: 3-5 and 5-3 are one roll).
///
/// Errors: `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_same_position(
    a: *const pachisi_game,
    b: *const pachisi_game,
    out: *mut bool,
) -> pachisi_result {
    boundary(|| {
        let a = unsafe { handle(a, "a") }?;
        let b = unsafe { handle(b, "b") }?;
        let out = unsafe { Out::new(out, "out") }?;
        out.set(a.game()?.same_position(b.game()?));
        Ok(())
    })
}

/// Copies the legal plays of a hypothetical roll at this chance node into `buf`, without
/// changing the game (one per distinct resulting position, in the order
/// `pachisi_game_legal_play` would list them after `pachisi_game_set_roll`; none when the roll
/// cannot be played or is resolved at once, as a third-doubles penalty is).
///
/// - `roll`: borrowed for the call.
/// - `buf`: caller-owned array of `len` plays (may be NULL when `len` is 0); written on success.
/// - `written`: receives the number of plays, on success and on
///   `PACHISI_RESULT_BUFFER_TOO_SMALL`.
///
/// Errors: `WRONG_PHASE` (not at a chance node), `INVALID_ROLL`, `BUFFER_TOO_SMALL`,
/// `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_plays_for_roll(
    game: *const pachisi_game,
    roll: *const pachisi_roll,
    buf: *mut pachisi_play,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let roll = unsafe { handle(roll, "roll") }?;
        let game = g.game()?;
        let plays = game.plays_for_roll(roll.to_engine()?)?;
        let converted: Vec<pachisi_play> =
            plays.iter().map(|p| pachisi_play::of(game, p)).collect();
        unsafe { write_slice(&converted, buf, len, written) }
    })
}
