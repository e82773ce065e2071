"""Impact laws from Python (owner module _impact; see docs/cli.md (moreau impact) for the SPEC format).

``impact(spec)`` runs the same code as ``moreau impact SPEC.json --json`` and returns the same
content as a dict; ``plot_impact(result)`` draws the impulse curve and the tangential velocity
against the normal impulse, as the figures of Y.-B. Jia, "Energy-based modeling of tangential
compliance in 3-dimensional impact" (WAFR 2010) do.
"""
import json
import os

from . import _moreau

__all__ = ["impact", "plot_impact"]


def impact(spec):
    """Run an impact SPEC.

    ``spec`` is a dict (the SPEC itself), a JSON string, or a path to a SPEC.json file. Returns a
    dict with ``law``, ``status``, ``bodies`` (name, velocity, angular_velocity),
    ``contacts`` (impulse, normal_impulse, frame, events[kind, normal_impulse], curve),
    ``kinetic_energy`` {before, after, change} and, for the compliant law, ``step``, ``steps`` and
    ``error_estimate``. Invalid input raises ValueError naming the field and value, and so does a
    result with a number that is not finite (a SPEC whose velocities of 1e308 m/s overflow).
    """
    source = "impact SPEC"
    if isinstance(spec, dict):
        text = json.dumps(spec)
    elif isinstance(spec, os.PathLike) or (isinstance(spec, str) and not spec.lstrip().startswith("{")):
        with open(spec, encoding="utf-8") as f:
            text = f.read()
        source = os.fspath(spec)  # messages start with the file, as the command line's do
    elif isinstance(spec, str):
        text = spec
    else:
        raise ValueError("impact() takes a SPEC dict, a JSON string or a path, got %r" % type(spec))
    return json.loads(_moreau._impact_json(text, source=source))


def plot_impact(result, path=None, contact=0, title=None):
    """Plot one contact of an ``impact`` result (compliant law): left, the impulse curve
    (tangential impulses I_u, I_w against the normal impulse p); right, the tangential contact
    velocities v_u, v_w against p. Mode transitions are marked with dotted lines. û points against
    the initial tangential velocity (Jia 2010's frame). Saves a PNG when ``path`` is given (Agg
    backend, no display needed) and returns the matplotlib Figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    contacts = result.get("contacts", [])
    if not 0 <= contact < len(contacts):
        raise ValueError("contact %d does not exist (the result has %d)" % (contact, len(contacts)))
    c = contacts[contact]
    curve = c.get("curve")
    if not curve or not curve.get("normal_impulse"):
        raise ValueError("the result has no impulse curve (only the compliant law records one)")
    p = curve["normal_impulse"]
    fig = Figure(figsize=(10, 4))
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot(p, curve["impulse_u"], label="I_u")
    ax1.plot(p, curve["impulse_w"], "--", label="I_w")
    ax1.set_xlabel("normal impulse p (N·s)")
    ax1.set_ylabel("tangential impulse (N·s)")
    ax1.set_title("impulse curve")
    ax2.plot(p, curve["velocity_u"], label="v_u")
    ax2.plot(p, curve["velocity_w"], "--", label="v_w")
    ax2.plot(p, curve["velocity_n"], ":", label="v_n")
    ax2.axhline(0.0, color="0.6", lw=0.5)
    ax2.set_xlabel("normal impulse p (N·s)")
    ax2.set_ylabel("contact velocity (m/s)")
    ax2.set_title("contact velocity")
    for e in c.get("events", []):
        if e["kind"].startswith("start_"):
            continue
        for ax in (ax1, ax2):
            ax.axvline(e["normal_impulse"], color="0.5", ls=":", lw=0.8)
        ax2.annotate(e["kind"].replace("_", " "), (e["normal_impulse"], ax2.get_ylim()[1]),
                     rotation=90, va="top", ha="right", fontsize=7)
    ax1.legend()
    ax2.legend(loc="lower right")
    fig.suptitle(title or "%s impact%s" % (result.get("law", ""),
                                           " (%s)" % result["variant"] if "variant" in result else ""))
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig
