//! Pointer checks and buffer copies shared by the entry points.
//!
//! Every helper checks before it writes, so a call that fails leaves its outputs untouched.

use crate::error::{Failure, Outcome};
use crate::pachisi_result;
use std::ffi::{CStr, c_char};

/// Borrows a NUL-terminated UTF-8 string from C.
pub(crate) unsafe fn read_str<'a>(ptr: *const c_char, what: &str) -> Outcome<&'a str> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    let bytes = unsafe { CStr::from_ptr(ptr) };
    bytes.to_str().map_err(|e| {
        Failure::new(
            pachisi_result::InvalidUtf8,
            format!("`{what}` is not valid UTF-8: {e}"),
        )
    })
}

/// Borrows `len` bytes of UTF-8 from C (no terminator needed; a NUL byte inside is a
/// character like any other). NULL is allowed when `len` is 0 (the empty string).
pub(crate) unsafe fn read_str_n<'a>(
    ptr: *const c_char,
    len: usize,
    what: &str,
) -> Outcome<&'a str> {
    if ptr.is_null() {
        if len == 0 {
            return Ok("");
        }
        return Err(Failure::null(what));
    }
    if len > isize::MAX as usize {
        return Err(Failure::new(
            pachisi_result::InvalidArgument,
            format!("`{what}` length {len} is larger than any object"),
        ));
    }
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|e| {
        Failure::new(
            pachisi_result::InvalidUtf8,
            format!("`{what}` is not valid UTF-8: {e}"),
        )
    })
}

/// Like [`read_str_n`], but NULL reads as `None` (then `len` must be 0).
pub(crate) unsafe fn read_opt_str_n<'a>(
    ptr: *const c_char,
    len: usize,
    what: &str,
) -> Outcome<Option<&'a str>> {
    if ptr.is_null() && len == 0 {
        Ok(None)
    } else {
        unsafe { read_str_n(ptr, len, what) }.map(Some)
    }
}

/// Like [`read_str`], but NULL reads as `None`.
pub(crate) unsafe fn read_opt_str<'a>(ptr: *const c_char, what: &str) -> Outcome<Option<&'a str>> {
    if ptr.is_null() {
        Ok(None)
    } else {
        unsafe { read_str(ptr, what) }.map(Some)
    }
}

/// Borrows a handle, or fails with NullPointer.
pub(crate) unsafe fn handle<'a, T>(ptr: *const T, what: &str) -> Outcome<&'a T> {
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(what))
}

/// Borrows a handle mutably, or fails with NullPointer.
pub(crate) unsafe fn handle_mut<'a, T>(ptr: *mut T, what: &str) -> Outcome<&'a mut T> {
    unsafe { ptr.as_mut() }.ok_or_else(|| Failure::null(what))
}

/// An out-parameter checked for NULL; written later with [`Out::set`].
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    pub unsafe fn new(ptr: *mut T, what: &str) -> Outcome<Out<T>> {
        if ptr.is_null() {
            Err(Failure::null(what))
        } else {
            Ok(Out(ptr))
        }
    }
    pub fn set(self, value: T) {
        // Checked non-NULL in `new`; `write` because the target may be uninitialised.
        unsafe { self.0.write(value) }
    }
}

/// Checks a caller's buffer of `len` elements for `needed` elements. On a short buffer writes
/// the size needed to `written` and fails with BufferTooSmall.
unsafe fn check_buffer<T>(
    buf: *mut T,
    len: usize,
    needed: usize,
    written: *mut usize,
    unit: &str,
) -> Outcome {
    if written.is_null() {
        return Err(Failure::null("written"));
    }
    if buf.is_null() && len > 0 {
        return Err(Failure::null("buf"));
    }
    if len < needed {
        unsafe { written.write(needed) };
        return Err(Failure::new(
            pachisi_result::BufferTooSmall,
            format!("the buffer holds {len} {unit} but {needed} are needed"),
        ));
    }
    Ok(())
}

/// Copies `text` and a NUL into `buf` (`len` bytes); `*written` = bytes including the NUL.
pub(crate) unsafe fn write_str(
    text: &str,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> Outcome {
    let needed = text.len() + 1;
    unsafe { check_buffer(buf, len, needed, written, "bytes")? };
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), text.len());
        buf.add(text.len()).write(0);
        written.write(needed);
    }
    Ok(())
}

/// Copies `items` into `buf` (`len` elements); `*written` = the number of elements.
pub(crate) unsafe fn write_slice<T: Copy>(
    items: &[T],
    buf: *mut T,
    len: usize,
    written: *mut usize,
) -> Outcome {
    unsafe { check_buffer(buf, len, items.len(), written, "elements")? };
    unsafe {
        if !items.is_empty() {
            std::ptr::copy_nonoverlapping(items.as_ptr(), buf, items.len());
        }
        written.write(items.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_written_with_their_terminator() {
        let mut buf = [1 as c_char; 8];
        let mut n = 0;
        unsafe { write_str("abc", buf.as_mut_ptr(), buf.len(), &mut n) }.unwrap();
        assert_eq!(n, 4);
        assert_eq!(buf[3], 0);
        assert_eq!(buf[4], 1, "nothing past the terminator");
    }

    #[test]
    fn a_short_buffer_reports_the_size_and_is_untouched() {
        let mut buf = [1 as c_char; 3];
        let mut n = 0;
        let e = unsafe { write_str("abc", buf.as_mut_ptr(), buf.len(), &mut n) }.unwrap_err();
        assert_eq!(e.code, pachisi_result::BufferTooSmall);
        assert_eq!(n, 4);
        assert_eq!(buf, [1; 3]);
        let e = unsafe { write_str("abc", std::ptr::null_mut(), 0, &mut n) }.unwrap_err();
        assert_eq!(e.code, pachisi_result::BufferTooSmall);
        let e = unsafe { write_str("abc", std::ptr::null_mut(), 5, &mut n) }.unwrap_err();
        assert_eq!(e.code, pachisi_result::NullPointer);
    }

    #[test]
    fn empty_slices_need_no_buffer() {
        let mut n = 9;
        unsafe { write_slice::<u8>(&[], std::ptr::null_mut(), 0, &mut n) }.unwrap();
        assert_eq!(n, 0);
    }
}
