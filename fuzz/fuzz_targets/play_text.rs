//! Fuzz target `play_text`: see [`pachisi_fuzz::play_text`] for the input format and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pachisi_fuzz::play_text(data));
