#!/usr/bin/env bash
# `moreau analyze SCENE.json`: the scene forms give the analytic answers.
#  * explicit_rod.json is the painleve_rod at tan θ = 2, μ = 0.5, σ = −1 written as matrices:
#    α = 1.6 − 1.2·0.5 = 1.0, β = g = 9.81, slip (see analyze_painleve.sh for the derivation).
#  * painleve_rod.json is the same rod with μ = 2: α = −0.8, inconsistent.
#  * two_finger.json (Brogliato, Kövecses & Acary 2020 Ex. 6, F₁ = −5, F₂ = 3, μ = (1.2, 1.5)):
#    λ_n1 = −F₁ = 5, λ_n2 = F₂ = 3,
#    all-sticking iff μ₁|F₁| + μ₂|F₂| = 10.5 ≥ m g = 9.81 → feasible; with μ = (0.8, 0.9),
#    6.7 < 9.81 → friction infeasible.
set -euo pipefail
bin="$1"
here="$(cd "$(dirname "$0")/../.." && pwd)"
scenes="$here/examples/scenes/analysis"
/usr/bin/python3 - "$("$bin" analyze "$scenes/explicit_rod.json" --json)" <<'PY'
import json, sys
p = json.loads(sys.argv[1])["painleve"]
assert abs(p["alpha"] - 1.0) < 1e-9 and abs(p["beta"] - 9.81) < 1e-12 and p["case"] == "slip", p
PY
/usr/bin/python3 - "$("$bin" analyze "$scenes/painleve_rod.json" --json)" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert abs(r["painleve"]["alpha"] + 0.8) < 1e-9 and r["painleve"]["case"] == "inconsistent", r["painleve"]
assert abs(r["mu_critical"] - 4 / 3) < 1e-9
PY
/usr/bin/python3 - "$("$bin" analyze "$scenes/two_finger.json" --json --all-sticking)" <<'PY'
import json, sys
a = json.loads(sys.argv[1])["all_sticking"]
assert a["status"] == "sticking", a
# constraints: guide (bilateral), finger1, finger2
ln = dict(zip(a["constraints"], a["lambda_n"]))
assert abs(ln[1] - 5.0) < 1e-7 and abs(ln[2] - 3.0) < 1e-7, ln
PY
/usr/bin/python3 - "$("$bin" analyze --gallery two_finger --param mu1=0.8 --param mu2=0.9 --json --all-sticking)" <<'PY'
import json, sys
a = json.loads(sys.argv[1])["all_sticking"]
assert a["status"] == "friction_infeasible", a["status"]
PY
echo "analyze_scenes: ok"
