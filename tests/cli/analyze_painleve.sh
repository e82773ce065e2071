#!/usr/bin/env bash
# `moreau analyze --gallery painleve_rod`: the Painlevé case flips with μ at θ = atan 2.
#
# Uniform rod, m = 1, L = 1 (l = 1/2, I = m l²/3), θ from the floor, end sliding with ẋ_end = −1
# (σ = −1). With ∇h = (0, 1, −l cos θ), H_t = (1, 0, l sin θ), M⁻¹ = diag(1, 1, 3/l²):
#   α = ∇hᵀM⁻¹(∇h − σμH_t) = 1 + 3cos²θ + 3σμ sin θ cos θ,   β = g − l θ̇² sin θ.
# At tan θ = 2: cos²θ = 1/5, sin θ cos θ = 2/5, so α = 1.6 − 1.2μ (σ = −1) and μ_c = 1.6/1.2 = 4/3.
#   μ = 0.5, θ̇ = 0: α = 1.0, β = 9.81 → slip, λ_n = 9.81.
#   μ = 2,   θ̇ = 0: α = −0.8, β = 9.81 → inconsistent.
#   μ = 2,   θ̇ = 5: β = 9.81 − 0.5·25·(2/√5) = −1.370340 → indeterminate; μ = 0.5 → separation.
#   σ = +1 (ẋ_end = +1), μ = 2: α = 1.6 + 2.4 = 4 → slip, μ_c = +∞ (null).
set -euo pipefail
bin="$1"
th=1.1071487177940904
check() {  # check "<params>" <alpha> <beta> <case> <mu_c or null>
  local out
  out=$("$bin" analyze --gallery painleve_rod $1 --json)
  /usr/bin/python3 - "$2" "$3" "$4" "$5" <<PY "$out"
import json, math, sys
r = json.loads(sys.argv[5])
alpha, beta, case, muc = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
p = r["painleve"]
assert abs(p["alpha"] - alpha) < 1e-9, ("alpha", p["alpha"], alpha)
assert abs(p["beta"] - beta) < 1e-9, ("beta", p["beta"], beta)
assert p["case"] == case, ("case", p["case"], case)
if muc == "null":
    assert r["mu_critical"] is None, r["mu_critical"]
else:
    assert abs(r["mu_critical"] - float(muc)) < 1e-9, (r["mu_critical"], muc)
assert r["active"] == [0] and r["contacts"][0]["sliding"] is True
PY
}
check "--param theta=$th --param mu=0.5" 1.0 9.81 slip 1.3333333333333333
check "--param theta=$th --param mu=2" -0.8 9.81 inconsistent 1.3333333333333333
check "--param theta=$th --param mu=2 --param theta_dot=5" -0.8 -1.3703398874989486 indeterminate 1.3333333333333333
check "--param theta=$th --param mu=0.5 --param theta_dot=5" 1.0 -1.3703398874989486 separation 1.3333333333333333
check "--param theta=$th --param mu=2 --param x_dot=1" 4.0 9.81 slip null
# several values after one --param (issue 15 §6), and both forms mixed
check "--param theta=$th mu=2 theta_dot=5" -0.8 -1.3703398874989486 indeterminate 1.3333333333333333
check "-p theta=$th mu=2 --param x_dot=1" 4.0 9.81 slip null
# Slip at μ = 0.5: λ_n = β/α = 9.81 in the mode report too (the single consistent mode).
out=$("$bin" analyze --gallery painleve_rod --param theta=$th --param mu=0.5 --json)
/usr/bin/python3 -c '
import json, sys
r = json.loads(sys.argv[1])
m = r["modes"]
assert m["count"] == 1, m
c = m["solutions"][0]["contacts"][0]
assert c["mode"] == "slip" and abs(c["lambda_n"] - 9.81) < 1e-8, c
' "$out"
# The text report runs too.
"$bin" analyze --gallery painleve_rod > /dev/null
echo "analyze_painleve: ok"
