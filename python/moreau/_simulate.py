"""Simulation helpers: ``moreau.simulate`` (runs a scene, returns numpy arrays) and ``moreau.plot``
(energy, contact-mode timeline, position trace).

This file is also the plotting script of the command line program:
``/usr/bin/python3 python/moreau/_simulate.py plot DIR`` reads DIR/{trajectory,contacts,events}.csv
(or DIR/run.h5, with h5py) and writes DIR/plot.png. Run as a script it imports only numpy and matplotlib (not the compiled
module), so ``moreau simulate`` can draw plots from any build.
"""
import csv
import json
import os
import sys

__all__ = ["simulate", "scene_system", "convert", "plot", "load_run", "SimulationResult", "ModelWarning"]


class ModelWarning(UserWarning):
    """Something an imported model (MJCF, URDF) had that moreau cannot honour and ignored."""


class SimulationResult:
    """Arrays of one simulation.

    t (k,), q (k, nq), v (k, nv), kinetic / potential / energy (k,), position_names,
    velocity_names, contact_names, events (list of dicts t, kind, contact, name, detail: the run's
    first integrator.max_logged_events), event_counts (dict kind -> count of every event of the
    run, logged or not), contacts (dict of arrays t, contact, gap, r_n, r_t, and point and
    normal: world coordinates, NaN where a constraint is not a contact between shapes; mode is a
    list of 'stick', 'slip', 'separate'), summary (dict), out (folder or None).
    """

    def __init__(self, data, out=None):
        import numpy as np
        self.t = np.asarray(data["t"], dtype=float)
        self.q = np.asarray(data["q"], dtype=float)
        self.v = np.asarray(data["v"], dtype=float)
        self.kinetic = np.asarray(data["kinetic"], dtype=float)
        self.potential = np.asarray(data["potential"], dtype=float)
        self.energy = self.kinetic + self.potential
        self.position_names = list(data["position_names"])
        self.velocity_names = list(data["velocity_names"])
        self.contact_names = list(data["contact_names"])
        self.events = list(data["events"])
        self.contacts = data["contacts"]
        self.summary = data["summary"]
        self.event_counts = dict(self.summary.get("event_counts", {}))
        self.out = out

    def __repr__(self):
        return (f"SimulationResult({self.summary.get('integrator')}, {len(self.t)} records, "
                f"{len(self.events)} events, status {self.summary.get('status')})")


def simulate(scene_or_path, out=None, t_end=None, integrator=None, format=None,
             floating_base=False, ground=False, plot=None, controller=None, keyframe=None,
             joints=None, srdf=None, base_pose=None, package_dirs=None, self_collision=False,
             initial_overlap=None, balance_inertia=False):
    """Runs a scene or any Lagrangian system and returns a SimulationResult.

    scene_or_path: a path to a JSON scene file, an MJCF model (.xml, docs/mjcf.md) or a URDF robot
    (.urdf, docs/urdf.md; floating_base and ground place it), JSON text, a dict in the scene
    format, or a LagrangianSystem (a ``moreau.callback_system`` of Python callables, a
    ``moreau.gallery`` system, …), which starts from its ``initial_q`` / ``initial_v``.
    out: folder for trajectory.csv, contacts.csv, events.csv, summary.json and geometry.json (the
    bodies' shapes, for ``moreau.view``), or run.h5 (None: write nothing).
    t_end: final time, s (> 0), overriding the scene's (required for a system).
    integrator: a dict named as a scene's "integrator" object, e.g. ``{"dt": 1e-3}`` or
    ``{"kind": "event", "rtol": 1e-9}``, whose keys override the scene's; a string is the kind
    ("timestepping" or "event").
    format: "csv" or "hdf5" (one run.h5, docs/run-format.md), overriding the scene's output.format.
    plot: draw plot.png into out (default: only when the scene's output.plot is true).
    controller: a function called as ``controller(sim)`` before every time step with the
    ``moreau.Simulator`` that runs the scene; it reads ``sim.t``, ``sim.q``, ``sim.v`` and sets
    ``sim.ctrl``, ``sim.qfrc_applied`` or ``sim.xfrc_applied``. Time stepping only.
    keyframe, joints, srdf, base_pose: the initial state, as for ``moreau.Simulator`` (a keyframe
    name; {joint: value}; an SRDF file whose group_states become keyframes; the base's pose).
    package_dirs: folders where a URDF's package:// URIs are looked for first.
    self_collision: let a URDF robot's links collide with each other (docs/urdf.md).
    initial_overlap: 'resolve' (default), 'ignore' or 'refuse' bodies that interpenetrate at the
    start (docs/scene-format.md §Contact).
    balance_inertia: give a URDF inertia that breaks the triangle inequality the mean of its
    principal moments instead of refusing it (docs/urdf.md).
    Bad input raises InputError (a ValueError) naming the argument or the field.
    """
    from . import _moreau
    from ._errors import InputError, finite_number, path_or_none
    who = "moreau.simulate()"
    out = path_or_none(who, "out", out)
    if format is not None and format not in ("csv", "hdf5"):
        raise InputError(f"{who}: argument 'format' = {format!r}: expected 'csv' or 'hdf5'")
    if t_end is not None:
        t_end = finite_number(who, "t_end", t_end)
        if t_end <= 0:
            raise InputError(f"{who}: argument 't_end' = {t_end!r}: must be > 0 s")
    integrator = _integrator_overrides(who, integrator)
    if plot is not None and not isinstance(plot, bool):
        raise InputError(f"{who}: argument 'plot' = {plot!r}: expected True, False or None")
    if controller is not None and not callable(controller):
        raise InputError(f"{who}: argument 'controller' = {controller!r}: expected a function "
                         f"called as controller(sim) before every step")
    if isinstance(scene_or_path, _moreau.LagrangianSystem):
        for name, value in (("floating_base", floating_base), ("ground", ground),
                            ("controller", controller), ("keyframe", keyframe), ("joints", joints),
                            ("srdf", srdf), ("base_pose", base_pose),
                            ("package_dirs", package_dirs), ("self_collision", self_collision),
                            ("initial_overlap", initial_overlap),
                            ("balance_inertia", balance_inertia)):
            if value:
                raise InputError(f"{who}: argument '{name}' applies to a scene or model file, "
                                 f"not to a LagrangianSystem")
        if t_end is None:
            raise InputError(f"{who}: argument 't_end' is required when simulating a system")
        data = _moreau._simulate_system(scene_or_path, t_end, json.dumps(integrator or {}),
                                        "" if out is None else out, format or "")
    else:
        from ._simulator import _model_source, _start_options
        text, is_path = _model_source(who, scene_or_path, "scene_or_path")
        start = dict(floating_base=floating_base, ground=ground, keyframe=keyframe, joints=joints,
                     srdf=srdf, base_pose=base_pose, package_dirs=package_dirs,
                     self_collision=self_collision, initial_overlap=initial_overlap,
                     balance_inertia=balance_inertia)
        options = _start_options(who, text, is_path, **start)
        if controller is not None:
            data = _simulate_controlled(who, scene_or_path, controller, out, t_end, integrator,
                                        format, start)
        else:
            data = _moreau._simulate_scene(text, is_path, "" if out is None else out,
                                           float("nan") if t_end is None else t_end,
                                           json.dumps(integrator) if integrator else "",
                                           format or "", options)
    import warnings
    for message in data.get("import_warnings", []):
        warnings.warn(message, ModelWarning, stacklevel=2)
    res = SimulationResult(data, out=out)
    if out is not None and (plot if plot is not None else res.summary.get("plot", False)):
        try:
            globals()["plot"](res, os.path.join(out, "plot.png"))
        except ImportError:
            pass
    return res


def _integrator_overrides(who, integrator):
    """The integrator argument as a dict of scene "integrator" keys (None when not given)."""
    from ._errors import InputError
    if integrator is None:
        return None
    if isinstance(integrator, str):
        integrator = {"kind": integrator}
    if not isinstance(integrator, dict):
        raise InputError(f"{who}: argument 'integrator' = {integrator!r}: expected a dict of "
                         f"integrator settings (e.g. {{'dt': 1e-3}}) or a kind")
    kind = integrator.get("kind")
    if kind is not None and kind not in ("timestepping", "event"):
        raise InputError(f"{who}: argument 'integrator' kind = {kind!r}: expected 'timestepping' "
                         f"or 'event'")
    return integrator


def _simulate_controlled(who, model, controller, out, t_end, integrator, format, start):
    """The run of simulate(controller=f): a Simulator recorded from t = 0 to t_end, with
    controller(sim) called before every step."""
    from ._errors import InputError
    from ._simulator import Simulator
    sim = Simulator(model, integrator=integrator, **start)
    if sim.integrator != "timestepping":
        raise InputError(f"{who}: argument 'controller' drives the time-stepping integrator; the "
                         f"scene's integrator is event-driven (give integrator='timestepping')")
    end = sim.t_end if t_end is None else t_end
    steps = int(round(end / sim.dt))
    sim.start_recording()
    for _ in range(steps):
        controller(sim)
        sim.step()
    data = sim._sim.stop_recording("" if out is None else out, format or sim._format)
    data["summary"]["plot"] = sim._plot
    return data


def scene_system(scene_or_path):
    """The Lagrangian system a scene describes: rigid bodies, shapes and joints in 2D or 3D (a rigid
    world, contacts found by collision detection) or a gallery system, starting from the scene's
    state (``initial_q`` / ``initial_v``). scene_or_path: a path to a JSON scene file, JSON text or
    a dict in the scene format (docs/scene-format.md). Give it to ``moreau.simulate``,
    ``moreau.analyze`` or call its ``contact_state``. Bad input raises ValueError naming the field.
    """
    from . import _moreau
    from ._errors import InputError
    if isinstance(scene_or_path, dict):
        return _moreau._scene_system(json.dumps(scene_or_path), False)
    if isinstance(scene_or_path, (str, os.PathLike)) and os.path.exists(os.fspath(scene_or_path)):
        return _moreau._scene_system(os.fspath(scene_or_path), True)
    if isinstance(scene_or_path, str) and scene_or_path.lstrip().startswith("{"):
        return _moreau._scene_system(scene_or_path, False)
    raise InputError(f"moreau.scene_system(): argument 'scene_or_path' = {scene_or_path!r}: expected an existing "
                     f"file, JSON text or a dict")


def convert(model, out=None, floating_base=False, ground=False, keyframe=None, joints=None,
            srdf=None, base_pose=None, package_dirs=None, self_collision=False,
            initial_overlap=None, balance_inertia=False):
    """The scene (a dict in docs/scene-format.md) of an MJCF model (.xml) or a URDF robot (.urdf,
    placed by floating_base and ground), as ``moreau convert`` writes it; written to ``out`` as
    JSON when given. What the import ignored is reported as ModelWarning. Bad input raises
    ValueError naming the file, element and attribute."""
    import warnings
    from . import _moreau
    from ._errors import InputError, path_or_none
    out = path_or_none("moreau.convert()", "out", out)
    if not isinstance(model, (str, os.PathLike)) or not os.path.exists(os.fspath(model)):
        raise InputError(f"moreau.convert(): argument 'model' = {model!r}: expected an existing file")
    from ._simulator import _start_options
    options = _start_options("moreau.convert()", os.fspath(model), True, floating_base, ground,
                             keyframe, joints, srdf, base_pose, package_dirs, self_collision,
                             initial_overlap, balance_inertia)
    text, notes = _moreau._convert_model(os.fspath(model), options)
    for message in notes:
        warnings.warn(message, ModelWarning, stacklevel=2)
    scene = json.loads(text)
    if out is not None:
        tmp = os.fspath(out) + ".tmp"
        with open(tmp, "w") as f:
            json.dump(scene, f, indent=2)
            f.write("\n")
        os.replace(tmp, os.fspath(out))
    return scene


# ---------------------------------------------------------------------------------------------
# plotting

# Velocity column names written by the systems (model/*::velocity_names): rigid worlds and
# spatial systems "body.vx … body.wz", planar worlds "body.omega", planar systems "body.x_dot",
# callback systems "name_dot", generic systems "v0, v1, …".
_VELOCITY_SUFFIXES = {"vx", "vy", "vz", "wx", "wy", "wz", "omega"}


def _is_velocity_name(name):
    last = name.rsplit(".", 1)[-1]
    return (last in _VELOCITY_SUFFIXES or last.endswith("_dot")
            or (len(last) > 1 and last[0] == "v" and last[1:].isdigit()))


def _position_count(names, summary):
    """nq from the trajectory.csv columns between t and the two energies: positions come first and
    the velocities start at the first velocity name. A 3D body has 7 positions (x, y, z, qw, qx,
    qy, qz) but 6 velocities, so halving the column count is wrong there."""
    if "position_size" in summary:
        return int(summary["position_size"])
    for j, name in enumerate(names):
        if _is_velocity_name(name):
            return j
    return len(names) // 2


def load_run(path):
    """A run written by ``moreau simulate`` or ``moreau.simulate(out=…)``, as a SimulationResult.

    path: a folder of CSV files (trajectory.csv, contacts.csv, events.csv, summary.json), a folder
    holding run.h5, or a run.h5 file (docs/run-format.md; read with h5py). Both give the same
    arrays: t, q, v, kinetic, potential, the names, contacts (t, contact, gap, r_n, r_t, mode),
    events and summary. A missing or foreign file raises ValueError naming it.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        h5 = os.path.join(path, "run.h5")
        if os.path.exists(h5):
            return SimulationResult(_read_h5(h5), out=path)
        if not os.path.exists(os.path.join(path, "trajectory.csv")):
            raise ValueError(f"moreau.load_run(): '{path}' holds neither run.h5 nor trajectory.csv")
        return SimulationResult(_read_dir(path), out=path)
    if not os.path.exists(path):
        raise ValueError(f"moreau.load_run(): '{path}' does not exist")
    return SimulationResult(_read_h5(path), out=os.path.dirname(path) or ".")


def _read_h5(path):
    import numpy as np
    try:
        import h5py
    except ImportError as e:  # pragma: no cover - h5py is a dependency of the test suite
        raise ImportError("moreau.load_run(): reading run.h5 needs h5py (python3-h5py)") from e
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ValueError(f"moreau.load_run(): '{path}' is not an HDF5 file ({e})") from None
    with f:
        if "moreau_run_version" not in f.attrs:
            raise ValueError(f"moreau.load_run(): '{path}' is not a moreau run file "
                             f"(no moreau_run_version attribute)")

        def strings(name):
            return [s.decode() if isinstance(s, bytes) else str(s) for s in f[name][()]]

        summary = json.loads(f["summary"][()].decode() if isinstance(f["summary"][()], bytes)
                             else f["summary"][()])
        names = strings("contacts/names")
        mode_names = [s.decode() if isinstance(s, bytes) else str(s)
                      for s in f["contacts/mode"].attrs["names"]]
        contacts = {
            "t": f["contacts/t"][()], "contact": f["contacts/contact"][()].astype(int),
            "gap": f["contacts/gap"][()], "r_n": f["contacts/r_n"][()],
            "r_t": f["contacts/r_t"][()],
            "mode": [mode_names[m] for m in f["contacts/mode"][()]],
        }
        m = len(contacts["t"])
        for key in ("point", "normal"):  # runs before 0.3 have none
            contacts[key] = (f["contacts/" + key][()].reshape(m, 3) if "contacts/" + key in f
                             else np.full((m, 3), np.nan))
        kinds, details = strings("events/kind"), strings("events/detail")
        events = []
        for t, kind, contact, detail in zip(f["events/t"][()], kinds, f["events/contact"][()],
                                            details):
            contact = int(contact)
            events.append({"t": float(t), "kind": kind, "contact": contact,
                           "name": names[contact] if 0 <= contact < len(names) else "",
                           "detail": detail})
        q = f["q"][()]
        v = f["v"][()]
        return {
            "t": f["t"][()], "q": q.reshape(len(f["t"]), -1), "v": v.reshape(len(f["t"]), -1),
            "kinetic": f["kinetic_energy"][()], "potential": f["potential_energy"][()],
            "position_names": strings("position_names"),
            "velocity_names": strings("velocity_names"),
            "contact_names": names, "contacts": contacts, "events": events, "summary": summary,
        }


def _read_dir(folder):
    import numpy as np
    if os.path.exists(os.path.join(folder, "run.h5")):
        return _read_h5(os.path.join(folder, "run.h5"))
    with open(os.path.join(folder, "trajectory.csv")) as f:
        rows = list(csv.reader(f))
    header, body = rows[0], np.array(rows[1:], dtype=float).reshape(-1, len(rows[0]))
    with open(os.path.join(folder, "summary.json")) as f:
        summary = json.load(f)
    nq = _position_count(header[1:-2], summary)
    nv = len(header) - 3 - nq
    data = {
        "t": body[:, 0], "q": body[:, 1:1 + nq], "v": body[:, 1 + nq:1 + nq + nv],
        "kinetic": body[:, -2], "potential": body[:, -1],
        "position_names": header[1:1 + nq], "velocity_names": header[1 + nq:1 + nq + nv],
        "contact_names": summary.get("contacts", []), "summary": summary,
    }
    with open(os.path.join(folder, "contacts.csv")) as f:
        crow = list(csv.DictReader(f))
    tangents = sorted(k for k in (crow[0].keys() if crow else []) if k.startswith("r_t"))
    data["contacts"] = {
        "t": np.array([float(r["t"]) for r in crow]),
        "contact": np.array([int(r["contact"]) for r in crow], dtype=int),
        "gap": np.array([float(r["gap"]) for r in crow]),
        "r_n": np.array([float(r["r_n"]) for r in crow]),
        "r_t": np.array([[float(r[k]) for k in tangents] for r in crow],
                        dtype=float).reshape(len(crow), len(tangents)),
        "mode": [r["mode"] for r in crow],
    }
    for key, cols in (("point", ("x", "y", "z")), ("normal", ("nx", "ny", "nz"))):
        data["contacts"][key] = np.array(
            [[float(r[c]) if r.get(c) else np.nan for c in cols] for r in crow],
            dtype=float).reshape(len(crow), 3)
    with open(os.path.join(folder, "events.csv")) as f:
        data["events"] = [dict(r, t=float(r["t"]), contact=int(r["contact"])) for r in csv.DictReader(f)]
    return data


_MODE_COLOURS = {"stick": "tab:green", "slip": "tab:orange", "separate": "white"}
_EVENT_MARKERS = {"impact": ("v", "tab:red"), "stick_to_slip": ("o", "tab:orange"),
                  "slip_to_stick": ("s", "tab:green"), "separation": ("^", "tab:purple"),
                  "painleve": ("X", "black"), "slip_reversal": ("d", "tab:brown"),
                  "contact": (".", "tab:blue")}


def plot(result_or_dir, path=None):
    """Draws energy, the mode timeline of each contact and a position trace.

    result_or_dir: a SimulationResult or a folder written by ``moreau simulate``; path: the PNG
    to write (default DIR/plot.png, or plot.png). Returns the path.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    if isinstance(result_or_dir, (str, os.PathLike)):
        folder = os.fspath(result_or_dir)
        d = _read_dir(folder)
        path = path or os.path.join(folder, "plot.png")
    else:
        r = result_or_dir
        d = {"t": r.t, "q": r.q, "kinetic": r.kinetic, "potential": r.potential,
             "position_names": r.position_names, "contact_names": r.contact_names,
             "contacts": r.contacts, "events": r.events, "summary": r.summary}
        path = path or (os.path.join(r.out, "plot.png") if r.out else "plot.png")
    t = np.asarray(d["t"])
    E = np.asarray(d["kinetic"]) + np.asarray(d["potential"])
    summary = d["summary"]
    fig, ax = plt.subplots(3, 1, figsize=(9, 9), sharex=True,
                           gridspec_kw={"height_ratios": [1.0, 1.0, 1.2]})
    ax[0].plot(t, E, color="black", label="total")
    ax[0].plot(t, d["kinetic"], color="tab:blue", lw=0.8, label="kinetic")
    ax[0].plot(t, d["potential"], color="tab:green", lw=0.8, label="potential")
    ax[0].set_ylabel("energy (J)")
    ax[0].legend(loc="best", fontsize=8)
    ax[0].set_title(f"{summary.get('system', '')}: {summary.get('integrator', '')} integrator, "
                    f"status {summary.get('status', '')}")

    # mode timeline: one row per contact that appears in contacts.csv
    c = d["contacts"]
    ct, cid, modes = np.asarray(c["t"]), np.asarray(c["contact"], dtype=int), list(c["mode"])
    ids = sorted(set(cid.tolist()))
    names = d["contact_names"]
    if len(ids) > 24:
        ids = ids[:24]
    dt_rec = np.median(np.diff(t)) if len(t) > 1 else 1.0
    for row, k in enumerate(ids):
        sel = np.nonzero(cid == k)[0]
        for mode in sorted(set(modes[j] for j in sel)):
            tm = ct[[j for j in sel if modes[j] == mode]]
            ax[1].scatter(tm, np.full(len(tm), row), marker="|", s=60,
                          color=_MODE_COLOURS.get(mode, "tab:blue"), label=mode)
    handles, labels = ax[1].get_legend_handles_labels()
    uniq = dict(zip(labels, handles))
    if uniq:
        ax[1].legend(uniq.values(), uniq.keys(), loc="upper right", fontsize=8)
    ax[1].set_yticks(range(len(ids)))
    ax[1].set_yticklabels([names[k] if k < len(names) else str(k) for k in ids], fontsize=7)
    ax[1].set_ylim(-0.8, max(len(ids), 1) - 0.2)
    ax[1].set_ylabel("contact mode")
    seen = set()
    for e in d["events"]:
        m, col = _EVENT_MARKERS.get(e["kind"], ("*", "black"))
        row = ids.index(e["contact"]) if e["contact"] in ids else -0.5
        ax[1].plot([e["t"]], [row], m, color=col, ms=7,
                   label=None if e["kind"] in seen else e["kind"])
        seen.add(e["kind"])

    q = np.asarray(d["q"])
    pnames = list(d["position_names"])
    shown = 0
    for j in range(q.shape[1] if q.ndim == 2 else 0):
        if shown >= 6:
            break
        if np.ptp(q[:, j]) == 0:
            continue
        ax[2].plot(t, q[:, j], label=pnames[j] if j < len(pnames) else f"q{j}")
        shown += 1
    for e in d["events"]:
        if e["kind"] in ("impact", "stick_to_slip", "slip_to_stick", "separation", "painleve"):
            ax[2].axvline(e["t"], color=_EVENT_MARKERS[e["kind"]][1], lw=0.6, alpha=0.6)
    ax[2].set_ylabel("position (m, rad)")
    ax[2].set_xlabel("t (s)")
    if shown:
        ax[2].legend(loc="best", fontsize=8)
    fig.tight_layout()
    # the same rule as the C++ atomic writer (io/os/atomic_file.hpp): a uniquely named temporary
    # file beside the target, then an atomic rename
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".tmp-", suffix=".png",
                               dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format="png", dpi=110)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    finally:
        plt.close(fig)
    return path


def _main(argv):
    if len(argv) != 3 or argv[1] != "plot":
        print("usage: _simulate.py plot DIR", file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("moreau: plot.png skipped: matplotlib is not installed", file=sys.stderr)
        return 1
    plot(argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
