# The C ABI: header generation and the C / C++ examples and tests (included by the top-level
# Makefile; also usable alone: `make -f mk/c.mk test-c`).
#
#   make header        regenerate include/pachisi.h with cbindgen (pinned version)
#   make header-check  fail when the committed include/pachisi.h is stale
#   make c-libs        the release libraries: target/release/libpachisi.so (SONAME
#                      libpachisi.so.<ABI>, with that name as a symlink beside it) and
#                      target/release/c/libpachisi.a (cargo's libpachisi.a with no global
#                      symbol but the pachisi_* functions; mk/localize-static.sh)
#   make test-c        build the ffi libraries (release), check the header and the exported
#                      symbols, build every C and C++ example and test against the shared and
#                      the static library; run the shared builds under valgrind, the static ones
#                      natively, then the tests again under AddressSanitizer; the ABI test again
#                      built with -fshort-enums, the C++ tests in C++11/14/17/20 and without
#                      exceptions; then install into a temporary
#                      prefix and build the example engine (examples/cmake_engine) with CMake
#                      and with pkg-config against it
#   make install       PREFIX=/usr/local (default): the release libraries, the headers, the
#                      CMake package (find_package(pachisi)) and pachisi.pc
#
# Works from a clean clone: installs cbindgen (cargo install) and valgrind / a C++ compiler
# (apt-get) when missing, idempotently; cmake too, for the install test.

CARGO ?= cargo
CC ?= cc
CXX ?= g++

CBINDGEN_VERSION := 0.29.4
CBINDGEN := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin/cbindgen
CBINDGEN_ARGS := --quiet --config ffi/cbindgen.toml --output include/pachisi.h ffi

C_LIB_DIR := $(or $(CARGO_TARGET_DIR),target)/release
C_SHARED := $(C_LIB_DIR)/libpachisi.so
# cargo's static library (it puts it back on every build) and the one programs link: the same
# code with no global symbol but the API's (mk/localize-static.sh), remade when cargo's changes.
C_STATIC_CARGO := $(C_LIB_DIR)/libpachisi.a
C_STATIC := $(C_LIB_DIR)/c/libpachisi.a
# The ABI version is the SONAME's major number (ffi/build.rs reads the same constant).
C_ABI_VERSION := $(shell sed -n 's/^pub const PACHISI_ABI_VERSION: u32 = \([0-9]*\);/\1/p' ffi/src/lib.rs)
C_SONAME := libpachisi.so.$(C_ABI_VERSION)
C_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# What the static library needs from the system (`cargo rustc -p pachisi-ffi --release
# --crate-type staticlib -- --print native-static-libs`).
C_STATIC_SYSLIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
C_BUILD := build/c

C_WARNINGS := -Wall -Wextra -Wpedantic -Werror
C_FLAGS := -std=c11 $(C_WARNINGS) -g -O1 -Iinclude -Itests/c
CXX_FLAGS := -std=c++17 $(C_WARNINGS) -g -O1 -Iinclude -Itests/c
C_LINK_SHARED := -L$(C_LIB_DIR) -lpachisi -Wl,-rpath,$(abspath $(C_LIB_DIR)) -lm -pthread
C_LINK_STATIC := $(C_STATIC) $(C_STATIC_SYSLIBS) -pthread
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

C_SOURCES := examples/c/play_all.c examples/c/simulate.c examples/c/play_vs_bots.c \
	tests/c/test_misuse.c tests/c/test_api.c tests/c/test_scenarios.c tests/c/test_players.c \
	tests/c/test_game_features.c tests/c/test_abi.c tests/c/test_threads.c tests/c/test_simulate.c \
	tests/c/test_env.c
CXX_SOURCES := examples/cpp/play_all.cpp examples/cpp/simulate.cpp tests/c/test_cpp.cpp \
	tests/c/test_cpp_errors.cpp
C_NAMES := $(basename $(C_SOURCES) $(CXX_SOURCES))
C_TEST_NAMES := $(filter tests/%,$(C_NAMES))
# Variants of some programs (shared library; see test-c): the ABI and API tests built with
# -fshort-enums (the ABI test under valgrind, the long API test natively to keep test-c short);
# the C++ tests in each supported standard; the error-code C++ test without exceptions.
C_SHORT_ENUM_NAMES := tests/c/test_abi tests/c/test_api
CXX_STANDARDS := 11 14 20
CXX_NOEXCEPT_STANDARDS := 11 17
C_VARIANT_BINARIES := $(addprefix $(C_BUILD)/shortenum/,$(C_SHORT_ENUM_NAMES)) \
	$(foreach std,$(CXX_STANDARDS),$(C_BUILD)/cxx$(std)/tests/c/test_cpp \
		$(C_BUILD)/cxx$(std)/tests/c/test_cpp_errors) \
	$(foreach std,$(CXX_NOEXCEPT_STANDARDS),$(C_BUILD)/noexcept$(std)/tests/c/test_cpp_errors)
C_BINARIES := $(foreach kind,shared static,$(addprefix $(C_BUILD)/$(kind)/,$(C_NAMES))) \
	$(addprefix $(C_BUILD)/asan/,$(C_TEST_NAMES)) $(C_VARIANT_BINARIES)
C_HEADERS := include/pachisi.h include/pachisi.hpp $(wildcard tests/c/*.h)
C_SCENARIOS := $(sort $(wildcard tests/scenarios/*/*.json))

# --fair-sched=yes: valgrind runs one thread at a time, and its default lock lets a busy worker
# take it back again and again, so the calling thread (whose progress callback cancels a long
# run in test_simulate) could wait for hours.
C_VALGRIND := RUST_BACKTRACE=0 valgrind -q --fair-sched=yes --error-exitcode=1 --leak-check=full \
	--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible
C_ASAN_ENV := RUST_BACKTRACE=0 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: header header-check test-c c-tools c-libs c-programs c-pkgconfig c-clean c-symbols \
	c-variants c-package install c-header-standards c-doc-examples

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
	command -v cmake >/dev/null || missing="$$missing cmake"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
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

## The shared and static libraries (cargo decides whether anything needs rebuilding). Programs
## linked against libpachisi.so record its SONAME, so that name must exist beside it; the static
## library is rewritten to define no global but the API's (a no-op when it already is).
c-libs:
	$(CARGO) build --release -p pachisi-ffi
	@ln -sf libpachisi.so $(C_LIB_DIR)/$(C_SONAME)
	@mkdir -p $(dir $(C_STATIC))
	@if [ ! $(C_STATIC) -nt $(C_STATIC_CARGO) ] || [ mk/localize-static.sh -nt $(C_STATIC) ]; then \
		echo "bash mk/localize-static.sh $(C_STATIC_CARGO) $(C_STATIC)"; \
		bash mk/localize-static.sh $(C_STATIC_CARGO) $(C_STATIC); \
	fi

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

$(C_BUILD)/shortenum/%: %.c $(C_HEADERS) $(C_SHARED)
	@mkdir -p $(dir $@)
	$(CC) $(C_FLAGS) -fshort-enums $< -o $@ $(C_LINK_SHARED)

# One pattern rule per standard (a rule with several pattern targets would be one recipe for
# all of them). $(1): the directory, $(2): the -std value, $(3): extra flags.
define CXX_VARIANT_RULE
$(C_BUILD)/$(1)/%: %.cpp $(C_HEADERS) $(C_SHARED)
	@mkdir -p $$(dir $$@)
	$(CXX) $(filter-out -std=c++17,$(CXX_FLAGS)) -std=$(2) $(3) $$< -o $$@ $(C_LINK_SHARED)
endef
$(foreach std,$(CXX_STANDARDS),$(eval $(call CXX_VARIANT_RULE,cxx$(std),c++$(std),)))
$(foreach std,$(CXX_NOEXCEPT_STANDARDS),$(eval $(call CXX_VARIANT_RULE,noexcept$(std),c++$(std),-fno-exceptions)))

## The libraries' symbols: the shared library has the SONAME libpachisi.so.<ABI> and exports
## exactly the header's functions; the static library defines exactly those as globals, nothing
## else (no Rust runtime or compiler-builtins symbol to clash with an engine's).
c-symbols: c-libs
	@mkdir -p $(C_BUILD)
	@set -e; \
	readelf -d $(C_SHARED) | grep -q 'SONAME.*\[$(C_SONAME)\]' \
		|| { echo "FAILED: $(C_SHARED) has no SONAME $(C_SONAME)"; exit 1; }; \
	grep -o '\bpachisi_[a-z0-9_]*(' include/pachisi.h | tr -d '(' | sort -u > $(C_BUILD)/header.syms; \
	nm -D --defined-only $(C_SHARED) | awk '{print $$3}' | sort -u > $(C_BUILD)/shared.syms; \
	nm -g --defined-only $(C_STATIC) | awk 'NF == 3 {print $$3}' | sort -u > $(C_BUILD)/static.syms; \
	diff -u $(C_BUILD)/header.syms $(C_BUILD)/shared.syms \
		|| { echo "FAILED: the shared library's exports differ from the header's functions"; exit 1; }; \
	diff -u $(C_BUILD)/header.syms $(C_BUILD)/static.syms \
		|| { echo "FAILED: the static library's globals differ from the header's functions"; exit 1; }; \
	echo "symbols: SONAME $(C_SONAME); $$(wc -l < $(C_BUILD)/header.syms) functions, the only globals of both libraries"

## A C++ standard older than the wrapper's must stop at its #error, with a clear message.
c-cxx-too-old: $(C_HEADERS)
	@mkdir -p $(C_BUILD)
	@if $(CXX) -std=c++03 -fsyntax-only -Iinclude -x c++ - < /dev/null > /dev/null 2>&1 && \
		echo '#include "pachisi.hpp"' | $(CXX) -std=c++03 -fsyntax-only -Iinclude -x c++ - \
			> $(C_BUILD)/cxx03.log 2>&1; then \
		echo "FAILED: pachisi.hpp compiled as C++03"; exit 1; fi
	@grep -q 'pachisi.hpp needs C++11' $(C_BUILD)/cxx03.log \
		|| { cat $(C_BUILD)/cxx03.log; echo "FAILED: no clear #error for C++03"; exit 1; }
	@echo "C++03: pachisi.hpp stops with: $$(grep -o 'pachisi.hpp needs C++11[^"]*' $(C_BUILD)/cxx03.log | head -n 1)"
	@! grep -q 'older C++, include pachisi.h' $(C_BUILD)/cxx03.log \
		|| { echo "FAILED: the #error sends C++03 to pachisi.h, which needs C++11 too"; exit 1; }

## pachisi.h alone, in the oldest standards it supports (C99, C++11) and the newer ones, with the
## strict warnings a C or C++ project may build with.
c-header-standards: $(C_HEADERS)
	@set -e; for std in c99 c11 c17 c2x; do \
		echo '#include "pachisi.h"' | $(CC) -std=$$std $(C_WARNINGS) -Wundef -fsyntax-only -Iinclude -x c - \
			|| { echo "FAILED: pachisi.h as $$std"; exit 1; }; \
	done; for std in c++11 c++17 c++20; do \
		echo '#include "pachisi.h"' | $(CXX) -std=$$std $(C_WARNINGS) -fsyntax-only -Iinclude -x c++ - \
			|| { echo "FAILED: pachisi.h as $$std"; exit 1; }; \
	done; echo "pachisi.h: compiles alone as C99, C11, C17, C2x, C++11, C++17, C++20"

## The docs' C quick starts (README.md, docs/C_API.md) compile with the tests' warnings, run clean
## under valgrind, and end with a winning seat or "no winner" (tests/c/doc_examples.py).
C_DOC_BUILD := $(C_BUILD)/doc
c-doc-examples: $(C_HEADERS) $(C_SHARED)
	@python3 tests/c/doc_examples.py > /dev/null
	@set -e; for name in readme_quick c_api_quick; do \
		$(CC) $(C_FLAGS) $(C_DOC_BUILD)/$$name.c -o $(C_DOC_BUILD)/$$name $(C_LINK_SHARED); \
		$(C_VALGRIND) $(C_DOC_BUILD)/$$name > $(C_DOC_BUILD)/$$name.log 2>&1 \
			|| { cat $(C_DOC_BUILD)/$$name.log; echo "FAILED: $$name (valgrind)"; exit 1; }; \
		last=$$(tail -n 1 $(C_DOC_BUILD)/$$name.log); \
		echo "$$last" | grep -Eqx 'seat [0-3] wins|no winner' \
			|| { echo "FAILED: $$name ends with '$$last'"; exit 1; }; \
		echo "== doc example $$name: $$last"; \
	done

## Everything C: header check, examples and tests; the shared-library builds under valgrind, the
## static-library builds natively and (tests) under AddressSanitizer + UBSan: the same code, so one
## memory checker per build keeps the run short.
test-c: c-tools header-check c-symbols c-cxx-too-old c-header-standards c-doc-examples c-programs
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
	done; \
	for bin in $(C_VARIANT_BINARIES); do \
		log=$$bin.log; \
		case "$$bin" in \
		*/shortenum/tests/c/test_abi) echo "== valgrind, -fshort-enums: $$(basename $$bin)"; \
			$(C_VALGRIND) $$bin > $$log 2>&1 || { cat $$log; echo "FAILED: $$bin"; exit 1; };; \
		*) echo "== $$(echo $$bin | cut -d/ -f3): $$(basename $$bin)"; \
			RUST_BACKTRACE=0 $$bin > $$log 2>&1 || { cat $$log; echo "FAILED: $$bin"; exit 1; };; \
		esac; \
		tail -n 1 $$log; \
	done
	@$(MAKE) --no-print-directory c-package
	@echo "test-c: every C and C++ program passed (shared library under valgrind, static library natively and under ASan, -fshort-enums, C++11 to C++20 and -fno-exceptions, the installed package)"

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

## Installs the release libraries, the headers, the CMake package and pachisi.pc under PREFIX
## (through CMakeLists.txt: `cmake --install`). DESTDIR works as usual.
PREFIX ?= /usr/local
C_CMAKE_BUILD := build/cmake
install: c-tools
	cmake -S . -B $(C_CMAKE_BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(C_CMAKE_BUILD)
	cmake --install $(C_CMAKE_BUILD) --prefix $(PREFIX)

## The package as a game engine sees it: install into a temporary prefix, build the example
## engine with CMake (find_package(pachisi), the shared and the static target) and a C program
## with pkg-config, run them, and check they load the installed library by its SONAME.
C_PREFIX := $(abspath $(C_BUILD)/prefix)
c-package: c-tools
	@rm -rf $(C_PREFIX) $(C_BUILD)/engine $(C_BUILD)/pkgconfig-quick
	@$(MAKE) --no-print-directory install PREFIX=$(C_PREFIX) > $(C_BUILD)/install.log 2>&1 \
		|| { cat $(C_BUILD)/install.log; echo "FAILED: make install"; exit 1; }
	@set -e; for f in lib/libpachisi.so.$(C_VERSION) lib/$(C_SONAME) lib/libpachisi.so \
		lib/libpachisi.a include/pachisi.h include/pachisi.hpp lib/cmake/pachisi/pachisiConfig.cmake \
		lib/cmake/pachisi/pachisiConfigVersion.cmake lib/pkgconfig/pachisi.pc; do \
		test -e $(C_PREFIX)/$$f || { echo "FAILED: make install did not install $$f"; exit 1; }; \
	done; echo "== installed into $(C_PREFIX): lib (.so.$(C_VERSION), $(C_SONAME), .so, .a), include, cmake, pkgconfig"
	@cmake -S examples/cmake_engine -B $(C_BUILD)/engine -DCMAKE_PREFIX_PATH=$(C_PREFIX) \
		-DCMAKE_BUILD_TYPE=Release > $(C_BUILD)/engine.log 2>&1 \
		&& cmake --build $(C_BUILD)/engine >> $(C_BUILD)/engine.log 2>&1 \
		|| { cat $(C_BUILD)/engine.log; echo "FAILED: the CMake example engine did not build"; exit 1; }
	@set -e; \
	ldd $(C_BUILD)/engine/engine | grep -q "$(C_SONAME) => $(C_PREFIX)/lib/$(C_SONAME)" \
		|| { ldd $(C_BUILD)/engine/engine; echo "FAILED: engine does not load the installed $(C_SONAME)"; exit 1; }; \
	! ldd $(C_BUILD)/engine/engine_static | grep -q libpachisi \
		|| { echo "FAILED: engine_static needs libpachisi.so"; exit 1; }; \
	echo "== valgrind: examples/cmake_engine (find_package(pachisi), pachisi::pachisi)"; \
	$(C_VALGRIND) $(C_BUILD)/engine/engine > $(C_BUILD)/engine/run.log 2>&1 \
		|| { cat $(C_BUILD)/engine/run.log; echo "FAILED: the example engine"; exit 1; }; \
	tail -n 1 $(C_BUILD)/engine/run.log; \
	$(C_BUILD)/engine/engine_static || { echo "FAILED: engine_static"; exit 1; }
	@set -e; export PKG_CONFIG_PATH=$(C_PREFIX)/lib/pkgconfig; \
	test "$$(pkg-config --modversion pachisi)" = "$(C_VERSION)"; \
	mkdir -p $(C_BUILD)/pkgconfig-quick; \
	$(CC) -std=c11 $(C_WARNINGS) examples/cmake_engine/engine_static.c \
		-o $(C_BUILD)/pkgconfig-quick/quick $$(pkg-config --cflags --libs pachisi) \
		-Wl,-rpath,$$(pkg-config --variable=libdir pachisi); \
	$(C_BUILD)/pkgconfig-quick/quick > /dev/null; \
	echo "== pkg-config: pachisi $$(pkg-config --modversion pachisi), $$(pkg-config --cflags --libs pachisi | sed 's|$(C_PREFIX)|<prefix>|g'): built and ran"

c-clean:
	rm -rf $(C_BUILD)
