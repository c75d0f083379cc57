//! Reinforcement learning: a game seen through fixed action ids and observation tensors
//! (`pachisi_env`), the C face of the engine's `rl::env::AnyGame` (Python: `pachisi.RlGame`).

use crate::error::{Failure, Outcome, boundary, boundary_value};
use crate::game::{pachisi_node, pachisi_roll};
use crate::pachisi_result;
use crate::rules::pachisi_rules;
use crate::util::{Out, handle, handle_mut, read_str, read_str_n, write_slice, write_str};
use engine::rl::env::{AnyGame, new_game_with_observation};
use engine::rl::{Encoding, Observation};
use engine::{ChanceOutcome, Node};
use std::ffi::c_char;

/// `pachisi_env_new` `encoding`: one step (source square x amount class) per action, plus id 0
/// "end the play"; the ids do not depend on the position (docs/RL.md).
pub const PACHISI_ENCODING_STEP: u32 = 0;
/// `pachisi_env_new` `encoding`: action `i` is the `i`-th distinct legal play of the position.
pub const PACHISI_ENCODING_PLAY: u32 = 1;
/// `pachisi_env_new` `encoding`: backgammon without the cube only, OpenSpiel's 1,352 ids (two
/// checker moves per id).
pub const PACHISI_ENCODING_OPENSPIEL: u32 = 2;

/// `pachisi_env_new` `observation`: the plain observation (piece counts per position and the
/// views of docs/RL.md).
pub const PACHISI_OBSERVATION_PLAIN: u32 = 0;
/// `pachisi_env_new` `observation`: the input encoding of the learned `td` networks.
pub const PACHISI_OBSERVATION_FEATURES: u32 = 1;

/// A game driven through action ids, for reinforcement learning. Opaque.
///
/// Created by `pachisi_env_new` or `pachisi_env_clone`, owned by the caller, released with
/// `pachisi_env_free`. Reads may run on several threads at once; a change (reset, roll, action,
/// load) must not run beside any other call on the same handle.
///
/// At a decision node the seat `pachisi_env_current_player` acts with `pachisi_env_apply_action`;
/// made with `auto_chance`, the rolls are made for it. Without, a roll is due at every chance
/// node: `pachisi_env_roll` or `pachisi_env_apply_chance_outcome`.
pub struct pachisi_env {
    game: Box<dyn AnyGame>,
    /// Set while a change runs; still set afterwards only if it panicked.
    broken: bool,
}

impl pachisi_env {
    fn game(&self) -> Outcome<&dyn AnyGame> {
        if self.broken {
            return Err(Failure::new(
                pachisi_result::Panic,
                "this environment was interrupted by a panic in the engine; free it",
            ));
        }
        Ok(&*self.game)
    }

    fn mutate<T>(
        &mut self,
        change: impl FnOnce(&mut dyn AnyGame) -> engine::Result<T>,
    ) -> Outcome<T> {
        self.game()?;
        self.broken = true;
        let result = change(&mut *self.game);
        self.broken = false;
        Ok(result?)
    }
}

fn encoding_of(code: u32) -> Outcome<Encoding> {
    match code {
        PACHISI_ENCODING_STEP => Ok(Encoding::Step),
        PACHISI_ENCODING_PLAY => Ok(Encoding::Play),
        PACHISI_ENCODING_OPENSPIEL => Ok(Encoding::OpenSpiel),
        other => Err(Failure::new(
            pachisi_result::InvalidArgument,
            format!(
                "unknown encoding {other}: expected PACHISI_ENCODING_STEP (0), \
                 PACHISI_ENCODING_PLAY (1) or PACHISI_ENCODING_OPENSPIEL (2)"
            ),
        )),
    }
}

fn observation_of(code: u32) -> Outcome<Observation> {
    match code {
        PACHISI_OBSERVATION_PLAIN => Ok(Observation::Plain),
        PACHISI_OBSERVATION_FEATURES => Ok(Observation::Features),
        other => Err(Failure::new(
            pachisi_result::InvalidArgument,
            format!(
                "unknown observation {other}: expected PACHISI_OBSERVATION_PLAIN (0) or \
                 PACHISI_OBSERVATION_FEATURES (1)"
            ),
        )),
    }
}

fn wrap(game: Box<dyn AnyGame>) -> *mut pachisi_env {
    Box::into_raw(Box::new(pachisi_env {
        game,
        broken: false,
    }))
}

fn read<T>(
    env: *const pachisi_env,
    out: *mut T,
    value: impl FnOnce(&dyn AnyGame) -> Outcome<T>,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle(env, "env") }?;
        let out = unsafe { Out::new(out, "out") }?;
        out.set(value(e.game()?)?);
        Ok(())
    })
}

/// A change of the game: `prepare` checks the caller's arguments against the game as it is
/// (nothing changes when it fails), then `apply` makes the change with what it returned.
fn change<T>(
    env: *mut pachisi_env,
    prepare: impl FnOnce(&dyn AnyGame) -> Outcome<T>,
    apply: impl FnOnce(&mut dyn AnyGame, T) -> engine::Result<()>,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle_mut(env, "env") }?;
        let arg = prepare(e.game()?)?;
        e.mutate(|g| apply(g, arg))
    })
}

/// A string output made from the game (see `pachisi_game_to_json`).
fn text_out(
    env: *const pachisi_env,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
    make: impl FnOnce(&dyn AnyGame) -> Outcome<String>,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle(env, "env") }?;
        let text = make(e.game()?)?;
        unsafe { write_str(&text, buf, len, written) }
    })
}

/// An array output made from the game (see `pachisi_game_returns`).
fn array_out<T: Copy>(
    env: *const pachisi_env,
    buf: *mut T,
    len: usize,
    written: *mut usize,
    make: impl FnOnce(&dyn AnyGame) -> Outcome<Vec<T>>,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle(env, "env") }?;
        let items = make(e.game()?)?;
        unsafe { write_slice(&items, buf, len, written) }
    })
}

/// An action id as the engine's index, checked against the id space.
fn action_index(game: &dyn AnyGame, action: u32) -> Outcome<usize> {
    let n = game.num_actions();
    let a = action as usize;
    if a >= n {
        return Err(Failure::index("action", a, n));
    }
    Ok(a)
}

fn seat_index(game: &dyn AnyGame, seat: u8) -> Outcome<u8> {
    if seat >= game.seats() {
        return Err(Failure::index("seat", seat.into(), game.seats().into()));
    }
    Ok(seat)
}

fn chance_outcome(game: &dyn AnyGame, index: usize) -> Outcome<ChanceOutcome> {
    let outcomes = game.chance_outcomes();
    outcomes
        .get(index)
        .copied()
        .ok_or_else(|| Failure::index("chance outcome", index, outcomes.len()))
}

/// A new environment: a game of `rules` seen through an action encoding and an observation.
///
/// - `rules`: borrowed for the call.
/// - `encoding`: `PACHISI_ENCODING_STEP`, `PACHISI_ENCODING_PLAY` or `PACHISI_ENCODING_OPENSPIEL`.
/// - `observation`: `PACHISI_OBSERVATION_PLAIN` or `PACHISI_OBSERVATION_FEATURES`.
/// - `seed`: seeds the game's generator (rolls and resets replay identically).
/// - `auto_chance`: when true, the rolls are made by the game's generator, so that only
///   decision nodes (and the end) are ever seen.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_env_free`.
///
/// Errors: `INVALID_ARGUMENT` (an unknown encoding or observation number), `INVALID_RULES`
/// (an encoding the rules do not support: `OPENSPIEL` outside backgammon or with the cube),
/// `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_new(
    rules: *const pachisi_rules,
    encoding: u32,
    observation: u32,
    seed: u64,
    auto_chance: bool,
    out: *mut *mut pachisi_env,
) -> pachisi_result {
    boundary(|| {
        let out = unsafe { Out::new(out, "out") }?;
        let rules = unsafe { handle(rules, "rules") }?;
        let encoding = encoding_of(encoding)?;
        let observation = observation_of(observation)?;
        let game =
            new_game_with_observation(&rules.rules, encoding, observation, seed, auto_chance)?;
        out.set(wrap(game));
        Ok(())
    })
}

/// A copy of `env` (position, steps taken, generator): both go on independently.
///
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_env_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_clone(
    env: *const pachisi_env,
    out: *mut *mut pachisi_env,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle(env, "env") }?;
        let out = unsafe { Out::new(out, "out") }?;
        out.set(wrap(e.game()?.clone_box()));
        Ok(())
    })
}

/// Releases an environment. NULL is allowed (nothing happens). Using the handle afterwards is
/// the caller's bug.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_free(env: *mut pachisi_env) {
    boundary_value((), || {
        if !env.is_null() {
            drop(unsafe { Box::from_raw(env) });
        }
    })
}

/// Writes the number of action ids (the length of the mask of `pachisi_env_action_mask`) to
/// `*out`. Legal ids are below it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_num_actions(
    env: *const pachisi_env,
    out: *mut usize,
) -> pachisi_result {
    read(env, out, |g| Ok(g.num_actions()))
}

/// Writes the length of an observation (the floats `pachisi_env_observe` writes) to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_observation_size(
    env: *const pachisi_env,
    out: *mut usize,
) -> pachisi_result {
    read(env, out, |g| Ok(g.observation_size()))
}

/// Writes the number of seats to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_seats(
    env: *const pachisi_env,
    out: *mut u8,
) -> pachisi_result {
    read(env, out, |g| Ok(g.seats()))
}

/// Writes the number of named views of the observation (`pachisi_env_view`) to `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_view_count(
    env: *const pachisi_env,
    out: *mut usize,
) -> pachisi_result {
    read(env, out, |g| Ok(g.views().len()))
}

/// Describes view number `index` of the observation: the floats `offset .. offset + size` of
/// the vector `pachisi_env_observe` writes, and its name (string output as for
/// `pachisi_game_to_json`; `occupancy`, `dice`, ...: docs/RL.md lists them per game).
///
/// - `offset`, `size`: written on success.
/// - `buf`, `len`, `written`: the name.
///
/// Errors: `INDEX_OUT_OF_RANGE`, `BUFFER_TOO_SMALL` (then `offset` and `size` are not written),
/// `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_view(
    env: *const pachisi_env,
    index: usize,
    offset: *mut usize,
    size: *mut usize,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle(env, "env") }?;
        let offset = unsafe { Out::new(offset, "offset") }?;
        let size = unsafe { Out::new(size, "size") }?;
        let views = e.game()?.views();
        let v = views
            .get(index)
            .ok_or_else(|| Failure::index("view", index, views.len()))?;
        unsafe { write_str(v.name, buf, len, written) }?;
        offset.set(v.offset);
        size.set(v.size());
        Ok(())
    })
}

/// Starts a new game seeded with `seed` (rolling at once when chance is automatic).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_reset(env: *mut pachisi_env, seed: u64) -> pachisi_result {
    change(
        env,
        |_| Ok(()),
        |g, ()| {
            g.reset(seed);
            Ok(())
        },
    )
}

/// Writes what happens next to `*out`: `PACHISI_NODE_CHANCE` (a roll is due; never with
/// `auto_chance`), `PACHISI_NODE_DECISION` or `PACHISI_NODE_OVER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_node(
    env: *const pachisi_env,
    out: *mut pachisi_node,
) -> pachisi_result {
    read(env, out, |g| {
        Ok(match g.node() {
            Node::Chance => pachisi_node::Chance,
            Node::Decision => pachisi_node::Decision,
            Node::Over => pachisi_node::Over,
        })
    })
}

/// Writes the seat to act (or to roll) to `*out`. Once the game is over: after a win, the
/// seat that made the last move; after the rules' `max_rolls` rolls, the seat whose roll was
/// due.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_current_player(
    env: *const pachisi_env,
    out: *mut u8,
) -> pachisi_result {
    read(env, out, |g| Ok(g.current_player()))
}

/// Writes to `*out` whether the game ended because a roll was due after the rules' `max_rolls`
/// rolls (truncated: over, with no winner and zero returns).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_is_truncated(
    env: *const pachisi_env,
    out: *mut bool,
) -> pachisi_result {
    read(env, out, |g| Ok(g.truncated()))
}

/// Writes the number of outcomes of the roll due now to `*out` (0 unless at a chance node).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_chance_outcome_count(
    env: *const pachisi_env,
    out: *mut usize,
) -> pachisi_result {
    read(env, out, |g| Ok(g.chance_outcomes().len()))
}

/// Writes chance outcome number `index`: its roll and its exact probability.
///
/// Errors: `INDEX_OUT_OF_RANGE` (also when no roll is due), `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_chance_outcome(
    env: *const pachisi_env,
    index: usize,
    roll: *mut pachisi_roll,
    probability: *mut f64,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle(env, "env") }?;
        let roll = unsafe { Out::new(roll, "roll") }?;
        let probability = unsafe { Out::new(probability, "probability") }?;
        let o = chance_outcome(e.game()?, index)?;
        roll.set(o.roll.into());
        probability.set(o.probability);
        Ok(())
    })
}

/// Makes the roll of chance outcome number `index` (as `pachisi_env_chance_outcome` lists
/// them).
///
/// Errors: `INDEX_OUT_OF_RANGE` (also when no roll is due).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_apply_chance_outcome(
    env: *mut pachisi_env,
    index: usize,
) -> pachisi_result {
    change(
        env,
        |g| chance_outcome(g, index),
        |g, o| g.apply_roll(o.roll),
    )
}

/// Rolls with the game's generator at a chance node.
///
/// - `roll`: receives the roll on success (NULL if not wanted).
///
/// Errors: `WRONG_PHASE` (no roll is due).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_roll(
    env: *mut pachisi_env,
    roll: *mut pachisi_roll,
) -> pachisi_result {
    boundary(|| {
        let e = unsafe { handle_mut(env, "env") }?;
        let r = e.mutate(|g| g.roll())?;
        if !roll.is_null() {
            unsafe { roll.write(r.into()) };
        }
        Ok(())
    })
}

/// Copies the legal action ids, ascending, into `buf` (array output as for
/// `pachisi_game_returns`; none unless at a decision node).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_legal_actions(
    env: *const pachisi_env,
    buf: *mut u32,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    // Ids are below the id space, at most 20,475 (docs/RL.md): they fit a u32.
    array_out(env, buf, len, written, |g| {
        Ok(g.legal_ids().iter().map(|&a| a as u32).collect())
    })
}

/// Writes the legal-action mask into `buf`: one byte per action id, 1 where legal, 0 elsewhere
/// (array output as for `pachisi_game_returns`, `pachisi_env_num_actions` bytes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_action_mask(
    env: *const pachisi_env,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    array_out(env, buf, len, written, |g| {
        let mut mask = vec![0u8; g.num_actions()];
        for &a in g.legal_ids() {
            mask[a] = 1;
        }
        Ok(mask)
    })
}

/// Writes to `*out` whether `action` is legal now.
///
/// Errors: `INDEX_OUT_OF_RANGE` (an id at or above `pachisi_env_num_actions`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_is_legal(
    env: *const pachisi_env,
    action: u32,
    out: *mut bool,
) -> pachisi_result {
    read(env, out, |g| Ok(g.is_legal(action_index(g, action)?)))
}

/// Applies a legal action of the seat to act. With `auto_chance`, the rolls that follow are
/// made at once.
///
/// Errors: `ILLEGAL_MOVE` (an id that is not legal here), `INDEX_OUT_OF_RANGE` (an id at or
/// above `pachisi_env_num_actions`), `WRONG_PHASE` (a roll is due, or the game is over). The
/// game is unchanged on error.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_apply_action(
    env: *mut pachisi_env,
    action: u32,
) -> pachisi_result {
    change(env, |g| action_index(g, action), |g, a| g.apply_action(a))
}

/// Writes the observation of the current position, with the steps taken so far in the play,
/// from `observer`'s point of view into `buf` (array output as for `pachisi_game_returns`,
/// `pachisi_env_observation_size` floats).
///
/// Errors: `INDEX_OUT_OF_RANGE` (`observer` is not a seat), `BUFFER_TOO_SMALL`,
/// `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_observe(
    env: *const pachisi_env,
    observer: u8,
    buf: *mut f32,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    array_out(env, buf, len, written, |g| {
        let observer = seat_index(g, observer)?;
        let mut obs = vec![0.0f32; g.observation_size()];
        g.observe(observer, &mut obs);
        Ok(obs)
    })
}

/// Copies the zero-sum returns, one per seat, into `buf` (all zero until the game is over, and
/// when it was truncated; array output as for `pachisi_game_returns`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_returns(
    env: *const pachisi_env,
    buf: *mut f64,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    array_out(env, buf, len, written, |g| Ok(g.returns()))
}

/// Copies a description of action id `action` in the current position (a step, a play in
/// move notation, two checker moves) into `buf` (string output as for `pachisi_game_to_json`).
///
/// Errors: `INDEX_OUT_OF_RANGE` (an id at or above `pachisi_env_num_actions`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_action_to_string(
    env: *const pachisi_env,
    action: u32,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    text_out(env, buf, len, written, |g| {
        Ok(g.action_to_string(action_index(g, action)?))
    })
}

/// Copies the position (with the steps taken) in the variant's notation into `buf` (string
/// output as for `pachisi_game_to_json`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_position(
    env: *const pachisi_env,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    text_out(env, buf, len, written, |g| Ok(g.position()))
}

/// Copies the whole environment's game (position, steps taken, generator) as JSON into `buf`
/// (string output as for `pachisi_game_to_json`); `pachisi_env_load_json` restores it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_to_json(
    env: *const pachisi_env,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    text_out(env, buf, len, written, |g| Ok(g.to_json()))
}

/// Restores a game written by `pachisi_env_to_json` of an environment with the same rules
/// (validated; unchanged on error). A game saved where a roll is due (without `auto_chance`)
/// loads into an environment with `auto_chance` too, which then rolls at once with the saved
/// generator.
///
/// - `json`: NUL-terminated, borrowed for the call.
///
/// Errors: `INVALID_JSON`, `INVALID_POSITION` (and the errors of the position's checks),
/// `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_load_json(
    env: *mut pachisi_env,
    json: *const c_char,
) -> pachisi_result {
    change(
        env,
        |_| unsafe { read_str(json, "json") },
        |g, text| g.load_json(text),
    )
}

/// `pachisi_env_load_json` with a pointer+length string: `json` is `len` bytes of UTF-8.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_env_load_json_n(
    env: *mut pachisi_env,
    json: *const c_char,
    len: usize,
) -> pachisi_result {
    change(
        env,
        |_| unsafe { read_str_n(json, len, "json") },
        |g, text| g.load_json(text),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{pachisi_rules_free, pachisi_rules_from_preset};

    fn env(preset: &std::ffi::CStr, encoding: u32, auto_chance: bool) -> *mut pachisi_env {
        let mut rules: *mut pachisi_rules = std::ptr::null_mut();
        let r = unsafe { pachisi_rules_from_preset(preset.as_ptr(), std::ptr::null(), &mut rules) };
        assert_eq!(r, pachisi_result::Ok);
        let mut e: *mut pachisi_env = std::ptr::null_mut();
        let r = unsafe {
            pachisi_env_new(
                rules,
                encoding,
                PACHISI_OBSERVATION_PLAIN,
                7,
                auto_chance,
                &mut e,
            )
        };
        assert_eq!(r, pachisi_result::Ok);
        unsafe { pachisi_rules_free(rules) };
        e
    }

    #[test]
    fn an_environment_plays_a_game_to_its_end_through_legal_ids() {
        let e = env(c"parcheesi", PACHISI_ENCODING_STEP, true);
        let mut n = 0usize;
        assert_eq!(
            unsafe { pachisi_env_num_actions(e, &mut n) },
            pachisi_result::Ok
        );
        let mut ids = vec![0u32; n];
        let mut mask = vec![0u8; n];
        for _ in 0..100_000 {
            let mut node = pachisi_node::Chance;
            assert_eq!(
                unsafe { pachisi_env_node(e, &mut node) },
                pachisi_result::Ok
            );
            if node == pachisi_node::Over {
                let mut r = [0.0f64; 4];
                let mut w = 0;
                let code = unsafe { pachisi_env_returns(e, r.as_mut_ptr(), 4, &mut w) };
                assert_eq!((code, w), (pachisi_result::Ok, 4));
                assert!(r.iter().sum::<f64>().abs() < 1e-9);
                unsafe { pachisi_env_free(e) };
                return;
            }
            assert_eq!(node, pachisi_node::Decision);
            let mut k = 0;
            let code = unsafe { pachisi_env_legal_actions(e, ids.as_mut_ptr(), n, &mut k) };
            assert_eq!(code, pachisi_result::Ok);
            let mut m = 0;
            let code = unsafe { pachisi_env_action_mask(e, mask.as_mut_ptr(), n, &mut m) };
            assert_eq!((code, m), (pachisi_result::Ok, n));
            assert_eq!(mask.iter().filter(|&&b| b == 1).count(), k);
            assert!(ids[..k].iter().all(|&a| mask[a as usize] == 1));
            let code = unsafe { pachisi_env_apply_action(e, ids[k - 1]) };
            assert_eq!(code, pachisi_result::Ok);
        }
        panic!("no end in 100,000 actions");
    }

    #[test]
    fn bad_calls_are_errors_and_change_nothing() {
        let e = env(c"backgammon", PACHISI_ENCODING_OPENSPIEL, false);
        let mut json = vec![0 as c_char; 1 << 16];
        let mut w = 0;
        let before = unsafe { pachisi_env_to_json(e, json.as_mut_ptr(), json.len(), &mut w) };
        assert_eq!(before, pachisi_result::Ok);
        let before = json[..w].to_vec();
        assert_eq!(
            unsafe { pachisi_env_apply_action(e, 0) },
            pachisi_result::WrongPhase
        );
        assert_eq!(
            unsafe { pachisi_env_apply_action(e, 1_000_000) },
            pachisi_result::IndexOutOfRange
        );
        assert_eq!(
            unsafe { pachisi_env_apply_chance_outcome(e, 99) },
            pachisi_result::IndexOutOfRange
        );
        let mut obs = [0.0f32; 4];
        assert_eq!(
            unsafe { pachisi_env_observe(e, 2, obs.as_mut_ptr(), 4, &mut w) },
            pachisi_result::IndexOutOfRange
        );
        assert_eq!(
            unsafe { pachisi_env_observe(e, 0, obs.as_mut_ptr(), 4, &mut w) },
            pachisi_result::BufferTooSmall
        );
        assert_eq!(obs, [0.0; 4], "a short buffer is not written");
        let bad = c"{\"not\": \"a game\"}";
        assert_eq!(
            unsafe { pachisi_env_load_json(e, bad.as_ptr()) },
            pachisi_result::InvalidJson
        );
        let after = unsafe { pachisi_env_to_json(e, json.as_mut_ptr(), json.len(), &mut w) };
        assert_eq!(after, pachisi_result::Ok);
        assert_eq!(json[..w].to_vec(), before);
        // Unknown encoding and observation numbers, and an encoding the game lacks.
        let mut rules: *mut pachisi_rules = std::ptr::null_mut();
        let name = c"parcheesi";
        let r = unsafe { pachisi_rules_from_preset(name.as_ptr(), std::ptr::null(), &mut rules) };
        assert_eq!(r, pachisi_result::Ok);
        let mut other: *mut pachisi_env = std::ptr::null_mut();
        for (encoding, observation, code) in [
            (
                3,
                PACHISI_OBSERVATION_PLAIN,
                pachisi_result::InvalidArgument,
            ),
            (PACHISI_ENCODING_STEP, 2, pachisi_result::InvalidArgument),
            (
                PACHISI_ENCODING_OPENSPIEL,
                PACHISI_OBSERVATION_PLAIN,
                pachisi_result::InvalidRules,
            ),
        ] {
            let r = unsafe { pachisi_env_new(rules, encoding, observation, 1, true, &mut other) };
            assert_eq!((r, other.is_null()), (code, true));
        }
        unsafe {
            pachisi_rules_free(rules);
            pachisi_env_free(e);
            pachisi_env_free(std::ptr::null_mut());
        }
    }
}
