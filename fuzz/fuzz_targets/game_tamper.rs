//! Fuzz target `game_tamper`: see [`pachisi_fuzz::game_tamper`] for the input format and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pachisi_fuzz::game_tamper(data));
