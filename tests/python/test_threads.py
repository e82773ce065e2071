"""Threads from Python (docs/simulation.md §Threads): the scene key integrator.threads.

The 216-sphere pile's first 0.1 s (the bottom layer lands: impacts and separations) with 2 threads
is reproducible to the bit, agrees with the 1-thread run within what the solver tolerance
(1e-8 relative on the impulses) allows on the positions, and a bad thread count names the field.
"""
import json
import os

import numpy as np
import pytest

import moreau

PILE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "scenes", "sphere_pile.json")


def pile(threads):
    with open(PILE) as f:
        scene = json.load(f)
    scene["t_end"] = 0.1
    scene["integrator"]["threads"] = threads
    scene["output"]["plot"] = False
    return scene


def test_two_threads_are_reproducible_and_agree_with_one():
    one = moreau.simulate(pile(1))
    two = moreau.simulate(pile(2))
    again = moreau.simulate(pile(2))
    assert one.summary["event_counts"]["impact"] > 0  # contacts were solved
    assert np.array_equal(np.asarray(two.q), np.asarray(again.q))
    assert np.array_equal(np.asarray(two.v), np.asarray(again.v))
    # positions over 0.1 s: impulse differences of ~1e-8 relative move them by far less than 1 µm
    assert np.abs(np.asarray(one.q) - np.asarray(two.q)).max() < 1e-6


def test_a_bad_thread_count_names_the_field():
    with pytest.raises(ValueError, match=r"integrator\.threads = 0"):
        moreau.simulate(pile(0))
