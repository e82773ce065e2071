"""moreau.gallery / moreau.analyze / CallbackSystem / rigid builders against analytic results.

Conventions: M q̈ + F = Σ ∇h λ_n + H_t λ_t, F on the left (gravity +m g)."""
import math

import numpy as np
import pytest

import moreau

TAN2 = math.atan(2.0)


def rod_alpha(theta, mu, sigma, m=1.0):
    # painleve_rod: α = (1 + 3cos²θ + 3σμ sinθ cosθ)/m  (uniform rod, θ from the floor)
    return (1 + 3 * math.cos(theta) ** 2 + 3 * sigma * mu * math.sin(theta) * math.cos(theta)) / m


def test_painleve_rod_closed_forms():
    # β = g − l θ̇² sin θ with l = L/2.
    for mu, theta, thd, xd in [(0.5, 0.7, 0.0, -1.0), (2.0, TAN2, 0.0, -1.0), (2.0, TAN2, 5.0, -1.0),
                               (0.3, 1.2, 2.0, 1.0)]:
        r = moreau.analyze(moreau.gallery("painleve_rod", theta=theta, mu=mu, theta_dot=thd, x_dot=xd, length=1.4))
        p = r["painleve"]
        sigma = 1 if xd > 0 else -1
        assert p["sigma"] == sigma
        assert p["alpha"] == pytest.approx(rod_alpha(theta, mu, sigma), abs=1e-12)
        assert p["beta"] == pytest.approx(9.81 - 0.7 * thd ** 2 * math.sin(theta), abs=1e-12)
        expected = {(True, True): "slip", (True, False): "separation", (False, True): "inconsistent",
                    (False, False): "indeterminate"}[(p["alpha"] > 0, p["beta"] > 0)]
        assert p["case"] == expected


def test_uniform_rod_minimum_critical_friction_is_four_thirds():
    # μ_c(θ) = (1 + 3cos²θ)/(3 sinθ cosθ) for σ = −1; its minimum over θ is 4/3 at tan θ = 2
    # (unilateral-contact notes, μ_min with I_c = m ℓ²/3: √(((2I_c + mℓ²)/(mℓ²))² − 1) = √(25/9 − 1)
    # = 4/3).
    thetas = np.linspace(0.9, 1.3, 81)
    mus = [moreau.analyze(moreau.gallery("painleve_rod", theta=t))["mu_critical"] for t in thetas]
    k = int(np.argmin(mus))
    assert mus[k] == pytest.approx(4.0 / 3.0, abs=1e-3)
    assert thetas[k] == pytest.approx(TAN2, abs=0.006)
    assert moreau.analyze(moreau.gallery("painleve_rod", theta=TAN2))["mu_critical"] == pytest.approx(4 / 3, abs=1e-12)
    # σ = +1: α never vanishes, μ_c = +∞ (null / None).
    assert moreau.analyze(moreau.gallery("painleve_rod", x_dot=1.0))["mu_critical"] is None


def test_falling_pencil_normal_force_and_separation():
    # Falling pencil of the unilateral-contact notes: sticking tip, ω0 → 0, so
    # θ̇² = 2gα(1 − cos θ)/ℓ (energy (4.10)) and
    # λ_n = m g [1 − α(sin²θ + 2 cos θ (1 − cos θ))]  (4.11); for α = 0.9 it vanishes at
    # z_s = cos θ_s = (1 + √(4 − 3/α))/3 (θ_s = 52.7353°), where free flight has
    # ÿ = g[2α z_s(1 − z_s) − 1] = −0.570034 g < 0 (4.14).
    m, l, a, g = 1.0, 0.5, 0.9, 9.81
    for theta in (0.3, 0.6, 0.8):
        thd = math.sqrt(2 * g * a * (1 - math.cos(theta)) / l)
        r = moreau.analyze(moreau.gallery("falling_pencil", alpha=a, theta=theta, theta_dot=thd, mu=10.0),
                           all_sticking=True)
        F = math.sin(theta) ** 2 + 2 * math.cos(theta) * (1 - math.cos(theta))
        assert r["all_sticking"]["lambda_n"][0] == pytest.approx(m * g * (1 - a * F), abs=1e-8)
    zs = (1 + math.sqrt(4 - 3 / a)) / 3
    ts = math.acos(zs)
    assert math.degrees(ts) == pytest.approx(52.7353, abs=1e-4)
    thd = math.sqrt(2 * g * a * (1 - zs) / l)
    sys = moreau.gallery("falling_pencil", alpha=a, theta=ts, theta_dot=thd)
    prob = moreau.build_acceleration_problem(sys.default_state())
    assert prob.free_acceleration[1] / g == pytest.approx(2 * a * zs * (1 - zs) - 1, abs=1e-10)
    assert prob.free_acceleration[1] / g == pytest.approx(-0.570034, abs=1e-6)
    r = moreau.analyze(sys, all_sticking=True)
    assert r["all_sticking"]["lambda_n"][0] == pytest.approx(0.0, abs=1e-8)


def test_rocking_block_all_sticking_regression():
    # Brogliato, Kövecses & Acary 2020 Ex. 2 (m = 2, l = 1, L = 0.5, θ = 0.2, θ̇ = 0.3,
    # F = (1, 2g, 0) left side):
    # λ_n = 18.71219318, λ_t = 3.976990756, q̈ = (1.488495378, −0.4539034099, −2.782295769).
    r = moreau.analyze(moreau.gallery("rocking_block"), all_sticking=True)
    a = r["all_sticking"]
    assert a["constraints"] == [1]
    assert a["lambda_n"][0] == pytest.approx(18.71219318, abs=1e-7)
    assert a["lambda_t"][0][0] == pytest.approx(3.976990756, abs=1e-7)
    assert np.allclose(a["qddot"], [1.488495378, -0.4539034099, -2.782295769], atol=1e-8)


def test_two_finger_all_sticking_threshold():
    # Brogliato, Kövecses & Acary 2020 Ex. 6 (its "λ_t1 + λ_t1" read as λ_t1 + λ_t2): all-sticking
    # iff μ₁|F₁| + μ₂|F₂| ≥ m g.
    bad = moreau.analyze(moreau.gallery("two_finger", F1=-5, F2=3, mu1=0.8, mu2=0.9), all_sticking=True)
    good = moreau.analyze(moreau.gallery("two_finger", F1=-5, F2=3, mu1=1.2, mu2=1.5), all_sticking=True)
    assert bad["all_sticking"]["status"] == "friction_infeasible"
    assert good["all_sticking"]["status"] == "sticking"


def test_callback_system_from_python():
    # Particle on a rough line: α = ∇hᵀM⁻¹(∇h − σμH_t) = 1/m (∇h ⟂ H_t), β = g, slip.
    m = 2.0
    sys = moreau.callback_system(
        "particle", 2, 2, lambda q: m * np.eye(2), lambda q, v, t: np.array([0.0, m * 9.81]),
        [dict(kinematics=lambda q, v: dict(gap=q[1], normal=[0.0, 1.0], tangent=[1.0, 0.0]), name="line", mu=0.4)])
    r = moreau.analyze(sys, (np.zeros(2), np.array([1.0, 0.0])))
    assert r["painleve"]["alpha"] == pytest.approx(1 / m)
    assert r["painleve"]["beta"] == pytest.approx(9.81)
    assert r["painleve"]["case"] == "slip"
    sol = r["modes"]["solutions"][0]["contacts"][0]
    assert sol["lambda_n"] == pytest.approx(m * 9.81) and sol["lambda_t"][0] == pytest.approx(-0.4 * m * 9.81)
    # tuple form, wrong size → ValueError naming the constraint
    bad = moreau.CallbackSystem("bad", 2, 2, lambda q: np.eye(2), lambda q, v, t: np.zeros(2))
    bad.add_constraint(lambda q, v: (0.0, [0.0, 1.0, 0.0]), name="short")
    with pytest.raises(ValueError, match="short"):
        bad.contact_state(np.zeros(2), np.zeros(2))


def test_explicit_contact_pairs_from_a_scene():
    # Disk of radius R = 0.5 on the floor, its contact an explicit pair with its own μ: H_t =
    # (1, 0, R) (the material point under the disk moves with ẋ + R ω); the rod's end s = (−0.5, 0)
    # at θ = 0.2 is held on the wall x = x_end by a bilateral pair, tangent (n_y, −n_x) = (0, −1).
    th = 0.2
    scene = {
        "description": "a disk on the floor and a rod end on a wall, as explicit pairs",
        "dimension": 2,
        "static_shapes": [
            {"type": "plane", "name": "floor", "normal": [0, 1], "contype": 0, "conaffinity": 0},
            {"type": "plane", "name": "wall", "normal": [1, 0], "offset": -3.0,
             "contype": 0, "conaffinity": 0}],
        "bodies": [
            {"name": "disk", "mass": 1.0, "inertia": 0.1, "position": [0, 0.5],
             "shapes": [{"type": "disk", "name": "rim", "radius": 0.5}]},
            {"name": "rod", "mass": 1.0, "inertia": 0.1, "angle": th,
             "position": [-3.0 + 0.5 * np.cos(th), 1.0 + 0.5 * np.sin(th)],
             "shapes": [{"type": "convex", "name": "end", "vertices": [[-0.5, 0]]}]}],
        "contact": {"explicit": [
            {"name": "floor", "body_a": "disk", "shape_a": "rim", "body_b": "ground",
             "shape_b": "floor", "mu": 0.3},
            {"name": "end/wall", "body_a": "rod", "shape_a": 0, "body_b": "ground",
             "shape_b": "wall", "kind": "bilateral"}]},
    }
    s = moreau.scene_system(scene)
    cs = s.contact_state(np.asarray(s.initial_q), np.asarray(s.initial_v))
    floor, wall = cs.constraints
    assert (floor.name, floor.kind, floor.mu) == ("floor", moreau.ConstraintKind.unilateral, 0.3)
    assert floor.gap == pytest.approx(0.0, abs=1e-15)
    assert np.allclose(floor.tangent[:, 0], [1.0, 0.0, 0.5, 0.0, 0.0, 0.0])
    assert (wall.name, wall.kind) == ("end/wall", moreau.ConstraintKind.bilateral)
    assert wall.gap == pytest.approx(0.0, abs=1e-15)
    # end at c + R(θ)s, s = (−0.5, 0): its velocity along t = (0, −1) is −ẏ + 0.5 cos θ ω
    assert np.allclose(wall.tangent[:, 0], [0, 0, 0, 0.0, -1.0, 0.5 * np.cos(th)])


def test_spatial_rigid_bodies_from_a_scene():
    # A ball of radius R = 0.5 on the floor rolling along +x: V = (1, 0, 0), ω = (0, 2, 0), so its
    # contact point is at rest, v_t1 = ẋ − R ω_y = 0, and the floor's frame is t₁ = e_x, t₂ = e_y;
    # an applied force (scene key "force") enters F.
    scene = {
        "description": "a ball rolling on the floor",
        "dimension": 3,
        "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 0, 1], "offset": 0}],
        "bodies": [{"name": "ball", "mass": 1.0, "position": [0, 0, 0.5],
                    "velocity": [1, 0, 0], "angular_velocity": [0, 2, 0], "force": [0, 0, 2.0],
                    "shapes": [{"type": "sphere", "radius": 0.5}]}],
    }
    sp = moreau.scene_system(scene)
    q, v = np.asarray(sp.initial_q), np.asarray(sp.initial_v)
    assert len(q) == 7 and len(v) == 6
    (c,) = [c for c in sp.contact_state(q, v).constraints if c.kind == moreau.ConstraintKind.unilateral]
    assert c.gap == pytest.approx(0.0, abs=1e-12)
    assert c.normal @ v == pytest.approx(0.0, abs=1e-12)
    assert c.tangent[:, 0] @ v == pytest.approx(0.0, abs=1e-12)  # rolling: ẋ = R ω_y
    assert c.tangent[:, 0] @ np.array([1, 0, 0, 0, 0, 0.0]) == pytest.approx(1.0)  # t₁ = e_x
    assert np.allclose(sp.position_rate(q, v)[:3], [1, 0, 0])
    # F on the left side: −(m g⃗ + f) = −(1·(0, 0, −9.81) + (0, 0, 2)) on the translation
    assert np.allclose(sp.contact_state(q, v).F[:3], [0, 0, 9.81 - 2.0])
    with pytest.raises(ValueError, match="radius"):
        scene["bodies"][0]["shapes"][0]["radius"] = -1
        moreau.scene_system(scene)


def test_every_gallery_system_analyzes():
    names = moreau.gallery_names()
    assert len(names) == 14 and "painleve_rod" in names
    for name in names:
        r = moreau.analyze(moreau.gallery(name))
        for key in ("contacts", "problem", "modes", "painleve", "mu_critical", "matrix_tests"):
            assert key in r, (name, key)
    cat = {e["name"]: e for e in moreau.gallery_catalog()}
    assert {p["name"] for p in cat["painleve_rod"]["parameters"]} == {
        "mass", "length", "theta", "theta_dot", "x_dot", "mu", "g"}


def test_bad_input():
    with pytest.raises(ValueError, match="no_such"):
        moreau.gallery("no_such")
    with pytest.raises(ValueError, match="masss"):
        moreau.gallery("painleve_rod", masss=1.0)
    with pytest.raises(ValueError, match="mu"):
        moreau.gallery("painleve_rod", mu=-0.1)
    with pytest.raises(ValueError, match="mu"):
        moreau.gallery("painleve_rod", mu="abc")
    with pytest.raises(ValueError, match="theta"):
        moreau.gallery("painleve_rod", theta=float("nan"))
    sys = moreau.gallery("painleve_rod")
    with pytest.raises(ValueError):
        moreau.analyze(sys, (np.zeros(2), np.zeros(3)))


def test_acceleration_problem_of_an_explicit_constraint_set():
    # The rocking block's open corner A1 is taken when asked for: M (M⁻¹N) = N, and the Delassus
    # block is Nᵀ M⁻¹ N computed here with numpy's own inverse.
    import numpy as np

    state = moreau.gallery("rocking_block").default_state()
    prob = moreau.build_acceleration_problem_for(state, [0, 1])
    assert list(prob.active) == [0, 1]
    assert np.allclose(state.M @ prob.mass_inverse_N, prob.N, atol=1e-12)
    assert np.allclose(prob.delassus_nn, prob.N.T @ np.linalg.inv(state.M) @ prob.N, atol=1e-12)
    with pytest.raises(ValueError, match="active constraint"):
        moreau.build_acceleration_problem_for(state, [1, 0])


def test_overflowing_state_raises_value_error_naming_the_field():
    # ∇h = (1, 1), v = (1e308, 1e308): ∇hᵀv = 2e308 overflows to +∞, which JSON cannot hold; the
    # report is refused with the field (not written as None).
    sys = moreau.callback_system(
        "particle", 2, 2, lambda q: np.eye(2), lambda q, v, t: np.array([0.0, 9.81]),
        [dict(kinematics=lambda q, v: dict(gap=0.0, normal=[1.0, 1.0], tangent=[1.0, -1.0]), name="c")])
    with pytest.raises(ValueError) as e:
        moreau.analyze(sys, (np.zeros(2), np.array([1e308, 1e308])))
    assert str(e.value) == ("moreau.analyze(particle): the analysis report contacts[0].normal_velocity = inf "
                            "is not a finite number: the arithmetic overflowed (the state's largest number "
                            "is v[0] = 1e+308)")
    # the same system at 1e100 m/s: ∇hᵀv = 2e100
    r = moreau.analyze(sys, (np.zeros(2), np.array([1e100, 1e100])))
    assert r["contacts"][0]["normal_velocity"] == pytest.approx(2e100)
