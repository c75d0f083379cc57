//! C ABI (work in progress).
