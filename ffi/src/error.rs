//! Status codes, the per-thread last error message, and the panic boundary.

use crate::util::write_str;
use std::any::Any;
use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The status every fallible call returns. The numbers are fixed: they never change within one
/// `PACHISI_ABI_VERSION`.
///
/// 1..=12 mirror the engine's error kinds; 100 and up are errors of the C interface itself.
/// `pachisi_result_name` gives each a name; `pachisi_last_error` the message of the last
/// failure on the calling thread.
#[repr(C)]
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
    /// `PACHISI_MAX_THREADS`.
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
}

fn set_last_error(message: String) {
    // `try_with`: during thread teardown the slot may be gone; the message is then dropped.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut s) = slot.try_borrow_mut() {
            *s = message;
        }
    });
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

/// Runs the body of an entry point: converts its failure to a status (recording the message)
/// and catches any panic so that none unwinds into C.
pub(crate) fn boundary(body: impl FnOnce() -> Outcome) -> pachisi_result {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => pachisi_result::Ok,
        Ok(Err(failure)) => {
            set_last_error(failure.message);
            failure.code
        }
        Err(payload) => {
            set_last_error(panic_message(payload.as_ref()));
            // Dropping a payload can itself panic (a payload whose Drop panics); keep that
            // inside the boundary too.
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            pachisi_result::Panic
        }
    }
}

/// The boundary for entry points that return a plain value: `fallback` if the body panics.
pub(crate) fn boundary_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(payload) => {
            set_last_error(panic_message(payload.as_ref()));
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            fallback
        }
    }
}

/// Copies the message of the last failed call on the calling thread into `buf` (NUL-terminated).
///
/// Each call that returns a status other than `PACHISI_RESULT_OK` replaces the message;
/// successful calls leave it (so read it right after the failure). Empty before any failure.
/// The message is for people (English, may change between versions); test the status code.
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
    match catch_unwind(AssertUnwindSafe(|| unsafe {
        write_str(&message, buf, len, written)
    })) {
        Ok(Ok(())) => pachisi_result::Ok,
        Ok(Err(failure)) => failure.code,
        Err(_) => pachisi_result::Panic,
    }
}

/// The name of a status code, e.g. "Ok", "InvalidRoll", "BufferTooSmall" (the engine's error
/// kind names for 1..=12), or "Unknown" for a number that is no status.
///
/// Returns a pointer to a static NUL-terminated string: valid for the life of the process; do
/// not free it. Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_result_name(code: i32) -> *const c_char {
    let name: &'static str = boundary_value("Unknown\0", || match code {
        0 => "Ok\0",
        1 => "UnknownVariant\0",
        2 => "InvalidRules\0",
        3 => "InvalidJson\0",
        4 => "InvalidNotation\0",
        5 => "InvalidPosition\0",
        6 => "InvalidRoll\0",
        7 => "IllegalMove\0",
        8 => "WrongPhase\0",
        9 => "InvalidPlayer\0",
        10 => "InvalidArgument\0",
        11 => "Cancelled\0",
        12 => "ResourceError\0",
        100 => "NullPointer\0",
        101 => "BufferTooSmall\0",
        102 => "IndexOutOfRange\0",
        103 => "InvalidUtf8\0",
        104 => "Panic\0",
        105 => "OtherError\0",
        _ => "Unknown\0",
    });
    name.as_ptr().cast()
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
        let name = |c: i32| {
            unsafe { std::ffi::CStr::from_ptr(pachisi_result_name(c)) }
                .to_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(name(pachisi_result::Ok as i32), "Ok");
        assert_eq!(name(pachisi_result::InvalidRoll as i32), "InvalidRoll");
        assert_eq!(name(pachisi_result::Panic as i32), "Panic");
        assert_eq!(
            name(pachisi_result::InvalidArgument as i32),
            "InvalidArgument"
        );
        assert_eq!(name(pachisi_result::Cancelled as i32), "Cancelled");
        assert_eq!(name(pachisi_result::ResourceError as i32), "ResourceError");
        assert_eq!(name(-3), "Unknown");
    }
}
