//! The C ABI of the pachisi rules engine.
//!
//! Every exported symbol starts with `pachisi_`. The header `include/pachisi.h` is generated
//! from this crate by cbindgen (see `ffi/cbindgen.toml`); the doc comments here become its
//! comments, so they state the contract C callers rely on:
//!
//! - Handles (`pachisi_rules`, `pachisi_game`, `pachisi_policy`, `pachisi_env`) are opaque, created by a `_new`/`_from_*`/`_clone`
//!   call that writes the handle to an out-parameter, and released by the matching `_free`
//!   (which accepts NULL). Using a handle after freeing it is the caller's bug.
//! - Every fallible call returns a `pachisi_result`; outputs go through out-parameters that are
//!   written only on success (the one exception: `*written` of a too-small buffer, see below).
//!   A failed call leaves the game unchanged.
//! - Strings in are UTF-8, borrowed for the duration of the call only: NUL-terminated, or
//!   pointer+length through the `_n` variant of each call. Strings out are copied into
//!   caller-owned buffers with a NUL terminator.
//! - No Rust panic unwinds into C: each entry point catches it and returns
//!   `PACHISI_RESULT_PANIC`.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Type names follow the C convention of the header (`pachisi_game`, `pachisi_result`).
#![allow(non_camel_case_types)]
// The safety contract is the same for every entry point and is written once, in the header's
// preamble (ffi/cbindgen.toml) and in docs/C_API.md: valid, live, properly aligned pointers.
#![allow(clippy::missing_safety_doc)]

mod board;
mod env;
mod error;
mod events;
mod game;
mod options;
mod players;
mod rules;
mod sim;
mod util;

pub use board::*;
pub use env::*;
pub use error::{
    pachisi_last_error, pachisi_result, pachisi_result_description, pachisi_result_name,
    pachisi_test_panic,
};
pub use events::*;
pub use game::*;
pub use options::*;
pub use players::*;
pub use rules::*;
pub use sim::*;

use std::ffi::c_char;

/// Version of the C ABI described by this header. It changes only when a change breaks
/// binary compatibility (a function removed or its signature changed, a struct's layout or a
/// status code's number changed); additions keep it. It is also the major number of the shared
/// library's SONAME (`libpachisi.so.2`).
///
/// 2: `pachisi_result` and `pachisi_node` are `uint32_t` (fixed width), `pachisi_step` gained
/// `colour` (its `seat` is now always a seat), `pachisi_result_name` takes a `uint32_t`.
pub const PACHISI_ABI_VERSION: u32 = 2;

/// The most steps one play can hold: a buffer of this many `pachisi_step` always suffices.
pub const PACHISI_MAX_STEPS: usize = 24;

/// The `piece` of a step that moves no identified piece (backgammon checkers, cube actions).
pub const PACHISI_NO_PIECE: u8 = 255;

// The header needs literals; these keep them equal to the engine's values.
const _: () = assert!(PACHISI_MAX_STEPS == engine::MAX_STEPS);
const _: () = assert!(PACHISI_NO_PIECE == engine::NO_PIECE);

/// The seat written where there is none (no winner yet, a game that did not finish).
pub const PACHISI_NO_SEAT: u8 = 255;

/// The most worker threads `pachisi_simulate` and its variants accept (`threads` above it is
/// `PACHISI_RESULT_INVALID_ARGUMENT`).
pub const PACHISI_MAX_THREADS: u32 = 256;
const _: () = assert!(PACHISI_MAX_THREADS as usize == engine::sim::MAX_THREADS);

static VERSION_NUL: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library version, e.g. "0.1.0".
///
/// Returns a pointer to a static NUL-terminated string: valid for the whole life of the
/// process; the caller must not free or modify it. Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_version() -> *const c_char {
    // Nothing here can panic: the pointer of a static string.
    VERSION_NUL.as_ptr().cast()
}

/// The ABI version of the library (compare with `PACHISI_ABI_VERSION` of the header the caller
/// was compiled with).
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_abi_version() -> u32 {
    PACHISI_ABI_VERSION
}
