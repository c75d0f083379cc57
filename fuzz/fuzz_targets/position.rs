//! Fuzz target `position`: see [`pachisi_fuzz::position`] for the input format and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pachisi_fuzz::position(data));
