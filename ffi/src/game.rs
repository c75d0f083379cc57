//! Game handles: creation, chance, legal plays and steps, moves, undo, JSON, notation and pictures.

use crate::error::{Failure, Outcome, boundary};
use crate::pachisi_result;
use crate::rules::{pachisi_rules, rules_from_parts};
use crate::util::{
    Out, handle, handle_mut, read_opt_str, read_opt_str_n, read_str, read_str_n, write_slice,
    write_str,
};
use engine::{ChanceOutcome, Game, Node, Play, Roll, RuleSystem, Rules, Step, StepKind};
use std::ffi::c_char;
use std::sync::{Mutex, OnceLock};

/// A game in progress: rules, position, seeded generator, history. Opaque.
///
/// Created by the `pachisi_game_new`/`_from_*` calls and `pachisi_game_clone`; owned by the
/// caller; released with `pachisi_game_free`. A handle may move between threads. Every call
/// taking a `const pachisi_game *` only reads, and any number of them may run at once on one
/// handle from several threads; a call taking a `pachisi_game *` changes the game and needs
/// the handle to itself (no other call on it, reading or writing, at the same time). Distinct
/// handles are independent.
///
/// The handle caches the lists the index-based calls read (legal plays, legal steps, chance
/// outcomes), filled once on first read under a lock-free once-cell that is safe from several
/// threads: an index stays valid until the game changes (a successful roll, play, step, finish
/// or undo). A failed call changes nothing, indices included.
pub struct pachisi_game {
    game: Game,
    notations: OnceLock<Vec<String>>,
    chance: OnceLock<Vec<ChanceOutcome>>,
    /// The text a string output made for a call whose buffer was too small (the size query of
    /// the two-call protocol), kept for the next call of the same output so that it does not
    /// serialise the game a second time. Dropped when it is used and when the game changes.
    pending: Mutex<Option<PendingText>>,
    /// Set while a mutation runs; still set afterwards only if the mutation panicked.
    broken: bool,
}

/// Which string output a [`PendingText`] belongs to (with its parameter, for the SVG).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum TextKind {
    Json,
    RulesJson,
    Position,
    LogText,
    /// The picture, by the bits of its requested width (NaN compares equal to itself this way).
    Svg(u64),
}

struct PendingText {
    kind: TextKind,
    text: String,
}

/// The seat that plays the pieces of `owner` (a `Step::seat`): the owner itself except in
/// two-seat Classic Pachisi, where each seat plays two colours.
fn seat_of_owner(game: &Game, owner: u8) -> u8 {
    match game {
        Game::Parcheesi(g) => g.system().seat_of_owner(owner),
        Game::Family(g) => g.system().seat_of_owner(owner),
        Game::Classic(g) => g.system().seat_of_owner(owner),
        Game::Backgammon(g) => g.system().seat_of_owner(owner),
        _ => owner,
    }
}

impl pachisi_game {
    fn wrap(game: Game) -> *mut pachisi_game {
        Box::into_raw(Box::new(pachisi_game {
            game,
            notations: OnceLock::new(),
            chance: OnceLock::new(),
            pending: Mutex::new(None),
            broken: false,
        }))
    }

    fn check(&self) -> Outcome {
        if self.broken {
            return Err(Failure::new(
                pachisi_result::Panic,
                "this game was interrupted by a panic in the engine; free it",
            ));
        }
        Ok(())
    }

    pub(crate) fn game(&self) -> Outcome<&Game> {
        self.check()?;
        Ok(&self.game)
    }

    fn plays(&self) -> &[Play] {
        self.game.legal_plays_ref()
    }

    fn notations(&self) -> &[String] {
        self.notations.get_or_init(|| {
            self.plays()
                .iter()
                .map(|p| self.game.format_play(p))
                .collect()
        })
    }

    fn steps(&self) -> &[Step] {
        self.game.legal_steps_ref()
    }

    fn chance(&self) -> &[ChanceOutcome] {
        self.chance.get_or_init(|| self.game.chance_outcomes())
    }

    /// Runs a change of the game; on success the cached lists are dropped.
    pub(crate) fn mutate<T>(
        &mut self,
        change: impl FnOnce(&mut Game) -> engine::Result<T>,
    ) -> Outcome<T> {
        self.check()?;
        self.broken = true;
        let result = change(&mut self.game);
        self.broken = false;
        let value = result?;
        self.notations = OnceLock::new();
        self.chance = OnceLock::new();
        *self.pending.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(value)
    }

    /// A step of this game as C sees it.
    pub(crate) fn c_step(&self, step: &Step) -> pachisi_step {
        pachisi_step::of(&self.game, step)
    }

    /// Copies a string output into the caller's buffer, computing it with `make` unless the
    /// size query just before kept it (see `pending`). A too-small buffer keeps the text for the
    /// next call; any other outcome drops it.
    fn write_text(
        &self,
        kind: TextKind,
        make: impl FnOnce(&Game) -> String,
        buf: *mut c_char,
        len: usize,
        written: *mut usize,
    ) -> Outcome {
        let game = self.game()?;
        let kept = {
            let mut slot = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            match slot.take() {
                Some(p) if p.kind == kind => Some(p.text),
                other => {
                    *slot = other;
                    None
                }
            }
        };
        // Made outside the lock: readers on other threads are not held up by a serialisation.
        let text = kept.unwrap_or_else(|| make(game));
        let result = unsafe { write_str(&text, buf, len, written) };
        if let Err(f) = &result {
            if f.code == pachisi_result::BufferTooSmall {
                let mut slot = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                *slot = Some(PendingText { kind, text });
            }
        }
        result
    }
}

/// What happens next in a game: a `uint32_t` in C (`-fshort-enums` cannot change its size), an
/// enum with underlying type `uint32_t` in C++ and C23.
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_node {
    /// A roll (dice or cowries) is due: `pachisi_game_roll` or `pachisi_game_set_roll`.
    Chance = 0,
    /// The seat to move chooses a play (or, in backgammon, a cube action).
    Decision = 1,
    /// The game is over.
    Over = 2,
}

/// What a step does (the `kind` field of `pachisi_step`).
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_step_kind {
    /// A piece in play moves forward (bearing off in backgammon is a move to position 0).
    Move = 0,
    /// A piece leaves the nest (the bar, the charkoni) and enters the board.
    Enter = 1,
    /// A bonus move (Parcheesi's 20 and 10, Online Pachisi's 10).
    Bonus = 2,
    /// Backgammon: the player on roll offers the doubling cube.
    Double = 3,
    /// Backgammon: the player on roll rolls without offering the cube.
    NoDouble = 4,
    /// Backgammon: the opponent takes the cube.
    Take = 5,
    /// Backgammon: the opponent drops and loses at the current cube value.
    Drop = 6,
}

/// One sub-move of a play (the engine's `Step` and the seat that plays it; 9 bytes, all
/// `uint8_t`).
///
/// Positions `from`/`to` are in the coordinates of the piece's colour as each variant documents
/// (Pachisi family: steps from the colour's entry square, 0 the nest; backgammon: points
/// numbered from the mover's side, 25 the bar, 0 off).
///
/// As input (`pachisi_game_step`, `pachisi_game_play_steps`) `seat` must be the seat that plays
/// `colour` (what the legal steps hold), or the call fails with `ILLEGAL_MOVE`.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_step {
    /// The seat whose piece moves (0..seats): the seat to move, or its partner's seat when a
    /// seat that has finished plays for its partner. Always a seat, in every variant.
    pub seat: u8,
    /// The piece's index within its seat, or `PACHISI_NO_PIECE`.
    pub piece: u8,
    /// Where the piece stood.
    pub from: u8,
    /// Where it stands after the step.
    pub to: u8,
    /// The pips this step spends (a die, a sum, a bonus, a throw).
    pub value: u8,
    /// How many pieces move together (1; 2 for a gate or blockade; n for a unit).
    pub count: u8,
    /// How many opposing pieces this step captures.
    pub captured: u8,
    /// A `pachisi_step_kind` value.
    pub kind: u8,
    /// The colour (owner) of the moving piece: the board side its pieces start from and the
    /// coordinates of `from`/`to`. It equals `seat` except in Classic Pachisi for two, where
    /// seat s plays colours s and s + 2 (0..4).
    pub colour: u8,
}

impl pachisi_step {
    /// A step of `game` as C sees it: the engine's step (whose `seat` is the piece's owner,
    /// the colour) and the seat that plays that colour.
    pub(crate) fn of(game: &Game, s: &Step) -> pachisi_step {
        pachisi_step {
            seat: seat_of_owner(game, s.seat),
            colour: s.seat,
            piece: s.piece,
            from: s.from,
            to: s.to,
            value: s.value,
            count: s.count,
            captured: s.captured,
            kind: s.kind as u8,
        }
    }
}

impl pachisi_step {
    /// The engine's step; `seat` must be the seat that plays `colour` in `game`.
    fn to_engine(self, game: &Game) -> Outcome<Step> {
        let seat = seat_of_owner(game, self.colour);
        if self.seat != seat {
            return Err(Failure::new(
                pachisi_result::IllegalMove,
                format!(
                    "illegal move: step seat {} does not play colour {} (seat {seat} does)",
                    self.seat, self.colour
                ),
            ));
        }
        let kind = match self.kind {
            0 => StepKind::Move,
            1 => StepKind::Enter,
            2 => StepKind::Bonus,
            3 => StepKind::Double,
            4 => StepKind::NoDouble,
            5 => StepKind::Take,
            6 => StepKind::Drop,
            k => {
                return Err(Failure::new(
                    pachisi_result::IllegalMove,
                    format!("illegal move: step kind {k} does not exist"),
                ));
            }
        };
        Ok(Step {
            seat: self.colour,
            piece: self.piece,
            from: self.from,
            to: self.to,
            value: self.value,
            count: self.count,
            captured: self.captured,
            kind,
        })
    }
}

/// What kind of roll a `pachisi_roll` holds.
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_roll_kind {
    /// Two six-sided dice in `dice`.
    Dice = 0,
    /// A throw of cowrie shells: `up` of them landed mouth up.
    Cowries = 1,
}

/// One chance outcome: two dice, or a throw of cowries.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_roll {
    /// A `pachisi_roll_kind` value.
    pub kind: u8,
    /// The two dice, in the order rolled (0 for a cowrie throw).
    pub dice: [u8; 2],
    /// Shells mouth up (0 for dice).
    pub up: u8,
}

impl From<Roll> for pachisi_roll {
    fn from(r: Roll) -> pachisi_roll {
        match r {
            Roll::Dice(d) => pachisi_roll {
                kind: pachisi_roll_kind::Dice as u8,
                dice: d,
                up: 0,
            },
            Roll::Cowries(n) => pachisi_roll {
                kind: pachisi_roll_kind::Cowries as u8,
                dice: [0, 0],
                up: n,
            },
        }
    }
}

impl pachisi_roll {
    /// The engine's roll. The field the kind does not use must be 0, so that a roll built for
    /// the wrong kind is an error rather than silently read as another roll.
    pub(crate) fn to_engine(self) -> Outcome<Roll> {
        let unused = |field: &str| {
            Err(Failure::new(
                pachisi_result::InvalidRoll,
                format!("invalid roll: `{field}` must be 0 for this roll kind"),
            ))
        };
        match self.kind {
            0 if self.up != 0 => unused("up"),
            1 if self.dice != [0, 0] => unused("dice"),
            0 => Ok(Roll::Dice(self.dice)),
            1 => Ok(Roll::Cowries(self.up)),
            k => Err(Failure::new(
                pachisi_result::InvalidRoll,
                format!("invalid roll: roll kind {k} does not exist"),
            )),
        }
    }
}

/// How a game ended.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_outcome {
    /// Whether the game is over: won, or ended by the rules' `max_rolls` (then no seat won:
    /// `winners` 0, `winner` `PACHISI_NO_SEAT`, `points` 0; see `pachisi_game_is_truncated`).
    /// The other fields are 0 / `PACHISI_NO_SEAT` while the game goes on.
    pub over: bool,
    /// Always 0 (alignment bytes, named so that they are written).
    pub reserved0: u8,
    /// Bit i set when seat i won (a team wins together).
    pub winners: u16,
    /// The lowest winning seat, or `PACHISI_NO_SEAT`.
    pub winner: u8,
    /// Always 0 (alignment bytes, named so that they are written).
    pub reserved1: [u8; 3],
    /// Points won (1 in the Pachisi family; 1, 2 or 3 times the cube in backgammon).
    pub points: u32,
}

// ---------------------------------------------------------------------------------------------
// Creation and release

fn create(out: *mut *mut pachisi_game, make: impl FnOnce() -> Outcome<Game>) -> pachisi_result {
    boundary(|| {
        let out = unsafe { Out::new(out, "out") }?;
        let game = make()?;
        out.set(pachisi_game::wrap(game));
        Ok(())
    })
}

/// A new game of `rules` from the starting position, its dice drawn from a generator seeded
/// with `seed` (the same seed replays the same game on every platform and release).
///
/// - `rules`: borrowed for the call (the game keeps its own copy).
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_game_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_new(
    rules: *const pachisi_rules,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let rules = unsafe { handle(rules, "rules") }?;
        Ok(Game::new(&rules.rules, seed))
    })
}

/// A new game of a preset with optional options (see `pachisi_rules_from_preset`).
///
/// - `name`, `options_json` (NULL for the defaults): NUL-terminated, borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_game_free`.
///
/// Errors: `UNKNOWN_VARIANT`, `INVALID_JSON`, `INVALID_RULES`, `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_preset(
    name: *const c_char,
    options_json: *const c_char,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let name = unsafe { read_str(name, "name") }?;
        let options = unsafe { read_opt_str(options_json, "options_json") }?;
        Ok(Game::new(&rules_from_parts(name, options)?, seed))
    })
}

/// `pachisi_game_from_preset` with pointer+length strings (as `pachisi_rules_from_preset_n`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_preset_n(
    name: *const c_char,
    name_len: usize,
    options_json: *const c_char,
    options_len: usize,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let name = unsafe { read_str_n(name, name_len, "name") }?;
        let options = unsafe { read_opt_str_n(options_json, options_len, "options_json") }?;
        Ok(Game::new(&rules_from_parts(name, options)?, seed))
    })
}

/// A new game from a rules JSON document (`{"variant": ..., options}`).
///
/// - `rules_json`: NUL-terminated, borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_game_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_rules_json(
    rules_json: *const c_char,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let text = unsafe { read_str(rules_json, "rules_json") }?;
        Ok(Game::new(&Rules::from_json(text)?, seed))
    })
}

/// `pachisi_game_from_rules_json` with a pointer+length string: `rules_json` is `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_rules_json_n(
    rules_json: *const c_char,
    len: usize,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let text = unsafe { read_str_n(rules_json, len, "rules_json") }?;
        Ok(Game::new(&Rules::from_json(text)?, seed))
    })
}

/// A game of `rules` from a position in the variant's notation (what `pachisi_game_position`
/// writes; in Family Pachisi and backgammon only with no step of a play taken: see
/// `pachisi_game_position`).
/// If the position is at a decision node with no legal play, the roll is forfeited at once, as
/// in play.
///
/// - `rules`: borrowed for the call. `position`: NUL-terminated, borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_game_free`.
///
/// Errors: `INVALID_NOTATION`, `INVALID_POSITION`, `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_position(
    rules: *const pachisi_rules,
    position: *const c_char,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let rules = unsafe { handle(rules, "rules") }?;
        let text = unsafe { read_str(position, "position") }?;
        Ok(Game::from_position(&rules.rules, text, seed)?)
    })
}

/// `pachisi_game_from_position` with a pointer+length string: `position` is `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_position_n(
    rules: *const pachisi_rules,
    position: *const c_char,
    len: usize,
    seed: u64,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let rules = unsafe { handle(rules, "rules") }?;
        let text = unsafe { read_str_n(position, len, "position") }?;
        Ok(Game::from_position(&rules.rules, text, seed)?)
    })
}

/// A game read from the JSON of a whole game (what `pachisi_game_to_json` writes: rules,
/// position, steps taken, generator state, history).
///
/// - `json`: NUL-terminated, borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_game_free`.
///
/// Errors: `INVALID_JSON`, `INVALID_RULES`, `UNKNOWN_VARIANT`, `INVALID_POSITION`,
/// `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_json(
    json: *const c_char,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let text = unsafe { read_str(json, "json") }?;
        Ok(Game::from_json(text)?)
    })
}

/// `pachisi_game_from_json` with a pointer+length string: `json` is `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_from_json_n(
    json: *const c_char,
    len: usize,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let text = unsafe { read_str_n(json, len, "json") }?;
        Ok(Game::from_json(text)?)
    })
}

/// An independent copy of a game (position, generator, history).
///
/// - `game`: borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_game_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_clone(
    game: *const pachisi_game,
    out: *mut *mut pachisi_game,
) -> pachisi_result {
    create(out, || {
        let g = unsafe { handle(game, "game") }?;
        Ok(g.game()?.clone())
    })
}

/// Releases a game handle. NULL is allowed (nothing happens). Using the handle afterwards is
/// the caller's bug.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_free(game: *mut pachisi_game) {
    crate::error::boundary_value((), || {
        if !game.is_null() {
            drop(unsafe { Box::from_raw(game) });
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Reading the state

fn read<T>(
    game: *const pachisi_game,
    out: *mut T,
    value: impl FnOnce(&pachisi_game) -> Outcome<T>,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let out = unsafe { Out::new(out, "out") }?;
        g.check()?;
        out.set(value(g)?);
        Ok(())
    })
}

fn read_text(
    game: *const pachisi_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
    kind: TextKind,
    text: impl FnOnce(&Game) -> String,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        g.write_text(kind, text, buf, len, written)
    })
}

/// Copies the whole game as JSON (rules, position, steps taken, generator, history) into
/// `buf`; `pachisi_game_from_json` reads it back exactly.
///
/// String output: `buf` (caller-owned, `len` bytes; may be NULL when `len` is 0) receives the
/// NUL-terminated text on success; `*written` receives the size in bytes including the NUL, on
/// success and on `PACHISI_RESULT_BUFFER_TOO_SMALL` (then `buf` is untouched).
///
/// The game's string outputs (this one, `_rules_json`, `_position`, `_log_text`, `_svg`) make
/// their text once per size query and copy: the text made for a call that returned
/// `BUFFER_TOO_SMALL` is kept by the handle and copied by the next call of the same output
/// (same `size` for the SVG), so the usual ask-allocate-copy sequence serialises the game once.
/// The kept text is dropped when it is copied, when the game changes, or when the handle is
/// freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_to_json(
    game: *const pachisi_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    read_text(game, buf, len, written, TextKind::Json, |g| g.to_json())
}

/// Copies the game's rules as JSON into `buf` (string output as for `pachisi_game_to_json`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_rules_json(
    game: *const pachisi_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    read_text(game, buf, len, written, TextKind::RulesJson, |g| {
        g.rules().to_json()
    })
}

/// Copies the game's preset name into `buf` (string output as for `pachisi_game_to_json`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_variant(
    game: *const pachisi_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        unsafe { write_str(g.game()?.variant(), buf, len, written) }
    })
}

/// A new rules handle holding the game's rules.
///
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_rules_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_rules(
    game: *const pachisi_game,
    out: *mut *mut pachisi_rules,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let out = unsafe { Out::new(out, "out") }?;
        let rules = g.game()?.rules().clone();
        out.set(Box::into_raw(Box::new(pachisi_rules { rules })));
        Ok(())
    })
}

/// Copies the current position in the variant's notation into `buf` (string output as for
/// `pachisi_game_to_json`). With steps of an unfinished play taken, they are applied. The
/// notations of Family Pachisi and backgammon have no field for the part of the roll left, so
/// there such a text shows the whole roll and is no position to continue from
/// (`pachisi_game_from_position` refuses it, or reads it as the start of a play of the whole
/// roll); `pachisi_game_to_json` saves any game part-way through a play.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_position(
    game: *const pachisi_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    read_text(game, buf, len, written, TextKind::Position, |g| {
        g.position()
    })
}

/// Copies the game's log as text into `buf`, one event per line: `roll <seat> <roll>`,
/// `play <seat> <move notation>` (written from the position before the play) or
/// `forfeit <seat>` (string output as for `pachisi_game_to_json`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_log_text(
    game: *const pachisi_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    read_text(game, buf, len, written, TextKind::LogText, |g| g.log_text())
}

/// Copies a picture of the board, an SVG document `size` pixels wide, into `buf` (string output
/// as for `pachisi_game_to_json`; the document is tens of kilobytes, so ask for its size first
/// with `buf = NULL, len = 0`).
///
/// The picture shows every piece, the safe squares (castles) of the game's rules, the last play
/// as arrows along the squares each piece passed, a legend of the seats' colours and teams, the
/// pending roll (dice faces or cowries) and a caption; backgammon is drawn from the side of the
/// seat to move, with both pip counts. A `size` below 50, above 1,000,000, or not finite, draws
/// 560 pixels wide.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_svg(
    game: *const pachisi_game,
    size: f64,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    read_text(
        game,
        buf,
        len,
        written,
        TextKind::Svg(size.to_bits()),
        |g| g.svg(size),
    )
}

/// Writes the number of seats to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_seats(
    game: *const pachisi_game,
    out: *mut u8,
) -> pachisi_result {
    read(game, out, |g| Ok(g.game.seats()))
}

/// Writes what happens next (chance, decision, over) to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_node(
    game: *const pachisi_game,
    out: *mut pachisi_node,
) -> pachisi_result {
    read(game, out, |g| {
        Ok(match g.game.node() {
            Node::Chance => pachisi_node::Chance,
            Node::Decision => pachisi_node::Decision,
            Node::Over => pachisi_node::Over,
        })
    })
}

/// Writes whether the game is over to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_is_over(
    game: *const pachisi_game,
    out: *mut bool,
) -> pachisi_result {
    read(game, out, |g| Ok(g.game.is_over()))
}

/// Writes to `*out` whether the game ended because a roll was due after the rules' `max_rolls`
/// rolls (over, with no winner: decision G-A of docs/RULES.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_is_truncated(
    game: *const pachisi_game,
    out: *mut bool,
) -> pachisi_result {
    read(game, out, |g| Ok(g.game.is_truncated()))
}

/// Writes the seat to roll or to play to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_to_move(
    game: *const pachisi_game,
    out: *mut u8,
) -> pachisi_result {
    read(game, out, |g| Ok(g.game.to_move()))
}

/// Writes the lowest winning seat to `*out`, or `PACHISI_NO_SEAT` while the game goes on.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_winner(
    game: *const pachisi_game,
    out: *mut u8,
) -> pachisi_result {
    read(game, out, |g| {
        Ok(g.game.winner().unwrap_or(crate::PACHISI_NO_SEAT))
    })
}

/// Writes how the game ended to `*out` (`over` false and the rest zero while it goes on).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_outcome(
    game: *const pachisi_game,
    out: *mut pachisi_outcome,
) -> pachisi_result {
    read(game, out, |g| {
        Ok(match g.game.outcome() {
            Some(o) => pachisi_outcome {
                over: true,
                reserved0: 0,
                winners: o.winners,
                winner: o.first_winner().unwrap_or(crate::PACHISI_NO_SEAT),
                reserved1: [0; 3],
                points: o.points,
            },
            // Not won: over when ended by `max_rolls` (truncated), else still going.
            None => pachisi_outcome {
                over: g.game.is_over(),
                reserved0: 0,
                winners: 0,
                winner: crate::PACHISI_NO_SEAT,
                reserved1: [0; 3],
                points: 0,
            },
        })
    })
}

/// Copies the zero-sum returns, one per seat, into `buf` (all zero while the game goes on).
///
/// - `buf`: caller-owned array of `len` doubles (seats: at most 4); written on success.
/// - `written`: receives the number of seats, on success and on
///   `PACHISI_RESULT_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_returns(
    game: *const pachisi_game,
    buf: *mut f64,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let returns = g.game()?.returns();
        unsafe { write_slice(&returns, buf, len, written) }
    })
}

/// Writes how many actions `pachisi_game_undo` can take back to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_history_len(
    game: *const pachisi_game,
    out: *mut usize,
) -> pachisi_result {
    read(game, out, |g| Ok(g.game.history_len()))
}

// ---------------------------------------------------------------------------------------------
// Chance

/// Writes the number of outcomes of the roll due now to `*out` (0 unless at a chance node).
/// Read them with `pachisi_game_chance_outcome`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_chance_outcome_count(
    game: *const pachisi_game,
    out: *mut usize,
) -> pachisi_result {
    read(game, out, |g| Ok(g.chance().len()))
}

/// Writes chance outcome number `index` (its roll and its exact probability; the
/// probabilities of all outcomes sum to 1).
///
/// - `roll`, `probability`: caller-owned, written on success.
///
/// Errors: `INDEX_OUT_OF_RANGE`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_chance_outcome(
    game: *const pachisi_game,
    index: usize,
    roll: *mut pachisi_roll,
    probability: *mut f64,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let roll = unsafe { Out::new(roll, "roll") }?;
        let probability = unsafe { Out::new(probability, "probability") }?;
        g.check()?;
        let outcomes = g.chance();
        let o = outcomes
            .get(index)
            .ok_or_else(|| Failure::index("chance outcome", index, outcomes.len()))?;
        roll.set(o.roll.into());
        probability.set(o.probability);
        Ok(())
    })
}

/// Rolls with the game's seeded generator.
///
/// - `roll`: NULL, or caller-owned; receives the roll on success.
///
/// Errors: `WRONG_PHASE` (no roll is due: a play is due or the game is over).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_roll(
    game: *mut pachisi_game,
    roll: *mut pachisi_roll,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        let r = g.mutate(|game| game.roll())?;
        if !roll.is_null() {
            unsafe { roll.write(r.into()) };
        }
        Ok(())
    })
}

/// Sets the roll (for analysis or replay), validated for this variant and position.
///
/// - `roll`: borrowed for the call.
///
/// Errors: `INVALID_ROLL` (dice outside 1..=6, cowries for a dice game, an unknown `kind`...),
/// `WRONG_PHASE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_set_roll(
    game: *mut pachisi_game,
    roll: *const pachisi_roll,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        let r = unsafe { handle(roll, "roll") }?.to_engine()?;
        g.mutate(|game| game.set_roll(r))
    })
}

/// Sets a roll of two dice (shorthand for `pachisi_game_set_roll`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_set_dice(
    game: *mut pachisi_game,
    die1: u8,
    die2: u8,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.mutate(|game| game.set_roll(Roll::Dice([die1, die2])))
    })
}

/// Sets a throw of cowries: `up` shells mouth up (shorthand for `pachisi_game_set_roll`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_set_cowries(
    game: *mut pachisi_game,
    up: u8,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.mutate(|game| game.set_roll(Roll::Cowries(up)))
    })
}

// ---------------------------------------------------------------------------------------------
// Legal plays and steps

/// Writes the number of legal complete plays to `*out` (one per distinct resulting position;
/// 0 unless at a decision node). With steps already taken, only the plays that begin with them.
/// Indices `0..count` stay valid until the game changes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_legal_play_count(
    game: *const pachisi_game,
    out: *mut usize,
) -> pachisi_result {
    read(game, out, |g| Ok(g.plays().len()))
}

fn legal_play(g: &pachisi_game, index: usize) -> Outcome<&Play> {
    let plays = g.plays();
    plays
        .get(index)
        .ok_or_else(|| Failure::index("legal play", index, plays.len()))
}

/// Copies the steps of legal play number `index` into `steps` (a pass has none).
///
/// - `steps`: caller-owned array of `len` steps (`PACHISI_MAX_STEPS` always suffices; may be
///   NULL when `len` is 0); written on success.
/// - `written`: receives the number of steps, on success and on
///   `PACHISI_RESULT_BUFFER_TOO_SMALL`.
///
/// Errors: `INDEX_OUT_OF_RANGE`, `BUFFER_TOO_SMALL`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_legal_play(
    game: *const pachisi_game,
    index: usize,
    steps: *mut pachisi_step,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        g.check()?;
        let play = legal_play(g, index)?;
        let converted: Vec<pachisi_step> = play.steps().iter().map(|s| g.c_step(s)).collect();
        unsafe { write_slice(&converted, steps, len, written) }
    })
}

/// Copies the move notation of legal play number `index` into `buf` (string output as for
/// `pachisi_game_to_json`). `pachisi_game_play_notation` accepts this text.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_legal_play_notation(
    game: *const pachisi_game,
    index: usize,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        g.check()?;
        legal_play(g, index)?;
        let text = &g.notations()[index];
        unsafe { write_str(text, buf, len, written) }
    })
}

/// Makes legal play number `index` (from the list `pachisi_game_legal_play_count` counts).
///
/// Errors: `INDEX_OUT_OF_RANGE` (also when no play is due: the list is then empty).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_play(
    game: *mut pachisi_game,
    index: usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.check()?;
        legal_play(g, index)?;
        // The engine keeps the same list: playing by index needs no validation.
        g.mutate(|game| game.play_index(index))
    })
}

/// Makes the play written in the variant's move notation.
///
/// - `notation`: NUL-terminated, borrowed for the call.
///
/// Errors: `ILLEGAL_MOVE` (not a legal play here), `INVALID_NOTATION`, `WRONG_PHASE`,
/// `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_play_notation(
    game: *mut pachisi_game,
    notation: *const c_char,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        let text = unsafe { read_str(notation, "notation") }?;
        g.mutate(|game| game.play_notation(text))
    })
}

/// `pachisi_game_play_notation` with a pointer+length string: `notation` is `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_play_notation_n(
    game: *mut pachisi_game,
    notation: *const c_char,
    len: usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        let text = unsafe { read_str_n(notation, len, "notation") }?;
        g.mutate(|game| game.play_notation(text))
    })
}

/// Makes the complete play given as its steps (all of them, including any already taken).
///
/// - `steps`: caller-owned array of `len` steps, borrowed for the call (may be NULL when `len`
///   is 0: a pass).
///
/// Errors: `ILLEGAL_MOVE`, `WRONG_PHASE`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_play_steps(
    game: *mut pachisi_game,
    steps: *const pachisi_step,
    len: usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        if steps.is_null() && len > 0 {
            return Err(Failure::null("steps"));
        }
        if len > engine::MAX_STEPS {
            return Err(Failure::new(
                pachisi_result::IllegalMove,
                format!(
                    "illegal move: a play has at most {} steps, got {len}",
                    engine::MAX_STEPS
                ),
            ));
        }
        let given: &[pachisi_step] = if len == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(steps, len) }
        };
        g.check()?;
        let mut play = Play::new();
        for s in given {
            play.push(s.to_engine(&g.game)?);
        }
        g.mutate(|game| game.play(&play))
    })
}

/// Writes the number of legal next steps to `*out` (each begins or continues at least one legal
/// play; 0 unless at a decision node). Indices stay valid until the game changes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_legal_step_count(
    game: *const pachisi_game,
    out: *mut usize,
) -> pachisi_result {
    read(game, out, |g| Ok(g.steps().len()))
}

fn legal_step(g: &pachisi_game, index: usize) -> Outcome<Step> {
    let steps = g.steps();
    steps
        .get(index)
        .copied()
        .ok_or_else(|| Failure::index("legal step", index, steps.len()))
}

/// Writes legal next step number `index` to `*out`.
///
/// Errors: `INDEX_OUT_OF_RANGE`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_legal_step(
    game: *const pachisi_game,
    index: usize,
    out: *mut pachisi_step,
) -> pachisi_result {
    read(game, out, |g| Ok(g.c_step(&legal_step(g, index)?)))
}

/// Takes legal next step number `index`. When the steps taken form a complete play that no
/// step extends, the play ends by itself (turn passes); otherwise call it again, or
/// `pachisi_game_finish_play` where the steps taken already form a legal play.
///
/// Errors: `INDEX_OUT_OF_RANGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_step_index(
    game: *mut pachisi_game,
    index: usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.check()?;
        let step = legal_step(g, index)?;
        g.mutate(|game| game.step(&step))
    })
}

/// Takes one step given as a struct (it must be one of the legal next steps).
///
/// - `step`: borrowed for the call.
///
/// Errors: `ILLEGAL_MOVE`, `WRONG_PHASE`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_step(
    game: *mut pachisi_game,
    step: *const pachisi_step,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.check()?;
        let s = unsafe { handle(step, "step") }?.to_engine(&g.game)?;
        g.mutate(|game| game.step(&s))
    })
}

/// Copies the steps of the current play taken so far into `steps` (array output as for
/// `pachisi_game_legal_play`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_taken_steps(
    game: *const pachisi_game,
    steps: *mut pachisi_step,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let taken: Vec<pachisi_step> = g.game()?.taken().iter().map(|s| g.c_step(s)).collect();
        unsafe { write_slice(&taken, steps, len, written) }
    })
}

/// Ends the current play with the steps taken so far (they must form a complete legal play;
/// with none taken this is a pass, where the variant allows one).
///
/// Errors: `ILLEGAL_MOVE`, `WRONG_PHASE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_finish_play(game: *mut pachisi_game) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.mutate(|game| game.finish_play())
    })
}

/// Takes back the last roll, play, step or finish (the generator is restored too).
///
/// Errors: `WRONG_PHASE` (nothing to undo).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_undo(game: *mut pachisi_game) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.mutate(|game| game.undo())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game() -> *mut pachisi_game {
        let mut g = std::ptr::null_mut();
        let r = unsafe {
            pachisi_game_from_preset(c"backgammon".as_ptr(), std::ptr::null(), 1, &mut g)
        };
        assert_eq!(r, pachisi_result::Ok);
        g
    }

    #[test]
    fn a_panic_inside_a_change_marks_the_game_broken() {
        let g = new_game();
        let r = boundary(|| {
            let game = unsafe { handle_mut(g, "game") }?;
            game.mutate(|_| -> engine::Result<()> { panic!("engine bug") })
        });
        assert_eq!(r, pachisi_result::Panic);
        let mut node = pachisi_node::Over;
        assert_eq!(
            unsafe { pachisi_game_node(g, &mut node) },
            pachisi_result::Panic
        );
        assert_eq!(
            unsafe { pachisi_game_roll(g, std::ptr::null_mut()) },
            pachisi_result::Panic
        );
        unsafe { pachisi_game_free(g) };
    }

    #[test]
    fn a_failed_change_keeps_the_cached_lists() {
        let g = new_game();
        let mut count = 0usize;
        assert_eq!(
            unsafe { pachisi_game_chance_outcome_count(g, &mut count) },
            pachisi_result::Ok
        );
        assert!(unsafe { &*g }.chance.get().is_some());
        assert_eq!(
            unsafe { pachisi_game_set_dice(g, 0, 9) },
            pachisi_result::InvalidRoll
        );
        assert!(
            unsafe { &*g }.chance.get().is_some(),
            "a failure keeps indices valid"
        );
        assert_eq!(
            unsafe { pachisi_game_roll(g, std::ptr::null_mut()) },
            pachisi_result::Ok
        );
        assert!(
            unsafe { &*g }.chance.get().is_none(),
            "a change drops the lists"
        );
        unsafe { pachisi_game_free(g) };
    }

    #[test]
    fn steps_convert_both_ways() {
        // Classic Pachisi for two: seat 0 plays colours 0 and 2.
        let rules = Rules::with_options("pachisi", &serde_json::json!({"seats": 2})).unwrap();
        let game = Game::new(&rules, 1);
        let s = Step {
            seat: 2,
            piece: 2,
            from: 3,
            to: 4,
            value: 5,
            count: 1,
            captured: 1,
            kind: StepKind::Bonus,
        };
        let c = pachisi_step::of(&game, &s);
        assert_eq!((c.seat, c.colour), (0, 2));
        assert_eq!(c.to_engine(&game).unwrap(), s);
        assert_eq!(std::mem::size_of::<pachisi_step>(), 9);
        let bad = pachisi_step { kind: 7, ..c };
        assert_eq!(
            bad.to_engine(&game).unwrap_err().code,
            pachisi_result::IllegalMove
        );
        let wrong_seat = pachisi_step { seat: 1, ..c };
        let e = wrong_seat.to_engine(&game).unwrap_err();
        assert_eq!(e.code, pachisi_result::IllegalMove);
        assert!(e.message.contains("colour 2"), "{}", e.message);
    }

    #[test]
    fn rolls_reject_a_nonzero_unused_field() {
        let dice = pachisi_roll {
            kind: 0,
            dice: [3, 4],
            up: 1,
        };
        assert_eq!(
            dice.to_engine().unwrap_err().code,
            pachisi_result::InvalidRoll
        );
        let cowries = pachisi_roll {
            kind: 1,
            dice: [0, 1],
            up: 2,
        };
        assert_eq!(
            cowries.to_engine().unwrap_err().code,
            pachisi_result::InvalidRoll
        );
        assert_eq!(
            pachisi_roll { up: 0, ..dice }.to_engine().unwrap(),
            Roll::Dice([3, 4])
        );
    }

    #[test]
    fn a_size_query_keeps_the_text_for_the_copy() {
        fn assert_sync<T: Sync + Send>() {}
        assert_sync::<pachisi_game>();
        let g = new_game();
        let pending = |g: *mut pachisi_game| {
            unsafe { &*g }
                .pending
                .lock()
                .unwrap()
                .as_ref()
                .map(|p| (p.kind, p.text.clone()))
        };
        let mut needed = 0usize;
        let r = unsafe { pachisi_game_to_json(g, std::ptr::null_mut(), 0, &mut needed) };
        assert_eq!(r, pachisi_result::BufferTooSmall);
        let (kind, kept) = pending(g).expect("the size query keeps the text");
        assert_eq!((kind, kept.len() + 1), (TextKind::Json, needed));
        // Another output neither uses nor drops it.
        let r = unsafe { pachisi_game_position(g, std::ptr::null_mut(), 0, &mut needed) };
        assert_eq!(r, pachisi_result::BufferTooSmall);
        assert_eq!(pending(g).map(|p| p.0), Some(TextKind::Position));
        let mut n = 0usize;
        let r = unsafe { pachisi_game_to_json(g, std::ptr::null_mut(), 0, &mut n) };
        assert_eq!(r, pachisi_result::BufferTooSmall);
        let mut buf = vec![0 as c_char; n];
        let r = unsafe { pachisi_game_to_json(g, buf.as_mut_ptr(), n, &mut n) };
        assert_eq!(r, pachisi_result::Ok);
        assert!(pending(g).is_none(), "the copy takes the kept text");
        let text: Vec<u8> = buf[..n - 1].iter().map(|&c| c as u8).collect();
        assert_eq!(String::from_utf8(text).unwrap(), kept);
        // A change of the game drops a kept text.
        let r = unsafe { pachisi_game_to_json(g, std::ptr::null_mut(), 0, &mut n) };
        assert_eq!(r, pachisi_result::BufferTooSmall);
        assert_eq!(
            unsafe { pachisi_game_roll(g, std::ptr::null_mut()) },
            pachisi_result::Ok
        );
        assert!(pending(g).is_none());
        unsafe { pachisi_game_free(g) };
    }
}
