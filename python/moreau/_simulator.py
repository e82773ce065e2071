"""moreau.Simulator: a rigid world stepped one time step at a time, with inputs held between steps
(docs/simulator.md; the C++ class moreau::Simulator, sim/simulator.hpp)."""
import functools
import json
import numbers
import os
import types
import warnings

import numpy as np

from ._errors import InputError, finite_number, path_or_none


__all__ = ["Simulator"]


def _input_errors(method):
    """Re-raises a ValueError of the compiled simulator (a bad input, named by the C++ message)
    as moreau.InputError, a ValueError too."""
    @functools.wraps(method)
    def checked(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except InputError:
            raise
        except ValueError as e:
            raise InputError(str(e)) from None
    return checked


def _forward(name, doc):
    """A read-only property that returns the C++ simulator's attribute `name`."""
    return property(lambda self: getattr(self._sim, name), doc=doc)


def _input(name, ndim, doc):
    """A property over a held input of the C++ simulator: reading gives a writable NumPy view of
    its storage, assigning copies into it (the shape must match; it is checked by step())."""
    @_input_errors
    def set_input(self, value):
        value = np.asarray(value, dtype=float)
        setattr(self._sim, name, np.atleast_1d(value) if ndim == 1 else np.atleast_2d(value))
    return property(lambda self: getattr(self._sim, name), set_input, doc=doc)


def _model_source(who, model, argument="model"):
    """(text, is_path) of a model given as a path, JSON text or a scene dict (InputError naming
    `who`'s argument otherwise)."""
    if isinstance(model, dict):
        return json.dumps(model), False
    if isinstance(model, (str, os.PathLike)) and os.path.exists(os.fspath(model)):
        return os.fspath(model), True
    if isinstance(model, str) and model.lstrip().startswith("{"):
        return model, False
    raise InputError(f"{who}: argument '{argument}' = {model!r}: expected an existing file, JSON "
                     f"text, a dict or a system" if argument == "scene_or_path" else
                     f"{who}: argument '{argument}' = {model!r}: expected an existing file, JSON "
                     f"text or a dict")


def _start_options(who, text, is_path, floating_base=False, ground=False, keyframe=None,
                   joints=None, srdf=None, base_pose=None, package_dirs=None,
                   self_collision=False, initial_overlap=None, balance_inertia=False):
    """The JSON of how a model is placed and started (ModelImportOptions), each option checked
    and named as `who`'s argument."""
    import math
    is_urdf = is_path and text.endswith(".urdf")
    options = {}
    for name, value in (("floating_base", floating_base), ("ground", ground)):
        if value:
            if not is_urdf:
                raise InputError(f"{who}: argument '{name}' places a URDF robot; the model is not "
                                 f"a .urdf file")
            options[name] = True
    if package_dirs is not None:
        if isinstance(package_dirs, (str, os.PathLike)):
            package_dirs = [package_dirs]
        dirs = []
        for d in package_dirs:
            if not isinstance(d, (str, os.PathLike)) or not os.path.isdir(os.fspath(d)):
                raise InputError(f"{who}: argument 'package_dirs' holds {d!r}: expected existing "
                                 f"folders (package roots or folders of packages)")
            dirs.append(os.fspath(d))
        if not is_urdf:
            raise InputError(f"{who}: argument 'package_dirs' resolves a URDF's package:// URIs; "
                             f"the model is not a .urdf file")
        options["package_dirs"] = dirs
    if keyframe is not None:
        if not isinstance(keyframe, str) or not keyframe:
            raise InputError(f"{who}: argument 'keyframe' = {keyframe!r}: expected a keyframe name")
        options["keyframe"] = keyframe
    if joints is not None:
        if not isinstance(joints, dict):
            raise InputError(f"{who}: argument 'joints' = {joints!r}: expected a dict of joint "
                             f"name: value (rad or m)")
        options["joints"] = {str(k): finite_number(who, f"joints[{k!r}]", v)
                             for k, v in joints.items()}
    if srdf is not None:
        if not isinstance(srdf, (str, os.PathLike)) or not os.path.exists(os.fspath(srdf)):
            raise InputError(f"{who}: argument 'srdf' = {srdf!r}: expected an existing SRDF file")
        options["srdf"] = os.fspath(srdf)
    if base_pose is not None:
        try:
            pose = [float(x) for x in base_pose]
        except (TypeError, ValueError):
            pose = []
        if len(pose) not in (3, 7) or not all(math.isfinite(x) for x in pose) or (
                len(pose) == 7 and not any(pose[3:])):
            raise InputError(f"{who}: argument 'base_pose' = {base_pose!r}: expected (x, y, z) or "
                             f"(x, y, z, qw, qx, qy, qz) with a non-zero quaternion, w first")
        if not is_path or not text.endswith((".urdf", ".xml", ".mjcf")):
            raise InputError(f"{who}: argument 'base_pose' places a URDF or MJCF model's base; a "
                             f"scene gives its bodies' poses itself")
        options["base_pose"] = pose
    for name, value, what in (("self_collision", self_collision, "lets a URDF robot's links "
                               "collide"),
                              ("balance_inertia", balance_inertia, "evens a URDF link's inertia")):
        if not isinstance(value, bool):
            raise InputError(f"{who}: argument '{name}' = {value!r}: expected True or False")
        if value:
            if not is_urdf:
                raise InputError(f"{who}: argument '{name}' {what}; the model is not a .urdf file")
            options[name] = True
    if initial_overlap is not None:
        if initial_overlap not in ("resolve", "ignore", "refuse"):
            raise InputError(f"{who}: argument 'initial_overlap' = {initial_overlap!r}: expected "
                             f"'resolve', 'ignore' or 'refuse'")
        options["initial_overlap"] = initial_overlap
    return json.dumps(options) if options else ""


class Simulator:
    """A scene, an MJCF model (.xml) or a URDF robot (.urdf) stepped a step at a time.

    ``sim = moreau.Simulator("arm.xml")``, then ``sim.ctrl[:] = u`` or ``sim.qfrc_applied[:] =
    tau``, ``sim.step()``, and read ``sim.q``, ``sim.v``, ``sim.t``, ``sim.contacts``. model: a
    path, JSON text or a dict in the scene format; floating_base and ground place a URDF robot as
    ``moreau.simulate`` does; integrator overrides the scene's integrator keys (``{"dt": 1e-3}``).
    The initial state: keyframe (a name: MJCF <keyframe>, a scene's keyframes, an SRDF
    group_state), joints ({name: value}, rad or m), srdf (a file whose group_states become
    keyframes), base_pose ((x, y, z) or (x, y, z, qw, qx, qy, qz): a URDF's root link or an MJCF
    model's first free body). self_collision: let a URDF robot's links collide (docs/urdf.md §Self-collision).
    initial_overlap: 'resolve' (default), 'ignore' or 'refuse' bodies that interpenetrate at the
    start (docs/scene-format.md §Contact). balance_inertia: even a URDF inertia that breaks the
    triangle inequality (docs/urdf.md). package_dirs: folders where a URDF's package:// URIs are looked for
    first (then ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the folders above the file).
    Each step is a step of the scene's Moreau–Jean time stepping (its
    dt). Inputs are checked when ``step()`` runs: a bad value (a NaN, a wrong size) makes
    ``step()`` raise moreau.InputError (a ValueError) naming it, and the state stays as it was.
    ``start_recording()`` … ``stop_recording(out=...)`` keep the steps between and write them as
    ``moreau.simulate`` does (CSV or run.h5, for ``moreau.view``).
    """

    @_input_errors
    def __init__(self, model, floating_base=False, ground=False, integrator=None, keyframe=None,
                 joints=None, srdf=None, base_pose=None, package_dirs=None, self_collision=False,
                 initial_overlap=None, balance_inertia=False):
        from . import _moreau
        from ._simulate import ModelWarning, _integrator_overrides
        who = "moreau.Simulator()"
        text, is_path = _model_source(who, model)
        start = _start_options(who, text, is_path, floating_base, ground, keyframe, joints, srdf,
                               base_pose, package_dirs, self_collision, initial_overlap,
                               balance_inertia)
        integrator = _integrator_overrides(who, integrator)
        self._sim, notes, self._format, self._plot = _moreau._Simulator.load(
            text, is_path, start, json.dumps(integrator) if integrator else "")
        # step(n)'s compiled call without the argument check of _errors.install: n is checked
        # here, and that check's Python wrapper was most of a control loop's sim.step()
        raw_step = getattr(_moreau._Simulator.step, "__wrapped__", _moreau._Simulator.step)
        self._raw_step = types.MethodType(raw_step, self._sim)
        self._source = (text, is_path, start)  # for step_derivatives' parameters
        for message in notes:
            warnings.warn(message, ModelWarning, stacklevel=2)

    t = _forward("t", "The time, s.")
    dt = _forward("dt", "The time step h, s (the scene's).")
    t_end = _forward("t_end", "The scene's final time, s (moreau.simulate runs to it).")
    nq = _forward("nq", "The number of coordinates (the size of q).")
    nv = _forward("nv", "The number of velocities (the size of v and qfrc_applied).")
    nu = _forward("nu", "The number of actuators (the size of ctrl).")
    coordinate_names = _forward("coordinate_names", "The names of q, as trajectory.csv has them.")
    velocity_names = _forward("velocity_names", "The names of v, as trajectory.csv has them.")
    body_names = _forward("body_names", "The bodies' names, in xfrc_applied's row order.")
    actuator_names = _forward("actuator_names", "The actuators' names, in ctrl's order.")
    actuator_forces = property(
        _input_errors(lambda self: self._sim.actuator_forces),
        doc="The actuators' forces at the current state and controls (clamped).")
    contacts = _forward(
        "contacts", "The last step's contacts: a list of moreau.Contact (name, body_a, body_b, "
        "point, normal, impulse, r_n, r_t, gap, mode); empty after a state write.")
    recording = _forward("recording", "Whether start_recording() is on.")
    integrator = _forward("integrator", "The scene's integrator: 'timestepping' or 'event'.")
    keyframe_names = _forward("keyframe_names", "The model's keyframes (reset(keyframe)).")

    qfrc_applied = _input("qfrc_applied", 1,
                          "Generalized forces held until changed (nv; a writable NumPy view).")
    xfrc_applied = _input("xfrc_applied", 2,
                          "A wrench per body (force, torque; world axes, at the centre of mass), "
                          "body_count × 6, rows in body_names order (a writable NumPy view).")
    ctrl = _input("ctrl", 1, "One control per actuator (nu; a writable NumPy view), held until "
                  "changed, clamped to an actuator's ctrlrange.")

    @property
    def q(self):
        """The positions (a copy; assigning sets the state and contacts are detected anew)."""
        return self._sim.q

    @q.setter
    @_input_errors
    def q(self, value):
        self._sim.set_state(np.asarray(value, dtype=float), self._sim.v)

    @property
    def v(self):
        """The velocities (a copy; assigning sets the state and contacts are detected anew)."""
        return self._sim.v

    @v.setter
    @_input_errors
    def v(self, value):
        self._sim.set_state(self._sim.q, np.asarray(value, dtype=float))

    def step(self, n=1, dt=None):
        """Takes n time steps (n ≥ 0) with the inputs held; with dt (s) instead, advances by dt:
        dt/h time steps, or for an event-driven scene its integrator to t + dt through every
        event on the way (its contacts then hold forces, N)."""
        if dt is None and type(n) is int:  # the control loop's call: nothing more to check here
            try:
                self._raw_step(n)
            except InputError:
                raise
            except ValueError as e:  # a bad input, named by the C++ message (as _input_errors)
                raise InputError(str(e)) from None
            except TypeError:  # an int beyond the compiled call's range: named as before
                self._checked_step(n, dt)
            return
        self._checked_step(n, dt)

    @_input_errors
    def _checked_step(self, n, dt):
        """step() with n of another type than int, or with dt."""
        if dt is not None:
            if n != 1:
                raise InputError("Simulator.step(): give n (steps) or dt (seconds), not both")
            self._sim.advance(finite_number("Simulator.step()", "dt", dt))
            return
        if isinstance(n, bool) or not isinstance(n, numbers.Integral):
            raise InputError(f"Simulator.step(): argument 'n' = {n!r}: expected a whole number of "
                             f"steps (or dt=seconds)")
        self._sim.step(int(n))

    @_input_errors
    def reset(self, keyframe=None):
        """The initial state at t = 0, inputs zero; with keyframe (a name of keyframe_names),
        that keyframe's q, v and ctrl. A recording on is dropped."""
        if keyframe is None:
            self._sim.reset()
        else:
            self._sim.reset_to(str(keyframe))

    @_input_errors
    def set_state(self, q, v):
        """Sets q and v together (validated; contacts are detected anew)."""
        self._sim.set_state(np.asarray(q, dtype=float), np.asarray(v, dtype=float))

    @_input_errors
    def mass_matrix(self, q=None):
        """M(q), nv × nv (q: the current state's when None)."""
        return self._sim.mass_matrix(self.q if q is None else np.asarray(q, dtype=float))

    @_input_errors
    def inverse_dynamics(self, q, v, a):
        """The generalized force giving acceleration a at (q, v) without contacts: M a + F, with
        gravity, Coriolis forces, joint springs and dampers (armature in M) and the scene's
        constant loads; not dry joint friction, equality or contact forces (as mj_inverse)."""
        return self._sim.inverse_dynamics(np.asarray(q, dtype=float), np.asarray(v, dtype=float),
                                          np.asarray(a, dtype=float))

    @_input_errors
    def bias_forces(self, q=None, v=None):
        """inverse_dynamics at a = 0 (the current state's q and v when None)."""
        return self._sim.bias_forces(self.q if q is None else np.asarray(q, dtype=float),
                                     self.v if v is None else np.asarray(v, dtype=float))

    @_input_errors
    def step_derivatives(self, params=None, param_step=1e-6, solver_tolerance=0.0,
                         mode_tolerance=1e-8, difference_step=1e-6, input_step=1e-3):
        """The derivatives of the next step (as step() takes it, without its projection) with
        respect to the state and inputs before it, by implicit differentiation of the step's
        contact problem at its solution (docs/gradients.md). Returns a dict of NumPy arrays:
        dv_dq, dv_dv, dv_dctrl, dv_dqfrc, dq_dq, dq_dv, dq_dctrl, dq_dqfrc (nv rows; positions in
        the tangent space, q ⊕ δ as the integrator's exponential map; xfrc_applied through qfrc
        with the body Jacobian), dv_dparams and dq_dparams (a column per entry of params),
        q_next and v_next (the step's, without projection), contacts (per contact of the step:
        name, mode 'stick'/'slip'/'separate', degenerate and the boundary it sits on, where the
        one-sided derivative of the closed side and of stick is taken), dry_friction_stuck and
        solver_residual. The state and inputs are unchanged.

        params: JSON pointers into the scene naming numbers, as sweeps name them
        ("/contact/default/mu", "/contact/default/e", "/bodies/0/mass"); the model must be a
        scene (a dict, JSON text or a .json file). Each is differentiated between the scenes
        with the value at p ± param_step·max(1, |p|). solver_tolerance: of the step solved here
        (0: the scene's tolerance and budget);
        mode_tolerance: relative zero of the mode test; difference_step, input_step: δ of the
        central differences that stand in where a derivative is not exact (q: contact pairs
        docs/gradients.md names, systems without exact dynamics; ctrl and qfrc, where the step
        data is affine). An event-driven scene, a pointer that names nothing or a non-number
        raise InputError."""
        step = finite_number("Simulator.step_derivatives()", "param_step", param_step)
        if step <= 0:
            raise InputError(f"Simulator.step_derivatives(): argument 'param_step' = {step}: "
                             f"expected > 0")
        edits = [self._parameter_scenes(p, step) for p in (params or [])]
        return self._sim.step_derivatives(float(solver_tolerance), float(mode_tolerance),
                                          float(difference_step), float(input_step), edits,
                                          self._source[2])

    def _parameter_scenes(self, pointer, step):
        """(pointer, scene at p + δ, scene at p − δ, δ) as JSON texts for a JSON pointer."""
        who = "Simulator.step_derivatives()"
        text, is_path, _ = self._source
        if is_path and not text.lower().endswith(".json"):
            raise InputError(f"{who}: params need the model as a scene (a dict, JSON text or a "
                             f".json file); {text} is not one (moreau convert writes it as a "
                             f"scene)")
        if is_path:
            with open(text, encoding="utf-8") as f:
                scene = json.load(f)
        else:
            scene = json.loads(text)
        if not isinstance(pointer, str) or not pointer.startswith("/"):
            raise InputError(f"{who}: parameter {pointer!r}: expected a JSON pointer such as "
                             f"'/contact/default/mu'")
        keys = [k.replace("~1", "/").replace("~0", "~") for k in pointer[1:].split("/")]
        node = scene
        for i, key in enumerate(keys):
            container = node
            if isinstance(container, list) and key.isdigit() and int(key) < len(container):
                node = container[int(key)]
            elif isinstance(container, dict) and key in container:
                node = container[key]
            else:
                raise InputError(f"{who}: parameter {pointer!r} names nothing in the scene "
                                 f"(no '{key}' at /{'/'.join(keys[:i])})")
        if isinstance(node, bool) or not isinstance(node, (int, float)):
            raise InputError(f"{who}: parameter {pointer!r} = {node!r}: expected a number")
        delta = step * max(1.0, abs(float(node)))
        out = []
        for sign in (1, -1):
            edited = json.loads(json.dumps(scene))
            target = edited
            for key in keys[:-1]:
                target = target[int(key)] if isinstance(target, list) else target[key]
            last = int(keys[-1]) if isinstance(target, list) else keys[-1]
            target[last] = float(node) + sign * delta
            out.append(json.dumps(edited))
        return (pointer, out[0], out[1], delta)

    @_input_errors
    def integrate(self, q, dq):
        """q ⊕ dq: the positions reached from q along the tangent step dq (nv) in unit time, by
        the exact exponential map for quaternions (the tangent space step_derivatives uses)."""
        return self._sim.integrate(np.asarray(q, dtype=float), np.asarray(dq, dtype=float))

    @_input_errors
    def difference(self, q0, q1):
        """q1 ⊖ q0: the tangent step dq (nv) with integrate(q0, dq) = q1 (rotation vectors for
        quaternions)."""
        return self._sim.difference(np.asarray(q0, dtype=float), np.asarray(q1, dtype=float))

    @_input_errors
    def body_poses(self, q=None):
        """Forward kinematics at q (the current state's when None): (positions, quaternions),
        body_count × 3 (each body's centre of mass, world) and body_count × 4 (w, x, y, z), in
        body_names order."""
        return self._sim.body_poses(self.q if q is None else np.asarray(q, dtype=float))

    @_input_errors
    def body_jacobian(self, body, q=None):
        """J_b (6 × nv) at q: (v_G; ω) = J_b v, the velocity of the body's centre of mass and
        its angular velocity, world axes; body: a name or an index of body_names."""
        b = self._sim.body_index(body) if isinstance(body, str) else int(body)
        return self._sim.body_jacobian(self.q if q is None else np.asarray(q, dtype=float), b)

    def start_recording(self):
        """Keeps the steps from now on: the current state, then every step (or every
        output.interval of the scene), their contacts and events."""
        self._sim.start_recording()

    @_input_errors
    def stop_recording(self, out=None, format=None, plot=False):
        """Ends the recording and returns it as a moreau.SimulationResult, written to the folder
        `out` when given ("csv" or "hdf5" format, as moreau.simulate writes; plot.png when
        plot=True)."""
        from ._simulate import SimulationResult, plot as draw
        out = path_or_none("Simulator.stop_recording()", "out", out)
        if format is not None and format not in ("csv", "hdf5"):
            raise InputError(f"Simulator.stop_recording(): argument 'format' = {format!r}: "
                             f"expected 'csv' or 'hdf5'")
        data = self._sim.stop_recording("" if out is None else os.fspath(out), format or "")
        res = SimulationResult(data, out=None if out is None else os.fspath(out))
        if out is not None and plot:
            draw(res, os.path.join(os.fspath(out), "plot.png"))
        return res

    def __dir__(self):
        return sorted(set(super().__dir__()) - {"_sim"})

    def __repr__(self):
        if "_sim" not in self.__dict__:  # construction failed
            return "moreau.Simulator(not loaded)"
        return f"moreau.Simulator(t={self.t:g} s, nq={self.nq}, nv={self.nv}, nu={self.nu})"
