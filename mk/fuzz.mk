# Fuzzing with cargo-fuzz (libFuzzer, nightly toolchain); included by the top-level Makefile.
# The fuzz crate is its own workspace (fuzz/Cargo.toml), so stable builds never see it.
# docs/FUZZING.md describes the targets, their invariants and the runs made.
.PHONY: fuzz fuzz-tools fuzz-build fuzz-seeds test-fuzz-seeds

FUZZ_TARGETS ?= rules_json game_json game_tamper position play_text steps
FUZZ_TOOLCHAIN ?= nightly
## No sanitizer by default: the engine is safe Rust, so AddressSanitizer would mostly slow the
## runs; overflow checks and debug assertions stay on (cargo-fuzz's release build).
## FUZZ_SANITIZER=address for the unsafe code of dependencies.
FUZZ_SANITIZER ?= none
## Per target: executions (-1: no limit) and seconds (0: no limit); the first reached ends it.
FUZZ_RUNS ?= 200000
FUZZ_SECONDS ?= 120
## Seconds one input may take before libFuzzer calls it a hang (generous: on a busy machine a
## 1 ms input once stalled for 29 s).
FUZZ_TIMEOUT ?= 300
## More libFuzzer flags, e.g. FUZZ_FLAGS=-max_len=8192.
FUZZ_FLAGS ?=

## cargo-fuzz itself, from crates.io, when it is missing.
fuzz-tools:
	@$(CARGO) fuzz --version >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked

fuzz-build: fuzz-tools
	cd fuzz && $(CARGO) +$(FUZZ_TOOLCHAIN) fuzz build -s $(FUZZ_SANITIZER)

## Every target for FUZZ_RUNS executions or FUZZ_SECONDS, one after the other. New inputs go to
## fuzz/corpus/<target> (not committed); the committed seeds fuzz/seeds/<target> are read only;
## a crash is saved in fuzz/artifacts/<target>/ and stops the run.
fuzz: fuzz-build
	@mkdir -p build/fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$t; \
		echo "== fuzz $$t: $(FUZZ_RUNS) runs or $(FUZZ_SECONDS) s (log: build/fuzz/$$t.log)"; \
		(cd fuzz && $(CARGO) +$(FUZZ_TOOLCHAIN) fuzz run -s $(FUZZ_SANITIZER) $$t corpus/$$t seeds/$$t -- \
			-runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 \
			$(FUZZ_FLAGS)) > build/fuzz/$$t.log 2>&1 || { tail -n 40 build/fuzz/$$t.log; exit 1; }; \
		grep -E '^(Done|stat::number_of_executed_units)' build/fuzz/$$t.log; \
	done; echo "make fuzz: every target ran without a crash"

## Rewrites the committed seeds from presets and seeded games (fuzz/examples/seeds.rs).
fuzz-seeds:
	$(CARGO) run -q --manifest-path fuzz/Cargo.toml --example seeds

## Every committed seed and regression input through its target's checks once (stable toolchain,
## without libFuzzer; shares target/ with the workspace). Part of `make test`.
test-fuzz-seeds:
	$(CARGO) test -q --manifest-path fuzz/Cargo.toml --target-dir target --no-default-features
