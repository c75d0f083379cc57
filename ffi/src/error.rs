//! Status codes, the per-thread last error message, and the panic boundary.

use crate::util::write_str;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::c_char;
use std::panic::{self, AssertUnwindSafe, catch_unwind};
use std::sync::Once;

/// The status every fallible call returns: a `uint32_t` in C (`typedef uint32_t
/// pachisi_result`, so `-fshort-enums` cannot change its size), an enum with underlying type
/// `uint32_t` in C++ and C23. The numbers are fixed: they never change within one
/// `PACHISI_ABI_VERSION`.
///
/// 1..=12 mirror the engine's error kinds; 100 and up are errors of the C interface itself.
/// `pachisi_result_name` gives each a name, `pachisi_result_description` a sentence (both
/// static strings, usable from any thread); `pachisi_last_error` the message of the last
/// failure on the calling thread.
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_result {
    /// Success.
    Ok = 0,
    /// A preset name the engine does not know.
    UnknownVariant = 1,
    /// An option that does not exist, has a wrong type or value, or an invalid combination.
    InvalidRules = 2,
    /// A JSON document that cannot be parsed or has the wrong shape.
    InvalidJson = 3,
    /// Position or move notation that cannot be parsed.
    InvalidNotation = 4,
    /// A position that parses but cannot occur.
    InvalidPosition = 5,
    /// Dice or a throw this variant cannot produce here.
    InvalidRoll = 6,
    /// A play or step that is not legal now.
    IllegalMove = 7,
    /// The call does not fit the game's phase (a play while a roll is due, anything after the
    /// end, undo with no history).
    WrongPhase = 8,
    /// A player spec that names no player, or a parameter a player does not have or cannot take.
    InvalidPlayer = 9,
    /// An argument out of its range that is not a rules option: `threads` above
    /// `PACHISI_MAX_THREADS`, a `games` count no array of records can hold, the length of a
    /// string input (`_n` calls) above `PTRDIFF_MAX`.
    InvalidArgument = 10,
    /// A simulation stopped because its progress callback returned nonzero; nothing was written.
    Cancelled = 11,
    /// The operating system refused a resource: worker threads could not be started, or memory
    /// for the results could not be allocated.
    ResourceError = 12,
    /// A required pointer argument was NULL.
    NullPointer = 100,
    /// An output buffer is too small; `*written` holds the size needed.
    BufferTooSmall = 101,
    /// An index past the end of the list it indexes (legal plays, legal steps, outcomes, presets).
    IndexOutOfRange = 102,
    /// An input string is not valid UTF-8.
    InvalidUtf8 = 103,
    /// The engine panicked (a bug); the panic was caught. A game handle a panic interrupted is
    /// marked broken: every later call on it returns `PACHISI_RESULT_PANIC`; free it.
    Panic = 104,
    /// An engine error newer than this ABI version (not returned by this build).
    OtherError = 105,
}

/// A failed call: its status and message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub code: pachisi_result,
    pub message: String,
}

impl Failure {
    pub fn new(code: pachisi_result, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
    pub fn null(what: &str) -> Failure {
        Failure::new(pachisi_result::NullPointer, format!("`{what}` is NULL"))
    }
    pub fn index(what: &str, index: usize, len: usize) -> Failure {
        Failure::new(
            pachisi_result::IndexOutOfRange,
            format!("{what} index {index} is out of range (there are {len})"),
        )
    }
}

impl From<engine::Error> for Failure {
    fn from(e: engine::Error) -> Failure {
        use engine::Error as E;
        let code = match &e {
            E::UnknownVariant { .. } => pachisi_result::UnknownVariant,
            E::InvalidRules(_) => pachisi_result::InvalidRules,
            E::InvalidJson(_) => pachisi_result::InvalidJson,
            E::InvalidNotation(_) => pachisi_result::InvalidNotation,
            E::InvalidPosition(_) => pachisi_result::InvalidPosition,
            E::InvalidRoll(_) => pachisi_result::InvalidRoll,
            E::IllegalMove(_) => pachisi_result::IllegalMove,
            E::WrongPhase(_) => pachisi_result::WrongPhase,
            E::InvalidPlayer(_) => pachisi_result::InvalidPlayer,
            E::InvalidArgument(_) => pachisi_result::InvalidArgument,
            E::Cancelled(_) => pachisi_result::Cancelled,
            E::Resource(_) => pachisi_result::ResourceError,
            _ => pachisi_result::OtherError,
        };
        Failure::new(code, e.to_string())
    }
}

pub(crate) type Outcome<T = ()> = Result<T, Failure>;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// How many entry points are running on this thread (nested calls are possible through
    /// callbacks): a panic while it is nonzero is caught by a boundary, so the hook stays quiet.
    static BOUNDARY_DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Records the message of a failure for `pachisi_last_error`. A message can echo input that
/// holds a NUL byte, which would cut the C string short: each NUL is written as the six
/// characters `\u0000` instead, so the text is always `strlen(buf) + 1 == written`.
fn set_last_error(message: String) {
    let message = if message.contains('\0') {
        message.replace('\0', "\\u0000")
    } else {
        message
    };
    // `try_with`: during thread teardown the slot may be gone; the message is then dropped.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut s) = slot.try_borrow_mut() {
            *s = message;
        }
    });
}

/// Records a failure's message, except for a too-small buffer: that status and `*written`
/// say everything, and the size query of the two-call protocol must not replace the message
/// of the failure the caller may be about to read.
fn record(failure: Failure) -> pachisi_result {
    if failure.code != pachisi_result::BufferTooSmall {
        set_last_error(failure.message);
    }
    failure.code
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("panic in the pachisi engine: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("panic in the pachisi engine: {s}")
    } else {
        "panic in the pachisi engine".to_string()
    }
}

/// Installs, once per process, a panic hook that prints nothing for a panic a boundary on the
/// same thread will catch (it becomes `PACHISI_RESULT_PANIC` and a message), and hands every
/// other panic to the hook that was installed before (Rust's default report, or the host's).
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let caught = BOUNDARY_DEPTH.try_with(Cell::get).unwrap_or(0) > 0;
            if !caught {
                previous(info);
            }
        }));
    });
}

/// Runs `body` as code whose panics a boundary catches: the quiet hook stays silent for them.
/// Worker threads that an entry point starts and whose panics it collects run their work
/// through this too.
pub(crate) fn caught<T>(body: impl FnOnce() -> T) -> std::thread::Result<T> {
    install_quiet_hook();
    let _ = BOUNDARY_DEPTH.try_with(|d| d.set(d.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(body));
    let _ = BOUNDARY_DEPTH.try_with(|d| d.set(d.get().saturating_sub(1)));
    result
}

/// Drops a panic payload; dropping one can itself panic (a payload whose Drop panics), so that
/// stays inside the boundary too.
fn drop_payload(payload: Box<dyn Any + Send>) {
    let _ = caught(move || drop(payload));
}

/// Runs the body of an entry point: converts its failure to a status (recording the message)
/// and catches any panic so that none unwinds into C.
pub(crate) fn boundary(body: impl FnOnce() -> Outcome) -> pachisi_result {
    match caught(body) {
        Ok(Ok(())) => pachisi_result::Ok,
        Ok(Err(failure)) => record(failure),
        Err(payload) => {
            set_last_error(panic_message(payload.as_ref()));
            drop_payload(payload);
            pachisi_result::Panic
        }
    }
}

/// The boundary for entry points that return a plain value: `fallback` if the body panics.
pub(crate) fn boundary_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    match caught(body) {
        Ok(v) => v,
        Err(payload) => {
            set_last_error(panic_message(payload.as_ref()));
            drop_payload(payload);
            fallback
        }
    }
}

/// Copies the message of the last failed call on the calling thread into `buf` (NUL-terminated).
///
/// Each call that returns a status other than `PACHISI_RESULT_OK` and
/// `PACHISI_RESULT_BUFFER_TOO_SMALL` replaces the message; successful calls and too-small
/// buffers leave it (so the two-call size protocol may be used to read a message, and read it
/// right after the failure). Empty before any failure. The message is for people (English,
/// may change between versions); test the status code. It never contains a NUL byte (a NUL
/// in echoed input is written `\u0000`), so `strlen(buf) + 1 == *written`.
///
/// - `buf`: caller-owned, `len` bytes; written only on success. May be NULL when `len` is 0
///   (to ask for the size).
/// - `written`: receives the size of the message in bytes *including* its NUL terminator, on
///   success and on `PACHISI_RESULT_BUFFER_TOO_SMALL` (then nothing else is written).
///
/// This call does not change the stored message, even when it fails.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_last_error(
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    let message = LAST_ERROR
        .try_with(|slot| slot.try_borrow().map(|s| s.clone()).unwrap_or_default())
        .unwrap_or_default();
    // Not through `boundary`: a failure here must not overwrite the message being read.
    match caught(|| unsafe { write_str(&message, buf, len, written) }) {
        Ok(Ok(())) => pachisi_result::Ok,
        Ok(Err(failure)) => failure.code,
        Err(payload) => {
            drop_payload(payload);
            pachisi_result::Panic
        }
    }
}

/// The name and the description of each status code, by number.
fn describe(code: pachisi_result) -> Option<(&'static str, &'static str)> {
    use pachisi_result as R;
    Some(match code {
        R::Ok => ("Ok\0", "success\0"),
        R::UnknownVariant => ("UnknownVariant\0", "no preset of that name\0"),
        R::InvalidRules => (
            "InvalidRules\0",
            "an unknown option, a wrong type or value, or an invalid combination\0",
        ),
        R::InvalidJson => (
            "InvalidJson\0",
            "JSON that does not parse or has the wrong shape\0",
        ),
        R::InvalidNotation => (
            "InvalidNotation\0",
            "position or move text that does not parse\0",
        ),
        R::InvalidPosition => (
            "InvalidPosition\0",
            "a position that parses but cannot occur\0",
        ),
        R::InvalidRoll => (
            "InvalidRoll\0",
            "dice or a throw the variant cannot produce here\0",
        ),
        R::IllegalMove => ("IllegalMove\0", "a play or step that is not legal now\0"),
        R::WrongPhase => ("WrongPhase\0", "the call does not fit the game's phase\0"),
        R::InvalidPlayer => (
            "InvalidPlayer\0",
            "a player spec naming no player, or a parameter it does not have or cannot take\0",
        ),
        R::InvalidArgument => (
            "InvalidArgument\0",
            "an argument out of its range (a count, a thread number, a size)\0",
        ),
        R::Cancelled => (
            "Cancelled\0",
            "the caller cancelled the call (a progress callback returned nonzero)\0",
        ),
        R::ResourceError => (
            "ResourceError\0",
            "threads could not be started or memory ran out\0",
        ),
        R::NullPointer => ("NullPointer\0", "a required pointer was NULL\0"),
        R::BufferTooSmall => (
            "BufferTooSmall\0",
            "the output buffer is too small; *written holds the size needed\0",
        ),
        R::IndexOutOfRange => (
            "IndexOutOfRange\0",
            "an index past the end of the list it indexes\0",
        ),
        R::InvalidUtf8 => ("InvalidUtf8\0", "an input string is not valid UTF-8\0"),
        R::Panic => (
            "Panic\0",
            "the engine panicked (a bug); the panic was caught\0",
        ),
        R::OtherError => (
            "OtherError\0",
            "an engine error newer than this ABI version\0",
        ),
    })
}

/// The status code numbered `code`, if it is one.
fn from_number(code: u32) -> Option<pachisi_result> {
    use pachisi_result as R;
    const ALL: [pachisi_result; 19] = [
        R::Ok,
        R::UnknownVariant,
        R::InvalidRules,
        R::InvalidJson,
        R::InvalidNotation,
        R::InvalidPosition,
        R::InvalidRoll,
        R::IllegalMove,
        R::WrongPhase,
        R::InvalidPlayer,
        R::InvalidArgument,
        R::Cancelled,
        R::ResourceError,
        R::NullPointer,
        R::BufferTooSmall,
        R::IndexOutOfRange,
        R::InvalidUtf8,
        R::Panic,
        R::OtherError,
    ];
    ALL.into_iter().find(|r| *r as u32 == code)
}

/// The name of a status code, e.g. "Ok", "InvalidRoll", "BufferTooSmall" (the engine's error
/// kind names for 1..=12), or "Unknown" for a number that is no status.
///
/// `code` is a plain number (any `uint32_t`), so a value read from elsewhere is safe to pass.
/// Returns a pointer to a static NUL-terminated string: valid for the life of the process; do
/// not free it. Never NULL. Safe from any thread.
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_result_name(code: u32) -> *const c_char {
    let name = from_number(code)
        .and_then(describe)
        .map_or("Unknown\0", |(name, _)| name);
    name.as_ptr().cast()
}

/// A one-line English description of a status code (the meaning column of the table in
/// docs/C_API.md), or "not a pachisi status code" for a number that is no status.
///
/// Unlike `pachisi_last_error` this depends on the code alone, not on a thread's last call:
/// the message to show when the call's own message is not needed or not available.
/// Returns a pointer to a static NUL-terminated string: valid for the life of the process; do
/// not free it. Never NULL. Safe from any thread.
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_result_description(code: u32) -> *const c_char {
    let text = from_number(code)
        .and_then(describe)
        .map_or("not a pachisi status code\0", |(_, text)| text);
    text.as_ptr().cast()
}

/// Panics inside the library on purpose, and returns what every entry point returns when the
/// engine panics: `PACHISI_RESULT_PANIC`, with a message for `pachisi_last_error`, and nothing
/// printed to stderr. For a program's own tests of its error handling (the library's C tests
/// use it); it touches no handle and changes nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_test_panic() -> pachisi_result {
    boundary(|| panic!("pachisi_test_panic was called"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last_error() -> String {
        let mut buf = [0 as c_char; 256];
        let mut n = 0usize;
        let r = unsafe { pachisi_last_error(buf.as_mut_ptr(), buf.len(), &mut n) };
        assert_eq!(r, pachisi_result::Ok);
        let bytes: Vec<u8> = buf[..n - 1].iter().map(|&c| c as u8).collect();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let r = boundary(|| panic!("boom"));
        assert_eq!(r, pachisi_result::Panic);
        assert!(last_error().contains("boom"));
        let v = boundary_value(7u32, || panic!("again"));
        assert_eq!(v, 7);
        assert!(last_error().contains("again"));
    }

    #[test]
    fn engine_errors_keep_their_kind() {
        let e = engine::Rules::preset("no-such-game").unwrap_err();
        let r = boundary(|| Err(e.into()));
        assert_eq!(r, pachisi_result::UnknownVariant);
        assert!(last_error().contains("no-such-game"));
    }

    #[test]
    fn names_match_numbers() {
        let name = |c: u32| {
            unsafe { std::ffi::CStr::from_ptr(pachisi_result_name(c)) }
                .to_str()
                .unwrap()
                .to_string()
        };
        for code in 0..=200u32 {
            match from_number(code) {
                Some(r) => assert_eq!(r as u32, code),
                None => assert_eq!(name(code), "Unknown"),
            }
        }
        assert_eq!(name(pachisi_result::Ok as u32), "Ok");
        assert_eq!(name(pachisi_result::InvalidRoll as u32), "InvalidRoll");
        assert_eq!(name(pachisi_result::Panic as u32), "Panic");
        assert_eq!(
            name(pachisi_result::InvalidArgument as u32),
            "InvalidArgument"
        );
        assert_eq!(name(pachisi_result::Cancelled as u32), "Cancelled");
        assert_eq!(name(pachisi_result::ResourceError as u32), "ResourceError");
        assert_eq!(name(u32::MAX), "Unknown");
    }

    #[test]
    fn messages_hold_no_nul_and_size_queries_keep_them() {
        let r = boundary(|| {
            Err(Failure::new(
                pachisi_result::InvalidRules,
                "bad \0 byte".to_string(),
            ))
        });
        assert_eq!(r, pachisi_result::InvalidRules);
        assert_eq!(last_error(), "bad \\u0000 byte");
        let r = boundary(|| Err(Failure::new(pachisi_result::BufferTooSmall, "short")));
        assert_eq!(r, pachisi_result::BufferTooSmall);
        assert_eq!(
            last_error(),
            "bad \\u0000 byte",
            "a size query keeps the message"
        );
    }
}
