# The README's commands. Each target installs what it needs (scripts/install-deps), then builds.
BUILD ?= build
JOBS ?= $(shell nproc)
PYTHON ?= /usr/bin/python3
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=$(PYTHON)

.PHONY: deps peers build demo test test-asan fuzz soak bench-fclib bench-sim bench-sweep bench-scale docs clean

deps:
	@scripts/install-deps

# The libraries the benchmarks compare with (Siconos, MuJoCo); CMake then looks for them again.
peers:
	MOREAU_WITH_PEERS=1 scripts/install-deps
	@if [ -f $(BUILD)/CMakeCache.txt ]; then cmake $(BUILD) > /dev/null; fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 600

test-asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j $(JOBS) --timeout 1200

# libFuzzer with ASan and UBSan on every reader (scripts/fuzz, docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz:
	MOREAU_WITH_FUZZ=1 scripts/install-deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) JOBS=$(JOBS) scripts/fuzz

# Long runs that must stay flat (bench/soak.cpp, docs/reliability.md): samples, bounds, plot.
soak: build
	$(BUILD)/bin/bench_soak --out $(BUILD)/soak
	$(PYTHON) bench/plot_soak.py $(BUILD)/soak

bench-fclib: peers build
	$(BUILD)/bin/bench_fclib
	/usr/bin/python3 bench/fclib_first_solve.py --build $(BUILD)

bench-sim: peers build
	$(BUILD)/bin/bench_sim
	$(BUILD)/bin/bench_multibody
	/usr/bin/python3 bench/plot_columns.py --build $(BUILD)
	PYTHONPATH=$(BUILD)/python /usr/bin/python3 bench/control.py --build $(BUILD)
	/usr/bin/python3 bench/robots.py --build $(BUILD)
	/usr/bin/python3 bench/gradients.py --build $(BUILD)
	PYTHONPATH=$(BUILD)/python /usr/bin/python3 bench/siconos_cases.py

# Sphere piles of 216 to 27,000 spheres, moreau against MuJoCo 2.2.2 (docs/benchmarks.md §Scale).
bench-scale: peers build
	$(PYTHON) bench/scale.py --build $(BUILD)

bench-sweep: build
	PYTHONPATH=$(BUILD)/python MOREAU_CLI=$(BUILD)/bin/moreau /usr/bin/python3 bench/sweep.py

docs: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target docs

clean:
	rm -rf $(BUILD) build-asan build-fuzz
