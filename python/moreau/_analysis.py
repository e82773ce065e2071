"""Contact analysis from Python (issue 3): the gallery of example systems and ``analyze``.

``gallery(name, **params)`` builds a system (with its default state in ``initial_q``,
``initial_v``); ``analyze(system, state=None, all_sticking=False)`` returns the same dictionary as
``moreau analyze --json`` (keys documented in docs/cli.md (moreau analyze)), e.g. ``r["painleve"]["alpha"]``,
``r["painleve"]["case"]``, ``r["mu_critical"]``, ``r["modes"]``, ``r["matrix_tests"]``.
"""
import json as _json

from . import _moreau
from ._errors import InputError, finite_number

__all__ = ["gallery", "gallery_names", "gallery_catalog", "analyze", "callback_system"]


def gallery_names():
    """Names of the gallery systems."""
    return list(_moreau.gallery_names())


def gallery_catalog():
    """Every gallery system with its parameters: [{name, description, parameters: [{name, default, description}]}]."""
    return _moreau.gallery_catalog()


def gallery(name, **params):
    """Gallery system ``name`` built with keyword parameters (the others take their defaults).

    Raises ValueError naming the field for an unknown system or parameter, a non-numeric or
    non-finite value, or a value out of range (mass <= 0, mu < 0, ...)."""
    values = {}
    for key, value in params.items():
        if isinstance(value, bool):
            raise ValueError(f"gallery '{name}': parameter {key} = {value!r} is not a number")
        try:
            values[key] = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"gallery '{name}': parameter {key} = {value!r} is not a number") from None
    return _moreau.make_gallery_system(name, values)


def callback_system(name, dimension, n, mass, force, constraints=()):
    """A CallbackSystem from Python callables: ``mass(q) -> n×n``, ``force(q, v, t) -> n`` (F on
    the left side), and ``constraints`` a sequence of dicts with ``kinematics`` (callable
    ``(q, v) -> dict(gap, normal, tangent, normal_bias, tangent_bias)``) and optional ``name``,
    ``kind`` ('unilateral' | 'bilateral'), ``mu``, ``restitution``, ``gamma``,
    ``baumgarte_alpha``, ``baumgarte_beta``, ``tangential_restitution`` (e_t of the Siconos
    scheme, integrator ``{"scheme": "siconos"}``)."""
    system = _moreau.CallbackSystem(name, dimension, n, mass, force)
    for c in constraints:
        c = dict(c)
        system.add_constraint(c.pop("kinematics"), **c)
    return system


def analyze(system, state=None, all_sticking=False):
    """The analysis report of ``system`` at ``state`` as a dict (same keys as the CLI's JSON).

    ``system``: a LagrangianSystem (gallery, CallbackSystem, rigid builders) or a ContactState.
    ``state``: None (the system's default state), a ContactState, a pair ``(q, v)``, a triple
    ``(q, v, t)`` or a dict with keys ``q``, ``v`` and optionally ``t``."""
    if isinstance(system, _moreau.ContactState):
        if state is not None:
            raise ValueError("analyze: give the state either as the first argument or as 'state', not both")
        cs, label = system, "state"
    elif not isinstance(system, _moreau.LagrangianSystem):
        raise InputError(f"moreau.analyze(): argument 'system' = {system!r}: expected a LagrangianSystem "
                         f"(moreau.gallery, moreau.scene_system, moreau.callback_system) or a ContactState")
    else:
        label = system.name
        if state is None:
            cs = system.contact_state(system.initial_q, system.initial_v, 0.0)
        elif isinstance(state, _moreau.ContactState):
            cs = state
        elif isinstance(state, dict):
            if "q" not in state or "v" not in state:
                raise ValueError("analyze: a state dict needs the keys 'q' and 'v'")
            cs = system.contact_state(state["q"], state["v"],
                                      finite_number("moreau.analyze()", "state['t']", state.get("t", 0.0)))
        else:
            parts = tuple(state)
            if len(parts) not in (2, 3):
                raise ValueError(f"analyze: state must be (q, v) or (q, v, t), got {len(parts)} items")
            t = finite_number("moreau.analyze()", "state[2]", parts[2]) if len(parts) == 3 else 0.0
            cs = system.contact_state(parts[0], parts[1], t)
    return _json.loads(_moreau._analyze_report(cs, label, bool(all_sticking)))
