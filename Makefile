# Tessera — one-word entry points. `make test` is what CI runs first, `make test-asan` second.
#   make deps       install every Debian 12 package and npm package the project uses
#                   (scripts/install-deps.sh; idempotent); deps-demo, deps-build, deps-test: the
#                   packages of `make demo`, `make build` and `make test` alone
#   make build      Release build into build/: tessera, the plugins, the Python module, the tests
#   make demo       builds only what it runs (tessera and the shipped plugins, same flags as
#                   `make build`), then `tessera run` on the default scenario; also writes its
#                   HTML report (build/report-default.html, docs/report.md) and prints the path
#   make test       build, then the whole CTest suite
#   make build-asan clang + AddressSanitizer/UndefinedBehaviorSanitizer build (-O1) into
#                   build-asan/, with the fuzz harnesses
#   make test-asan  build-asan, then the whole suite there
#   make fuzz       the ASan build's libFuzzer harnesses (bin/fuzz_*), each run FUZZ_SECONDS
#                   (default 600), FUZZ_JOBS (default 2) at a time; FUZZ_YAML_CPP_SOURCE=DIR
#                   also instruments yaml-cpp (build-fuzz/); docs/fuzzing.md
#   make bench      Release build with the Google Benchmark programs, then run them; then
#                   bench/report_size_speed.sh (HTML report size, render time, --html's cost)
#   make hostile    Release build, then every hostile-case input and fuzz-corpus file through
#                   validate/run/explain under `ulimit -v 2000000` (tests/hostile/ulimit_sweep.sh);
#                   not part of `make test`
#   make schema-docs  rewrite docs/scenario-format.md's generated key tables and
#                   docs/schema/*.schema.json from the field table (`tessera schema`)
#   make format     clang-format every C++ file of framework/ plugins/ tests/ bench/
#   make format-check  fail when a C++ file is not as clang-format would write it (CI)
#   make clean      remove the build folders
# Every build compiles through ccache when it is installed (docs/testing.md "Compiler cache");
# CMAKE_ARGS=-DTESSERA_CCACHE=OFF (or CCACHE_DISABLE=1) turns it off.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE ?= cmake
CTEST ?= ctest
CMAKE_ARGS ?=
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 2
# The ASan build also builds the fuzz harnesses (TESSERA_FUZZ adds -fsanitize=fuzzer-no-link to
# every object), so `make fuzz` after `make test-asan` builds nothing more.
# Debug is the build type; cmake/TesseraSanitizers.cmake sets -O1 and line tables on top of it.
ASAN_FLAGS := -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DTESSERA_SANITIZE=ON -DTESSERA_FUZZ=ON
ASAN_CONFIGURE := $(CMAKE) -S . -B $(ASAN_BUILD) $(ASAN_FLAGS) $(CMAKE_ARGS)
# The Release configuration of build/: `make demo` and `make build` share every compile flag;
# demo leaves the test programs out of the configuration (Catch2 is a package of `make build`).
RELEASE_FLAGS := -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)
# Opt-in, not CI: `make fuzz FUZZ_YAML_CPP_SOURCE=DIR` builds the yaml-cpp 0.7 source tree DIR
# (already on disk; nothing is fetched) instrumented too, in its own folder build-fuzz/.
FUZZ_YAML_CPP_SOURCE ?=
FUZZ_BUILD := $(if $(FUZZ_YAML_CPP_SOURCE),build-fuzz,$(ASAN_BUILD))

# Sanitizer settings for every test process of `make test-asan`: leaks are errors, the first
# error stops the program, UBSan prints where.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_init_order=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps deps-demo deps-build deps-test configure build demo test build-asan test-asan fuzz hostile bench \
        schema-docs format format-check clean

all: build

deps: deps-test
deps-demo:
	scripts/install-deps.sh --demo
deps-build:
	scripts/install-deps.sh --build
deps-test:
	scripts/install-deps.sh --test

configure: deps-build
	$(CMAKE) -S . -B $(BUILD) $(RELEASE_FLAGS) -DTESSERA_BUILD_TESTS=ON

build: configure
	$(CMAKE) --build $(BUILD) -j$(JOBS)

# Only the executable and the shipped plugins (target tessera_programs), then the default scenario.
demo: deps-demo
	$(CMAKE) -S . -B $(BUILD) $(RELEASE_FLAGS) -DTESSERA_BUILD_TESTS=OFF
	$(CMAKE) --build $(BUILD) -j$(JOBS) --target tessera_programs
	$(BUILD)/bin/tessera run --html $(BUILD)/report-default.html
	@echo "HTML report: $(abspath $(BUILD)/report-default.html)"

test: deps-test build
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j2
	@# The pytest suite is one CTest entry (python:pytest); its own closing line, counted beside CTest's.
	@sed -n 's/^=* *\([0-9][0-9]* passed.*[0-9]s\).*/python:pytest: \1/p' $(BUILD)/Testing/Temporary/LastTest.log 2>/dev/null | tail -1

build-asan: deps-test
	$(ASAN_CONFIGURE)
	$(ASAN_ENV) $(CMAKE) --build $(ASAN_BUILD) -j$(JOBS)

test-asan: build-asan
	$(ASAN_ENV) $(CTEST) --test-dir $(ASAN_BUILD) --output-on-failure -j2

fuzz: deps-test
	$(CMAKE) -S . -B $(FUZZ_BUILD) $(ASAN_FLAGS) $(CMAKE_ARGS) \
	  $(if $(FUZZ_YAML_CPP_SOURCE),-DTESSERA_FUZZ_YAML_CPP_SOURCE=$(abspath $(FUZZ_YAML_CPP_SOURCE)))
	$(ASAN_ENV) $(CMAKE) --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_harnesses
	$(ASAN_ENV) tests/fuzz/run.sh -b $(FUZZ_BUILD) -j$(FUZZ_JOBS) $(FUZZ_SECONDS)

hostile: build
	tests/hostile/ulimit_sweep.sh -b $(BUILD) -j$(JOBS)

bench: deps-test
	$(CMAKE) -S . -B $(BUILD) $(RELEASE_FLAGS) -DTESSERA_BUILD_TESTS=ON -DTESSERA_BUILD_BENCH=ON
	$(CMAKE) --build $(BUILD) -j$(JOBS)
	@set -e; found=0; \
	for b in $(BUILD)/bin/bench_*; do \
	  [ -x "$$b" ] || continue; found=1; echo "== $$b"; "$$b"; \
	done; \
	if [ $$found = 0 ]; then echo "make bench: no bench programs (bin/bench_*) were built" >&2; exit 1; fi
	@echo "== bench/report_size_speed.sh (the HTML report of a 10^6-configuration sweep; docs/performance.md)"
	bench/report_size_speed.sh $(BUILD)
	@echo "== bench/isolation_cost.sh (tessera run in isolated worker processes; docs/performance.md)"
	bench/isolation_cost.sh $(BUILD) 2 7

# The generated parts of the docs, from the field table; test_schema checks they are current.
schema-docs: configure
	$(CMAKE) --build $(BUILD) -j$(JOBS) --target tessera_cli
	$(BUILD)/bin/tessera schema --markdown --doc docs/scenario-format.md > docs/scenario-format.md.tmp
	mv docs/scenario-format.md.tmp docs/scenario-format.md
	mkdir -p docs/schema
	for kind in model machine scenario; do \
	  $(BUILD)/bin/tessera schema --json-schema $$kind > docs/schema/$$kind.schema.json.tmp && \
	  mv docs/schema/$$kind.schema.json.tmp docs/schema/$$kind.schema.json || exit 1; \
	done

format:
	find framework plugins tests bench docs/examples python \( -name '*.cpp' -o -name '*.hpp' \) -print0 \
	  | xargs -0 -r clang-format -i

# CI's check: every C++ file as clang-format would write it (nothing is changed).
format-check:
	find framework plugins tests bench docs/examples python \( -name '*.cpp' -o -name '*.hpp' \) -print0 \
	  | xargs -0 -r clang-format --dry-run --Werror

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
