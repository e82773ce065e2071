"""The gradient examples (examples/gradients), each run and checked here by an independent
rollout and by Coulomb's law, not by the example's own printout."""
import importlib.util
from pathlib import Path

import numpy as np

import moreau

EXAMPLES = Path(__file__).parents[2] / "examples" / "gradients"


def load(name):
    spec = importlib.util.spec_from_file_location(f"gradients_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_optimised_force_profile_slides_the_box_to_its_target_and_stops_it():
    ex = load("slide_box_to_target")
    f, _, _ = ex.optimise(iterations=80, verbose=False)
    # replay the profile in a simulator of our own
    sim = moreau.Simulator(ex.SCENE)
    for fk in f:
        sim.qfrc_applied = np.array([fk, 0, 0, 0, 0, 0])
        sim.step()
    assert abs(sim.q[0] - ex.TARGET) < 1e-3
    assert abs(sim.v[0]) < 1e-3
    # the box slid the whole second (it started at rest pushed above mu m g), so the net impulse
    # is zero when it stops: sum f h = mu m g T
    mu, m, g, T = 0.3, 1.0, 9.81, 1.0
    assert abs(f.sum() * sim.dt - mu * m * g * T) < 1e-2


def test_gauss_newton_recovers_the_hidden_friction_and_restitution():
    ex = load("identify_friction_restitution")
    mu, e = 0.3, 0.5  # hidden from the identification: only the recorded positions go in
    observed, _ = ex.record(mu, e)
    (mu_hat, e_hat), iterations = ex.identify(observed, (1.3 * mu, 0.7 * e), verbose=False)
    assert abs(mu_hat - mu) <= 1e-6 * mu
    assert abs(e_hat - e) <= 1e-6 * e
    assert iterations <= 15
