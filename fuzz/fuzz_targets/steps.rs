//! Fuzz target `steps`: see [`pachisi_fuzz::steps`] for the input format and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pachisi_fuzz::steps(data));
