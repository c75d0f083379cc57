//! Fuzz target `game_json`: see [`pachisi_fuzz::game_json`] for the input format and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pachisi_fuzz::game_json(data));
