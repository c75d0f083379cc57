# The C ABI: header generation and the C / C++ examples and tests (included by the top-level
# Makefile; also usable alone: `make -f mk/c.mk test-c`).
#
#   make header        regenerate include/pachisi.h with cbindgen (pinned version)
#   make header-check  fail when the committed include/pachisi.h is stale
#   make test-c        build the ffi libraries (release), check the header, build every C and C++
#                      example and test against the shared and the static library; run the
#                      shared builds under valgrind, the static ones natively, then the tests
#                      again under AddressSanitizer
#
# Works from a clean clone: installs cbindgen (cargo install) and valgrind / a C++ compiler
# (apt-get) when missing, idempotently.

CARGO ?= cargo
CC ?= cc
CXX ?= g++

CBINDGEN_VERSION := 0.29.4
CBINDGEN := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin/cbindgen
CBINDGEN_ARGS := --quiet --config ffi/cbindgen.toml --output include/pachisi.h ffi

C_LIB_DIR := $(or $(CARGO_TARGET_DIR),target)/release
C_SHARED := $(C_LIB_DIR)/libpachisi.so
C_STATIC := $(C_LIB_DIR)/libpachisi.a
# What the static library needs from the system (`cargo rustc -p pachisi-ffi --release
# --crate-type staticlib -- --print native-static-libs`).
C_STATIC_SYSLIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
C_BUILD := build/c

C_WARNINGS := -Wall -Wextra -Wpedantic -Werror
C_FLAGS := -std=c11 $(C_WARNINGS) -g -O1 -Iinclude -Itests/c
CXX_FLAGS := -std=c++17 $(C_WARNINGS) -g -O1 -Iinclude -Itests/c
C_LINK_SHARED := -L$(C_LIB_DIR) -lpachisi -Wl,-rpath,$(abspath $(C_LIB_DIR)) -lm
C_LINK_STATIC := $(C_STATIC) $(C_STATIC_SYSLIBS)
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

C_SOURCES := examples/c/play_all.c examples/c/simulate.c examples/c/play_vs_bots.c \
	tests/c/test_misuse.c tests/c/test_api.c tests/c/test_scenarios.c tests/c/test_players.c \
	tests/c/test_simulate.c
CXX_SOURCES := examples/cpp/play_all.cpp examples/cpp/simulate.cpp tests/c/test_cpp.cpp
C_NAMES := $(basename $(C_SOURCES) $(CXX_SOURCES))
C_TEST_NAMES := $(filter tests/%,$(C_NAMES))
C_BINARIES := $(foreach kind,shared static,$(addprefix $(C_BUILD)/$(kind)/,$(C_NAMES))) \
	$(addprefix $(C_BUILD)/asan/,$(C_TEST_NAMES))
C_HEADERS := include/pachisi.h include/pachisi.hpp $(wildcard tests/c/*.h)
C_SCENARIOS := $(sort $(wildcard tests/scenarios/*/*.json))

C_VALGRIND := RUST_BACKTRACE=0 valgrind -q --error-exitcode=1 --leak-check=full \
	--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible
C_ASAN_ENV := RUST_BACKTRACE=0 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: header header-check test-c c-tools c-libs c-programs c-pkgconfig c-clean

## Install what the C side needs, only when missing.
c-tools:
	@if ! "$(CBINDGEN)" --version 2>/dev/null | grep -qx "cbindgen $(CBINDGEN_VERSION)"; then \
		echo "installing cbindgen $(CBINDGEN_VERSION)"; \
		$(CARGO) install cbindgen --version $(CBINDGEN_VERSION) --locked --force; \
	fi
	@missing=""; \
	command -v valgrind >/dev/null || missing="$$missing valgrind"; \
	command -v $(CXX) >/dev/null || missing="$$missing g++"; \
	command -v $(CC) >/dev/null || missing="$$missing gcc"; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

## Regenerate the C header from ffi/src.
header: c-tools
	"$(CBINDGEN)" $(CBINDGEN_ARGS)

## Fail when include/pachisi.h does not match ffi/src. `cbindgen --verify` exits 2 on a
## difference but also rewrites the file it checks, so it checks a copy.
header-check: c-tools
	@mkdir -p $(C_BUILD)
	@cp include/pachisi.h $(C_BUILD)/pachisi.h.verify
	@"$(CBINDGEN)" --quiet --config ffi/cbindgen.toml --output $(C_BUILD)/pachisi.h.verify \
		--verify ffi 2>/dev/null || { \
		echo "include/pachisi.h is stale: run 'make header' and commit it"; exit 1; }

## The shared and static libraries (cargo decides whether anything needs rebuilding).
c-libs:
	$(CARGO) build --release -p pachisi-ffi

$(C_SHARED) $(C_STATIC): c-libs c-tools
	@:

c-programs: $(C_BINARIES)

$(C_BUILD)/shared/%: %.c $(C_HEADERS) $(C_SHARED)
	@mkdir -p $(dir $@)
	$(CC) $(C_FLAGS) $< -o $@ $(C_LINK_SHARED)

$(C_BUILD)/shared/%: %.cpp $(C_HEADERS) $(C_SHARED)
	@mkdir -p $(dir $@)
	$(CXX) $(CXX_FLAGS) $< -o $@ $(C_LINK_SHARED)

$(C_BUILD)/static/%: %.c $(C_HEADERS) $(C_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(C_FLAGS) $< -o $@ $(C_LINK_STATIC)

$(C_BUILD)/static/%: %.cpp $(C_HEADERS) $(C_STATIC)
	@mkdir -p $(dir $@)
	$(CXX) $(CXX_FLAGS) $< -o $@ $(C_LINK_STATIC)

$(C_BUILD)/asan/%: %.c $(C_HEADERS) $(C_STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(C_FLAGS) $(ASAN_FLAGS) $< -o $@ $(C_LINK_STATIC)

$(C_BUILD)/asan/%: %.cpp $(C_HEADERS) $(C_STATIC)
	@mkdir -p $(dir $@)
	$(CXX) $(CXX_FLAGS) $(ASAN_FLAGS) $< -o $@ $(C_LINK_STATIC)

## Everything C: header check, examples and tests; the shared-library builds under valgrind, the
## static-library builds natively and (tests) under AddressSanitizer + UBSan: the same code, so one
## memory checker per build keeps the run short.
test-c: c-tools header-check c-programs
	@set -e; \
	printf '0\n\n7\nq\n' > $(C_BUILD)/stdin.txt; \
	args_of() { case "$$1" in *test_scenarios) echo "$(C_SCENARIOS)";; *simulate) echo 40;; \
		*play_vs_bots) echo "parcheesi greedy 3";; esac; }; \
	for name in $(C_NAMES); do \
		log=$(C_BUILD)/shared/$$name.log; \
		echo "== valgrind, shared library: $$name"; \
		$(C_VALGRIND) $(C_BUILD)/shared/$$name $$(args_of $$name) < $(C_BUILD)/stdin.txt > $$log 2>&1 \
			|| { cat $$log; echo "FAILED: $$name (shared library, valgrind)"; exit 1; }; \
		tail -n 2 $$log; \
	done; \
	for name in $(C_NAMES); do \
		log=$(C_BUILD)/static/$$name.log; \
		echo "== static library: $$name"; \
		RUST_BACKTRACE=0 $(C_BUILD)/static/$$name $$(args_of $$name) < $(C_BUILD)/stdin.txt > $$log 2>&1 \
			|| { cat $$log; echo "FAILED: $$name (static library)"; exit 1; }; \
		tail -n 1 $$log; \
	done; \
	for name in $(C_TEST_NAMES); do \
		log=$(C_BUILD)/asan/$$name.log; \
		echo "== AddressSanitizer: $$name"; \
		$(C_ASAN_ENV) $(C_BUILD)/asan/$$name $$(args_of $$name) < $(C_BUILD)/stdin.txt > $$log 2>&1 \
			|| { cat $$log; echo "FAILED: $$name (AddressSanitizer)"; exit 1; }; \
		tail -n 1 $$log; \
	done
	@echo "test-c: every C and C++ program passed (shared library under valgrind, static library natively and under ASan)"

## A pkg-config file for the libraries in the build tree:
##   PKG_CONFIG_PATH=target/release/pkgconfig pkg-config --cflags --libs pachisi
##   (add --static for the static library's system libraries)
c-pkgconfig: c-libs
	@mkdir -p $(C_LIB_DIR)/pkgconfig
	@printf '%s\n' \
		'includedir=$(abspath include)' \
		'libdir=$(abspath $(C_LIB_DIR))' \
		'' \
		'Name: pachisi' \
		'Description: Rules engine for the dice race games (C ABI)' \
		"Version: $$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)" \
		'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lpachisi' \
		'Libs.private: $(C_STATIC_SYSLIBS)' \
		> $(C_LIB_DIR)/pkgconfig/pachisi.pc
	@echo "wrote $(C_LIB_DIR)/pkgconfig/pachisi.pc"

c-clean:
	rm -rf $(C_BUILD)
