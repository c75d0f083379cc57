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
//!
//! mimalloc reserves address space for a huge request without the kernel's overcommit check
//! (glibc's `malloc` maps it with an ordinary `mmap`, which Linux refuses when it exceeds RAM and
//! swap), so a request larger than the machine's memory would succeed here and fail only when
//! touched, killing the process. Results sized by a count the caller chose (`evaluate(rollouts=
//! 10**11)`, `tournament(deals=10**11)`) are allocated fallibly and must fail at once with a
//! `ResourceError`: a request above the machine's RAM plus swap is refused (null), as glibc's
//! would be. Only requests above [`CHECKED`] look the limit up, so the hot path pays one
//! comparison with a constant.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Requests of at most this many bytes are never checked against the machine's memory.
const CHECKED: usize = 1 << 30;

/// Whether a request of `size` bytes exceeds the machine's memory (RAM plus swap), so that it
/// can never be backed.
#[inline]
fn too_large(size: usize) -> bool {
    size > CHECKED && size > memory_limit()
}

/// The machine's RAM plus swap in bytes (`usize::MAX` when unknown), looked up once.
#[cold]
fn memory_limit() -> usize {
    static LIMIT: AtomicUsize = AtomicUsize::new(0);
    let known = LIMIT.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    let limit = machine_memory().unwrap_or(usize::MAX).max(CHECKED);
    LIMIT.store(limit, Ordering::Relaxed);
    limit
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn machine_memory() -> Option<usize> {
    // SAFETY: `sysinfo` fills the zeroed struct it is given and touches nothing else.
    let info = unsafe {
        let mut info: libc::sysinfo = std::mem::zeroed();
        if libc::sysinfo(&mut info) != 0 {
            return None;
        }
        info
    };
    let unit = u128::from(info.mem_unit.max(1));
    let bytes = (info.totalram as u128 + info.totalswap as u128) * unit;
    Some(usize::try_from(bytes).unwrap_or(usize::MAX))
}

#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
fn machine_memory() -> Option<usize> {
    // SAFETY: `sysconf` reads system constants.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages <= 0 || page <= 0 {
        return None;
    }
    Some((pages as usize).saturating_mul(page as usize))
}

#[cfg(not(unix))]
fn machine_memory() -> Option<usize> {
    None
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
        if too_large(layout.size()) {
            return std::ptr::null_mut();
        }
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
        if too_large(layout.size()) {
            return std::ptr::null_mut();
        }
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
        if too_large(new_size) {
            // A failed realloc leaves the block as it was.
            return std::ptr::null_mut();
        }
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
