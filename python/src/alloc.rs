//! The extension's global allocator: mimalloc (the `libmimalloc-sys` crate).
//!
//! A game's history allocates one record per action and frees none until the game is dropped,
//! so glibc's `malloc` serves each record from its slow path (200-300 instructions under
//! callgrind); mimalloc takes a few dozen from its page's free list (docs/PERFORMANCE.md,
//! Python). Only this library's Rust allocations use it; Python's objects stay with Python's
//! allocator.
//!
//! On 64-bit targets `mi_malloc` aligns every block of 16 bytes or more to 16
//! (`MI_MAX_ALIGN_SIZE`; its size classes are multiples of two words) and smaller ones to 8, so
//! a layout whose alignment is at most 16 and at most its size takes the plain calls; larger
//! alignments take mimalloc's aligned ones (whose generic path costs more, which is why they
//! are not used for everything: a history record is 16-byte aligned).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// mimalloc's guaranteed alignment of plain allocations (kept at 8 elsewhere than on 64-bit
/// targets, where the module text's reasoning was not checked).
const MIN_ALIGN: usize = if cfg!(target_pointer_width = "64") {
    16
} else {
    8
};

/// Whether `layout` can take mimalloc's plain (unaligned) calls.
fn plain(layout: &Layout) -> bool {
    layout.align() <= MIN_ALIGN && layout.align() <= layout.size()
}

/// mimalloc as a [`GlobalAlloc`].
pub struct MiMalloc;

// SAFETY: every call hands mimalloc a layout it can honour: the plain calls only for alignments
// it guarantees for that size (see the module text), the aligned calls otherwise; `dealloc`
// and `realloc` receive pointers that this allocator returned, and `mi_free` and
// `mi_realloc_aligned` accept blocks from either family.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if plain(&layout) {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if plain(&layout) {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl; the new layout has the old alignment.
        unsafe {
            if layout.align() <= MIN_ALIGN && layout.align() <= new_size {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}
