"""Wrong arguments from Python (issue 15 §6): wrong shapes, wrong dtypes, None and NaN raise
ValueError naming the argument (moreau.InputError, also a TypeError for pybind11-style code),
and no bad argument crashes the interpreter."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import moreau

I2 = np.eye(2)
Q2 = np.array([-1.0, 1.0])


def rod_system():
    return moreau.gallery("painleve_rod")


# (call, the argument the message must name)
NAMED = [
    (lambda: moreau.Lcp(None, Q2), "'M' = None"),
    (lambda: moreau.Lcp(I2, ["a", "b"]), "'q' = ['a', 'b']"),
    (lambda: moreau.Lcp(I2, np.array([1 + 2j, 0j])), "'q' = array of shape (2,) and dtype complex128"),
    (lambda: moreau.FrictionContactProblem(None, Q2, [0.5], 2), "'W' = None"),
    (lambda: moreau.FrictionContactProblem(I2, Q2, np.zeros((1, 1, 1)), 2), "'mu'"),
    (lambda: moreau.solve_lcp(None), "'problem' = None"),
    (lambda: moreau.solve(I2), "'problem' = array of shape (2, 2)"),
    (lambda: moreau.read_fclib(None), "'path' = None"),
    (lambda: moreau.copositivity(np.zeros((2, 2, 2))), "'A' = array of shape (2, 2, 2)"),
    (lambda: moreau.make_gallery_system(None), "'name' = None"),
    (lambda: setattr(moreau.ContactState(), "M", "abc"), "ContactState.M = 'abc'"),
    (lambda: setattr(moreau.ContactState(), "v", None), "ContactState.v = None"),
    (lambda: rod_system().contact_state(None, np.zeros(3), 0.0), "'q' = None"),
    (lambda: moreau.analyze(None), "'system' = None"),
    (lambda: moreau.analyze(rod_system(), (np.zeros(3), np.zeros(3), "now")), "'state[2]' = 'now'"),
    (lambda: moreau.simulate(rod_system(), t_end="x"), "'t_end' = 'x'"),
    (lambda: moreau.simulate(rod_system(), t_end=float("nan")), "'t_end' = nan"),
    (lambda: moreau.simulate(rod_system(), t_end=0.1, out=3), "'out' = 3"),
    (lambda: moreau.simulate(None), "'scene_or_path' = None"),
]


@pytest.mark.parametrize("call,named", NAMED, ids=[n for _, n in NAMED])
def test_wrong_arguments_raise_value_error_naming_the_argument(call, named):
    with pytest.raises(ValueError) as info:
        call()
    assert isinstance(info.value, moreau.InputError), repr(info.value)
    assert isinstance(info.value, TypeError)  # what pybind11 raised before: old code still works
    assert named in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


# NaN and sizes are checked by the C++ code: ValueError with the entry or the sizes.
VALUES = [
    (lambda: moreau.solve_lcp(moreau.Lcp(I2 * np.nan, Q2)), "NaN"),
    (lambda: moreau.solve_lcp(moreau.Lcp(np.eye(3), Q2)), "3×3 but q has 2"),
    (lambda: moreau.FrictionContactProblem(I2, Q2, [np.nan], 2), "mu[0] = nan"),
    (lambda: moreau.analyze(rod_system(), (np.full(3, np.nan), np.zeros(3))), "finite"),
    (lambda: moreau.analyze(rod_system(), (np.zeros(2), np.zeros(3))), "q has 2 entries, expected 3"),
    (lambda: moreau.gallery("painleve_rod", mu=float("nan")), "mu = nan"),
]


@pytest.mark.parametrize("call,expected", VALUES, ids=[e for _, e in VALUES])
def test_nan_and_sizes_raise_value_error_with_the_entry(call, expected):
    with pytest.raises(ValueError) as info:
        call()
    assert expected in str(info.value), str(info.value)


def callback(mass, force):
    system = moreau.callback_system("ball", 2, 1, mass, force)
    system.initial_q = np.ones(1)
    system.initial_v = np.zeros(1)
    return system


@pytest.mark.parametrize("mass,force,named", [
    (lambda q: None, lambda q, v, t: np.zeros(1), "the mass callback: 'M' = None"),
    (lambda q: np.eye(1), lambda q, v, t: "abc", "the force callback: 'F' = 'abc'"),
    (lambda q: np.eye(2), lambda q, v, t: np.zeros(1), "returned a 2×2 matrix, expected 1×1"),
    (lambda q: np.eye(1), lambda q, v, t: np.full(1, np.nan), "F[0] = nan"),
])
def test_callbacks_returning_wrong_values_are_named(mass, force, named):
    with pytest.raises(ValueError) as info:
        moreau.simulate(callback(mass, force), t_end=0.01)
    assert named in str(info.value), str(info.value)


def test_an_exception_of_a_callback_passes_through_unchanged():
    with pytest.raises(ZeroDivisionError):
        moreau.simulate(callback(lambda q: np.eye(1), lambda q, v, t: 1 / 0), t_end=0.01)


# Every public function and constructor, called with 0 to 3 copies of each bad value, in a child
# interpreter: any exception is fine, a crash (signal) is not.
SWEEP = r"""
import json, sys, numpy as np, moreau
bad = [None, float("nan"), "x", np.array([[np.nan]]), np.zeros((0, 0)), -1, 1e308, [], {},
       np.zeros(3, dtype=object)]
skip = {"plot", "plot_impact", "simulate"}  # plotting and writing: covered above
names = sorted(n for n in dir(moreau) if not n.startswith("_") and n not in skip
               and callable(getattr(moreau, n)))
calls = 0
for name in names:
    f = getattr(moreau, name)
    if isinstance(f, type) and hasattr(f, "__members__"):
        continue  # enums
    for value in bad:
        for arity in range(4):
            try:
                f(*([value] * arity))
            except Exception:
                pass
            calls += 1
print(json.dumps({"functions": len(names), "calls": calls}))
"""


def test_no_bad_argument_crashes_the_interpreter(tmp_path):
    env = os.environ.copy()
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(moreau.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["functions"] >= 40 and report["calls"] >= 40 * 40
