"""Frictional contact from Python: FCLIB files and solvers (owner module _solve).

The compiled core provides ``read_fclib(path)``, ``read_fclib_file(path)``,
``write_fclib(path, problem, r=None, ...)`` and ``solve(problem, solver="auto", tol=1e-8, ...)``
for local (u = W r + q) and global (M v = H r + f, u = Hᵀ v + w) problems. This module adds
conveniences written in Python on top of them.
"""
import math

from . import _moreau

__all__ = ["solve_fclib", "compare_solvers"]


def solve_fclib(path, solver="auto", tol=1e-8, max_iter=10000, time_limit=math.inf):
    """Read the FCLIB file at ``path`` and solve its problem; returns the result object."""
    problem = _moreau.read_fclib(path)
    return _moreau.solve(problem, solver=solver, tol=tol, max_iter=max_iter,
                         time_limit=time_limit)


def compare_solvers(problem, tol=1e-8, max_iter=10000, time_limit=math.inf):
    """Run every solver of the problem's dimension; returns {solver name: result}.

    Global problems run the global registry's names (local names on the condensed problem).
    """
    if isinstance(problem, _moreau.GlobalFrictionContactProblem):
        names = _moreau.global_friction_contact_solver_names(problem.dimension)
    else:
        names = _moreau.friction_contact_solver_names(problem.dimension)
    results = {}
    for name in names:
        if name in ("auto", "condensed:auto"):
            continue
        results[name] = _moreau.solve(problem, solver=name, tol=tol, max_iter=max_iter,
                                      time_limit=time_limit)
    return results
