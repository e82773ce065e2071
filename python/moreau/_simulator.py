"""moreau.Simulator: a rigid world stepped one time step at a time, with inputs held between steps
(docs/simulator.md; the C++ class moreau::Simulator, sim/simulator.hpp)."""
import json
import os
import warnings

import numpy as np

__all__ = ["Simulator"]


class Simulator:
    """A scene, an MJCF model (.xml) or a URDF robot (.urdf) stepped a step at a time.

    ``sim = moreau.Simulator("arm.xml")``, then ``sim.qfrc_applied[:] = tau``, ``sim.step()``,
    ``sim.q``, ``sim.v``, ``sim.t``. model: a path, JSON text or a dict in the scene format;
    floating_base and ground place a URDF robot as ``moreau.simulate`` does. Each step is a step of
    the scene's Moreau–Jean time stepping (its dt). Inputs are checked when ``step()`` runs: a bad
    value (a NaN, a wrong size) makes ``step()`` raise ValueError naming it, and the state stays
    as it was.

    Attributes:
        q, v: the state (NumPy copies; assigning one sets the state, contacts are detected anew).
        t: the time, s.
        qfrc_applied: generalized forces held until changed (nv; a writable NumPy view).
        xfrc_applied: a wrench per body (force, torque; world axes at the centre of mass),
            body_count × 6, a writable NumPy view; rows in ``body_names`` order.
        ctrl: one control per actuator (nu; a writable NumPy view), held until changed, clamped
            to an actuator's ctrlrange; ``actuator_names`` in its order, ``actuator_forces`` the
            forces they give now.
        coordinate_names, velocity_names, body_names: the names of q, v and the bodies.
        nq, nv: the sizes of q and v.
    """

    def __init__(self, model, floating_base=False, ground=False):
        from . import _moreau
        from ._errors import InputError
        from ._simulate import ModelWarning
        if isinstance(model, dict):
            text, is_path = json.dumps(model), False
        elif isinstance(model, (str, os.PathLike)) and os.path.exists(os.fspath(model)):
            text, is_path = os.fspath(model), True
        elif isinstance(model, str) and model.lstrip().startswith("{"):
            text, is_path = model, False
        else:
            raise InputError(f"moreau.Simulator(): argument 'model' = {model!r}: expected an existing "
                             f"file, JSON text or a dict")
        if (floating_base or ground) and not (is_path and text.endswith(".urdf")):
            raise InputError("moreau.Simulator(): floating_base and ground place a URDF robot; "
                             f"model {model!r} is not a .urdf file")
        self._sim, notes = _moreau._Simulator.load(text, is_path, bool(floating_base), bool(ground))
        for message in notes:
            warnings.warn(message, ModelWarning, stacklevel=2)

    def step(self, n=1):
        """Takes n time steps (n ≥ 0) with the inputs held."""
        self._sim.step(int(n))

    def reset(self):
        """The initial state at t = 0, inputs zero."""
        self._sim.reset()

    @property
    def t(self):
        return self._sim.t

    @property
    def q(self):
        return self._sim.q

    @q.setter
    def q(self, value):
        self._sim.set_state(np.asarray(value, dtype=float), self._sim.v)

    @property
    def v(self):
        return self._sim.v

    @v.setter
    def v(self, value):
        self._sim.set_state(self._sim.q, np.asarray(value, dtype=float))

    def set_state(self, q, v):
        """Sets q and v together (validated; contacts are detected anew)."""
        self._sim.set_state(np.asarray(q, dtype=float), np.asarray(v, dtype=float))

    @property
    def qfrc_applied(self):
        return self._sim.qfrc_applied

    @qfrc_applied.setter
    def qfrc_applied(self, value):
        self._sim.qfrc_applied = np.atleast_1d(np.asarray(value, dtype=float))

    @property
    def xfrc_applied(self):
        return self._sim.xfrc_applied

    @xfrc_applied.setter
    def xfrc_applied(self, value):
        self._sim.xfrc_applied = np.atleast_2d(np.asarray(value, dtype=float))

    @property
    def ctrl(self):
        return self._sim.ctrl

    @ctrl.setter
    def ctrl(self, value):
        self._sim.ctrl = np.atleast_1d(np.asarray(value, dtype=float))

    @property
    def nu(self):
        return self._sim.nu

    @property
    def actuator_names(self):
        return self._sim.actuator_names

    @property
    def actuator_forces(self):
        """The actuators' forces at the current state and controls, after clamping."""
        return self._sim.actuator_forces

    @property
    def nq(self):
        return self._sim.nq

    @property
    def nv(self):
        return self._sim.nv

    @property
    def coordinate_names(self):
        return self._sim.coordinate_names

    @property
    def velocity_names(self):
        return self._sim.velocity_names

    @property
    def body_names(self):
        return self._sim.body_names

    def mass_matrix(self, q=None):
        """M(q), nv × nv (q: the current state's when None)."""
        return self._sim.mass_matrix(self.q if q is None else np.asarray(q, dtype=float))

    def inverse_dynamics(self, q, v, a):
        """The generalized force giving acceleration a at (q, v) without contacts: M a + F, with
        gravity, Coriolis forces, joint springs and dampers (armature in M) and the scene's
        constant loads; not dry joint friction, equality or contact forces (as mj_inverse)."""
        return self._sim.inverse_dynamics(np.asarray(q, dtype=float), np.asarray(v, dtype=float),
                                          np.asarray(a, dtype=float))

    def bias_forces(self, q=None, v=None):
        """inverse_dynamics at a = 0 (the current state's q and v when None)."""
        return self._sim.bias_forces(self.q if q is None else np.asarray(q, dtype=float),
                                     self.v if v is None else np.asarray(v, dtype=float))

    def __repr__(self):
        return f"moreau.Simulator(t={self.t:g} s, nq={self.nq}, nv={self.nv})"
