//! Players: built-in policies (random, greedy, expectimax, MCTS) that choose a game's play.

use crate::error::{Failure, Outcome, boundary};
use crate::game::pachisi_game;
use crate::pachisi_result;
use crate::util::{Out, handle, handle_mut, read_str, read_str_n, write_str};
use std::ffi::c_char;

/// A player: a built-in policy with its own seeded generator. Opaque.
///
/// Created by `pachisi_policy_new`, owned by the caller, released with `pachisi_policy_free`.
/// A handle may move between threads but must not be used by two threads at once (choosing
/// advances its generator); it does not borrow any game. `pachisi_policy_choose` only reads the
/// game, so players on several threads may choose for one game at once.
pub struct pachisi_policy {
    policy: Box<dyn engine::Policy>,
    /// Set while a choice runs; still set afterwards only if it panicked.
    broken: bool,
}

/// A new player from a spec: `name[:key=value,...]` (`"random"`, `"greedy"`,
/// `"expectimax:depth=2"`, `"mcts:iterations=2000"`, weights such as `"greedy:risk=-2"`, the
/// learned `"td"` and `"td:depth=2"`, the backgammon benchmark `"pubeval"`) or the same as a
/// JSON object (`{"player": "mcts", "iterations": 2000}`). `"td:weights=PATH"` reads a network
/// file from `PATH` (once per process). A spec is not tied to one game: whether the player can
/// play a game (`pubeval` plays backgammon only; a `td:weights=` network only the game it was
/// trained for) is checked when it chooses (`pachisi_policy_choose`: `INVALID_PLAYER`). Its generator (ties, samples of MCTS) is seeded with `seed`: the same spec, seed and
/// games give the same choices.
///
/// - `spec`: NUL-terminated, borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_policy_free`.
///
/// Errors: `INVALID_PLAYER` (unknown player, unknown or bad parameter, unreadable weights file),
/// `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_policy_new(
    spec: *const c_char,
    seed: u64,
    out: *mut *mut pachisi_policy,
) -> pachisi_result {
    boundary(|| {
        let out = unsafe { Out::new(out, "out") }?;
        let spec = unsafe { read_str(spec, "spec") }?;
        new_policy(out, spec, seed)
    })
}

/// `pachisi_policy_new` with a pointer+length string: `spec` is `len` bytes of UTF-8.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_policy_new_n(
    spec: *const c_char,
    len: usize,
    seed: u64,
    out: *mut *mut pachisi_policy,
) -> pachisi_result {
    boundary(|| {
        let out = unsafe { Out::new(out, "out") }?;
        let spec = unsafe { read_str_n(spec, len, "spec") }?;
        new_policy(out, spec, seed)
    })
}

fn new_policy(out: Out<*mut pachisi_policy>, spec: &str, seed: u64) -> Outcome {
    load_weights(spec)?;
    let policy = engine::players::from_spec_seeded(spec, seed)?;
    out.set(Box::into_raw(Box::new(pachisi_policy {
        policy,
        broken: false,
    })));
    Ok(())
}

/// Registers the weights file of a `td:weights=PATH` spec under its path (once), so the engine
/// (which does no I/O) finds the network by that key.
fn load_weights(spec: &str) -> engine::Result<()> {
    use engine::players::{PlayerKind, PlayerSpec, register_network, registered_network};
    let Ok(spec) = spec.parse::<PlayerSpec>() else {
        return Ok(());
    };
    if let (PlayerKind::Td, Some(path)) = (spec.kind, &spec.network) {
        if registered_network(path).is_none() {
            let file = std::fs::File::open(path).map_err(|e| {
                engine::Error::InvalidPlayer(format!(
                    "`{path}` is neither a registered network nor a readable weights file: {e}"
                ))
            })?;
            register_network(path, engine::nn::Network::from_reader(file)?);
        }
    }
    Ok(())
}

/// Chooses a play of `game`: writes to `*index` the index of the chosen play in the game's
/// legal play list (the indices of `pachisi_game_legal_play` and `pachisi_game_play`). With
/// steps already taken, the play begins with them. The game is not changed; the player's
/// generator advances.
///
/// - `policy`: used for the call. `game`: borrowed for the call.
/// - `index`: written on success.
///
/// Errors: `WRONG_PHASE` (no play is due: a roll, or the game is over), `INVALID_PLAYER` (the
/// player cannot play this game: `pubeval` outside backgammon, a `td:weights=` network trained
/// for another game), `NULL_POINTER`, `PANIC`
/// (a player or game interrupted by a panic stays broken: free it).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_policy_choose(
    policy: *mut pachisi_policy,
    game: *const pachisi_game,
    index: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let p = unsafe { handle_mut(policy, "policy") }?;
        let g = unsafe { handle(game, "game") }?;
        let out = unsafe { Out::new(index, "index") }?;
        check(p)?;
        let game = g.game()?;
        p.broken = true;
        let chosen = p.policy.choose(game);
        p.broken = false;
        out.set(chosen?);
        Ok(())
    })
}

/// Copies the player's canonical spec (parameters at their defaults left out) into `buf`
/// (string output as for `pachisi_game_to_json`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_policy_name(
    policy: *const pachisi_policy,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let p = unsafe { handle(policy, "policy") }?;
        check(p)?;
        unsafe { write_str(&p.policy.name(), buf, len, written) }
    })
}

/// Releases a player. NULL is allowed (nothing happens). Using the handle afterwards is the
/// caller's bug.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_policy_free(policy: *mut pachisi_policy) {
    crate::error::boundary_value((), || {
        if !policy.is_null() {
            drop(unsafe { Box::from_raw(policy) });
        }
    })
}

fn check(p: &pachisi_policy) -> Outcome {
    if p.broken {
        return Err(Failure::new(
            pachisi_result::Panic,
            "this player was interrupted by a panic in the engine; free it",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{
        pachisi_game_free, pachisi_game_from_preset, pachisi_game_play, pachisi_game_roll,
    };

    #[test]
    fn a_policy_chooses_legal_plays_and_reports_bad_specs() {
        let mut p: *mut pachisi_policy = std::ptr::null_mut();
        let spec = c"greedy";
        assert_eq!(
            unsafe { pachisi_policy_new(spec.as_ptr(), 1, &mut p) },
            pachisi_result::Ok
        );
        let mut g: *mut pachisi_game = std::ptr::null_mut();
        let name = c"backgammon";
        let r = unsafe { pachisi_game_from_preset(name.as_ptr(), std::ptr::null(), 3, &mut g) };
        assert_eq!(r, pachisi_result::Ok);
        let mut i = usize::MAX;
        let r = unsafe { pachisi_policy_choose(p, g, &mut i) };
        assert_eq!((r, i), (pachisi_result::WrongPhase, usize::MAX));
        assert_eq!(
            unsafe { pachisi_game_roll(g, std::ptr::null_mut()) },
            pachisi_result::Ok
        );
        assert_eq!(
            unsafe { pachisi_policy_choose(p, g, &mut i) },
            pachisi_result::Ok
        );
        assert_eq!(unsafe { pachisi_game_play(g, i) }, pachisi_result::Ok);
        let mut q: *mut pachisi_policy = std::ptr::null_mut();
        let bad = c"greedy:depth=2";
        let r = unsafe { pachisi_policy_new(bad.as_ptr(), 1, &mut q) };
        assert_eq!((r, q.is_null()), (pachisi_result::InvalidPlayer, true));
        unsafe {
            pachisi_policy_free(p);
            pachisi_policy_free(std::ptr::null_mut());
            pachisi_game_free(g);
        }
    }
}
