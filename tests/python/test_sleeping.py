"""Island sleeping from Python (docs/simulation.md §Sleeping): the scene key integrator.sleep.

The five-box stack rests exactly: with sleeping on it falls asleep after sleep_time (0.25 s) and its
velocities are then exactly zero, while its positions stay those of the run without sleeping (both
at rest to the solver tolerance). A bad sleep_velocity names the field.
"""
import json
import os

import numpy as np
import pytest

import moreau

STACK = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "scenes", "box_stack.json")


def stack(**integrator):
    with open(STACK) as f:
        scene = json.load(f)
    scene["t_end"] = 0.5
    scene.setdefault("integrator", {}).update(integrator)
    scene.setdefault("output", {})["plot"] = False
    return scene


def test_a_resting_stack_sleeps_with_zero_velocity_where_it_was():
    asleep = moreau.simulate(stack(sleep=True))
    awake = moreau.simulate(stack())
    t = np.asarray(asleep.t)
    v = np.asarray(asleep.v)
    late = t > 0.3
    assert late.any()
    assert np.all(v[late] == 0.0)
    assert np.abs(np.asarray(awake.v)[late]).max() > 0.0  # awake bodies keep round-off velocities
    assert np.abs(np.asarray(asleep.q) - np.asarray(awake.q)).max() < 1e-6


def test_a_bad_sleep_velocity_names_the_field():
    with pytest.raises(ValueError, match=r"integrator\.sleep_velocity = -1"):
        moreau.simulate(stack(sleep=True, sleep_velocity=-1))
