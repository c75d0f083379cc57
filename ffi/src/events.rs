//! Events of each action, the history, redo.

use crate::error::{Failure, boundary};
use crate::game::{pachisi_game, pachisi_roll, pachisi_step};
use crate::pachisi_result;
use crate::util::{Out, handle, handle_mut, write_slice};
use crate::{PACHISI_MAX_STEPS, PACHISI_NO_SEAT};
use engine::{Event, Game, Play};

/// A whole play: its steps, in order (a pass has none).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct pachisi_play {
    /// How many entries of `steps` are used.
    pub len: u8,
    /// The steps.
    pub steps: [pachisi_step; PACHISI_MAX_STEPS],
}

impl pachisi_play {
    /// A play of `game` as C sees it (each step with its seat and colour).
    pub(crate) fn of(game: &Game, p: &Play) -> pachisi_play {
        let mut out = pachisi_play {
            len: p.len() as u8,
            steps: [pachisi_step::default(); PACHISI_MAX_STEPS],
        };
        for (slot, s) in out.steps.iter_mut().zip(p.steps()) {
            *slot = pachisi_step::of(game, s);
        }
        out
    }
}

/// What an event reports (the `kind` field of `pachisi_event`).
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_event_kind {
    /// `seat` rolled `roll`.
    Roll = 0,
    /// `seat` made `play`.
    Play = 1,
    /// `seat` could not use its roll: it was lost.
    Forfeit = 2,
    /// `seat` took one step, `step`, of its play (the play goes on).
    Step = 3,
    /// A piece of `owner` captured `count` pieces of `victim` on `place`.
    Capture = 4,
    /// A piece of `owner` moved a bonus of `value` squares.
    Bonus = 5,
    /// `seat` was punished before any move (third doubles in a row).
    Penalty = 6,
    /// `seat` rolls again after its play.
    ExtraRoll = 7,
    /// The game ended: `winners` won `points`.
    GameOver = 8,
}

/// One event of an action. The fields an event kind does not use are 0 (`victim`:
/// `PACHISI_NO_SEAT`).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct pachisi_event {
    /// A `pachisi_event_kind` value.
    pub kind: u8,
    /// The seat acting (rolling, playing, punished, rolling again).
    pub seat: u8,
    /// Capture, bonus: the owner of the piece that moved; step: the step's owner.
    pub owner: u8,
    /// Capture: the owner of the captured pieces, or `PACHISI_NO_SEAT` if unknown.
    pub victim: u8,
    /// Capture: how many pieces were captured.
    pub count: u8,
    /// Bonus: the squares moved.
    pub value: u8,
    /// Game over: bit i set when seat i won.
    pub winners: u16,
    /// Game over: the points won.
    pub points: u32,
    /// Capture: where, in board coordinates.
    pub place: crate::board::pachisi_place,
    /// Roll: the roll.
    pub roll: pachisi_roll,
    /// Step: the step.
    pub step: pachisi_step,
    /// Play: the play.
    pub play: pachisi_play,
    /// Always 0: the bytes that round the struct up to its alignment, named so that they are
    /// written (a `memcmp` of two equal events finds them equal).
    pub reserved: [u8; 3],
}

impl pachisi_event {
    /// An event of `game` as C sees it.
    fn of(game: &Game, e: &Event) -> pachisi_event {
        let mut out = pachisi_event {
            kind: 0,
            seat: 0,
            owner: 0,
            victim: PACHISI_NO_SEAT,
            count: 0,
            value: 0,
            winners: 0,
            points: 0,
            place: Default::default(),
            roll: Default::default(),
            step: Default::default(),
            play: pachisi_play::of(game, &Play::new()),
            reserved: [0; 3],
        };
        match *e {
            Event::Roll { seat, roll } => {
                out.kind = pachisi_event_kind::Roll as u8;
                out.seat = seat;
                out.roll = roll.into();
            }
            Event::Play { seat, ref play } => {
                out.kind = pachisi_event_kind::Play as u8;
                out.seat = seat;
                out.play = pachisi_play::of(game, play);
            }
            Event::Forfeit { seat } => {
                out.kind = pachisi_event_kind::Forfeit as u8;
                out.seat = seat;
            }
            Event::Step { seat, ref step } => {
                out.kind = pachisi_event_kind::Step as u8;
                out.seat = seat;
                out.owner = step.seat;
                out.step = pachisi_step::of(game, step);
            }
            Event::Capture {
                seat,
                owner,
                victim,
                count,
                place,
            } => {
                out.kind = pachisi_event_kind::Capture as u8;
                out.seat = seat;
                out.owner = owner;
                out.victim = victim.unwrap_or(PACHISI_NO_SEAT);
                out.count = count;
                out.place = place.into();
            }
            Event::Bonus { seat, owner, value } => {
                out.kind = pachisi_event_kind::Bonus as u8;
                out.seat = seat;
                out.owner = owner;
                out.value = value;
            }
            Event::Penalty { seat } => {
                out.kind = pachisi_event_kind::Penalty as u8;
                out.seat = seat;
            }
            Event::ExtraRoll { seat } => {
                out.kind = pachisi_event_kind::ExtraRoll as u8;
                out.seat = seat;
            }
            Event::GameOver { outcome } => {
                out.kind = pachisi_event_kind::GameOver as u8;
                out.winners = outcome.winners;
                out.points = outcome.points;
                out.seat = outcome.first_winner().unwrap_or(PACHISI_NO_SEAT);
            }
        }
        out
    }
}

fn write_events(
    game: &Game,
    events: &[Event],
    buf: *mut pachisi_event,
    len: usize,
    written: *mut usize,
) -> crate::error::Outcome {
    let converted: Vec<pachisi_event> = events.iter().map(|e| pachisi_event::of(game, e)).collect();
    unsafe { write_slice(&converted, buf, len, written) }
}

/// Copies the events of the last action into `buf`: the action itself (a roll, a play or a
/// step), then what it caused, in order (captures, bonuses, a penalty, an extra roll, rolls
/// forfeited because they could not be played, the end of the game). Empty before the first
/// action (a game made from a position lists the forfeits it opened with).
///
/// - `buf`: caller-owned array of `len` events (may be NULL when `len` is 0); written on
///   success.
/// - `written`: receives the number of events, on success and on
///   `PACHISI_RESULT_BUFFER_TOO_SMALL`.
///
/// Errors: `BUFFER_TOO_SMALL`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_events(
    game: *const pachisi_game,
    buf: *mut pachisi_event,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let game = g.game()?;
        write_events(game, game.events(), buf, len, written)
    })
}

/// Copies the events of action number `index` of the history (0 = the first;
/// `pachisi_game_history_len` counts them) into `buf`, as `pachisi_game_events` writes them.
///
/// Errors: `INDEX_OUT_OF_RANGE`, `BUFFER_TOO_SMALL`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_history(
    game: *const pachisi_game,
    index: usize,
    buf: *mut pachisi_event,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let history = g.game()?.history();
        let entry = history
            .get(index)
            .ok_or_else(|| Failure::index("history", index, history.len()))?;
        write_events(g.game()?, &entry.events, buf, len, written)
    })
}

/// Makes again the last action `pachisi_game_undo` took back (the same roll, play or step,
/// with the same generator). Any new action clears what there is to redo.
///
/// Errors: `WRONG_PHASE` (nothing to redo), `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_redo(game: *mut pachisi_game) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle_mut(game, "game") }?;
        g.mutate(|game| game.redo())
    })
}

/// Writes how many actions `pachisi_game_redo` can make again to `*out`.
///
/// Errors: `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_game_redo_len(
    game: *const pachisi_game,
    out: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let g = unsafe { handle(game, "game") }?;
        let out = unsafe { Out::new(out, "out") }?;
        out.set(g.game()?.redo_len());
        Ok(())
    })
}
