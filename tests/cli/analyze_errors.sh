#!/usr/bin/env bash
# `moreau analyze` bad input: one line naming the field and value, exit code 2.
set -uo pipefail
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_error() {  # expect_error "<needle>" args...
  local needle="$1"; shift
  "$bin" analyze "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ]; then echo "expected exit 2 for '$*', got $rc"; cat "$tmp/err"; exit 1; fi
  if ! grep -q -- "$needle" "$tmp/err"; then echo "message for '$*' lacks '$needle':"; cat "$tmp/err"; exit 1; fi
  if [ "$(wc -l < "$tmp/err")" -ne 1 ]; then echo "message for '$*' is not one line:"; cat "$tmp/err"; exit 1; fi
}
expect_error "no_such" --gallery no_such
expect_error "masss" --gallery painleve_rod --param masss=1
expect_error "abc" --gallery painleve_rod --param mu=abc
expect_error "mu" --gallery painleve_rod --param mu=-0.5
expect_error "nan" --gallery painleve_rod --param theta=nan
expect_error "key=value" --gallery painleve_rod --param mu
expect_error "exactly one" 
expect_error "$tmp/missing.json: no such file" "$tmp/missing.json"
echo '{"M": [[1, 0], [0, 1]], "F": [0, 9.81], "v": [0, 0], "constraints": [{"normal": [0, 1, 0]}]}' > "$tmp/bad_size.json"
expect_error "normal" "$tmp/bad_size.json"
echo '{"M": [[1, 0], [0, 1]], "F": [0, 9.81], "constraints": [{"normal": [0, 1], "tangent": [1, 0], "mu": -1}]}' > "$tmp/bad_mu.json"
expect_error "mu" "$tmp/bad_mu.json"
echo '{"M": [[1, 0.5], [0, 1]], "F": [0, 9.81], "constraints": [{"normal": [0, 1], "tangent": [1, 0]}]}' > "$tmp/asym.json"
expect_error "symmetric" "$tmp/asym.json"
echo '{"gallery": "wheel", "params": {"radius": "big"}}' > "$tmp/str.json"
expect_error "radius" "$tmp/str.json"
# the rules of the one JSON reader (io/json/json_reader.hpp): the file is named, then the field
echo '{"M": [[1]], "F": [9.81], "F": [1], "constraints": []}' > "$tmp/dup.json"
expect_error "dup.json: the key \"F\" is given twice" "$tmp/dup.json"
echo '{"M": [[1]], "F": [NaN], "constraints": []}' > "$tmp/nan.json"
expect_error "nan.json: not valid JSON at line 1" "$tmp/nan.json"
echo '{"M": [[1]], "F": [9.81], "constraints": [], "colour": "red"}' > "$tmp/unknown.json"
expect_error "unknown.json: colour: unknown field" "$tmp/unknown.json"
echo '{"M": [[1]], "F": [9.81], "constraints": [{"normal": [1], "mu": null}]}' > "$tmp/null.json"
expect_error "null.json: constraints\[0\].mu = null: must be a number" "$tmp/null.json"
# found by fuzz_analysis_input: parameters whose state overflows (ω = 1e200 rad/s makes the
# constraint's bias infinite) were refused without the file's name
echo '{"gallery": "painleve_rod", "params": {"theta_dot": 1e200}}' > "$tmp/overflow.json"
expect_error "overflow.json: constraint 0 ('floor/end') has a NaN or infinite entry" "$tmp/overflow.json"
# a state whose numbers overflow the report (∇h = (1, 1), v = (1e308, 1e308): ∇hᵀv = 2e308 = +∞)
# is refused with the file and the field, not written as null (issue 32)
echo '{"M": [[1, 0], [0, 1]], "F": [0, 9.81], "v": [1e308, 1e308], "constraints": [{"normal": [1, 1], "tangent": [1, -1]}]}' > "$tmp/huge.json"
expect_error "huge.json: the analysis report contacts\[0\].normal_velocity = inf is not a finite number: the arithmetic overflowed (the state's largest number is v\[0\] = 1e+308)" "$tmp/huge.json"
expect_error "huge.json: the analysis report contacts\[0\].normal_velocity = inf" "$tmp/huge.json" --json
echo "analyze_errors: ok"
